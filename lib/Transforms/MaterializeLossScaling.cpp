//===- MaterializeLossScaling.cpp - loss scaling in FP16 training steps ---===//
//
// Rewrites a training step marked per docs/training-step.md into one that
// scales its loss like torch.amp.GradScaler: scaled backward seed, f32
// unscaled gradients, updates skipped on non-finite gradients, and the scaler
// state threaded through the function's signature.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/TrainingStep.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPMATERIALIZELOSSSCALING
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;
namespace ts = mlir::lowp::training;

namespace {

/// A value checked at run time and how reports name it.
struct NamedValue {
  Value value;
  std::string name;
};

/// Master gradients computed by one op: the op carrying `lowp.gradient`, or
/// an exact widening cast of a low-precision marked result (what precision
/// inference leaves when it demotes a marked op).
struct GradientGroup {
  /// The op carrying the marker.
  Operation *marked;
  /// The op computing `values`, after which they are unscaled.
  Operation *producer;
  /// The f32 (or wider) gradients.
  SmallVector<Value> values;
};

/// What a function marks of the training-step convention.
struct TrainingStep {
  unsigned lossResult = 0;
  Operation *seed = nullptr;
  /// The ops carrying `lowp.gradient`, in program order.
  SmallVector<Operation *> gradientOps;
  /// The master gradients they mark.
  SmallVector<GradientGroup> gradients;
  /// (result index, argument index) of every `lowp.updates` result.
  SmallVector<std::pair<unsigned, unsigned>> updates;
};

/// The number of elements of a scalar or statically shaped value, if known.
std::optional<int64_t> getStaticNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return 1;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

/// How run-time reports name the gradients of `group`: the marker's string,
/// or the marked op and result number, and the marked op's location.
SmallVector<NamedValue> nameGradients(const GradientGroup &group) {
  SmallVector<NamedValue> named;
  Operation *op = group.marked;
  auto name = op->getAttrOfType<StringAttr>(ts::kGradientAttr);
  for (auto [index, value] : llvm::enumerate(group.values)) {
    std::string label;
    llvm::raw_string_ostream os(label);
    if (name)
      os << "'" << name.getValue() << "'";
    else
      os << "gradient of '" << op->getName() << "'";
    if (group.values.size() > 1)
      os << " #" << index;
    os << " at " << printReportLocation(op->getLoc());
    named.push_back({value, label});
  }
  return named;
}

/// The users of `value` if every one of them is an exact widening cast to a
/// float of at least 32 bits.
std::optional<SmallVector<Operation *>> getWideningCastUsers(Value value) {
  SmallVector<Operation *> casts;
  for (Operation *user : value.getUsers()) {
    bool exact = false;
    if (auto cast = dyn_cast<CastOp>(user))
      exact = cast.isWidening();
    else if (isa<arith::ExtFOp>(user))
      exact = true;
    FloatType element = getFloatElementType(user->getResult(0).getType());
    if (!exact || !element || element.getWidth() < 32)
      return std::nullopt;
    casts.push_back(user);
  }
  if (casts.empty())
    return std::nullopt;
  return casts;
}

/// Collects the training-step marking of `func`. Returns std::nullopt when
/// the function marks nothing, and failure (with a located error) when the
/// marking is partial or inconsistent.
FailureOr<std::optional<TrainingStep>> collectTrainingStep(func::FuncOp func) {
  SmallVector<unsigned> lossResults;
  TrainingStep step;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    if (Attribute loss = func.getResultAttr(i, ts::kLossAttr)) {
      if (!isa<UnitAttr>(loss))
        return func.emitOpError("'")
               << ts::kLossAttr << "' on result #" << i
               << " must be a unit attribute";
      lossResults.push_back(i);
    }
    if (Attribute updates = func.getResultAttr(i, ts::kUpdatesAttr)) {
      auto index = dyn_cast<IntegerAttr>(updates);
      if (!index)
        return func.emitOpError("'")
               << ts::kUpdatesAttr << "' on result #" << i
               << " must be the index of the argument it updates";
      step.updates.push_back({i, index.getValue().getZExtValue()});
      if (index.getValue().isNegative() ||
          index.getValue().getZExtValue() >= func.getNumArguments())
        return func.emitOpError("result #")
               << i << " is marked as the update of argument #"
               << index.getInt() << " but the function has "
               << func.getNumArguments() << " arguments";
    }
  }
  SmallVector<Operation *> seeds;
  if (!func.isExternal())
    func.walk([&](Operation *op) {
      // Discardable attributes: skip the lookup among inherent ones.
      if (op->getDiscardableAttr(ts::kLossSeedAttr))
        seeds.push_back(op);
      if (op->getDiscardableAttr(ts::kGradientAttr))
        step.gradientOps.push_back(op);
    });

