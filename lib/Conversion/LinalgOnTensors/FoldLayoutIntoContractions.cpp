//===- FoldLayoutIntoContractions.cpp - lowp-fold-layout-into-contractions ===//
//
// Front ends transpose weights before a matmul (torch-mlir: `aten.t` of
// every nn.Linear weight, as a `linalg.transpose` or as a copy-only
// `linalg.generic` with a permuted output map) and broadcast them over the
// batch before a batch_matmul. Bufferized, each is a full strided copy per
// call. On tensors, a copy that only permutes or broadcasts dimensions is an
// indexing map: it folds into the contraction's operand map, and the x86
// kernels then read the operand through it while packing, which they do
// anyway. An elementwise op (the narrowing cast the precision decisions
// insert) between the copy and the contraction is moved before the copy so
// that it runs on the contiguous source. A contraction still reading such a
// copy afterwards gets a remark saying why it stayed.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/StructuredOps.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

#include <numeric>

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPFOLDLAYOUTINTOCONTRACTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// A linalg op on tensors that copies its one input to its one output:
/// every loop parallel, a body that yields the input element. What it
/// moves where is in its maps.
static bool isCopyOp(linalg::LinalgOp op) {
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  return body->getOperations().size() == 1 && yield &&
         yield.getNumOperands() == 1 &&
         yield.getOperand(0) == body->getArgument(0);
}

/// A linalg op on tensors that only moves elements: one input read through a
/// projected permutation (a transpose, a broadcast, or both), an identity
/// output, and a body that yields the input element. linalg.transpose,
/// linalg.broadcast and the equivalent generics all qualify.
static bool isLayoutCopy(linalg::LinalgOp op) {
  if (!isCopyOp(op))
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return maps[0].isProjectedPermutation() && maps[1].isIdentity();
}

/// An elementwise op on tensors of one input with identity maps whose body
/// is pure and does not read the output element (a cast, a scale).
static bool isUnaryElementwise(linalg::LinalgOp op) {
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      op->getNumResults() != 1)
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = op.getBlock();
  if (!body->getArgument(1).use_empty())
    return false;
  return llvm::all_of(body->without_terminator(), [](Operation &inner) {
    return isPure(&inner) && inner.getNumRegions() == 0 &&
           !isa<linalg::IndexOp>(inner);
  });
}

/// The permutation of the linalg.transpose that a copy-only linalg.generic
/// on tensors performs: one input and one output, each read through a permutation of
/// all loops (not both the identity), every loop parallel, and a body that
/// yields the input element. torch-mlir's TorchToLinalg writes `aten.t` /
/// `aten.transpose` this way with an identity input map and a permuted
/// output map; older front ends and generalized IR permute the input map.
/// out[o] = in[i] with i[perm[d]] = o[d], as linalg.transpose defines it.
static std::optional<SmallVector<int64_t>>
getCopyPermutation(linalg::GenericOp op) {
  if (!isCopyOp(op))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isPermutation() || !maps[1].isPermutation() ||
      (maps[0].isIdentity() && maps[1].isIdentity()))
    return std::nullopt;
  // The input index as a function of the output index is
  // source = in o out^-1; linalg.transpose reads its input through
  // perm^-1, so perm = source^-1. (Identity input map: perm = the output
  // map's dimensions; identity output map: perm = the input map inverted.)
  AffineMap source = maps[0].compose(inversePermutation(maps[1]));
  AffineMap inverse = inversePermutation(source);
  SmallVector<int64_t> perm;
  for (unsigned d = 0, e = inverse.getNumResults(); d < e; ++d)
    perm.push_back(inverse.getDimPosition(d));
  return perm;
}

/// Whether the tensor `v` reaches a matmul / batch_matmul operand, maybe
/// through layout copies and unary elementwise ops (a broadcast over the
/// batch, the narrowing cast of the precision decisions).
static bool feedsContraction(Value v, unsigned depth = 4) {
  return llvm::any_of(v.getUses(), [&](OpOperand &use) {
    // Through the reshapes front ends put between a copy and a batch
    // contraction (a collapsed batch).
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(use.getOwner()))
      return depth > 0 &&
             feedsContraction(use.getOwner()->getResult(0), depth - 1);
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!user || !user.isDpsInput(&use))
      return false;
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(user))
      return true;
    if (depth == 0 || user->getNumResults() != 1 ||
        !(isLayoutCopy(user) || isUnaryElementwise(user) ||
          (isa<linalg::GenericOp>(user) &&
           getCopyPermutation(cast<linalg::GenericOp>(user)))))
      return false;
    return feedsContraction(user->getResult(0), depth - 1);
  });
}

