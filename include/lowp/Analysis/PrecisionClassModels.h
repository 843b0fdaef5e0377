//===- PrecisionClassModels.h - precision classes of upstream ops -*- C++ -*-===//
//
// External models of lowp::PrecisionClassOpInterface for upstream dialects
// (linalg, arith, math, tensor, func, scf), and the body-based classifier
// they use for structured ops.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_PRECISIONCLASSMODELS_H
#define LOWP_ANALYSIS_PRECISIONCLASSMODELS_H

#include "lowp/IR/LowpDialect.h"

namespace mlir {
class DialectRegistry;
namespace linalg {
class LinalgOp;
} // namespace linalg

namespace lowp {

/// True for the dialects whose ops compute in whatever float type their
/// operands have (arith, math): a payload of them can be retyped or
/// recomputed at another precision. The island recognizers, the FP32 island
/// pass and precision inference all ask this one question.
bool isFloatPolymorphicDialect(Dialect *dialect);

/// True for the dialects of tensor-level ops that are polymorphic in their
/// element type (linalg and tensor on tensors, lowp): with
/// isFloatPolymorphicDialect, what an FP32 island may hold.
bool isElementPolymorphicDialect(Dialect *dialect);

/// A class and the reason that chose it (a string literal).
struct PrecisionClassification {
  PrecisionClass precisionClass;
  llvm::StringRef reason;
};

/// Classifies a structured op by what its body and iterators compute, for a
/// computation in `lowFormat`:
///  - a contraction or convolution (mul-add over reduction dims) is Matrix;
///  - a body holding range-sensitive math (exp, log, pow, rsqrt), dividing by
///    the result of a reduction, or summing over a reduction dimension in a
///    format narrower in range than f32 is Sensitive;
///  - a body that only moves or selects values (yield, max/min, select, neg,
///    abs) is Transparent;
///  - other elementwise arithmetic is Follow.
PrecisionClassification classifyStructuredOp(linalg::LinalgOp op,
                                             FloatType lowFormat);

/// True when `lowFormat` has at least f32's exponent range, so that long sums
/// and means cannot overflow in it (bf16: yes; f16 and FP8: no).
bool hasF32ExponentRange(FloatType lowFormat);

/// Attaches the precision-class models to the upstream ops fp-opt knows.
void registerPrecisionClassModels(DialectRegistry &registry);

} // namespace lowp
} // namespace mlir

#endif // LOWP_ANALYSIS_PRECISIONCLASSMODELS_H