  if (lossResults.empty() && step.updates.empty() && seeds.empty() &&
      step.gradientOps.empty())
    return std::optional<TrainingStep>();

  if (func.isExternal())
    return func.emitOpError("marks a training step but has no body");
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("is a training step with control flow between "
                            "blocks; only single-block bodies are supported");

  // The convention has four parts; all of them or none.
  SmallVector<StringRef> present, missing;
  auto require = [&](bool has, StringRef what) {
    (has ? present : missing).push_back(what);
  };
  require(!lossResults.empty(), "a loss result ('lowp.loss')");
  require(!seeds.empty(), "a backward seed ('lowp.loss_seed')");
  require(!step.gradientOps.empty(), "gradients ('lowp.gradient')");
  require(!step.updates.empty(), "parameter updates ('lowp.updates')");
  if (!missing.empty()) {
    InFlightDiagnostic diag =
        func.emitOpError("has an incomplete training-step marking: it marks ");
    llvm::interleave(present, diag, ", ");
    diag << " but not ";
    llvm::interleave(missing, diag, ", ");
    return diag;
  }

  if (lossResults.size() > 1)
    return func.emitOpError("marks ")
           << lossResults.size() << " results as the loss; a training step "
           << "has one";
  step.lossResult = lossResults.front();
  Type lossType = func.getResultTypes()[step.lossResult];
  if (!getFloatElementType(lossType))
    return func.emitOpError("loss result #")
           << step.lossResult << " must be a float scalar or tensor, got "
           << lossType;

  if (seeds.size() > 1)
    return seeds[1]->emitOpError("is a second backward seed; a training step "
                                 "has one");
  step.seed = seeds.front();
  Block *body = &func.getBody().front();
  for (Operation *op : llvm::concat<Operation *>(seeds, step.gradientOps))
    if (op->getBlock() != body)
      return op->emitOpError("marks part of a training step inside a nested "
                             "region; markers must be at the top level of "
                             "the function body");

  Type seedType = step.seed->getResult(0).getType();
  if (!getFloatElementType(seedType))
    return step.seed->emitOpError("backward seed must be a float scalar or "
                                  "tensor, got ")
           << seedType;
  std::optional<int64_t> seedSize = getStaticNumElements(seedType);
  std::optional<int64_t> lossSize = getStaticNumElements(lossType);
  if (seedSize && lossSize ? *seedSize != *lossSize
                           : !lowp::detail::haveSameShape(seedType, lossType))
    return step.seed->emitOpError("backward seed of type ")
           << seedType << " does not have the shape of the loss ("
           << lossType << ")";
  // A constant seed is the cotangent of the loss: exactly one everywhere.
  Attribute seedValue;
  if (matchPattern(step.seed->getResult(0), m_Constant(&seedValue))) {
    bool allOnes = false;
    if (auto scalar = dyn_cast<FloatAttr>(seedValue))
      allOnes = scalar.getValue().isExactlyValue(1.0);
    else if (auto dense = dyn_cast<DenseFPElementsAttr>(seedValue))
      allOnes = llvm::all_of(dense.getValues<APFloat>(), [](APFloat v) {
        return v.isExactlyValue(1.0);
      });
    if (!allOnes)
      return step.seed->emitOpError("backward seed must be 1.0 (the "
                                    "cotangent of the loss), got ")
             << seedValue;
  }

  // Marked results are the master gradients, or, when they are low
  // precision, their exact widening casts.
  for (Operation *op : step.gradientOps) {
    GradientGroup direct{op, op, {}};
    for (OpResult result : op->getResults()) {
      FloatType element = getFloatElementType(result.getType());
      if (element && element.getWidth() >= 32) {
        direct.values.push_back(result);
        continue;
      }
      std::optional<SmallVector<Operation *>> casts =
          element ? getWideningCastUsers(result) : std::nullopt;
      if (!casts)
        return op->emitOpError("result #")
               << result.getResultNumber() << " is marked as a gradient but "
               << "has type " << result.getType()
               << "; mark the f32 master gradient (after the cast from the "
                  "compute type)";
      for (Operation *cast : *casts)
        step.gradients.push_back({op, cast, {cast->getResult(0)}});
    }
    if (!direct.values.empty())
      step.gradients.push_back(std::move(direct));
  }

