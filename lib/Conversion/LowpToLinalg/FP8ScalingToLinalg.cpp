//===- FP8ScalingToLinalg.cpp - lower FP8 scaling ops ---------------------===//
//
// lowp.quantize / lowp.dequantize become elementwise linalg.generic ops
// around the saturating cast of lowp.cast; lowp.amax and the delayed-scaling
// state (lowp.compute_scale, lowp.push_amax) become reductions and tensor
// ops. Everything lands in arith/math/linalg/tensor/vector.
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

Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr((float)value));
}

/// `scale` (an f32 scalar) shaped like `like`: broadcast for vectors.
Value broadcastLike(OpBuilder &b, Location loc, Value scale, Value like) {
  if (auto vec = dyn_cast<VectorType>(like.getType()))
    return vector::BroadcastOp::create(b, loc, vec.clone(scale.getType()),
                                       scale);
  return scale;
}

/// `x` widened to f32 (exact) unless it is already f32 or wider.
Value widenToAtLeastF32(OpBuilder &b, Location loc, Value x) {
  auto element = cast<FloatType>(getElementTypeOrSelf(x.getType()));
  if (element.getWidth() >= 32)
    return x;
  return buildScalarCast(b, loc, x, b.getF32Type(), RoundingMode::NearestEven,
                         /*saturate=*/false, Value());
}

/// `scale` converted to the element type of `like` (exact widening, or the
/// identity for f32).
Value scaleInTypeOf(OpBuilder &b, Location loc, Value scale, Value like) {
  auto element = cast<FloatType>(getElementTypeOrSelf(like.getType()));
  if (element == scale.getType())
    return scale;
  return arith::ExtFOp::create(b, loc, element, scale);
}

/// lowp.quantize: saturate_cast_rne(x * scale), the product in f32 (or the
/// input's type when wider).
struct QuantizeOpLowering : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fp8Type = getFloatElementType(op.getResult().getType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), op.getResult().getType(),
        {adaptor.getInput(), adaptor.getScale()},
        [&](OpBuilder &b, Location loc, ValueRange elements, Value) {
          Value x = widenToAtLeastF32(b, loc, elements[0]);
          Value scale = broadcastLike(
              b, loc, scaleInTypeOf(b, loc, elements[1], x), x);
          Value scaled = arith::MulFOp::create(b, loc, x, scale);
          return buildScalarCast(b, loc, scaled, fp8Type,
                                 RoundingMode::NearestEven,
                                 /*saturate=*/true, Value());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// lowp.dequantize: extend(q) * (1 / scale), the reciprocal taken once.
struct DequantizeOpLowering : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultElement = getFloatElementType(op.getResult().getType());
    Value inverse = arith::DivFOp::create(
        rewriter, loc, f32Constant(rewriter, loc, 1.0), adaptor.getScale());
    Value result = buildElementwise(
        rewriter, loc, op.getResult().getType(),
        {adaptor.getInput(), inverse},
        [&](OpBuilder &b, Location nloc, ValueRange elements, Value) {
          FloatType wide = resultElement.getWidth() > 32 ? resultElement
                                                         : b.getF32Type();
          Value x = buildScalarCast(b, nloc, elements[0], wide,
                                    RoundingMode::NearestEven,
                                    /*saturate=*/false, Value());
          Value inv = broadcastLike(
              b, nloc, scaleInTypeOf(b, nloc, elements[1], x), x);
          Value product = arith::MulFOp::create(b, nloc, x, inv);
          return buildScalarCast(b, nloc, product, resultElement,
                                 RoundingMode::NearestEven,
                                 /*saturate=*/false, Value());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// max |x| over a ranked tensor as an f32 scalar: an all-reduction generic
/// into a 0-d tensor initialized to 0 (the amax of an empty tensor), with
/// NaN-propagating maximumf.
Value buildTensorReduceMax(OpBuilder &b, Location loc, Value input,
                           bool absolute) {
  // A full reduction of a 1-D view: one loop, which every vectorizer takes
  // (affine-super-vectorize emits an invalid 0-d transfer_write for a 4-D
  // one) and which runs at the register width whatever the innermost size.
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getRank() > 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.front().push_back(d);
    input = tensor::CollapseShapeOp::create(b, loc, input, all);
    type = cast<RankedTensorType>(input.getType());
  }
  int64_t rank = type.getRank();
  Type f32 = b.getF32Type();
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, f32);
  Value zero = f32Constant(b, loc, 0.0);
  Value filled = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 AffineMap::get(rank, 0, ctx)};
  auto reduce = linalg::GenericOp::create(
      b, loc, TypeRange{filled.getType()}, ValueRange{input},
      ValueRange{filled}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::reduction),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = widenToAtLeastF32(nb, nloc, args[0]);
        if (absolute)
          x = math::AbsFOp::create(nb, nloc, x);
        if (x.getType() != f32)
          x = arith::TruncFOp::create(nb, nloc, f32, x);
        Value m = arith::MaximumFOp::create(nb, nloc, args[1], x);
        linalg::YieldOp::create(nb, nloc, m);
      });
  return tensor::ExtractOp::create(b, loc, reduce.getResult(0), ValueRange{});
}

