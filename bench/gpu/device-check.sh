#!/usr/bin/env bash
# The GPU-side checks of fp-opt's NVIDIA path, as one command (< 8 minutes)
# on a machine with an NVIDIA GPU and its driver, from what
# bench/gpu/build-device-check.sh built elsewhere (bench/gpu/out/<chip>/;
# README.md). Needs: the driver (libcuda.so.1, nvidia-smi), python3;
# optional: PyTorch (cuBLAS figures), ptxas + cuobjdump (SASS check), a
# configured fp-opt build tree with lit (the gated lit tests).
#   1. the bundled MLP and a transformer block in bf16, f16 (and FP8 on
#      sm_89+), run on the GPU, against the f32 CPU outputs within
#      check_model.py's format-derived bounds;
#   2. the lit tests gated on cuda-device, where a build tree is present;
#   3. HMMA instructions in the SASS of the GEMM kernels, where the CUDA
#      tools are present;
#   4. GEMMs (4096^3 and a BERT-base layer's shapes; bf16, f16; FP8 E4M3
#      on sm_89+: fp-opt's mma.sync m16n8k32 kernel next to
#      torch._scaled_mm, both with B stored [n][k]) next to cuBLAS: one
#      table of TFLOP/s and the ratio.
# On compute capability 9.0 (H100/H200) steps 1, 3 and 4 run twice where
# both were built: for sm_90 (mma.sync kernels) and sm_90a (wgmma
# kernels, whose PTX runs on 9.0 only), and a last line puts 4096^3 bf16
# of both next to cuBLAS.
# Usage: bash bench/gpu/device-check.sh [chip ...]   (default: from the driver)
# Exit status: non-zero when a correctness check failed.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
STEP_TIMEOUT=${STEP_TIMEOUT:-120}
failures=0

