//===- TargetResolution.cpp - which target a pass runs for ----------------===//

#include "lowp/IR/TargetResolution.h"
#include "lowp/IR/LowpDialect.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Mutex.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::lowp;

StringRef mlir::lowp::getEnclosingTargetChip(Operation *op) {
  if (!op)
    return {};
  LowpDialect::TargetAttrHelper targetAttr(op->getContext());
  for (; op; op = op->getParentOp())
    if (TargetAttr attr = targetAttr.getAttr(op))
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

std::string mlir::lowp::selectTargetOption(StringRef owner, StringRef target,
                                           StringRef oldName,
                                           StringRef oldValue) {
  if (oldValue.empty())
    return target.str();
  static llvm::sys::SmartMutex<true> mutex;
  static llvm::StringSet<> warned;
  {
    llvm::sys::SmartScopedLock<true> lock(mutex);
    std::string key = (owner + " " + oldName).str();
    if (warned.insert(key).second)
      llvm::errs() << "warning: " << owner << ": option '" << oldName
                   << "' is deprecated and will be removed in the next "
                      "release; use 'target'"
                   << (target.empty() ? "" : " (given too: it wins)") << "\n";
  }
  return target.empty() ? oldValue.str() : target.str();
}
