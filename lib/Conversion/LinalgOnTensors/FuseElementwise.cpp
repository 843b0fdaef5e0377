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
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// Whether `consumer` reads each element of `operand` in one iteration
/// only: every loop indexes it. A reduction that reads it again for other
/// values of some loop (a filter gradient reads the output gradient once
/// per filter tap) would recompute a fused producer as often.
bool readsOnce(linalg::GenericOp consumer, OpOperand *operand) {
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  for (unsigned loop = 0, e = consumer.getNumLoops(); loop < e; ++loop)
    if (!map.isFunctionOfDim(loop))
      return false;
  return true;
}

/// A payload that only converts its one input (extf, truncf): what a
/// kernel reads and rounds as it loads.
bool isLoneCast(Block &payload) {
  return payload.getOperations().size() == 2 &&
         isa<arith::ExtFOp, arith::TruncFOp>(payload.front());
}

/// Whether `producer` reads the result of a named reduction: the consumer
/// a kernel takes into its epilogue, writing in the kernel's order.
bool readsNamedReduction(linalg::GenericOp producer) {
  return llvm::any_of(producer.getDpsInputs(), [](Value v) {
    Operation *def = v.getDefiningOp();
    return def && isNamedReduction(def);
  });
}

/// Named all-parallel ops that may take part in a fusion: not fills (the
/// init of reductions and matmuls) and not the operands of named reductions.
bool shouldGeneralize(linalg::LinalgOp op) {
  if (isa<linalg::GenericOp, linalg::FillOp>(op) ||
      !op.hasPureTensorSemantics() || !isAllParallel(op))
    return false;
  return llvm::none_of(op->getUsers(), isNamedReduction);
}

/// Whether `op` is a matmul or convolution summing products into its init:
/// starting it from zero and adding the init afterwards gives the same sum.
/// Pooling ops (max, min, plain sums of a window) are not taken.
bool sumsProducts(linalg::LinalgOp op) {
  return (isa<linalg::ContractionOpInterface>(*op) ||
          isa<linalg::ConvolutionOpInterface>(*op)) &&
         lowp::getAccumulatedProduct(*op.getBlock());
}

/// kernel-epilogues: a matmul or convolution whose init is a broadcast of a
/// smaller tensor (torch-mlir writes a convolution's bias so: a
/// linalg.generic copying the bias to every pixel, then the convolution
/// summing into it) starts from a zero fill instead, and the broadcast
/// operand is added by an elementwise op after it. Bufferized, the
/// broadcast init is a buffer as large as the output, written whole and
/// read back by the kernel's first k block; the add fuses into the
/// contraction's consumer (the activation that follows), which the kernel
/// runs in registers as its epilogue (KernelEpilogue), with the bias read
/// per row or column. f32 and wider sums only: the sum is the same up to
/// the order of its terms, which the kernels' k blocks choose anyway; a
/// 16-bit result would be rounded before the bias is added and again after.
struct AddBroadcastInitAfterContraction
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 || isAllParallel(op) || !sumsProducts(op))
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto broadcast = init->get().getDefiningOp<linalg::GenericOp>();
    auto type = dyn_cast<RankedTensorType>(init->get().getType());
    if (!broadcast || !broadcast->hasOneUse() || !type ||
        !isa<FloatType>(type.getElementType()) ||
        type.getElementType().getIntOrFloatBitWidth() < 32 ||
        !isAllParallel(broadcast) || broadcast.getNumDpsInputs() != 1 ||
        broadcast.getNumDpsInits() != 1 || !op.getMatchingIndexingMap(init)
                                                 .isProjectedPermutation())
      return rewriter.notifyMatchFailure(op, "init is not a broadcast");
    // The broadcast's body yields its input (maybe widened and narrowed
    // back), written over a tensor.empty through the identity: each element
    // of the init is the input at the input map's indices.
    Block *body = broadcast.getBody();
    OpOperand *source = broadcast.getDpsInputOperand(0);
    AffineMap sourceMap = broadcast.getMatchingIndexingMap(source);
    if (!lowp::yieldsFirstArgument(*body) ||
        !broadcast.getMatchingIndexingMap(broadcast.getDpsInitOperand(0))
             .isIdentity() ||
        !sourceMap.isProjectedPermutation() ||
        sourceMap.getNumResults() == sourceMap.getNumDims())
      return rewriter.notifyMatchFailure(op, "init is not a broadcast");
    auto empty = broadcast.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return rewriter.notifyMatchFailure(op, "init is not a broadcast");

    // Copies of the broadcast's tensor.empty (with its dynamic sizes) are
    // the fill's and the add's.
    Location loc = op.getLoc();
    Type elem = type.getElementType();
    rewriter.setInsertionPoint(op);
    Value zero = arith::ConstantOp::create(rewriter, loc, elem,
                                           rewriter.getZeroAttr(elem));
    Operation *fillInit = rewriter.clone(*empty);
    Value fill =
        linalg::FillOp::create(rewriter, loc, zero, fillInit->getResult(0))
            .getResult(0);
    rewriter.modifyOpInPlace(op, [&] { init->set(fill); });
    rewriter.eraseOp(broadcast);
    if (empty->use_empty())
      rewriter.eraseOp(empty);

    rewriter.setInsertionPointAfter(op);
    Value sum = op->getResult(0);
    unsigned rank = type.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value out = rewriter.clone(*fillInit)->getResult(0);
    auto add = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{sum, source->get()}, out,
        ArrayRef<AffineMap>{identity, sourceMap, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value total = arith::AddFOp::create(b, nested, args[0], args[1]);
          linalg::YieldOp::create(b, nested, total);
        });
    rewriter.replaceAllUsesExcept(sum, add.getResult(0), add);
    return success();
  }
};

