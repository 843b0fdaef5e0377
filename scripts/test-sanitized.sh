#!/usr/bin/env bash
# Builds fp-opt with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DFPOPT_ENABLE_SANITIZERS=ON; LeakSanitizer is on with ASan) into
# ./build-asan and runs the suites against it: lit (which runs the C API
# tests, the fuzz smoke slices and every fp-opt invocation under the
# sanitizers), the GoogleTest unit tests, the Python tests (the extension
# loaded with the ASan runtime preloaded) and a fuzz slice of generated and
# mutated programs. Any sanitizer report fails the test it happens in.
#
# The instrumented build is -O1 (what the sanitizers recommend; about half
# the compile time of -O3) and niced; JOBS (default 1) sets its parallelism.
#
#   scripts/test-sanitized.sh              # every suite + a fuzz slice
#   scripts/test-sanitized.sh --fuzz-only  # fp-opt alone, then the campaign:
#       FUZZ_MUTANTS mutants (utils/fuzz_mutate.py, every decision pass and
#       lowering), FUZZ_SEEDS generated programs (utils/fuzz_passes.py: every
#       lowering and the decision pipeline of every target on each program,
#       every other decision pass and composition on every
#       FUZZ_ALL_CONFIGS_EVERY-th, default 1: all on all) and the
#       lit + generated corpus through every pipeline
#       (utils/check_no_error_on_success.py, CORPUS_GENERATED programs);
#       FUZZ_TIMEOUT seconds per fp-opt run (a hang is a failure).
#       A campaign splits across cores by running the script once per core
#       with disjoint FUZZ_START (first generated seed) and FUZZ_MUTATE_SEED
#       (the mutator's random seed), each with its own FUZZ_LOG_DIR; a count
#       of 0 skips that part.
#
#   scripts/test-sanitized.sh --preload    # no instrumented build: the
#       release build/bin/fp-opt with the ASan runtime preloaded
#       (FUZZ_CHILD_PRELOAD), then the same campaign. It catches what the
#       runtime's allocator and interceptors see (double and invalid frees,
#       heap overflows inside libc calls, leaks), not bad loads and stores
#       or undefined behaviour; minutes instead of the instrumented build's
#       hour on a loaded 2-core machine.
#
# Last line: "sanitized: N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_ASAN_BUILD_DIR:-$ROOT/build-asan}"
LLVM=/usr/lib/llvm-22
JOBS="${JOBS:-1}"
FUZZ_ONLY=0
PRELOAD=0
[ "${1:-}" = "--fuzz-only" ] && FUZZ_ONLY=1
if [ "${1:-}" = "--preload" ]; then FUZZ_ONLY=1; PRELOAD=1; BUILD="$ROOT/build"; fi
cd "$ROOT"

if [ "$PRELOAD" -eq 1 ]; then
  bash scripts/build.sh --target fp-opt >/dev/null || { echo "sanitized: 0 passed, 1 failed"; exit 1; }
  export FUZZ_CHILD_PRELOAD="$($LLVM/bin/clang -print-file-name=libclang_rt.asan-x86_64.so)"
elif [ ! -f "$BUILD/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release -DFPOPT_ENABLE_SANITIZERS=ON \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" \
    -DCMAKE_C_COMPILER=$LLVM/bin/clang -DCMAKE_CXX_COMPILER=$LLVM/bin/clang++ \
    -DLLVM_USE_LINKER=lld -DMLIR_DIR=$LLVM/lib/cmake/mlir -DLLVM_DIR=$LLVM/lib/cmake/llvm \
    -DLLVM_EXTERNAL_LIT=$LLVM/bin/lit -DPython3_EXECUTABLE=/usr/bin/python3 \
    "${launcher[@]}" >/dev/null || { echo "sanitized: 0 passed, 1 failed"; exit 1; }
fi
start=$(date +%s)
# What the suites run; not the docs or the install tree.
targets=(fp-opt)
if [ "$FUZZ_ONLY" -eq 0 ]; then
  targets+=(lowp-capi-test lowp-capi-threads-test LowpTestMemoryProbe LowpUnitTests)
  if grep -q FpOptPythonModule "$BUILD/build.ninja"; then targets+=(FpOptPythonModule); fi
fi
if [ "$PRELOAD" -eq 0 ] && ! nice -n 10 cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}"; then
  echo "sanitized: 0 passed, 1 failed"
  exit 1
fi
echo "build: $(( $(date +%s) - start )) s"

