//===- ConstantHazards.cpp - float constants a format cannot hold ---------===//

#include "lowp/Analysis/ConstantHazards.h"

#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::lowp;

std::optional<ConstantHazard>
mlir::lowp::findConstantHazard(Attribute attr, FloatType low) {
  auto check = [&](APFloat value) -> std::optional<ConstantHazard> {
    if (!value.isFinite() || value.isZero())
      return std::nullopt;
    APFloat narrowed = value;
    bool losesInfo = false;
    narrowed.convert(low.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
    if (!narrowed.isFinite())
      return ConstantHazard{value, /*overflows=*/true};
    if (narrowed.isZero())
      return ConstantHazard{value, /*overflows=*/false};
    return std::nullopt;
  };
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return check(floatAttr.getValue());
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    if (dense.isSplat())
      return check(dense.getSplatValue<APFloat>());
    for (APFloat value : dense.getValues<APFloat>())
      if (auto hazard = check(value))
        return hazard;
  }
  return std::nullopt;
}

std::optional<ConstantHazard>
mlir::lowp::findConstantHazard(Operation *op, FloatType low) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return std::nullopt;
  FloatType type = getFloatElementType(constant.getType());
  if (!type || type.getWidth() <= low.getWidth())
    return std::nullopt;
  return findConstantHazard(constant.getValue(), low);
}
