//===- FloatFormatsTest.cpp - format table vs. independent values ---------===//
//
// Expected values are computed here from each format's published bit layout
// (exponent bias, mantissa width, special-value encoding), independently of
// APFloat, which the code under test uses.
//
//===----------------------------------------------------------------------===//

#include "lowp/Formats/FloatFormats.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct Layout {
  const char *name;
  unsigned bits, exponentBits, mantissaBits;
  int bias;
  /// How many of the top mantissa patterns of the top exponent are lost to
  /// inf/NaN: IEEE formats lose the whole top binade, FN formats lose only
  /// the all-ones mantissa (NaN), FNUZ and E8M0/F6/F4 lose none.
  enum { IEEE, TopMantissaNaN, NoSpecials } top;
  bool hasInf, hasNaN, hasNegZero;
};

double expectedMax(const Layout &l) {
  int maxBiasedExp = (1 << l.exponentBits) - 1;
  double maxMantissa = 1.0 + (1.0 - std::ldexp(1.0, -(int)l.mantissaBits));
  if (l.top == Layout::IEEE)
    return maxMantissa * std::ldexp(1.0, maxBiasedExp - 1 - l.bias);
  if (l.top == Layout::TopMantissaNaN)
    return (maxMantissa - std::ldexp(1.0, -(int)l.mantissaBits)) *
           std::ldexp(1.0, maxBiasedExp - l.bias);
  return maxMantissa * std::ldexp(1.0, maxBiasedExp - l.bias);
}

const Layout kLayouts[] = {
    {"f32", 32, 8, 23, 127, Layout::IEEE, true, true, true},
    {"f16", 16, 5, 10, 15, Layout::IEEE, true, true, true},
    {"bf16", 16, 8, 7, 127, Layout::IEEE, true, true, true},
    {"tf32", 19, 8, 10, 127, Layout::IEEE, true, true, true},
    {"f8E5M2", 8, 5, 2, 15, Layout::IEEE, true, true, true},
    {"f8E4M3FN", 8, 4, 3, 7, Layout::TopMantissaNaN, false, true, true},
    {"f8E4M3FNUZ", 8, 4, 3, 8, Layout::NoSpecials, false, true, false},
    {"f8E5M2FNUZ", 8, 5, 2, 16, Layout::NoSpecials, false, true, false},
    {"f6E3M2FN", 6, 3, 2, 3, Layout::NoSpecials, false, false, true},
    {"f6E2M3FN", 6, 2, 3, 1, Layout::NoSpecials, false, false, true},
    {"f4E2M1FN", 4, 2, 1, 1, Layout::NoSpecials, false, false, true},
};

FloatType lookup(MLIRContext &ctx, StringRef name) {
  for (FloatType t : getTabulatedFloatTypes(&ctx))
    if (getFloatFormatInfo(t).name == name)
      return t;
  return {};
}

TEST(FloatFormats, MatchesBitLayouts) {
  MLIRContext ctx;
  for (const Layout &l : kLayouts) {
    SCOPED_TRACE(l.name);
    FloatType type = lookup(ctx, l.name);
    ASSERT_TRUE(type);
    FloatFormatInfo info = getFloatFormatInfo(type);
    EXPECT_EQ(info.bits, l.bits);
    EXPECT_EQ(info.exponentBits, l.exponentBits);
    EXPECT_EQ(info.mantissaBits, l.mantissaBits);
    // FNUZ formats reserve the 0x80 pattern for NaN, so their smallest
    // normal exponent is 1 - bias like the others.
    EXPECT_EQ(info.minNormal, std::ldexp(1.0, 1 - l.bias));
    EXPECT_EQ(info.minSubnormal,
              std::ldexp(1.0, 1 - l.bias - (int)l.mantissaBits));
    EXPECT_EQ(info.epsilon, std::ldexp(1.0, -(int)l.mantissaBits));
    EXPECT_EQ(info.maxFinite, expectedMax(l));
    EXPECT_EQ(info.hasInf, l.hasInf);
    EXPECT_EQ(info.hasNaN, l.hasNaN);
    EXPECT_EQ(info.hasNegativeZero, l.hasNegZero);
  }
}

TEST(FloatFormats, WellKnownMaxima) {
  MLIRContext ctx;
  // Values quoted by vendor documentation.
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f16")).maxFinite, 65504.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E4M3FN")).maxFinite, 448.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E5M2")).maxFinite, 57344.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E4M3FNUZ")).maxFinite, 240.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E5M2FNUZ")).maxFinite, 57344.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f4E2M1FN")).maxFinite, 6.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f6E2M3FN")).maxFinite, 7.5);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f6E3M2FN")).maxFinite, 28.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E4M3")).maxFinite, 240.0);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E3M4")).maxFinite, 15.5);
  EXPECT_EQ(getFloatFormatInfo(lookup(ctx, "f8E4M3B11FNUZ")).maxFinite, 30.0);
}

TEST(FloatFormats, E8M0IsScaleOnly) {
  MLIRContext ctx;
  FloatFormatInfo info = getFloatFormatInfo(lookup(ctx, "f8E8M0FNU"));
  EXPECT_FALSE(info.hasSign);
  EXPECT_EQ(info.exponentBits, 8u);
  EXPECT_EQ(info.mantissaBits, 0u);
  EXPECT_EQ(info.minSubnormal, std::ldexp(1.0, -127));
  EXPECT_EQ(info.maxFinite, std::ldexp(1.0, 127));
  EXPECT_TRUE(info.hasNaN);
  EXPECT_FALSE(info.hasInf);
}

TEST(FloatFormats, Binades) {
  MLIRContext ctx;
  // f16: 2^-24 .. 65504 = (2 - 2^-10) * 2^15.
  FloatFormatInfo f16 = getFloatFormatInfo(lookup(ctx, "f16"));
  EXPECT_NEAR(f16.binades, 15 + std::log2(2 - std::ldexp(1.0, -10)) + 24,
              1e-9);
  FloatFormatInfo f64 = getFloatFormatInfo(lookup(ctx, "f64"));
  EXPECT_TRUE(std::isfinite(f64.binades));
  EXPECT_NEAR(f64.binades, 1024 + 1074, 1e-6);
}

TEST(FloatFormats, Representability) {
  MLIRContext ctx;
  EXPECT_TRUE(isExactlyRepresentableIn(lookup(ctx, "bf16"), lookup(ctx, "f32")));
  EXPECT_TRUE(isExactlyRepresentableIn(lookup(ctx, "f8E4M3FN"),
                                       lookup(ctx, "f16")));
  EXPECT_FALSE(isExactlyRepresentableIn(lookup(ctx, "bf16"), lookup(ctx, "f16")));
  EXPECT_FALSE(isExactlyRepresentableIn(lookup(ctx, "f16"), lookup(ctx, "bf16")));
}
} // namespace
