// Sequential read bandwidth of THREADS threads (default 1): the floor under
// a call that reads its f32 weights (the MLP layer of bench/e2e reads 96 MiB
// of them per call when it rounds them itself, prepack=false; a decode step
// of bench/llm reads every weight once). Sums a buffer of MIB MiB of floats
// with the loop vectorized at the host's width (compiled with -O3
// -march=native -ffast-math -fopenmp); with several threads each sums its
// own contiguous part (OpenMP static schedule, pages first touched by the
// thread that reads them); best of 7 passes.
//   read_bandwidth [MIB] [THREADS]
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

// One pass: the sum of a[0..n) with the host's vector width, split over
// the current OpenMP thread count; returns the seconds it took. Also called
// per round by bench/llm (built with -DREAD_BANDWIDTH_LIBRARY).
double read_bandwidth_pass(const float *a, size_t n, float *sum) {
  double t = omp_get_wtime();
  float s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (size_t i = 0; i < n; ++i)
    s += a[i];
  *sum = s;
  return omp_get_wtime() - t;
}

#ifndef READ_BANDWIDTH_LIBRARY
int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 96;
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  if (threads < 1)
    threads = 1;
  omp_set_num_threads(threads);
  size_t n = mib << 18; // floats
  float *a = aligned_alloc(64, n * sizeof(float));
  if (!a)
    return 1;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i)
    a[i] = (float)(i & 1023) * 1e-3f;
  double best = 1e30, sum = 0;
  for (int pass = 0; pass < 7; ++pass) {
    float s;
    double dt = read_bandwidth_pass(a, n, &s);
    sum += s;
    if (dt < best)
      best = dt;
  }
  printf("read bandwidth, %d thread%s, %zu MiB: %.1f GB/s (%.2f ms per pass; "
         "checksum %g)\n",
         threads, threads == 1 ? "" : "s", mib, n * sizeof(float) / best / 1e9,
         best * 1e3, sum);
  free(a);
  return 0;
}
#endif
