//===- SelectFP8Formats.cpp - FP8 operands for matrix ops -----------------===//
//
// Implements `lowp-select-fp8-formats`: per-tensor FP8 format choice (the
// math is lowp/Analysis/FP8Selection.h), scale materialization (static,
// current, delayed) and the matrix-op rewrite with the dequantization folded
// into one multiply of the f32 accumulator.
//
//===----------------------------------------------------------------------===//

#include "lowp/IR/TargetResolution.h"
#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/Analysis/FP8Selection.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/TrainingStep.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPSELECTFP8FORMATS
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

//===----------------------------------------------------------------------===//
// Reading marks from the IR
//===----------------------------------------------------------------------===//

/// The ops of the backward pass: everything computed from a training step's
/// loss seed (docs/training-step.md), the seed included.
llvm::SetVector<Operation *> getBackwardOps(FunctionOpInterface func) {
  llvm::SetVector<Operation *> backward;
  func.walk([&](Operation *op) {
    if (!op->hasAttr(training::kLossSeedAttr) || backward.contains(op))
      return;
    backward.insert(op);
    getForwardSlice(op, &backward);
  });
  return backward;
}

/// The role marked on `value` (lowp.role), else a gradient for backward-pass
/// values (computed from the loss seed, or marked lowp.gradient), a weight
/// for constants and an activation for everything else.
TensorRole getRole(Value value,
                   const llvm::SetVector<Operation *> &backwardOps) {
  for (Value v : {value, lookThroughNarrowingCast(value)})
    if (auto role =
            getValueMark<TensorRoleAttr>(v, LowpDialect::RoleAttrHelper::getNameStr()))
      return role.getValue();
  for (Value v : {value, lookThroughNarrowingCast(value)})
    if (Operation *def = v.getDefiningOp())
      if (backwardOps.contains(def) || def->hasAttr(training::kGradientAttr))
        return TensorRole::Gradient;
  if (matchPattern(lookThroughNarrowingCast(value), m_Constant()))
    return TensorRole::Weight;
  return TensorRole::Activation;
}

std::optional<TensorStatistics> getTensorStatistics(Value value) {
  for (Value v : {value, lookThroughNarrowingCast(value)})
    if (auto stats =
            getValueMark<StatsAttr>(v, LowpDialect::StatsAttrHelper::getNameStr())) {
      TensorStatistics result{stats.getAmaxValue(), stats.getMinValue()};
      if (DenseI64ArrayAttr histogram = stats.getHistogram()) {
        result.histogram.assign(histogram.asArrayRef().begin(),
                                histogram.asArrayRef().end());
        result.lowestBinade = (int)stats.getLowestBinade().value_or(0);
      }
      return result;
    }
  return std::nullopt;
}

/// Why `op` cannot take FP8 operands here, or empty when it can.
std::string getUnsupportedReason(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return "not a linalg op on tensors";
  if (linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1)
    return "not a two-operand matrix op";
  for (Value v : linalgOp->getOperands())
    if (!isa<RankedTensorType>(v.getType()) || !getFloatElementType(v.getType()))
      return "operands are not ranked float tensors";
  if (!getFloatElementType(linalgOp.getDpsInits()[0].getType()).isF32())
    return "accumulator is not f32";
  return "";
}

//===----------------------------------------------------------------------===//
// The decision report
//===----------------------------------------------------------------------===//

struct ReportEntry {
  std::string function, op, location;
  int operand = -1; ///< -1: the entry is about the whole op
  std::string role, format, action, reason;
  std::optional<TensorStatistics> stats;
  std::optional<double> scale;
  double binadesNeeded = 0, binadesE4M3 = 0, binadesE5M2 = 0;
  std::optional<double> errorE4M3, errorE5M2, errorBound;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// One quantized tensor, shared by every matrix op that reads it.
struct QuantizedTensor {
  Value quantized;
  Value scale;
  std::optional<double> constantScale;
};

struct SelectFP8FormatsPass
    : lowp::impl::LowpSelectFP8FormatsBase<SelectFP8FormatsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult processFunction(func::FuncOp func, const TargetInfo &target);
  /// lowp.cast of an arith.constant left by inference (matrix-constants-wide)
  /// becomes the rounded constant; unused ones and their constants go.
  void foldCastsOfConstants(ModuleOp module);
  /// Quantizes `value` (once per tensor and format) and returns it with its
  /// scale; null on failure (diagnosed).
  FailureOr<QuantizedTensor> quantize(IRRewriter &rewriter, func::FuncOp func,
                                      Value value, const FP8Decision &decision,
                                      FloatType fp8Type);
  void rewriteMatrixOp(IRRewriter &rewriter, linalg::LinalgOp op,
                       ArrayRef<QuantizedTensor> operands);
  void record(ReportEntry entry, Location loc, StringRef function);
  LogicalResult writeReport();
  /// demote-weights=arguments: arguments read only through quantizations
  /// to one FP8 format become FP8, with their scale.
  void demoteWeightArguments(IRRewriter &rewriter, func::FuncOp func);
  /// True when every read of `value` is an input of a matrix op planned to
  /// read it as `fp8Type`, directly or through narrowing casts and
  /// element-preserving moves.
  bool isReadOnlyAsFP8(Value value, Type fp8Type);

