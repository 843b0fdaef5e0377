#!/usr/bin/env bash
# Runs both bundled models (the MLP and the two attention layers) through
# lowp-auto-mixed-precision + lowp-pipeline-nvvm for every NVIDIA chip and
# policy, and assembles each kernel's PTX with ptxas (sm_70 as sm_75: CUDA 13
# has no sm_70); then the tensor-core GEMMs of test/Pipelines/Inputs
# (16-bit on every chip with an mma.sync tiling, FP8 on sm_89+) with
# ptxas -v: one RESOURCES line per kernel (registers, shared memory,
# spills), failing on any spill. Usage: scripts/check-nvvm-ptxas.sh [CUDA_PATH]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CUDA="${1:-/usr/local/cuda}"
FPOPT="${FPOPT_BUILD_DIR:-$ROOT/build}/bin/fp-opt"
EXTRACT="$ROOT/test/Pipelines/Inputs/extract_gpu_asm.py"
status=0
for model in "$ROOT/examples/models/mlp.mlir" \
             "$ROOT/test/Integration/Models/attention.mlir"; do
  for cfg in "sm_70 f16" "sm_75 f16" "sm_75 bf16" "sm_80 bf16" "sm_80 f16" \
             "sm_86 bf16" "sm_89 bf16" "sm_89 fp8" "sm_90 auto" "sm_90 fp8" \
             "sm_100 bf16" "sm_100 fp8"; do
    set -- $cfg
    arch=$1; [ "$arch" = sm_70 ] && arch=sm_75
    ptx="$("$FPOPT" "$model" --lowp-auto-mixed-precision="target=$1 policy=$2" 2>/dev/null \
      | "$FPOPT" -lowp-pipeline-nvvm="target=$1 cuda-path=$CUDA" \
      | python3 "$EXTRACT" --ptxas "$CUDA/bin/ptxas" --arch "$arch")"
    rc=$?
    [ $rc -ne 0 ] && status=1
    echo "$(basename "$model") $1 policy=$2: ptxas rc=$rc, $(grep -c '\.entry' <<<"$ptx") kernels"
  done
done
INPUTS="$ROOT/test/Pipelines/Inputs"
for cfg in "sm_75 tensor-core-gemms" "sm_80 tensor-core-gemms" \
           "sm_86 tensor-core-gemms" "sm_89 tensor-core-gemms" \
           "sm_89 tensor-core-fp8-gemms" "sm_90 tensor-core-gemms" \
           "sm_90 tensor-core-fp8-gemms" "sm_100 tensor-core-gemms" \
           "sm_100 tensor-core-fp8-gemms"; do
  set -- $cfg
  "$FPOPT" "$INPUTS/$2.mlir" -lowp-pipeline-nvvm="target=$1 cuda-path=$CUDA" 2>/dev/null \
    | python3 "$EXTRACT" --ptxas "$CUDA/bin/ptxas" --arch "$1" --resources --no-asm --max-spills=0
  [ $? -ne 0 ] && { echo "$2 $1: ptxas failed or a kernel spills"; status=1; }
done
exit $status
