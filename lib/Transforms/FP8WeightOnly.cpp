//===- FP8WeightOnly.cpp - lowp-fp8-weight-only --------------------------===//
//
// Weight arguments of contractions stored as FP8 with a scale per output
// channel (policy=fp8-weights). The contraction reads the FP8 weight
// widened exactly; the channel's scale is divided out of its outputs,
// where it factors out of the sum.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPFP8WEIGHTONLY
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

/// The loop of the contraction `op` that is the output channel of its input
/// `operand`: the one parallel loop indexing `operand` and the output and
/// no other input (n of a matmul's B, m of its A).
static std::optional<unsigned> getOutputChannelLoop(linalg::LinalgOp op,
                                                    OpOperand &operand) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap mine = op.getMatchingIndexingMap(&operand);
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> channel;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel ||
        !mine.getResultPosition(getAffineDimExpr(loop, op.getContext())) ||
        !out.getResultPosition(getAffineDimExpr(loop, op.getContext())))
      continue;
    if (llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *other) {
          return other != &operand &&
                 op.getMatchingIndexingMap(other).isFunctionOfDim(loop);
        }))
      continue;
    if (channel)
      return std::nullopt;
    channel = loop;
  }
  return channel;
}

/// The dimension of the tensor `move` reads that becomes dimension `dim` of
/// its result, or nothing when no single one does (a broadcast dimension,
/// a reshape that splits or merges it with others).
static std::optional<int64_t> getSourceDim(Operation *move, int64_t dim) {
  if (isa<CastOp, tensor::CastOp>(move))
    return dim;
  if (auto transpose = dyn_cast<linalg::TransposeOp>(move))
    return transpose.getPermutation()[dim];
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(move)) {
    ArrayRef<int64_t> added = broadcast.getDimensions();
    if (llvm::is_contained(added, dim))
      return std::nullopt;
    return dim - llvm::count_if(added, [&](int64_t d) { return d < dim; });
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(move)) {
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    for (auto [source, group] :
         llvm::enumerate(expand.getReassociationIndices()))
      if (llvm::is_contained(group, dim))
        return llvm::all_of(group,
                            [&](int64_t d) { return d == dim || shape[d] == 1; })
                   ? std::optional<int64_t>(source)
                   : std::nullopt;
    return std::nullopt;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(move)) {
    ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
    ReassociationIndices group = collapse.getReassociationIndices()[dim];
    SmallVector<int64_t> wide;
    for (int64_t d : group)
      if (shape[d] != 1)
        wide.push_back(d);
    if (wide.size() > 1)
      return std::nullopt;
    return wide.empty() ? group.front() : wide.front();
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(move)) {
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    auto loop = dyn_cast<AffineDimExpr>(maps[1].getResult(dim));
    if (!loop)
      return std::nullopt;
    std::optional<unsigned> source = maps[0].getResultPosition(loop);
    if (!source)
      return std::nullopt;
    return *source;
  }
  return std::nullopt;
}

namespace {

/// One read of a weight argument: a contraction input, the moves from the
/// argument to it (outermost first) and the argument's channel dimension.
struct WeightRead {
  linalg::LinalgOp op;
  unsigned operand;
  unsigned channelLoop;
  SmallVector<Operation *> moves;
  /// The operand's type before the argument is retyped.
  Type operandType;
};

struct LowpFP8WeightOnlyPass
    : lowp::impl::LowpFP8WeightOnlyBase<LowpFP8WeightOnlyPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(module, target);
    if (failed(resolved))
      return signalPassFailure();
    if (!target.empty())
      LowpDialect::TargetAttrHelper(&getContext())
          .setAttr(module, TargetAttr::get(&getContext(), target));
    // Storage only: the E4M3 of the chip's FP8 flavour, OCP's where the
    // chip has no FP8 at all.
    std::optional<Format> e4m3 =
        *resolved ? (*resolved)->getE4M3() : std::nullopt;
    fp8 = getFloatType(&getContext(), e4m3 ? *e4m3 : Format::F8E4M3FN);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (!func.isExternal())
        processFunction(func);
  }

