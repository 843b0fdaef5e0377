//===- ConvertConvNchwToNhwc.cpp - lowp-convert-conv-nchw-to-nhwc ---------===//
//
// PyTorch front ends write every convolution NCHW. The x86 NHWC kernels
// take all of a batch's pixels as the rows of one GEMM and vectorize over
// channels; the NCHW kernels vectorize over the pixels of one image, which
// pads a 7x7 map's 49 pixels to 64 lanes. So a function's convolutions and
// poolings are rewritten NHWC, each between a transpose of its input to
// NHWC and one of its result back; the transposes then sink through the
// elementwise ops, pads and reductions between them until each pair meets
// and cancels. What is left is one transpose where an NCHW value enters
// (the image) and one where the function reads the NHWC values in a way
// this pass does not know (a reshape, a return).
//
// A function is converted whole or not at all: a convolution left NCHW
// among NHWC ones would be surrounded by two full transposes.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/ResourceConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPCONVERTCONVNCHWTONHWC
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// NCHW -> NHWC (and a filter's FCHW -> FHWC); its inverse, NHWC -> NCHW.
constexpr int64_t kToNhwc[] = {0, 2, 3, 1};
constexpr int64_t kToNchw[] = {0, 3, 1, 2};
/// A depthwise filter's CHW -> HWC.
constexpr int64_t kDepthwiseToHwc[] = {1, 2, 0};

/// linalg.transpose of `src` by `perm` (result dimension i is source
/// dimension perm[i]) into a new tensor.empty.
Value createTranspose(OpBuilder &b, Location loc, Value src,
                      ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(src.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, src);
  applyPermutationToVector(sizes, perm);
  Value empty =
      tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  return linalg::TransposeOp::create(b, loc, src, empty, perm)->getResult(0);
}

/// Whether transposing a tensor of `shape` by `perm` keeps the order of its
/// elements (only dimensions of size 1 move): a reshape then does it.
bool transposeIsReshape(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  int64_t last = -1;
  for (int64_t dim : perm) {
    if (shape[dim] == 1)
      continue;
    if (dim < last)
      return false;
    last = dim;
  }
  return true;
}

/// Whether `value` is computed from function arguments and constants alone,
/// by ops that do not read memory state (a weight argument's rounding).
bool computedFromArguments(Value value) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (isa<BlockArgument>(v)) {
      if (!isa<func::FuncOp>(v.getParentRegion()->getParentOp()))
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!seen.insert(def).second)
      continue;
    // Linalg ops, reshapes, and pure ops (a decision's lowp.cast before it
    // is lowered).
    bool pure = def->getNumRegions() == 0 && isPure(def);
    if (!pure &&
        !isa<linalg::GenericOp, linalg::TransposeOp, tensor::EmptyOp,
             tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             arith::ConstantOp>(def))
      return false;
    if (auto l = dyn_cast<linalg::LinalgOp>(def))
      if (l.getNumParallelLoops() != l.getNumLoops())
        return false;
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

/// How a convolution's filter gets its new layout, if it can without a
/// transpose on every call: a constant is transposed now, a filter whose
/// moved dimensions have size 1 is reshaped, and one computed from
/// arguments alone is transposed once by the x86 `prepack` split
/// (`prepackedFilters`). Null when none applies.
Value permuteFilter(RewriterBase &rw, Location loc, Value filter,
                    ArrayRef<int64_t> perm, bool prepackedFilters) {
  auto type = cast<RankedTensorType>(filter.getType());
  if (!type.hasStaticShape())
    return {};
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), perm);
  auto newType = RankedTensorType::get(shape, type.getElementType());
  Attribute value;
  if (matchPattern(filter, m_Constant(&value)))
    if (TypedAttr permuted = transposeConstant(value, perm))
      return arith::ConstantOp::create(rw, loc, newType, permuted);
  if (transposeIsReshape(type.getShape(), perm)) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t i = 0, e = type.getRank(); i < e; ++i)
      all.front().push_back(i);
    Value flat = tensor::CollapseShapeOp::create(rw, loc, filter, all);
    return tensor::ExpandShapeOp::create(rw, loc, newType, flat, all);
  }
  if (prepackedFilters && computedFromArguments(filter))
    return createTranspose(rw, loc, filter, perm);
  return {};
}

/// The kinds of NCHW op this pass converts, with their NHWC forms.
template <typename NchwOp, typename NhwcOp>
struct NchwToNhwc : OpRewritePattern<NchwOp> {
  NchwToNhwc(MLIRContext *ctx, bool prepackedFilters,
             ArrayRef<int64_t> filterPerm)
      : OpRewritePattern<NchwOp>(ctx), prepackedFilters(prepackedFilters),
        filterPerm(filterPerm) {}

