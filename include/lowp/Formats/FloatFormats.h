//===- FloatFormats.h - numeric facts of float formats -----------*- C++ -*-===//
//
// Every numeric fact fp-opt uses about a float format, derived from the
// APFloat semantics of the MLIR float type: nothing here is typed in.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_FORMATS_FLOATFORMATS_H
#define LOWP_FORMATS_FLOATFORMATS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::lowp {

/// Numeric facts of one float format.
struct FloatFormatInfo {
  std::string name;          ///< MLIR spelling, e.g. "f8E4M3FN"
  unsigned bits;             ///< storage width
  unsigned exponentBits;     ///< width of the exponent field
  unsigned mantissaBits;     ///< explicit fraction bits (precision - 1)
  bool hasSign;              ///< has a sign bit
  double maxFinite;          ///< largest finite value
  double minNormal;          ///< smallest positive normal value
  double minSubnormal;       ///< smallest positive value
  double epsilon;            ///< distance from 1.0 to the next larger value
  double binades;            ///< log2(maxFinite / minSubnormal)
  double normalBinades;      ///< log2(maxFinite / minNormal)
  bool hasInf;
  bool hasNaN;
  bool hasNegativeZero;
};

/// The facts of `type`'s APFloat semantics.
FloatFormatInfo getFloatFormatInfo(FloatType type);
FloatFormatInfo getFloatFormatInfo(const llvm::fltSemantics &semantics,
                                   llvm::StringRef name);

/// The distance from 1.0 to the next larger value of `semantics`,
/// 2^(1 - precision): what getFloatFormatInfo reports as epsilon, without
/// building the rest of the facts.
double getEpsilon(const llvm::fltSemantics &semantics);

/// True when every value of `narrow` is exactly representable in `wide`.
bool isExactlyRepresentableIn(FloatType narrow, FloatType wide);

/// Largest finite value of `type` as a double.
double getMaxFinite(FloatType type);

/// The float types the format table covers, in table order.
SmallVector<FloatType> getTabulatedFloatTypes(MLIRContext *context);

/// Prints the format table as aligned text or as JSON.
void printFloatFormatTable(MLIRContext *context, llvm::raw_ostream &os,
                           bool json);

} // namespace mlir::lowp

#endif // LOWP_FORMATS_FLOATFORMATS_H
