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
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/Block.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::lowp {

/// A dense contraction or convolution: by the op's PrecisionClassOpInterface
/// when it has one, else by linalg's contraction/convolution interfaces.
bool isMatrixOp(Operation *op);

/// The input of a narrowing lowp.cast (as precision inference inserts before
/// matrix ops), else `value`: the widest form of the tensor.
Value lookThroughNarrowingCast(Value value);

/// The attribute `name` that describes `value`: on its defining op (one
/// attribute, or an array with one per result) or, for a function argument,
/// among the argument's attributes.
template <typename AttrT>
AttrT getValueMark(Value value, StringRef name) {
  if (auto result = dyn_cast<OpResult>(value)) {
    Attribute attr = result.getOwner()->getAttr(name);
    if (auto array = dyn_cast_if_present<ArrayAttr>(attr))
      return result.getResultNumber() < array.size()
                 ? dyn_cast<AttrT>(array[result.getResultNumber()])
                 : AttrT();
    return dyn_cast_if_present<AttrT>(attr);
  }
  auto arg = cast<BlockArgument>(value);
  auto func =
      dyn_cast_if_present<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getFunctionBody().front())
    return AttrT();
  return func.getArgAttrOfType<AttrT>(arg.getArgNumber(), name);
}

/// The tensor a layout move reads (the same elements, moved, repeated or
/// converted: lowp.cast, reshapes, slices, transposes, broadcasts,
/// copy-like generics), or null when `op` is not one.
Value getMovedTensor(Operation *op);

/// The tensor `op` moves when every element of it reaches the result
/// unchanged (so `lowp.quantize` commutes with `op` and the amax is the
/// same before and after): transposes, broadcasts, reshapes, `tensor.cast`
/// and copy-like generics that read their whole input (transposes and
/// broadcasts written out). Null for anything else, slices included: a
/// slice is a view after bufferization, and quantizing its source would
/// round elements nobody reads.
Value getElementPreservingMoveSource(Operation *op);

/// The same move as `move` on `source`, a tensor of the same elements in
/// another float type, at the rewriter's insertion point. lowp.cast moves
/// nothing of the layout: `source` is returned as it is. The inits of
/// destination-style moves are fully overwritten, so a new tensor.empty of
/// their sizes replaces them.
Value redoMoveOn(RewriterBase &rewriter, Operation *move, Value source);

/// True when `value` is a parameter of the computation, not something it
/// computed: a constant or an argument of the enclosing function (weights
/// arrive either way from front ends), or a value marked
/// `#lowp.role<weight>`, seen through the layout moves front ends put
/// between a weight and its matrix op (casts, reshapes, slices, transposes,
/// broadcasts, copy-like generics).
bool isParameterLike(Value value);

/// Calls `read` for every use of `value` that is not a layout move (as
/// isParameterLike sees them) or a lowp.cast, following those forward: the
/// ops that read the elements of `value`.
void forEachReadThroughMoves(Value value,
                             function_ref<void(OpOperand &)> read);

/// True when `use` is an input (not the init) of a matrix op.
bool isMatrixInput(OpOperand &use);

/// The widest forms of the float tensor operands of `func`'s matrix ops
/// (outside lowp.island, not pinned by lowp.precision), in program order,
/// each once. Index `i` of this list
/// is the tensor's calibration index.
SmallVector<Value> getFP8CandidateTensors(FunctionOpInterface func);

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_FP8CANDIDATES_H
