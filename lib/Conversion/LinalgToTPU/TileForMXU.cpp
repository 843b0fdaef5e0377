//===- TileForMXU.cpp - lowp-tile-for-mxu ---------------------------------===//
//
// Puts every matrix op of a decided module into the form a TPU MXU runs:
// bf16 operands, an f32 accumulator, M/N/K padded with zeros to multiples of
// the generation's matrix tile and tiled so each inner contraction is one
// tile. The tile comes from the capability table (TargetInfo::tile16).
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPTILEFORMXU
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// A contraction this pass rewrites: its loop ranges and which loops are
/// batch, M, N and K.
struct MatrixOp {
  linalg::LinalgOp op;
  SmallVector<int64_t> loopRanges;
  linalg::ContractionDimensions dims;
};

enum class Verdict { Rewrite, Leave, Reject };

/// The MXU tile extent of loop `d` of `m` (0 for batch loops).
static int64_t tileExtent(const MatrixOp &m, unsigned d, TileShape tile) {
  if (llvm::is_contained(m.dims.m, d))
    return tile.m;
  if (llvm::is_contained(m.dims.n, d))
    return tile.n;
  if (llvm::is_contained(m.dims.k, d))
    return tile.k;
  return 0;
}

/// Whether `m` must be rewritten, left alone (not a float matrix op of f32 or
/// bf16, or already one MXU tile), or is a matrix op the MXU cannot take
/// (diagnosed here).
static Verdict classify(MatrixOp &m, TileShape tile) {
  linalg::LinalgOp op = m.op;
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return Verdict::Leave;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return Verdict::Leave;
  m.dims = *dims;

  // Only f32 and bf16 have an MXU form: f64 and integers stay exact on the
  // vector units; f16 and FP8 would change meaning if rounded to bf16.
  auto isMXUFormat = [](Type t) { return t.isF32() || t.isBF16(); };
  SmallVector<Type> elems;
  for (OpOperand &operand : op->getOpOperands())
    elems.push_back(getElementTypeOrSelf(operand.get().getType()));
  if (!llvm::all_of(elems, [](Type t) { return isa<FloatType>(t); }) ||
      llvm::any_of(elems, [](Type t) { return t.isF64(); }))
    return Verdict::Leave;
  for (Type t : elems)
    if (!isMXUFormat(t)) {
      op->emitOpError() << "has " << t
                        << " operands: a TPU MXU takes bf16 (or f32, "
                           "rounded to bf16) with an f32 accumulator";
      return Verdict::Reject;
    }

  if (op.hasDynamicShape()) {
    op->emitOpError("has dynamic shapes: lowp-tile-for-mxu pads and tiles "
                    "static shapes only");
    return Verdict::Reject;
  }
  m.loopRanges = op.getStaticLoopRanges();

  // Already one MXU tile in MXU types: nothing to do (idempotence).
  bool oneTile = llvm::all_of(
      llvm::seq<unsigned>(0, m.loopRanges.size()), [&](unsigned d) {
        int64_t extent = tileExtent(m, d, tile);
        return m.loopRanges[d] == (extent ? extent : 1);
      });
  if (oneTile && elems[0].isBF16() && elems[1].isBF16() && elems[2].isF32())
    return Verdict::Leave;
  return Verdict::Rewrite;
}

/// `value` with its elements converted to `to` by an elementwise
/// linalg.generic (truncf rounds to nearest even, extf is exact).
static Value convertElements(OpBuilder &b, Location loc, Value value,
                             FloatType to) {
  auto type = cast<RankedTensorType>(value.getType());
  auto from = cast<FloatType>(type.getElementType());
  if (from == to)
    return value;
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), to);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type.clone(to), value, init, {id, id}, parallel,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value converted =
            to.getWidth() < from.getWidth()
                ? arith::TruncFOp::create(nb, nloc, to, args[0]).getResult()
                : arith::ExtFOp::create(nb, nloc, to, args[0]).getResult();
        linalg::YieldOp::create(nb, nloc, converted);
      });
  return generic.getResult(0);
}

/// `value` padded at the high end with zeros to `shape` (itself when it
/// already has that shape). `zeros` holds the constants made so far, one
/// per element type.
static Value padWithZeros(OpBuilder &b, Location loc, Value value,
                          ArrayRef<int64_t> shape,
                          DenseMap<Type, Value> &zeros) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  Type elem = type.getElementType();
  Value &zero = zeros[elem];
  if (!zero)
    zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  return tensor::createPadHighOp(type.clone(shape), value, zero,
                                 /*nofold=*/false, loc, b);
}

