//===- ExpandShapeToReshape.cpp - avoid multi-dynamic expand groups -------===//
//
// MLIR 22's expand-strided-metadata segfaults on a memref.expand_shape whose
// reassociation group has two or more dynamic sizes (the strides it builds
// are not constants and it reads them as IntegerAttr). Such expands come from
// dynamic-shaped tensor.expand_shape ops (front ends splitting a dynamic
// dimension into heads x head_dim, say); as tensor.reshape they bufferize to
// memref.reshape, which lowers without strided metadata.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPEXPANDSHAPETORESHAPE
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// True when some reassociation group of `op` has more than one dynamic
/// output size.
static bool hasMultiDynamicGroup(tensor::ExpandShapeOp op) {
  RankedTensorType result = op.getResultType();
  for (ReassociationIndices group : op.getReassociationIndices()) {
    int64_t dynamic = llvm::count_if(
        group, [&](int64_t dim) { return result.isDynamicDim(dim); });
    if (dynamic > 1)
      return true;
  }
  return false;
}

struct ExpandShapeToReshape : OpRewritePattern<tensor::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!hasMultiDynamicGroup(op))
      return rewriter.notifyMatchFailure(op, "no group with two dynamic sizes");
    Location loc = op.getLoc();
    SmallVector<Value> sizes = getValueOrCreateConstantIndexOp(
        rewriter, loc, op.getMixedOutputShape());
    Value shape = tensor::FromElementsOp::create(rewriter, loc, sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, op.getResultType(),
                                                   op.getSrc(), shape);
    return success();
  }
};

/// MLIR 22's tensor.expand_shape verifier accepts a constant output_shape
/// entry that contradicts a static result dim; memref.expand_shape's does
/// not, so bufferizing such an op leaves invalid IR. Reports the first one.
static LogicalResult checkStaticOutputShape(tensor::ExpandShapeOp op) {
  RankedTensorType result = op.getResultType();
  for (auto [dim, size] : llvm::enumerate(op.getMixedOutputShape())) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant || result.isDynamicDim(dim) ||
        *constant == result.getDimSize(dim))
      continue;
    return op.emitOpError() << "output_shape entry " << dim << " is "
                            << *constant << " but the result type has "
                            << result.getDimSize(dim);
  }
  return success();
}

struct LowpExpandShapeToReshapePass
    : lowp::impl::LowpExpandShapeToReshapeBase<LowpExpandShapeToReshapePass> {
  void runOnOperation() override {
    if (getOperation()
            ->walk([](tensor::ExpandShapeOp op) {
              return failed(checkStaticOutputShape(op)) ? WalkResult::interrupt()
                                                         : WalkResult::advance();
            })
            .wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandShapeToReshape>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
