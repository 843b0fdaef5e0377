//===- Passes.h - lowp transformation passes ---------------------*- C++ -*-===//

#ifndef LOWP_TRANSFORMS_PASSES_H
#define LOWP_TRANSFORMS_PASSES_H

#include "lowp/Analysis/FP8Selection.h"
#include "lowp/IR/LowpDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::lowp {

#define GEN_PASS_DECL
#include "lowp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowp/Transforms/Passes.h.inc"

} // namespace mlir::lowp

#endif // LOWP_TRANSFORMS_PASSES_H
