//===- LowpToLinalg.cpp - lower lowp to arith/linalg/tensor ---------------===//

#include "lowp/Conversion/LowpToLinalg/LowpToLinalg.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TrainingStep.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_CONVERTLOWPTOLINALG
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// A 32-bit mix of `seed` and `index` (the murmur3 finalizer): a cheap
/// counter-based random stream, one independent draw per element.
Value buildRandomBits(OpBuilder &b, Location loc, Value seed, Value index) {
  auto i32 = b.getI32Type();
  auto cst = [&](uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, v));
  };
  Value idx = index ? arith::IndexCastUIOp::create(b, loc, i32, index)
                    : Value(cst(0));
  Value h = arith::XOrIOp::create(
      b, loc, seed, arith::MulIOp::create(b, loc, idx, cst(0x9E3779B9u)));
  auto mix = [&](uint32_t shift, uint32_t mul) {
    h = arith::XOrIOp::create(b, loc, h,
                              arith::ShRUIOp::create(b, loc, h, cst(shift)));
    if (mul)
      h = arith::MulIOp::create(b, loc, h, cst(mul));
  };
  mix(16, 0x85EBCA6Bu);
  mix(13, 0xC2B2AE35u);
  mix(16, 0);
  return h;
}

/// lowp.cast -> arith (elementwise linalg.generic on tensors).
struct CastOpLowering : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FloatType dstType = op.getResultElementType();
    RoundingMode rounding = op.getRounding();
    bool saturate = op.getSaturate();
    if (rounding == RoundingMode::Stochastic) {
      if (!dstType.isBF16() || !op.getInputElementType().isF32())
        return rewriter.notifyMatchFailure(
            op, "stochastic rounding is lowered only from f32 to bf16");
      if (isa<VectorType>(op.getInput().getType()) &&
          !isa<VectorType>(adaptor.getSeed().getType()))
        return rewriter.notifyMatchFailure(
            op, "stochastic rounding of a vector needs one seed per lane");
    }
    SmallVector<Value> operands = {adaptor.getInput()};
    if (Value seed = adaptor.getSeed())
      operands.push_back(seed);
    bool failed = false;
    Value result = buildElementwise(
        rewriter, op.getLoc(), op.getResult().getType(), operands,
        [&](OpBuilder &b, Location loc, ValueRange elements,
            Value linearIndex) -> Value {
          Value randomBits;
          if (rounding == RoundingMode::Stochastic)
            randomBits = buildRandomBits(b, loc, elements[1], linearIndex);
          Value r = buildScalarCast(b, loc, elements[0], dstType, rounding,
                                    saturate, randomBits);
          if (!r) {
            failed = true;
            // Keep the region well formed; the rewrite is rolled back.
            return elements[0];
          }
          return r;
        });
    if (failed)
      return rewriter.notifyMatchFailure(op, "unsupported cast");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// lowp.island -> its body inlined, with casts to the island precision on
/// entry and back to the result types on exit.
struct IslandOpLowering : OpConversionPattern<IslandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IslandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Block &body = op.getBody().front();
    SmallVector<Value> entryValues;
    for (auto [operand, arg] :
         llvm::zip(adaptor.getInputs(), body.getArguments())) {
      if (operand.getType() == arg.getType())
        entryValues.push_back(operand);
      else
        entryValues.push_back(
            CastOp::create(rewriter, loc, arg.getType(), operand));
    }
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> yielded(yield.getValues());
    rewriter.inlineBlockBefore(&body, op, entryValues);
    rewriter.eraseOp(yield);
    SmallVector<Value> results;
    for (auto [value, type] : llvm::zip(yielded, op.getResultTypes())) {
      if (value.getType() == type)
        results.push_back(value);
      else
        results.push_back(CastOp::create(rewriter, loc, type, value));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ConvertLowpToLinalgPass
    : lowp::impl::ConvertLowpToLinalgBase<ConvertLowpToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<LowpDialect>();
    // Aggregates (linalg.softmax) have no upstream loop lowering: they leave
    // as the structured ops they stand for.
    target.markUnknownOpDynamicallyLegal([](Operation *op) {
      return !isa<linalg::AggregatedOpInterface>(op) ||
             op->getNumResults() == 0 ||
             !llvm::all_of(op->getResultTypes(),
                           llvm::IsaPred<RankedTensorType>);
    });
    RewritePatternSet patterns(ctx);
    populateDecomposeAggregatedOpsPatterns(patterns);
    populateLowpCastAndIslandToLinalgPatterns(patterns);
    populateLowpLossScalingToLinalgPatterns(patterns);
    populateLowpFP8ScalingToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    // A training step's update markers stay for
    // lowp-write-updates-in-place.
    stripLowpAttributes(getOperation(), [](StringRef name) {
      return name == training::kUpdatesAttr;
    });
  }
};
} // namespace

void mlir::lowp::populateLowpCastAndIslandToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<CastOpLowering, IslandOpLowering>(patterns.getContext());
}