/// A copy-only linalg.generic with permuted maps on the way to a
/// contraction operand -> the linalg.transpose it is: the folds below take
/// it as one, and one they cannot fold stays a named transpose (the x86
/// register-blocked one). Others are left as they are: a consumer that
/// writes a contraction's result transposed (a head merge) is the kernel's
/// epilogue as a generic with an identity input map.
struct TransposeFromGenericCopy : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    std::optional<SmallVector<int64_t>> perm = getCopyPermutation(op);
    if (!perm)
      return rw.notifyMatchFailure(op, "not a copy through permuted maps");
    if (!feedsContraction(op->getResult(0)))
      return rw.notifyMatchFailure(op, "feeds no contraction operand");
    auto transpose = linalg::TransposeOp::create(
        rw, op.getLoc(), op.getDpsInputs()[0], op.getDpsInits()[0], *perm);
    rw.replaceOp(op, transpose->getResults());
    return success();
  }
};

/// A transpose on the way to a contraction that keeps the order of the
/// dimensions larger than 1 moves no element: it is a reshape (through one
/// dimension), which the contraction's own reshapes then absorb.
/// ConvNeXt's classifier permutes a 1x768x1x1 tensor to 1x1x1x768 before its
/// LayerNorm and flattens it for the Linear.
struct TransposeOfUnitDimsToReshape : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rw) const override {
    if (op->getNumResults() != 1)
      return rw.notifyMatchFailure(op, "on buffers");
    auto source = cast<RankedTensorType>(op.getInput().getType());
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    if (!source.hasStaticShape() ||
        !feedsContraction(op->getResult(0)))
      return rw.notifyMatchFailure(op, "not a static transpose on the way "
                                       "to a contraction");
    SmallVector<int64_t> moved;
    for (int64_t d : op.getPermutation())
      if (source.getDimSize(d) != 1)
        moved.push_back(d);
    if (!llvm::is_sorted(moved))
      return rw.notifyMatchFailure(op, "moves elements");
    Location loc = op.getLoc();
    auto flat = RankedTensorType::get({source.getNumElements()},
                                      source.getElementType());
    ReassociationIndices all(source.getRank()), allOut(result.getRank());
    std::iota(all.begin(), all.end(), 0);
    std::iota(allOut.begin(), allOut.end(), 0);
    Value line = tensor::CollapseShapeOp::create(
        rw, loc, flat, op.getInput(), SmallVector<ReassociationIndices>{all});
    rw.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, result, line, SmallVector<ReassociationIndices>{allOut});
    return success();
  }
};

/// The operand maps the x86 kernels read (and linalg's verifiers accept):
/// a matrix, maybe transposed, indexed by the batch dimension or broadcast
/// over it. `rowDim`/`colDim` are the loop dimensions of the operand's rows
/// and columns in the default map.
static bool isKernelOperandMap(AffineMap map, unsigned rowDim, unsigned colDim,
                               std::optional<unsigned> batchDim) {
  if (!map.isProjectedPermutation() || map.getNumResults() < 2)
    return false;
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults())
    dims.push_back(cast<AffineDimExpr>(e).getPosition());
  if (dims.size() == 3) {
    if (!batchDim || dims[0] != *batchDim)
      return false;
    dims.erase(dims.begin());
  }
  return dims.size() == 2 &&
         ((dims[0] == rowDim && dims[1] == colDim) ||
          (dims[0] == colDim && dims[1] == rowDim));
}

