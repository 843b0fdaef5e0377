#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test suite of fp-opt.
# The last line is the sum over all suites: "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
cd "$ROOT"

bash scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
if ! bash scripts/build.sh; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

TOTAL_PASSED=0
TOTAL_FAILED=0
LOG_DIR="$BUILD/test-logs"
mkdir -p "$LOG_DIR"

# add_counts SUITE PASSED FAILED
add_counts() {
  echo "== $1: $2 passed, $3 failed"
  TOTAL_PASSED=$((TOTAL_PASSED + $2))
  TOTAL_FAILED=$((TOTAL_FAILED + $3))
}

# 1. lit + FileCheck (dialect, passes, conversions, pipelines, JIT numerics).
run_lit() {
  local log="$LOG_DIR/lit.log"
  /usr/lib/llvm-22/bin/lit -v "$BUILD/test" >"$log" 2>&1
  local rc=$?
  grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$log" || true
  tail -n 12 "$log"
  local passed failed
  passed=$(grep -cE '^(PASS|XFAIL):' "$log")
  failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$log")
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  add_counts lit "$passed" "$failed"
}

# 2. GoogleTest unit tests (format and target tables).
run_unittests() {
  local bin="$BUILD/unittests/LowpUnitTests"
  [ -x "$bin" ] || { add_counts unittests 0 1; return; }
  local log="$LOG_DIR/unittests.log"
  "$bin" >"$log" 2>&1
  local rc=$?
  tail -n 3 "$log"
  local passed failed
  passed=$(grep -c '^\[       OK \]' "$log")
  failed=$(grep -c '^\[  FAILED  \] [A-Za-z]' "$log")
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  add_counts unittests "$passed" "$failed"
}

run_lit
run_unittests
for extra in scripts/test.d/*.sh; do
  [ -f "$extra" ] || continue
  # Each extra suite prints "SUITE: N passed, N failed" as its last line.
  out=$(BUILD="$BUILD" bash "$extra" 2>&1)
  rc=$?
  echo "$out" | tail -n 20
  last=$(echo "$out" | tail -n 1)
  p=$(echo "$last" | sed -nE 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\1/p')
  f=$(echo "$last" | sed -nE 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\2/p')
  if [ -z "$p" ]; then p=0; f=1; fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  add_counts "$(basename "$extra" .sh)" "$p" "$f"
done

echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]
