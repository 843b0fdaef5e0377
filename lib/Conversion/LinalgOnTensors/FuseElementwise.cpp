//===- FuseElementwise.cpp - lowp-fuse-elementwise ------------------------===//
//
// Every elementwise op of a front end's graph becomes its own loop nest and
// buffer when lowered alone. Fusing producer/consumer chains on tensors
// (upstream's elementwise fusion) keeps the intermediate values in
// registers. Named contractions and convolutions, and what feeds them, stay
// as they are: they are lowp-x86-lower-contractions' business.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/StructuredOps.h"
#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPFUSEELEMENTWISE
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
bool isAllParallel(linalg::LinalgOp op) {
  return op.getNumParallelLoops() == op.getNumLoops();
}

/// A named op with reduction loops: a contraction, convolution or pooling
/// that a kernel pass matches by name.
bool isNamedReduction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && !isa<linalg::GenericOp>(op) && !isAllParallel(linalgOp);
}

/// Named all-parallel ops that may take part in a fusion: not fills (the
/// init of reductions and matmuls) and not the operands of named reductions.
bool shouldGeneralize(linalg::LinalgOp op) {
  if (isa<linalg::GenericOp, linalg::FillOp>(op) ||
      !op.hasPureTensorSemantics() || !isAllParallel(op))
    return false;
  return llvm::none_of(op->getUsers(), isNamedReduction);
}

struct LowpFuseElementwisePass
    : lowp::impl::LowpFuseElementwiseBase<LowpFuseElementwisePass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (shouldGeneralize(op))
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      // An op without a generic form (none is known) is left alone.
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn control = [](OpOperand *operand) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      return producer &&
             (producer->hasOneUse() ||
              lowp::isCheapToRecompute(*producer.getBody()));
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
