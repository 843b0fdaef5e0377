//===- ExplicitPad.h - a pad the NCHW kernels read through ---*- C++ -*-===//
//
// Internal to lib/Conversion/LinalgToX86. Bufferized, a tensor.pad is a new
// buffer filled with the pad value and a copy of the source into its
// interior: two passes over memory for every padded convolution input.
// The direct NCHW kernels (windows, stems) read the source instead, their
// windows' edges given the pad value in registers, and the fill, the copy
// and the buffer go.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOX86_EXPLICITPAD_H
#define LIB_CONVERSION_LINALGTOX86_EXPLICITPAD_H

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::lowp::x86 {

/// A buffer written only by a fill of `value` and a copy of `source` into
/// its interior: padded by `low` / `high` elements along the two spatial
/// dimensions, nothing along the others.
struct ExplicitPad {
  Value source;
  Value value;
  int64_t low[2], high[2];
  /// What to erase once the reader is gone, in this order: the copy, the
  /// subview, the fill, the buffer's deallocations and the buffer.
  SmallVector<Operation *> ops;
};

/// `input` as such a padded buffer, when `reader` is its only reader and
/// reads it after the fill and the copy, in their block, with nothing in
/// between that may write or free the source; `spatialDims` are the two
/// padded dimensions. The source must have an identity layout.
std::optional<ExplicitPad> matchExplicitPad(Value input, Operation *reader,
                                            ArrayRef<unsigned> spatialDims);

/// Erases the pad's ops; `reader` must already be erased.
void eraseExplicitPad(const ExplicitPad &pad, RewriterBase &rw);

} // namespace mlir::lowp::x86

#endif // LIB_CONVERSION_LINALGTOX86_EXPLICITPAD_H
