//===- ConstantHazards.h - float constants a format cannot hold --*- C++ -*-===//
//
// A float constant that becomes inf/NaN or zero in a narrower format (an eps
// of 1e-12 in f16, a -3.4e38 attention mask in bf16) is a hazard: the FP32
// island pass keeps its readers at f32, and the precision report lists it.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_CONSTANTHAZARDS_H
#define LOWP_ANALYSIS_CONSTANTHAZARDS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <optional>

namespace mlir {
class Operation;
namespace lowp {

/// How a float constant fails in a narrower format.
struct ConstantHazard {
  llvm::APFloat value;
  bool overflows; ///< becomes inf (or NaN); otherwise underflows to zero
};

/// The first value of `attr` (a float or dense float attribute) that `low`
/// turns into inf/NaN or zero. dense_resource blobs are parameters, not the
/// eps and mask constants hazards are about, and are not read.
std::optional<ConstantHazard> findConstantHazard(Attribute attr,
                                                 FloatType low);

/// False when some finite element of the float constant `value` (float,
/// dense or dense_resource attribute) rounds to an infinity or NaN in
/// `format`; underflow to zero is not checked.
bool fitsFormatRange(Attribute value, FloatType format);

/// The hazard of `op` when it is an `arith.constant` of a float type wider
/// than `low`.
std::optional<ConstantHazard> findConstantHazard(Operation *op, FloatType low);

} // namespace lowp
} // namespace mlir

#endif // LOWP_ANALYSIS_CONSTANTHAZARDS_H
