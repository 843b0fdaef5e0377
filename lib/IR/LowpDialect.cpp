//===- LowpDialect.cpp - lowp dialect -------------------------------------===//

#include "lowp/IR/LowpDialect.h"

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
  if (name == getIslandReasonsAttrName()) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!isa<IslandOp>(op) || !array ||
        !llvm::all_of(array, llvm::IsaPred<StringAttr>))
      return op->emitError() << "'" << name
                             << "' must be an array of strings on a "
                                "lowp.island";
    return success();
  }
  return op->emitError() << "unknown lowp attribute '" << name << "'";
}
