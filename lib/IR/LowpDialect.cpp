//===- LowpDialect.cpp - lowp dialect -------------------------------------===//

#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/TrainingStep.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::lowp;

#include "lowp/IR/LowpOpsDialect.cpp.inc"

void LowpDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lowp/IR/LowpOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *LowpDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

/// Checks the training-step markers of docs/training-step.md; nullopt for
/// names that are not training-step markers.
static std::optional<LogicalResult>
verifyTrainingStepAttribute(function_ref<InFlightDiagnostic()> emitError,
                            StringRef name, Attribute value,
                            unsigned numResults) {
  namespace ts = training;
  auto fail = [&](StringRef what) -> LogicalResult {
    return emitError() << "'" << name << "' " << what;
  };
  auto isUnit = llvm::IsaPred<UnitAttr>;
  if (name == ts::kLossAttr || name == ts::kGoodStepsAttr ||
      name == ts::kNumericsCheckedAttr)
    return isUnit(value) ? success() : fail("is a unit attribute");
  if (name == ts::kLossSeedAttr)
    return isUnit(value) && numResults == 1
               ? success()
               : fail("is a unit attribute on a single-result op");
  if (name == ts::kGradientAttr)
    return isa<UnitAttr, StringAttr>(value) && numResults > 0
               ? success()
               : fail("is a unit or string attribute on an op with results");
  if (name == ts::kUpdatesAttr) {
    auto index = dyn_cast<IntegerAttr>(value);
    return index && !index.getValue().isNegative()
               ? success()
               : fail("must be the index of the argument it updates");
  }
  if (name == ts::kLossScaleAttr) {
    // The initial scale on the argument, a unit attribute on the result.
    auto initial = dyn_cast<FloatAttr>(value);
    return isUnit(value) || (initial && initial.getValueAsDouble() > 0.0)
               ? success()
               : fail("is a unit attribute or a positive initial scale");
  }
  if (name == ts::kLossScalingAttr) {
    auto mode = dyn_cast<StringAttr>(value);
    return mode && symbolizeLossScaleMode(mode.getValue())
               ? success()
               : fail("must be \"none\", \"static\" or \"dynamic\"");
  }
  return std::nullopt;
}

/// Checks one discardable `lowp.*` attribute wherever it appears: on an op
/// (`numResults` = its result count), a region argument or a result
/// (`numResults` = 1). Every name ODS declares (discardableAttrs in
/// LowpBase.td) has its rule here; any other `lowp.*` name is an error.
static LogicalResult
verifyDiscardableAttribute(function_ref<InFlightDiagnostic()> emitError,
                           NamedAttribute attr, unsigned numResults) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == LowpDialect::PrecisionAttrHelper::getNameStr()) {
    auto typeAttr = dyn_cast<TypeAttr>(value);
    if (!typeAttr || !isa<FloatType>(typeAttr.getValue()))
      return emitError() << "'" << name << "' must name a float type, got "
                         << value;
    return success();
  }
  if (name == LowpDialect::TargetAttrHelper::getNameStr()) {
    if (!isa<TargetAttr>(value))
      return emitError() << "'" << name
                         << "' must be a #lowp.target attribute";
    return success();
  }
  if (name == LowpDialect::PolicyAttrHelper::getNameStr()) {
    if (!isa<PolicyAttr>(value))
      return emitError() << "'" << name
                         << "' must be a #lowp.policy attribute";
    return success();
  }
  if (name == LowpDialect::StatsAttrHelper::getNameStr()) {
    // One stats attribute for a single value, or one per result.
    if (isa<StatsAttr>(value)) {
      if (numResults > 1)
        return emitError() << "'" << name << "' on an op with " << numResults
                           << " results needs an array of one #lowp.stats "
                              "per result";
      return success();
    }
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array || !llvm::all_of(array, llvm::IsaPred<StatsAttr>))
      return emitError() << "'" << name
                         << "' must be a #lowp.stats attribute or an array "
                            "of them";
    if (array.size() != numResults)
      return emitError() << "'" << name << "' has " << array.size()
                         << " entries for " << numResults << " results";
    return success();
  }
  if (name == LowpDialect::IslandReasonsAttrHelper::getNameStr()) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array || !llvm::all_of(array, llvm::IsaPred<StringAttr>))
      return emitError() << "'" << name << "' must be an array of strings";
    return success();
  }
  if (name == LowpDialect::RoleAttrHelper::getNameStr()) {
    // One role for a single value, or one per result.
    if (isa<TensorRoleAttr>(value))
      return success();
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array || !llvm::all_of(array, llvm::IsaPred<TensorRoleAttr>) ||
        array.size() != numResults)
      return emitError() << "'" << name
                         << "' must be a #lowp.role attribute or an array of "
                            "one per result";
    return success();
  }
  if (name == LowpDialect::AmaxHistoryAttrHelper::getNameStr()) {
    auto format = dyn_cast<TypeAttr>(value);
    auto floatType =
        format ? dyn_cast<FloatType>(format.getValue()) : FloatType();
    if (!floatType || floatType.getWidth() != 8)
      return emitError() << "'" << name
                         << "' must name the 8-bit float type it scales";
    return success();
  }
  if (name == LowpDialect::Fp8ScaleAttrHelper::getNameStr()) {
    auto scale = dyn_cast<FloatAttr>(value);
    if ((scale && scale.getType().isF32() &&
         scale.getValue().isFiniteNonZero() && !scale.getValue().isNegative()) ||
        isa<IntegerAttr>(value))
      return success();
    return emitError() << "'" << name
                       << "' must be a positive f32 scale or the index of "
                          "the scale argument";
  }
  if (name == LowpDialect::Fp8ScaleOfAttrHelper::getNameStr()) {
    if (!isa<IntegerAttr>(value))
      return emitError() << "'" << name
                         << "' must be the index of the FP8 argument";
    return success();
  }
  if (name == LowpDialect::Fp8AxisAttrHelper::getNameStr()) {
    auto axis = dyn_cast<IntegerAttr>(value);
    if (!axis || axis.getValue().isNegative())
      return emitError() << "'" << name
                         << "' must be a dimension (a non-negative integer)";
    return success();
  }
  if (name == LowpDialect::ParallelAttrHelper::getNameStr() ||
      name == LowpDialect::RunsOnceAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (std::optional<LogicalResult> result =
          verifyTrainingStepAttribute(emitError, name, value, numResults))
    return *result;
  return emitError() << "unknown lowp attribute '" << name << "'";
}

