//===- Buffers.h - buffers behind views -------------------------*- C++ -*-===//
//
// What the buffer passes share about memrefs and their views.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_SUPPORT_BUFFERS_H
#define LOWP_SUPPORT_BUFFERS_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::lowp {

/// The buffer `v` views: the source of every view-like op (subview,
/// reshape, cast, ...) it comes through.
inline Value getRootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

} // namespace mlir::lowp

#endif // LOWP_SUPPORT_BUFFERS_H
