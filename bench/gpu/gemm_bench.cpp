//===- gemm_bench.cpp - time fp-opt's tensor-core GEMMs on the GPU --------===//
//
// Linked by bench/gpu/build-device-check.sh with the GEMM functions that
// lowp-pipeline-nvvm compiled (calling-convention=device: they take device
// buffers; each runs `iters` GEMMs C += A * B back to back on one stream)
// and liblowp_cuda_runtime.so. For every shape: A and B random in [-1, 1]
// in the 16-bit format, one GEMM from C = 0 checked on 256 random entries
// against a double-precision dot product (|error| <= 2^-16 * sum |a b|: f32
// accumulation of exact products), then the time per GEMM as
// (T(iters = n) - T(iters = 1)) / (n - 1), which removes the call's fixed
// cost (stream creation, synchronization). Prints one line per shape:
//   ours <format> <M>x<N>x<K> <TFLOP/s> TFLOP/s check PASS|FAIL <max error>
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuStreamSynchronize(void *stream);
}

namespace {
struct MemRef2D {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

using GemmFn = void (*)(MemRef2D *, MemRef2D *, MemRef2D *, int64_t);
struct Gemm {
  const char *format;
  int64_t m, n, k;
  GemmFn fn;
};
} // namespace

#define GEMM(NAME, FORMAT, M, N, K)                                             \
  extern "C" void _mlir_ciface_##NAME(MemRef2D *, MemRef2D *, MemRef2D *,      \
                                      int64_t);
#include "gemms.inc"
#undef GEMM

static const Gemm kGemms[] = {
#define GEMM(NAME, FORMAT, M, N, K) {FORMAT, M, N, K, _mlir_ciface_##NAME},
#include "gemms.inc"
#undef GEMM
};

namespace {
uint16_t toBF16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
float fromBF16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
uint16_t toF16(float x) {
  _Float16 h = static_cast<_Float16>(x);
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
float fromF16(uint16_t u) {
  _Float16 h;
  std::memcpy(&h, &u, 2);
  return static_cast<float>(h);
}

MemRef2D deviceMatrix(int64_t rows, int64_t cols, size_t elementBytes,
                      const void *host) {
  size_t bytes = rows * cols * elementBytes;
  void *ptr = mgpuMemAlloc(bytes, nullptr, false);
  mgpuMemcpy(ptr, const_cast<void *>(host), bytes, nullptr);
  mgpuStreamSynchronize(nullptr);
  return {ptr, ptr, 0, {rows, cols}, {cols, 1}};
}

double seconds(const Gemm &g, MemRef2D &a, MemRef2D &b, MemRef2D &c,
               int64_t iters) {
  auto start = std::chrono::steady_clock::now();
  g.fn(&a, &b, &c, iters);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}
} // namespace

int main() {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  bool allPass = true;
  for (const Gemm &g : kGemms) {
    bool bf16 = std::strcmp(g.format, "bf16") == 0;
    std::vector<uint16_t> a(g.m * g.k), b(g.k * g.n);
    for (auto &v : a)
      v = bf16 ? toBF16(dist(rng)) : toF16(dist(rng));
    for (auto &v : b)
      v = bf16 ? toBF16(dist(rng)) : toF16(dist(rng));
    std::vector<float> zero(g.m * g.n, 0.0f), c(g.m * g.n);
    MemRef2D da = deviceMatrix(g.m, g.k, 2, a.data());
    MemRef2D db = deviceMatrix(g.k, g.n, 2, b.data());
    MemRef2D dc = deviceMatrix(g.m, g.n, 4, zero.data());

    // Correctness: one GEMM from zero (this call also loads the module).
    g.fn(&da, &db, &dc, 1);
    mgpuMemcpy(c.data(), dc.aligned, c.size() * 4, nullptr);
    mgpuStreamSynchronize(nullptr);
    auto widen = [&](uint16_t v) { return bf16 ? fromBF16(v) : fromF16(v); };
    double worst = 0;
    bool pass = true;
    for (int s = 0; s < 256; ++s) {
      int64_t i = rng() % g.m, j = rng() % g.n;
      double exact = 0, magnitude = 0;
      for (int64_t p = 0; p < g.k; ++p) {
        double term = double(widen(a[i * g.k + p])) * widen(b[p * g.n + j]);
        exact += term;
        magnitude += std::fabs(term);
      }
      double error = std::fabs(c[i * g.n + j] - exact);
      worst = std::fmax(worst, error / std::fmax(magnitude, 1e-30));
      if (error > std::ldexp(magnitude, -16))
        pass = false;
    }
    allPass &= pass;

    // Time: n GEMMs against one, so the call's fixed cost cancels.
    double flops = 2.0 * g.m * g.n * g.k;
    int64_t n = std::max<int64_t>(10, std::min<int64_t>(200, 4e12 / flops));
    seconds(g, da, db, dc, 1);
    double one = seconds(g, da, db, dc, 1);
    double many = seconds(g, da, db, dc, n);
    double perGemm = std::max((many - one) / (n - 1), 1e-9);
    std::printf("ours %s %lldx%lldx%lld %.1f TFLOP/s check %s %.2e\n",
                g.format, static_cast<long long>(g.m),
                static_cast<long long>(g.n), static_cast<long long>(g.k),
                flops / perGemm * 1e-12, pass ? "PASS" : "FAIL", worst);
    std::fflush(stdout);
    for (MemRef2D *m : {&da, &db, &dc})
      mgpuMemFree(m->aligned, nullptr);
  }
  return allPass ? 0 : 1;
}