/// collapse_shape(layout copy) -> the copy at the collapsed shape, when
/// every group of several dimensions is made of dimensions the copy
/// broadcasts (its source does not index them). torch-mlir's matmul of a
/// 4-D activation [b0][b1][m][k] by a 2-D weight broadcasts the weight to
/// [b0][b1][k][n] and collapses the batch for batch_matmul: afterwards the
/// contraction reads the broadcast itself, which folds into its map.
struct CollapseBroadcastCopy : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rw) const override {
    auto copy = op.getSrc().getDefiningOp<linalg::LinalgOp>();
    auto resultType = cast<RankedTensorType>(op.getResultType());
    if (!isLayoutCopy(copy) || !resultType.hasStaticShape() ||
        !feedsContraction(op.getResult()))
      return rw.notifyMatchFailure(op, "not a static broadcast copy on the "
                                       "way to a contraction");
    AffineMap in = copy.getIndexingMapsArray()[0];
    llvm::SmallBitVector read(in.getNumDims());
    for (AffineExpr e : in.getResults())
      read.set(cast<AffineDimExpr>(e).getPosition());
    SmallVector<int64_t> newDim(in.getNumDims());
    for (auto [g, group] : llvm::enumerate(op.getReassociationIndices())) {
      if (group.size() > 1 &&
          llvm::any_of(group, [&](int64_t d) { return read.test(d); }))
        return rw.notifyMatchFailure(op, "collapses a dimension the source "
                                         "indexes");
      for (int64_t d : group)
        newDim[d] = g;
    }
    MLIRContext *ctx = rw.getContext();
    unsigned rank = resultType.getRank();
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : in.getResults())
      exprs.push_back(
          getAffineDimExpr(newDim[cast<AffineDimExpr>(e).getPosition()], ctx));
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rw, loc, resultType.getShape(),
                                         resultType.getElementType());
    auto broadcast = linalg::GenericOp::create(
        rw, loc, TypeRange{resultType}, copy.getDpsInputs(), ValueRange{init},
        ArrayRef<AffineMap>{AffineMap::get(rank, 0, exprs, ctx),
                            AffineMap::getMultiDimIdentityMap(rank, ctx)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    rw.replaceOp(op, broadcast.getResults());
    return success();
  }
};

/// collapse_shape(transpose(x)) -> transpose(collapse_shape(x)) on the way
/// to a contraction, when the transpose keeps every group of the collapse
/// together and in order. Attention's `k.transpose(2, 3)` of [b][h][t][d]
/// collapsed to [b*h][d][t] for batch_matmul: afterwards the transpose is
/// of the collapsed tensor and folds into B's map, and the collapse meets
/// the one under it.
struct CollapseThroughTranspose : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rw) const override {
    auto transpose = op.getSrc().getDefiningOp<linalg::TransposeOp>();
    if (!transpose || transpose->getNumResults() != 1 ||
        !feedsContraction(op.getResult()))
      return rw.notifyMatchFailure(op, "not a transpose on the way to a "
                                       "contraction");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    // Each group reads a run of consecutive source dimensions.
    for (const ReassociationIndices &group : groups)
      for (unsigned i = 1; i < group.size(); ++i)
        if (perm[group[i]] != perm[group[i - 1]] + 1)
          return rw.notifyMatchFailure(op, "the transpose splits a group");
    // The groups in source order, and where each result group comes from.
    SmallVector<unsigned> order(groups.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return perm[groups[a].front()] < perm[groups[b].front()];
    });
    SmallVector<ReassociationIndices> sourceGroups;
    SmallVector<int64_t> newPerm(groups.size());
    for (auto [position, g] : llvm::enumerate(order)) {
      ReassociationIndices run;
      for (int64_t d : groups[g])
        run.push_back(perm[d]);
      sourceGroups.push_back(run);
      newPerm[g] = position;
    }
    Location loc = op.getLoc();
    Value collapsed = tensor::CollapseShapeOp::create(
        rw, loc, transpose.getInput(), sourceGroups);
    if (llvm::equal(newPerm, llvm::seq<int64_t>(0, newPerm.size()))) {
      rw.replaceOp(op, collapsed);
      return success();
    }
    auto resultType = op.getResultType();
    Value init = tensor::EmptyOp::create(rw, loc, resultType.getShape(),
                                         resultType.getElementType());
    rw.replaceOpWithNewOp<linalg::TransposeOp>(op, collapsed, init, newPerm);
    return success();
  }
};

/// A linalg op on tensors that copies its one input to an identity output
/// through a map whose results are loop dimensions in increasing order or
/// 0 on a unit dimension of the input (torch's `expand` of a size-1
/// dimension): a broadcast that keeps the order of what it reads. `read`
/// gets the loop dimensions the input indexes.
static bool isOrderedBroadcast(linalg::LinalgOp op,
                               llvm::SmallBitVector &read) {
  if (!isCopyOp(op))
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto sourceType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  if (!sourceType || !sourceType.hasStaticShape() || !maps[1].isIdentity())
    return false;
  read = llvm::SmallBitVector(op.getNumLoops());
  int64_t last = -1;
  for (auto [i, e] : llvm::enumerate(maps[0].getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      if (static_cast<int64_t>(dim.getPosition()) <= last)
        return false;
      last = dim.getPosition();
      read.set(last);
      continue;
    }
    auto zero = dyn_cast<AffineConstantExpr>(e);
    if (!zero || zero.getValue() != 0 || sourceType.getDimSize(i) != 1)
      return false;
  }
  return true;
}

