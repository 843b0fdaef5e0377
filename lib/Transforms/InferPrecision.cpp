//===- InferPrecision.cpp - lowp-infer-precision --------------------------===//
//
// Retypes the ops that the colouring (lowp/Analysis/PrecisionColouring.h)
// made low (f16/bf16), with lowp.cast only where a value crosses colours,
// and handles the pass's options and report. See
// docs/passes/infer-precision.md.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/PrecisionColouring.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/ResourceConstants.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINFERPRECISION
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// The options of one run, validated.
struct InferenceConfig {
  /// What the colouring decides from.
  ColouringOptions colouring;
  bool emitRemarks = false;
  /// Let entry functions (not called in the module) take and return the
  /// low format where their arguments and results are low anyway.
  bool demoteSignatures = false;
  /// demote-state: the same for an entry function's state only (an
  /// argument returned updated, and that result).
  bool demoteState = false;
  /// state-format: with demote-state, the 8-bit float format state is
  /// stored in (converted to the low format where it is read, rounded
  /// with saturation where it is returned); null keeps it low.
  FloatType stateFormat;
  /// demote-weights=arguments.
  bool demoteWeights = false;
  /// Build the per-op decisions (a report or remarks were asked for).
  bool recordDecisions = false;
  /// The target computes elementwise arithmetic in the low format. When it
  /// does not (TPU v2-v5p, AVX512_BF16 CPUs, CDNA3 for bf16), low payloads
  /// still read and write the low format but compute in f32 between one
  /// extension and one rounding, as XLA's BF16 normalization does for such
  /// chips: the same storage and matrix inputs, no emulated 16-bit
  /// arithmetic, and one rounding per payload instead of one per op.
  bool lowArithmetic = true;
  /// The target (null without one): which 16-bit formats its vector units
  /// compute in decides which arrived low bodies compute in f32.
  const TargetInfo *target = nullptr;
  /// matrix-constants-wide: f32 constants only matrix ops read stay f32
  /// behind a lowp.cast (lowp-select-fp8-formats quantizes them from f32).
  bool matrixConstantsWide = false;
};

/// Every use of `value` is an input (not an init) of a matrix op.
static bool readOnlyByMatrixOps(Value value) {
  return !value.use_empty() &&
         llvm::all_of(value.getUses(), [](OpOperand &use) {
           Operation *user = use.getOwner();
           if (!isMatrixOp(user))
             return false;
           auto dps = dyn_cast<DestinationStyleOpInterface>(user);
           return !dps || dps.isDpsInput(&use);
         });
}

