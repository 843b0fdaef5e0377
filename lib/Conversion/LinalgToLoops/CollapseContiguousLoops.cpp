//===- CollapseContiguousLoops.cpp - lowp-collapse-contiguous-loops -------===//
//
// A linalg.generic on buffers whose adjacent loops of one kind index every
// operand contiguously (an NCHW tensor's rows and columns) runs them as one
// loop: the affine vectorizer then vectorizes one long run (a 56 x 56 plane
// as 3136 elements, no masked tail per row of 56) and a reduction
// along it ends in one horizontal reduction per plane, not one per row.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPCOLLAPSECONTIGUOUSLOOPS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {

/// The longest runs of two or more adjacent loops of one iterator type
/// whose sequence every indexing map keeps contiguous and in order (or
/// leaves out).
SmallVector<ReassociationIndices>
collapsibleRuns(ArrayRef<utils::IteratorType> iterators,
                ArrayRef<AffineMap> maps) {
  SmallVector<ReassociationIndices> runs;
  int64_t loops = iterators.size();
  for (int64_t first = 0; first < loops;) {
    int64_t last = first;
    while (last + 1 < loops && iterators[last + 1] == iterators[first])
      ++last;
    // The longest preserved prefix of [first, last].
    int64_t end = first;
    for (int64_t candidate = last; candidate > first; --candidate) {
      ReassociationIndices run;
      for (int64_t loop = first; loop <= candidate; ++loop)
        run.push_back(loop);
      if (linalg::areDimSequencesPreserved(maps, {run})) {
        runs.push_back(run);
        end = candidate;
        break;
      }
    }
    first = end + 1;
  }
  return runs;
}

/// `op`'s indexing maps without their constant results, which must be 0
/// on unit dimensions of the operand's buffer (failure otherwise).
FailureOr<SmallVector<AffineMap>> mapsWithoutUnitZeros(linalg::GenericOp op) {
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = cast<MemRefType>(operand.get().getType());
    SmallVector<AffineExpr> kept;
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      auto c = dyn_cast<AffineConstantExpr>(expr);
      if (!c) {
        kept.push_back(expr);
        continue;
      }
      if (c.getValue() != 0 || type.getDimSize(dim) != 1)
        return failure();
    }
    maps.push_back(AffineMap::get(map.getNumDims(), map.getNumSymbols(), kept,
                                  op.getContext()));
  }
  return maps;
}

/// `op` with each operand's unit dimensions read at index 0 (a keep-dim
/// reduction's [1, C, 1, 1], a per-channel operand) dropped from its
/// buffer (a collapsed view) and its indexing map, so that every map is a
/// projected permutation without constants, which upstream's collapsing
/// takes; `op` itself when it has none. Its maps must satisfy
/// mapsWithoutUnitZeros.
linalg::GenericOp dropUnitDimsReadAtZero(linalg::GenericOp op,
                                         PatternRewriter &rw) {
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  bool changed = false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<ReassociationIndices> groups;
    SmallVector<AffineExpr> kept;
    ReassociationIndices pending;
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      pending.push_back(dim);
      if (isa<AffineConstantExpr>(expr))
        continue;
      groups.push_back(pending);
      pending.clear();
      kept.push_back(expr);
    }
    if (kept.size() == map.getNumResults()) {
      operands.push_back(operand.get());
      maps.push_back(map);
      continue;
    }
    // Trailing unit dimensions join the last group (none: a scalar view).
    if (!groups.empty())
      groups.back().append(pending.begin(), pending.end());
    changed = true;
    operands.push_back(memref::CollapseShapeOp::create(rw, op.getLoc(),
                                                       operand.get(), groups));
    maps.push_back(AffineMap::get(map.getNumDims(), map.getNumSymbols(), kept,
                                  op.getContext()));
  }
  if (!changed)
    return op;
  unsigned inputs = op.getNumDpsInputs();
  auto generic =
      linalg::GenericOp::create(rw, op.getLoc(), TypeRange{},
                                ArrayRef<Value>(operands).take_front(inputs),
                                ArrayRef<Value>(operands).drop_front(inputs),
                                maps, op.getIteratorTypesArray());
  rw.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                        generic.getRegion().begin());
  rw.eraseOp(op);
  return generic;
}

struct CollapseContiguousLoops : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "not on buffers");
    // Collapsed views of identity-layout buffers stay identity-layout
    // buffers, which the affine vectorizer reads.
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type || !type.getLayout().isIdentity() || !type.hasStaticShape())
        return rw.notifyMatchFailure(op, "an operand is not a static "
                                         "identity-layout buffer");
    }
    // Windows (y + i) and other non-permutation accesses are not
    // collapsed.
    if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
          return map.isProjectedPermutation(/*allowZeroInResults=*/true);
        }))
      return rw.notifyMatchFailure(op, "an access is not a permutation");
    // Decided on the maps without their unit dimensions read at 0 (the
    // same loops), before anything is rewritten.
    FailureOr<SmallVector<AffineMap>> maps = mapsWithoutUnitZeros(op);
    if (failed(maps))
      return rw.notifyMatchFailure(op, "a constant index other than 0 on a "
                                       "unit dimension");
    SmallVector<ReassociationIndices> runs =
        collapsibleRuns(op.getIteratorTypesArray(), *maps);
    if (runs.empty())
      return rw.notifyMatchFailure(op, "no adjacent loops to collapse");
    linalg::GenericOp plain = dropUnitDimsReadAtZero(op, rw);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(plain, runs, rw);
    if (failed(collapsed)) {
      // The op without its unit dimensions is still a rewrite.
      if (plain != op)
        return success();
      return rw.notifyMatchFailure(op, "upstream collapsing refused");
    }
    op = plain;
    rw.replaceOp(op, collapsed->results);
    return success();
  }
};

struct LowpCollapseContiguousLoopsPass
    : lowp::impl::LowpCollapseContiguousLoopsBase<
          LowpCollapseContiguousLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CollapseContiguousLoops>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