/// batch_matmul(A, B) whose B is a broadcast collapsed into the batch, the
/// broadcast dimensions inside the ones the source indexes: batch b = g * R
/// + r with B[b] = S[g] for every r. Grouped-query attention repeats each
/// key/value head this way for the R query heads of its group (torch's
/// `repeat_kv`: expand, then reshape). The R matrices of A that share a B
/// become rows of one matrix: A [G*R][M][K] viewed as [G][R*M][K] (the same
/// bytes), times S [G][K][N], gives C viewed as [G][R*M][N]. The copy of B
/// per call is gone, and each B is read once for R*M rows instead of once
/// per batch. B may be read transposed ((b, n, k)); A and C in their
/// default layout.
struct GroupBroadcastBatchIntoRows
    : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics())
      return rw.notifyMatchFailure(op, "needs tensors");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<AffineMap> defaults =
        linalg::BatchMatmulOp::getDefaultIndexingMaps(rw.getContext());
    if (maps[0] != defaults[0] || maps[2] != defaults[2] ||
        maps[1].getNumResults() != 3 || maps[1].getDimPosition(0) != 0)
      return rw.notifyMatchFailure(op, "A or C not in the default layout, "
                                       "or B not a matrix per batch");
    auto collapse =
        op.getDpsInputs()[1].getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      return rw.notifyMatchFailure(op, "B is not a collapsed batch");
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    if (groups.size() != 3 || groups[1].size() != 1 || groups[2].size() != 1)
      return rw.notifyMatchFailure(op, "B's collapse regroups its matrix");
    auto copy = collapse.getSrc().getDefiningOp<linalg::LinalgOp>();
    llvm::SmallBitVector read;
    if (!isOrderedBroadcast(copy, read))
      return rw.notifyMatchFailure(op, "B is not a collapsed broadcast");
    auto aType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
    auto cType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
    auto copyType = cast<RankedTensorType>(copy->getResult(0).getType());
    if (!aType.hasStaticShape() || !cType.hasStaticShape() ||
        !copyType.hasStaticShape())
      return rw.notifyMatchFailure(op, "needs static shapes");
    unsigned batchRank = groups[0].size();
    if (!read.test(batchRank) || !read.test(batchRank + 1))
      return rw.notifyMatchFailure(op, "B broadcast along its matrix");
    // The batch: indexed dimensions (G), then broadcast ones (R).
    int64_t numGroups = 1, repeats = 1;
    for (unsigned d = 0; d < batchRank; ++d) {
      int64_t size = copyType.getDimSize(d);
      if (size == 1)
        continue;
      if (!read.test(d)) {
        repeats *= size;
        continue;
      }
      if (repeats != 1)
        return rw.notifyMatchFailure(op, "a broadcast dimension outside an "
                                         "indexed one");
      numGroups *= size;
    }
    // One group (multi-query attention: every query head shares one key
    // and value head) is a batch of one.
    if (repeats == 1)
      return rw.notifyMatchFailure(op, "no batch dimension repeated");
    // S as [G][X][Y]: its leading dimensions are the batch's (unit ones
    // among them), its last two B's matrix.
    Location loc = op.getLoc();
    Value source = copy.getDpsInputs()[0];
    auto sourceType = cast<RankedTensorType>(source.getType());
    int64_t sourceRank = sourceType.getRank();
    AffineMap sourceMap = copy.getIndexingMapsArray()[0];
    if (sourceRank < 3 ||
        sourceMap.getResult(sourceRank - 2) != rw.getAffineDimExpr(batchRank) ||
        sourceMap.getResult(sourceRank - 1) !=
            rw.getAffineDimExpr(batchRank + 1))
      return rw.notifyMatchFailure(op, "B's source is not a batch of its "
                                       "matrices");
    if (sourceRank > 3) {
      ReassociationIndices lead(sourceRank - 2);
      std::iota(lead.begin(), lead.end(), 0);
      source = tensor::CollapseShapeOp::create(
          rw, loc, source,
          SmallVector<ReassociationIndices>{
              lead, {sourceRank - 2}, {sourceRank - 1}});
    }
    // A and C: [G*R][M][.] viewed as [G][R][M][.], then as [G][R*M][.].
    auto regroup = [&](Value v) {
      auto type = cast<RankedTensorType>(v.getType());
      auto split = RankedTensorType::get(
          {numGroups, repeats, type.getDimSize(1), type.getDimSize(2)},
          type.getElementType());
      Value expanded = tensor::ExpandShapeOp::create(
          rw, loc, split, v,
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
      return tensor::CollapseShapeOp::create(
          rw, loc, expanded,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
    };
    Value a = regroup(op.getDpsInputs()[0]);
    Value c = regroup(op.getDpsInits()[0]);
    auto grouped = linalg::BatchMatmulOp::create(
        rw, loc, TypeRange{c.getType()}, ValueRange{a, source}, ValueRange{c});
    grouped.setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
    grouped.setCastAttr(op.getCastAttr());
    auto split = RankedTensorType::get({numGroups, repeats, cType.getDimSize(1),
                                        cType.getDimSize(2)},
                                       cType.getElementType());
    Value expanded = tensor::ExpandShapeOp::create(
        rw, loc, split, grouped.getResult(0),
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
    rw.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, cType, expanded,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    return success();
  }
};

/// matmul / batch_matmul reading a layout copy: read the copy's source
/// through the composed map instead, when the result is still a map the
/// contraction (and the kernels) take.
template <typename OpTy>
struct FoldLayoutCopyIntoOperand : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics())
      return rw.notifyMatchFailure(op, "needs tensors");
    bool batch = std::is_same_v<OpTy, linalg::BatchMatmulOp>;
    // Loop dimensions: [batch,] m, n, k.
    unsigned m = batch ? 1 : 0, n = m + 1, k = m + 2;
    std::optional<unsigned> b =
        batch ? std::optional<unsigned>(0) : std::nullopt;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs(op.getDpsInputs());
    bool changed = false;
    for (unsigned i = 0; i < 2; ++i) {
      auto copy = inputs[i].template getDefiningOp<linalg::LinalgOp>();
      if (!isLayoutCopy(copy))
        continue;
      AffineMap composed = copy.getIndexingMapsArray()[0].compose(maps[i]);
      if (!isKernelOperandMap(composed, i == 0 ? m : k, i == 0 ? k : n, b))
        continue;
      maps[i] = composed;
      inputs[i] = copy.getDpsInputs()[0];
      changed = true;
    }
    if (!changed)
      return rw.notifyMatchFailure(op, "no foldable layout copy");
    Location loc = op.getLoc();
    if (batch && maps[1].getNumResults() == 2) {
      // B shared by every batch: with A and C in their default layout the
      // batch is more rows of one matmul (linalg.batch_matmul accepts a
      // broadcast B only as (k, n), not transposed).
      auto aType = cast<RankedTensorType>(inputs[0].getType());
      auto cType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
      SmallVector<AffineMap> defaults =
          linalg::BatchMatmulOp::getDefaultIndexingMaps(rw.getContext());
      if (maps[0] == defaults[0] && maps[2] == defaults[2] &&
          aType.hasStaticShape() &&
          cType.hasStaticShape()) {
        rw.replaceOp(op, collapseBatchIntoRows(op, inputs[0], inputs[1],
                                               maps[1], rw));
        return success();
      }
      if (maps[1] != AffineMap::get(4, 0, {rw.getAffineDimExpr(k),
                                            rw.getAffineDimExpr(n)},
                                    rw.getContext())) {
        maps[1] = op.getIndexingMapsArray()[1];
        inputs[1] = op.getDpsInputs()[1];
        if (inputs[0] == op.getDpsInputs()[0])
          return rw.notifyMatchFailure(op, "transposed broadcast B");
      }
    }
    auto folded =
        OpTy::create(rw, loc, op->getResultTypes(), inputs, op.getDpsInits());
    folded.setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
    folded.setCastAttr(op.getCastAttr());
    rw.replaceOp(op, folded->getResults());
    return success();
  }

  /// batch_matmul(A[b][m][k], B shared) -> matmul(A as (b*m) x k, B) with
  /// the result expanded back to [b][m][n].
  static Value collapseBatchIntoRows(OpTy op, Value a, Value b, AffineMap bMap,
                                     PatternRewriter &rw) {
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> rows = {{0, 1}, {2}};
    Value a2 = tensor::CollapseShapeOp::create(rw, loc, a, rows);
    Value c2 =
        tensor::CollapseShapeOp::create(rw, loc, op.getDpsInits()[0], rows);
    // Loop dimensions (b, m, n, k) -> (m, n, k).
    MLIRContext *ctx = rw.getContext();
    AffineMap toMatmul = AffineMap::get(
        4, 0,
        {getAffineConstantExpr(0, ctx), getAffineDimExpr(0, ctx),
         getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)},
        ctx);
    SmallVector<AffineExpr> bExprs;
    for (AffineExpr e : bMap.getResults())
      bExprs.push_back(toMatmul.getResult(cast<AffineDimExpr>(e).getPosition()));
    AffineMap m = AffineMap::get(3, 0, {getAffineDimExpr(0, ctx),
                                        getAffineDimExpr(2, ctx)}, ctx);
    AffineMap bm = AffineMap::get(3, 0, bExprs, ctx);
    AffineMap cm = AffineMap::get(3, 0, {getAffineDimExpr(0, ctx),
                                         getAffineDimExpr(1, ctx)}, ctx);
    auto mm = linalg::MatmulOp::create(rw, loc, TypeRange{c2.getType()},
                                       ValueRange{a2, b}, ValueRange{c2});
    mm.setIndexingMapsAttr(rw.getAffineMapArrayAttr({m, bm, cm}));
    mm.setCastAttr(op.getCastAttr());
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    return tensor::ExpandShapeOp::create(rw, loc, resultType, mm.getResult(0),
                                         rows);
  }
};