  llvm::SmallDenseMap<unsigned, unsigned> updatedBy;
  for (auto [result, arg] : step.updates) {
    Type resultType = func.getResultTypes()[result];
    Type argType = func.getArgumentTypes()[arg];
    if (resultType != argType)
      return func.emitOpError("result #")
             << result << " (" << resultType << ") updates argument #" << arg
             << " of a different type (" << argType << ")";
    auto [it, inserted] = updatedBy.insert({arg, result});
    if (!inserted)
      return func.emitOpError("results #")
             << it->second << " and #" << result << " both update argument #"
             << arg;
    if (result == step.lossResult)
      return func.emitOpError("result #")
             << result << " is both the loss and a parameter update";
  }

  // A gradient has the shape of the parameter it is the gradient of, so
  // some updated argument has its shape.
  auto shapeOf = [](Type type) -> ArrayRef<int64_t> {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() ? shaped.getShape() : ArrayRef<int64_t>{};
  };
  for (const GradientGroup &group : step.gradients)
    for (Value gradient : group.values) {
      ArrayRef<int64_t> shape = shapeOf(gradient.getType());
      bool matches = llvm::any_of(step.updates, [&](auto update) {
        return shapeOf(func.getArgumentTypes()[update.second]) == shape;
      });
      if (matches)
        continue;
      InFlightDiagnostic diag =
          group.marked->emitOpError("marks a gradient of type ")
          << gradient.getType()
          << ", the shape of no argument the step updates (a gradient has "
             "the shape of its parameter); updated:";
      for (auto [result, arg] : step.updates)
        diag << " #" << arg << " " << func.getArgumentTypes()[arg];
      return diag;
    }
  return std::optional<TrainingStep>(std::move(step));
}

/// The low-precision type the function computes in, read off the IR: f16
/// if any value has it (its gradients can underflow), else an 8-bit float,
/// else bf16, else the widest type present (f32: nothing is low precision).
FloatType inferComputeType(func::FuncOp func) {
  FloatType f16, f8, bf16, widest;
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      FloatType element = getFloatElementType(type);
      if (!element)
        continue;
      if (element.isF16())
        f16 = element;
      else if (element.getWidth() == 8)
        f8 = element;
      else if (element.isBF16())
        bf16 = element;
      else if (!widest || element.getWidth() > widest.getWidth())
        widest = element;
    }
  });
  if (f16)
    return f16;
  if (f8)
    return f8;
  if (bf16)
    return bf16;
  return widest;
}

/// Explains what the pass did (or not) with `func`'s training step: a
/// remark at the function, category lowp-materialize-loss-scaling.
void explainStep(func::FuncOp func, StringRef name, const Twine &message) {
  emitDecisionRemark(func.getLoc(), DecisionCategory::LossScaling, name,
                     func.getSymName(), message, /*asDiagnostic=*/true);
}

/// The `#lowp.policy` on `op` or its closest ancestor that has one.
PolicyAttr lookupPolicy(Operation *op) {
  LowpDialect::PolicyAttrHelper policyAttr(op->getContext());
  for (; op; op = op->getParentOp())
    if (PolicyAttr policy = policyAttr.getAttr(op))
      return policy;
  return {};
}

struct MaterializeLossScalingPass
    : lowp::impl::LowpMaterializeLossScalingBase<MaterializeLossScalingPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult verifyOptions(ModuleOp module);
  /// What `func` computes in, and where that comes from (the policy option,
  /// the closest #lowp.policy, else the function's float types).
  std::pair<FloatType, StringRef> getComputeType(func::FuncOp func);
  /// Decides whether `func` gets loss scaling; emits a remark when not.
  std::optional<LossScaleMode> decideMode(func::FuncOp func);
  void materialize(func::FuncOp func, TrainingStep &step, LossScaleMode mode);
  void insertNumericsChecks(func::FuncOp func, const TrainingStep &step);
};

