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

/// The chip that pass or pipeline `owner` was given: its `target` option, or,
/// when that is empty, `oldValue`, the value of the option's deprecated
/// spelling `oldName` (cpu=, chip=, generation=: accepted for one release).
/// Using an old spelling prints a warning on stderr, once per process and
/// spelling: it is about the command line, not about the IR, so it is no
/// diagnostic on an op (and `-verify-diagnostics` runs are not disturbed).
std::string selectTargetOption(StringRef owner, StringRef target,
                               StringRef oldName, StringRef oldValue);

} // namespace mlir::lowp

#endif // LOWP_IR_TARGETRESOLUTION_H