  /// Per tensor and FP8 type, its quantization.
  llvm::DenseMap<std::pair<Value, Type>, QuantizedTensor> quantized;
  /// The matrix ops of the function being processed that will read FP8,
  /// with the FP8 type of each input.
  llvm::DenseMap<Operation *, SmallVector<Type, 2>> plannedFP8;
  /// The last op quantizing a block argument, per block.
  llvm::DenseMap<Block *, Operation *> blockStartEnd;
  /// Delayed scaling: per function, each history argument and its update.
  llvm::MapVector<Operation *, SmallVector<std::pair<BlockArgument, Value>>>
      historyUpdates;
  std::vector<ReportEntry> entries;
  /// Matrix FLOPs (2 x iterations of ops with static shapes) seen, and
  /// those now on FP8 operands.
  int64_t matrixFlops = 0, fp8Flops = 0;
};

void SelectFP8FormatsPass::record(ReportEntry entry, Location loc,
                                  StringRef function) {
  emitDecisionRemark(
      loc, DecisionCategory::FP8, "FP8Format", function,
      llvm::formatv("{0}{1}: {2} ({3})", entry.op,
                    entry.operand >= 0
                        ? llvm::formatv(" operand #{0}", entry.operand).str()
                        : std::string(),
                    entry.format, entry.reason),
      /*asDiagnostic=*/false);
  entries.push_back(std::move(entry));
}

/// 2 x the iteration count of a linalg matrix op with static loop ranges,
/// 0 otherwise.
static int64_t getMatrixFlops(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return 0;
  int64_t iterations = 1;
  for (int64_t range : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    iterations *= range;
  }
  return 2 * iterations;
}

/// True when `value` is a narrowed copy moved by element-preserving moves:
/// its wide elements exist only before a narrowing lowp.cast, so
/// quantizing `value` itself would round twice.
static bool isMovedNarrowingCast(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto cast = dyn_cast<CastOp>(def))
      return !cast.isWidening();
    value = getElementPreservingMoveSource(def);
    if (!value)
      return false;
  }
  return false;
}

bool SelectFP8FormatsPass::isReadOnlyAsFP8(Value value, Type fp8Type) {
  return llvm::all_of(value.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    auto planned = plannedFP8.find(user);
    if (planned != plannedFP8.end()) {
      auto dps = cast<DestinationStyleOpInterface>(user);
      return dps.isDpsInput(&use) &&
             planned->second[use.getOperandNumber()] == fp8Type;
    }
    auto cast = dyn_cast<CastOp>(user);
    if ((cast && !cast.isWidening()) ||
        getElementPreservingMoveSource(user) == value)
      return isReadOnlyAsFP8(user->getResult(0), fp8Type);
    return false;
  });
}

