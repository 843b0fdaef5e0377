#!/usr/bin/env bash
# The report page in a real browser: builds the page of
# scripts/lowp-report-html.py for the bundled model and for a 12-layer
# transformer, loads each in headless Chromium (Debian's chromium), checks
# from the laid-out DOM that the picture and every row of the op table
# rendered, and saves a screenshot next to the page ($BUILD/report-page/).
# The browser is Debian's `chromium` (scripts/install-deps.sh installs it),
# driven through its own headless command line (--dump-dom, --screenshot):
# no WebDriver. A missing chromium or Graphviz dot is a failure, not a skip.
# Last line: "report-page: N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BUILD:-${FPOPT_BUILD_DIR:-$ROOT/build}}"
BUILD="$(cd "$BUILD" && pwd)"
OUT="$BUILD/report-page"
FPOPT="$BUILD/bin/fp-opt"
PY=/usr/bin/python3

CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$CHROMIUM" ]; then
  echo "FAIL: chromium is not installed, so the report page cannot be loaded (bash scripts/install-deps.sh installs it)"
  echo "report-page: 0 passed, 1 failed"
  exit 1
fi
if ! command -v dot >/dev/null 2>&1; then
  echo "FAIL: Graphviz's dot is not installed, so the page has no picture to check (bash scripts/install-deps.sh installs it)"
  echo "report-page: 0 passed, 1 failed"
  exit 1
fi

passed=0
failed=0
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

# browser ARGS...: one headless Chromium run with a fresh profile.
browser() {
  local profile
  profile="$(mktemp -d)"
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
    --user-data-dir="$profile" --hide-scrollbars "$@" 2>/dev/null
  local rc=$?
  rm -rf "$profile"
  return $rc
}

# rendered PAGE REPORT: the laid-out DOM shows a picture of some size and
# one visible table row per op of the report's graph section.
rendered() {
  browser --dump-dom "file://$1" >"$1.dom" || return 1
  "$PY" - "$1.dom" "$2" <<'PYEOF'
import json, re, sys
dom = open(sys.argv[1]).read()
expected = len(json.load(open(sys.argv[2]))["graph"]["ops"])
check = re.search(r'<p id="render-check"[^>]*>', dom)
if not check:
    sys.exit("no #render-check in the DOM: the page's script did not run")
attrs = dict(re.findall(r'data-([a-z-]+)="(\d+)"', check.group(0)))
print("render check:", attrs)
if int(attrs.get("svg-width", 0)) < 100 or int(attrs.get("svg-height", 0)) < 100:
    sys.exit("the picture did not render at a visible size")
if int(attrs.get("op-rows", -1)) != expected:
    sys.exit(f"{attrs.get('op-rows')} visible op rows, the report has {expected}")
PYEOF
}

# screenshot PAGE PNG: Chromium saves a PNG of the page.
screenshot() {
  rm -f "$2"
  browser --window-size=1280,2000 --screenshot="$2" "file://$1" >/dev/null || return 1
  "$PY" - "$2" <<'PYEOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
width, height = struct.unpack(">II", data[16:24])
print(f"{sys.argv[1]}: {width}x{height}, {len(data)} bytes")
if (width, height) != (1280, 2000) or len(data) < 20000:
    sys.exit("the screenshot is empty or has the wrong size")
PYEOF
}

rm -rf "$OUT"
mkdir -p "$OUT"

# page NAME MODEL OPTIONS: the report and its page for one model.
page() {
  local name="$1" model="$2" options="$3"
  check "$name-report" "$FPOPT" "$model" -o /dev/null \
    "--lowp-auto-mixed-precision=$options report=$OUT/$name.json"
  check "$name-page" "$PY" "$ROOT/scripts/lowp-report-html.py" \
    "$OUT/$name.json" -o "$OUT/$name.html"
  check "$name-renders" rendered "$OUT/$name.html" "$OUT/$name.json"
  check "$name-screenshot" screenshot "$OUT/$name.html" "$OUT/$name.png"
}

page mlp "$ROOT/examples/models/mlp.mlir" "target=sm_90"
"$PY" "$ROOT/bench/gen_transformer.py" --blocks 12 >"$OUT/transformer12.mlir"
page transformer12 "$OUT/transformer12.mlir" "target=sm_90"

echo "report-page: screenshots in $OUT"
echo "report-page: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
