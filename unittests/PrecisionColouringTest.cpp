//===- PrecisionColouringTest.cpp - the colouring rules, one by one -------===//
//
// Each test colours a small module with lowp::PrecisionColouring and checks
// the colour and the reason (ColourReason) of the ops the rule is about.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/PrecisionColouring.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
class PrecisionColouringTest : public ::testing::Test {
protected:
  PrecisionColouringTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, math::MathDialect, scf::SCFDialect,
                    tensor::TensorDialect, LowpDialect>();
    registerPrecisionClassModels(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    options.low = BFloat16Type::get(&context);
  }

  /// Colours `source` with `options`.
  PrecisionColouring &colour(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    colouring.emplace(module->getOperation(), options);
    return *colouring;
  }

  /// The result for the op whose location is the name `name`
  /// (`loc("name")` in the source).
  const OpColouring &at(StringRef name) {
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (auto nameLoc = dyn_cast<NameLoc>(op->getLoc());
          nameLoc && nameLoc.getName() == name)
        found = op;
    });
    EXPECT_NE(found, nullptr) << name.str();
    const OpColouring *node = colouring->lookup(found);
    EXPECT_NE(node, nullptr) << name.str();
    static OpColouring none;
    return node ? *node : none;
  }

  MLIRContext context;
  ColouringOptions options;
  OwningOpRef<ModuleOp> module;
  std::optional<PrecisionColouring> colouring;
};

/// Two linear layers (the first weight transposed, a bias and a ReLU
/// between them), a bias after the second, and an exp beside them.
constexpr StringLiteral kLayer = R"mlir(
func.func @f(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>, %t: tensor<8x4xf32>,
             %w2: tensor<4x4xf32>, %b: tensor<4x4xf32>, %acc: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %wt = linalg.transpose ins(%w : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>)
      permutation = [1, 0] loc("transpose")
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32> loc("matmul")
  %a = arith.addf %m, %b : tensor<4x4xf32> loc("bias")
  %r = arith.maximumf %a, %a : tensor<4x4xf32> loc("relu")
  %m2 = linalg.matmul ins(%r, %w2 : tensor<4x4xf32>, tensor<4x4xf32>)
                      outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32> loc("matmul2")
  %z = arith.addf %m2, %b : tensor<4x4xf32> loc("tail")
  %e = math.exp %b : tensor<4x4xf32> loc("exp")
  %s = arith.mulf %e, %e : tensor<4x4xf32> loc("square")
  %q = arith.mulf %b, %b : tensor<4x4xf32> loc("lonely")
  return %z, %s, %q : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32> loc("return")
}
)mlir";

TEST_F(PrecisionColouringTest, SeedsAndForwardPainting) {
  colour(kLayer);
  // Rule 1: the matrix op is low, the sensitive op wide.
  EXPECT_EQ(at("matmul").colour, Colour::Low);
  EXPECT_EQ(at("matmul").reason, ColourReason::MatrixClass);
  EXPECT_EQ(at("exp").colour, Colour::Wide);
  EXPECT_EQ(at("exp").reason, ColourReason::SensitiveClass);
  // Rule 3: low follows the matrix op through follow ops.
  EXPECT_EQ(at("relu").colour, Colour::Low);
  EXPECT_EQ(at("relu").reason, ColourReason::FollowsLow);
  EXPECT_EQ(at("bias").colour, Colour::Low);
  EXPECT_EQ(at("bias").reason, ColourReason::FollowsLow);
  EXPECT_EQ(at("bias").reasonSource, at("matmul").op);
  EXPECT_EQ(colouring->describe(at("bias")),
            "follows low-precision linalg.matmul");
  // Rule 2: wide follows the sensitive op.
  EXPECT_EQ(at("square").colour, Colour::Wide);
  EXPECT_EQ(at("square").reason, ColourReason::DownstreamOfSensitive);
  // Rule 6: nothing decided it.
  EXPECT_EQ(at("lonely").colour, Colour::Wide);
  EXPECT_EQ(at("lonely").reason, ColourReason::NoLowNeighbour);
  // Boundaries keep their types.
  EXPECT_FALSE(at("return").retypeable);
  EXPECT_EQ(at("return").reason, ColourReason::Boundary);
}