FailureOr<QuantizedTensor>
SelectFP8FormatsPass::quantize(IRRewriter &rewriter, func::FuncOp func,
                               Value value, const FP8Decision &decision,
                               FloatType fp8Type) {
  auto key = std::make_pair(value, Type(fp8Type));
  if (auto it = quantized.find(key); it != quantized.end())
    return it->second;
  auto remember = [&](QuantizedTensor q) {
    quantized[key] = q;
    return q;
  };
  // The widest available form: f32 -> fp8 rounds once.
  if (auto cast = value.getDefiningOp<CastOp>(); cast && !cast.isWidening()) {
    FailureOr<QuantizedTensor> wide =
        quantize(rewriter, func, cast.getInput(), decision, fp8Type);
    if (failed(wide))
      return failure();
    return remember(*wide);
  }
  // Before the layout moves, so that they move 8-bit elements (torch-mlir
  // transposes every nn.Linear weight): where the moved tensor exists only
  // for FP8 reads of this format, or is a moved narrowing cast (quantizing
  // it would round twice; the wide moved tensor does not exist). Otherwise
  // the moved tensor has another reader and is quantized where it is.
  Operation *move = value.getDefiningOp();
  if (Value moved = getElementPreservingMoveSource(move);
      moved && (isMovedNarrowingCast(value) || isReadOnlyAsFP8(value, fp8Type))) {
    FailureOr<QuantizedTensor> before =
        quantize(rewriter, func, moved, decision, fp8Type);
    if (failed(before))
      return failure();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(move);
    QuantizedTensor result = *before;
    result.quantized = redoMoveOn(rewriter, move, before->quantized);
    return remember(result);
  }
  Value source = value;

  OpBuilder::InsertionGuard guard(rewriter);
  // Right after the value, so it dominates every use; block arguments are
  // quantized at the block's start in operand order.
  auto arg = dyn_cast<BlockArgument>(source);
  Operation *lastAtStart = arg ? blockStartEnd.lookup(arg.getOwner()) : nullptr;
  if (lastAtStart)
    rewriter.setInsertionPointAfter(lastAtStart);
  else
    rewriter.setInsertionPointAfterValue(source);
  Location loc = source.getLoc();
  auto f32 = rewriter.getF32Type();
  QuantizedTensor result;
  switch (scaling) {
  case FP8Scaling::Static: {
    if (!decision.scale) {
      emitError(value.getLoc()) << "static FP8 scaling needs #lowp.stats for "
                                   "this tensor; calibrate it "
                                   "(lowp-instrument-calibration) or use "
                                   "scaling=current or scaling=delayed";
      return failure();
    }
    // The scale is an f32 operand; round the exact double once.
    float scale = static_cast<float>(*decision.scale);
    result.constantScale = scale;
    result.scale = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getF32FloatAttr(scale));
    break;
  }
  case FP8Scaling::Current: {
    Value amax = AmaxOp::create(rewriter, loc, source);
    result.scale = ComputeScaleOp::create(rewriter, loc, amax, fp8Type,
                                          margin, AmaxCompute::Max);
    break;
  }
  case FP8Scaling::Delayed: {
    if (!SymbolTable::symbolKnownUseEmpty(func, getOperation())) {
      func.emitError() << "delayed FP8 scaling adds amax-history state to the "
                          "signature of @"
                       << func.getSymName()
                       << ", which has uses in this module";
      return failure();
    }
    auto historyType = RankedTensorType::get({(int64_t)amaxHistory}, f32);
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(
            index, historyType,
            rewriter.getDictionaryAttr(
                {rewriter.getNamedAttr(LowpDialect::AmaxHistoryAttrHelper::getNameStr(),
                                       TypeAttr::get(fp8Type))}),
            loc)))
      return failure();
    BlockArgument history = func.getArgument(index);
    result.scale = ComputeScaleOp::create(rewriter, loc, history, fp8Type,
                                          margin, amaxCompute);
    Value amax = AmaxOp::create(rewriter, loc, source);
    Value updated = PushAmaxOp::create(rewriter, loc, history, amax);
    historyUpdates[func].push_back({history, updated});
    break;
  }
  }
  Type quantizedType = withFloatElementType(source.getType(), fp8Type);
  result.quantized =
      QuantizeOp::create(rewriter, loc, quantizedType, source, result.scale);
  if (arg)
    blockStartEnd[arg.getOwner()] = result.quantized.getDefiningOp();
  return remember(result);
}

