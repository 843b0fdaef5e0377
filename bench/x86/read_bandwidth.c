// One thread's sequential read bandwidth: the floor under a call that reads
// its f32 weights (the MLP layer of bench/e2e reads 96 MiB of them per call
// when it rounds them itself, prepack=false). Sums a buffer of MIB MiB of
// floats with 4 independent vector accumulators (compiled with -O3
// -march=native -ffast-math: the loop vectorizes at the host's width);
// best of 7 passes.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 96;
  size_t n = mib << 18; // floats
  float *a = aligned_alloc(64, n * sizeof(float));
  if (!a)
    return 1;
  for (size_t i = 0; i < n; ++i)
    a[i] = (float)(i & 1023) * 1e-3f;
  double best = 1e30, sum = 0;
  for (int pass = 0; pass < 7; ++pass) {
    double t = now();
    float s = 0;
    for (size_t i = 0; i < n; ++i)
      s += a[i];
    double dt = now() - t;
    sum += s;
    if (dt < best)
      best = dt;
  }
  printf("read bandwidth, 1 thread, %zu MiB: %.1f GB/s (%.2f ms per pass; "
         "checksum %g)\n",
         mib, n * sizeof(float) / best / 1e9, best * 1e3, sum);
  free(a);
  return 0;
}
