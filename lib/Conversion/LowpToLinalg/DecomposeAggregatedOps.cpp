//===- DecomposeAggregatedOps.cpp - linalg.softmax to generics ------------===//
//
// linalg.softmax has no loop lowering upstream (convert-linalg-to-loops and
// convert-linalg-to-affine-loops take structured ops only), so a model that
// keeps its softmax whole - StableHLO and TOSA to linalg, IREE - would stop
// at mlir-runner. Its AggregatedOpInterface says which generics it stands
// for (max, exp(x - max), sum, divide); they replace it, in whatever element
// type the decision passes gave it.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/LowpToLinalg/LowpToLinalg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace {
struct DecomposeAggregatedOp
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    // Decomposition builds on tensors; a bufferized op is left alone.
    if (!llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>) ||
        op->getNumResults() == 0)
      return rewriter.notifyMatchFailure(op, "not on tensors");
    FailureOr<SmallVector<Value>> parts = op.decomposeOperation(rewriter);
    if (failed(parts))
      return rewriter.notifyMatchFailure(op, "no decomposition");
    rewriter.replaceOp(op, *parts);
    return success();
  }
};
} // namespace

void mlir::lowp::populateDecomposeAggregatedOpsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeAggregatedOp>(patterns.getContext());
}