/// `op` on the quantized operands with a zero f32 accumulator, then one
/// epilogue: `result = round(acc * (1 / (sa * sb)) [+ init])`.
void SelectFP8FormatsPass::rewriteMatrixOp(
    IRRewriter &rewriter, linalg::LinalgOp op,
    ArrayRef<QuantizedTensor> operands) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value init = op.getDpsInits()[0];
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type f32 = rewriter.getF32Type();

  // A zero-filled init adds nothing; any other init is added after scaling.
  bool zeroInit = false;
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    zeroInit = matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, init);
  Value accInit = init;
  if (!zeroInit) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, f32);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(f32));
    accInit = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  }

  // The same op on FP8 operands: its body widens them to what it expects.
  Operation *fp8Op = rewriter.clone(*op);
  rewriter.modifyOpInPlace(fp8Op, [&] {
    fp8Op->setOperands(
        {operands[0].quantized, operands[1].quantized, accInit});
    fp8Op->getResult(0).setType(accInit.getType());
  });
  Block &body = fp8Op->getRegion(0).front();
  for (unsigned i = 0; i < 2; ++i) {
    BlockArgument arg = body.getArgument(i);
    Type expected = arg.getType();
    Type fp8Element =
        getFloatElementType(operands[i].quantized.getType());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&body);
    rewriter.modifyOpInPlace(fp8Op, [&] { arg.setType(fp8Element); });
    // Extensions the body already has now start from the FP8 value: the
    // body a named op builds for FP8 operands (and rebuilds when its IR is
    // printed and parsed). Other users read it widened to what they read.
    Value widened;
    for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
      if (isa<arith::ExtFOp>(use.getOwner()))
        continue;
      if (!widened)
        widened = arith::ExtFOp::create(rewriter, loc, expected, arg);
      rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(widened); });
    }
  }
  Value acc = fp8Op->getResult(0);

  // The one dequantization multiplier.
  Value inverse;
  if (operands[0].constantScale && operands[1].constantScale) {
    double product = *operands[0].constantScale * *operands[1].constantScale;
    inverse = arith::ConstantOp::create(
        rewriter, loc, rewriter.getF32FloatAttr(float(1.0 / product)));
  } else {
    Value product =
        arith::MulFOp::create(rewriter, loc, operands[0].scale,
                              operands[1].scale);
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getF32FloatAttr(1.0f));
    inverse = arith::DivFOp::create(rewriter, loc, one, product);
  }

  int64_t rank = resultType.getRank();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, rewriter.getContext());
  SmallVector<Value> inputs = {acc, inverse};
  SmallVector<AffineMap> maps = {identity, scalar};
  if (!zeroInit) {
    inputs.push_back(init);
    maps.push_back(identity);
  }
  maps.push_back(identity);
  Value out = tensor::EmptyOp::create(rewriter, loc, sizes,
                                      resultType.getElementType());
  auto epilogue = linalg::GenericOp::create(
      rewriter, loc, TypeRange{resultType}, inputs, ValueRange{out}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location nloc, ValueRange args) {
        Value r = arith::MulFOp::create(b, nloc, args[0], args[1]);
        if (!zeroInit)
          r = arith::AddFOp::create(b, nloc, r, args[2]);
        Type element = resultType.getElementType();
        if (element != r.getType())
          r = arith::TruncFOp::create(b, nloc, element, r);
        linalg::YieldOp::create(b, nloc, r);
      });
  rewriter.replaceOp(op, epilogue.getResults());
}

