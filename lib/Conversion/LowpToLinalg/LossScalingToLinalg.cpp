//===- LossScalingToLinalg.cpp - lower the loss-scaling ops ---------------===//
//
// lowp.scale / lowp.unscale become elementwise products, lowp.all_finite a
// linalg.reduce of an `|x| < inf` test, and lowp.update_scale the scalar
// arith of torch.amp.GradScaler's update rule.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/LowpToLinalg/LowpToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::lowp;
using llvm::APFloat;

namespace {

/// The narrowest float type that holds every value of both `a` and `b`.
FloatType getWiderType(FloatType a, FloatType b) {
  if (APFloat::isRepresentableBy(a.getFloatSemantics(), b.getFloatSemantics()))
    return b;
  if (APFloat::isRepresentableBy(b.getFloatSemantics(), a.getFloatSemantics()))
    return a;
  // E.g. f16 and bf16: neither holds the other, f32 holds both.
  return Float32Type::get(a.getContext());
}

/// `value` converted exactly to the wider type `type` (no-op when equal).
Value widen(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return arith::ExtFOp::create(b, loc, type, value);
}

/// `input * factor` elementwise, computed in the wider of the element type
/// and `factor`'s type and rounded back to the element type.
FailureOr<Value> buildScaledProduct(OpBuilder &b, Location loc, Value input,
                                    Value factor) {
  Type inputType = input.getType();
  if (isa<UnrankedTensorType>(inputType) ||
      (isa<VectorType>(inputType) &&
       cast<VectorType>(inputType).isScalable()))
    return failure();
  FloatType element = getFloatElementType(inputType);
  FloatType wide = getWiderType(element, cast<FloatType>(factor.getType()));
  Value wideFactor = widen(b, loc, factor, wide);
  if (auto vector = dyn_cast<VectorType>(inputType))
    wideFactor = vector::BroadcastOp::create(
        b, loc, withFloatElementType(vector, wide), wideFactor);
  return buildElementwise(
      b, loc, inputType, {input, wideFactor},
      [&](OpBuilder &nb, Location nloc, ValueRange elements, Value) -> Value {
        Value x = elements[0];
        Value product = arith::MulFOp::create(
            nb, nloc, widen(nb, nloc, x, withFloatElementType(x.getType(), wide)),
            elements[1]);
        if (product.getType() == x.getType())
          return product;
        return arith::TruncFOp::create(nb, nloc, x.getType(), product);
      });
}

/// Replaces a lowp.scale / lowp.unscale by one product per input with
/// `factor`.
LogicalResult lowerScaling(Operation *op, ValueRange inputs, Value factor,
                           ConversionPatternRewriter &rewriter) {
  SmallVector<Value> results;
  for (Value input : inputs) {
    FailureOr<Value> scaled =
        buildScaledProduct(rewriter, op->getLoc(), input, factor);
    if (failed(scaled))
      return rewriter.notifyMatchFailure(
          op, "only scalars, fixed vectors and ranked tensors are lowered");
    results.push_back(*scaled);
  }
  rewriter.replaceOp(op, results);
  return success();
}

/// lowp.scale -> x * scale.
struct ScaleOpLowering : OpConversionPattern<ScaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerScaling(op, adaptor.getInputs(), adaptor.getScale(), rewriter);
  }
};

/// lowp.unscale -> x * (1 / scale), the reciprocal computed once in the
/// scale's type: exact for power-of-two scales.
struct UnscaleOpLowering : OpConversionPattern<UnscaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnscaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value scale = adaptor.getScale();
    Value one = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(scale.getType(), 1.0));
    Value reciprocal = arith::DivFOp::create(rewriter, loc, one, scale);
    return lowerScaling(op, adaptor.getInputs(), reciprocal, rewriter);
  }
};

/// `|x| < inf` (false for inf and NaN) on a float scalar or vector.
Value buildIsFinite(OpBuilder &b, Location loc, Value x) {
  FloatType element = getFloatElementType(x.getType());
  Value inf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(element, APFloat::getInf(element.getFloatSemantics())));
  if (auto vector = dyn_cast<VectorType>(x.getType()))
    inf = vector::BroadcastOp::create(b, loc, vector, inf);
  Value magnitude = math::AbsFOp::create(b, loc, x);
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, magnitude,
                               inf);
}