  LogicalResult matchAndRewrite(NchwOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1)
      return rw.notifyMatchFailure(op, "not a convolution on tensors");
    Location loc = op.getLoc();
    Value input = op.getDpsInputs()[0], window = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    if (!filterPerm.empty()) {
      window = permuteFilter(rw, loc, window, filterPerm, prepackedFilters);
      if (!window)
        return rw.notifyMatchFailure(op, "filter would be transposed per call");
    }
    Value nhwcInput = createTranspose(rw, loc, input, kToNhwc);
    Value nhwcInit = createTranspose(rw, loc, init, kToNhwc);
    // Discardable attributes carry over, but for the indexing maps linalg
    // memoizes on the op (the NCHW ones).
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (!attr.getName().strref().starts_with("linalg."))
        attrs.push_back(attr);
    attrs.push_back(rw.getNamedAttr("strides", op.getStridesAttr()));
    attrs.push_back(rw.getNamedAttr("dilations", op.getDilationsAttr()));
    auto nhwc = NhwcOp::create(rw, loc, TypeRange{nhwcInit.getType()},
                               ValueRange{nhwcInput, window},
                               ValueRange{nhwcInit}, attrs);
    rw.replaceOp(op, createTranspose(rw, loc, nhwc->getResult(0), kToNchw));
    return success();
  }

  bool prepackedFilters;
  ArrayRef<int64_t> filterPerm;
};

/// Whether `op` converts (all of a function's NCHW ops must).
bool isConvertible(Operation *op, bool prepackedFilters) {
  auto l = dyn_cast<linalg::LinalgOp>(op);
  if (!l || !l.hasPureTensorSemantics() ||
      !llvm::all_of(op->getOperandTypes(), [](Type t) {
        auto r = dyn_cast<RankedTensorType>(t);
        return r && r.hasStaticShape();
      }))
    return false;
  ArrayRef<int64_t> perm;
  if (isa<linalg::Conv2DNchwFchwOp>(op))
    perm = kToNhwc;
  else if (isa<linalg::DepthwiseConv2DNchwChwOp>(op))
    perm = kDepthwiseToHwc;
  else
    return isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op);
  Value filter = l.getDpsInputs()[1];
  auto type = cast<RankedTensorType>(filter.getType());
  return matchPattern(filter, m_Constant()) ||
         transposeIsReshape(type.getShape(), perm) ||
         (prepackedFilters && computedFromArguments(filter));
}

/// The ops whose layout this pass decides: NCHW convolutions and poolings.
/// Grouped convolutions have no NHWC kernel here; they keep the function
/// NCHW.
bool isNchwOp(Operation *op) {
  return isa<linalg::Conv2DNchwFchwOp, linalg::DepthwiseConv2DNchwChwOp,
             linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp,
             linalg::Conv2DNgchwFgchwOp,
             linalg::Conv2DNgchwGfchwOp, linalg::Conv2DNchwFchwQOp,
             linalg::Conv2DNgchwGfchwQOp>(op);
}

/// The map from a generic's loops in `order` (new loop i is old loop
/// order[i]) to its old loops.
AffineMap newLoopsToOld(ArrayRef<int64_t> order, MLIRContext *ctx) {
  SmallVector<unsigned> inverse(order.size());
  for (auto [i, old] : llvm::enumerate(order))
    inverse[old] = i;
  return AffineMap::getPermutationMap(inverse, ctx);
}

/// `op` over its loops in `order`, reading `inputs` and writing into `inits`
/// through `maps` (maps of the new loops); the payload is moved over, its
/// linalg.index ops renumbered.
linalg::GenericOp rebuildGeneric(RewriterBase &rw, linalg::GenericOp op,
                                 ArrayRef<int64_t> order, ValueRange inputs,
                                 ValueRange inits, ArrayRef<AffineMap> maps) {
  SmallVector<utils::IteratorType> iterators;
  for (int64_t old : order)
    iterators.push_back(op.getIteratorTypesArray()[old]);
  SmallVector<Type> resultTypes;
  for (Value init : inits)
    resultTypes.push_back(init.getType());
  auto generic = linalg::GenericOp::create(rw, op.getLoc(), resultTypes,
                                           inputs, inits, maps, iterators);
  generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rw.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                        generic.getRegion().end());
  SmallVector<int64_t> newIndex(order.size());
  for (auto [i, old] : llvm::enumerate(order))
    newIndex[old] = i;
  generic.getRegion().walk([&](linalg::IndexOp index) {
    rw.modifyOpInPlace(index, [&] { index.setDim(newIndex[index.getDim()]); });
  });
  return generic;
}

