//===- InferTransferInBounds.cpp - lowp-infer-transfer-in-bounds ----------===//
//
// affine-super-vectorize emits 1-D transfers without `in_bounds`, so they
// lower to masked loads and stores; for 16-bit float vectors AVX2 has no
// masked move and LLVM scalarizes them (through __truncsfbf2 for bf16).
// When the innermost index is an affine.for induction variable whose last
// value still leaves room for the whole vector, the transfer is in bounds.
//
// It also vectorizes along a dimension followed only by unit dimensions (a
// keep-dim reduction result, `memref<1x128x1xbf16>` read along the 128):
// contiguous in memory, but the permutation map is not a minor identity, so
// the transfer would be unrolled lane by lane - and a bf16 vector assembled
// lane by lane on AVX2 goes through LLVM's f32 promotion, one __truncsfbf2
// call per lane. Such transfers read a collapsed view instead.
//
// Transfers of i1 (or of any element narrower than a byte) are neither:
// LLVM bit-packs a vector of i1 in memory (`store <16 x i1>` writes 2
// bytes) while a memref of i1 holds a byte per element, so a whole-vector
// load or store - an in-bounds transfer, or a masked one whose mask LLVM
// folds to all-true - reads or writes the wrong bytes. They become one
// scalar load or store per lane (guarded where the lane may be masked or
// out of bounds), which address the bytes as the memref's other accesses
// do.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINFERTRANSFERINBOUNDS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// True for element types LLVM lays out in memory as a memref does: a
/// vector of i1 (or of any type narrower than a byte, or not a multiple of
/// one) is bit-packed in LLVM's memory (`store <16 x i1>` writes 2 bytes),
/// while a memref of i1 holds one byte per element, each scalar load and
/// store addressing its own byte. Such transfers are neither marked in
/// bounds nor collapsed (whole-vector loads and stores of the packed bits)
/// but scalarized (ScalarizeSubByteTransfer).
bool isByteAddressable(Type element) {
  if (isa<IndexType>(element))
    return true;
  if (!element.isIntOrFloat())
    return false;
  unsigned bits = element.getIntOrFloatBitWidth();
  return bits >= 8 && bits % 8 == 0;
}

/// True when every value `iv` takes leaves `width` elements inside `size`.
bool fitsInside(Value index, int64_t width, int64_t size) {
  auto forOp = affine::getForInductionVarOwner(index);
  if (!forOp || !forOp.hasConstantBounds())
    return false;
  int64_t lb = forOp.getConstantLowerBound();
  int64_t ub = forOp.getConstantUpperBound();
  int64_t step = forOp.getStepAsInt();
  if (ub <= lb)
    return true;
  int64_t last = lb + (ub - 1 - lb) / step * step;
  return lb >= 0 && last + width <= size;
}

template <typename TransferOp>
struct MarkInBounds : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(op.getShapedType());
    VectorType vec = op.getVectorType();
    if (!memref || !memref.hasStaticShape() || vec.getRank() != 1 ||
        !isByteAddressable(vec.getElementType()) ||
        !op.getPermutationMap().isMinorIdentity() || op.getMask() ||
        op.isDimInBounds(0))
      return failure();
    if (!fitsInside(op.getIndices().back(), vec.getDimSize(0),
                    memref.getShape().back()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.setInBoundsAttr(rewriter.getBoolArrayAttr({true})); });
    return success();
  }
};

/// A 1-D transfer along dimension j of a static identity-layout memref whose
/// dimensions after j all have size 1 (and are indexed by constant 0) ->
/// the same transfer, minor identity, on the memref with dimensions j..
/// collapsed into one: the elements are contiguous either way.
template <typename TransferOp>
struct CollapseTrailingUnitDims : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(op.getShapedType());
    AffineMap map = op.getPermutationMap();
    if (!memref || !memref.hasStaticShape() ||
        !memref.getLayout().isIdentity() || op.getVectorType().getRank() != 1 ||
        !isByteAddressable(op.getVectorType().getElementType()) ||
        map.getNumResults() != 1 || map.isMinorIdentity())
      return failure();
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
    if (!dim)
      return failure();
    int64_t j = dim.getPosition(), rank = memref.getRank();
    for (int64_t d = j + 1; d < rank; ++d)
      if (memref.getDimSize(d) != 1 ||
          !matchPattern(op.getIndices()[d], m_Zero()))
        return failure();
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < j; ++d)
      groups.push_back({d});
    ReassociationIndices tail;
    for (int64_t d = j; d < rank; ++d)
      tail.push_back(d);
    groups.push_back(tail);
    Location loc = op.getLoc();
    Value view = memref::CollapseShapeOp::create(rewriter, loc, op.getBase(),
                                                 groups);
    SmallVector<Value> indices(op.getIndices().begin(),
                               op.getIndices().begin() + j + 1);
    AffineMap minor = AffineMap::getMinorIdentityMap(j + 1, 1,
                                                     rewriter.getContext());
    if constexpr (std::is_same_v<TransferOp, vector::TransferReadOp>) {
      rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
          op, op.getVectorType(), view, indices, AffineMapAttr::get(minor),
          op.getPadding(), op.getMask(), op.getInBoundsAttr());
    } else {
      rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
          op, op.getVector(), view, indices, AffineMapAttr::get(minor),
          op.getMask(), op.getInBoundsAttr());
    }
    return success();
  }
};