echo "== device"
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader \
  || { echo "nvidia-smi failed: no GPU or no driver"; exit 2; }
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
major=${cap%.*}; minor=${cap#*.}
if [ $# -ge 1 ]; then
  CHIPS="$*"
else
  # The capability table's chip the device runs (as test/lit.cfg.py picks).
  CHIP=""
  for entry in 10.0:sm_100 9.0:sm_90 8.9:sm_89 8.6:sm_86 8.0:sm_80 7.5:sm_75; do
    cc=${entry%%:*}; name=${entry#*:}
    if [ $((major * 10 + minor)) -ge $((${cc%.*} * 10 + ${cc#*.})) ]; then CHIP=$name; break; fi
  done
  CHIPS=$CHIP
  # wgmma kernels (sm_90a PTX) run on 9.0 exactly.
  if [ "$cap" = "9.0" ] && [ -d "$HERE/out/sm_90a/bin" ]; then CHIPS="$CHIPS sm_90a"; fi
fi

check_chip() { # chip
CHIP=$1
OUT="$HERE/out/$CHIP"
if [ ! -d "$OUT/bin" ]; then
  echo "no prebuilt programs for $CHIP in $OUT: run bench/gpu/build-device-check.sh $CHIP on the build machine and copy bench/gpu/out/ here"
  failures=$((failures + 1))
  return
fi
echo
echo "######## $CHIP (compute capability $cap), programs from $OUT"

echo
echo "== 1. models on the GPU against the f32 CPU run"
while read -r program ref terms factor minrel; do
  log="$OUT/$program.out"
  if ! timeout "$STEP_TIMEOUT" env LOWP_CUDA_SYNC_LAUNCHES=1 "$OUT/bin/$program" > "$log" 2> "$log.err"; then
    echo "$program: FAIL (exit status; $(tail -1 "$log.err"))"
    failures=$((failures + 1))
    continue
  fi
  verdict=$(python3 "$OUT/check_model.py" "$OUT/ref/$ref" "$log" --term "$terms" --factor "$factor" --min-rel "$minrel")
  echo "$program: $(echo "$verdict" | tail -1) ($(echo "$verdict" | head -1))"
  echo "$verdict" | grep -q "^PASS" || failures=$((failures + 1))
done < "$OUT/checks.txt"

echo
echo "== 3. SASS of the GEMM kernels"
if command -v ptxas > /dev/null && command -v cuobjdump > /dev/null; then
  for ptx in "$OUT"/ptx/*.ptx; do
    cubin="${ptx%.ptx}.cubin"
    ptxas -arch="$CHIP" "$ptx" -o "$cubin" && \
      echo "$(basename "${ptx%.ptx}"): $(cuobjdump -sass "$cubin" | grep -c 'HMMA\|QMMA') HMMA/QMMA, $(cuobjdump -sass "$cubin" | grep -c 'HGMMA\|QGMMA') HGMMA/QGMMA (wgmma), $(cuobjdump -sass "$cubin" | grep -c LDSM) LDSM, $(cuobjdump -sass "$cubin" | grep -c LDGSTS) LDGSTS"
  done
else
  echo "skipped: no ptxas/cuobjdump (the driver JIT-compiles the PTX)"
fi

echo
echo "== 4. GEMM: fp-opt's tensor-core kernel vs cuBLAS"
timeout $((STEP_TIMEOUT * 2)) "$OUT/bin/gemm-bench" > "$OUT/gemm-ours.txt" 2> "$OUT/gemm-ours.err" \
  || { echo "gemm-bench failed: $(tail -1 "$OUT/gemm-ours.err")"; failures=$((failures + 1)); }
specs=""
for s in $(cat "$OUT/gemm-shapes.txt"); do
  for fmt in bf16 f16; do specs="$specs $fmt:$s"; done
  case "$CHIP" in sm_89|sm_90|sm_90a|sm_100) specs="$specs f8E4M3FN:$s" ;; esac
done
timeout $((STEP_TIMEOUT * 2)) python3 "$OUT/cublas_gemm.py" $specs > "$OUT/gemm-cublas.txt" 2>&1
printf "%-9s %-16s %12s %12s %7s  %s\n" format "MxNxK" "fp-opt" "cuBLAS" ratio check
for spec in $specs; do
  fmt=${spec%%:*}; shape=${spec#*:}
  ours=$(awk -v f="$fmt" -v s="$shape" '$1 == "ours" && $2 == f && $3 == s { print $4 }' "$OUT/gemm-ours.txt")
  check=$(awk -v f="$fmt" -v s="$shape" '$1 == "ours" && $2 == f && $3 == s { print $7, $8 }' "$OUT/gemm-ours.txt")
  theirs=$(awk -v f="$fmt" -v s="$shape" '$1 == "cublas" && $2 == f && $3 == s { print $4 }' "$OUT/gemm-cublas.txt")
  ratio="-"
  if [ -n "$ours" ] && [ -n "$theirs" ] && [ "$theirs" != "n/a" ]; then
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
  fi
  printf "%-9s %-16s %12s %12s %7s  %s\n" "$fmt" "$shape" "${ours:-?}" "${theirs:-n/a}" "$ratio" "$check"
done
grep -v "^cublas .* TFLOP/s$" "$OUT/gemm-cublas.txt" | sed 's/^/  /'
grep -q "check FAIL" "$OUT/gemm-ours.txt" && failures=$((failures + 1))
}

for chip in $CHIPS; do check_chip "$chip"; done

echo
echo "== 2. lit tests gated on cuda-device (cuda-wgmma on 9.0)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
LIT=$(command -v lit || echo /usr/lib/llvm-22/bin/lit)
if [ -x "$BUILD/bin/fp-opt" ] && [ -x "$LIT" ] && [ -d "$BUILD/test/Integration/GPU" ]; then
  timeout $((STEP_TIMEOUT * 2)) "$LIT" -v "$BUILD/test/Integration/GPU" "$BUILD/test/Runtime" || failures=$((failures + 1))
else
  echo "skipped: no fp-opt build tree with lit here (the programs of step 1 are the same models)"
fi

# 4096^3 bf16: mma.sync (sm_90) and wgmma (sm_90a) next to cuBLAS.
if [ -f "$HERE/out/sm_90/gemm-ours.txt" ] && [ -f "$HERE/out/sm_90a/gemm-ours.txt" ] \
   && echo " $CHIPS " | grep -q " sm_90a "; then
  row() { awk -v k="$1" -v f=bf16 -v s=4096x4096x4096 '$1 == k && $2 == f && $3 == s { print $4 }' "$2"; }
  mma=$(row ours "$HERE/out/sm_90/gemm-ours.txt")
  wg=$(row ours "$HERE/out/sm_90a/gemm-ours.txt")
  cublas=$(row cublas "$HERE/out/sm_90a/gemm-cublas.txt")
  echo
  echo "== 5. 4096^3 bf16 on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  awk -v a="${mma:-0}" -v b="${wg:-0}" -v c="${cublas:-0}" 'BEGIN {
    printf "mma.sync (sm_90) %.1f TFLOP/s, wgmma (sm_90a) %.1f TFLOP/s, cuBLAS (torch.matmul) %.1f TFLOP/s", a, b, c
    if (c > 0) printf ": %.0f%% and %.0f%% of cuBLAS", 100 * a / c, 100 * b / c
    printf "\n" }'
fi

echo
echo "device-check: $failures failure(s)"
exit $((failures > 0))
