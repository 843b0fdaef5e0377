# Sourced by the x86 benchmarks: the pipeline target (CPU) and llc's -mcpu
# (MCPU) for this host unless set: Sapphire Rapids code on an Intel core
# with AVX512_BF16 and AVX512_FP16, Zen 4 code on other AVX512_BF16 hosts,
# AVX2 code elsewhere.
if grep -q avx512_bf16 /proc/cpuinfo && grep -q avx512_fp16 /proc/cpuinfo; then
  CPU="${CPU:-sapphirerapids}" MCPU="${MCPU:-sapphirerapids}"
elif grep -q avx512_bf16 /proc/cpuinfo; then
  CPU="${CPU:-znver4}" MCPU="${MCPU:-znver4}"
else
  CPU="${CPU:-avx2}" MCPU="${MCPU:-x86-64-v3}"
fi