/// elementwise(copy(x)) -> copy(elementwise(x)) when every user is a
/// contraction operand: the elementwise op then runs on the contiguous
/// source (and on fewer elements when the copy broadcasts), and the copy
/// folds into the contraction.
struct SwapElementwiseAndLayoutCopy
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    if (!isUnaryElementwise(op))
      return failure();
    Value result = op->getResult(0);
    if (result.use_empty() ||
        !llvm::all_of(result.getUses(), [](OpOperand &use) {
          auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
          return isa_and_nonnull<linalg::MatmulOp, linalg::BatchMatmulOp>(
                     use.getOwner()) &&
                 user.isDpsInput(&use);
        }))
      return rw.notifyMatchFailure(op, "a user is not a contraction operand");
    auto copy = op.getDpsInputs()[0].getDefiningOp<linalg::LinalgOp>();
    if (!isLayoutCopy(copy) || !copy->hasOneUse())
      return rw.notifyMatchFailure(op, "input is not a layout copy");
    Location loc = op.getLoc();
    Value source = copy.getDpsInputs()[0];
    auto sourceType = cast<RankedTensorType>(source.getType());
    auto resultType = cast<RankedTensorType>(result.getType());
    if (!sourceType.hasStaticShape() || !resultType.hasStaticShape())
      return rw.notifyMatchFailure(op, "needs static shapes");
    Type elem = resultType.getElementType();
    // The elementwise op on the source's shape...
    Value init = tensor::EmptyOp::create(rw, loc, sourceType.getShape(), elem);
    unsigned rank = sourceType.getRank();
    AffineMap id = rw.getMultiDimIdentityMap(rank);
    auto moved = linalg::GenericOp::create(
        rw, loc, TypeRange{init.getType()}, ValueRange{source}, ValueRange{init},
        ArrayRef<AffineMap>{id, id},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
    rw.cloneRegionBefore(op->getRegion(0), moved.getRegion(),
                         moved.getRegion().end());
    Block &body = moved.getRegion().front();
    body.getArgument(0).setType(sourceType.getElementType());
    // ...then the copy, now of the converted elements.
    Value copyInit =
        tensor::EmptyOp::create(rw, loc, resultType.getShape(), elem);
    unsigned copyRank = resultType.getRank();
    auto movedCopy = linalg::GenericOp::create(
        rw, loc, TypeRange{resultType}, ValueRange{moved.getResult(0)},
        ValueRange{copyInit}, copy.getIndexingMapsArray(),
        SmallVector<utils::IteratorType>(copyRank,
                                         utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    rw.replaceOp(op, movedCopy->getResults());
    return success();
  }
};

/// Whether `v` is block argument `arg`, or it widened by arith.extf.
static bool isArgMaybeWidened(Value v, BlockArgument arg) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    v = ext.getIn();
  return v == arg;
}

