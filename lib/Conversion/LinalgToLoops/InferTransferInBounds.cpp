//===- InferTransferInBounds.cpp - lowp-infer-transfer-in-bounds ----------===//
//
// affine-super-vectorize emits 1-D transfers without `in_bounds`, so they
// lower to masked loads and stores; for 16-bit float vectors AVX2 has no
// masked move and LLVM scalarizes them (through __truncsfbf2 for bf16).
// When the innermost index is an affine.for induction variable whose last
// value still leaves room for the whole vector, the transfer is in bounds.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

struct LowpInferTransferInBoundsPass
    : lowp::impl::LowpInferTransferInBoundsBase<LowpInferTransferInBoundsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MarkInBounds<vector::TransferReadOp>,
                 MarkInBounds<vector::TransferWriteOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
