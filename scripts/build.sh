#!/usr/bin/env bash
# Configures (once) and builds fp-opt into ./build with clang-22 and ninja.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
LLVM=/usr/lib/llvm-22

if [ ! -f "$BUILD/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=$LLVM/bin/clang \
    -DCMAKE_CXX_COMPILER=$LLVM/bin/clang++ \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=$LLVM/lib/cmake/mlir \
    -DLLVM_DIR=$LLVM/lib/cmake/llvm \
    -DLLVM_EXTERNAL_LIT=$LLVM/bin/lit \
    -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DCMAKE_INSTALL_PREFIX="$BUILD/install" \
    "${launcher[@]}"
fi
if [ $# -eq 0 ]; then
  # Everything, and the ODS-generated docs (test/docs-up-to-date.test).
  cmake --build "$BUILD"
  cmake --build "$BUILD" --target mlir-doc >/dev/null
else
  cmake --build "$BUILD" "$@"
fi
