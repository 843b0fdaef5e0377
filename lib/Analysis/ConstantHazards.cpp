//===- ConstantHazards.cpp - float constants a format cannot hold ---------===//

#include "lowp/Analysis/ConstantHazards.h"

#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/ResourceConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::lowp;

/// What rounding `value` to `format` does to it: the hazard, if any.
static std::optional<ConstantHazard> checkNarrowing(const APFloat &value,
                                                    FloatType format) {
  if (!value.isFinite() || value.isZero())
    return std::nullopt;
  APFloat narrowed = value;
  bool losesInfo = false;
  narrowed.convert(format.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
  if (!narrowed.isFinite())
    return ConstantHazard{value, /*overflows=*/true};
  if (narrowed.isZero())
    return ConstantHazard{value, /*overflows=*/false};
  return std::nullopt;
}

std::optional<ConstantHazard>
mlir::lowp::findConstantHazard(Attribute attr, FloatType low) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return checkNarrowing(floatAttr.getValue(), low);
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    if (dense.isSplat())
      return checkNarrowing(dense.getSplatValue<APFloat>(), low);
    for (APFloat value : dense.getValues<APFloat>())
      if (auto hazard = checkNarrowing(value, low))
        return hazard;
  }
  return std::nullopt;
}

bool mlir::lowp::fitsFormatRange(Attribute value, FloatType format) {
  auto fits = [&](const APFloat &x) {
    std::optional<ConstantHazard> hazard = checkNarrowing(x, format);
    return !hazard || !hazard->overflows;
  };
  if (auto scalar = dyn_cast<FloatAttr>(value))
    return fits(scalar.getValue());
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
    if (dense.isSplat())
      return fits(dense.getSplatValue<APFloat>());
    return llvm::all_of(dense.getValues<APFloat>(), fits);
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (std::optional<SmallVector<APFloat>> values =
            readResourceFloats(resource))
      return llvm::all_of(*values, fits);
  return true;
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
