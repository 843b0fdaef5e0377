#!/usr/bin/env bash
# Executed error of each decision policy on the models of
# test/Integration/Models (front-end idioms: attention, GPT-2 fused-QKV
# attention, MLP with GELU, LLaMA block with RMSNorm + SwiGLU, norm +
# residual, conv block), against the f32 run of the undecided model: every
# variant is lowered by lowp-pipeline-reference (plain loops, every op
# rounded as the IR states, conversions as exact integer code) and run by mlir-runner's JIT on this
# CPU. Prints one row per model: the largest normwise error over the
# model's outputs (max |low - ref| / max |ref|) for
#   bf16            lowp-auto-mixed-precision policy=bf16 (f32 streams)
#   bf16-streams    the same with f32-streams=false (the old default)
#   autocast        policy=autocast (bf16 matrix inputs, everything else f32)
#   f16             policy=f16
#   autocast-f16    islands at f16, then lowp-infer-precision low=f16
#                   propagate=false (autocast's decision in f16)
#   fp8             policy=fp8 (hybrid recipe, current scaling)
# and the ratios bf16/autocast and f16/autocast-f16.
#
# Usage: bench/decision_error.sh [build/bin] (about a minute per model on
# one core).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/build/bin}"
LLVM=/usr/lib/llvm-22
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
RUNNER="$LLVM/bin/mlir-runner -e main -entry-point-result=void -shared-libs=$LLVM/lib/libmlir_c_runner_utils.so,$LLVM/lib/libmlir_runner_utils.so"
REFERENCE="--lowp-pipeline-reference"
TARGET=sapphirerapids

# Largest normwise error of the printMemrefF32 dumps in $2 against $1.
normwise() {
  python3 - "$1" "$2" <<'EOF'
import math, re, sys
NUM = r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?nan|-?inf"
def tensors(path):
    out = []
    for block in re.split(r"Unranked Memref", open(path).read())[1:]:
        data = block[block.index("data =") + 6:]
        out.append([float(v) for v in re.findall(NUM, data)])
    return out
refs, lows = tensors(sys.argv[1]), tensors(sys.argv[2])
if not refs or len(refs) != len(lows):
    print("error"); sys.exit()
worst = 0.0
for ref, low in zip(refs, lows):
    scale = max(abs(v) for v in ref) or 1.0
    err = max(abs(a - b) if math.isfinite(a) else math.inf
              for a, b in zip(low, ref))
    worst = max(worst, err / scale)
print(f"{worst:.3e}")
EOF
}

run() { # model, decision flags... -> the run's output file
  local model="$1" name="$2"; shift 2
  "$BIN/fp-opt" "$model" "$@" $REFERENCE 2>/dev/null | $RUNNER > "$TMP/$name.txt" 2>/dev/null
  echo "$TMP/$name.txt"
}

printf "%-16s %10s %12s %10s %8s %10s %12s %8s %10s\n" model bf16 bf16-streams \
  autocast bf16/ac f16 autocast-f16 f16/ac fp8
for model in attention gpt2-fused-qkv mlp-gelu llama-block norm-residual conv-block; do
  file="$ROOT/test/Integration/Models/$model.mlir"
  ref=$(run "$file" ref)
  amp="--lowp-auto-mixed-precision=target=$TARGET"
  bf16=$(normwise "$ref" "$(run "$file" bf16 "$amp policy=bf16")")
  old=$(normwise "$ref" "$(run "$file" old "$amp policy=bf16 f32-streams=false")")
  auto=$(normwise "$ref" "$(run "$file" auto "$amp policy=autocast")")
  f16=$(normwise "$ref" "$(run "$file" f16 "$amp policy=f16")")
  autof16=$(normwise "$ref" "$(run "$file" autof16 \
    --lowp-insert-fp32-islands=low=f16 "--lowp-infer-precision=low=f16 propagate=false")")
  fp8=$(normwise "$ref" "$(run "$file" fp8 "--lowp-auto-mixed-precision=target=sm_90 policy=fp8")")
  printf "%-16s %10s %12s %10s %8s %10s %12s %8s %10s\n" "$model" "$bf16" "$old" \
    "$auto" "$(python3 -c "print(f'{$bf16/$auto:.2f}x')" 2>/dev/null)" "$f16" "$autof16" \
    "$(python3 -c "print(f'{$f16/$autof16:.2f}x')" 2>/dev/null)" "$fp8"
done
