// Calls the compiled ../../X86/Inputs/prepack-linear.mlir layer (13x38 ->
// 40 -> 20, bias + ReLU between) from several threads at once, each on its
// own input, many times: every result must equal, bit for bit, what the
// same call returned on one thread, and that must agree with a float64
// reference. Calls that overlap in time must not share the workspace
// lowp-plan-workspace gave the layer (one takes the module's global, the
// others allocate their own).
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2;
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1;

void _mlir_ciface_forward(Memref2 *result, Memref2 *x, Memref2 *w1,
                          Memref1 *b1, Memref2 *w2, Memref1 *b2);

enum { B = 13, K = 38, H = 40, N = 20, THREADS = 4, CALLS = 300 };

static float w1[H * K], b1[H], w2[N * H], b2[N];
static float inputs[THREADS][B * K], expected[THREADS][B * N];
static pthread_barrier_t start;
static int mismatches[THREADS];

static Memref2 matrix(float *p, int64_t rows, int64_t cols) {
  Memref2 m = {p, p, 0, {rows, cols}, {cols, 1}};
  return m;
}
static Memref1 vector(float *p, int64_t n) {
  Memref1 m = {p, p, 0, {n}, {1}};
  return m;
}

static void forward(float *x, float *y) {
  Memref2 result, mx = matrix(x, B, K), mw1 = matrix(w1, H, K),
                  mw2 = matrix(w2, N, H);
  Memref1 mb1 = vector(b1, H), mb2 = vector(b2, N);
  _mlir_ciface_forward(&result, &mx, &mw1, &mb1, &mw2, &mb2);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < N; ++j)
      y[i * N + j] = result.aligned[result.offset + i * result.strides[0] +
                                    j * result.strides[1]];
  free(result.allocated);
}

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  float y[B * N];
  pthread_barrier_wait(&start);
  for (int call = 0; call < CALLS; ++call) {
    forward(inputs[t], y);
    if (memcmp(y, expected[t], sizeof y) != 0)
      ++mismatches[t];
  }
  return NULL;
}

// Deterministic values in [-1, 1).
static float value(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (float)((*state >> 8) & 0xffff) / 32768.0f - 1.0f;
}

int main(void) {
  unsigned state = 12345;
  for (int i = 0; i < H * K; ++i) w1[i] = value(&state);
  for (int i = 0; i < H; ++i) b1[i] = value(&state);
  for (int i = 0; i < N * H; ++i) w2[i] = value(&state);
  for (int i = 0; i < N; ++i) b2[i] = value(&state);
  for (int t = 0; t < THREADS; ++t)
    for (int i = 0; i < B * K; ++i) inputs[t][i] = value(&state);

  // One thread first: the expected results, checked against float64.
  double worst = 0;
  for (int t = 0; t < THREADS; ++t) {
    forward(inputs[t], expected[t]);
    for (int i = 0; i < B; ++i)
      for (int j = 0; j < N; ++j) {
        double y = b2[j];
        for (int h = 0; h < H; ++h) {
          double a = b1[h];
          for (int k = 0; k < K; ++k)
            a += (double)inputs[t][i * K + k] * w1[h * K + k];
          y += (a > 0 ? a : 0) * w2[j * H + h];
        }
        double err = fabs(expected[t][i * N + j] - y) / (1 + fabs(y));
        worst = err > worst ? err : worst;
      }
  }
  printf("float64 reference: %s (worst relative error %.2e)\n",
         worst <= 1e-5 ? "ok" : "FAILED", worst);
  int differ = memcmp(expected[0], expected[1], sizeof expected[0]) != 0;
  printf("inputs give different results: %d\n", differ);

  pthread_t threads[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int t = 0; t < THREADS; ++t)
    pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
  int total = 0;
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(threads[t], NULL);
    total += mismatches[t];
  }
  printf("%d threads x %d calls, results differing from one thread: %d\n",
         THREADS, CALLS, total);
  return worst <= 1e-5 && differ && total == 0 ? 0 : 1;
}
