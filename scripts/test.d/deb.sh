#!/usr/bin/env bash
# The Debian package end to end: builds it (scripts/build-deb.sh), checks
# its control data and contents, unpacks it into a scratch root with
# `dpkg -x` (no system change), and runs the unpacked fp-opt, tools and
# Python package and builds examples/embed against the unpacked CMake
# package. Last line: "deb: N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BUILD:-${FPOPT_BUILD_DIR:-$ROOT/build}}"
LLVM=/usr/lib/llvm-22
OUTDIR="$BUILD/deb"
SCRATCH="$BUILD/deb/root"
EXAMPLE_BUILD="$BUILD/deb/example-build"
LOGS="$BUILD/deb/logs"

passed=0
failed=0
check() {
  local name="$1"
  shift
  if "$@" >"$LOGS/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS: $name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name"
    tail -n 20 "$LOGS/$name.log"
  fi
}
finish() {
  echo "deb: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
# expect_output NAME PATTERN COMMAND...: COMMAND succeeds and prints PATTERN.
expect_output() {
  local name="$1" pattern="$2"
  shift 2
  check "$name" bash -c 'out=$("${@:2}" 2>&1) && grep -qE -- "$1" <<<"$out"' \
    _ "$pattern" "$@"
}

rm -rf "$SCRATCH" "$EXAMPLE_BUILD" "$LOGS"
mkdir -p "$LOGS"
check build-deb bash "$ROOT/scripts/build-deb.sh" "$OUTDIR"
[ "$failed" -eq 0 ] || finish
DEB="$(ls "$OUTDIR"/fp-opt_*.deb | head -n 1)"

# Control data: Debian's MLIR 22 is a dependency, the version is ours.
expect_output depends-on-libmlir '(^|, )libmlir-22 ' dpkg-deb -f "$DEB" Depends
expect_output version "^$(sed -nE 's/^project\(fp-opt VERSION ([0-9.]+).*/\1/p' "$ROOT/CMakeLists.txt")" \
  dpkg-deb -f "$DEB" Version
# Contents: tools, headers, libraries, CMake package, Python package.
for f in usr/bin/fp-opt usr/bin/fp-opt-lsp-server usr/bin/fp-opt-reduce \
         usr/bin/lowp-report-html \
         usr/include/lowp/InitLowp.h usr/include/lowp-c/Dialect.h \
         usr/include/lowp/Transforms/Passes.h.inc \
         usr/lib/libFpOptCAPI.so usr/lib/libLowpPipelines.a \
         usr/lib/cmake/FpOpt/FpOptConfig.cmake \
         usr/lib/cmake/FpOpt/FpOptTargets.cmake \
         usr/lib/python3/dist-packages/fpopt/__init__.py; do
  expect_output "contains-$(basename "$f")" "\./$f( -> .*)?\$" dpkg-deb -c "$DEB"
done
# Nothing outside /usr, nothing from the build tree.
check only-usr bash -c "! dpkg-deb -c '$DEB' | awk '{print \$6}' | grep -vE '^\./(usr(/.*)?)?$'"

# The steps below need the one before them; the checks above do not.
before=$failed
check unpack dpkg -x "$DEB" "$SCRATCH"
[ "$failed" -eq "$before" ] || finish
U="$SCRATCH/usr"

# The unpacked tools run from the scratch root (libMLIR.so from Debian).
expect_output fp-opt-version 'fp-opt [0-9.]+ \(lowp dialect\)' "$U/bin/fp-opt" --version
expect_output fp-opt-runs-pipeline 'linalg.matmul ins\(%[0-9]+, %[0-9]+ : tensor<8x64xbf16>' \
  "$U/bin/fp-opt" "$ROOT/examples/models/mlp.mlir" \
  '--lowp-auto-mixed-precision=target=sm_90'
# The installed report page builder, on a report of the installed fp-opt.
check report-json "$U/bin/fp-opt" "$ROOT/examples/models/mlp.mlir" -o /dev/null \
  "--lowp-auto-mixed-precision=target=sm_90 report=$LOGS/mlp.json"
expect_output report-page '<table id="ops">' bash -c \
  '"$1" "$2" -o "$3" >/dev/null && cat "$3"' _ \
  "$U/bin/lowp-report-html" "$LOGS/mlp.json" "$LOGS/mlp.html"
expect_output lsp-server-help 'lit-test' "$U/bin/fp-opt-lsp-server" --help
expect_output reduce-help 'reduction-tree' "$U/bin/fp-opt-reduce" --help
expect_output python-package "^$U/lib/python3/dist-packages/fpopt/__init__.py" env \
  PYTHONPATH="$U/lib/python3/dist-packages" /usr/bin/python3 -c \
  "import fpopt; print(fpopt.__file__); assert 'lowp.cast' in fpopt.run_pipeline(open('$ROOT/examples/embed/input.mlir').read(), 'canonicalize')"

# The embed example against the unpacked CMake package only.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
before=$failed
check embed-configure cmake -G Ninja -S "$ROOT/examples/embed" -B "$EXAMPLE_BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=$LLVM/bin/clang -DCMAKE_CXX_COMPILER=$LLVM/bin/clang++ \
  -DLLVM_USE_LINKER=lld \
  -DFpOpt_DIR="$U/lib/cmake/FpOpt" "${launcher[@]}"
[ "$failed" -eq "$before" ] || finish
expect_output embed-uses-unpacked-package "$U/lib/cmake/FpOpt" \
  grep -E '^FpOpt_DIR' "$EXAMPLE_BUILD/CMakeCache.txt"
before=$failed
check embed-build cmake --build "$EXAMPLE_BUILD" -j2
[ "$failed" -eq "$before" ] || finish
expect_output embed-runs-fp-opt-pipeline \
  'linalg.matmul ins\(%[0-9]+, %[0-9]+ : tensor<4x8xbf16>, tensor<8x4xbf16>\)' \
  "$EXAMPLE_BUILD/embed-opt" "$ROOT/examples/embed/matmul.mlir" \
  '--embed-pipeline=precision=lowp-auto-mixed-precision{target=sm_90}'
expect_output embed-c-uses-unpacked-capi "$U/lib/libFpOptCAPI.so" \
  ldd "$EXAMPLE_BUILD/embed-c"
expect_output embed-c-runs-pipeline '#lowp.target<"sm_90">' \
  "$EXAMPLE_BUILD/embed-c" "$ROOT/examples/embed/input.mlir" \
  "builtin.module(func.func(canonicalize))"

finish
