# Sourced by the x86 benchmarks: the pipeline target (CPU) and llc's -mcpu
# (MCPU) for this host unless set: Zen 4 code where the CPU has
# AVX512_BF16, AVX2 code elsewhere.
if grep -q avx512_bf16 /proc/cpuinfo; then
  CPU="${CPU:-znver4}" MCPU="${MCPU:-znver4}"
else
  CPU="${CPU:-avx2}" MCPU="${MCPU:-x86-64-v3}"
fi
