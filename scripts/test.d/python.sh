#!/usr/bin/env bash
# pytest suite of the `fpopt` Python package (python/tests), run with
# Debian's /usr/bin/python3 against the package built in $BUILD.
# Last line: "python: N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BUILD:-${FPOPT_BUILD_DIR:-$ROOT/build}}"
PY=/usr/bin/python3

if [ ! -d "$BUILD/python_packages/fpopt" ]; then
  echo "python: $BUILD/python_packages/fpopt was not built" \
       "(needs python3-dev, pybind11-dev)"
  echo "python: 0 passed, 1 failed"
  exit 1
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
PYTHONPATH="$BUILD/python_packages${PYTHONPATH:+:$PYTHONPATH}" \
FPOPT_BUILD_DIR="$BUILD" \
  "$PY" -m pytest -q -p no:cacheprovider "$ROOT/python/tests" >"$log" 2>&1
rc=$?
tail -n 15 "$log"

summary="$(tail -n 1 "$log")"
count() { echo "$summary" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
passed=$(count passed)
failed=$(( $(count failed) + $(count error) ))
# 5: no tests were collected, which is a failure of the suite.
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "python: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
