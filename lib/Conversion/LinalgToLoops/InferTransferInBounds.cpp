//===- InferTransferInBounds.cpp - lowp-infer-transfer-in-bounds ----------===//
//
// affine-super-vectorize emits 1-D transfers without `in_bounds`, so they
// lower to masked loads and stores; for 16-bit float vectors AVX2 has no
// masked move and LLVM scalarizes them (through __truncsfbf2 for bf16).
// When the innermost index is an affine.for induction variable whose last
// value still leaves room for the whole vector, the transfer is in bounds.
//
// It also vectorizes along a dimension followed only by unit dimensions (a
// keep-dim reduction result, `memref<1x128x1xbf16>` read along the 128):
// contiguous in memory, but the permutation map is not a minor identity, so
// the transfer would be unrolled lane by lane - and a bf16 vector assembled
// lane by lane on AVX2 goes through LLVM's f32 promotion, one __truncsfbf2
// call per lane. Such transfers read a collapsed view instead.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINFERTRANSFERINBOUNDS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// True when every value `iv` takes leaves `width` elements inside `size`.
bool fitsInside(Value index, int64_t width, int64_t size) {
  auto forOp = affine::getForInductionVarOwner(index);
  if (!forOp || !forOp.hasConstantBounds())
    return false;
  int64_t lb = forOp.getConstantLowerBound();
  int64_t ub = forOp.getConstantUpperBound();
  int64_t step = forOp.getStepAsInt();
  if (ub <= lb)
    return true;
  int64_t last = lb + (ub - 1 - lb) / step * step;
  return lb >= 0 && last + width <= size;
}

template <typename TransferOp>
struct MarkInBounds : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(op.getShapedType());
    VectorType vec = op.getVectorType();
    if (!memref || !memref.hasStaticShape() || vec.getRank() != 1 ||
        !op.getPermutationMap().isMinorIdentity() || op.getMask() ||
        op.isDimInBounds(0))
      return failure();
    if (!fitsInside(op.getIndices().back(), vec.getDimSize(0),
                    memref.getShape().back()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.setInBoundsAttr(rewriter.getBoolArrayAttr({true})); });
    return success();
  }
};

/// A 1-D transfer along dimension j of a static identity-layout memref whose
/// dimensions after j all have size 1 (and are indexed by constant 0) ->
/// the same transfer, minor identity, on the memref with dimensions j..
/// collapsed into one: the elements are contiguous either way.
template <typename TransferOp>
struct CollapseTrailingUnitDims : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(op.getShapedType());
    AffineMap map = op.getPermutationMap();
    if (!memref || !memref.hasStaticShape() ||
        !memref.getLayout().isIdentity() || op.getVectorType().getRank() != 1 ||
        map.getNumResults() != 1 || map.isMinorIdentity())
      return failure();
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
    if (!dim)
      return failure();
    int64_t j = dim.getPosition(), rank = memref.getRank();
    for (int64_t d = j + 1; d < rank; ++d)
      if (memref.getDimSize(d) != 1 ||
          !matchPattern(op.getIndices()[d], m_Zero()))
        return failure();
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < j; ++d)
      groups.push_back({d});
    ReassociationIndices tail;
    for (int64_t d = j; d < rank; ++d)
      tail.push_back(d);
    groups.push_back(tail);
    Location loc = op.getLoc();
    Value view = memref::CollapseShapeOp::create(rewriter, loc, op.getBase(),
                                                 groups);
    SmallVector<Value> indices(op.getIndices().begin(),
                               op.getIndices().begin() + j + 1);
    AffineMap minor = AffineMap::getMinorIdentityMap(j + 1, 1,
                                                     rewriter.getContext());
    if constexpr (std::is_same_v<TransferOp, vector::TransferReadOp>) {
      rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
          op, op.getVectorType(), view, indices, AffineMapAttr::get(minor),
          op.getPadding(), op.getMask(), op.getInBoundsAttr());
    } else {
      rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
          op, op.getVector(), view, indices, AffineMapAttr::get(minor),
          op.getMask(), op.getInBoundsAttr());
    }
    return success();
  }
};

struct LowpInferTransferInBoundsPass
    : lowp::impl::LowpInferTransferInBoundsBase<LowpInferTransferInBoundsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MarkInBounds<vector::TransferReadOp>,
                 MarkInBounds<vector::TransferWriteOp>,
                 CollapseTrailingUnitDims<vector::TransferReadOp>,
                 CollapseTrailingUnitDims<vector::TransferWriteOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