/// A 1-D transfer of elements narrower than a byte on a memref -> one
/// memref.load / memref.store per lane: LLVM's bit-packed vector layout
/// would not match the memref's byte per element. A lane is guarded by an
/// scf.if where it may be out of bounds (not `in_bounds`, not proven by the
/// enclosing loop's bounds) or masked; a guarded read lane not taken is
/// the padding.
template <typename TransferOp>
struct ScalarizeSubByteTransfer : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    constexpr bool isRead = std::is_same_v<TransferOp, vector::TransferReadOp>;
    auto memref = dyn_cast<MemRefType>(op.getShapedType());
    VectorType vec = op.getVectorType();
    if (!memref || vec.getRank() != 1 || vec.isScalable() ||
        isByteAddressable(vec.getElementType()) ||
        op.getPermutationMap().getNumResults() != 1)
      return failure();
    AffineExpr result = op.getPermutationMap().getResult(0);
    std::optional<unsigned> dim;
    if (auto d = dyn_cast<AffineDimExpr>(result))
      dim = d.getPosition();
    else if (!isRead || !isa<AffineConstantExpr>(result))
      return failure(); // A write cannot broadcast.
    Location loc = op.getLoc();
    Value base = op.getBase();
    int64_t width = vec.getDimSize(0);
    // Whole transfer in bounds: said so, or the loop's bounds prove it.
    bool inBounds =
        !dim || op.isDimInBounds(0) ||
        (!memref.isDynamicDim(*dim) &&
         fitsInside(op.getIndices()[*dim], width, memref.getDimSize(*dim)));
    // A broadcast read: one load (it is in bounds: the transfer's indices
    // are), as many lanes.
    if (!dim && !op.getMask()) {
      Value v = memref::LoadOp::create(rewriter, loc, base, op.getIndices());
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, vec, v);
      return success();
    }
    Value size;
    if (!inBounds)
      size = memref::DimOp::create(rewriter, loc, base, *dim);
    SmallVector<Value> lanes;
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> indices(op.getIndices().begin(),
                                 op.getIndices().end());
      if (dim && lane > 0)
        indices[*dim] = arith::AddIOp::create(
            rewriter, loc, indices[*dim],
            arith::ConstantIndexOp::create(rewriter, loc, lane));
      Value cond;
      if (!inBounds)
        cond = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     indices[*dim], size);
      if (Value mask = op.getMask()) {
        Value bit = vector::ExtractOp::create(rewriter, loc, mask, lane);
        cond = cond ? arith::AndIOp::create(rewriter, loc, cond, bit)
                          .getResult()
                    : bit;
      }
      if constexpr (isRead) {
        if (!cond) {
          lanes.push_back(memref::LoadOp::create(rewriter, loc, base, indices));
          continue;
        }
        auto ifOp = scf::IfOp::create(
            rewriter, loc, cond,
            [&](OpBuilder &b, Location l) {
              Value v = memref::LoadOp::create(b, l, base, indices);
              scf::YieldOp::create(b, l, v);
            },
            [&](OpBuilder &b, Location l) {
              scf::YieldOp::create(b, l, op.getPadding());
            });
        lanes.push_back(ifOp.getResult(0));
      } else {
        Value v = vector::ExtractOp::create(rewriter, loc, op.getVector(), lane);
        if (!cond) {
          memref::StoreOp::create(rewriter, loc, v, base, indices);
          continue;
        }
        scf::IfOp::create(rewriter, loc, cond, [&](OpBuilder &b, Location l) {
          memref::StoreOp::create(b, l, v, base, indices);
          scf::YieldOp::create(b, l);
        });
      }
    }
    if constexpr (isRead)
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vec, lanes);
    else
      rewriter.eraseOp(op);
    return success();
  }
};

struct LowpInferTransferInBoundsPass
    : lowp::impl::LowpInferTransferInBoundsBase<LowpInferTransferInBoundsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MarkInBounds<vector::TransferReadOp>,
                 MarkInBounds<vector::TransferWriteOp>,
                 CollapseTrailingUnitDims<vector::TransferReadOp>,
                 CollapseTrailingUnitDims<vector::TransferWriteOp>,
                 ScalarizeSubByteTransfer<vector::TransferReadOp>,
                 ScalarizeSubByteTransfer<vector::TransferWriteOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