/// The contraction of `m` on new operands: named matmuls stay named (their
/// bodies follow the operand types); any other contraction becomes a
/// generic with the MXU's body, f32 products of bf16 operands accumulated
/// in f32.
static linalg::LinalgOp createContraction(OpBuilder &b, Location loc,
                                          MatrixOp &m, Value lhs, Value rhs,
                                          Value acc) {
  Type resultType = acc.getType();
  if (auto matmul = dyn_cast<linalg::MatmulOp>(m.op.getOperation())) {
    SmallVector<NamedAttribute> attrs;
    if (matmul.hasUserDefinedMaps())
      attrs.push_back(
          b.getNamedAttr("indexing_maps", matmul.getIndexingMaps()));
    return linalg::MatmulOp::create(b, loc, resultType, ValueRange{lhs, rhs},
                                    acc, attrs);
  }
  if (auto batch = dyn_cast<linalg::BatchMatmulOp>(m.op.getOperation())) {
    SmallVector<NamedAttribute> attrs;
    if (batch.hasUserDefinedMaps())
      attrs.push_back(b.getNamedAttr("indexing_maps", batch.getIndexingMaps()));
    return linalg::BatchMatmulOp::create(b, loc, resultType,
                                         ValueRange{lhs, rhs}, acc, attrs);
  }
  return linalg::GenericOp::create(
      b, loc, resultType, ValueRange{lhs, rhs}, acc,
      m.op.getIndexingMapsArray(), m.op.getIteratorTypesArray(),
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Type f32 = nb.getF32Type();
        Value x = arith::ExtFOp::create(nb, nloc, f32, args[0]);
        Value y = arith::ExtFOp::create(nb, nloc, f32, args[1]);
        Value product = arith::MulFOp::create(nb, nloc, x, y);
        Value sum = arith::AddFOp::create(nb, nloc, args[2], product);
        linalg::YieldOp::create(nb, nloc, sum);
      });
}

/// Rewrites `m` into bf16 x bf16 -> f32 contractions of one MXU tile each.
static LogicalResult rewriteToMXUForm(RewriterBase &rewriter, MatrixOp &m,
                                      TileShape tile) {
  linalg::LinalgOp op = m.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  FloatType bf16 = rewriter.getBF16Type();
  FloatType f32 = rewriter.getF32Type();

  // Loop ranges rounded up to whole tiles; batch loops step by 1. Tile
  // size 0 leaves a loop that is one step already untiled.
  SmallVector<int64_t> padded(m.loopRanges);
  SmallVector<OpFoldResult> tileSizes;
  for (auto [d, range] : llvm::enumerate(padded)) {
    int64_t extent = tileExtent(m, d, tile);
    int64_t step = extent ? extent : 1;
    range = llvm::alignTo(range, step);
    tileSizes.push_back(rewriter.getIndexAttr(range == step ? 0 : step));
  }
  auto paddedShape = [&](OpOperand &operand) {
    return llvm::map_to_vector(
        op.getMatchingIndexingMap(&operand).getResults(),
        [&](AffineExpr e) {
          return padded[cast<AffineDimExpr>(e).getPosition()];
        });
  };

  SmallVector<Value> operands;
  DenseMap<Type, Value> zeros;
  for (OpOperand &operand : op->getOpOperands()) {
    bool isInit = op.isDpsInit(&operand);
    Value v =
        convertElements(rewriter, loc, operand.get(), isInit ? f32 : bf16);
    operands.push_back(
        padWithZeros(rewriter, loc, v, paddedShape(operand), zeros));
  }
  linalg::LinalgOp mxuOp = createContraction(rewriter, loc, m, operands[0],
                                             operands[1], operands[2]);

  Value result = mxuOp->getResult(0);
  if (llvm::any_of(tileSizes, [](OpFoldResult s) {
        return getConstantIntValue(s) != 0;
      })) {
    scf::SCFTilingOptions options;
    options.setTileSizes(tileSizes);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(mxuOp.getOperation()), options);
    if (failed(tiled))
      return op->emitOpError("could not be tiled to the MXU tile");
    rewriter.replaceOp(mxuOp, tiled->replacements);
    result = tiled->replacements.front();
  }

  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (cast<RankedTensorType>(result.getType()).getShape() !=
      resultType.getShape()) {
    SmallVector<OpFoldResult> offsets(resultType.getRank(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(resultType.getRank(),
                                      rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(
        rewriter.getContext(), resultType.getShape());
    result = tensor::ExtractSliceOp::create(rewriter, loc, result, offsets,
                                            sizes, strides);
  }
  result = convertElements(rewriter, loc, result,
                           cast<FloatType>(resultType.getElementType()));
  rewriter.replaceOp(op, result);
  return success();
}

struct LowpTileForMXUPass
    : lowp::impl::LowpTileForMXUBase<LowpTileForMXUPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(
        root, selectTargetOption(getArgument(), target, "generation",
                                 deprecatedGeneration));
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    if (!info) {
      root->emitError("lowp-tile-for-mxu: no TPU generation (set "
                      "target= or the module's lowp.target)");
      return signalPassFailure();
    }
    if (info->vendor != Vendor::Google || !info->tile16.valid() ||
        !info->hasMatrixUnit(Format::BF16)) {
      root->emitError() << "lowp-tile-for-mxu: target '" << info->name
                        << "' is not a TPU (no bf16 MXU)";
      return signalPassFailure();
    }

    // Collect first, rewrite after: the walk never sees rewritten IR.
    SmallVector<MatrixOp> work;
    bool rejected = false;
    root->walk([&](linalg::LinalgOp op) {
      MatrixOp m{op, {}, {}};
      switch (classify(m, info->tile16)) {
      case Verdict::Rewrite:
        work.push_back(std::move(m));
        break;
      case Verdict::Reject:
        rejected = true;
        break;
      case Verdict::Leave:
        break;
      }
    });
    if (rejected)
      return signalPassFailure();

    IRRewriter rewriter(root->getContext());
    for (MatrixOp &m : work)
      if (failed(rewriteToMXUForm(rewriter, m, info->tile16)))
        return signalPassFailure();
  }
};

} // namespace
