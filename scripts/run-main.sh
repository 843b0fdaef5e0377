#!/usr/bin/env bash
# The main job: install what is missing, build fp-opt, then take the bundled
# model (examples/models/mlp.mlir, an f32 MLP with a softmax head) through
# the mixed-precision pipeline for this machine's row of the capability
# table (fpopt.runtime.host_target(): avx2, znver4 or sapphirerapids),
# printing what was decided and why; run it here next to its f32 version
# and count the GEMM instructions of its assembly, saying why those
# (scripts/compile-x86.sh); the decisions for other chips, one line each;
# a torchvision model brought in from PyTorch (examples/torch/quickstart.py);
# and the report page (one HTML file; its path is the last line).
# fp-opt's remarks go to one file, whose path is printed, not to the terminal.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
MODEL="${1:-$ROOT/examples/models/mlp.mlir}"
NAME="$(basename "$MODEL" .mlir)"
OUT="$BUILD/main/$NAME"
FPOPT="$BUILD/bin/fp-opt"
PY=/usr/bin/python3

bash "$ROOT/scripts/install-deps.sh"
bash "$ROOT/scripts/build.sh"
mkdir -p "$OUT"
REMARKS="$OUT/remarks.txt"
: >"$REMARKS"

section() { printf '\n==== %s\n' "$*"; }

# fp-opt with its remarks (and other diagnostics) in $REMARKS; on failure
# the last of them are shown, since they explain it.
fpopt() {
  if ! "$FPOPT" "$@" 2>>"$REMARKS"; then
    echo "fp-opt $* failed; its diagnostics (all in $REMARKS):" >&2
    tail -n 20 "$REMARKS" >&2
    exit 1
  fi
}

# decide CHIP [OPTIONS TAG]: lowp-auto-mixed-precision for CHIP, its text
# report and the decided module in $OUT ($NAME.CHIP[.TAG].*).
decide() {
  local chip="$1" options="${2:-}" tag="$1${3:+.$3}"
  rm -f "$OUT/$NAME.$tag.report.txt"
  fpopt "$MODEL" --lowp-auto-mixed-precision="target=$chip $options report=$OUT/$NAME.$tag.report.txt" \
    -o "$OUT/$NAME.$tag.mixed.mlir"
}

# 1. This machine: its row of the capability table and the decisions there.
HOST_LINE="$(FPOPT_BUILD_DIR="$BUILD" "$PY" "$ROOT/scripts/host-target.py")"
IFS='|' read -r HOST HOST_OPTIONS HOST_CPU <<<"$HOST_LINE"
section "this machine"
echo "host: $HOST_CPU"
echo "target: $HOST${HOST_OPTIONS:+ ($HOST_OPTIONS)}, the capability table's row for it (fpopt.runtime.host_target()):"
"$FPOPT" --print-target-table | awk -v t="$HOST" 'NR == 1 || $1 == t' | sed 's/^/  /'
echo "remarks of every fp-opt run below: $REMARKS"

section "decisions for $HOST: lowp-auto-mixed-precision target=$HOST ($MODEL)"
decide "$HOST"
cat "$OUT/$NAME.$HOST.report.txt"
echo "-> $OUT/$NAME.$HOST.mixed.mlir:" \
     "$(grep -c 'lowp.cast' "$OUT/$NAME.$HOST.mixed.mlir" || true) lowp.cast," \
     "$(grep -c 'lowp.island' "$OUT/$NAME.$HOST.mixed.mlir" || true) lowp.island"

# 2. Run here, and the GEMM instruction the kernels use on this chip.
section "x86 on this machine: bf16 operands, lowp-pipeline-x86, mlir-runner, llc (scripts/compile-x86.sh)"
FPOPT_HOST="$HOST_LINE" FPOPT_REMARKS="$REMARKS" FPOPT_BUILD_DIR="$BUILD" \
  bash "$ROOT/scripts/compile-x86.sh" "$MODEL" "$OUT/x86" "$HOST" | grep -v '^remarks: '

# 3. Other chips, one line each: the capability table picks the format
#    (bf16 on Hopper and Sapphire Rapids, f16 on Turing, nothing on AVX2,
#    E4M3 operands with per-tensor scales for policy=fp8 on Hopper).
section "the same model for other chips (their reports: $OUT/$NAME.<chip>.report.txt)"
CHIPS=()
for chip in sapphirerapids znver4 avx2 sm_90 sm_75; do
  if [ "$chip" != "$HOST" ]; then CHIPS+=("$chip"); fi
done
for chip in "${CHIPS[@]}"; do decide "$chip"; done
decide sm_90 "policy=fp8" fp8
for tag in "${CHIPS[@]}" sm_90.fp8; do
  "$PY" - "$OUT/$NAME.$tag.report.txt" "$OUT/$NAME.$tag.mixed.mlir" "${tag/.fp8/ policy=fp8}" <<'PYEOF'
import re, sys
report, mixed, tag = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
low = re.search(r"^precision inference: low=(\S*)", report, re.M)
formats = re.search(r"^matrix ops by input format: (.*)$", report, re.M)
line = f"  {tag:<20} low={low.group(1) if low else '?'}"
if formats:
    line += f", matrix ops by input format: {formats.group(1)}"
line += f", {mixed.count('lowp.cast')} lowp.cast"
if "lowp.quantize" in mixed:
    line += f", {mixed.count('lowp.quantize')} lowp.quantize"
print(line)
for note in re.findall(r"^note: (.*)$", report, re.M):
    print(f"  {'':<20} {note}")
PYEOF
done

# 4. From PyTorch: a torchvision model through fpopt.torch, run here next to
#    PyTorch itself (python3-torch comes with install-deps.sh).
section "from PyTorch: fpopt.torch.compile(torchvision resnet18)"
PYTHONPATH="$BUILD/python_packages" FPOPT_CACHE_DIR="$BUILD/fpopt-cache" FPOPT_REMARKS="$REMARKS" \
  "$PY" "$ROOT/examples/torch/quickstart.py" 2>&1 | grep -v Warning | sed 's/^/  /'

# 5. The report page: the sm_90 decisions (picture, per-op table, casts,
#    bytes, islands, hazards) as one self-contained HTML page.
REPORT="$OUT/$NAME.sm_90.report.json"
PAGE="$OUT/$NAME.sm_90.report.html"
fpopt "$MODEL" --lowp-auto-mixed-precision="target=sm_90 report=$REPORT" -o /dev/null
"$PY" "$ROOT/scripts/lowp-report-html.py" "$REPORT" -o "$PAGE" >/dev/null
section "remarks: $(grep -c 'remark:' "$REMARKS" || true), in $REMARKS"
section "report page: the sm_90 decisions (scripts/lowp-report-html.py)"
echo "$PAGE"