/// Whether the payload of `op` reads the value of init `operand`.
bool readsInit(linalg::GenericOp op, OpOperand &operand) {
  return op.payloadUsesValueFromOperand(&operand);
}

/// `map`, which reads a transpose by `perm`, reading its source instead
/// (source dimension j is the transpose's dimension inverse[j]).
AffineMap readSource(AffineMap map, ArrayRef<int64_t> perm) {
  SmallVector<AffineExpr> results;
  for (int64_t dim : invertPermutationVector(perm))
    results.push_back(map.getResult(dim));
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                        map.getContext());
}

/// A linalg.generic on tensors reading transposes of one permutation P
/// (the NHWC results of converted ops read as NCHW), every other operand
/// read in the loops' order being an init it does not read -> the generic
/// on the transposes' sources, its loops permuted so that it reads them in
/// order, its results written in order transposed by P after it. Broadcast
/// operands (a per-channel scale) and reductions' inits read through the
/// permuted loops. Stops at an operand read in the loops' order that is no
/// such transpose.
struct SinkTransposeThroughGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics())
      return rw.notifyMatchFailure(op, "not on tensors");
    std::optional<SmallVector<int64_t>> perm;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto t = operand.get().getDefiningOp<linalg::TransposeOp>();
      if (t && map.getNumResults() == map.getNumDims()) {
        if (perm && ArrayRef<int64_t>(*perm) != t.getPermutation())
          return rw.notifyMatchFailure(op, "transposes of different orders");
        perm = llvm::to_vector(t.getPermutation());
        continue;
      }
      if (!map.isPermutation())
        continue;
      if (!map.isIdentity())
        return rw.notifyMatchFailure(op, "an operand read permuted");
      if (!op.isDpsInit(&operand) || readsInit(op, operand))
        return rw.notifyMatchFailure(op, "an operand in order is no transpose");
    }
    if (!perm || isIdentityPermutation(*perm))
      return rw.notifyMatchFailure(op, "reads no transpose");
    SmallVector<int64_t> order = invertPermutationVector(*perm);
    AffineMap toOld = newLoopsToOld(order, getContext());
    SmallVector<Value> inputs, inits;
    SmallVector<AffineMap> maps;
    SmallVector<bool> transposedResult;
    Location loc = op.getLoc();
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      bool isInit = op.isDpsInit(&operand);
      Value value = operand.get();
      auto t = value.getDefiningOp<linalg::TransposeOp>();
      // The whole tensor changes layout: a result written into it is
      // transposed back after the generic.
      bool relayout = map.isIdentity();
      if (t && map.getNumResults() == map.getNumDims()) {
        value = t.getInput();
        maps.push_back(readSource(map, *perm).compose(toOld));
        relayout = true;
      } else if (map.isIdentity()) {
        value = tensor::EmptyOp::create(
            rw, loc,
            applyPermutation(tensor::getMixedSizes(rw, loc, value), order),
            getElementTypeOrSelf(value.getType()));
        maps.push_back(map);
      } else {
        maps.push_back(map.compose(toOld));
      }
      (isInit ? inits : inputs).push_back(value);
      if (isInit)
        transposedResult.push_back(relayout);
    }
    linalg::GenericOp generic =
        rebuildGeneric(rw, op, order, inputs, inits, maps);
    SmallVector<Value> results;
    for (auto [result, transposed] :
         llvm::zip(generic->getResults(), transposedResult))
      results.push_back(transposed ? createTranspose(rw, loc, result, *perm)
                                   : result);
    rw.replaceOp(op, results);
    return success();
  }
};