LogicalResult SelectFP8FormatsPass::processFunction(func::FuncOp func,
                                                    const TargetInfo &target) {
  SmallVector<Operation *> matrixOps;
  func.walk([&](Operation *op) {
    if (op->getParentOfType<IslandOp>() || !isMatrixOp(op))
      return;
    matrixOps.push_back(op);
  });

  FP8SelectionOptions options;
  options.recipe = recipe;
  options.margin = margin;
  options.allowBF16Fallback = allowBF16Fallback;
  options.maxRelativeError = maxError;

  MLIRContext *ctx = &getContext();
  IRRewriter rewriter(ctx);
  llvm::SetVector<Operation *> backwardOps = getBackwardOps(func);
  std::string funcName = func.getSymName().str();
  plannedFP8.clear();
  SmallVector<std::pair<linalg::LinalgOp, SmallVector<FP8Decision>>> planned;
  for (size_t index = 0, e = matrixOps.size(); index < e; ++index) {
    Operation *op = matrixOps[index];
    ReportEntry opEntry;
    opEntry.function = funcName;
    opEntry.op = op->getName().getStringRef().str();
    // Printing a location is most of this pass's cost on large modules:
    // only the JSON report needs it.
    if (!report.empty())
      opEntry.location = printReportLocation(op->getLoc());
    opEntry.action = "kept";
    int64_t flops = getMatrixFlops(op);
    matrixFlops += flops;
    auto keep = [&](std::string format, std::string reason) {
      opEntry.format = std::move(format);
      opEntry.reason = std::move(reason);
      record(opEntry, op->getLoc(), func.getSymName());
    };

    // Already on FP8 operands: a previous run rewrote it.
    if (llvm::any_of(op->getOperandTypes(), isEightBitFloat)) {
      fp8Flops += flops;
      continue;
    }
    if (FloatType pinned = getPinnedPrecision(op)) {
      std::string type;
      llvm::raw_string_ostream os(type);
      pinned.print(os);
      keep(type, "pinned by lowp.precision");
      continue;
    }
    if (firstLastBF16 && (index == 0 || index + 1 == matrixOps.size())) {
      keep("16-bit", index == 0 ? "first matrix op (first-last-bf16)"
                                : "last matrix op (first-last-bf16)");
      continue;
    }
    std::string unsupported = getUnsupportedReason(op);
    if (!unsupported.empty()) {
      keep("unchanged", unsupported);
      continue;
    }

    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (recipe == FP8Recipe::Hybrid && !fp8Attention &&
        !llvm::any_of(linalgOp.getDpsInputs(), [&](Value input) {
          return isParameterLike(input) ||
                 getRole(input, backwardOps) == TensorRole::Gradient;
        })) {
      keep("16-bit", "product of two computed activations (attention); "
                     "fp8-attention=true makes it FP8");
      continue;
    }
    SmallVector<FP8Decision> decisions;
    std::vector<ReportEntry> operandEntries;
    for (auto [i, operand] : llvm::enumerate(linalgOp.getDpsInputs())) {
      TensorRole role = getRole(operand, backwardOps);
      std::optional<TensorStatistics> stats = getTensorStatistics(operand);
      llvm::Expected<FP8Decision> decision =
          selectFP8Format(target, role, stats, options);
      if (!decision) {
        op->emitError() << llvm::toString(decision.takeError());
        return failure();
      }
      ReportEntry entry = opEntry;
      entry.operand = i;
      entry.role = stringifyTensorRole(role).str();
      entry.format = stringifyFormat(decision->format).str();
      entry.reason = decision->reason;
      entry.stats = stats;
      entry.scale = decision->scale;
      entry.binadesNeeded = decision->binadesNeeded;
      entry.binadesE4M3 = decision->binadesE4M3;
      entry.binadesE5M2 = decision->binadesE5M2;
      entry.errorE4M3 = decision->errorE4M3;
      entry.errorE5M2 = decision->errorE5M2;
      entry.errorBound = decision->errorBound;
      decisions.push_back(*decision);
      operandEntries.push_back(std::move(entry));
    }
    bool allFP8 = llvm::all_of(
        decisions, [](const FP8Decision &d) { return d.isFP8(); });
    for (ReportEntry &entry : operandEntries) {
      entry.action = allFP8 ? "fp8" : "kept";
      if (!allFP8 && entry.format != "bf16")
        entry.reason += "; the op stays at 16 bits (another operand needs bf16)";
      record(entry, op->getLoc(), func.getSymName());
    }
    if (!allFP8)
      continue;
    fp8Flops += flops;
    SmallVector<Type, 2> &types = plannedFP8[op];
    for (const FP8Decision &decision : decisions)
      types.push_back(getFloatType(ctx, decision.format));
    planned.emplace_back(linalgOp, std::move(decisions));
  }

  // Every decision is known before the first rewrite, so that a quantization
  // moves above a transpose only where every reader of the transposed
  // tensor reads it as that FP8 type.
  for (auto &[linalgOp, decisions] : planned) {
    SmallVector<QuantizedTensor> operands;
    for (auto [operand, decision] :
         llvm::zip(linalgOp.getDpsInputs(), decisions)) {
      FailureOr<QuantizedTensor> q = quantize(
          rewriter, func, operand, decision,
          getFloatType(ctx, decision.format));
      if (failed(q))
        return failure();
      operands.push_back(*q);
    }
    SmallVector<Operation *> lookedThrough;
    for (Value input : linalgOp.getDpsInputs())
      if (Operation *def = input.getDefiningOp())
        lookedThrough.push_back(def);
    plannedFP8.erase(linalgOp);
    rewriteMatrixOp(rewriter, linalgOp, operands);
    // The narrowing casts and moves that were looked through are dead now
    // unless something else reads them.
    for (unsigned i = 0; i < lookedThrough.size(); ++i) {
      Operation *dead = lookedThrough[i];
      if (!dead->use_empty() ||
          !(isa<CastOp, tensor::EmptyOp>(dead) ||
            getElementPreservingMoveSource(dead)))
        continue;
      SmallVector<Value> operands(dead->getOperands());
      rewriter.eraseOp(dead);
      for (Value operand : operands) {
        Operation *producer = operand.getDefiningOp();
        if (producer && !llvm::is_contained(lookedThrough, producer))
          lookedThrough.push_back(producer);
      }
    }
  }

  // Delayed scaling: each updated history becomes a result of the function.
  auto updates = historyUpdates.find(func);
  if (updates == historyUpdates.end())
    return success();
  DominanceInfo dominance(func);
  SmallVector<Value> newResults;
  for (auto &[history, updated] : updates->second)
    newResults.push_back(updated);
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    for (Value v : newResults)
      if (!dominance.properlyDominates(v, ret))
        return func.emitError("cannot return the amax history from a block "
                              "its update does not dominate");
    rewriter.modifyOpInPlace(
        ret, [&] { ret.getOperandsMutable().append(newResults); });
  }
  for (auto &[history, updated] : updates->second)
    if (failed(func.insertResult(func.getNumResults(), updated.getType(),
                                 rewriter.getDictionaryAttr({}))))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// demote-weights=arguments
