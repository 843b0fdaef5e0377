//===- Passes.td - lowp transformation passes --------------*- tablegen -*-===//
//
// The decision passes of fp-opt's mixed-precision flow, in the order the
// `lowp-auto-mixed-precision` pipeline runs them. Options every pass shares
// are `defvar`s below.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_TRANSFORMS_PASSES_TD
#define LOWP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // LOWP_TRANSFORMS_PASSES_TD
