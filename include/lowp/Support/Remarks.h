//===- Remarks.h - remarks of the lowering passes ---------------*- C++ -*-===//
//
// How a lowering pass says what it did to an op, or why it did not.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_SUPPORT_REMARKS_H
#define LOWP_SUPPORT_REMARKS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

namespace mlir::lowp {

/// A remark at `op`'s location, without the op printed beside it.
/// Operation::emitRemark attaches the op where the context prints ops on
/// diagnostics (mlir-opt's and the C API's default), and printing one op
/// numbers every value of the function around it: after bufferization a
/// whole model's function has tens of thousands of ops, and a remark per
/// layer then costs more than the lowering. The remarks name the op kind
/// themselves; errors keep the op.
inline InFlightDiagnostic emitRemarkAt(Operation *op) {
  return mlir::emitRemark(op->getLoc());
}

} // namespace mlir::lowp

#endif // LOWP_SUPPORT_REMARKS_H