/// A matmul or batch_matmul written as a linalg.generic or linalg.contract
/// (StableHLO's dot_general, generalized IR): out += A * B in the body,
/// each operand maybe widened to the output type first, and one m, n and k
/// loop (and at most one batch loop) in maps the named op and the kernels
/// take. It becomes linalg.matmul / linalg.batch_matmul with those maps
/// (the named op widens its inputs to the output type, as the body did),
/// which the transposes above then fold into and every backend's kernels
/// take; as a generic it ran on the loop path.
struct NamedFromGenericContraction
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    if (!isa<linalg::GenericOp, linalg::ContractOp>(op))
      return failure();
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
        !(op.hasPureTensorSemantics() || op.hasPureBufferSemantics()))
      return rw.notifyMatchFailure(op, "not two inputs and one output");
    Type aElem = getElementTypeOrSelf(op.getDpsInputs()[0].getType()),
         bElem = getElementTypeOrSelf(op.getDpsInputs()[1].getType()),
         cElem = getElementTypeOrSelf(op.getDpsInits()[0].getType());
    if (aElem != bElem || !isa<FloatType>(aElem) || !isa<FloatType>(cElem))
      return rw.notifyMatchFailure(op, "not floats of one input type");
    // The body: yield(out + A' * B'), A' and B' the inputs maybe widened.
    Block *body = op.getBlock();
    BlockArgument a = body->getArgument(0), b = body->getArgument(1);
    arith::MulFOp mul = getAccumulatedProduct(*body);
    if (!mul || !((isArgMaybeWidened(mul.getLhs(), a) &&
                   isArgMaybeWidened(mul.getRhs(), b)) ||
                  (isArgMaybeWidened(mul.getLhs(), b) &&
                   isArgMaybeWidened(mul.getRhs(), a))))
      return rw.notifyMatchFailure(op, "not out + a * b");
    Operation *add = body->getTerminator()->getOperand(0).getDefiningOp();
    // Nothing else in the body (the widenings, the product, the sum).
    if (llvm::any_of(body->without_terminator(), [&](Operation &inner) {
          return &inner != add && &inner != mul && !isa<arith::ExtFOp>(inner);
        }))
      return rw.notifyMatchFailure(op, "other ops in the body");
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || dims->batch.size() > 1 ||
        op.getNumLoops() != 3 + dims->batch.size())
      return rw.notifyMatchFailure(op, "not one m, n and k (and batch)");
    bool batched = !dims->batch.empty();
    // The named op's loops: [batch,] m, n, k.
    unsigned first = batched ? 1 : 0;
    SmallVector<unsigned> named(op.getNumLoops());
    if (batched)
      named[dims->batch[0]] = 0;
    named[dims->m[0]] = first;
    named[dims->n[0]] = first + 1;
    named[dims->k[0]] = first + 2;
    SmallVector<AffineMap> maps;
    for (AffineMap map : op.getIndexingMapsArray()) {
      if (!map.isProjectedPermutation())
        return rw.notifyMatchFailure(op, "operand map not a permutation");
      SmallVector<AffineExpr> results;
      for (AffineExpr e : map.getResults())
        results.push_back(
            rw.getAffineDimExpr(named[cast<AffineDimExpr>(e).getPosition()]));
      maps.push_back(
          AffineMap::get(op.getNumLoops(), 0, results, rw.getContext()));
    }
    std::optional<unsigned> batchDim =
        batched ? std::optional<unsigned>(0) : std::nullopt;
    unsigned m = first, n = first + 1, k = first + 2;
    SmallVector<AffineExpr> outDims;
    if (batched)
      outDims.push_back(rw.getAffineDimExpr(0));
    outDims.append({rw.getAffineDimExpr(m), rw.getAffineDimExpr(n)});
    if (!isKernelOperandMap(maps[0], m, k, batchDim) ||
        !isKernelOperandMap(maps[1], k, n, batchDim) ||
        maps[2] !=
            AffineMap::get(op.getNumLoops(), 0, outDims, rw.getContext()))
      return rw.notifyMatchFailure(op, "maps the named op does not take");
    // batch_matmul takes a B broadcast over the batch as (k, n) only.
    if (batched && maps[1].getNumResults() == 2 &&
        maps[1].getDimPosition(0) != k)
      return rw.notifyMatchFailure(op, "transposed broadcast B");
    Location loc = op.getLoc();
    TypeRange results = op->getResultTypes();
    Operation *namedOp;
    if (batched) {
      auto bmm = linalg::BatchMatmulOp::create(
          rw, loc, results, op.getDpsInputs(), op.getDpsInits());
      bmm.setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
      namedOp = bmm;
    } else {
      auto mm = linalg::MatmulOp::create(rw, loc, results, op.getDpsInputs(),
                                         op.getDpsInits());
      mm.setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
      namedOp = mm;
    }
    rw.replaceOp(op, namedOp->getResults());
    return success();
  }
};

