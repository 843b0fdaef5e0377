//===- Passes.h - lowp conversion passes -------------------------*- C++ -*-===//

#ifndef LOWP_CONVERSION_PASSES_H
#define LOWP_CONVERSION_PASSES_H

#include "lowp/Conversion/LowpToLinalg/LowpToLinalg.h"
#include "lowp/Support/OptionEnums.h"
#include "mlir/Pass/Pass.h"

namespace mlir::lowp {

#define GEN_PASS_DECL
#include "lowp/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowp/Conversion/Passes.h.inc"

} // namespace mlir::lowp

#endif // LOWP_CONVERSION_PASSES_H
