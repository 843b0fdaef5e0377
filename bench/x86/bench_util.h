// What the x86 benchmark drivers (driver.c, onednn_driver.c,
// linear_driver.c) share: the memref descriptor of a 2-D buffer as the
// generated code's C interface takes it, the clock, the output comparison
// and the heap setting that makes both sides of a comparison pay the same
// for memory management.
#ifndef FPOPT_BENCH_X86_BENCH_UTIL_H
#define FPOPT_BENCH_X86_BENCH_UTIL_H

#include <malloc.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

static inline double now(void) {
  // Thread CPU time: the machine is shared; preemption must not count.
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// max |x - ref| / max |ref|.
static inline double maxRelErr(const float *x, const float *ref, size_t nn) {
  double worst = 0, scale = 0;
  for (size_t i = 0; i < nn; ++i)
    scale = fabs(ref[i]) > scale ? fabs(ref[i]) : scale;
  for (size_t i = 0; i < nn; ++i) {
    double e = fabs((double)x[i] - ref[i]);
    worst = e > worst ? e : worst;
  }
  return worst / (scale > 0 ? scale : 1);
}

// The generated code allocates per call (results, packing buffers); the
// libraries it is compared with keep their buffers. Freed memory stays in
// the heap (no trimming, no mmap per call) so that neither side
// page-faults its buffers in on every call.
static inline void keepFreedMemoryInHeap(void) {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

#endif // FPOPT_BENCH_X86_BENCH_UTIL_H
