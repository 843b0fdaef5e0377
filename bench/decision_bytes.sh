#!/usr/bin/env bash
# Tensor bytes after each decision policy, as a ratio of the f32 model's,
# read from the decision report of lowp-auto-mixed-precision (written after
# its last decision pass; fused conversions are no tensors: see
# docs/passes/infer-precision.md, "Report"). One row per model, one column
# per policy (target sm_90: bf16 and FP8 with the hybrid recipe, current
# scaling), each with the default signatures (`none`: weights arrive f32
# and are converted in the function) and with `demote-weights=arguments`
# (weights arrive in their decided format).
#
# Models: bench/gen_transformer.py pre-LayerNorm blocks at four sizes and
# 12 blocks; examples/models/mlp.mlir; a wider MLP generated here; and the
# @forward functions of test/Integration/Models (front-end idioms at the
# small sizes those executed tests use).
#
# Usage: bench/decision_bytes.sh [build/bin]   (a few seconds per model)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/build/bin}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
TARGET=sm_90

gen() { python3 "$ROOT/bench/gen_transformer.py" "$@"; }
gen --blocks 1 --seq 16 --dim 32 --ffn 64 > "$TMP/block-s16-d32.mlir"
gen --blocks 1 --seq 16 --dim 512 --ffn 2048 > "$TMP/block-s16-d512.mlir"
gen --blocks 1 --seq 32 --dim 256 --ffn 1024 > "$TMP/block-s32-d256.mlir"
gen --blocks 1 --seq 128 --dim 768 --ffn 3072 > "$TMP/block-s128-d768.mlir"
gen --blocks 12 --seq 32 --dim 256 --ffn 1024 > "$TMP/12blocks-s32-d256.mlir"
cp "$ROOT/examples/models/mlp.mlir" "$TMP/mlp-8x64x128x10.mlir"
# A wider MLP (batch 32, 512 -> 2048 -> 512) as torch-mlir emits nn.Linear.
python3 "$ROOT/test/Pipelines/Inputs/gen_mlp.py" 32 512 2048 > "$TMP/mlp-32x512x2048x512.mlir"
for model in attention gpt2-fused-qkv llama-block mlp-gelu; do
  "$BIN/fp-opt" "$ROOT/test/Integration/Models/$model.mlir" \
      --symbol-privatize="exclude=forward" --symbol-dce \
      -o "$TMP/models-$model.mlir" 2>/dev/null ||
    echo "(could not extract @forward of $model)" >&2
done

# ratio MODEL OPTIONS: after/before of the report, the f32 bytes and the
# fused/materialized conversions, or "error".
ratio() {
  local report="$TMP/r.json"
  rm -f "$report"
  if ! "$BIN/fp-opt" "$1" -o /dev/null 2>"$TMP/err" \
      --lowp-auto-mixed-precision="target=$TARGET $2 report=$report"; then
    echo error; return
  fi
  python3 - "$report" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b, a = r["bytes_before"], r["bytes_after"]
print(f'{a["total"] / b["total"]:.3f} {b["total"]} {a["conversions_fused"]}/{a["conversions_materialized"]}')
PY
}

COLUMNS=("policy=bf16" "policy=bf16 demote-weights=arguments"
         "policy=bf16 demote-weights=arguments f32-streams=false"
         "policy=fp8" "policy=fp8 demote-weights=arguments"
         "policy=fp8 demote-weights=arguments f32-streams=false")
echo "tensor bytes after / f32 bytes (fused/materialized conversions), target=$TARGET"
echo "columns: bf16 | bf16 A | bf16 A S | fp8 | fp8 A | fp8 A S"
echo "  (A: demote-weights=arguments; S: f32-streams=false)"
printf "%-24s %10s" model "f32 bytes"
for c in "${COLUMNS[@]}"; do printf " | %-12s" "$(echo "$c" | sed 's/policy=//; s/ demote-weights=arguments/ A/; s/ f32-streams=false/ S/')"; done
echo
for file in "$TMP"/*.mlir; do
  name="$(basename "$file" .mlir)"
  row=""
  f32=""
  for c in "${COLUMNS[@]}"; do
    read -r r before conv <<<"$(ratio "$file" "$c")"
    f32="${before:-$f32}"
    row+=" | $(printf "%-5s %-6s" "$r" "${conv:-}")"
  done
  printf "%-24s %10s%s\n" "$name" "$f32" "$row"
done
echo "targets (weights as arguments, A): bf16 <= 0.55, fp8 <= 0.35"
