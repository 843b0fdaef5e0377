//===- TargetResolution.cpp - which target a pass runs for ----------------===//

#include "lowp/IR/TargetResolution.h"
#include "lowp/IR/LowpDialect.h"

using namespace mlir;
using namespace mlir::lowp;

StringRef mlir::lowp::getEnclosingTargetChip(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto attr =
            op->getAttrOfType<TargetAttr>(LowpDialect::getTargetAttrName()))
      return attr.getChip();
  return {};
}

FailureOr<const TargetInfo *> mlir::lowp::resolveTarget(Operation *op,
                                                        StringRef optionChip) {
  StringRef chip =
      optionChip.empty() ? getEnclosingTargetChip(op) : optionChip;
  if (chip.empty())
    return static_cast<const TargetInfo *>(nullptr);
  if (const TargetInfo *target = lookupTarget(chip))
    return target;
  op->emitError() << "unknown target '" << chip
                  << "'; known targets: " << getKnownTargetNames();
  return failure();
}
