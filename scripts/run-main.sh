#!/usr/bin/env bash
# The main job: install what is missing, build fp-opt, then compile the
# bundled model (examples/models/mlp.mlir, an f32 MLP with a softmax head)
# through the mixed-precision pipeline for several chips, printing what was
# decided and why, write the report page (one HTML file; its path is the
# last line), and take it down the x86 path: run it on this machine next to
# its f32 version and write the AVX512_BF16 assembly beside it; and bring a
# torchvision model in from PyTorch (examples/torch/quickstart.py).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
MODEL="${1:-$ROOT/examples/models/mlp.mlir}"
NAME="$(basename "$MODEL" .mlir)"
OUT="$BUILD/main/$NAME"
FPOPT="$BUILD/bin/fp-opt"

bash "$ROOT/scripts/install-deps.sh"
bash "$ROOT/scripts/build.sh"
mkdir -p "$OUT"

section() { printf '\n==== %s\n' "$*"; }

# 1. The decisions, per chip family: the capability table picks the format
#    (bf16 on Hopper and Sapphire Rapids, f16 on Turing, nothing on AVX2).
for chip in sapphirerapids sm_90 sm_75 avx2; do
  section "lowp-auto-mixed-precision target=$chip ($MODEL)"
  "$FPOPT" "$MODEL" \
    --lowp-auto-mixed-precision="target=$chip report=$OUT/$NAME.$chip.report.txt" \
    -o "$OUT/$NAME.$chip.mixed.mlir" 2>&1 | sed 's/^/  /'
  if [ -s "$OUT/$NAME.$chip.report.txt" ]; then
    cat "$OUT/$NAME.$chip.report.txt"
  fi
  echo "-> $OUT/$NAME.$chip.mixed.mlir:" \
       "$(grep -c 'lowp.cast' "$OUT/$NAME.$chip.mixed.mlir" || true) lowp.cast," \
       "$(grep -c 'lowp.island' "$OUT/$NAME.$chip.mixed.mlir" || true) lowp.island"
done

# 2. FP8 on Hopper: E4M3 operands with per-tensor scales on the matrix ops.
section "lowp-auto-mixed-precision target=sm_90 policy=fp8"
"$FPOPT" "$MODEL" --lowp-auto-mixed-precision="target=sm_90 policy=fp8" \
  -o "$OUT/$NAME.sm_90.fp8.mlir" 2>&1 | sed 's/^/  /'
echo "-> $OUT/$NAME.sm_90.fp8.mlir: $(grep -c 'lowp.quantize' "$OUT/$NAME.sm_90.fp8.mlir" || true) lowp.quantize"
grep -o 'linalg.matmul ins([^)]*)' "$OUT/$NAME.sm_90.fp8.mlir" | sed 's/^/   /' || true

# 3. The report page: the sm_90 decisions (picture, per-op table, casts,
#    bytes, islands, hazards) as one self-contained HTML page.
section "report page (scripts/lowp-report-html.py)"
REPORT="$OUT/$NAME.sm_90.report.json"
PAGE="$OUT/$NAME.sm_90.report.html"
"$FPOPT" "$MODEL" --lowp-auto-mixed-precision="target=sm_90 report=$REPORT" \
  -o /dev/null 2>&1 | sed 's/^/  /'
/usr/bin/python3 "$ROOT/scripts/lowp-report-html.py" "$REPORT" -o "$PAGE" \
  >/dev/null
echo "-> $PAGE"

# 4. The x86 path: run here and emit AVX512_BF16 assembly.
section "x86: lowp-pipeline-x86, run on this machine, AVX512_BF16 assembly"
bash "$ROOT/scripts/compile-x86.sh" "$MODEL" "$OUT/x86" sapphirerapids

# 5. From PyTorch: a torchvision model through fpopt.torch, run here next to
#    PyTorch itself (python3-torch comes with install-deps.sh).
section "from PyTorch: fpopt.torch.compile(torchvision resnet18)"
PYTHONPATH="$BUILD/python_packages" FPOPT_CACHE_DIR="$BUILD/fpopt-cache" \
  /usr/bin/python3 "$ROOT/examples/torch/quickstart.py" 2>&1 | grep -v Warning | sed 's/^/  /'

section "report page"
echo "$PAGE"