# Leaks, heap errors and undefined behaviour all end the process with an
# error; the report goes to stderr, where lit and the fuzzers see it.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons the unused tail
# of each slab when the code calling it is instrumented, and the
# uninstrumented libMLIR.so then allocates from the same slab (an MLIRContext's
# uniquer is shared) without unpoisoning: a use-after-poison report on
# correct code (found by the campaign: a lowp.target storage allocated in
# fp-opt, a FileLineColRange in libMLIR). Heap, stack and global checks are
# unaffected.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
LOG_DIR="${FUZZ_LOG_DIR:-$BUILD/test-logs}"
mkdir -p "$LOG_DIR"
passed=0
failed=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); echo "== $3: $1 passed, $2 failed"; }

if [ "$FUZZ_ONLY" -eq 0 ]; then
# 1. lit (includes the C API programs and test/Fuzz).
$LLVM/bin/lit -v "$BUILD/test" >"$LOG_DIR/lit.log" 2>&1
rc=$?
grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$LOG_DIR/lit.log"
p=$(grep -cE '^(PASS|XFAIL):' "$LOG_DIR/lit.log")
f=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$LOG_DIR/lit.log")
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
count "$p" "$f" lit

# 2. GoogleTest.
if "$BUILD/unittests/LowpUnitTests" >"$LOG_DIR/unittests.log" 2>&1; then
  count "$(grep -c '^\[       OK \]' "$LOG_DIR/unittests.log")" 0 unittests
else
  tail -n 30 "$LOG_DIR/unittests.log"
  count "$(grep -c '^\[       OK \]' "$LOG_DIR/unittests.log")" 1 unittests
fi

# 3. Python: the interpreter is not instrumented, so the ASan runtime is
# preloaded for the extension. CPython keeps objects alive at exit by
# design, so leak checking is off here; the C API leak checks run above.
if [ -d "$BUILD/python_packages/fpopt" ]; then
  asan_rt="$($LLVM/bin/clang -print-file-name=libclang_rt.asan-x86_64.so)"
  LD_PRELOAD="$asan_rt" ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
  PYTHONPATH="$BUILD/python_packages" FPOPT_BUILD_DIR="$BUILD" \
    python3 -m pytest -q -p no:cacheprovider "$ROOT/python/tests" >"$LOG_DIR/python.log" 2>&1
  rc=$?
  tail -n 5 "$LOG_DIR/python.log"
  summary="$(tail -n 1 "$LOG_DIR/python.log")"
  p=$(echo "$summary" | grep -oE '[0-9]+ passed' | grep -oE '^[0-9]+' || echo 0)
  f=$(( $(echo "$summary" | grep -oE '[0-9]+ (failed|error)' | grep -oE '^[0-9]+' | paste -sd+ | bc 2>/dev/null || echo 0) ))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  count "$p" "$f" python
fi

fi

# 4. Fuzz slices through every configuration under the sanitizers.
fuzz() {
  local name="$1" count="$2" t0; shift 2
  if [ "$count" -eq 0 ]; then return; fi
  t0=$(date +%s)
  if python3 "$@" --fp-opt "$BUILD/bin/fp-opt" --timeout "${FUZZ_TIMEOUT:-300}" \
      >"$LOG_DIR/$name.log" 2>&1; then
    count 1 0 "$name"
  else
    grep -E '^FAIL' "$LOG_DIR/$name.log" | head -n 20
    count 0 1 "$name"
  fi
  tail -n 3 "$LOG_DIR/$name.log"
  echo "   $name: $(( $(date +%s) - t0 )) s (log: $LOG_DIR/$name.log)"
}
# Mutants first (every decision pass and lowering sees every mutant that
# parses), then generated programs: every lowering pipeline and the decision
# pipeline of every target see every program, the other configurations every
# FUZZ_ALL_CONFIGS_EVERY-th (1: all of them on every program); both logs end
# with each configuration's exact count.
fuzz fuzz-mutated "${FUZZ_MUTANTS:-300}" utils/fuzz_mutate.py --mutants "${FUZZ_MUTANTS:-300}" \
  --seed "${FUZZ_MUTATE_SEED:-0}" --generated 20 --batch 100 \
  --out "$LOG_DIR/fuzz-mutated"
fuzz fuzz-generated "${FUZZ_SEEDS:-10}" utils/fuzz_passes.py --seeds "${FUZZ_SEEDS:-10}" \
  --start "${FUZZ_START:-0}" --batch 50 --chunk 250 \
  --all-configs-every "${FUZZ_ALL_CONFIGS_EVERY:-1}" --no-reduce --out "$LOG_DIR/fuzz-generated"
if [ "$FUZZ_ONLY" -eq 1 ]; then
  fuzz no-error-on-success "${CORPUS_GENERATED:-50}" utils/check_no_error_on_success.py \
  --generated "${CORPUS_GENERATED:-50}" \
    --out "$LOG_DIR/no-error-on-success"
fi

echo "wall: $(( $(date +%s) - start )) s"
echo "sanitized: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