TEST_F(PrecisionColouringTest, TransparentProducersOfLowUsers) {
  colour(kLayer);
  // Rule 4: the transpose only feeds the low matrix op.
  EXPECT_EQ(at("transpose").colour, Colour::Low);
  EXPECT_EQ(at("transpose").reason, ColourReason::TransparentForLowUsers);
  EXPECT_TRUE(at("transpose").demotedForUsers);
}

TEST_F(PrecisionColouringTest, NoLowUserUndoesTheDemotion) {
  colour(kLayer);
  // Rule 5: the second bias's only user is the return (f32 by signature)
  // and none of its operands arrives low (the matmul accumulates in f32):
  // keeping it low saves no cast.
  EXPECT_EQ(at("tail").colour, Colour::Wide);
  EXPECT_EQ(at("tail").reason, ColourReason::NoLowUser);
  EXPECT_EQ(at("tail").reasonSource, nullptr);
}

TEST_F(PrecisionColouringTest, WithoutPropagationOnlyMatrixInputsAreLow) {
  options.propagate = false;
  colour(kLayer);
  EXPECT_EQ(at("matmul").colour, Colour::Low);
  EXPECT_EQ(at("transpose").colour, Colour::Low);
  EXPECT_EQ(at("bias").colour, Colour::Wide);
  EXPECT_EQ(at("bias").reason, ColourReason::NoLowNeighbour);
  // The ReLU is exact (transparent) and feeds only the second matrix op.
  EXPECT_EQ(at("relu").colour, Colour::Low);
  EXPECT_EQ(at("relu").reason, ColourReason::TransparentForLowUsers);
}

TEST_F(PrecisionColouringTest, AccumulatorsStayWide) {
  PrecisionColouring &c = colour(kLayer);
  const OpColouring &matmul = at("matmul");
  auto matmulOp = cast<linalg::MatmulOp>(matmul.op);
  OpOperand &lhs = matmulOp->getOpOperand(0);
  OpOperand &init = matmulOp->getOpOperand(2);
  EXPECT_FALSE(c.keepsWideAccumulator(matmul, lhs));
  EXPECT_TRUE(c.keepsWideAccumulator(matmul, init));
  Type f32Tensor = lhs.get().getType();
  EXPECT_TRUE(getElementTypeOrSelf(c.getWantedType(matmul, lhs, f32Tensor))
                  .isBF16());
  EXPECT_EQ(c.getWantedType(matmul, init, init.get().getType()),
            init.get().getType());
}

TEST_F(PrecisionColouringTest, OverridesWin) {
  options.keepWide.insert("arith.maximumf");
  constexpr StringLiteral source = R"mlir(
func.func @f(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul {lowp.precision = f32}
      ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%y : tensor<4x4xf32>) -> tensor<4x4xf32> loc("pinned_wide")
  %n = linalg.matmul {lowp.precision = f16}
      ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%y : tensor<4x4xf32>) -> tensor<4x4xf32> loc("pinned_other")
  %e = math.exp %x {lowp.precision = bf16} : tensor<4x4xf32> loc("pinned_low")
  %r = arith.maximumf %e, %e : tensor<4x4xf32> loc("kept")
  return %r : tensor<4x4xf32>
}
)mlir";
  colour(source);
  EXPECT_EQ(at("pinned_wide").colour, Colour::Wide);
  EXPECT_EQ(at("pinned_wide").reason, ColourReason::PinnedWide);
  EXPECT_TRUE(at("pinned_wide").isKeptWide());
  EXPECT_EQ(at("pinned_other").reason, ColourReason::PinnedOther);
  EXPECT_EQ(colouring->describe(at("pinned_other")),
            "lowp.precision names f16, inference runs bf16");
  EXPECT_EQ(at("pinned_low").colour, Colour::Low);
  EXPECT_EQ(at("pinned_low").reason, ColourReason::PinnedLow);
  EXPECT_EQ(at("kept").colour, Colour::Wide);
  EXPECT_EQ(at("kept").reason, ColourReason::KeepF32Option);
  EXPECT_TRUE(at("kept").forced);
}

