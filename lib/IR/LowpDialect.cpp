//===- LowpDialect.cpp - lowp dialect -------------------------------------===//

#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/TrainingStep.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

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

/// Checks the training-step markers (docs/training-step.md) an op may carry;
/// nullopt for names that are not training-step markers.
static std::optional<LogicalResult>
verifyTrainingStepAttribute(Operation *op, StringRef name, Attribute value) {
  namespace ts = training;
  auto fail = [&](StringRef what) -> LogicalResult {
    return op->emitError() << "'" << name << "' " << what;
  };
  if (name == ts::kLossSeedAttr) {
    if (!isa<UnitAttr>(value) || op->getNumResults() != 1)
      return fail("is a unit attribute on a single-result op");
    return success();
  }
  if (name == ts::kGradientAttr) {
    if (!isa<UnitAttr, StringAttr>(value) || op->getNumResults() == 0)
      return fail("is a unit or string attribute on an op with results");
    return success();
  }
  if (name == ts::kLossScalingAttr) {
    auto mode = dyn_cast<StringAttr>(value);
    if (!mode || !symbolizeLossScaleMode(mode.getValue()))
      return fail("must be \"none\", \"static\" or \"dynamic\"");
    return success();
  }
  if (name == ts::kNumericsCheckedAttr) {
    if (!isa<UnitAttr>(value))
      return fail("is a unit attribute");
    return success();
  }
  return std::nullopt;
}

/// Checks the discardable `lowp.*` attributes any op may carry.
LogicalResult LowpDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == getPrecisionAttrName()) {
    auto typeAttr = dyn_cast<TypeAttr>(value);
    if (!typeAttr || !isa<FloatType>(typeAttr.getValue()))
      return op->emitError() << "'" << name
                             << "' must name a float type, got " << value;
    return success();
  }
  if (name == getTargetAttrName()) {
    if (!isa<TargetAttr>(value))
      return op->emitError() << "'" << name
                             << "' must be a #lowp.target attribute";
    return success();
  }
  if (name == getPolicyAttrName()) {
    if (!isa<PolicyAttr>(value))
      return op->emitError() << "'" << name
                             << "' must be a #lowp.policy attribute";
    return success();
  }
  if (name == getStatsAttrName()) {
    // One stats attribute for a single-result op, or one per result.
    if (isa<StatsAttr>(value)) {
      if (op->getNumResults() > 1)
        return op->emitError() << "'" << name << "' on an op with "
                               << op->getNumResults()
                               << " results needs an array of one "
                                  "#lowp.stats per result";
      return success();
    }
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array || !llvm::all_of(array, llvm::IsaPred<StatsAttr>))
      return op->emitError() << "'" << name
                             << "' must be a #lowp.stats attribute or an "
                                "array of them";
    if (array.size() != op->getNumResults())
      return op->emitError() << "'" << name << "' has " << array.size()
                             << " entries for " << op->getNumResults()
                             << " results";
    return success();
  }
  if (std::optional<LogicalResult> result =
          verifyTrainingStepAttribute(op, name, value))
    return *result;
  return op->emitError() << "unknown lowp attribute '" << name << "'";
}
