//===- LowpToLinalg.h - lowp to arith/linalg patterns ------------*- C++ -*-===//

#ifndef LOWP_CONVERSION_LOWPTOLINALG_LOWPTOLINALG_H
#define LOWP_CONVERSION_LOWPTOLINALG_LOWPTOLINALG_H

#include "lowp/IR/LowpDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::lowp {

/// Patterns lowering lowp.cast and lowp.island.
void populateLowpCastAndIslandToLinalgPatterns(RewritePatternSet &patterns);

/// Patterns lowering lowp.scale, lowp.unscale, lowp.all_finite and
/// lowp.update_scale.
void populateLowpLossScalingToLinalgPatterns(RewritePatternSet &patterns);

/// Patterns lowering the FP8 scaling ops: lowp.quantize, lowp.dequantize,
/// lowp.amax, lowp.compute_scale and lowp.push_amax.
void populateLowpFP8ScalingToLinalgPatterns(RewritePatternSet &patterns);

/// Patterns decomposing linalg ops that stand for several others
/// (AggregatedOpInterface: linalg.softmax) into the structured ops they
/// aggregate, which upstream's loop lowerings handle.
void populateDecomposeAggregatedOpsPatterns(RewritePatternSet &patterns);

/// Converts one scalar float `value` to `dstType` with the rounding and
/// saturation of a lowp.cast. `randomBits` (an i32, only for stochastic
/// rounding) supplies the per-element random bits. Returns null when the
/// conversion is not supported (only stochastic rounding from f32 to bf16
/// and f16 is).
Value buildScalarCast(OpBuilder &b, Location loc, Value value,
                      FloatType dstType, RoundingMode rounding, bool saturate,
                      Value randomBits);

/// Applies `body` elementwise: for scalars and vectors it is called once on
/// the operands; for ranked tensors it becomes the body of an all-parallel
/// linalg.generic with identity maps for tensor operands and scalar maps for
/// scalar operands, producing a tensor of `resultType` (shape taken from the
/// first tensor operand, dynamic sizes included). The body callback receives
/// the element values and, for tensors, the linearized element index (an
/// `index` value; null for scalars and vectors).
using ElementwiseBodyFn = std::function<Value(
    OpBuilder &, Location, ValueRange elements, Value linearIndex)>;
Value buildElementwise(OpBuilder &b, Location loc, Type resultType,
                       ValueRange operands, const ElementwiseBodyFn &body);

} // namespace mlir::lowp

#endif // LOWP_CONVERSION_LOWPTOLINALG_LOWPTOLINALG_H
