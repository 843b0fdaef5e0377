//===- gemm_bench.cpp - time fp-opt's tensor-core GEMMs on the GPU --------===//
//
// Linked by bench/gpu/build-device-check.sh with the GEMM functions that
// lowp-pipeline-nvvm compiled (calling-convention=device: they take device
// buffers; each runs `iters` GEMMs C += A * B back to back on one stream)
// and liblowp_cuda_runtime.so. For every shape: A and B random in [-1, 1]
// in the GEMM's format (bf16, f16, or FP8 E4M3 with B stored [n][k], as
// cuBLAS's FP8 GEMM takes it), one GEMM from C = 0 checked on 256 random
// entries against a double-precision dot product (|error| <= 2^-16 *
// sum |a b|: f32 accumulation of products exact in f32), then the time per
// GEMM as
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
  bool bTransposed; ///< B stored [n][k]
  GemmFn fn;
};
} // namespace

#define GEMM(NAME, FORMAT, M, N, K, BT)                                         \
  extern "C" void _mlir_ciface_##NAME(MemRef2D *, MemRef2D *, MemRef2D *,      \
                                      int64_t);
#include "gemms.inc"
#undef GEMM

static const Gemm kGemms[] = {
#define GEMM(NAME, FORMAT, M, N, K, BT)                                         \
  {FORMAT, M, N, K, BT, _mlir_ciface_##NAME},
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

/// OCP E4M3 (f8E4M3FN: bias 7, no infinities, 448 the largest finite),
/// rounded to nearest even; inputs here are in [-1, 1].
uint16_t toE4M3(float x) {
  uint16_t sign = std::signbit(x) ? 0x80 : 0;
  float a = std::fabs(x);
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  int exponent = std::max(e - 1, -6); // subnormals below 2^-6
  float step = std::ldexp(1.0f, exponent - 3);
  float q = std::nearbyint(a / step) * step; // ties to even (default mode)
  int qe;
  std::frexp(q, &qe);
  int biased = std::max(qe - 1, -6) + 7;
  uint16_t mant = static_cast<uint16_t>(
      std::lround(q / std::ldexp(1.0f, std::max(qe - 1, -6) - 3)) & 7);
  if (q < std::ldexp(1.0f, -6))
    return sign | static_cast<uint16_t>(std::lround(q / std::ldexp(1.0f, -9)));
  return sign | static_cast<uint16_t>(biased << 3) | mant;
}
float fromE4M3(uint16_t v) {
  int exponent = (v >> 3) & 15, mant = v & 7;
  float a = exponent ? std::ldexp(1.0f + mant / 8.0f, exponent - 7)
                     : std::ldexp(mant / 8.0f, -6);
  return (v & 0x80) ? -a : a;
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
    bool fp8 = std::strcmp(g.format, "f8E4M3FN") == 0;
    auto narrow = [&](float x) -> uint16_t {
      return fp8 ? toE4M3(x) : bf16 ? toBF16(x) : toF16(x);
    };
    auto widen = [&](uint16_t v) {
      return fp8 ? fromE4M3(v) : bf16 ? fromBF16(v) : fromF16(v);
    };
    size_t elementBytes = fp8 ? 1 : 2;
    // Host copies of the values (16-bit codes, or FP8 codes), and the
    // device layout's bytes.
    std::vector<uint16_t> a(g.m * g.k), b(g.k * g.n);
    for (auto &v : a)
      v = narrow(dist(rng));
    for (auto &v : b)
      v = narrow(dist(rng));
    auto bytes = [&](const std::vector<uint16_t> &v) {
      std::vector<uint8_t> out(v.size() * elementBytes);
      for (size_t i = 0; i < v.size(); ++i)
        std::memcpy(&out[i * elementBytes], &v[i], elementBytes);
      return out;
    };
    std::vector<float> zero(g.m * g.n, 0.0f), c(g.m * g.n);
    MemRef2D da = deviceMatrix(g.m, g.k, elementBytes, bytes(a).data());
    // b holds B[p][j] at b[p * n + j], or with B stored [n][k] at
    // b[j * k + p].
    MemRef2D db = g.bTransposed
                      ? deviceMatrix(g.n, g.k, elementBytes, bytes(b).data())
                      : deviceMatrix(g.k, g.n, elementBytes, bytes(b).data());
    MemRef2D dc = deviceMatrix(g.m, g.n, 4, zero.data());

    // Correctness: one GEMM from zero (this call also loads the module).
    g.fn(&da, &db, &dc, 1);
    mgpuMemcpy(c.data(), dc.aligned, c.size() * 4, nullptr);
    mgpuStreamSynchronize(nullptr);
    double worst = 0;
    bool pass = true;
    for (int s = 0; s < 256; ++s) {
      int64_t i = rng() % g.m, j = rng() % g.n;
      double exact = 0, magnitude = 0;
      for (int64_t p = 0; p < g.k; ++p) {
        uint16_t bv = g.bTransposed ? b[j * g.k + p] : b[p * g.n + j];
        double term = double(widen(a[i * g.k + p])) * widen(bv);
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
