#!/usr/bin/env bash
# fp-opt's f32 nn.Linear (y = x W^T as torch-mlir writes it: a transpose of
# the [out, in] weight, a fill and a linalg.matmul) compiled with
# lowp-pipeline-x86{prepack=true} (the weight packed once, outside the
# timed call; PREPACK=0: without, packed inside every call), against OpenBLAS cblas_sgemm (PyTorch's f32 GEMM), one
# thread, side by side in one process (linear_driver.c). Thread CPU time,
# best of REPS interleaved rounds. The default shapes are the GEMMs of the
# bench/e2e layers: BERT-base at seq 128 (M = 128) and the MLP at batch 64.
#
#   bash bench/x86/linear.sh [MxNxK ...]
#   BEFORE=/path/to/old/fp-opt bash bench/x86/linear.sh   # also time another build
#   CPU=znver4 MCPU=znver4 OPTS="kc=256" ...              # target / llc cpu / options
#   PREPACK=0 bash bench/x86/linear.sh                     # weights packed per call
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LLVM=/usr/lib/llvm-22/bin
FPOPT="${FPOPT:-$ROOT/build/bin/fp-opt}"
. "$ROOT/bench/x86/host_cpu.sh"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
PREPACK_OPT="prepack=true" DRIVER_FLAGS=()
if [ "${PREPACK:-1}" = 0 ]; then PREPACK_OPT="" DRIVER_FLAGS=(-DPER_CALL); fi
echo "fp-opt: lowp-pipeline-x86{target=$CPU $PREPACK_OPT ${OPTS:-}}, llc -mcpu=$MCPU; 1 thread; GFLOP/s, thread CPU time, best of ${REPS:-10} rounds"
kernel() { # M N K prefix
  cat <<MLIR
func.func @${4}linear(%x: tensor<${1}x${3}xf32>, %w: tensor<${2}x${3}xf32>) -> tensor<${1}x${2}xf32>
    attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${1}x${2}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<${1}x${2}xf32>) -> tensor<${1}x${2}xf32>
  %et = tensor.empty() : tensor<${3}x${2}xf32>
  %wt = linalg.transpose ins(%w : tensor<${2}x${3}xf32>) outs(%et : tensor<${3}x${2}xf32>) permutation = [1, 0]
  %y = linalg.matmul ins(%x, %wt : tensor<${1}x${3}xf32>, tensor<${3}x${2}xf32>) outs(%c : tensor<${1}x${2}xf32>) -> tensor<${1}x${2}xf32>
  return %y : tensor<${1}x${2}xf32>
}
MLIR
}
compile() { # fp-opt, M, N, K, prefix, object, options
  kernel "$2" "$3" "$4" "$5" \
    | "$1" -lowp-pipeline-x86="target=$CPU $PREPACK_OPT $7" 2>/dev/null \
    | "$LLVM/mlir-translate" --mlir-to-llvmir \
    | "$LLVM/llc" -O3 -mcpu="$MCPU" -relocation-model=pic -filetype=obj -o "$6"
}
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(128x768x768 128x3072x768 128x768x3072 64x4096x1024 64x4096x4096 64x1024x4096)
for s in "${shapes[@]}"; do
  IFS=x read -r m n k <<<"$s"
  objs=("$OUT/mm.o")
  compile "$FPOPT" "$m" "$n" "$k" "" "$OUT/mm.o" "${OPTS:-}"
  if [ -n "${BEFORE:-}" ]; then
    compile "$BEFORE" "$m" "$n" "$k" before_ "$OUT/before.o" "${BEFORE_OPTS-${OPTS:-}}"
    objs+=("$OUT/before.o")
  fi
  "$LLVM/clang" -O2 "${DRIVER_FLAGS[@]}" -o "$OUT/bench" "$ROOT/bench/x86/linear_driver.c" \
    "${objs[@]}" -I/usr/include/x86_64-linux-gnu/openblas-pthread -lopenblas -lm
  "$OUT/bench" "$m" "$n" "$k" "${REPS:-10}"
done