//===----------------------------------------------------------------------===//

/// `moves` (innermost first) redone on the FP8 tensor `source`, each
/// right before its original: the same reshapes, slices, transposes and
/// broadcasts on 8-bit elements; casts are dropped (the elements are
/// already FP8). The moves must pass canRedoOnFP8.
static Value redoMovesOnFP8(RewriterBase &rewriter, Value source,
                            ArrayRef<Operation *> moves) {
  Value moved = source;
  for (Operation *move : moves) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(move);
    moved = redoMoveOn(rewriter, move, moved);
  }
  return moved;
}

/// Can redoMovesOnFP8 redo `moves`?
static bool canRedoOnFP8(ArrayRef<Operation *> moves) {
  return llvm::all_of(moves, [](Operation *move) {
    if (isa<linalg::GenericOp>(move))
      return bool(getElementPreservingMoveSource(move));
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(move))
      return isa<linalg::TransposeOp, linalg::BroadcastOp>(move) &&
             linalgOp.hasPureTensorSemantics();
    return isa<CastOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
               tensor::CastOp, tensor::ReshapeOp, tensor::ExtractSliceOp>(
        move);
  });
}

/// Erases `op` and then every producer of its operands that is left
/// without uses and has no side effects.
static void eraseDeadChain(RewriterBase &rewriter, Operation *op) {
  SmallVector<Operation *> worklist{op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    if (!dead->use_empty() || !isMemoryEffectFree(dead))
      continue;
    SmallVector<Value> operands(dead->getOperands());
    rewriter.eraseOp(dead);
    for (Value operand : operands)
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
  }
}