/// What a layout copy does to its source, for remarks: its input map.
static StringRef describeLayoutCopy(linalg::LinalgOp copy) {
  AffineMap map = copy.getIndexingMapsArray()[0];
  // Results are loop dimensions, or 0 on a unit dimension of the source.
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      dims.push_back(dim.getPosition());
  bool broadcast = dims.size() < map.getNumDims();
  bool inOrder = llvm::is_sorted(dims);
  if (broadcast)
    return inOrder ? "broadcast" : "broadcast and transpose";
  return inOrder ? "copy" : "transpose";
}

/// Why the layout copy read (maybe through `between`, a unary elementwise
/// op) as input `i` of the tensor contraction `op` was not folded by the
/// patterns above, which have run to a fixed point.
static std::string whyLayoutCopyStays(linalg::LinalgOp op, unsigned i,
                                      linalg::LinalgOp copy,
                                      linalg::LinalgOp between,
                                      Operation *reshape) {
  std::string why;
  llvm::raw_string_ostream os(why);
  if (reshape) {
    os << "a reshape ('" << reshape->getName()
       << "') between them regroups dimensions the copy's source indexes";
    return why;
  }
  if (between) {
    os << "the elementwise op between them ('" << between->getName()
       << "') has users other than contraction operands, or the copy has "
          "other users";
    return why;
  }
  bool batch = isa<linalg::BatchMatmulOp>(op);
  unsigned m = batch ? 1 : 0, n = m + 1, k = m + 2;
  std::optional<unsigned> b = batch ? std::optional<unsigned>(0) : std::nullopt;
  AffineMap composed =
      copy.getIndexingMapsArray()[0].compose(op.getIndexingMapsArray()[i]);
  if (!isKernelOperandMap(composed, i == 0 ? m : k, i == 0 ? k : n, b)) {
    os << "read through " << composed << ", the operand is not a matrix"
       << (batch ? " per batch (maybe transposed) nor one broadcast over "
                   "the batch"
                 : " (maybe transposed)");
    return why;
  }
  if (batch && composed.getNumResults() == 2) {
    os << "a B broadcast over the batch and transposed, with A or C not "
          "in their default layout or a dynamic shape (the batch becomes "
          "rows of one matmul only then; linalg.batch_matmul takes a "
          "broadcast B only as (k, n))";
    return why;
  }
  os << "no fold applies";
  return why;
}

