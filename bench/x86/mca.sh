#!/usr/bin/env bash
# Static AVX512_BF16 throughput: the innermost loop of the bf16 matmul that
# lowp-pipeline-x86 generates, through llvm-mca -noalias=false (loads may
# alias stores: accumulators must live in registers to score well), as
# FLOP/cycle against the model's peak for the same chip (a loop of
# independent zmm vdpbf16ps: 64 FLOP each). Usage: bench/x86/mca.sh [N]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LLVM=/usr/lib/llvm-22/bin
FPOPT="${FPOPT:-$ROOT/build/bin/fp-opt}"
N="${1:-512}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
cat > "$OUT/mm.mlir" <<MLIR
func.func @matmul_bf16(%a: memref<${N}x${N}xbf16>, %b: memref<${N}x${N}xbf16>,
                       %c: memref<${N}x${N}xf32>) {
  linalg.matmul ins(%a, %b : memref<${N}x${N}xbf16>, memref<${N}x${N}xbf16>)
                outs(%c : memref<${N}x${N}xf32>)
  return
}
MLIR
# The innermost loop with the most $2 (the multiply-add instruction): from
# its header label to the backward branch.
extract_loop() {
  awk -v op="$2" '
    /^\.LBB[0-9_]+:/ { if (inloop) { if (n > best) { best = n; text = body } }
                       inloop = 0 }
    /Inner Loop Header/ { inloop = 1; body = ""; n = 0; next }
    inloop && /^\t[a-z]/ { body = body $0 "\n"; if ($1 == op) n++
                           if ($1 ~ /^j/) { if (n > best) { best = n; text = body }
                                            inloop = 0 } }
    END { printf "%s", text }' "$1"
}
for cpu in sapphirerapids znver4; do
  "$FPOPT" "$OUT/mm.mlir" -lowp-pipeline-x86="target=$cpu ${OPTS:-}" \
    | "$LLVM/mlir-translate" --mlir-to-llvmir \
    | "$LLVM/llc" -O3 -mcpu=$cpu -o "$OUT/$cpu.s"
  extract_loop "$OUT/$cpu.s" vdpbf16ps | grep -v '^\s*j' > "$OUT/$cpu.loop.s"
  dots=$(grep -c vdpbf16ps "$OUT/$cpu.loop.s")
  insts=$(wc -l < "$OUT/$cpu.loop.s")
  iters=200
  cycles=$("$LLVM/llvm-mca" -noalias=false -mcpu=$cpu -iterations=$iters \
             "$OUT/$cpu.loop.s" 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
  # Peak: independent vdpbf16ps only.
  for i in $(seq 0 15); do echo "vdpbf16ps %zmm30, %zmm31, %zmm$i"; done > "$OUT/peak.s"
  peakCycles=$("$LLVM/llvm-mca" -mcpu=$cpu -iterations=$iters "$OUT/peak.s" \
                 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
  awk -v cpu=$cpu -v d=$dots -v n=$insts -v it=$iters -v c=$cycles -v pc=$peakCycles 'BEGIN {
    f = d * 64 * it / c; p = 16 * 64 * it / pc;
    printf "%-15s inner loop: %d instructions, %d vdpbf16ps; %.1f cycles/iteration; %.1f FLOP/cycle of a modelled peak %.1f (%.0f%%)\n",
           cpu, n, d, c / it, f, p, 100 * f / p }'
  if [ -n "${SHOW:-}" ]; then cat "$OUT/$cpu.loop.s"; fi
done

# AVX2 (bf16 storage widened while packing, f32 FMA kernel): the same
# measure with ymm vfmadd231ps (16 FLOP each) on chips that run AVX2 code.
"$FPOPT" "$OUT/mm.mlir" -lowp-pipeline-x86="target=avx2 ${OPTS:-}" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir \
  | "$LLVM/llc" -O3 -mcpu=x86-64-v3 -o "$OUT/avx2.s"
extract_loop "$OUT/avx2.s" vfmadd231ps | grep -v '^\s*j' > "$OUT/avx2.loop.s"
fmas=$(grep -c vfmadd231ps "$OUT/avx2.loop.s")
insts=$(wc -l < "$OUT/avx2.loop.s")
for i in $(seq 0 11); do echo "vfmadd231ps %ymm14, %ymm15, %ymm$i"; done > "$OUT/peak.s"
for model in haswell sapphirerapids znver4; do
  cycles=$("$LLVM/llvm-mca" -noalias=false -mcpu=$model -iterations=200 \
             "$OUT/avx2.loop.s" 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
  peakCycles=$("$LLVM/llvm-mca" -mcpu=$model -iterations=200 "$OUT/peak.s" \
                 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
  awk -v cpu="avx2 on $model" -v d=$fmas -v n=$insts -v c=$cycles -v pc=$peakCycles 'BEGIN {
    f = d * 16 * 200 / c; p = 12 * 16 * 200 / pc;
    printf "%-22s inner loop: %d instructions, %d vfmadd231ps; %.1f cycles/iteration; %.1f FLOP/cycle of a modelled peak %.1f (%.0f%%)\n",
           cpu, n, d, c / 200, f, p, 100 * f / p }'
done

# AMX-BF16 (sapphirerapids, amx=true): the tdpbf16ps kernel (2 x 2 tiles of
# 16 x 16 f32, k = 32 per instruction: 16384 FLOP each) against the
# AVX-512 f32 FMA kernel of the same pipeline (zmm vfmadd231ps: 32 FLOP).
"$FPOPT" "$OUT/mm.mlir" -lowp-pipeline-x86="target=sapphirerapids amx=true ${OPTS:-}" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir \
  | "$LLVM/llc" -O3 -mcpu=sapphirerapids -o "$OUT/amx.s"
extract_loop "$OUT/amx.s" tdpbf16ps | grep -v '^\s*j' > "$OUT/amx.loop.s"
sed "s/x${N}xbf16/x${N}xf32/g" "$OUT/mm.mlir" > "$OUT/mm32.mlir"
"$FPOPT" "$OUT/mm32.mlir" -lowp-pipeline-x86="target=sapphirerapids ${OPTS:-}" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir \
  | "$LLVM/llc" -O3 -mcpu=sapphirerapids -o "$OUT/f32.s"
extract_loop "$OUT/f32.s" vfmadd231ps | grep -v '^\s*j' > "$OUT/f32.loop.s"
amxCycles=$("$LLVM/llvm-mca" -noalias=false -mcpu=sapphirerapids -iterations=200 \
              "$OUT/amx.loop.s" 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
f32Cycles=$("$LLVM/llvm-mca" -noalias=false -mcpu=sapphirerapids -iterations=200 \
              "$OUT/f32.loop.s" 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
awk -v ta=$(grep -c tdpbf16ps "$OUT/amx.loop.s") -v ca=$amxCycles \
    -v tf=$(grep -c vfmadd231ps "$OUT/f32.loop.s") -v cf=$f32Cycles 'BEGIN {
  fa = ta * 16384 * 200 / ca; ff = tf * 32 * 200 / cf;
  printf "sapphirerapids AMX     inner loop: %d tdpbf16ps; %.1f cycles/iteration; %.1f FLOP/cycle\n", ta, ca / 200, fa
  printf "sapphirerapids AVX-512 f32 inner loop: %d vfmadd231ps; %.1f cycles/iteration; %.1f FLOP/cycle\n", tf, cf / 200, ff
  printf "AMX / AVX-512 f32: %.1fx\n", fa / ff }'
