//===- FP8ErrorRuleTest.cpp - `range`'s predicted-error rule vs an oracle --===//
//
// The rule (predictFP8RelativeError from a per-binade |x| histogram) against
// an exact oracle on a suite of synthetic tensors: for each tensor the oracle
// quantizes every element with each FP8 format, after Transformer Engine's
// per-tensor amax scaling, and measures the relative RMS error
// ||q(x) - x||_2 / ||x||_2. The oracle's quantizer is written here from the
// formats' bit layouts (OCP FP8 and AMD FNUZ definitions): no APFloat.
//
// Claims: the rule picks the oracle's format on >= 90% of the suite, and the
// format it picks never has more than 1.1x the error of the best one.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Selection.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::lowp;

namespace {

//===----------------------------------------------------------------------===//
// The exact oracle
//===----------------------------------------------------------------------===//

/// An 8-bit float from its definition. `ieee`: the top exponent is inf/NaN
/// (E5M2); `fn`: only S.1111.111 is NaN (E4M3FN); `fnuz`: 0x80 is the only
/// NaN, every exponent encodes numbers (the FNUZ formats).
struct Layout {
  const char *name;
  int exponentBits, mantissaBits, bias;
  enum Kind { IEEE, FN, FNUZ } kind;

  double maxFinite() const {
    int top = (1 << exponentBits) - 1;
    int maxExponent = kind == IEEE ? top - 1 : top;
    int maxMantissa = (1 << mantissaBits) - (kind == FN ? 2 : 1);
    return std::ldexp(1.0 + std::ldexp(maxMantissa, -mantissaBits),
                      maxExponent - bias);
  }

