#!/usr/bin/env bash
# Writes what the decision passes print for every test input into OUTDIR, one
# file per input and configuration (IR, report table and remarks together), so
# that two builds can be compared byte for byte with `diff -r`:
#
#   utils/decision-outputs.sh build-before/bin/fp-opt /tmp/before
#   utils/decision-outputs.sh build/bin/fp-opt /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# Inputs: every .mlir under test/ and examples/, plus the generated models of
# bench/gen_transformer.py and test/Integration/Inputs/gen_bert_layer.py.
# Configurations: the decision pipeline for bf16, f16, fp8 and autocast, and
# lowp-infer-precision alone for bf16 / f16 / low accumulators / autocast, with
# report tables and remarks. Inputs the passes reject give their diagnostics,
# which are compared the same way.
set -uo pipefail
FPOPT="${1:?usage: decision-outputs.sh FP_OPT OUTDIR}"
OUT="${2:?usage: decision-outputs.sh FP_OPT OUTDIR}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$OUT/inputs"

python3 "$ROOT/bench/gen_transformer.py" --blocks 2 --seq 8 --dim 16 --ffn 32 \
  > "$OUT/inputs/gen-transformer.mlir"
python3 "$ROOT/test/Integration/Inputs/gen_bert_layer.py" \
  > "$OUT/inputs/gen-bert.mlir" 2>/dev/null || true

configs=(
  "amp-bf16|--lowp-auto-mixed-precision=target=sm_90 policy=bf16 report=-"
  "amp-f16|--lowp-auto-mixed-precision=target=sm_90 policy=f16 report=-"
  "amp-fp8|--lowp-auto-mixed-precision=target=sm_90 policy=fp8"
  "amp-autocast|--lowp-auto-mixed-precision=target=sm_90 policy=autocast report=-"
  "amp-tpu|--lowp-auto-mixed-precision=target=tpu-v4"
  "infer-bf16|--lowp-infer-precision=low=bf16 report=- remarks=true"
  "infer-f16|--lowp-infer-precision=low=f16 accumulate=low demote-signatures=true"
  "infer-autocast|--lowp-infer-precision=low=bf16 propagate=false report=-"
)

find "$ROOT/test" "$ROOT/examples" "$OUT/inputs" -name '*.mlir' | sort |
while read -r input; do
  name="$(echo "${input#"$ROOT"/}" | sed "s|^$OUT/inputs/|generated/|" | tr '/' '_')"
  for config in "${configs[@]}"; do
    label="${config%%|*}"
    flag="${config#*|}"
    timeout 60 "$FPOPT" "$input" --split-input-file "$flag" \
      > "$OUT/$name.$label.txt" 2>&1
    echo "exit $?" >> "$OUT/$name.$label.txt"
  done
done
# Absolute paths of the generated inputs differ between runs.
sed -i "s|$OUT/inputs|INPUTS|g" "$OUT"/*.txt