void SelectFP8FormatsPass::demoteWeightArguments(IRRewriter &rewriter,
                                                 func::FuncOp func) {
  bool called = !SymbolTable::symbolKnownUseEmpty(func, getOperation());
  auto remark = [&](BlockArgument arg, const Twine &message) {
    emitDecisionRemark(arg.getLoc(), DecisionCategory::FP8, "WeightArgument",
                       func.getSymName(),
                       "argument #" + Twine(arg.getArgNumber()) + " of @" +
                           func.getSymName() + " " + message,
                       /*asDiagnostic=*/true);
  };
  unsigned numOriginal = func.getNumArguments();
  for (unsigned index = 0; index < numOriginal; ++index) {
    BlockArgument arg = func.getArgument(index);
    if (!isa<RankedTensorType>(arg.getType()) ||
        !getFloatElementType(arg.getType()))
      continue;
    // Every read must quantize it, to one format with one scale; the
    // amax of current scaling reads it too.
    SmallVector<QuantizeOp> quantizes;
    SmallVector<AmaxOp> amaxes;
    Operation *other = nullptr;
    forEachReadThroughMoves(arg, [&](OpOperand &use) {
      if (auto q = dyn_cast<QuantizeOp>(use.getOwner());
          q && use.getOperandNumber() == 0)
        quantizes.push_back(q);
      else if (auto amax = dyn_cast<AmaxOp>(use.getOwner()))
        amaxes.push_back(amax);
      else if (!other)
        other = use.getOwner();
    });
    if (quantizes.empty())
      continue;
    auto describe = [](Operation *op) {
      return (op->getName().getStringRef() + " at " +
              printReportLocation(op->getLoc()))
          .str();
    };
    std::string current;
    llvm::raw_string_ostream os(current);
    arg.getType().print(os);
    if (other) {
      remark(arg, Twine("stays ") + current + ": it is quantized to FP8 and also "
                  "read by " + describe(other));
      continue;
    }
    FloatType fp8 = getFloatElementType(quantizes.front().getType());
    Value scale = quantizes.front().getScale();
    if (llvm::any_of(quantizes, [&](QuantizeOp q) {
          return getFloatElementType(q.getType()) != fp8 ||
                 q.getScale() != scale;
        })) {
      remark(arg, Twine("stays ") + current +
                      ": its matrix ops read it in two FP8 formats or scales");
      continue;
    }
    // The scale: a constant (static scaling) becomes an attribute; the amax
    // of this call (current scaling) an argument. A delayed history would
    // need the caller's amax: not offered.
    auto computed = scale.getDefiningOp<ComputeScaleOp>();
    std::optional<FloatAttr> constantScale;
    FloatAttr constant;
    if (matchPattern(scale, m_Constant(&constant)))
      constantScale = constant;
    bool currentScaling =
        computed && llvm::all_of(amaxes, [&](AmaxOp amax) {
          return llvm::all_of(amax->getUsers(), [&](Operation *user) {
            return user == computed.getOperation();
          });
        }) && computed.getAmax().getDefiningOp<AmaxOp>();
    if (!constantScale && !currentScaling) {
      remark(arg, Twine("stays ") + current +
                      ": its FP8 scale comes from an amax history "
                      "(scaling=delayed), which its caller does not have");
      continue;
    }
    if (called) {
      remark(arg, Twine("stays ") + current + ": @" + func.getSymName() +
                      " is called in the module (FP8 weight arguments are "
                      "for entry functions)");
      continue;
    }
    // The moves between the argument and each quantize, innermost first.
    SmallVector<SmallVector<Operation *>> chains;
    for (QuantizeOp q : quantizes) {
      SmallVector<Operation *> chain;
      for (Value v = q.getInput(); v != arg;
           v = getMovedTensor(v.getDefiningOp()))
        chain.push_back(v.getDefiningOp());
      std::reverse(chain.begin(), chain.end());
      chains.push_back(std::move(chain));
    }
    if (!llvm::all_of(chains, [](ArrayRef<Operation *> chain) {
          return canRedoOnFP8(chain);
        })) {
      remark(arg, Twine("stays ") + current + ": a layout move between it and its "
                  "quantization cannot be redone on FP8 elements");
      continue;
    }
    // The moves are redone on the FP8 argument; the wide ones, left with
    // the FP8 type for a moment, are erased below with the quantizations.
    Type newType = withFloatElementType(arg.getType(), fp8);
    rewriter.modifyOpInPlace(func, [&] { arg.setType(newType); });
    SmallVector<Value> replacements;
    for (ArrayRef<Operation *> chain : chains)
      replacements.push_back(redoMovesOnFP8(rewriter, arg, chain));
    Value newScale = scale;
    if (!constantScale) {
      unsigned scaleIndex = func.getNumArguments();
      (void)func.insertArgument(
          scaleIndex, rewriter.getF32Type(),
          rewriter.getDictionaryAttr({rewriter.getNamedAttr(
              LowpDialect::Fp8ScaleOfAttrHelper::getNameStr(),
              rewriter.getI64IntegerAttr(index))}),
          arg.getLoc());
      newScale = func.getArgument(scaleIndex);
      func.setArgAttr(index, LowpDialect::Fp8ScaleAttrHelper::getNameStr(),
                      rewriter.getI64IntegerAttr(scaleIndex));
      rewriter.replaceAllUsesWith(scale, newScale);
    } else {
      func.setArgAttr(index, LowpDialect::Fp8ScaleAttrHelper::getNameStr(),
                      *constantScale);
    }
    for (auto [q, moved] : llvm::zip(quantizes, replacements)) {
      rewriter.replaceAllUsesWith(q.getResult(), moved);
      eraseDeadChain(rewriter, q);
    }
    for (AmaxOp amax : amaxes)
      eraseDeadChain(rewriter, amax);
    if (computed && !constantScale)
      eraseDeadChain(rewriter, computed);
    std::string type;
    llvm::raw_string_ostream typeOs(type);
    newType.print(typeOs);
    emitDecisionRemark(arg.getLoc(), DecisionCategory::FP8, "WeightArgument",
                       func.getSymName(),
                       "argument #" + Twine(index) + " of @" +
                           func.getSymName() + " takes " + type +
                           (constantScale ? ", its static scale in lowp.fp8_scale"
                                      : ", its scale in argument #" +
                                            std::to_string(
                                                func.getNumArguments() - 1)),
                       /*asDiagnostic=*/false);
  }
  // The signature follows the retyped entry block arguments.
  rewriter.modifyOpInPlace(func, [&] {
    func.setFunctionType(rewriter.getFunctionType(
        func.getBody().front().getArgumentTypes(), func.getResultTypes()));
  });
}

