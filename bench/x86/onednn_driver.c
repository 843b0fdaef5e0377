// Times fp-opt's matmuls (lowp-pipeline-x86) against oneDNN's matmul
// primitive, one thread, side by side in one process: C = A * B, N x N,
// row-major A and B (as a caller hands them over: both libraries pack B per
// call), f32 x f32 -> f32 and bf16 x bf16 -> f32. Outputs are compared
// first. With a second fp-opt build compiled in (`before_*` functions, see
// onednn.sh), that one is timed in the same rounds too.
#include <oneapi/dnnl/dnnl.h>

#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"


typedef void (*Kernel)(MemRef2D *, MemRef2D *, MemRef2D *);
void _mlir_ciface_matmul_f32(MemRef2D *a, MemRef2D *b, MemRef2D *c);
void _mlir_ciface_matmul_bf16(MemRef2D *a, MemRef2D *b, MemRef2D *c);
__attribute__((weak)) void _mlir_ciface_before_matmul_f32(MemRef2D *,
                                                          MemRef2D *,
                                                          MemRef2D *);
__attribute__((weak)) void _mlir_ciface_before_matmul_bf16(MemRef2D *,
                                                           MemRef2D *,
                                                           MemRef2D *);

#define CHECK(x)                                                               \
  do {                                                                         \
    dnnl_status_t s_ = (x);                                                    \
    if (s_ != dnnl_success) {                                                  \
      fprintf(stderr, "oneDNN error %d at %s\n", (int)s_, #x);                 \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static MemRef2D view(void *p, int64_t n) {
  MemRef2D m = {p, p, 0, {n, n}, {n, 1}};
  return m;
}

static uint16_t toBF16(float f) { // nearest-even
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

typedef struct {
  dnnl_primitive_t prim;
  dnnl_stream_t stream;
  dnnl_memory_t a, b, c;
  const char *impl;
} Dnnl;

static Dnnl dnnlMatmul(dnnl_engine_t eng, int64_t n, dnnl_data_type_t in,
                       void *a, void *b, float *c) {
  Dnnl d;
  dnnl_dims_t dims = {n, n};
  dnnl_memory_desc_t amd, bmd, cmd;
  CHECK(dnnl_memory_desc_init_by_tag(&amd, 2, dims, in, dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&bmd, 2, dims, in, dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&cmd, 2, dims, dnnl_f32, dnnl_ab));
  dnnl_matmul_desc_t md;
  CHECK(dnnl_matmul_desc_init(&md, &amd, &bmd, NULL, &cmd));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &md, NULL, eng, NULL));
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &d.impl));
  CHECK(dnnl_primitive_create(&d.prim, pd));
  CHECK(dnnl_stream_create(&d.stream, eng, dnnl_stream_default_flags));
  CHECK(dnnl_memory_create(&d.a, &amd, eng, a));
  CHECK(dnnl_memory_create(&d.b, &bmd, eng, b));
  CHECK(dnnl_memory_create(&d.c, &cmd, eng, c));
  return d;
}

static void dnnlRun(Dnnl *d) {
  dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, d->a},
                             {DNNL_ARG_WEIGHTS, d->b},
                             {DNNL_ARG_DST, d->c}};
  CHECK(dnnl_primitive_execute(d->prim, d->stream, 3, args));
  CHECK(dnnl_stream_wait(d->stream));
}

