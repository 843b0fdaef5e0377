//===- WeightArguments.h - FP8 weight arguments and their scales -*- C++ -*-===//
//
// With demote-weights=arguments, lowp-select-fp8-formats lets an entry
// function take a weight in FP8: the caller quantizes it (x * scale,
// rounded to nearest even, saturated) and passes the scale it used. These
// argument attributes say which scale goes with which weight
// (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_IR_WEIGHTARGUMENTS_H
#define LOWP_IR_WEIGHTARGUMENTS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::lowp {

/// On an FP8 weight argument: the scale its caller multiplied by before
/// rounding, as a positive f32 constant (static scaling), or the index of
/// the f32 argument that carries it (i64).
inline constexpr llvm::StringLiteral kFP8ScaleAttr = "lowp.fp8_scale";

/// On the f32 scale argument of an FP8 weight: the index of that weight
/// (i64).
inline constexpr llvm::StringLiteral kFP8ScaleOfAttr = "lowp.fp8_scale_of";

} // namespace mlir::lowp

#endif // LOWP_IR_WEIGHTARGUMENTS_H