struct LowpFuseElementwisePass
    : lowp::impl::LowpFuseElementwiseBase<LowpFuseElementwisePass> {
  using Base::Base;

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

    // Two rounds: single-use producers first (fusing them recomputes
    // nothing), then the cheap producers with several users, each computed
    // from stored values only. A producer read by the next one's
    // recomputation would itself be recomputed in every consumer of that
    // one: a residual stream (each add read by the next add and by a layer
    // norm) would be recomputed from its start in every layer's norm.
    llvm::SmallPtrSet<Operation *, 16> recomputable;
    if (failed(fuse(recomputable)))
      return signalPassFailure();
    getOperation()->walk([&](linalg::GenericOp op) {
      auto isSharedGeneric = [](Value v) {
        auto generic = v.getDefiningOp<linalg::GenericOp>();
        return generic && !generic->hasOneUse();
      };
      if (!op->hasOneUse() && lowp::isCheapToRecompute(*op.getBody()) &&
          llvm::none_of(op.getDpsInputs(), isSharedGeneric) &&
          llvm::all_of(op->getUsers(), llvm::IsaPred<linalg::GenericOp>))
        recomputable.insert(op);
    });
    if (!recomputable.empty() && failed(fuse(recomputable)))
      return signalPassFailure();
    if (kernelEpilogues)
      arrangeForEpilogues(rewriter);
  }

  /// Fuses elementwise producers into their consumers: single-use ones,
  /// and those of `recomputable` into each of their consumers.
  LogicalResult fuse(llvm::SmallPtrSet<Operation *, 16> &recomputable) {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // A cheap producer is recomputed in each consumer, unless one of its
    // users cannot take it in (a convolution, a reshape): it is stored for
    // that one anyway, and recomputing it elsewhere would read its own
    // operands again (torch.export's batch norm, four one-op generics, read
    // by the next block's convolution and by the residual add: the
    // convolution before it would have two readers and no epilogue).
    // A reduction that reads the producer's elements several times each
    // takes in a cast only.
    linalg::ControlFusionFn control = [&](OpOperand *operand) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer)
        return false;
      auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
      if (consumer && !isAllParallel(consumer) &&
          !readsOnce(consumer, operand) && !isLoneCast(*producer.getBody()))
        return false;
      // Nor is an FP8 rounding read through a broadcast recomputed for
      // every element it is broadcast to (the new row of an FP8 KV cache,
      // selected into every slot).
      if (consumer && !readsOnce(consumer, operand) &&
          lowp::convertsNarrowFloats(*producer.getBody()))
        return false;
      // A producer that is not cheap (a batch norm's per-channel
      // 1 / sqrt(var + eps)) is computed once and stored, not recomputed
      // for every element a consumer broadcasts it to; the stored value
      // is what a kernel's epilogue reads.
      if (kernelEpilogues && consumer && !readsOnce(consumer, operand) &&
          !lowp::isCheapToRecompute(*producer.getBody()))
        return false;
      // A kernel's epilogue stays whole rather than going into a consumer
      // that reads it permuted (the transpose of an NHWC convolution's
      // result back to NCHW): the epilogue then writes in the kernel's
      // order and the transpose reads that buffer by register blocks.
      if (kernelEpilogues && consumer && readsNamedReduction(producer)) {
        AffineMap map = consumer.getMatchingIndexingMap(operand);
        if (map.isPermutation() && !map.isIdentity())
          return false;
      }
      return producer->hasOneUse() || recomputable.contains(producer);
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    if (kernelEpilogues)
      patterns.add<AddBroadcastInitAfterContraction>(context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    // A fused op may take an erased one's address: erased ops are forgotten.
    struct ForgetErased : RewriterBase::Listener {
      llvm::SmallPtrSet<Operation *, 16> &ops;
      explicit ForgetErased(llvm::SmallPtrSet<Operation *, 16> &ops)
          : ops(ops) {}
      void notifyOperationErased(Operation *op) override { ops.erase(op); }
    } forget(recomputable);
    GreedyRewriteConfig config;
    config.setListener(&forget);
    return applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }

  /// kernel-epilogues: each contraction next to its consumer, each with
  /// its own fill, and unit dimensions indexed by their loop.
  void arrangeForEpilogues(IRRewriter &rewriter) {
    // An elementwise op reading a tensor through (0, d1, d2, d3) where d0
    // runs over 1 value (torch-mlir's form for a batch of 1) reads it
    // through the identity: written so, the kernels take it as their
    // epilogue (they follow identity maps, not constant indices).
    getOperation()->walk([&](linalg::GenericOp g) {
      if (!g.hasPureTensorSemantics() || !isAllParallel(g))
        return;
      SmallVector<int64_t> ranges = g.getStaticLoopRanges();
      SmallVector<AffineMap> maps = g.getIndexingMapsArray();
      bool changed = false;
      for (AffineMap &map : maps) {
        SmallVector<AffineExpr> results(map.getResults());
        for (auto [pos, expr] : llvm::enumerate(results)) {
          auto c = dyn_cast<AffineConstantExpr>(expr);
          if (!c || c.getValue() != 0 || pos >= ranges.size() ||
              ranges[pos] != 1 || map.isFunctionOfDim(pos))
            continue;
          expr = getAffineDimExpr(pos, g.getContext());
          changed = true;
        }
        map = AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                             g.getContext());
      }
      if (changed)
        g.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });

    // A contraction or convolution read by one elementwise op moves down to
    // just before it: ops in between that do not read its result (a batch
    // norm's per-channel 1/sqrt(var + eps), which torch.export computes
    // after the convolution) would stand between the kernel and the
    // consumer it takes as its epilogue. On tensors nothing else orders
    // them.
    SmallVector<std::pair<Operation *, Operation *>> moves;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isNamedReduction(op) || !op.hasPureTensorSemantics() ||
          op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
        return;
      Operation *user = *op->getResult(0).getUsers().begin();
      auto consumer = dyn_cast<linalg::LinalgOp>(user);
      if (consumer && isAllParallel(consumer) &&
          user->getBlock() == op->getBlock() && op->isBeforeInBlock(user))
        moves.push_back({op, user});
    });
    for (auto [op, user] : moves)
      op->moveBefore(user);

    // A fill read by several ops (torch-mlir fills one zero tensor and
    // hands it to every convolution of that shape as its init) is cloned
    // for each, with its tensor.empty: bufferized, one filled buffer is
    // otherwise copied whole into each user's own (and the kernels cannot
    // take the fill as their first k block).
    SmallVector<linalg::FillOp> sharedFills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && fill->getNumResults() == 1 &&
          !fill->getResult(0).hasOneUse())
        sharedFills.push_back(fill);
    });
    for (linalg::FillOp fill : sharedFills) {
      auto empty = fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>();
      if (!empty)
        continue;
      for (OpOperand &use : llvm::make_early_inc_range(
               llvm::drop_begin(fill->getResult(0).getUses()))) {
        rewriter.setInsertionPoint(use.getOwner());
        Operation *init = rewriter.clone(*empty);
        IRMapping map;
        map.map(empty.getResult(), init->getResult(0));
        Operation *copy = rewriter.clone(*fill, map);
        use.set(copy->getResult(0));
      }
    }
  }
};
} // namespace