LogicalResult LowpDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  return verifyDiscardableAttribute([&] { return op->emitError(); }, attr,
                                    op->getNumResults());
}

LogicalResult LowpDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  auto emitError = [&] {
    return op->emitError() << "argument #" << argIndex << " of region #"
                           << regionIndex << ": ";
  };
  if (failed(verifyDiscardableAttribute(emitError, attr, /*numResults=*/1)))
    return failure();
  // The axis of a weight argument is one of its dimensions.
  if (attr.getName() == Fp8AxisAttrHelper::getNameStr())
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      if (argIndex < func.getNumArguments()) {
        auto shaped = dyn_cast<ShapedType>(func.getArgumentTypes()[argIndex]);
        int64_t axis = cast<IntegerAttr>(attr.getValue()).getInt();
        if (!shaped || !shaped.hasRank() || axis >= shaped.getRank())
          return emitError() << "'" << attr.getName().getValue() << "' = "
                             << axis << " is not a dimension of "
                             << func.getArgumentTypes()[argIndex];
      }
  return success();
}

LogicalResult LowpDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  return verifyDiscardableAttribute(
      [&] {
        return op->emitError()
               << "result #" << resultIndex << " of region #" << regionIndex
               << ": ";
      },
      attr, /*numResults=*/1);
}

void mlir::lowp::stripLowpAttributes(Operation *root,
                                     function_ref<bool(StringRef)> keep) {
  auto isLowp = [&](NamedAttribute attr) {
    StringRef name = attr.getName().getValue();
    return name.starts_with("lowp.") && !(keep && keep(name));
  };
  auto strip = [&](DictionaryAttr dict) -> DictionaryAttr {
    if (!dict || llvm::none_of(dict, isLowp))
      return dict;
    SmallVector<NamedAttribute> kept;
    llvm::copy_if(dict, std::back_inserter(kept),
                  [&](NamedAttribute a) { return !isLowp(a); });
    return DictionaryAttr::get(dict.getContext(), kept);
  };
  root->walk([&](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (isLowp(attr))
        names.push_back(attr.getName());
    for (StringAttr name : names)
      op->removeDiscardableAttr(name);
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function)
      return;
    if (ArrayAttr args = function.getAllArgAttrs()) {
      SmallVector<DictionaryAttr> stripped;
      for (Attribute dict : args)
        stripped.push_back(strip(cast<DictionaryAttr>(dict)));
      function.setAllArgAttrs(stripped);
    }
    if (ArrayAttr results = function.getAllResultAttrs()) {
      SmallVector<DictionaryAttr> stripped;
      for (Attribute dict : results)
        stripped.push_back(strip(cast<DictionaryAttr>(dict)));
      function.setAllResultAttrs(stripped);
    }
  });
}