LogicalResult SelectFP8FormatsPass::writeReport() {
  llvm::json::Array decisions;
  for (const ReportEntry &e : entries) {
    llvm::json::Object object{{"function", e.function},
                              {"op", e.op},
                              {"location", e.location},
                              {"action", e.action},
                              {"format", e.format},
                              {"reason", e.reason}};
    if (e.operand >= 0) {
      object["operand"] = e.operand;
      object["role"] = e.role;
      object["binades_needed"] = e.binadesNeeded;
      object["binades_e4m3"] = e.binadesE4M3;
      object["binades_e5m2"] = e.binadesE5M2;
      object["scale"] = e.scale ? llvm::json::Value(*e.scale) : nullptr;
      if (e.stats)
        object["stats"] =
            llvm::json::Object{{"amax", e.stats->amax}, {"min", e.stats->min}};
      if (e.errorE4M3 && e.errorE5M2) {
        object["predicted_error_e4m3"] = *e.errorE4M3;
        object["predicted_error_e5m2"] = *e.errorE5M2;
        object["error_bound"] = *e.errorBound;
      }
    }
    decisions.push_back(std::move(object));
  }
  llvm::json::Object root{
      {"pass", "lowp-select-fp8-formats"},
      {"recipe", stringifyFP8Recipe(recipe)},
      {"margin", (int64_t)margin},
      {"fp8_attention", fp8Attention.getValue()},
      {"matrix_flops", matrixFlops},
      {"fp8_matrix_flops", fp8Flops},
      {"fp8_flop_share",
       matrixFlops ? llvm::json::Value(double(fp8Flops) / matrixFlops)
                   : llvm::json::Value(nullptr)},
      {"decisions", std::move(decisions)}};
  return writeJsonReportFile(getOperation(), report, "FP8 report",
                             std::move(root));
}

void SelectFP8FormatsPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (scaling == FP8Scaling::Delayed && amaxHistory == 0) {
    module.emitError() << "lowp-select-fp8-formats: invalid option "
                          "amax-history=0: delayed scaling keeps at least "
                          "one amax";
    return signalPassFailure();
  }
  quantized.clear();
  blockStartEnd.clear();
  historyUpdates.clear();
  entries.clear();
  matrixFlops = fp8Flops = 0;

  // The target: the option sets (and records) it, else the module says it.
  FailureOr<const TargetInfo *> resolved = resolveTarget(module, target);
  if (failed(resolved))
    return signalPassFailure();
  const TargetInfo *targetInfo = *resolved;
  if (!target.empty())
    LowpDialect::TargetAttrHelper(ctx).setAttr(module,
                                               TargetAttr::get(ctx, target));
  if (!targetInfo) {
    module.emitError() << "lowp-select-fp8-formats needs a target: set "
                          "#lowp.target on the module or the 'target' option";
    return signalPassFailure();
  }

  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal())
      continue;
    if (failed(processFunction(func, *targetInfo)))
      return signalPassFailure();
    if (demoteWeights == WeightDemotion::Arguments) {
      IRRewriter rewriter(ctx);
      demoteWeightArguments(rewriter, func);
      // It erased quantizations these function-local caches may name.
      quantized.clear();
      blockStartEnd.clear();
    }
  }
  foldCastsOfConstants(module);
  if (!report.empty() && failed(writeReport()))
    return signalPassFailure();
}

void SelectFP8FormatsPass::foldCastsOfConstants(ModuleOp module) {
  // Inference under the FP8 policy leaves f32 constants that only matrix
  // ops read behind a lowp.cast (matrix-constants-wide), so that the
  // quantization above starts from f32. The matrix ops this pass did not
  // take read them 16-bit: rounded here, at compile time, as inference
  // would have. Dead ones (every use quantized) go.
  // Only the casts inference left for that reason: of a constant the format
  // holds, read by matrix ops alone (inference keeps a cast of an
  // overflowing constant visible on purpose).
  SmallVector<CastOp> casts;
  module.walk([&](CastOp cast) {
    auto constant = cast.getInput().getDefiningOp<arith::ConstantOp>();
    if (!constant ||
        !fitsFormatRange(constant.getValue(), cast.getResultElementType()))
      return;
    if (llvm::all_of(cast->getUsers(), isMatrixOp))
      casts.push_back(cast);
  });
  IRRewriter rewriter(module.getContext());
  for (CastOp cast : casts) {
    auto constant = cast.getInput().getDefiningOp<arith::ConstantOp>();
    if (cast.use_empty()) {
      rewriter.eraseOp(cast);
    } else {
      SmallVector<OpFoldResult, 1> folded;
      if (failed(cast->fold(folded)) || folded.size() != 1)
        continue;
      auto value = dyn_cast_if_present<TypedAttr>(
          dyn_cast_if_present<Attribute>(folded.front()));
      if (!value)
        continue;
      rewriter.setInsertionPoint(cast);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(cast, value);
    }
    if (constant.use_empty())
      rewriter.eraseOp(constant);
  }
}

} // namespace
