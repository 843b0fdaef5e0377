//===- StructuredOps.h - cheap operand queries on linalg ops ------*- C++ -*-===//
//
// Which operands of a linalg structured op are inputs and which are inits,
// without DestinationStyleOpInterface. Its accessors (getDpsInits, isDpsInit,
// getDpsInputOperands, getRegionOutputArgs, getNumReductionLoops on named
// ops, ...) all go through getDpsInitsMutable, which uniques the op's
// operandSegmentSizes as a DenseI32ArrayAttr on every call: in the decision
// passes' walks, that was the largest single cost. On tensors the inits are
// the op's last getNumResults() operands, as the linalg verifier ties one
// tensor result to each init; on buffers these queries fall back to the
// interface.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_STRUCTUREDOPS_H
#define LOWP_ANALYSIS_STRUCTUREDOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::lowp {

/// The number of init (outs) operands of `op`.
int64_t getNumInits(linalg::LinalgOp op);

/// The input (ins) operands of `op`, in order.
MutableArrayRef<OpOperand> getInputOperands(linalg::LinalgOp op);

/// The init (outs) operands of `op`, in order.
MutableArrayRef<OpOperand> getInitOperands(linalg::LinalgOp op);

/// True when `operand`, an operand of `op`, is one of its inits.
bool isInit(linalg::LinalgOp op, OpOperand &operand);

/// The body's block arguments that stand for the inits (the accumulators).
Block::BlockArgListType getRegionInitArgs(linalg::LinalgOp op);

/// The init operand tied to `result` of a destination-style op (a linalg
/// op's through the queries above), or null for other ops.
OpOperand *getTiedInit(Operation *op, OpResult result);

/// The number of reduction loops of `op`; a generic's are counted from its
/// iterator_types attribute without building the iterator array.
unsigned getNumReductionLoops(linalg::LinalgOp op);

/// The static size of loop `dim` of `op`, as LinalgOp::getStaticLoopRanges
/// computes it (the first operand dimension indexed by exactly that loop),
/// without building and inverting the loops-to-shapes map.
int64_t getStaticLoopSize(linalg::LinalgOp op, unsigned dim);

/// True when `payload` (a linalg op's body) computes at most two additions,
/// multiplications or comparisons besides casts and constants (a scale, a
/// residual add, a centring x - mean, a broadcast, a transpose, a narrowing
/// cast): recomputing it in each consumer costs less than writing and
/// reading back a buffer. Divisions, math functions and conversions from or
/// to floats of 8 bits or fewer (integer sequences on CPUs without such
/// formats; see convertsNarrowFloats) are not cheap.
/// lowp-fuse-elementwise fuses such producers into every consumer, and the
/// decision report counts no tensor for them (PrecisionReport.cpp).
bool isCheapToRecompute(Block &payload);

/// Whether `payload` converts from or to a float type of 8 bits or fewer
/// (an FP8 rounding or widening).
bool convertsNarrowFloats(Block &payload);

/// Whether `payload` (a linalg op's body) yields its first argument
/// unchanged: directly, or through a widening and the narrowing back to the
/// same type (a copy computed in f32 on targets without arithmetic in the
/// format).
bool yieldsFirstArgument(Block &payload);

/// The multiplication of a contraction's `payload` that yields `out + p`
/// (`out` its last argument, the init's element; either operand order)
/// with p an arith.mulf: that multiplication, null otherwise. Its operands
/// are the caller's to check (the inputs, maybe widened).
arith::MulFOp getAccumulatedProduct(Block &payload);

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_STRUCTUREDOPS_H
