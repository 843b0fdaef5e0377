//===- TargetResolution.h - which target a pass runs for ---------*- C++ -*-===//
//
// Every pass learns its target the same way: its `target` option when set,
// else the nearest enclosing `lowp.target` attribute.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_IR_TARGETRESOLUTION_H
#define LOWP_IR_TARGETRESOLUTION_H

#include "lowp/Target/TargetInfo.h"
#include "mlir/IR/Operation.h"

namespace mlir::lowp {

/// The chip named by the `lowp.target` attribute of `op` or of its nearest
/// ancestor that has one; empty when none does.
StringRef getEnclosingTargetChip(Operation *op);

/// The capability-table row for `optionChip` when it is not empty, else for
/// the nearest enclosing `lowp.target`; null when neither names a chip. An
/// unknown chip is reported on `op` ("unknown target '...'; known targets:
/// ...") and fails.
FailureOr<const TargetInfo *> resolveTarget(Operation *op,
                                            StringRef optionChip);

} // namespace mlir::lowp

#endif // LOWP_IR_TARGETRESOLUTION_H