LogicalResult MaterializeLossScalingPass::verifyOptions(ModuleOp module) {
  auto fail = [&](const Twine &message) {
    return module.emitError("lowp-materialize-loss-scaling: ") << message;
  };
  if (!(initScale > 0.0) || !std::isfinite(initScale))
    return fail("init-scale must be a positive finite number");
  if (std::optional<ScaleUpdateParameter> invalid =
          findInvalidScaleUpdateParameter(growthFactor, backoffFactor,
                                          growthInterval)) {
    switch (*invalid) {
    case ScaleUpdateParameter::GrowthFactor:
      return fail("growth-factor must be a finite number > 1");
    case ScaleUpdateParameter::BackoffFactor:
      return fail("backoff-factor must be in (0, 1)");
    case ScaleUpdateParameter::GrowthInterval:
      return fail("growth-interval must be at least 1");
    }
  }
  if (minScale < 0.0 || maxScale < 0.0)
    return fail("min-scale and max-scale must be >= 0 (0: unbounded)");
  if (minScale > 0.0 && maxScale > 0.0 && minScale > maxScale)
    return fail("min-scale exceeds max-scale");
  return success();
}

std::pair<FloatType, StringRef>
MaterializeLossScalingPass::getComputeType(func::FuncOp func) {
  Builder b(func.getContext());
  // Autocast (which the option does not offer; a C++ caller may pass it)
  // decides per op, so the IR says what the step computes in, as for auto.
  if (policy != PrecisionPolicy::Auto && policy != PrecisionPolicy::Autocast)
    return {policy == PrecisionPolicy::F16 ? b.getF16Type()
            : policy == PrecisionPolicy::BF16
                ? b.getBF16Type()
                : FloatType(b.getType<Float8E4M3FNType>()),
            "the pass's policy option"};
  if (PolicyAttr policyAttr = lookupPolicy(func))
    return {policyAttr.getCompute(), "#lowp.policy"};
  return {inferComputeType(func), "the function's float types"};
}

std::optional<LossScaleMode>
MaterializeLossScalingPass::decideMode(func::FuncOp func) {
  PolicyAttr policyAttr = lookupPolicy(func);

  // Loss scaling exists for f16's narrow exponent range only.
  auto [compute, computeSource] = getComputeType(func);
  if (!compute.isF16()) {
    std::string why;
    llvm::raw_string_ostream os(why);
    if (compute.getWidth() <= 8)
      os << "8-bit float compute ('" << compute << "', from " << computeSource
         << ") is scaled per tensor by "
         << "lowp-select-fp8-formats, not by a loss scale";
    else
      os << "compute type '" << compute << "' (from " << computeSource
         << ") has an exponent range at least f32's, so gradients do not "
            "underflow";
    explainStep(func, "NotApplied", "loss scaling not applied: " + why);
    return std::nullopt;
  }

  LossScaleMode chosen = LossScaleMode::Dynamic;
  StringRef modeSource = "the f16 default";
  if (mode != LossScalingChoice::Auto) {
    chosen = mode == LossScalingChoice::None     ? LossScaleMode::None
             : mode == LossScalingChoice::Static ? LossScaleMode::Static
                                                 : LossScaleMode::Dynamic;
    modeSource = "the pass's mode option";
  } else if (policyAttr) {
    chosen = policyAttr.getLossScale();
    modeSource = "#lowp.policy";
  }
  if (chosen == LossScaleMode::None) {
    explainStep(func, "NotApplied",
                "loss scaling not applied: mode none (from " + modeSource +
                    ")");
    return std::nullopt;
  }
  return chosen;
}

