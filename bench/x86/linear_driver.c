// Times fp-opt's f32 nn.Linear GEMM (y = x W^T, x: M x K, W: N x K, the
// weight packed once by linear_prepack; with -DPER_CALL, compiled without
// prepack=true: packed inside every call) against OpenBLAS cblas_sgemm
// (what PyTorch's f32 nn.Linear calls), one thread, side by side in one
// process.
// Outputs are compared first. With a second fp-opt build compiled in
// (`before_*` functions, see linear.sh), that one is timed in the same
// rounds too. Usage: linear_driver M N K [rounds]
#include <cblas.h>

#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} MemRef3D;

#ifdef PER_CALL
typedef MemRef2D Packed; // the weight itself
static void _mlir_ciface_linear_prepack(Packed *p, MemRef2D *w) { *p = *w; }
static void _mlir_ciface_before_linear_prepack(Packed *p, MemRef2D *w) {
  *p = *w;
}
#define free_packed(p)
#else
typedef MemRef3D Packed;
void _mlir_ciface_linear_prepack(Packed *packed, MemRef2D *w);
__attribute__((weak)) void _mlir_ciface_before_linear_prepack(Packed *,
                                                              MemRef2D *);
#define free_packed(p) free((p).allocated)
#endif
void _mlir_ciface_linear(MemRef2D *y, MemRef2D *x, Packed *packed);
__attribute__((weak)) void _mlir_ciface_before_linear(MemRef2D *, MemRef2D *,
                                                      Packed *);
char *openblas_get_corename(void);

static MemRef2D view(float *p, int64_t rows, int64_t cols) {
  MemRef2D m = {p, p, 0, {rows, cols}, {cols, 1}};
  return m;
}

int main(int argc, char **argv) {
  // Both sides allocate per call (the result; OpenBLAS its buffers once):
  // keep freed memory in the heap so that nothing page-faults.
  keepFreedMemoryInHeap();
  if (argc < 4) {
    fprintf(stderr, "usage: %s M N K [rounds]\n", argv[0]);
    return 2;
  }
  int64_t m = atoll(argv[1]), n = atoll(argv[2]), k = atoll(argv[3]);
  int reps = argc > 4 ? atoi(argv[4]) : 10;
  float *x = aligned_alloc(64, m * k * 4), *w = aligned_alloc(64, n * k * 4);
  float *ref = aligned_alloc(64, m * n * 4);
  srand(1);
  for (int64_t i = 0; i < m * k; ++i)
    x[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (int64_t i = 0; i < n * k; ++i)
    w[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  MemRef2D X = view(x, m, k), W = view(w, n, k);
  Packed P, PB;
  _mlir_ciface_linear_prepack(&P, &W);
  int before = _mlir_ciface_before_linear != 0;
  if (before)
    _mlir_ciface_before_linear_prepack(&PB, &W);
  // Outputs first.
  MemRef2D Y, YB;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, x, k, w,
              k, 0.0f, ref, n);
  _mlir_ciface_linear(&Y, &X, &P);
  double err = maxRelErr(Y.aligned, ref, m * n), errB = 0;
  free(Y.allocated);
  if (before) {
    _mlir_ciface_before_linear(&YB, &X, &PB);
    errB = maxRelErr(YB.aligned, ref, m * n);
    free(YB.allocated);
  }
  // Interleaved rounds of `inner` calls each; the best round counts.
  double flop = 2.0 * m * n * k;
  int inner = flop < 2e9 ? (int)(2e9 / flop) : 1;
  double t[3] = {1e30, 1e30, 1e30};
#define TIME(slot, call)                                                       \
  do {                                                                         \
    double t0 = now();                                                         \
    for (int i = 0; i < inner; ++i) {                                          \
      call;                                                                    \
    }                                                                          \
    double dt = (now() - t0) / inner;                                          \
    t[slot] = dt < t[slot] ? dt : t[slot];                                     \
  } while (0)
  for (int r = 0; r < reps; ++r) {
    TIME(0, cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f,
                        x, k, w, k, 0.0f, ref, n));
    TIME(1, (_mlir_ciface_linear(&Y, &X, &P), free(Y.allocated)));
    if (before)
      TIME(2, (_mlir_ciface_before_linear(&YB, &X, &PB), free(YB.allocated)));
  }
  double g[3];
  for (int i = 0; i < 3; ++i)
    g[i] = flop / t[i] * 1e-9;
  printf("%4lld x %4lld x %4lld  openblas %6.1f | fp-opt %6.1f (%.2fx)",
         (long long)m, (long long)n, (long long)k, g[0], g[1], g[1] / g[0]);
  if (before)
    printf(" | before %6.1f (%.2fx)", g[2], g[2] / g[0]);
  printf(" GFLOP/s  [openblas %s; rel.err %.1e]\n", openblas_get_corename(),
         err);
  free_packed(P);
  if (before)
    free_packed(PB);
  if (err > 1e-4 || errB > 1e-4) {
    fprintf(stderr, "outputs differ from OpenBLAS: %.1e %.1e\n", err, errB);
    return 1;
  }
  return 0;
}