/// An i1 that is true when no element of `input` is inf or NaN.
FailureOr<Value> buildAllFinite(OpBuilder &b, Location loc, Value input) {
  Type type = input.getType();
  if (isa<FloatType>(type))
    return buildIsFinite(b, loc, input);
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return failure();
    Value lanes = buildIsFinite(b, loc, input);
    if (vector.getRank() != 1)
      lanes = vector::ShapeCastOp::create(
          b, loc, VectorType::get({vector.getNumElements()}, b.getI1Type()),
          lanes);
    return vector::ReductionOp::create(b, loc, vector::CombiningKind::AND,
                                       lanes)
        .getResult();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return failure();
  if (tensor.getRank() == 0)
    return buildIsFinite(b, loc, tensor::ExtractOp::create(b, loc, input));

  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                       b.getI1Type());
  Value allTrue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  init = linalg::FillOp::create(b, loc, allTrue, init).getResult(0);
  SmallVector<int64_t> dims = llvm::to_vector(
      llvm::seq<int64_t>(0, tensor.getRank()));
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{init}, dims,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value finite = buildIsFinite(nb, nloc, args[0]);
        linalg::YieldOp::create(
            nb, nloc, arith::AndIOp::create(nb, nloc, args[1], finite).getResult());
      });
  return tensor::ExtractOp::create(b, loc, reduce.getResult(0)).getResult();
}

/// lowp.all_finite -> the conjunction of one reduction per input.
struct AllFiniteOpLowering : OpConversionPattern<AllFiniteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllFiniteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value all;
    for (Value input : adaptor.getInputs()) {
      FailureOr<Value> finite = buildAllFinite(rewriter, op.getLoc(), input);
      if (failed(finite))
        return rewriter.notifyMatchFailure(
            op, "only scalars, fixed vectors and ranked tensors are lowered");
      all = all ? arith::AndIOp::create(rewriter, op.getLoc(), all, *finite)
                      .getResult()
                : *finite;
    }
    rewriter.replaceOp(op, all);
    return success();
  }
};

/// lowp.update_scale -> GradScaler's rule on scalars:
///   not finite: scale * backoff, counter 0;
///   finite:     counter + 1; at growth_interval the counter resets and the
///               scale becomes scale * growth if that is finite;
/// then the scale is clamped to [min_scale, max_scale].
struct UpdateScaleOpLowering : OpConversionPattern<UpdateScaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UpdateScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value scale = adaptor.getScale();
    Value counter = adaptor.getGoodSteps();
    Value finite = adaptor.getFinite();
    Type scaleType = scale.getType();
    Type counterType = counter.getType();
    auto floatConst = [&](const APFloat &v) -> Value {
      bool losesInfo;
      APFloat converted = v;
      converted.convert(cast<FloatType>(scaleType).getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
      return arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(scaleType, converted));
    };
    auto intConst = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, rewriter.getIntegerAttr(counterType, v));
    };

    Value grown = arith::MulFOp::create(rewriter, loc, scale,
                                        floatConst(op.getGrowthFactor()));
    Value backedOff = arith::MulFOp::create(rewriter, loc, scale,
                                            floatConst(op.getBackoffFactor()));
    Value next = arith::AddIOp::create(rewriter, loc, counter, intConst(1));
    Value intervalReached =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, next,
                              intConst(op.getGrowthInterval()));
    Value grows = arith::AndIOp::create(rewriter, loc, intervalReached,
                                        buildIsFinite(rewriter, loc, grown));
    Value finiteScale =
        arith::SelectOp::create(rewriter, loc, grows, grown, scale);
    Value finiteCounter = arith::SelectOp::create(
        rewriter, loc, intervalReached, intConst(0), next);
    Value newScale =
        arith::SelectOp::create(rewriter, loc, finite, finiteScale, backedOff);
    Value newCounter =
        arith::SelectOp::create(rewriter, loc, finite, finiteCounter,
                                intConst(0));
    if (std::optional<APFloat> minScale = op.getMinScale())
      newScale = arith::MaximumFOp::create(rewriter, loc, newScale,
                                           floatConst(*minScale));
    if (std::optional<APFloat> maxScale = op.getMaxScale())
      newScale = arith::MinimumFOp::create(rewriter, loc, newScale,
                                           floatConst(*maxScale));
    rewriter.replaceOp(op, {newScale, newCounter});
    return success();
  }
};

} // namespace

void mlir::lowp::populateLowpLossScalingToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ScaleOpLowering, UnscaleOpLowering, AllFiniteOpLowering,
               UpdateScaleOpLowering>(patterns.getContext());
}