TEST_F(PrecisionColouringTest, WithoutDemotionEverythingStaysWide) {
  options.demote = false;
  options.forceLow.insert("math.exp");
  constexpr StringLiteral source = R"mlir(
func.func @f(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%y : tensor<4x4xf32>) -> tensor<4x4xf32> loc("matmul")
  %n = linalg.matmul {lowp.precision = bf16}
      ins(%m, %x : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%y : tensor<4x4xf32>) -> tensor<4x4xf32> loc("pinned_low")
  %e = math.exp %n : tensor<4x4xf32> loc("forced")
  return %e : tensor<4x4xf32>
}
)mlir";
  colour(source);
  // Matrix seeds, bf16 pins and force-low demote nothing.
  for (StringRef name : {"matmul", "pinned_low", "forced"}) {
    EXPECT_EQ(at(name).colour, Colour::Wide) << name.str();
    EXPECT_EQ(at(name).reason, ColourReason::NoLowFormat) << name.str();
  }
  EXPECT_EQ(colouring->describe(at("matmul")),
            "the target has no fast 16-bit matrix arithmetic: nothing is "
            "demoted");
}

TEST_F(PrecisionColouringTest, WhatCannotBeRetyped) {
  options.low = Float16Type::get(&context);
  constexpr StringLiteral source = R"mlir(
func.func private @g(tensor<4xf32>) -> tensor<4xf32>
func.func @f(%x: tensor<4xf32>, %d: tensor<4xf64>, %c: i1) -> tensor<4xf32> {
  %big = arith.constant dense<1.0e30> : tensor<4xf32> loc("big")
  %small = arith.constant dense<2.0> : tensor<4xf32> loc("small")
  %call = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("call")
  %t = arith.addf %d, %d : tensor<4xf64> loc("f64")
  %if = scf.if %c -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %big : tensor<4xf32>
  } loc("if")
  return %if : tensor<4xf32>
}
)mlir";
  colour(source);
  EXPECT_EQ(at("big").reason, ColourReason::ConstantOverflow);
  EXPECT_FALSE(at("big").retypeable);
  EXPECT_TRUE(at("small").retypeable);
  EXPECT_EQ(at("call").reason, ColourReason::Boundary);
  EXPECT_EQ(at("f64").reason, ColourReason::NonF32);
  EXPECT_EQ(at("if").reason, ColourReason::ControlFlow);
  // bf16 holds 1e30: the constant is retypeable there.
  options.low = BFloat16Type::get(&context);
  colour(source);
  EXPECT_TRUE(at("big").retypeable);
}

TEST_F(PrecisionColouringTest, EveryReasonHasText) {
  for (uint32_t i = 0; i <= getMaxEnumValForColourReason(); ++i) {
    std::optional<ColourReason> reason = symbolizeColourReason(i);
    ASSERT_TRUE(reason);
    EXPECT_FALSE(describeColourReason(*reason).empty());
    EXPECT_FALSE(stringifyColourReason(*reason).empty());
  }
}
} // namespace

namespace {
/// Rule 2a: x + (x W + b) keeps the residual add and the bias add wide.
constexpr StringLiteral kResidual = R"mlir(
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>,
             %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                     outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul")
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%acc : tensor<4x8xf32>)
      dimensions = [0] loc("broadcast")
  %y = arith.addf %m, %bb : tensor<4x8xf32> loc("bias")
  %r = arith.addf %x, %y : tensor<4x8xf32> loc("residual")
  %m2 = linalg.matmul ins(%r, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                      outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul2")
  %s = arith.addf %r, %m2 : tensor<4x8xf32> loc("residual2")
  return %s : tensor<4x8xf32>
}
)mlir";

TEST_F(PrecisionColouringTest, StreamsStayWide) {
  options.keepStreamsWide = true;
  colour(kResidual);
  EXPECT_EQ(at("residual").colour, Colour::Wide);
  EXPECT_EQ(at("residual").reason, ColourReason::StreamJoin);
  // A join's result is a stream too: the next block's join stays wide.
  EXPECT_EQ(at("residual2").reason, ColourReason::StreamJoin);
  // The bias add feeds only the join: rule 5 keeps it wide.
  EXPECT_EQ(at("bias").colour, Colour::Wide);
  EXPECT_EQ(at("bias").reason, ColourReason::NoLowUser);
  // The matrix ops still take low inputs.
  EXPECT_EQ(at("matmul2").colour, Colour::Low);
}

TEST_F(PrecisionColouringTest, StreamsFollowWhenTraded) {
  options.keepStreamsWide = false;
  colour(kResidual);
  // The residual add follows the bias add (low) and feeds a matrix op.
  EXPECT_EQ(at("residual").colour, Colour::Low);
  EXPECT_EQ(at("residual").reason, ColourReason::FollowsLow);
}
} // namespace