void MaterializeLossScalingPass::materialize(func::FuncOp func,
                                             TrainingStep &step,
                                             LossScaleMode mode) {
  MLIRContext *ctx = func.getContext();
  IRRewriter rewriter(ctx);
  Block &body = func.getBody().front();
  Location loc = func.getLoc();
  Type f32 = rewriter.getF32Type();
  Type i64 = rewriter.getI64Type();
  auto unitDict = [&](StringRef name) {
    return rewriter.getDictionaryAttr(
        rewriter.getNamedAttr(name, rewriter.getUnitAttr()));
  };

  // The scale: the caller's state (dynamic) or a constant (static).
  Value scale, goodSteps;
  if (mode == LossScaleMode::Dynamic) {
    unsigned n = func.getNumArguments();
    // The argument records the scale a caller starts from.
    auto initialScale = rewriter.getDictionaryAttr(rewriter.getNamedAttr(
        ts::kLossScaleAttr, rewriter.getF32FloatAttr(initScale)));
    rewriter.modifyOpInPlace(func, [&] {
      (void)func.insertArguments({n, n}, {f32, i64},
                                 {initialScale, unitDict(ts::kGoodStepsAttr)},
                                 {loc, loc});
    });
    scale = body.getArgument(n);
    goodSteps = body.getArgument(n + 1);
  } else {
    rewriter.setInsertionPointToStart(&body);
    scale = arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getF32FloatAttr(initScale));
  }

  // The backward pass starts from `scale` instead of 1.0.
  Value seed = step.seed->getResult(0);
  rewriter.setInsertionPointAfter(step.seed);
  auto scaledSeed = ScaleOp::create(rewriter, step.seed->getLoc(), scale,
                                    ValueRange{seed});
  rewriter.replaceAllUsesExcept(seed, scaledSeed.getResult(0), scaledSeed);
  rewriter.modifyOpInPlace(step.seed,
                           [&] { step.seed->removeAttr(ts::kLossSeedAttr); });
  scaledSeed->setAttr(ts::kLossSeedAttr, rewriter.getUnitAttr());
  step.seed = scaledSeed;

  // Every master gradient is unscaled right after it is computed; the
  // unscaled value replaces it everywhere and carries the marker from now on.
  SmallVector<Value> unscaled;
  SmallVector<GradientGroup> unscaledGroups;
  Operation *lastUnscale = nullptr;
  for (GradientGroup &group : step.gradients) {
    rewriter.setInsertionPointAfter(group.producer);
    auto unscale = UnscaleOp::create(rewriter, group.producer->getLoc(),
                                     scale, group.values);
    for (auto [grad, plain] : llvm::zip(group.values, unscale.getResults()))
      rewriter.replaceAllUsesExcept(grad, plain, unscale);
    unscale->setAttr(ts::kGradientAttr,
                     group.marked->getAttr(ts::kGradientAttr));
    llvm::append_range(unscaled, unscale.getResults());
    unscaledGroups.push_back({unscale, unscale,
                              SmallVector<Value>(unscale.getResults())});
    if (!lastUnscale || lastUnscale->isBeforeInBlock(unscale))
      lastUnscale = unscale;
  }
  for (Operation *op : step.gradientOps)
    rewriter.modifyOpInPlace(op, [&] { op->removeAttr(ts::kGradientAttr); });
  step.gradientOps = llvm::map_to_vector(
      unscaledGroups, [](const GradientGroup &g) { return g.marked; });
  step.gradients = std::move(unscaledGroups);

  rewriter.setInsertionPointAfter(lastUnscale);
  Value finite = AllFiniteOp::create(rewriter, loc, unscaled);

  // A non-finite step returns what it received: GradScaler skips
  // optimizer.step().
  Operation *ret = body.getTerminator();
  rewriter.setInsertionPoint(ret);
  for (const auto &[resultIndex, arg] : step.updates) {
    unsigned result = resultIndex;
    Value updated = ret->getOperand(result);
    Value guarded = arith::SelectOp::create(rewriter, updated.getLoc(), finite,
                                            updated, body.getArgument(arg));
    rewriter.modifyOpInPlace(ret, [&] { ret->setOperand(result, guarded); });
  }

  if (mode == LossScaleMode::Dynamic) {
    auto f64Attr = [&](double v) { return rewriter.getF64FloatAttr(v); };
    auto update = UpdateScaleOp::create(
        rewriter, loc, scale, goodSteps, finite, f64Attr(growthFactor),
        f64Attr(backoffFactor), rewriter.getI64IntegerAttr(growthInterval),
        minScale > 0.0 ? f64Attr(minScale) : FloatAttr(),
        maxScale > 0.0 ? f64Attr(maxScale) : FloatAttr());
    unsigned n = func.getNumResults();
    rewriter.modifyOpInPlace(func, [&] {
      (void)func.insertResults({n, n}, {f32, i64},
                               {unitDict(ts::kLossScaleAttr),
                                unitDict(ts::kGoodStepsAttr)});
    });
    rewriter.modifyOpInPlace(ret, [&] {
      ret->insertOperands(ret->getNumOperands(), update.getResults());
    });
  }
  rewriter.modifyOpInPlace(func, [&] {
    func->setAttr(ts::kLossScalingAttr,
                  rewriter.getStringAttr(stringifyLossScaleMode(mode)));
  });
}