  /// Round-to-nearest-even with saturation (what lowp.quantize does) of a
  /// double; exact: the spacing is a power of two, so y / spacing is exact
  /// and rint rounds ties to even under the default rounding mode.
  double quantize(double y) const {
    double magnitude = std::fabs(y), max = maxFinite();
    if (magnitude >= max)
      return std::copysign(max, y);
    int minNormalExponent = 1 - bias;
    int exponent;
    std::frexp(magnitude, &exponent); // magnitude in [2^(e-1), 2^e)
    int binade = std::max(exponent - 1, minNormalExponent);
    double spacing = std::ldexp(1.0, binade - mantissaBits);
    double q = std::rint(magnitude / spacing) * spacing;
    return std::copysign(std::min(q, max), y);
  }
};

constexpr Layout kE4M3FN{"f8E4M3FN", 4, 3, 7, Layout::FN};
constexpr Layout kE5M2{"f8E5M2", 5, 2, 15, Layout::IEEE};
constexpr Layout kE4M3FNUZ{"f8E4M3FNUZ", 4, 3, 8, Layout::FNUZ};
constexpr Layout kE5M2FNUZ{"f8E5M2FNUZ", 5, 2, 16, Layout::FNUZ};

/// Transformer Engine's scale as the lowering applies it: an f32, clamped to
/// f32's normal range.
float oracleScale(const Layout &layout, double amax) {
  double scale = layout.maxFinite() / amax;
  return (float)std::clamp(scale, std::ldexp(1.0, -126), std::ldexp(1.0, 127));
}

/// ||q(x) - x|| / ||x|| with x * s rounded to f32 first (the lowering
/// multiplies in f32), then quantized, then divided by s.
double oracleError(const Layout &layout, const std::vector<float> &x,
                   double amax) {
  float scale = oracleScale(layout, amax);
  double error = 0, signal = 0;
  for (float v : x) {
    float scaled = v * scale;
    double back = layout.quantize(scaled) / (double)scale;
    error += (back - v) * (back - v);
    signal += (double)v * v;
  }
  return std::sqrt(error / signal);
}

//===----------------------------------------------------------------------===//
// The suite
//===----------------------------------------------------------------------===//

/// splitmix64: the same numbers on every standard library.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in (0, 1).
  double uniform() { return ((next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() {
    return std::sqrt(-2 * std::log(uniform())) *
           std::cos(2 * M_PI * uniform());
  }
  double sign() { return next() & 1 ? 1.0 : -1.0; }
};

struct Tensor {
  std::string name;
  std::vector<float> values;
};

std::vector<Tensor> makeSuite() {
  constexpr int n = 4096;
  Random rng{2026};
  std::vector<Tensor> suite;
  auto add = [&](std::string name, std::function<double()> draw) {
    Tensor t{std::move(name), {}};
    for (int i = 0; i < n; ++i)
      t.values.push_back((float)draw());
    suite.push_back(std::move(t));
  };
  auto logNormal = [&](double mu, double sigma) {
    return [&rng, mu, sigma] {
      return rng.sign() * std::exp(mu + sigma * rng.normal());
    };
  };
  add("normal", [&] { return rng.normal(); });
  add("normal_1e-3", [&] { return 1e-3 * rng.normal(); });
  add("uniform", [&] { return 2 * rng.uniform() - 1; });
  add("narrow_0.5-1", [&] { return rng.sign() * (0.5 + 0.5 * rng.uniform()); });
  add("narrow_1+-1e-3", [&] { return 1 + 1e-3 * rng.normal(); });
  add("laplace", [&] { return rng.sign() * -std::log(rng.uniform()); });
  for (double sigma : {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0})
    add("lognormal_s" + std::to_string(sigma).substr(0, 3),
        logNormal(0, sigma));
  add("sparse_50", [&] { return rng.uniform() < 0.5 ? 0.0 : rng.normal(); });
  add("sparse_95", [&] { return rng.uniform() < 0.95 ? 0.0 : rng.normal(); });
  add("relu", [&] { return std::max(0.0, rng.normal()); });
  add("relu_biased", [&] { return std::max(0.0, rng.normal() - 1.5); });
  add("gelu_like", [&] {
    double v = rng.normal();
    return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
  });
  add("outliers_0.1pct_1e3", [&] {
    return rng.normal() * (rng.uniform() < 0.001 ? 1e3 : 1.0);
  });
  add("outliers_1pct_1e4", [&] {
    return rng.normal() * (rng.uniform() < 0.01 ? 1e4 : 1.0);
  });
  add("outliers_3pct_3e4", [&] {
    return rng.normal() * (rng.uniform() < 0.03 ? 3e4 : 1.0);
  });
  add("one_outlier_1e6", [&, i = 0]() mutable {
    return ++i == 777 ? 1e6 : rng.normal();
  });
  // LLMs' massive activations: a few channels 1e4-1e5 times the rest. The
  // outliers carry the energy, and E5M2 keeps the rest in its normal range.
  add("massive_4x1e5", [&, i = 0]() mutable {
    return rng.normal() * (++i % 1024 == 0 ? 1e5 : 1.0);
  });
  add("massive_16x3e4", [&, i = 0]() mutable {
    return rng.normal() * (++i % 256 == 0 ? 3e4 : 1.0);
  });
  add("bimodal_1_1e-4", [&] {
    return rng.sign() * (rng.uniform() < 0.5 ? 1.0 : 1e-4) *
           (1 + 0.1 * rng.normal());
  });
  add("bimodal_1_1e-3_90pct_small", [&] {
    return rng.sign() * (rng.uniform() < 0.1 ? 1.0 : 1e-3) *
           (1 + 0.1 * rng.normal());
  });
  add("loguniform_10", [&] { return rng.sign() * std::exp2(-10 * rng.uniform()); });
  add("loguniform_40", [&] { return rng.sign() * std::exp2(8 - 40 * rng.uniform()); });
  add("loguniform_100", [&] { return rng.sign() * std::exp2(20 - 100 * rng.uniform()); });
  add("grad_tiny", logNormal(-16, 2.5));
  add("grad_wide", logNormal(-12, 4));
  add("grad_student_t", [&] {
    // Heavy-tailed (Student's t, 2 degrees of freedom), small scale.
    double z = rng.normal(), a = rng.normal(), b = rng.normal();
    return 1e-5 * z / std::sqrt((a * a + b * b) / 2 + 1e-12);
  });
  add("f32_subnormal", [&] { return 1e-40 * rng.normal(); });
  add("f32_subnormal_wide", [&] {
    return rng.sign() * std::exp2(-128 - 20 * rng.uniform());
  });
  add("huge", [&] { return 1e30 * rng.normal(); });
  return suite;
}

/// What calibration records (lowp-instrument-calibration): amax, and the
/// non-zero |x| counted by f32 exponent field (binade = field - 127).
TensorStatistics measure(const std::vector<float> &x) {
  TensorStatistics stats;
  std::vector<uint64_t> counts(256, 0);
  for (float v : x) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= 0x7FFFFFFFu;
    if (!bits)
      continue;
    ++counts[bits >> 23];
    stats.amax = std::max(stats.amax, (double)std::fabs(v));
  }
  int first = 0, last = 255;
  while (first < 255 && !counts[first])
    ++first;
  while (last > first && !counts[last])
    --last;
  stats.histogram.assign(counts.begin() + first, counts.begin() + last + 1);
  stats.lowestBinade = first - 127;
  return stats;
}

void checkAgainstOracle(const TargetInfo &target, const Layout &e4m3,
                        const Layout &e5m2) {
  FP8SelectionOptions options;
  options.recipe = FP8Recipe::Range;
  double bound = getDefaultFP8ErrorBound(target);
  std::vector<Tensor> suite = makeSuite();
  int agree = 0;
  std::printf("| %s | tensor | E4M3 error (predicted) | E5M2 error "
              "(predicted) | oracle | rule | rule/best |\n",
              target.name.str().c_str());
  for (const Tensor &t : suite) {
    TensorStatistics stats = measure(t.values);
    llvm::Expected<FP8Decision> decision =
        selectFP8Format(target, TensorRole::Activation, stats, options);
    ASSERT_TRUE(static_cast<bool>(decision));
    double e4 = oracleError(e4m3, t.values, stats.amax);
    double e5 = oracleError(e5m2, t.values, stats.amax);
    double best = std::min(e4, e5);
    std::string oracle = best > bound ? "bf16" : e4 <= e5 ? e4m3.name : e5m2.name;
    std::string rule = stringifyFormat(decision->format).str();
    agree += oracle == rule;
    // bf16's rounding error (2^-8 / sqrt(3) at worst) is far below any
    // FP8 format's, so a bf16 decision never loses accuracy.
    double chosen = rule == e4m3.name ? e4 : rule == e5m2.name ? e5 : 0.0;
    double ratio = best > 0 ? chosen / best : 1.0;
    std::printf("| | %s | %.4f (%.4f) | %.4f (%.4f) | %s | %s | %.2fx |\n",
                t.name.c_str(), e4, decision->errorE4M3.value_or(-1), e5,
                decision->errorE5M2.value_or(-1), oracle.c_str(), rule.c_str(),
                ratio);
    EXPECT_LE(ratio, 1.1) << t.name << " on " << target.name.str();
  }
  std::printf("agreement: %d / %zu\n", agree, suite.size());
  EXPECT_GE(agree * 10, (int)suite.size() * 9) << target.name.str();
}

TEST(FP8ErrorRule, OracleLayoutsMatchTheFormatTable) {
  // The oracle's maxima are the formats' definitions; the rule's come from
  // APFloat: the two must agree or the comparison means nothing.
  EXPECT_EQ(kE4M3FN.maxFinite(), 448.0);
  EXPECT_EQ(kE5M2.maxFinite(), 57344.0);
  EXPECT_EQ(kE4M3FNUZ.maxFinite(), 240.0);
  EXPECT_EQ(kE5M2FNUZ.maxFinite(), 57344.0);
  EXPECT_EQ(oracleScale(kE4M3FN, 448.0), 1.0f);
  EXPECT_EQ(computeFP8Scale(Format::F8E4M3FN, 3.0, 0),
            (double)(448.0 / 3.0));
  // Ties to even, subnormals, saturation.
  EXPECT_EQ(kE4M3FN.quantize(17.0), 16.0);   // spacing 2: 17 ties to 16
  EXPECT_EQ(kE4M3FN.quantize(19.0), 20.0);   // 19 ties to 20 (even mantissa)
  EXPECT_EQ(kE4M3FN.quantize(0x1p-10), 0.0); // half the smallest subnormal
  EXPECT_EQ(kE4M3FN.quantize(0x1.8p-10), 0x1p-9);
  EXPECT_EQ(kE4M3FN.quantize(1e6), 448.0);
  EXPECT_EQ(kE5M2.quantize(-1e9), -57344.0);
  EXPECT_EQ(kE4M3FNUZ.quantize(0x1p-11), 0.0);
  EXPECT_EQ(kE4M3FNUZ.quantize(0x1.8p-11), 0x1p-10);
}

TEST(FP8ErrorRule, RoundingErrorOfAFittingTensor) {
  // Many values spread over one binade well inside the range: the predicted
  // error is about the rounding error 2^-m sqrt(ln 2 / 18) (not exactly: the
  // scaled binade straddles one of the format's binade edges).
  TensorStatistics stats;
  stats.amax = 2.0;
  stats.histogram = {1000000};
  stats.lowestBinade = 0;
  double e4m3 = *predictFP8RelativeError(Format::F8E4M3FN, stats, 0);
  EXPECT_NEAR(e4m3 / getFP8RoundingError(Format::F8E4M3FN), 1.0, 0.1);
  double e5m2 = *predictFP8RelativeError(Format::F8E5M2, stats, 0);
  EXPECT_NEAR(e5m2 / getFP8RoundingError(Format::F8E5M2), 1.0, 0.1);
  EXPECT_NEAR(getFP8RoundingError(Format::F8E5M2),
              0.25 * std::sqrt(std::log(2.0) / 18), 1e-15);
  // A tensor whose only non-zero value is amax is exact in either format.
  TensorStatistics single;
  single.amax = 3.0;
  single.histogram = {1};
  single.lowestBinade = 1;
  EXPECT_EQ(*predictFP8RelativeError(Format::F8E5M2, single, 0), 0.0);
  // No histogram: no prediction, and `range` falls back to amax / min.
  TensorStatistics noHistogram;
  noHistogram.amax = 1.0;
  noHistogram.min = 1e-7;
  EXPECT_FALSE(predictFP8RelativeError(Format::F8E5M2, noHistogram, 0));
  FP8SelectionOptions options;
  options.recipe = FP8Recipe::Range;
  llvm::Expected<FP8Decision> d = selectFP8Format(
      *lookupTarget("sm_90"), TensorRole::Activation, noHistogram, options);
  ASSERT_TRUE(static_cast<bool>(d));
  EXPECT_EQ(d->format, Format::F8E5M2);
  EXPECT_FALSE(d->errorE4M3.has_value());
}

TEST(FP8ErrorRule, BoundSendsTensorsToBF16) {
  const TargetInfo &hopper = *lookupTarget("sm_90");
  // The default bound is twice E5M2's rounding error.
  EXPECT_DOUBLE_EQ(getDefaultFP8ErrorBound(hopper),
                   2 * getFP8RoundingError(Format::F8E5M2));
  EXPECT_EQ(getDefaultFP8ErrorBound(*lookupTarget("sm_80")), 0.0);
  TensorStatistics stats;
  stats.amax = 2.0;
  stats.histogram = {100, 1000, 1000};
  stats.lowestBinade = -2;
  FP8SelectionOptions options;
  options.recipe = FP8Recipe::Range;
  llvm::Expected<FP8Decision> fits =
      selectFP8Format(hopper, TensorRole::Activation, stats, options);
  ASSERT_TRUE(static_cast<bool>(fits));
  EXPECT_EQ(fits->format, Format::F8E4M3FN);
  EXPECT_LT(*fits->errorE4M3, *fits->errorE5M2);
  // A bound below E4M3's rounding error: neither format is within it.
  options.maxRelativeError = 0.01;
  llvm::Expected<FP8Decision> strict =
      selectFP8Format(hopper, TensorRole::Activation, stats, options);
  ASSERT_TRUE(static_cast<bool>(strict));
  EXPECT_EQ(strict->format, Format::BF16);
  EXPECT_FALSE(strict->scale.has_value());
  EXPECT_EQ(*strict->errorBound, 0.01);
  EXPECT_NE(strict->reason.find("> bound"), std::string::npos);
  // Energy 30 binades below amax: E4M3 flushes it, E5M2 keeps it coarsely
  // in its subnormals; with the default bound, bf16.
  TensorStatistics deep;
  deep.amax = 2.0;
  deep.histogram.assign(32, 0);
  deep.histogram.front() = 1ull << 63; // [2^-31, 2^-30)
  deep.histogram.back() = 1;           // amax
  deep.lowestBinade = -31;
  options.maxRelativeError = 0;
  llvm::Expected<FP8Decision> flushed =
      selectFP8Format(hopper, TensorRole::Activation, deep, options);
  ASSERT_TRUE(static_cast<bool>(flushed));
  EXPECT_GT(*flushed->errorE4M3, 0.5);
  EXPECT_GT(*flushed->errorE5M2, *flushed->errorBound);
  EXPECT_EQ(flushed->format, Format::BF16);
}

TEST(FP8ErrorRule, PicksTheOraclesFormatOnOCPTargets) {
  checkAgainstOracle(*lookupTarget("sm_90"), kE4M3FN, kE5M2);
}

TEST(FP8ErrorRule, PicksTheOraclesFormatOnFNUZTargets) {
  checkAgainstOracle(*lookupTarget("gfx942"), kE4M3FNUZ, kE5M2FNUZ);
}

} // namespace
