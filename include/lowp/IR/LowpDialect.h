//===- LowpDialect.h - lowp dialect ------------------------------*- C++ -*-===//
//
// Everything a user of the lowp dialect needs: the dialect, its enums,
// attributes, the precision-class interface and the ops.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_IR_LOWPDIALECT_H
#define LOWP_IR_LOWPDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

// The attribute classes come first: the dialect's discardable-attribute
// helpers (discardableAttrs in LowpBase.td) are typed with them.
#include "lowp/IR/LowpEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "lowp/IR/LowpAttrs.h.inc"

#include "lowp/IR/LowpOpsDialect.h.inc"

#include "lowp/IR/LowpInterfaces.h.inc"

namespace mlir::lowp {
class YieldOp;
namespace detail {
/// True when `a` and `b` are both scalars, or vectors/tensors of one shape.
bool haveSameShape(Type a, Type b);
/// Parses a float literal into an f64 APFloat (attribute parameters).
FailureOr<llvm::APFloat> parseF64Parameter(AsmParser &parser);
} // namespace detail

/// The float element type of a float scalar, vector or tensor type, or null.
FloatType getFloatElementType(Type type);
/// The float type a user pinned `op` to with `lowp.precision`, or null: the
/// colouring, the FP8 pass and the calibration candidates all honour it.
FloatType getPinnedPrecision(Operation *op);
/// True for 8-bit float scalars, vectors and tensors (every FP8 flavour);
/// false for null and non-float types.
bool isEightBitFloat(Type type);
/// `type` with its float element type replaced by `elementType`; non-float
/// types are returned unchanged.
Type withFloatElementType(Type type, FloatType elementType);

/// The parameter of GradScaler's scale update that is out of its domain:
/// growth must be finite and > 1, backoff in (0, 1), the interval >= 1.
/// The op verifier and the loss-scaling pass's options share these rules.
enum class ScaleUpdateParameter { GrowthFactor, BackoffFactor, GrowthInterval };
std::optional<ScaleUpdateParameter>
findInvalidScaleUpdateParameter(double growthFactor, double backoffFactor,
                                int64_t growthInterval);

/// Removes every discardable `lowp.*` attribute under `root` (on ops,
/// function arguments and function results), so that tools that do not load
/// the lowp dialect (mlir-runner, mlir-translate) can read the IR; those
/// `keep` accepts by name stay.
void stripLowpAttributes(Operation *root,
                         function_ref<bool(StringRef)> keep = nullptr);
} // namespace mlir::lowp

#define GET_OP_CLASSES
#include "lowp/IR/LowpOps.h.inc"

#endif // LOWP_IR_LOWPDIALECT_H
