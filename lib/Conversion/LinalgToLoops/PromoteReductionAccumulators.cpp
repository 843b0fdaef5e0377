//===- PromoteReductionAccumulators.cpp - accumulators to iter_args -------===//
//
// convert-linalg-to-affine-loops reduces into memory: every iteration loads
// the output element, combines and stores it back. affine-super-vectorize
// does not vectorize a loop with a store to an address invariant in it, so
// row reductions stayed scalar. With the accumulator carried by the loop
// (iter_args), its vectorize-reductions mode applies.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Analysis/AliasAnalysis/LocalAliasAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPPROMOTEREDUCTIONACCUMULATORS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct Accumulator {
  // Op handles are mutable: their accessors are not const.
  mutable affine::AffineLoadOp load;
  mutable affine::AffineStoreOp store;
};

/// f32, f64 and integers: narrower float formats round after every step,
/// and the vectorized reduction would change that order.
bool isPromotableElementType(Type type) {
  return type.isF32() || type.isF64() || type.isIntOrIndex();
}

/// The load in `body` before `store` that reads exactly what it writes.
affine::AffineLoadOp findMatchingLoad(affine::AffineStoreOp store) {
  for (Operation &op : *store->getBlock()) {
    if (&op == store.getOperation())
      return {};
    auto load = dyn_cast<affine::AffineLoadOp>(op);
    if (load && load.getMemRef() == store.getMemRef() &&
        load.getAffineMap() == store.getAffineMap() &&
        load.getMapOperands() == store.getMapOperands())
      return load;
  }
  return {};
}

/// Carries accumulators of `loop` that live in memory as iter_args.
struct PromoteAccumulators : OpRewritePattern<affine::AffineForOp> {
  PromoteAccumulators(MLIRContext *context, LocalAliasAnalysis &aliases)
      : OpRewritePattern(context), aliases(aliases) {}

  LogicalResult matchAndRewrite(affine::AffineForOp loop,
                                PatternRewriter &rewriter) const override {
    // MLIR 22's affine-super-vectorize crashes on a reduction loop whose
    // induction variable is used as a value (a causal mask's `i >= j`, a
    // position): it has no vector form for it and would not vectorize the
    // loop anyway, so its accumulator stays in memory (LLVM promotes it).
    Value iv = loop.getInductionVar();
    if (llvm::any_of(iv.getUsers(), [&](Operation *user) {
          if (auto write = dyn_cast<affine::AffineWriteOpInterface>(user))
            return write.getValueToStore() == iv;
          return !isa<affine::AffineReadOpInterface>(user);
        }))
      return rewriter.notifyMatchFailure(loop, "induction variable used as a "
                                               "value");
    SmallVector<Accumulator> accs;
    for (auto store : loop.getBody()->getOps<affine::AffineStoreOp>()) {
      if (!isPromotableElementType(store.getMemRefType().getElementType()) ||
          !llvm::all_of(store.getMapOperands(), [&](Value v) {
            return loop.isDefinedOutsideOfLoop(v);
          }))
        continue;
      if (auto load = findMatchingLoad(store))
        accs.push_back({load, store});
    }
    if (accs.empty() || !onlyAccumulatorsTouchTheirBuffers(loop, accs))
      return rewriter.notifyMatchFailure(loop, "no promotable accumulator");

    rewriter.setInsertionPoint(loop);
    SmallVector<Value> inits;
    for (Accumulator &acc : accs)
      inits.push_back(rewriter.clone(*acc.load)->getResult(0));
    auto loopLike = cast<LoopLikeOpInterface>(loop.getOperation());
    FailureOr<LoopLikeOpInterface> promoted =
        loopLike.replaceWithAdditionalYields(
            rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
            [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
              return llvm::map_to_vector(accs, [](Accumulator &acc) {
                return acc.store.getValueToStore();
              });
            });
    if (failed(promoted))
      return failure();
    auto newLoop = cast<affine::AffineForOp>(promoted->getOperation());
    unsigned first = newLoop.getNumIterOperands() - accs.size();
    rewriter.setInsertionPointAfter(newLoop);
    for (auto [i, acc] : llvm::enumerate(accs)) {
      affine::AffineStoreOp::create(
          rewriter, acc.store.getLoc(), newLoop.getResult(first + i),
          acc.store.getMemRef(), acc.store.getAffineMap(),
          acc.store.getMapOperands());
      rewriter.replaceOp(acc.load, newLoop.getRegionIterArgs()[first + i]);
      rewriter.eraseOp(acc.store);
    }
    return success();
  }

  /// The accumulator stores are the only writes in `loop`, their loads the
  /// only reads of buffers that may alias theirs.
  bool onlyAccumulatorsTouchTheirBuffers(affine::AffineForOp loop,
                                         ArrayRef<Accumulator> accs) const {
    auto isAccumulatorAccess = [&](Operation *op) {
      return llvm::any_of(accs, [&](const Accumulator &acc) {
        return op == acc.load.getOperation() || op == acc.store.getOperation();
      });
    };
    for (auto [i, a] : llvm::enumerate(accs))
      for (const Accumulator &b : accs.drop_front(i + 1))
        if (!aliases.alias(a.store.getMemRef(), b.store.getMemRef())
                 .isNo())
          return false;
    WalkResult result = loop.getBody()->walk([&](Operation *op) {
      if (isAccumulatorAccess(op) ||
          op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      auto iface = dyn_cast<MemoryEffectOpInterface>(op);
      if (!iface)
        return WalkResult::interrupt();
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (const MemoryEffects::EffectInstance &effect : effects) {
        if (!isa<MemoryEffects::Read>(effect.getEffect()))
          return WalkResult::interrupt();
        Value read = effect.getValue();
        if (!read)
          return WalkResult::interrupt();
        for (const Accumulator &acc : accs)
          if (!aliases.alias(read, acc.store.getMemRef()).isNo())
            return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !result.wasInterrupted();
  }

  LocalAliasAnalysis &aliases;
};

struct LowpPromoteReductionAccumulatorsPass
    : lowp::impl::LowpPromoteReductionAccumulatorsBase<
          LowpPromoteReductionAccumulatorsPass> {
  void runOnOperation() override {
    LocalAliasAnalysis aliases;
    RewritePatternSet patterns(&getContext());
    patterns.add<PromoteAccumulators>(&getContext(), aliases);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