void MaterializeLossScalingPass::insertNumericsChecks(
    func::FuncOp func, const TrainingStep &step) {
  IRRewriter rewriter(func.getContext());
  Block &body = func.getBody().front();
  Operation *ret = body.getTerminator();
  rewriter.setInsertionPoint(ret);

  // Checked in order: the loss first, then the gradients as computed.
  SmallVector<NamedValue> checked;
  {
    std::string label;
    llvm::raw_string_ostream os(label);
    os << "loss (result #" << step.lossResult << " of @" << func.getSymName()
       << ")";
    if (Operation *def = ret->getOperand(step.lossResult).getDefiningOp())
      os << " at " << printReportLocation(def->getLoc());
    checked.push_back({ret->getOperand(step.lossResult), label});
  }
  for (const GradientGroup &group : step.gradients)
    llvm::append_range(checked, nameGradients(group));

  SmallVector<Value> finite;
  for (const NamedValue &value : checked)
    finite.push_back(
        AllFiniteOp::create(rewriter, value.value.getLoc(), value.value));

  // if (!finite0) report 0 else if (!finite1) report 1 ...: the first one.
  Location loc = ret->getLoc();
  std::function<void(OpBuilder &, unsigned)> buildCheck =
      [&](OpBuilder &b, unsigned i) {
        Value bad = arith::XOrIOp::create(
            b, loc, finite[i],
            arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
        auto thenBuilder = [&](OpBuilder &nb, Location nloc) {
          vector::PrintOp::create(nb, nloc,
                                  "lowp.check_numerics: non-finite " +
                                      checked[i].name + "\n");
          scf::YieldOp::create(nb, nloc);
        };
        if (i + 1 == checked.size()) {
          scf::IfOp::create(b, loc, bad, thenBuilder);
          return;
        }
        scf::IfOp::create(b, loc, bad, thenBuilder,
                          [&](OpBuilder &nb, Location nloc) {
                            buildCheck(nb, i + 1);
                            scf::YieldOp::create(nb, nloc);
                          });
      };
  buildCheck(rewriter, 0);
  rewriter.modifyOpInPlace(func, [&] {
    func->setAttr(ts::kNumericsCheckedAttr, rewriter.getUnitAttr());
  });
}

void MaterializeLossScalingPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(verifyOptions(module)))
    return signalPassFailure();

  // Collect and check every marking before changing anything.
  SmallVector<std::pair<func::FuncOp, TrainingStep>> steps;
  bool hadError = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    FailureOr<std::optional<TrainingStep>> step = collectTrainingStep(func);
    if (failed(step)) {
      hadError = true;
      continue;
    }
    if (*step)
      steps.push_back({func, std::move(**step)});
    else if (FloatType compute =
                 func.isExternal() ? FloatType() : getComputeType(func).first;
             compute && compute.isF16())
      // An f16 function that may be a training step written without the
      // convention: said in the remark stream only (inference functions
      // are unmarked too, and are left alone as they should be).
      emitDecisionRemark(func.getLoc(), DecisionCategory::LossScaling,
                         "NotATrainingStep", func.getSymName(),
                         "loss scaling not applied: no training-step markers "
                         "(lowp.loss, lowp.loss_seed, lowp.gradient, "
                         "lowp.updates; docs/training-step.md), so the "
                         "function is compiled as it is",
                         /*asDiagnostic=*/false);
  }
  if (hadError)
    return signalPassFailure();

  for (auto &[func, step] : steps) {
    if (auto done = func->getAttrOfType<StringAttr>(ts::kLossScalingAttr)) {
      explainStep(func, "AlreadyMaterialized",
                  "loss scaling already materialized (" + done.getValue() +
                      ")");
    } else if (std::optional<LossScaleMode> chosen = decideMode(func)) {
      // Dynamic scaling extends the signature; callers in this module would
      // be left calling the old one.
      if (*chosen == LossScaleMode::Dynamic) {
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func, module);
        if (uses && !uses->empty()) {
          uses->begin()->getUser()->emitOpError("refers to training step @")
              << func.getSymName()
              << ", whose signature dynamic loss scaling extends with the "
                 "scaler state (scale, good-step counter); write callers "
                 "against the materialized step";
          return signalPassFailure();
        }
      }
      materialize(func, step, *chosen);
    }
    if (checkNumerics && !func->hasAttr(ts::kNumericsCheckedAttr))
      insertNumericsChecks(func, step);
  }
}

} // namespace
