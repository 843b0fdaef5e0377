//===- SoftFloatConversions.h - float conversions as integer ops -*- C++
//-*-===//
//
// Exact f32 <-> small-float conversions (bf16, f16 and the FP8 formats) built
// from arith integer ops only: shifts, masks, adds and selects on i32 lanes.
// They vectorize on any SIMD ISA and need no library call, so targets without
// a conversion instruction (AVX2 for bf16, every CPU for FP8) use them.
// Every field width, bias and special encoding comes from the APFloat
// semantics of the MLIR float type.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_CONVERSION_SOFTFLOAT_SOFTFLOATCONVERSIONS_H
#define LOWP_CONVERSION_SOFTFLOAT_SOFTFLOATCONVERSIONS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::lowp {

/// True when `type` is a format the software conversions handle: at most 16
/// bits, sign bit in the MSB, an exponent range inside f32's and a precision
/// below f32's (bf16, f16, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, ...).
bool isSoftFloatConvertible(FloatType type);

/// Rounds `value` (f32 scalar or vector of f32) to nearest-even in `dstType`
/// and returns a value of `dstType` (shaped like `value`). Without
/// `saturate`, overflow gives inf where the format has one and NaN
/// otherwise, exactly as APFloat's conversion; with `saturate`, finite and
/// infinite overflow give the largest finite value of the input's sign.
/// NaN stays NaN (payload kept where the format has room for it).
Value buildSoftTruncF(OpBuilder &b, Location loc, Value value,
                      FloatType dstType, bool saturate);

/// Widens `value` (scalar or vector of a soft-convertible type) to f32
/// exactly.
Value buildSoftExtF(OpBuilder &b, Location loc, Value value);

/// Rewrites `arith.truncf` from f32 (round to nearest-even) and `arith.extf`
/// to f32 whose narrow side satisfies `shouldExpand` into the integer
/// sequences above, and `arith.truncf` from f64 to a narrow format that
/// satisfies `truncatesF64ThroughF32` into a rounding to f32 (to odd) and
/// one from f32 (constants: rounded with APFloat).
void populateSoftFloatConversionPatterns(
    RewritePatternSet &patterns, std::function<bool(FloatType)> shouldExpand,
    std::function<bool(FloatType)> truncatesF64ThroughF32);

} // namespace mlir::lowp

#endif // LOWP_CONVERSION_SOFTFLOAT_SOFTFLOATCONVERSIONS_H
