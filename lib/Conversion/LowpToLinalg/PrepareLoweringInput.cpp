//===- PrepareLoweringInput.cpp - front-end IR before the lowerings -------===//
//
// The lowering pipelines' first step: ops nothing can lower are reported
// once, clearly, with their location; front-end ops upstream bufferization
// has no model for but an equivalent op does are rewritten to it.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// The deallocation pipeline every lowering runs (ownership-based) rejects
/// IR that already frees buffers, and frees every memref.alloc itself at its
/// last use. A front end's own free of a buffer its function allocated is
/// therefore redundant: the pipeline frees it no later than the front end
/// did.
static bool freesOwnAllocation(memref::DeallocOp op) {
  auto alloc = op.getMemref().getDefiningOp<memref::AllocOp>();
  return alloc && alloc->getParentOfType<FunctionOpInterface>() ==
                      op->getParentOfType<FunctionOpInterface>();
}

struct EraseOwnDealloc : OpRewritePattern<memref::DeallocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::DeallocOp op,
                                PatternRewriter &rewriter) const override {
    if (!freesOwnAllocation(op))
      return rewriter.notifyMatchFailure(op, "not a local allocation");
    rewriter.eraseOp(op);
    return success();
  }
};

/// A cast whose source, through a chain of casts of the same kind, has a
/// static dimension the result contradicts (`tensor<1xf32>` -> `?` ->
/// `tensor<4xf32>`) fails on every execution. Upstream's cast folding then
/// builds the direct cast, which does not verify (`memref.cast` of
/// `memref<1xf32>` to `memref<4xf32>`, in the deallocation pipeline's
/// canonicalization): reported here, with its location, instead.
template <typename CastOp>
static LogicalResult checkCastChain(CastOp cast) {
  auto result = dyn_cast<ShapedType>(cast.getType());
  if (!result || !result.hasRank())
    return success();
  Value source = cast.getSource();
  while (true) {
    auto type = dyn_cast<ShapedType>(source.getType());
    if (type && type.hasRank() && type.getRank() == result.getRank())
      for (int64_t d = 0, e = result.getRank(); d < e; ++d)
        if (!type.isDynamicDim(d) && !result.isDynamicDim(d) &&
            type.getDimSize(d) != result.getDimSize(d)) {
          InFlightDiagnostic diag = cast.emitError()
                                    << "casts a value of type " << type
                                    << " to " << result << ": dimension " << d
                                    << " is " << type.getDimSize(d)
                                    << ", not " << result.getDimSize(d)
                                    << ", on every execution";
          if (source != cast.getSource())
            diag.attachNote(source.getLoc()) << "the value is defined here";
          return failure();
        }
    auto inner = source.getDefiningOp<CastOp>();
    if (!inner)
      return success();
    source = inner.getSource();
  }
}

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
    // Nested modules (a generator's per-module targets, a bundle of
    // exports): no lowering step looks inside them, so their functions
    // would come out as they went in, on a run that succeeds.
    WalkResult nested = getOperation()->walk([&](ModuleOp module) {
      if (module == getOperation())
        return WalkResult::advance();
      module.emitError()
          << "nested module: the lowering pipelines compile the functions "
             "of the top-level module only (these would be left as they "
             "are); lower each module on its own";
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return signalPassFailure();
    WalkResult foreignFree = getOperation()->walk([](memref::DeallocOp op) {
      if (freesOwnAllocation(op))
        return WalkResult::advance();
      op.emitError() << "frees a buffer its function did not allocate "
                        "(memref.alloc): the lowering pipelines free buffers "
                        "themselves (ownership-based deallocation) and "
                        "cannot take a free of an argument or a callee's "
                        "result";
      return WalkResult::interrupt();
    });
    if (foreignFree.wasInterrupted())
      return signalPassFailure();
    WalkResult impossibleCast = getOperation()->walk([](Operation *op) {
      LogicalResult ok = success();
      if (auto cast = dyn_cast<tensor::CastOp>(op))
        ok = checkCastChain(cast);
      else if (auto cast = dyn_cast<memref::CastOp>(op))
        ok = checkCastChain(cast);
      return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (impossibleCast.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadConstToLoad, EraseOwnDealloc>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
