//===- FP8SelectionTest.cpp - FP8 format selection edge cases -------------===//
//
// Expected values are written from the formats' definitions (OCP FP8 and
// AMD FNUZ specs), not computed with the code under test.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Selection.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::lowp;

namespace {

const TargetInfo &hopper() { return *lookupTarget("sm_90"); }
const TargetInfo &mi300() { return *lookupTarget("gfx942"); }

FP8Decision select(const TargetInfo &target, TensorStatistics stats,
                   unsigned margin = 0, TensorRole role = TensorRole::Activation) {
  FP8SelectionOptions options;
  options.recipe = FP8Recipe::Range;
  options.margin = margin;
  llvm::Expected<FP8Decision> decision =
      selectFP8Format(target, role, stats, options);
  EXPECT_TRUE(static_cast<bool>(decision));
  return *decision;
}

TEST(FP8Selection, UsableRangeFollowsTheBitLayout) {
  // E4M3FN: 448 down to 2 * 2^-9; E5M2: 57344 down to 2 * 2^-16.
  EXPECT_DOUBLE_EQ(getFP8RangeFloor(Format::F8E4M3FN), std::ldexp(1.0, -8));
  EXPECT_DOUBLE_EQ(getFP8RangeFloor(Format::F8E5M2), std::ldexp(1.0, -15));
  // FNUZ formats have one more binade at the bottom (bias + 1).
  EXPECT_DOUBLE_EQ(getFP8RangeFloor(Format::F8E4M3FNUZ), std::ldexp(1.0, -9));
  EXPECT_DOUBLE_EQ(getFP8RangeFloor(Format::F8E5M2FNUZ),
                   std::ldexp(1.0, -16));
  EXPECT_DOUBLE_EQ(getFP8UsableBinades(Format::F8E4M3FN, 0),
                   std::log2(448.0) + 8);
  EXPECT_DOUBLE_EQ(getFP8UsableBinades(Format::F8E5M2, 3),
                   std::log2(57344.0) + 15 - 3);
}

TEST(FP8Selection, AmaxExactlyAtTheFormatMaxGivesScaleOne) {
  EXPECT_EQ(computeFP8Scale(Format::F8E4M3FN, 448.0, 0), 1.0);
  EXPECT_EQ(computeFP8Scale(Format::F8E5M2, 57344.0, 0), 1.0);
  EXPECT_EQ(computeFP8Scale(Format::F8E4M3FNUZ, 240.0, 0), 1.0);
  EXPECT_EQ(computeFP8Scale(Format::F8E4M3FN, 448.0, 1), 0.5);

  // The smallest magnitude exactly at E4M3FN's floor still fits ...
  FP8Decision edge = select(hopper(), {448.0, std::ldexp(1.0, -8)});
  EXPECT_EQ(edge.format, Format::F8E4M3FN);
  EXPECT_EQ(*edge.scale, 1.0);
  // ... one step below it does not: E5M2 takes it.
  FP8Decision below =
      select(hopper(), {448.0, std::nextafter(std::ldexp(1.0, -8), 0.0)});
  EXPECT_EQ(below.format, Format::F8E5M2);
  EXPECT_EQ(*below.scale, 57344.0 / 448.0);
  // On MI300 the same tensor at E4M3FNUZ's max.
  FP8Decision fnuz = select(mi300(), {240.0, std::ldexp(1.0, -9)});
  EXPECT_EQ(fnuz.format, Format::F8E4M3FNUZ);
  EXPECT_EQ(*fnuz.scale, 1.0);
}

TEST(FP8Selection, ZeroTensors) {
  FP8Decision zero = select(hopper(), {0.0, 0.0});
  EXPECT_EQ(zero.format, Format::F8E4M3FN);
  EXPECT_EQ(*zero.scale, 1.0);
  EXPECT_EQ(zero.binadesNeeded, 0.0);
  EXPECT_EQ(computeFP8Scale(Format::F8E5M2, 0.0, 0), 1.0);
  // A non-zero amax with min = 0: no small value matters.
  FP8Decision noMin = select(hopper(), {3.0, 0.0});
  EXPECT_EQ(noMin.format, Format::F8E4M3FN);
  EXPECT_EQ(*noMin.scale, 448.0 / 3.0);
}

TEST(FP8Selection, DenormalOnlyTensors) {
  // f32 subnormals: the ideal scale 448 / 1e-39 exceeds f32, so it is clamped
  // to 2^127; the tensor then spans [0.017, 0.17] of E4M3's range: fits.
  FP8Decision narrow = select(hopper(), {1e-39, 1e-40});
  EXPECT_EQ(narrow.format, Format::F8E4M3FN);
  EXPECT_EQ(*narrow.scale, std::ldexp(1.0, 127));
  // 16.6 binades would fit E4M3 with an unbounded scale, but with the clamped
  // scale the smallest values fall below both formats' floors: bf16.
  FP8Decision wide = select(hopper(), {1e-40, 1e-45});
  EXPECT_EQ(wide.format, Format::BF16);
  EXPECT_FALSE(wide.scale.has_value());
  EXPECT_NEAR(wide.binadesNeeded, std::log2(1e5), 1e-9);
}

TEST(FP8Selection, RangeOrderAndMargin) {
  EXPECT_EQ(select(hopper(), {1.0, 1e-4}).format, Format::F8E4M3FN);
  EXPECT_EQ(select(hopper(), {1.0, 1e-7}).format, Format::F8E5M2);
  EXPECT_EQ(select(hopper(), {1.0, 1e-10}).format, Format::BF16);
  // 16 binades fit E4M3FN's 16.8, but not with two binades of margin.
  EXPECT_EQ(select(hopper(), {1.0, std::ldexp(1.0, -16)}, 0).format,
            Format::F8E4M3FN);
  FP8Decision margin2 = select(hopper(), {1.0, std::ldexp(1.0, -16)}, 2);
  EXPECT_EQ(margin2.format, Format::F8E5M2);
  EXPECT_EQ(*margin2.scale, 57344.0 / 4);
}

TEST(FP8Selection, HybridAndFixedRecipesFollowRoles) {
  FP8SelectionOptions hybrid;
  hybrid.recipe = FP8Recipe::Hybrid;
  auto pick = [&](const TargetInfo &t, TensorRole role,
                  const FP8SelectionOptions &o) {
    llvm::Expected<FP8Decision> d = selectFP8Format(t, role, std::nullopt, o);
    EXPECT_TRUE(static_cast<bool>(d));
    EXPECT_FALSE(d->scale.has_value());
    return d->format;
  };
  EXPECT_EQ(pick(hopper(), TensorRole::Gradient, hybrid), Format::F8E5M2);
  EXPECT_EQ(pick(hopper(), TensorRole::Weight, hybrid), Format::F8E4M3FN);
  EXPECT_EQ(pick(mi300(), TensorRole::Gradient, hybrid), Format::F8E5M2FNUZ);
  EXPECT_EQ(pick(mi300(), TensorRole::Activation, hybrid),
            Format::F8E4M3FNUZ);
  FP8SelectionOptions e4m3;
  e4m3.recipe = FP8Recipe::E4M3;
  EXPECT_EQ(pick(hopper(), TensorRole::Gradient, e4m3), Format::F8E4M3FN);
  // `range` without statistics decides by role.
  FP8SelectionOptions range;
  range.recipe = FP8Recipe::Range;
  EXPECT_EQ(pick(hopper(), TensorRole::Gradient, range), Format::F8E5M2);
}

TEST(FP8Selection, TargetsWithoutFP8) {
  FP8SelectionOptions options;
  llvm::Expected<FP8Decision> error = selectFP8Format(
      *lookupTarget("sm_80"), TensorRole::Activation, std::nullopt, options);
  ASSERT_FALSE(static_cast<bool>(error));
  std::string message = llvm::toString(error.takeError());
  EXPECT_NE(message.find("target 'sm_80' has no FP8 support"),
            std::string::npos);
  options.allowBF16Fallback = true;
  llvm::Expected<FP8Decision> fallback = selectFP8Format(
      *lookupTarget("tpu-v5e"), TensorRole::Activation, std::nullopt, options);
  ASSERT_TRUE(static_cast<bool>(fallback));
  EXPECT_EQ(fallback->format, Format::BF16);
  EXPECT_FALSE(fallback->isFP8());
}

} // namespace
