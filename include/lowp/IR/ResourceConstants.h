//===- ResourceConstants.h - float dense_resource constants -----*- C++ -*-===//
//
// Front ends export weights as `dense_resource` blobs (torch-mlir's
// fx_importer, IREE), often elided in printed IR. Passes that round or widen
// float constants read and rewrite them here; an elided or missing blob
// reads as nothing, and the caller keeps the constant behind a cast.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_IR_RESOURCECONSTANTS_H
#define LOWP_IR_RESOURCECONSTANTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <optional>

namespace mlir::lowp {

/// The elements of a float `dense_resource` constant, or nullopt when its
/// blob is elided, missing or not the size its type says.
std::optional<SmallVector<llvm::APFloat>>
readResourceFloats(DenseResourceElementsAttr value);

/// `value` with every element converted to `elementType` (nearest even), as
/// a new blob named after the original one; null when `value` cannot be
/// read.
DenseResourceElementsAttr convertResourceFloats(DenseResourceElementsAttr value,
                                                FloatType elementType);

/// `value` (a float scalar, `dense` or `dense_resource` constant) with every
/// element converted to `elementType` (nearest even; exact when widening);
/// null when it is none of these or cannot be read.
TypedAttr convertFloatConstant(Attribute value, FloatType elementType);

/// `value` (a `dense` or float `dense_resource` constant of static shape)
/// transposed by `perm` (result dimension i is its dimension perm[i]); null
/// when it is neither or cannot be read.
TypedAttr transposeConstant(Attribute value, ArrayRef<int64_t> perm);

} // namespace mlir::lowp

#endif // LOWP_IR_RESOURCECONSTANTS_H