/// lowp.amax: max |x| as f32.
struct AmaxOpLowering : OpConversionPattern<AmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type f32 = rewriter.getF32Type();
    Value amax;
    if (isa<RankedTensorType>(input.getType())) {
      amax = buildTensorReduceMax(rewriter, loc, input, /*absolute=*/true);
    } else if (isa<TensorType>(input.getType())) {
      return rewriter.notifyMatchFailure(op, "unranked tensor");
    } else {
      Value x = math::AbsFOp::create(rewriter, loc,
                                     widenToAtLeastF32(rewriter, loc, input));
      if (isa<VectorType>(x.getType()))
        x = vector::ReductionOp::create(
            rewriter, loc, vector::CombiningKind::MAXIMUMF, x);
      if (x.getType() != f32)
        x = arith::TruncFOp::create(rewriter, loc, f32, x);
      amax = x;
    }
    rewriter.replaceOp(op, amax);
    return success();
  }
};

/// lowp.compute_scale: fp8_max / 2^margin / amax, 1 for a zero or non-finite
/// amax, clamped to f32's normal range.
struct ComputeScaleOpLowering : OpConversionPattern<ComputeScaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ComputeScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value amax = adaptor.getAmax();
    if (isa<RankedTensorType>(amax.getType())) {
      if (op.getAlgo() == AmaxCompute::MostRecent) {
        Value first = arith::ConstantIndexOp::create(rewriter, loc, 0);
        amax = tensor::ExtractOp::create(rewriter, loc, amax, first);
      } else {
        amax = buildTensorReduceMax(rewriter, loc, amax, /*absolute=*/false);
      }
    }
    auto format = cast<FloatType>(op.getFormat());
    double top = APFloat::getLargest(format.getFloatSemantics())
                     .convertToDouble() /
                 std::ldexp(1.0, (int)op.getMargin());
    Value scale = arith::DivFOp::create(rewriter, loc,
                                        f32Constant(rewriter, loc, top), amax);
    scale = arith::MinimumFOp::create(
        rewriter, loc, scale, f32Constant(rewriter, loc, std::ldexp(1.0, 127)));
    scale = arith::MaximumFOp::create(
        rewriter, loc, scale,
        f32Constant(rewriter, loc, std::ldexp(1.0, -126)));
    // Ordered comparisons: NaN fails both.
    Value positive = arith::CmpFOp::create(rewriter, loc,
                                           arith::CmpFPredicate::OGT, amax,
                                           f32Constant(rewriter, loc, 0.0));
    Value finite = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, amax,
        f32Constant(rewriter, loc, INFINITY));
    Value usable = arith::AndIOp::create(rewriter, loc, positive, finite);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, usable, scale, f32Constant(rewriter, loc, 1.0));
    return success();
  }
};

/// lowp.push_amax: [amax, history[0 .. N-2]].
struct PushAmaxOpLowering : OpConversionPattern<PushAmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PushAmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getHistory().getType());
    if (type.isDynamicDim(0))
      return rewriter.notifyMatchFailure(op, "dynamic history length");
    int64_t length = type.getDimSize(0);
    Value fresh = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    if (length > 1) {
      OpFoldResult one = rewriter.getIndexAttr(1);
      OpFoldResult kept = rewriter.getIndexAttr(length - 1);
      Value older = tensor::ExtractSliceOp::create(
          rewriter, loc, adaptor.getHistory(),
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{kept}, ArrayRef<OpFoldResult>{one});
      fresh = tensor::InsertSliceOp::create(
          rewriter, loc, older, fresh, ArrayRef<OpFoldResult>{one},
          ArrayRef<OpFoldResult>{kept}, ArrayRef<OpFoldResult>{one});
    }
    Value first = arith::ConstantIndexOp::create(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<tensor::InsertOp>(op, adaptor.getAmax(), fresh,
                                                  ValueRange{first});
    return success();
  }
};

} // namespace

void mlir::lowp::populateLowpFP8ScalingToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<QuantizeOpLowering, DequantizeOpLowering, AmaxOpLowering,
               ComputeScaleOpLowering, PushAmaxOpLowering>(
      patterns.getContext());
}