/// linalg.transpose by Q of a linalg.generic's only result, read by nothing
/// else, whose operands in the loops' order are transposes by Q's inverse
/// or inits it does not read (a convolution bias broadcast into the init,
/// the per-channel inputs of a batch norm) -> the generic computing the
/// transposed result directly, its loops permuted by Q.
struct HoistTransposeIntoGeneric : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp t,
                                PatternRewriter &rw) const override {
    auto op = t.getInput().getDefiningOp<linalg::GenericOp>();
    if (!op || !op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        !op->hasOneUse())
      return rw.notifyMatchFailure(t, "input is no single-use generic");
    SmallVector<int64_t> order = llvm::to_vector(t.getPermutation());
    SmallVector<int64_t> inverse = invertPermutationVector(order);
    AffineMap toOld = newLoopsToOld(order, getContext());
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(order.size(), getContext());
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *operand : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(operand);
      if (map.isPermutation()) {
        auto source = operand->get().getDefiningOp<linalg::TransposeOp>();
        if (!map.isIdentity() || !source ||
            source.getPermutation() != ArrayRef<int64_t>(inverse))
          return rw.notifyMatchFailure(t, "an input in order is no inverse "
                                          "transpose");
        inputs.push_back(source.getInput());
        maps.push_back(identity);
        continue;
      }
      inputs.push_back(operand->get());
      maps.push_back(map.compose(toOld));
    }
    OpOperand &init = op.getDpsInitsMutable()[0];
    if (!op.getMatchingIndexingMap(&init).isIdentity() || readsInit(op, init))
      return rw.notifyMatchFailure(t, "reads its init");
    maps.push_back(identity);
    Value empty = tensor::EmptyOp::create(
        rw, t.getLoc(), tensor::getMixedSizes(rw, t.getLoc(), t.getInit()),
        getElementTypeOrSelf(t.getInit().getType()));
    rw.setInsertionPoint(t);
    linalg::GenericOp generic =
        rebuildGeneric(rw, op, order, inputs, ValueRange{empty}, maps);
    rw.replaceOp(t, generic->getResults());
    rw.eraseOp(op);
    return success();
  }
};

/// tensor.pad of a transpose by P, by a value that does not depend on the
/// position -> the transpose of the pad of its source, padded where the
/// transpose puts the padded dimensions.
struct SinkTransposeThroughPad : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rw) const override {
    auto t = pad.getSource().getDefiningOp<linalg::TransposeOp>();
    Value padValue = pad.getConstantPaddingValue();
    if (!t || !padValue)
      return rw.notifyMatchFailure(pad, "no transpose padded by a constant");
    Location loc = pad.getLoc();
    if (pad.getRegion().isAncestor(padValue.getParentRegion())) {
      Operation *def = padValue.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>())
        return rw.notifyMatchFailure(pad, "pad value computed in the region");
      padValue = rw.clone(*def)->getResult(0);
    }
    ArrayRef<int64_t> perm = t.getPermutation();
    SmallVector<int64_t> inverse = invertPermutationVector(perm);
    SmallVector<OpFoldResult> low =
        applyPermutation(pad.getMixedLowPad(), inverse);
    SmallVector<OpFoldResult> high =
        applyPermutation(pad.getMixedHighPad(), inverse);
    auto padded = tensor::PadOp::create(rw, loc, Type(), t.getInput(), low,
                                        high, padValue, pad.getNofold());
    rw.replaceOp(pad, createTranspose(rw, loc, padded, perm));
    return success();
  }
};

/// A transpose of a transpose -> one transpose, or its source when the two
/// cancel.
struct FoldTransposePair : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp t,
                                PatternRewriter &rw) const override {
    auto inner = t.getInput().getDefiningOp<linalg::TransposeOp>();
    if (!inner)
      return rw.notifyMatchFailure(t, "input is no transpose");
    // t[i] = inner[perm[i]] = source[innerPerm[perm[i]]].
    SmallVector<int64_t> composed;
    for (int64_t dim : t.getPermutation())
      composed.push_back(inner.getPermutation()[dim]);
    if (isIdentityPermutation(composed)) {
      rw.replaceOp(t, inner.getInput());
      return success();
    }
    rw.replaceOp(t, createTranspose(rw, t.getLoc(), inner.getInput(),
                                    composed));
    return success();
  }
};

/// A transpose of a fill of a tensor.empty, or of a tensor.empty -> the
/// fill, or the empty tensor, in the transposed shape.
struct TransposeOfFill : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp t,
                                PatternRewriter &rw) const override {
    Value input = t.getInput();
    auto fill = input.getDefiningOp<linalg::FillOp>();
    if (fill)
      input = fill.getOutputs()[0];
    if (!input.getDefiningOp<tensor::EmptyOp>())
      return rw.notifyMatchFailure(t, "input is no fill of an empty tensor");
    Location loc = t.getLoc();
    Value empty = tensor::EmptyOp::create(
        rw, loc, tensor::getMixedSizes(rw, loc, t.getInit()),
        getElementTypeOrSelf(t.getInit().getType()));
    if (!fill) {
      rw.replaceOp(t, empty);
      return success();
    }
    rw.replaceOp(t, linalg::FillOp::create(rw, loc, fill.getInputs(), empty)
                        ->getResults());
    return success();
  }
};

