#!/usr/bin/env bash
# fp-opt's GEMM against oneDNN's matmul (the issue-12 target: bf16 >= 0.95x
# oneDNN from 256 to 4096), one thread, side by side in one process
# (onednn_driver.c): C = A * B with row-major A and B, f32 and
# bf16 x bf16 -> f32, as `linalg.fill` + `linalg.matmul` (what front ends
# emit; oneDNN's matmul also overwrites C). Thread CPU time, best of REPS
# interleaved rounds. Installs Debian's libdnnl-dev (oneDNN 2.6) if missing.
#
#   bash bench/x86/onednn.sh [sizes...]          # default 256 512 1024 2048 4096
#   BEFORE=/path/to/old/fp-opt bash bench/x86/onednn.sh 1024
#                                                # also time another build
#   CPU=znver4 MCPU=znver4 OPTS="kc=256" ...     # pipeline target / llc cpu / options
#   BEFORE=build/bin/fp-opt BEFORE_OPTS="mc=0" ... # the same build with other options
#   BEFORE=build/bin/fp-opt BEFORE_CPU=znver4 ...  # ... or another target's kernels
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LLVM=/usr/lib/llvm-22/bin
FPOPT="${FPOPT:-$ROOT/build/bin/fp-opt}"
. "$ROOT/bench/x86/host_cpu.sh"
if [ ! -f /usr/include/oneapi/dnnl/dnnl.h ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y libdnnl-dev >/dev/null
fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export OMP_NUM_THREADS=1 DNNL_CPU_RUNTIME_THREADS=1
echo "fp-opt: lowp-pipeline-x86{target=$CPU ${OPTS:-}}, llc -mcpu=$MCPU; oneDNN $(dpkg-query -W -f='${Version}' libdnnl-dev 2>/dev/null); 1 thread; GFLOP/s, thread CPU time, best of ${REPS:-auto} rounds"

# The two functions, names prefixed by $2.
kernels() {
  local n=$1 p=$2
  cat <<MLIR
func.func @${p}matmul_f32(%a: memref<${n}x${n}xf32>, %b: memref<${n}x${n}xf32>,
                      %c: memref<${n}x${n}xf32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<${n}x${n}xf32>)
  linalg.matmul ins(%a, %b : memref<${n}x${n}xf32>, memref<${n}x${n}xf32>)
                outs(%c : memref<${n}x${n}xf32>)
  return
}
func.func @${p}matmul_bf16(%a: memref<${n}x${n}xbf16>, %b: memref<${n}x${n}xbf16>,
                       %c: memref<${n}x${n}xf32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<${n}x${n}xf32>)
  linalg.matmul ins(%a, %b : memref<${n}x${n}xbf16>, memref<${n}x${n}xbf16>)
                outs(%c : memref<${n}x${n}xf32>)
  return
}
MLIR
}
compile() { # fp-opt, size, prefix, object, options, target
  kernels "$2" "$3" | "$1" -lowp-pipeline-x86="target=${6:-$CPU} $5" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir \
    | "$LLVM/llc" -O3 -mcpu="$MCPU" -relocation-model=pic -filetype=obj -o "$4"
}
for n in "${@:-256 512 1024 2048 4096}"; do
  objs=("$OUT/mm.o")
  compile "$FPOPT" "$n" "" "$OUT/mm.o" "${OPTS:-}"
  if [ -n "${BEFORE:-}" ]; then
    compile "$BEFORE" "$n" before_ "$OUT/before.o" "${BEFORE_OPTS-${OPTS:-}}" "${BEFORE_CPU:-$CPU}"
    objs+=("$OUT/before.o")
  fi
  "$LLVM/clang" -O2 -o "$OUT/bench" "$ROOT/bench/x86/onednn_driver.c" \
    "${objs[@]}" -ldnnl -lm
  # Fewer rounds for the large sizes (4096^3 is 137 GFLOP per call).
  reps=${REPS:-$(( n >= 4096 ? 3 : n >= 2048 ? 5 : 10 ))}
  "$OUT/bench" "$n" "$reps"
done