/// The float (or complex) typed operand and result types of `op`.
static SmallVector<Type> getFloatTypes(Operation *op) {
  SmallVector<Type> types;
  llvm::append_range(types, llvm::make_filter_range(op->getOperandTypes(),
                                                    holdsFloats));
  llvm::append_range(types, llvm::make_filter_range(op->getResultTypes(),
                                                    holdsFloats));
  return types;
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

/// Retypes what `colouring` made low.
class PrecisionRewrite {
public:
  PrecisionRewrite(ModuleOp module, const InferenceConfig &config,
                   PrecisionColouring &colouring, PrecisionReport &report)
      : module(module), config(config), low(config.colouring.low),
        colouring(colouring), report(report), rewriter(module.getContext()) {}

  void run() {
    collectNarrowAccumulators();
    collectArrivedLowBodies();
    recordDecisions();
    rewrite();
    widenNarrowAccumulators();
    computeArrivedLowBodiesInF32();
    if (config.demoteWeights)
      demoteWeightArguments();
    if (config.demoteSignatures || config.demoteState)
      demoteEntrySignatures(/*stateOnly=*/!config.demoteSignatures);
  }

private:
  /// Does `use` read the value directly as an operand of its node's op?
  static bool isDirect(OpOperand &use, OpColouring *node) {
    return use.getOwner() == node->op;
  }

  Type getOriginalType(Value value) {
    auto it = originalTypes.find(value);
    return it == originalTypes.end() ? value.getType() : it->second;
  }

  //===--- Rewriting -----------------------------------------------------===//

  void recordDecisions() {
    if (!config.recordDecisions)
      return;
    for (OpColouring &node : colouring.getOps()) {
      PrecisionDecision decision;
      decision.opName = node.op->getName().getStringRef().str();
      decision.location = printReportLocation(node.op->getLoc());
      decision.opClass = node.hasClass
                             ? stringifyPrecisionClass(node.precisionClass).str()
                             : "none";
      decision.rule = colouring.describe(node);
      decision.keptWide = node.isKeptWide();
      decision.precision = decision.keptWide || !node.retypeable
                               ? describePrecision(node.op)
                               : printType(low);
      if (narrowAccumulators.contains(node.op)) {
        decision.precision = "mixed";
        Type init = cast<linalg::LinalgOp>(node.op).getDpsInits()[0].getType();
        decision.rule += "; accumulates in f32, not in its init's " +
                         printType(getElementTypeOrSelf(init)) +
                         ", and rounds the result once";
      }
      if (FloatType format = arrivedLowBodies.lookup(node.op))
        decision.rule += "; computes in f32 (the target has no " +
                         printType(format) +
                         " arithmetic) and rounds each result once";
      if (config.emitRemarks) {
        auto func = node.op->getParentOfType<FunctionOpInterface>();
        emitDecisionRemark(node.op->getLoc(), DecisionCategory::Precision,
                           "Precision", func ? func.getName() : StringRef(),
                           decision.precision + " (" + decision.opClass +
                               "): " + decision.rule,
                           /*asDiagnostic=*/true);
      }
      report.decisions.push_back(std::move(decision));
    }
  }

  //===--- Accumulators that arrive narrow ------------------------------===//

  /// Is `op` a matrix op with one tensor init narrower than f32 that the
  /// rewrite can give an f32 accumulator?
  static bool hasNarrowAccumulator(linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 || getPinnedPrecision(op))
      return false;
    auto type = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
    auto element = type ? dyn_cast<FloatType>(type.getElementType()) : nullptr;
    return element && element.getWidth() < 32 &&
           canComputeBodyInF32(op, /*allowRounding=*/false);
  }

  /// Can computeBodyInF32 rewrite `op`'s body? It must be scalar arith and
  /// math ops (and linalg.index); with `allowRounding`, roundings of its own
  /// (arith.truncf, kept as they are: a torch-mlir body rounds each f64
  /// scalar it captures) are allowed.
  static bool canComputeBodyInF32(linalg::LinalgOp op, bool allowRounding) {
    for (Operation &bodyOp : op.getBlock()->without_terminator()) {
      if (isa<linalg::IndexOp>(bodyOp))
        continue;
      if (!isFloatPolymorphicDialect(bodyOp.getDialect()) ||
          isa<arith::BitcastOp>(bodyOp) || bodyOp.getNumRegions() != 0 ||
          (!allowRounding && isa<arith::TruncFOp>(bodyOp)))
        return false;
      for (Type t : llvm::concat<Type>(bodyOp.getOperandTypes(),
                                       bodyOp.getResultTypes()))
        if (!isa<FloatType>(t) && !t.isSignlessIntOrIndex())
          return false;
    }
    return true;
  }

  //===--- Low bodies that arrive on targets without low arithmetic -----===//

  /// An op that arrives computing in a 16-bit format the target has no
  /// arithmetic for (a model converted to bf16 before export, on x86 or a
  /// TPU) gets the payload the rewrite gives the ops it demotes there: the
  /// same 16-bit operands and results, the body computing in f32 between
  /// one extension and one rounding per result, instead of one emulated
  /// rounding per body op. Only generics: a named op's body is rebuilt from
  /// its types when printed and parsed again.
  void collectArrivedLowBodies() {
    if (!config.target)
      return;
    for (OpColouring &node : colouring.getOps()) {
      auto generic = dyn_cast<linalg::GenericOp>(node.op);
      if (!generic || node.reason != ColourReason::NonF32 ||
          node.precisionClass == PrecisionClass::Matrix ||
          !generic.hasPureTensorSemantics() || getPinnedPrecision(generic) ||
          !canComputeBodyInF32(generic, /*allowRounding=*/true))
        continue;
      // Its body ops must compute in one narrow format, a 16-bit one the
      // target's vector units lack.
      FloatType computed;
      bool oneFormat = true;
      for (Operation &bodyOp : generic.getBlock()->without_terminator()) {
        if (isa<arith::ConstantOp, arith::ExtFOp, arith::TruncFOp>(bodyOp))
          continue;
        for (Type t : bodyOp.getResultTypes()) {
          auto f = dyn_cast<FloatType>(t);
          if (!f || f.getWidth() >= 32)
            continue;
          oneFormat &= !computed || computed == f;
          computed = f;
        }
      }
      std::optional<Format> format =
          computed ? getFormat(computed) : std::nullopt;
      if (oneFormat && format && computed.getWidth() == 16 &&
          !config.target->hasNativeArithmetic(*format))
        arrivedLowBodies.insert({generic, computed});
    }
  }

  void computeArrivedLowBodiesInF32() {
    for (Operation *op : llvm::make_first_range(arrivedLowBodies))
      rewriter.modifyOpInPlace(
          op, [&] { computeBodyInF32(cast<linalg::LinalgOp>(op)); });
  }

  /// accumulate=f32 covers matrix ops that arrive with a 16-bit accumulator
  /// as well (a model converted to bf16 before export: linalg.batch_matmul
  /// on bf16 with bf16 outs), which otherwise round after every addition
  /// and take no kernel. They are the ops the colouring left as they were.
  void collectNarrowAccumulators() {
    if (!config.colouring.wideAccumulator)
      return;
    for (OpColouring &node : colouring.getOps()) {
      auto op = dyn_cast<linalg::LinalgOp>(node.op);
      if (op && node.precisionClass == PrecisionClass::Matrix &&
          !node.isLow() && hasNarrowAccumulator(op))
        narrowAccumulators.insert(node.op);
    }
  }

  /// Gives each collected op an f32 accumulator: the init widened (a fill
  /// re-created in f32), the body computing in f32 on widened inputs (as
  /// linalg's named ops build it for 16-bit inputs and an f32 output), and
  /// the result rounded once to its type through a lowp.cast, so users see
  /// the type they read before: the rounding PyTorch's and cuBLAS's 16-bit
  /// GEMMs apply.
  void widenNarrowAccumulators() {
    Type f32 = rewriter.getF32Type();
    for (Operation *raw : narrowAccumulators) {
      auto op = cast<linalg::LinalgOp>(raw);
      auto narrowType = cast<RankedTensorType>(op->getResult(0).getType());
      auto wideType = narrowType.clone(f32);
      OpOperand &init = op.getDpsInitsMutable()[0];
      Value narrowInit = init.get();
      Value wideInit = getWideInit(narrowInit, wideType);
      rewriter.modifyOpInPlace(op, [&] {
        init.set(wideInit);
        op->getResult(0).setType(wideType);
        widenBody(op);
      });
      if (auto fill = narrowInit.getDefiningOp<linalg::FillOp>();
          fill && fill->use_empty()) {
        Operation *dest = fill.getOutputs()[0].getDefiningOp();
        Operation *scalar = fill.getInputs()[0].getDefiningOp();
        rewriter.eraseOp(fill);
        for (Operation *def : {dest, scalar})
          if (isa_and_present<tensor::EmptyOp, arith::ConstantOp>(def) &&
              def->use_empty())
            rewriter.eraseOp(def);
      }
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(op);
      auto rounded = CastOp::create(rewriter, op->getLoc(), narrowType,
                                    op->getResult(0));
      insertedCasts.insert(rounded);
      ++report.castsInserted;
      rewriter.replaceAllUsesExcept(op->getResult(0), rounded, rounded);
    }
  }

  /// `init` as `wideType`: a fill of a scalar is re-created in f32 (read by
  /// nothing else, it goes away), anything else is widened by a lowp.cast.
  Value getWideInit(Value init, RankedTensorType wideType) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.hasPureTensorSemantics())
      return getConverted(init, wideType);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(fill);
    Value scalar = fill.getInputs()[0];
    Location loc = fill.getLoc();
    Type f32 = wideType.getElementType();
    if (auto constant = scalar.getDefiningOp<arith::ConstantOp>();
        constant && isa<FloatAttr>(constant.getValue()))
      scalar = arith::ConstantOp::create(
          rewriter, loc, convertFloatConstant(constant.getValue(), cast<FloatType>(f32)));
    else
      scalar = arith::ExtFOp::create(rewriter, loc, f32, scalar);
    Value dest = getConverted(fill.getOutputs()[0], wideType);
    return linalg::FillOp::create(rewriter, loc, scalar, dest).getResult(0);
  }

  /// Gives `op`'s init argument (one init) the type f32 and makes its body
  /// compute in f32.
  void widenBody(linalg::LinalgOp op) {
    op.getMatchingBlockArgument(&op.getDpsInitsMutable()[0])
        .setType(rewriter.getF32Type());
    computeBodyInF32(op);
  }

  /// Makes the body of `op` compute in f32: narrow float operands of its
  /// ops are extended where they are read (extensions from narrower
  /// formats extend to f32 directly), constants are widened exactly, narrow
  /// float results become f32, and each yielded value is converted to its
  /// init argument's type (rounded once where that is narrow).
  void computeBodyInF32(linalg::LinalgOp op) {
    Block *block = op.getBlock();
    Type f32 = rewriter.getF32Type();
    auto isNarrow = [](Type t) {
      auto f = dyn_cast<FloatType>(t);
      return f && f.getWidth() < 32;
    };
    DenseMap<Value, Value> widened;
    auto getWide = [&](Value value, Operation *user) {
      Value &wide = widened[value];
      if (!wide) {
        OpBuilder::InsertionGuard guard(rewriter);
        if (isa<BlockArgument>(value))
          rewriter.setInsertionPointToStart(block);
        else
          rewriter.setInsertionPointAfter(value.getDefiningOp());
        wide = arith::ExtFOp::create(rewriter, user->getLoc(), f32, value);
      }
      return wide;
    };
    for (Operation &bodyOp : llvm::make_early_inc_range(block->without_terminator())) {
      // A rounding of the body's own stays; its operand may be f32 now (the
      // body computed it in f32 where it computed in a narrow format, and
      // rounds it once), its result is extended where it is read.
      if (isa<arith::TruncFOp>(bodyOp))
        continue;
      if (auto ext = dyn_cast<arith::ExtFOp>(bodyOp)) {
        // Its operand may be f32 now: then it is that value.
        if (ext.getIn().getType() == f32 &&
            (ext.getType() == f32 || isNarrow(ext.getType()))) {
          rewriter.replaceAllUsesWith(ext, ext.getIn());
          rewriter.eraseOp(ext);
        } else if (isNarrow(ext.getType())) {
          ext.getResult().setType(f32);
        }
        continue;
      }
      if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp)) {
        if (isNarrow(constant.getType())) {
          constant.setValueAttr(convertFloatConstant(constant.getValue(),
                                              cast<FloatType>(f32)));
          constant.getResult().setType(f32);
        }
        continue;
      }
      for (OpOperand &operand : bodyOp.getOpOperands())
        if (isNarrow(operand.get().getType()))
          operand.set(getWide(operand.get(), &bodyOp));
      for (Value result : bodyOp.getResults())
        if (isNarrow(result.getType()))
          result.setType(f32);
    }
    Operation *yield = block->getTerminator();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    for (auto [operand, init] :
         llvm::zip(yield->getOpOperands(), op.getDpsInitsMutable())) {
      Type wanted = op.getMatchingBlockArgument(&init).getType();
      Value value = operand.get();
      if (value.getType() == wanted)
        continue;
      if (isNarrow(wanted) && value.getType() == f32)
        operand.set(arith::TruncFOp::create(rewriter, yield->getLoc(),
                                            wanted, value));
      else if (wanted == f32 && isNarrow(value.getType()))
        operand.set(getWide(value, yield));
    }
  }

  /// The element type of `op`'s float values ("f32", "bf16", "mixed").
  static std::string describePrecision(Operation *op) {
    Type seen;
    for (Type type : getFloatTypes(op)) {
      Type element = getElementTypeOrSelf(type);
      if (seen && seen != element)
        return "mixed";
      seen = element;
    }
    return seen ? printType(seen) : "none";
  }

  /// A cast this run inserted, read by nothing but `user`.
  CastOp getOwnCastUsedOnlyBy(Value value, Operation *user) {
    auto cast = value.getDefiningOp<CastOp>();
    if (!cast || !insertedCasts.contains(cast) || !cast->hasOneUse() ||
        *cast->user_begin() != user)
      return {};
    return cast;
  }

  /// demote-weights=arguments: an argument read only as matrix op inputs
  /// (through layout moves), each read through one cast to the same narrow
  /// type, takes that type; the casts move to the callers in the module
  /// (external callers convert as docs/embedding.md says).
  void demoteWeightArguments() {
    module.walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      // Every use of the function must be a call we can update.
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module);
      SmallVector<func::CallOp> calls;
      bool unknownUse = !uses.has_value();
      if (uses)
        for (const SymbolTable::SymbolUse &use : *uses) {
          auto call = dyn_cast<func::CallOp>(use.getUser());
          if (!call) {
            unknownUse = true;
            break;
          }
          calls.push_back(call);
        }
      Block &entry = func.getBody().front();
      SmallVector<Type> inputs(func.getArgumentTypes());
      bool changed = false;
      for (BlockArgument arg : entry.getArguments()) {
        std::optional<std::string> reason = getWeightDemotion(func, arg);
        if (!reason)
          continue;
        if (unknownUse) {
          emitWeightRemark(func, arg,
                           "stays " + printType(arg.getType()) +
                               ": the function is referenced other than by "
                               "func.call, so its callers cannot be updated");
          continue;
        }
        Type narrow = arg.use_begin()->getOwner()->getResult(0).getType();
        for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
          auto own = cast<CastOp>(use.getOwner());
          rewriter.replaceAllUsesWith(own.getResult(), arg);
          if (insertedCasts.erase(own))
            --report.castsInserted;
          rewriter.eraseOp(own);
        }
        rewriter.modifyOpInPlace(func, [&] { arg.setType(narrow); });
        inputs[arg.getArgNumber()] = narrow;
        changed = true;
        // Callers convert once, right before the call.
        for (func::CallOp call : calls) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPoint(call);
          OpOperand &operand = call->getOpOperand(arg.getArgNumber());
          Value converted =
              CastOp::create(rewriter, call.getLoc(), narrow, operand.get());
          rewriter.modifyOpInPlace(call, [&] { operand.set(converted); });
        }
        DemotedArgument demoted;
        demoted.function = func.getName().str();
        demoted.index = arg.getArgNumber();
        demoted.type = printType(narrow);
        demoted.reason = *reason;
        if (config.emitRemarks)
          emitWeightRemark(func, arg, demoted.type + ": " + *reason);
        report.demotedArguments.push_back(std::move(demoted));
      }
      if (!changed)
        return;
      rewriter.modifyOpInPlace(func, [&] {
        func.setFunctionType(FunctionType::get(func.getContext(), inputs,
                                               func.getResultTypes()));
      });
    });
  }

  /// Why `arg` can take its matrix ops' narrow format, or nothing (with a
  /// remark when it is read as a weight but cannot).
  std::optional<std::string> getWeightDemotion(func::FuncOp func,
                                               BlockArgument arg) {
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    if (!tensor || !isRetypeableF32(tensor))
      return std::nullopt;
    // A value the front end marks as an activation or gradient is no
    // weight.
    if (auto role =
            getValueMark<TensorRoleAttr>(
                arg, LowpDialect::RoleAttrHelper::getNameStr()))
      if (role.getValue() != TensorRole::Weight)
        return std::nullopt;
    OpOperand *matrixRead = nullptr;
    OpOperand *otherRead = nullptr;
    forEachReadThroughMoves(arg, [&](OpOperand &use) {
      if (isMatrixInput(use))
        matrixRead = matrixRead ? matrixRead : &use;
      else
        otherRead = otherRead ? otherRead : &use;
    });
    if (!matrixRead)
      return std::nullopt;
    std::string current = printType(arg.getType());
    if (otherRead) {
      emitWeightRemark(func, arg,
                       "stays " + current + ": it is a weight of " +
                           describeUser(*matrixRead) + " and also read by " +
                           describeUser(*otherRead));
      return std::nullopt;
    }
    // Every read goes through one narrowing cast, all to one type: the
    // format the decision gave its matrix ops.
    Type narrow;
    for (OpOperand &use : arg.getUses()) {
      auto own = dyn_cast<CastOp>(use.getOwner());
      if (!own || own.isWidening() || (narrow && narrow != own.getType())) {
        emitWeightRemark(func, arg,
                         "stays " + current + ": " +
                             describeUser(*matrixRead) +
                             " reads it at its own type (pinned, kept f32 "
                             "or read in two formats)");
        return std::nullopt;
      }
      narrow = own.getType();
    }
    return "weight of " + describeUser(*matrixRead);
  }

  static std::string describeUser(OpOperand &use) {
    Operation *user = use.getOwner();
    return (user->getName().getStringRef() + " at " +
            printReportLocation(user->getLoc()))
        .str();
  }

  void emitWeightRemark(func::FuncOp func, BlockArgument arg,
                        const Twine &message) {
    emitDecisionRemark(arg.getLoc(), DecisionCategory::Precision,
                       "WeightArgument", func.getName(),
                       "argument #" + Twine(arg.getArgNumber()) + " of @" +
                           func.getName() + " " + message,
                       /*asDiagnostic=*/true);
  }

  /// A state update written as an elementwise select between the stored
  /// state (widened) and new values (a decoder's one-hot write of its KV
  /// cache: `where(write, k, cache)`), rounded back to the stored format:
  /// the select is made in the stored format instead, of the stored bytes
  /// and the new values rounded (only they: the widened state rounds back
  /// to itself, when saturation does not change the format's infinities),
  /// so the update does not round every element of the state on every
  /// call. The select in the low format stays for its other readers.
  void selectInStoredFormat(CastOp stored) {
    auto update = stored.getInput().getDefiningOp<linalg::GenericOp>();
    if (!update || !update.hasPureTensorSemantics() ||
        update.getNumDpsInits() != 1 || update->getNumResults() != 1 ||
        update.getNumLoops() != update.getNumParallelLoops() ||
        !update.getMatchingIndexingMap(update.getDpsInitOperand(0))
             .isIdentity())
      return;
    Block *body = update.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    // The select, maybe in f32 between exact widenings of its values and
    // one rounding of its result (targets without low arithmetic).
    Value picked = yield.getOperand(0);
    auto rounding = picked.getDefiningOp<arith::TruncFOp>();
    if (rounding)
      picked = rounding.getIn();
    auto select = picked.getDefiningOp<arith::SelectOp>();
    if (!select || !body->getArgument(update.getNumDpsInputs()).use_empty() ||
        llvm::any_of(body->without_terminator(), [&](Operation &op) {
          return &op != select && &op != rounding &&
                 !(isa<arith::ExtFOp>(op) && op.hasOneUse() &&
                   *op.user_begin() == select);
        }))
      return;
    auto inputOf = [&](Value v) -> std::optional<unsigned> {
      if (auto ext = v.getDefiningOp<arith::ExtFOp>())
        v = ext.getIn();
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != body ||
          arg.getArgNumber() >= update.getNumDpsInputs())
        return std::nullopt;
      return arg.getArgNumber();
    };
    FloatType storedElement = stored.getResultElementType();
    if (stored.getSaturate() &&
        llvm::APFloat::semanticsHasInf(storedElement.getFloatSemantics()))
      return;
    // Which of the two values is the widened state.
    std::optional<unsigned> state, fresh;
    for (auto [s, f] : {std::pair(select.getTrueValue(), select.getFalseValue()),
                        std::pair(select.getFalseValue(), select.getTrueValue())}) {
      std::optional<unsigned> si = inputOf(s), fi = inputOf(f);
      auto widened =
          si ? update.getDpsInputs()[*si].getDefiningOp<CastOp>() : CastOp();
      if (fi && widened && widened.isWidening() &&
          widened.getInput().getType() == stored.getType()) {
        state = si;
        fresh = fi;
        break;
      }
    }
    // The new values are rounded once either way only when they arrive in
    // the update's own format (not f32 rounded by the body's truncf first).
    Type updateElement = getElementTypeOrSelf(update->getResult(0).getType());
    if (!state || select.getCondition() == select.getTrueValue() ||
        select.getCondition() == select.getFalseValue() ||
        getElementTypeOrSelf(update.getDpsInputs()[*fresh].getType()) !=
            updateElement)
      return;
    rewriter.setInsertionPoint(stored);
    Location loc = stored.getLoc();
    SmallVector<Value> inputs(update.getDpsInputs());
    inputs[*state] = update.getDpsInputs()[*state].getDefiningOp<CastOp>()
                         .getInput();
    Value freshValues = inputs[*fresh];
    auto narrowed = CastOp::create(
        rewriter, loc, withFloatElementType(freshValues.getType(), storedElement),
        freshValues, /*seed=*/Value(), stored.getRounding(),
        stored.getSaturate());
    insertedCasts.insert(narrowed);
    inputs[*fresh] = narrowed;
    auto resultType = cast<RankedTensorType>(stored.getType());
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         storedElement);
    auto inBytes = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init},
        update.getIndexingMapsArray(), update.getIteratorTypesArray(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto argOf = [&](Value v) {
            return args[*inputOf(v)];
          };
          Value condition = select.getCondition();
          if (std::optional<unsigned> i = inputOf(condition))
            condition = args[*i];
          Value picked = arith::SelectOp::create(
              b, l, condition, argOf(select.getTrueValue()),
              argOf(select.getFalseValue()));
          linalg::YieldOp::create(b, l, picked);
        });
    rewriter.replaceOp(stored, inBytes->getResults());
    insertedCasts.erase(stored);
  }

  /// This run's cast that is `arg`'s only use, or null.
  CastOp getOwnOnlyCast(BlockArgument arg) {
    if (!arg.hasOneUse())
      return {};
    auto own = dyn_cast<CastOp>(arg.use_begin()->getOwner());
    return own && insertedCasts.contains(own) ? own : CastOp();
  }

  /// Whether `value` is computed from `source` without a matrix op in
  /// between (an update of it: a select against a mask, slices inserted
  /// into it, a concatenation), so that it is the same state carried on.
  static bool isUpdateOf(Value value, Value source) {
    BackwardSliceOptions options;
    options.omitBlockArguments = true;
    options.filter = [](Operation *op) { return !isMatrixOp(op); };
    SetVector<Operation *> slice;
    Operation *def = value.getDefiningOp();
    if (!def || isMatrixOp(def) || failed(getBackwardSlice(def, &slice, options)))
      return false;
    slice.insert(def);
    return llvm::any_of(slice, [&](Operation *op) {
      return llvm::is_contained(op->getOperands(), source);
    });
  }

  /// Moves the boundary casts of entry functions (no caller in the module)
  /// to their callers: an argument read only through one cast to the low
  /// format becomes a low argument, a result returned through one cast from
  /// the low format becomes a low result. `stateOnly`: only the pairs of an
  /// argument and a result of the same type that is an update of it (a
  /// decoder's KV cache passed in and returned), both low.
  void demoteEntrySignatures(bool stateOnly) {
    module.walk([&](func::FuncOp func) {
      if (func.isExternal() ||
          !SymbolTable::symbolKnownUseEmpty(func, module))
        return;
      Block &entry = func.getBody().front();
      SmallVector<Type> inputs(func.getArgumentTypes());
      SmallVector<Type> results(func.getResultTypes());
      auto entryReturn = dyn_cast<func::ReturnOp>(entry.getTerminator());
      // The (argument, result) pairs that become low together.
      DenseSet<unsigned> stateArgs, stateResults;
      if (stateOnly && entryReturn && func.getBody().hasOneBlock()) {
        for (BlockArgument arg : entry.getArguments()) {
          CastOp in = getOwnOnlyCast(arg);
          if (!in)
            continue;
          for (OpOperand &operand : entryReturn->getOpOperands()) {
            CastOp out = getOwnCastUsedOnlyBy(operand.get(), entryReturn);
            if (!out || stateResults.contains(operand.getOperandNumber()) ||
                out.getType() != arg.getType() ||
                out.getInput().getType() != in.getType() ||
                !isUpdateOf(out.getInput(), in.getResult()))
              continue;
            stateArgs.insert(arg.getArgNumber());
            stateResults.insert(operand.getOperandNumber());
            if (config.emitRemarks)
              emitDecisionRemark(
                  arg.getLoc(), DecisionCategory::Precision, "StateArgument",
                  func.getName(),
                  "argument #" + Twine(arg.getArgNumber()) + " of @" +
                      func.getName() + " and result #" +
                      Twine(operand.getOperandNumber()) + " (its update) are " +
                      printType(in.getType()) + ": state read only in " +
                      printType(getElementTypeOrSelf(in.getType())),
                  /*asDiagnostic=*/true);
            break;
          }
        }
      }
      for (BlockArgument arg : entry.getArguments()) {
        CastOp own = getOwnOnlyCast(arg);
        if (!own || (stateOnly && !stateArgs.contains(arg.getArgNumber())))
          continue;
        if (stateOnly && config.stateFormat) {
          // Stored in 8 bits: the cast now widens it to the low format.
          Type stored = withFloatElementType(arg.getType(), config.stateFormat);
          rewriter.modifyOpInPlace(func, [&] { arg.setType(stored); });
          inputs[arg.getArgNumber()] = stored;
          continue;
        }
        rewriter.modifyOpInPlace(func, [&] { arg.setType(own.getType()); });
        rewriter.replaceAllUsesWith(own.getResult(), arg);
        rewriter.eraseOp(own);
        insertedCasts.erase(own);
        --report.castsInserted;
        inputs[arg.getArgNumber()] = arg.getType();
      }
      func.walk([&](func::ReturnOp ret) {
        for (OpOperand &operand : ret->getOpOperands()) {
          if (stateOnly && !stateResults.contains(operand.getOperandNumber()))
            continue;
          CastOp own = getOwnCastUsedOnlyBy(operand.get(), ret);
          if (!own)
            continue;
          if (stateOnly && config.stateFormat) {
            // Rounded to the stored format, saturating: the state's values
            // are not calibrated, so one beyond the format's range is kept
            // at its largest finite value rather than made NaN.
            rewriter.setInsertionPoint(own);
            auto stored = CastOp::create(
                rewriter, own.getLoc(),
                withFloatElementType(own.getType(), config.stateFormat),
                own.getInput(), /*seed=*/Value(), RoundingMode::NearestEven,
                /*saturate=*/true);
            insertedCasts.insert(stored);
            rewriter.modifyOpInPlace(ret, [&] { operand.set(stored); });
            rewriter.eraseOp(own);
            insertedCasts.erase(own);
            results[operand.getOperandNumber()] = stored.getType();
            selectInStoredFormat(stored);
            continue;
          }
          rewriter.modifyOpInPlace(ret, [&] { operand.set(own.getInput()); });
          rewriter.eraseOp(own);
          insertedCasts.erase(own);
          --report.castsInserted;
          results[operand.getOperandNumber()] = operand.get().getType();
        }
      });
      rewriter.modifyOpInPlace(func, [&] {
        func.setFunctionType(
            FunctionType::get(func.getContext(), inputs, results));
      });
    });
  }

  void rewrite() {
    // 1. Retype every low op (results, bodies) from the original types, and
    //    let islands hand low users low results: an island converts its
    //    results on exit, so no cast is needed after it.
    for (OpColouring &node : colouring.getOps())
      if (node.isLow())
        retypeOp(node);
    for (OpColouring &node : colouring.getOps())
      if (auto island = dyn_cast<IslandOp>(node.op))
        retypeIslandResults(island);
    // 2. Reconcile every use of a retyped value, then every operand of a low
    //    op that reads an unchanged value.
    for (Value value : retypedOrder) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : value.getUses())
        uses.push_back(&use);
      for (OpOperand *use : uses) {
        // An island converts its operands on entry: it reads any float type.
        if (isa<IslandOp>(use->getOwner()))
          continue;
        OpColouring *user = colouring.lookupUser(use->getOwner());
        Type wanted = user && isDirect(*use, user)
                          ? colouring.getWantedType(*user, *use,
                                                    originalTypes[value])
                          : originalTypes[value];
        reconcile(*use, wanted);
      }
    }
    for (OpColouring &node : colouring.getOps()) {
      if (!node.isLow())
        continue;
      for (OpOperand &use : node.op->getOpOperands())
        if (!originalTypes.count(use.get()))
          reconcile(use,
                    colouring.getWantedType(node, use, use.get().getType()));
    }
  }

  /// Gives an island result the low type when every use wants it low.
  void retypeIslandResults(IslandOp island) {
    for (OpResult result : island->getResults()) {
      if (!isRetypeableF32(result.getType()) || result.use_empty())
        continue;
      bool allLow = llvm::all_of(result.getUses(), [&](OpOperand &use) {
        OpColouring *user = colouring.lookupUser(use.getOwner());
        return user && colouring.wantsLow(*user, use);
      });
      if (!allLow)
        continue;
      rewriter.modifyOpInPlace(island, [&] {
        setResultType(result, colouring.toLow(result.getType()));
      });
    }
  }

  void reconcile(OpOperand &use, Type wanted) {
    if (use.get().getType() == wanted)
      return;
    Value converted = getConverted(use.get(), wanted);
    rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(converted); });
  }

  /// `value` as `type`: one lowp.cast per value and type, placed right after
  /// the definition; constants and empty tensors are re-created instead.
  Value getConverted(Value value, Type type) {
    auto [it, inserted] = conversions.try_emplace({value, type}, Value());
    if (!inserted)
      return it->second;
    OpBuilder::InsertionGuard guard(rewriter);
    // Casts of block arguments go to the block's start in argument order.
    Block *argBlock = nullptr;
    if (Operation *def = value.getDefiningOp()) {
      rewriter.setInsertionPointAfter(def);
    } else {
      argBlock = cast<BlockArgument>(value).getOwner();
      if (Operation *last = lastArgumentCast.lookup(argBlock))
        rewriter.setInsertionPointAfter(last);
      else
        rewriter.setInsertionPointToStart(argBlock);
    }
    Location loc = value.getLoc();
    FloatType element = getFloatElementType(type);
    Value converted;
    // A constant is re-created rounded, unless it overflows: then the cast
    // stays visible in the IR.
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    if (constant && config.matrixConstantsWide && readOnlyByMatrixOps(value))
      constant = nullptr; // Rounded once, by whoever narrows it last.
    if (constant && fitsFormatRange(constant.getValue(), element)) {
      if (TypedAttr rounded = convertFloatConstant(constant.getValue(), element)) {
        converted = arith::ConstantOp::create(rewriter, loc, rounded);
        ++report.constantsRounded;
      }
    } else if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) {
      converted = tensor::EmptyOp::create(rewriter, loc, type,
                                          empty.getDynamicSizes());
    }
    if (!converted) {
      auto cast = CastOp::create(rewriter, loc, type, value);
      insertedCasts.insert(cast);
      converted = cast;
      ++report.castsInserted;
    }
    if (argBlock)
      lastArgumentCast[argBlock] = converted.getDefiningOp();
    it->second = converted;
    return converted;
  }

  void setResultType(Value result, Type type) {
    if (result.getType() == type)
      return;
    originalTypes[result] = result.getType();
    retypedOrder.push_back(result);
    result.setType(type);
  }

  void retypeOp(OpColouring &node) {
    Operation *op = node.op;
    // Constants are re-created with rounded values.
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (config.matrixConstantsWide && readOnlyByMatrixOps(constant))
        return; // Its matrix uses get a lowp.cast (getConverted).
      TypedAttr rounded = convertFloatConstant(constant.getValue(), low);
      if (!rounded)
        return;
      rewriter.modifyOpInPlace(op, [&] {
        constant.setValueAttr(rounded);
        setResultType(constant.getResult(), rounded.getType());
      });
      ++report.constantsRounded;
      return;
    }
    rewriter.modifyOpInPlace(op, [&] {
      for (OpResult result : op->getResults()) {
        if (!isRetypeableF32(result.getType()))
          continue;
        // A wide accumulator keeps the result tied to it wide.
        if (OpOperand *tied = getTiedInit(op, result);
            tied && colouring.keepsWideAccumulator(node, *tied))
          continue;
        setResultType(result, colouring.toLow(result.getType()));
      }
    });
    if (auto structured = dyn_cast<linalg::LinalgOp>(op))
      retypeBody(node, structured);
    else if (auto pad = dyn_cast<tensor::PadOp>(op))
      retypePadValue(pad);
  }

  /// An f32 scalar constant defined outside the body of `region`'s op and
  /// read inside it (torch-mlir captures every scalar operand this way) that
  /// the low format holds: a low body reads a rounded copy instead.
  bool isCapturedLowConstant(Value value, Region *region) {
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    return constant && !region->isAncestor(value.getParentRegion()) &&
           constant.getType().isF32() &&
           fitsFormatRange(constant.getValue(), low);
  }

  /// Can every float op of the body compute in the low format directly?
  /// Floats it reads or yields from outside must be constants it can round.
  bool canComputeBodyInLow(linalg::LinalgOp op) {
    Region *body = op.getBlock()->getParent();
    auto readsOnlyLowFloats = [&](Operation &bodyOp) {
      return llvm::all_of(bodyOp.getOperands(), [&](Value operand) {
        return body->isAncestor(operand.getParentRegion()) ||
               !holdsFloats(operand.getType()) ||
               isCapturedLowConstant(operand, body);
      });
    };
    for (Operation &bodyOp : op.getBlock()->without_terminator()) {
      if (!isFloatPolymorphicDialect(bodyOp.getDialect()) &&
          !isa<linalg::IndexOp>(bodyOp))
        return false;
      if (isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp>(bodyOp))
        return false;
      if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp))
        if (!fitsFormatRange(constant.getValue(), low))
          return false;
      if (!readsOnlyLowFloats(bodyOp))
        return false;
    }
    return readsOnlyLowFloats(*op.getBlock()->getTerminator());
  }

  /// Makes the low body of `op` read rounded copies of the constants it
  /// captures, created once each at the start of the body.
  void roundCapturedConstants(linalg::LinalgOp op) {
    Block *block = op.getBlock();
    Region *body = block->getParent();
    DenseMap<Value, Value> rounded;
    for (Operation &bodyOp : *block)
      for (OpOperand &operand : bodyOp.getOpOperands()) {
        Value value = operand.get();
        if (!isCapturedLowConstant(value, body))
          continue;
        Value &copy = rounded[value];
        if (!copy) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(block);
          copy = arith::ConstantOp::create(
              rewriter, value.getLoc(),
              convertFloatConstant(value.getDefiningOp<arith::ConstantOp>().getValue(),
                            low));
          ++report.constantsRounded;
        }
        operand.set(copy);
      }
  }

  /// Gives the body block arguments the element types of the new operand
  /// types. The body then computes in the low format when the op's inits are
  /// low and every body op allows it; otherwise it computes in f32 as before
  /// (arguments extended on entry, yielded values truncated on exit) - the
  /// usual mixed-precision contraction with a wide accumulator.
  void retypeBody(OpColouring &node, linalg::LinalgOp op) {
    Block *block = op.getBlock();
    // The inits' types before retyping: a producer already made low (a
    // lowp.precision override) does not make a wide accumulator low.
    bool lowBody = config.lowArithmetic && canComputeBodyInLow(op) &&
                   llvm::all_of(getInitOperands(op), [&](OpOperand &init) {
                     return !isRetypeableF32(getOriginalType(init.get())) ||
                            !colouring.keepsWideAccumulator(node, init);
                   });
    rewriter.modifyOpInPlace(op, [&] {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(block);
      for (auto [use, arg] : llvm::zip(op.getOpOperandsMatchingBBargs(),
                                       block->getArguments())) {
        if (!arg.getType().isF32())
          continue;
        Type wanted = getElementTypeOrSelf(
            colouring.getWantedType(node, *use,
                                    getOriginalType(use->get())));
        if (wanted == arg.getType())
          continue;
        arg.setType(wanted);
        if (lowBody || arg.use_empty())
          continue;
        auto wide = arith::ExtFOp::create(rewriter, arg.getLoc(),
                                          rewriter.getF32Type(), arg);
        rewriter.replaceAllUsesExcept(arg, wide, wide);
      }
      if (lowBody) {
        for (Operation &bodyOp : block->without_terminator()) {
          if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp)) {
            if (TypedAttr rounded =
                    convertFloatConstant(constant.getValue(), low)) {
              constant.setValueAttr(rounded);
              constant.getResult().setType(rounded.getType());
              ++report.constantsRounded;
            }
            continue;
          }
          for (Value result : bodyOp.getResults())
            if (result.getType().isF32())
              result.setType(low);
        }
        roundCapturedConstants(op);
        return;
      }
      // Wide body: truncate what is yielded into low inits.
      Operation *yield = block->getTerminator();
      rewriter.setInsertionPoint(yield);
      for (OpOperand &yielded : yield->getOpOperands()) {
        Type wanted = getElementTypeOrSelf(
            op->getResult(yielded.getOperandNumber()).getType());
        if (yielded.get().getType() == wanted || !isa<FloatType>(wanted))
          continue;
        auto narrow = arith::TruncFOp::create(rewriter, yield->getLoc(),
                                              wanted, yielded.get());
        yielded.set(narrow);
      }
    });
  }

  /// The padding value of a low tensor.pad is yielded in the low format.
  void retypePadValue(tensor::PadOp pad) {
    auto yield = cast<tensor::YieldOp>(pad.getBody()->getTerminator());
    Value value = yield.getValue();
    if (!value.getType().isF32())
      return;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    Value narrow;
    if (auto constant = value.getDefiningOp<arith::ConstantOp>())
      if (TypedAttr rounded = convertFloatConstant(constant.getValue(), low))
        narrow = arith::ConstantOp::create(rewriter, yield.getLoc(), rounded);
    if (!narrow)
      narrow = arith::TruncFOp::create(rewriter, yield.getLoc(), low,
                                       value);
    rewriter.modifyOpInPlace(yield, [&] { yield.getValueMutable().set(narrow); });
  }

  ModuleOp module;
  const InferenceConfig &config;
  /// The low format.
  FloatType low;
  PrecisionColouring &colouring;
  PrecisionReport &report;
  IRRewriter rewriter;

  DenseMap<Value, Type> originalTypes;
  /// Retyped values in the order they were retyped (deterministic output).
  SmallVector<Value> retypedOrder;
  DenseMap<std::pair<Value, Type>, Value> conversions;
  DenseMap<Block *, Operation *> lastArgumentCast;
  llvm::SmallPtrSet<Operation *, 16> insertedCasts;
  /// Matrix ops that arrived with a narrow accumulator and get an f32 one.
  llvm::SetVector<Operation *> narrowAccumulators;
  /// Generics that arrive computing in a 16-bit format the target has no
  /// arithmetic for, with that format.
  llvm::MapVector<Operation *, FloatType> arrivedLowBodies;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowpInferPrecisionPass
    : public lowp::impl::LowpInferPrecisionBase<LowpInferPrecisionPass> {
  using Base::Base;
  LowpInferPrecisionPass(const LowpInferPrecisionOptions &options,
                         std::shared_ptr<PrecisionReport> collected)
      : Base(options), collected(std::move(collected)) {}

  /// Where lowp-auto-mixed-precision collects the report, which its last
  /// step writes; null: the pass writes `report` itself.
  std::shared_ptr<PrecisionReport> collected;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    PrecisionReport report;

    // The target: the option (recorded on the module) or the module's.
    FailureOr<const TargetInfo *> resolved = resolveTarget(module, this->target);
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *target = *resolved;
    // The option sets the target for every later pass too.
    if (!this->target.empty())
      LowpDialect::TargetAttrHelper(context).setAttr(
          module, TargetAttr::get(context, this->target));
    if (target)
      report.target = target->name.str();

    InferenceConfig config;
    if (!stateFormat.empty()) {
      // The 8-bit formats of values (not E8M0, a format of scales).
      static constexpr Format kStateFormats[] = {
          Format::F8E4M3FN, Format::F8E5M2, Format::F8E4M3FNUZ,
          Format::F8E5M2FNUZ};
      std::optional<Format> format = symbolizeFormat(stateFormat);
      if (!format || !llvm::is_contained(kStateFormats, *format)) {
        InFlightDiagnostic diag = module.emitError()
                                  << "state-format: expected an 8-bit float "
                                     "format (";
        llvm::interleaveComma(kStateFormats, diag, [&](Format f) {
          diag << stringifyFormat(f);
        });
        diag << "), got '" << stateFormat << "'";
        return signalPassFailure();
      }
      FloatType stored = getFloatType(context, *format);
      if (!demoteState) {
        module.emitError() << "state-format=" << stateFormat
                           << " stores demoted state: it needs demote-state";
        return signalPassFailure();
      }
      config.stateFormat = stored;
    }
    // `low` and `accumulate` are enum options: the pipeline parser has
    // rejected other spellings (low offers auto, f16 and bf16).
    if (lowFormat == LowFormat::F16) {
      config.colouring.low = Float16Type::get(context);
    } else if (lowFormat == LowFormat::BF16) {
      config.colouring.low = BFloat16Type::get(context);
    } else {
      if (!target) {
        module.emitError() << "low=auto needs a target: pass target=<chip> "
                              "or set the module's lowp.target";
        return signalPassFailure();
      }
      if (target->preferred16) {
        config.colouring.low = getFloatType(context, *target->preferred16);
      } else {
        // Nothing is demoted; what arrives in 16 bits is still treated
        // (steps 5 and 6). bf16 only classifies: the colouring needs a
        // format to ask the classes with.
        config.colouring.demote = false;
        config.colouring.low = BFloat16Type::get(context);
        report.note = ("target '" + target->name +
                       "' has no fast 16-bit matrix arithmetic; precision "
                       "inference demotes nothing")
                          .str();
        mlir::emitRemark(module.getLoc()) << report.note;
      }
    }
    config.colouring.wideAccumulator = accumulate == Accumulator::F32;
    for (const std::string &name : keepWideOps)
      config.colouring.keepWide.insert(name);
    for (const std::string &name : forceLowOps)
      config.colouring.forceLow.insert(name);
    config.emitRemarks = emitRemarks;
    config.demoteSignatures = demoteSignatures;
    config.demoteState = demoteState;
    config.demoteWeights = demoteWeights == WeightDemotion::Arguments;
    config.colouring.propagate = propagate;
    config.colouring.keepStreamsWide = keepStreamsF32;
    config.matrixConstantsWide = matrixConstantsWide;
    bool reporting = !reportPath.empty() || collected;
    config.recordDecisions = emitRemarks || reporting;

    // The report is read only when it is written (reportPath) or its
    // decisions are remarked; printing a type sets up an AsmState, a fixed
    // cost every other run would pay for nothing.
    if (config.recordDecisions) {
      report.lowFormat = config.colouring.demote
                             ? printType(config.colouring.low)
                             : "none";
      report.accumulate = config.colouring.wideAccumulator ? "f32" : report.lowFormat;
    }
    config.target = target;
    if (target && config.colouring.demote) {
      std::optional<Format> format = getFormat(config.colouring.low);
      if (format && !target->hasMatrixUnit(*format))
        mlir::emitRemark(module.getLoc()) << "target '" << target->name << "' has no "
                            << printType(config.colouring.low)
                            << " matrix units; demoting as requested";
      config.lowArithmetic = format && target->hasNativeArithmetic(*format);
      if (!config.lowArithmetic && config.recordDecisions)
        report.note = ("target '" + target->name + "' has no " +
                       report.lowFormat +
                       " elementwise arithmetic; low payloads store " +
                       report.lowFormat + " and compute in f32")
                          .str();
      if (!config.lowArithmetic && config.emitRemarks)
        mlir::emitRemark(module.getLoc()) << report.note;
    }

    if (reporting)
      report.bytesBefore = measureTensorBytes(module);
    PrecisionColouring colouring(module, config.colouring);
    PrecisionRewrite(module, config, colouring, report).run();
    if (reporting)
      report.measureFinal(module);

    if (failed(writeReport(report)))
      return signalPassFailure();
  }

  LogicalResult writeReport(const PrecisionReport &report) {
    if (collected) {
      *collected = report;
      return success();
    }
    return report.writeTo(getOperation(), reportPath);
  }
};
} // namespace

std::unique_ptr<Pass> mlir::lowp::createLowpInferPrecision(
    const LowpInferPrecisionOptions &options,
    std::shared_ptr<PrecisionReport> collected) {
  return std::make_unique<LowpInferPrecisionPass>(options,
                                                  std::move(collected));
}