/// A linalg.generic input that is a tensor.expand_shape adding only
/// dimensions of size 1, read at index 0 along them -> its source, read
/// without them. torch.export reshapes a batch norm's per-channel
/// parameters to [C, 1, 1]; NHWC, the channel is the last loop, and the
/// kernels' epilogues read such an operand as a vector only when the
/// channel is its last index.
struct ReadUnitExpandThroughSource : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics())
      return rw.notifyMatchFailure(op, "not on tensors");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs = op.getDpsInputs();
    bool changed = false;
    for (auto [i, input] : llvm::enumerate(inputs)) {
      auto expand = input.getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand || !expand.getResultType().hasStaticShape())
        continue;
      AffineMap map = maps[i];
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      SmallVector<AffineExpr> results;
      bool unitOnly = true;
      for (ReassociationIndices group : expand.getReassociationIndices()) {
        // The one position of the group that may index: the non-constant
        // one, else the first.
        std::optional<int64_t> kept;
        for (int64_t pos : group) {
          auto zero = dyn_cast<AffineConstantExpr>(map.getResult(pos));
          if (zero && zero.getValue() == 0)
            continue;
          if (kept) {
            unitOnly = false;
            break;
          }
          kept = pos;
        }
        for (int64_t pos : group)
          if (pos != kept.value_or(group.front()) && shape[pos] != 1)
            unitOnly = false;
        if (!unitOnly)
          break;
        results.push_back(map.getResult(kept.value_or(group.front())));
      }
      if (!unitOnly)
        continue;
      inputs[i] = expand.getSrc();
      maps[i] = AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                               getContext());
      changed = true;
    }
    if (!changed)
      return rw.notifyMatchFailure(op, "no input expanded by unit dimensions");
    rw.modifyOpInPlace(op, [&] {
      op.getInputsMutable().assign(inputs);
      op.setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

struct LowpConvertConvNchwToNhwcPass
    : lowp::impl::LowpConvertConvNchwToNhwcBase<
          LowpConvertConvNchwToNhwcPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<NchwToNhwc<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcFhwcOp>>(
        ctx, prepackedFilters, kToNhwc);
    patterns.add<NchwToNhwc<linalg::DepthwiseConv2DNchwChwOp,
                            linalg::DepthwiseConv2DNhwcHwcOp>>(
        ctx, prepackedFilters, kDepthwiseToHwc);
    patterns.add<NchwToNhwc<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>,
                 NchwToNhwc<linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp>>(
        ctx, prepackedFilters, ArrayRef<int64_t>());
    patterns.add<SinkTransposeThroughGeneric, HoistTransposeIntoGeneric,
                 SinkTransposeThroughPad, FoldTransposePair, TransposeOfFill,
                 ReadUnitExpandThroughSource>(ctx);
    FrozenRewritePatternSet frozen(std::move(patterns));
    root->walk([&](func::FuncOp func) {
      // Poolings alone gain nothing from NHWC worth two transposes.
      bool anyConvolution = false, all = true;
      double macs = 0;
      func.walk([&](Operation *op) {
        if (!isNchwOp(op))
          return;
        bool pooling =
            isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op);
        anyConvolution |= !pooling;
        all &= isConvertible(op, prepackedFilters);
        if (!pooling && all)
          macs += static_cast<double>(computeProduct(
              cast<linalg::LinalgOp>(op).getStaticLoopRanges()));
      });
      if (!anyConvolution || !all)
        return;
      // Converted on a copy first: the transposes left are the price.
      auto converted = cast<func::FuncOp>(func->clone());
      if (failed(applyPatternsGreedily(converted, frozen)))
        converted.emitRemark("lowp-convert-conv-nchw-to-nhwc: the "
                             "transposes did not settle");
      if (isWorthTransposes(converted, macs, macsPerTransposedElement))
        func.getBody().takeBody(converted.getBody());
      converted->erase();
    });
  }

  /// Whether the NHWC kernels' gain on `macs` multiply-adds pays for the
  /// activation transposes left in `converted` (the option's rationale is
  /// in Passes.td). Filter transposes are not counted: they run once, at
  /// compile time or in F_prepack.
  static bool isWorthTransposes(func::FuncOp converted, double macs,
                                double macsPerElement) {
    double elements = 0;
    converted.walk([&](linalg::TransposeOp t) {
      bool filterOnly = llvm::all_of(t->getUses(), [](OpOperand &use) {
        auto conv = dyn_cast<linalg::ConvolutionOpInterface>(use.getOwner());
        return conv && use.getOperandNumber() == 1;
      });
      if (!filterOnly)
        elements += cast<ShapedType>(t.getInit().getType()).getNumElements();
    });
    return elements * macsPerElement <= macs;
  }
};

} // namespace
