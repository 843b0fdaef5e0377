//===- ParallelizeLoops.cpp - lowp-parallelize-loops ----------------------===//
//
// Thread parallelism for lowp-pipeline-x86{threads=N}: loops a lowering
// marked parallel (the matmul kernels' column panels) become scf.parallel,
// and large linalg ops become their affine loop nest with the outermost
// loop, a parallel dimension, an affine.parallel; convert-scf-to-openmp maps
// both (after lower-affine) to OpenMP. Splitting along a parallel dimension
// keeps every reduction's order. (Tiling into subviews would not do: the
// affine vectorizer rejects strided layouts.)
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPPARALLELIZELOOPS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
constexpr StringLiteral kParallelAttr =
    lowp::LowpDialect::ParallelAttrHelper::getNameStr();

bool isInsideParallelLoop(Operation *op) {
  return op->getParentOfType<scf::ParallelOp>() ||
         op->getParentOfType<affine::AffineParallelOp>();
}

std::optional<int64_t> constantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : llvm::divideCeil(*ub - *lb, *step);
}

/// scf.for {lowp.parallel} -> scf.parallel with the same bounds and body.
void parallelizeMarkedLoop(RewriterBase &rewriter, scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  Block *body = parallel.getBody();
  // The new body has its scf.reduce terminator; the loop body's ops go
  // before it, the loop's scf.yield is dropped.
  rewriter.eraseOp(loop.getBody()->getTerminator());
  rewriter.inlineBlockBefore(loop.getBody(), body->getTerminator(),
                             parallel.getInductionVars());
  rewriter.eraseOp(loop);
}

/// The loop of `op` to split over threads, when `op` is worth them: buffers
/// of static sizes, at least `minIterations` points, and a parallel
/// dimension of at least `threads` iterations that indexes every output,
/// outside every loop but unit ones (front ends keep a batch of 1 as the
/// first dimension), with an inner loop left for the vectorizer.
std::optional<unsigned> splitDimension(linalg::LinalgOp op, unsigned threads,
                                       int64_t minIterations) {
  if (!op.hasPureBufferSemantics() || isa<linalg::FillOp>(op) ||
      op.getNumLoops() < 2)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = 1;
  for (int64_t r : ranges) {
    if (ShapedType::isDynamic(r))
      return std::nullopt;
    points *= r;
  }
  if (points < minIterations)
    return std::nullopt;
  unsigned dim = 0;
  while (dim + 1 < ranges.size() && ranges[dim] == 1)
    ++dim;
  if (dim + 1 >= ranges.size() ||
      op.getIteratorTypesArray()[dim] != utils::IteratorType::parallel ||
      ranges[dim] < static_cast<int64_t>(threads))
    return std::nullopt;
  // Every output is indexed by that dimension itself, so iterations write
  // disjoint elements (a dimension only labelled parallel would race).
  AffineExpr split = getAffineDimExpr(dim, op.getContext());
  if (!llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
        return llvm::is_contained(
            op.getMatchingIndexingMap(&init).getResults(), split);
      }))
    return std::nullopt;
  return dim;
}

struct LowpParallelizeLoopsPass
    : lowp::impl::LowpParallelizeLoopsBase<LowpParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < 2)
      return;
    IRRewriter rewriter(&getContext());

    // Marked loops, outermost first: a marked loop nested in another one
    // stays sequential.
    SmallVector<scf::ForOp> outermost;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      // A marked loop with fewer iterations than threads (a batch of 1)
      // leaves the threads to the marked loops inside it.
      std::optional<int64_t> trips = constantTripCount(loop);
      if (!loop->hasAttr(kParallelAttr) || !loop.getInitArgs().empty() ||
          isInsideParallelLoop(loop) || !trips ||
          *trips < static_cast<int64_t>(threads))
        return;
      bool nested = llvm::any_of(outermost, [&](scf::ForOp outer) {
        return outer->isAncestor(loop);
      });
      if (!nested)
        outermost.push_back(loop);
    });
    for (scf::ForOp loop : outermost)
      parallelizeMarkedLoop(rewriter, loop);
    // The marks have served: nested ones stay sequential loops.
    getOperation()->walk(
        [&](scf::ForOp loop) { loop->removeAttr(kParallelAttr); });

    // Large linalg ops: their affine loop nest now, with the outermost
    // (parallel) loop an affine.parallel; the inner loops are still
    // affine.for for the vectorizer.
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> large;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isInsideParallelLoop(op))
        return;
      if (std::optional<unsigned> dim =
              splitDimension(op, threads, minIterations))
        large.push_back({op, *dim});
    });
    for (auto [op, dim] : large) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          linalg::linalgOpToAffineLoops(rewriter, op);
      if (failed(loops) || loops->size() <= dim) {
        lowp::emitRemarkAt(op)
            << "lowp-parallelize-loops: no affine loop nest for this op; it "
               "runs on one thread ('"
            << op->getName() << "')";
        continue;
      }
      rewriter.eraseOp(op);
      auto outer = cast<affine::AffineForOp>((*loops)[dim]);
      if (failed(affine::affineParallelize(outer)))
        lowp::emitRemarkAt(outer)
            << "lowp-parallelize-loops: the outer loop could not become "
               "parallel; it runs on one thread";
    }
    if (large.empty())
      return;
    // The loop lowering indexes through identity affine.apply ops; folded
    // into the maps (as convert-linalg-to-affine-loops does), a reduction's
    // load and store are recognizably the same access again.
    RewritePatternSet patterns(&getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineLoadOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineStoreOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