/// Every matmul / batch_matmul on tensors that still reads a layout copy
/// says so: bufferized, the copy runs on every call (a transposed weight:
/// a strided copy of the whole matrix).
static void remarkUnfoldedLayoutCopies(Operation *root) {
  root->walk([](linalg::LinalgOp op) {
    if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
        !op.hasPureTensorSemantics())
      return;
    for (unsigned i = 0; i < 2; ++i) {
      Value operand = op.getDpsInputs()[i];
      // A reshape in between hides nothing: the copy still runs per call.
      Operation *reshape = nullptr;
      while (Operation *def = operand.getDefiningOp()) {
        if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
          break;
        reshape = def;
        operand = def->getOperand(0);
      }
      auto producer = operand.getDefiningOp<linalg::LinalgOp>();
      linalg::LinalgOp between, copy = producer;
      if (producer && !isLayoutCopy(producer) &&
          isUnaryElementwise(producer)) {
        between = producer;
        copy = producer.getDpsInputs()[0].getDefiningOp<linalg::LinalgOp>();
      }
      llvm::SmallBitVector read;
      if (!copy || !(isLayoutCopy(copy) || isOrderedBroadcast(copy, read)))
        continue;
      emitRemarkAt(op) << "operand " << i << " of '" << op->getName()
                       << "' is a materialized " << describeLayoutCopy(copy)
                       << " ('" << copy->getName()
                       << "'), not folded into its indexing map: "
                       << whyLayoutCopyStays(op, i, copy, between, reshape)
                       << "; it is copied on every call";
    }
  });
}

struct LowpFoldLayoutIntoContractionsPass
    : lowp::impl::LowpFoldLayoutIntoContractionsBase<
          LowpFoldLayoutIntoContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Copy-only generics with permuted maps become linalg.transpose, so the
    // folds see every transpose in one form (the driver revisits a
    // contraction whose operand was replaced).
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, &getContext());
    patterns.add<TransposeFromGenericCopy, CollapseBroadcastCopy,
                 TransposeOfUnitDimsToReshape, CollapseThroughTranspose,
                 GroupBroadcastBatchIntoRows,
                 NamedFromGenericContraction,
                 FoldLayoutCopyIntoOperand<linalg::MatmulOp>,
                 FoldLayoutCopyIntoOperand<linalg::BatchMatmulOp>,
                 SwapElementwiseAndLayoutCopy>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    remarkUnfoldedLayoutCopies(getOperation());
  }
};
} // namespace