int main(int argc, char **argv) {
  // Both sides allocate per call (fp-opt's packing slices, oneDNN's
  // scratchpad): keep freed memory in the heap so neither page-faults.
  keepFreedMemoryInHeap();
  int64_t n = argc > 1 ? atoll(argv[1]) : 512;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t nn = (size_t)n * n;
  float *a = aligned_alloc(64, nn * 4), *b = aligned_alloc(64, nn * 4);
  uint16_t *a16 = aligned_alloc(64, nn * 2), *b16 = aligned_alloc(64, nn * 2);
  float *cD = aligned_alloc(64, nn * 4), *cF = aligned_alloc(64, nn * 4);
  float *cB = aligned_alloc(64, nn * 4);
  srand(1);
  for (size_t i = 0; i < nn; ++i) {
    a[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    b[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    a16[i] = toBF16(a[i]);
    b16[i] = toBF16(b[i]);
  }
  dnnl_engine_t eng;
  CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
  Dnnl d32 = dnnlMatmul(eng, n, dnnl_f32, a, b, cD);
  Dnnl d16 = dnnlMatmul(eng, n, dnnl_bf16, a16, b16, cD);
  MemRef2D A = view(a, n), B = view(b, n), A16 = view(a16, n),
           B16 = view(b16, n), CF = view(cF, n), CB = view(cB, n);
  Kernel before32 = _mlir_ciface_before_matmul_f32,
         before16 = _mlir_ciface_before_matmul_bf16;

  // Outputs first (the fp-opt functions fill C with zeros themselves).
  double err[4] = {0, 0, 0, 0};
  dnnlRun(&d32);
  _mlir_ciface_matmul_f32(&A, &B, &CF);
  err[0] = maxRelErr(cF, cD, nn);
  if (before32) {
    before32(&A, &B, &CB);
    err[2] = maxRelErr(cB, cD, nn);
  }
  dnnlRun(&d16);
  _mlir_ciface_matmul_bf16(&A16, &B16, &CF);
  err[1] = maxRelErr(cF, cD, nn);
  if (before16) {
    before16(&A16, &B16, &CB);
    err[3] = maxRelErr(cB, cD, nn);
  }

  // Interleaved rounds: each variant once per round; best round counts.
  double t[6];
  for (int i = 0; i < 6; ++i)
    t[i] = 1e30;
#define TIME(slot, call)                                                       \
  do {                                                                         \
    double t0 = now();                                                         \
    call;                                                                      \
    double dt = now() - t0;                                                    \
    t[slot] = dt < t[slot] ? dt : t[slot];                                     \
  } while (0)
  for (int r = 0; r < reps; ++r) {
    TIME(0, dnnlRun(&d32));
    TIME(1, _mlir_ciface_matmul_f32(&A, &B, &CF));
    if (before32)
      TIME(2, before32(&A, &B, &CB));
    TIME(3, dnnlRun(&d16));
    TIME(4, _mlir_ciface_matmul_bf16(&A16, &B16, &CF));
    if (before16)
      TIME(5, before16(&A16, &B16, &CB));
  }
  double flop = 2.0 * n * n * n, g[6];
  for (int i = 0; i < 6; ++i)
    g[i] = flop / t[i] * 1e-9;
  printf("N=%-5lld f32:  onednn %6.1f | fp-opt %6.1f (%.2fx)", (long long)n,
         g[0], g[1], g[1] / g[0]);
  if (before32)
    printf(" | before %6.1f (%.2fx)", g[2], g[2] / g[0]);
  printf(" GFLOP/s  [%s; rel.err %.1e]\n", d32.impl, err[0]);
  printf("N=%-5lld bf16: onednn %6.1f | fp-opt %6.1f (%.2fx)", (long long)n,
         g[3], g[4], g[4] / g[3]);
  if (before16)
    printf(" | before %6.1f (%.2fx)", g[5], g[5] / g[3]);
  printf(" GFLOP/s  [%s; rel.err %.1e]\n", d16.impl, err[1]);
  // f32 results agree to rounding; bf16 ones to the f32 accumulation order.
  if (err[0] > 1e-4 || err[1] > 1e-3 || err[2] > 1e-4 || err[3] > 1e-3) {
    fprintf(stderr, "outputs differ from oneDNN: %.1e %.1e %.1e %.1e\n",
            err[0], err[1], err[2], err[3]);
    return 1;
  }
  return 0;
}
