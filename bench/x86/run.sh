#!/usr/bin/env bash
# AVX2 matmul benchmark: fp-opt's f32 and bf16-storage matmuls
# (lowp-pipeline-x86{target=avx2}, llc -mcpu=x86-64-v3, i.e. AVX2+FMA only)
# against OpenBLAS sgemm, single thread, measured side by side in one
# process. Needs libopenblas-dev. Usage: bench/x86/run.sh [sizes...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LLVM=/usr/lib/llvm-22/bin
FPOPT="${FPOPT:-$ROOT/build/bin/fp-opt}"
CPU="${CPU:-avx2}"
MCPU="${MCPU:-x86-64-v3}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
# OpenBLAS 0.3.21 does not recognise this VM's CPUID and falls back to its
# SSE3 "Prescott" kernels; compare with its AVX2+FMA "Haswell" kernels, the
# same instruction set as our avx2 code.
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
echo "openblas core: $OPENBLAS_CORETYPE; fp-opt: lowp-pipeline-x86{target=$CPU}, llc -mcpu=$MCPU; 1 thread"
for n in "${@:-512 1024}"; do
  cat > "$OUT/mm.mlir" <<MLIR
func.func @matmul_f32(%a: memref<${n}x${n}xf32>, %b: memref<${n}x${n}xf32>,
                      %c: memref<${n}x${n}xf32>) attributes {llvm.emit_c_interface} {
  linalg.matmul ins(%a, %b : memref<${n}x${n}xf32>, memref<${n}x${n}xf32>)
                outs(%c : memref<${n}x${n}xf32>)
  return
}
func.func @matmul_bf16(%a: memref<${n}x${n}xbf16>, %b: memref<${n}x${n}xbf16>,
                       %c: memref<${n}x${n}xf32>) attributes {llvm.emit_c_interface} {
  linalg.matmul ins(%a, %b : memref<${n}x${n}xbf16>, memref<${n}x${n}xbf16>)
                outs(%c : memref<${n}x${n}xf32>)
  return
}
MLIR
  "$FPOPT" "$OUT/mm.mlir" -lowp-pipeline-x86="target=$CPU ${OPTS:-}" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir \
    | "$LLVM/llc" -O3 -mcpu="$MCPU" -relocation-model=pic -filetype=obj -o "$OUT/mm.o"
  "$LLVM/clang" -O2 -o "$OUT/bench" "$ROOT/bench/x86/driver.c" "$OUT/mm.o" \
    -I/usr/include/x86_64-linux-gnu/openblas-pthread -lopenblas -lm
  "$OUT/bench" "$n" "${REPS:-10}"
done
