//===- WeightDemotion.h - the demote-weights option ---------------*- C++ -*-===//
//
// The choice behind `demote-weights=` of lowp-infer-precision,
// lowp-select-fp8-formats and lowp-auto-mixed-precision.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_SUPPORT_WEIGHTDEMOTION_H
#define LOWP_SUPPORT_WEIGHTDEMOTION_H

#include "lowp/Support/EnumOptionParser.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::lowp {

/// Which function arguments a decision may narrow in the signature.
enum class WeightDemotion {
  /// Signatures keep their types (the function converts on every call).
  None,
  /// Arguments read only as matrix op inputs (through layout moves) take
  /// the format their matrix ops read: the caller converts once.
  Arguments,
};
inline llvm::StringRef stringifyWeightDemotion(WeightDemotion demotion) {
  return demotion == WeightDemotion::None ? "none" : "arguments";
}

} // namespace mlir::lowp

LOWP_LISTING_ENUM_OPTION(::mlir::lowp::WeightDemotion)

#endif // LOWP_SUPPORT_WEIGHTDEMOTION_H
