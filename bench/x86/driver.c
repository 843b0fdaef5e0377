// Times the matmuls compiled by lowp-pipeline-x86 against OpenBLAS sgemm,
// single thread, side by side in one process. C = A * B, N x N, row-major.
#include <cblas.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"


void _mlir_ciface_matmul_f32(MemRef2D *a, MemRef2D *b, MemRef2D *c);
void _mlir_ciface_matmul_bf16(MemRef2D *a, MemRef2D *b, MemRef2D *c);

static MemRef2D view(void *p, int64_t n) {
  MemRef2D m = {p, p, 0, {n, n}, {n, 1}};
  return m;
}

static uint16_t toBF16(float f) { // nearest-even
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

static float fromBF16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

int main(int argc, char **argv) {
  // The generated code mallocs its packing buffers per call (memref.alloc);
  // OpenBLAS keeps its buffers for the life of the process. Keep freed
  // memory in the heap (no trimming, no mmap per call) so both pay the same
  // for memory management: otherwise every call page-faults its buffers in.
  if (!getenv("BENCH_DEFAULT_MALLOC")) {
    keepFreedMemoryInHeap();
  }
  int n = argc > 1 ? atoi(argv[1]) : 512;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t nn = (size_t)n * n;
  float *a = aligned_alloc(64, nn * 4), *b = aligned_alloc(64, nn * 4);
  float *c = aligned_alloc(64, nn * 4), *ref = aligned_alloc(64, nn * 4);
  uint16_t *a16 = aligned_alloc(64, nn * 2), *b16 = aligned_alloc(64, nn * 2);
  srand(1);
  for (size_t i = 0; i < nn; ++i) {
    a[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    b[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    a16[i] = toBF16(a[i]);
    b16[i] = toBF16(b[i]);
  }
  MemRef2D A = view(a, n), B = view(b, n), C = view(c, n);
  MemRef2D A16 = view(a16, n), B16 = view(b16, n);
  double flop = 2.0 * n * n * n;

  // Interleaved: every round times each kernel once, so all three see the
  // same machine load; the best round of each counts.
  double tBlas = 1e30, tF32 = 1e30, tBF16 = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n,
                b, n, 0.0f, ref, n);
    double t1 = now();
    memset(c, 0, nn * 4);
    double t2 = now();
    _mlir_ciface_matmul_f32(&A, &B, &C);
    double t3 = now();
    tBlas = t1 - t0 < tBlas ? t1 - t0 : tBlas;
    tF32 = t3 - t2 < tF32 ? t3 - t2 : tF32;
  }
  double errF32 = 0;
  for (size_t i = 0; i < nn; ++i) {
    double d = c[i] - ref[i];
    errF32 = d * d > errF32 ? d * d : errF32;
  }
  float *c16 = aligned_alloc(64, nn * 4);
  MemRef2D C16 = view(c16, n);
  for (int r = 0; r < reps; ++r) {
    memset(c16, 0, nn * 4);
    double t0 = now();
    _mlir_ciface_matmul_bf16(&A16, &B16, &C16);
    double t1 = now();
    memset(c, 0, nn * 4);
    double t2 = now();
    _mlir_ciface_matmul_f32(&A, &B, &C);
    double t3 = now();
    tBF16 = t1 - t0 < tBF16 ? t1 - t0 : tBF16;
    tF32 = t3 - t2 < tF32 ? t3 - t2 : tF32;
  }
  memcpy(c, c16, nn * 4);
  // bf16 check: against OpenBLAS on the bf16-rounded inputs.
  for (size_t i = 0; i < nn; ++i) {
    a[i] = fromBF16(a16[i]);
    b[i] = fromBF16(b16[i]);
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n,
              b, n, 0.0f, ref, n);
  double errBF16 = 0;
  for (size_t i = 0; i < nn; ++i) {
    double d = c[i] - ref[i];
    errBF16 = d * d > errBF16 ? d * d : errBF16;
  }
  double gBlas = flop / tBlas * 1e-9, gF32 = flop / tF32 * 1e-9,
         gBF16 = flop / tBF16 * 1e-9;
  printf("N=%-5d openblas-sgemm %7.1f GFLOP/s | fp-opt f32 %7.1f GFLOP/s "
         "(%.2fx openblas) | fp-opt bf16-storage %7.1f GFLOP/s (%.2fx f32) | "
         "max|err| f32 %.1e bf16 %.1e\n",
         n, gBlas, gF32, gF32 / gBlas, gBF16, gBF16 / gF32,
         errF32 > 0 ? __builtin_sqrt(errF32) : 0.0,
         errBF16 > 0 ? __builtin_sqrt(errBF16) : 0.0);
  return 0;
}
