//===- FP8Candidates.h - which tensors FP8 applies to ------------*- C++ -*-===//
//
// The tensors `lowp-select-fp8-formats` quantizes and the calibration passes
// measure: the float operands of matrix ops, numbered the same way by every
// pass that names them.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_FP8CANDIDATES_H
#define LOWP_ANALYSIS_FP8CANDIDATES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::lowp {

/// A dense contraction or convolution: by the op's PrecisionClassOpInterface
/// when it has one, else by linalg's contraction/convolution interfaces.
bool isMatrixOp(Operation *op);

/// The input of a narrowing lowp.cast (as precision inference inserts before
/// matrix ops), else `value`: the widest form of the tensor.
Value lookThroughNarrowingCast(Value value);

/// The widest forms of the float tensor operands of `func`'s matrix ops
/// (outside lowp.island, not pinned by lowp.precision), in program order,
/// each once. Index `i` of this list
/// is the tensor's calibration index.
SmallVector<Value> getFP8CandidateTensors(FunctionOpInterface func);

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_FP8CANDIDATES_H
