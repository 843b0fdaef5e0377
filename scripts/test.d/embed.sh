#!/usr/bin/env bash
# The CMake package end to end: installs the build into a prefix, configures
# and builds examples/embed against the installed tree only (find_package
# (FpOpt)), and runs the example tools, the installed fp-opt and the
# installed Python package. Last line: "embed: N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BUILD:-${FPOPT_BUILD_DIR:-$ROOT/build}}"
LLVM=/usr/lib/llvm-22
PREFIX="$BUILD/embed/install"
EXAMPLE_BUILD="$BUILD/embed/example-build"
OUT="$BUILD/embed/out"
INPUT="$ROOT/examples/embed/input.mlir"

passed=0
failed=0
# check NAME COMMAND...: one test; its output is kept in $OUT/NAME.log.
check() {
  local name="$1"
  shift
  if "$@" >"$OUT/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS: $name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name"
    tail -n 20 "$OUT/$name.log"
  fi
}
finish() {
  echo "embed: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

rm -rf "$PREFIX" "$OUT"
mkdir -p "$OUT"

check install cmake --install "$BUILD" --prefix "$PREFIX"
[ "$failed" -eq 0 ] || finish

launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# Only the installed tree is visible: FpOpt_DIR points into the prefix and
# the build tree is not on any path.
check configure cmake -G Ninja -S "$ROOT/examples/embed" -B "$EXAMPLE_BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=$LLVM/bin/clang -DCMAKE_CXX_COMPILER=$LLVM/bin/clang++ \
  -DLLVM_USE_LINKER=lld \
  -DFpOpt_DIR="$PREFIX/lib/cmake/FpOpt" "${launcher[@]}"
[ "$failed" -eq 0 ] || finish
check build cmake --build "$EXAMPLE_BUILD" -j2
[ "$failed" -eq 0 ] || finish

EMBED_OPT="$EXAMPLE_BUILD/embed-opt"
EMBED_C="$EXAMPLE_BUILD/embed-c"

# expect_output NAME PATTERN COMMAND...: COMMAND succeeds and prints PATTERN.
expect_output() {
  local name="$1" pattern="$2"
  shift 2
  check "$name" bash -c '"${@:2}" && "${@:2}" | grep -qE -- "$1"' _ "$pattern" "$@"
}
# expect_absent NAME PATTERN COMMAND...: COMMAND succeeds, never prints PATTERN.
expect_absent() {
  local name="$1" pattern="$2"
  shift 2
  check "$name" bash -c '"${@:2}" && ! "${@:2}" | grep -qE -- "$1"' _ "$pattern" "$@"
}

# The example tool lists fp-opt's passes next to upstream ones and its own.
expect_output help-lists-upstream '--canonicalize' "$EMBED_OPT" --help
expect_output help-lists-lowp '--lowp-' "$EMBED_OPT" --help
expect_output help-lists-own-pipeline '--embed-pipeline' "$EMBED_OPT" --help
# It parses lowp and upstream IR and runs upstream passes on it.
expect_output opt-keeps-live-cast 'lowp.cast %0 : tensor<4xf32> to tensor<4xbf16>' \
  "$EMBED_OPT" "$INPUT" --canonicalize
expect_absent opt-removes-dead-cast 'xf16>' "$EMBED_OPT" "$INPUT" --canonicalize
expect_output own-pipeline 'linalg.add' "$EMBED_OPT" "$INPUT" --embed-pipeline
# fp-opt's pipeline runs inside the embedder's own, on the embedder's IR.
expect_output own-pipeline-runs-fp-opt \
  'linalg.matmul ins\(%[0-9]+, %[0-9]+ : tensor<4x8xbf16>, tensor<8x4xbf16>\)' \
  "$EMBED_OPT" "$ROOT/examples/embed/matmul.mlir" \
  '--embed-pipeline=precision=lowp-auto-mixed-precision{target=sm_90}'
expect_absent own-pipeline-respects-target 'bf16' \
  "$EMBED_OPT" "$ROOT/examples/embed/matmul.mlir" \
  '--embed-pipeline=precision=lowp-auto-mixed-precision{target=avx2}'
# The same decisions built from fp-opt's C++ pipeline API, without text.
expect_output own-pipeline-builds-fp-opt-from-cpp \
  'linalg.matmul ins\(%[0-9]+, %[0-9]+ : tensor<4x8xbf16>, tensor<8x4xbf16>\)' \
  "$EMBED_OPT" "$ROOT/examples/embed/matmul.mlir" '--embed-pipeline=target=sm_90'
expect_absent own-pipeline-cpp-respects-target 'bf16' \
  "$EMBED_OPT" "$ROOT/examples/embed/matmul.mlir" '--embed-pipeline=target=avx2'
# A bad fp-opt pipeline is an error in the embedder's pipeline, not an abort.
check own-pipeline-reports-bad-text bash -c \
  "err=\$('$EMBED_OPT' '$ROOT/examples/embed/matmul.mlir' \
     '--embed-pipeline=precision=lowp-no-such-pipeline' 2>&1); rc=\$?;
   [ \$rc -eq 1 ] && grep -q 'invalid precision pipeline' <<<\"\$err\""
# Its dialect set is its own: the ops of dialects it did not register fail.
check opt-rejects-unregistered bash -c \
  "! echo 'func.func @f() { gpu.barrier return }' | '$EMBED_OPT' -"

# The C consumer, through libFpOptCAPI of the prefix.
expect_output c-runs-pipeline '#lowp.target<"sm_90">' \
  "$EMBED_C" "$INPUT" "builtin.module(func.func(canonicalize))"
check c-reports-failure bash -c \
  "err=\$('$EMBED_C' '$INPUT' lowp-no-such-pass 2>&1 >/dev/null); rc=\$?;
   [ \$rc -eq 1 ] && grep -q 'does not refer to a registered pass' <<<\"\$err\""

# The installed fp-opt and Python package work from the prefix alone.
expect_output installed-fp-opt 'fp-opt [0-9.]+' "$PREFIX/bin/fp-opt" --version
expect_output installed-python 'lowp.cast' env \
  PYTHONPATH="$PREFIX/python_packages" /usr/bin/python3 -c \
  "import fpopt, sys; print(fpopt.run_pipeline(open(sys.argv[1]).read(), 'canonicalize'))" \
  "$INPUT"

finish
