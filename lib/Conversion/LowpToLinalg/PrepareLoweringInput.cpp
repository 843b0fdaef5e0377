//===- PrepareLoweringInput.cpp - front-end IR before the lowerings -------===//
//
// The lowering pipelines' first step: ops nothing can lower are reported
// once, clearly, with their location; front-end ops upstream bufferization
// has no model for but an equivalent op does are rewritten to it.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPPREPARELOWERINGINPUT
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// On an immutable global (the verifier of global_load_const requires one)
/// global_load reads the same value, and it bufferizes.
struct LoadConstToLoad : OpRewritePattern<ml_program::GlobalLoadConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ml_program::GlobalLoadConstOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ml_program::GlobalLoadOp>(
        op, op.getType(), op.getGlobalAttr());
    return success();
  }
};

struct LowpPrepareLoweringInputPass
    : lowp::impl::LowpPrepareLoweringInputBase<LowpPrepareLoweringInputPass> {
  void runOnOperation() override {
    Operation *first = nullptr;
    unsigned others = 0;
    getOperation()->walk([&](Operation *op) {
      if (op->isRegistered())
        return;
      if (first)
        ++others;
      else
        first = op;
    });
    if (first) {
      InFlightDiagnostic diag =
          first->emitError()
          << "'" << first->getName()
          << "' is not a registered op: the lowering pipelines cannot "
             "compile it (lower it to linalg, tensor, arith or math first; "
             "the decision passes leave it in place)";
      if (others)
        diag.attachNote() << others << " more unregistered op"
                          << (others == 1 ? "" : "s") << " in this module";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadConstToLoad>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
