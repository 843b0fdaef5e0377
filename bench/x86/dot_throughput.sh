#!/usr/bin/env bash
# Throughput of one core's 512-bit f32 FMA (vfmadd231ps) against the bf16
# dot (vdpbf16ps): 12 independent accumulators, so the units, not the
# latency, bound the loop. The ratio is TargetInfo's f32FmaMacsPerCycle /
# bf16DotMacsPerCycle fact (a vdpbf16ps is 32 products, an FMA 16): the x86
# kernels use vdpbf16ps only where it is not slower. Needs AVX512_BF16.
#   bash bench/x86/dot_throughput.sh
set -euo pipefail
if ! grep -q avx512_bf16 /proc/cpuinfo; then
  echo "dot_throughput: this CPU has no AVX512_BF16" >&2
  exit 1
fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
cat >"$OUT/tp.c" <<'C'
#include <stdio.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
#define REP12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define FMA(k) "vfmadd231ps %%zmm30, %%zmm31, %%zmm" #k "\n"
#define DOT(k) "vdpbf16ps %%zmm30, %%zmm31, %%zmm" #k "\n"
int main(void) {
  const long n = 100000000;
  double best_fma = 1e9, best_dot = 1e9;
  for (int round = 0; round < 3; ++round) {
    double t0 = now();
    for (long i = 0; i < n; i++)
      __asm__ volatile(REP12(FMA)::: "memory");
    double t1 = now();
    for (long i = 0; i < n; i++)
      __asm__ volatile(REP12(DOT)::: "memory");
    double t2 = now();
    if (t1 - t0 < best_fma) best_fma = t1 - t0;
    if (t2 - t1 < best_dot) best_dot = t2 - t1;
  }
  double fma = best_fma / n / 12 * 1e9, dot = best_dot / n / 12 * 1e9;
  printf("vfmadd231ps zmm: %.3f ns per instruction (16 f32 products)\n", fma);
  printf("vdpbf16ps zmm:   %.3f ns per instruction (32 bf16 products)\n", dot);
  printf("bf16 products per f32 product time: %.2fx (> 1: vdpbf16ps is faster)\n",
         (32 / dot) / (16 / fma));
  return 0;
}
C
/usr/lib/llvm-22/bin/clang -O1 -mavx512f -mavx512bf16 "$OUT/tp.c" -o "$OUT/tp"
grep -m1 "model name" /proc/cpuinfo
"$OUT/tp"