private:
  FloatType fp8;

  void remark(func::FuncOp func, BlockArgument arg, const Twine &message) {
    emitDecisionRemark(arg.getLoc(), DecisionCategory::FP8WeightOnly,
                       "WeightArgument", func.getName(),
                       "argument #" + Twine(arg.getArgNumber()) + " of @" +
                           func.getName() + " " + message,
                       remarks);
  }

  static std::string describe(Operation *op) {
    return (op->getName().getStringRef() + " at " +
            printReportLocation(op->getLoc()))
        .str();
  }

  /// The reads of `arg` when every one is a contraction input with an
  /// output channel that maps to one dimension of `arg` (the same for every
  /// read), that dimension in `axis`; else a remark (when a matrix op reads
  /// it at all) and failure.
  FailureOr<SmallVector<WeightRead>> getWeightReads(func::FuncOp func,
                                                    BlockArgument arg,
                                                    int64_t &axis) {
    // A front end's role mark says what the argument is; without one, a
    // weight is what linalg's matrix ops and the front ends put second (B
    // of A * B, a convolution's filter), an activation first.
    std::optional<TensorRole> role;
    if (auto mark = getValueMark<TensorRoleAttr>(
            arg, LowpDialect::RoleAttrHelper::getNameStr()))
      role = mark.getValue();
    if (role && *role != TensorRole::Weight)
      return failure();
    SmallVector<OpOperand *> uses;
    forEachReadThroughMoves(arg, [&](OpOperand &use) { uses.push_back(&use); });
    if (!role && !llvm::any_of(uses, [](OpOperand *use) {
          auto dps = dyn_cast<DestinationStyleOpInterface>(use->getOwner());
          return isMatrixInput(*use) &&
                 use != dps.getDpsInputOperand(0);
        }))
      return failure();
    if (uses.empty() || !llvm::any_of(uses, [](OpOperand *use) {
          return isMatrixInput(*use);
        }))
      return failure();
    std::string current;
    llvm::raw_string_ostream os(current);
    arg.getType().print(os);
    auto keep = [&](const Twine &why) {
      remark(func, arg, "stays " + current + ": " + why);
      return failure();
    };
    SmallVector<WeightRead> reads;
    std::optional<int64_t> argAxis;
    for (OpOperand *use : uses) {
      Operation *user = use->getOwner();
      auto op = dyn_cast<linalg::LinalgOp>(user);
      if (!op || !isMatrixInput(*use))
        return keep("it is also read by " + describe(user));
      if (!linalg::isaContractionOpInterface(op) ||
          !op.hasPureTensorSemantics())
        return keep(describe(op) + " is not a contraction on tensors "
                                   "(convolution filters keep their format)");
      auto accumulator = dyn_cast<FloatType>(
          getElementTypeOrSelf(op.getDpsInits()[0].getType()));
      if (!accumulator || accumulator.getWidth() > 32)
        return keep(describe(op) + " accumulates in " +
                    (accumulator ? "a format wider than f32" : "integers"));
      if (getPinnedPrecision(op) || op->getParentOfType<IslandOp>())
        return keep(describe(op) + " keeps its precision (pinned or in an "
                                   "FP32 island)");
      std::optional<unsigned> channel = getOutputChannelLoop(op, *use);
      if (!channel)
        return keep(describe(op) + " has no single output channel for it");
      WeightRead read{op, use->getOperandNumber(), *channel, {},
                      use->get().getType()};
      std::optional<int64_t> dim =
          op.getMatchingIndexingMap(use).getResultPosition(
              getAffineDimExpr(*channel, op.getContext()));
      for (Value v = use->get(); v != arg;) {
        Operation *move = v.getDefiningOp();
        if (!isa<CastOp>(move) && !getElementPreservingMoveSource(move))
          return keep("a " + move->getName().getStringRef().str() +
                      " between it and " + describe(op) +
                      " reads part of it");
        read.moves.push_back(move);
        if (dim)
          dim = getSourceDim(move, *dim);
        v = getMovedTensor(move);
      }
      std::reverse(read.moves.begin(), read.moves.end());
      if (!dim)
        return keep("a layout move between it and " + describe(op) +
                    " splits or merges its output channel");
      if (argAxis && *argAxis != *dim)
        return keep("its matrix ops' output channels are different "
                    "dimensions of it");
      argAxis = dim;
      reads.push_back(std::move(read));
    }
    axis = *argAxis;
    return reads;
  }

  void processFunction(func::FuncOp func) {
    Block &entry = func.getBody().front();
    bool called = !SymbolTable::symbolKnownUseEmpty(func, getOperation());
    IRRewriter rewriter(&getContext());
    unsigned numOriginal = func.getNumArguments();
    for (unsigned index = 0; index < numOriginal; ++index) {
      BlockArgument arg = entry.getArgument(index);
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      FloatType element = getFloatElementType(arg.getType());
      if (!tensor || !element || element.getWidth() <= 8 ||
          !tensor.hasStaticShape())
        continue;
      int64_t axis = 0;
      FailureOr<SmallVector<WeightRead>> reads =
          getWeightReads(func, arg, axis);
      if (failed(reads))
        continue;
      if (called) {
        remark(func, arg, "stays: @" + func.getName().str() +
                              " is called in the module (FP8 weight "
                              "arguments are for entry functions)");
        continue;
      }
      rewriteArgument(rewriter, func, arg, axis, *reads);
    }
    rewriter.modifyOpInPlace(func, [&] {
      func.setFunctionType(rewriter.getFunctionType(entry.getArgumentTypes(),
                                                    func.getResultTypes()));
    });
  }

  void rewriteArgument(IRRewriter &rewriter, func::FuncOp func,
                       BlockArgument arg, int64_t axis,
                       ArrayRef<WeightRead> reads) {
    auto tensor = cast<RankedTensorType>(arg.getType());
    unsigned index = arg.getArgNumber();
    unsigned scaleIndex = func.getNumArguments();
    auto scaleType =
        RankedTensorType::get({tensor.getDimSize(axis)}, rewriter.getF32Type());
    (void)func.insertArgument(
        scaleIndex, scaleType,
        rewriter.getDictionaryAttr({rewriter.getNamedAttr(
            LowpDialect::Fp8ScaleOfAttrHelper::getNameStr(),
            rewriter.getI64IntegerAttr(index))}),
        arg.getLoc());
    Value scale = func.getArgument(scaleIndex);
    func.setArgAttr(index, LowpDialect::Fp8ScaleAttrHelper::getNameStr(),
                    rewriter.getI64IntegerAttr(scaleIndex));
    func.setArgAttr(index, LowpDialect::Fp8AxisAttrHelper::getNameStr(),
                    rewriter.getI64IntegerAttr(axis));
    rewriter.modifyOpInPlace(
        func, [&] { arg.setType(withFloatElementType(tensor, fp8)); });

    // Every move on the way is redone on the FP8 elements once, right
    // before its original; the wide ones die with their readers.
    DenseMap<Operation *, Value> redone;
    SmallVector<Operation *> dead;
    for (const WeightRead &read : reads) {
      Value moved = arg;
      for (Operation *move : read.moves) {
        auto [it, inserted] = redone.try_emplace(move, Value());
        if (inserted) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPoint(move);
          it->second = redoMoveOn(rewriter, move, moved);
          dead.push_back(move);
        }
        moved = it->second;
      }
      rewriteContraction(rewriter, read, moved, scale);
    }
    // Readers first: the moves die in reverse order of creation.
    for (Operation *move : llvm::reverse(dead))
      if (move->use_empty())
        rewriter.eraseOp(move);

    std::string type;
    llvm::raw_string_ostream os(type);
    arg.getType().print(os);
    remark(func, arg,
           "takes " + type + ", one scale per index of dimension " +
               Twine(axis) + " in argument #" + Twine(scaleIndex));
  }

  /// `read.op` on the FP8 weight `weight` (widened exactly to the operand's
  /// format) into zeros; then every output divided by its channel's scale,
  /// plus the original accumulator unless that was a zero fill.
  void rewriteContraction(IRRewriter &rewriter, const WeightRead &read,
                          Value weight, Value scale) {
    linalg::LinalgOp op = read.op;
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value wide = CastOp::create(rewriter, loc, read.operandType, weight);
    OpOperand *initOperand = op.getDpsInitOperand(0);
    Value init = initOperand->get();
    auto initType = cast<RankedTensorType>(init.getType());
    Type accElement = initType.getElementType();
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(accElement));
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), accElement);
    Value zeros =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    Operation *product = rewriter.clone(*op);
    product->setOperand(read.operand, wide);
    product->setOperand(initOperand->getOperandNumber(), zeros);

    // The channel's position among the output's dimensions.
    AffineMap outMap = op.getMatchingIndexingMap(initOperand);
    unsigned outDim = *outMap.getResultPosition(
        getAffineDimExpr(read.channelLoop, op.getContext()));
    unsigned rank = initType.getRank();
    auto linalgFill = init.getDefiningOp<linalg::FillOp>();
    bool zeroInit = linalgFill && matchPattern(linalgFill.getInputs()[0],
                                               m_AnyZeroFloat());
    SmallVector<Value> inputs{product->getResult(0), scale};
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps{
        identity, AffineMap::get(rank, 0,
                                 getAffineDimExpr(outDim, op.getContext()))};
    if (!zeroInit) {
      inputs.push_back(init);
      maps.push_back(identity);
    }
    maps.push_back(identity);
    Value out = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), accElement);
    auto f32 = rewriter.getF32Type();
    auto scaled = linalg::GenericOp::create(
        rewriter, loc, TypeRange{initType}, inputs, ValueRange{out}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          auto toF32 = [&](Value v) -> Value {
            return v.getType() == f32 ? v
                                      : arith::ExtFOp::create(b, nloc, f32, v)
                                            .getResult();
          };
          Value result = arith::DivFOp::create(b, nloc, toF32(args[0]),
                                               args[1]);
          if (!zeroInit)
            result = arith::AddFOp::create(b, nloc, toF32(args[2]), result);
          if (accElement != f32)
            result = arith::TruncFOp::create(b, nloc, accElement, result);
          linalg::YieldOp::create(b, nloc, result);
        });
    rewriter.replaceOp(op, scaled.getResult(0));
  }
};

} // namespace
