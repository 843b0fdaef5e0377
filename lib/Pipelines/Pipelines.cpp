//===- Pipelines.cpp - fp-opt's named pipelines ---------------------------===//

#include "lowp/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::lowp::registerLowpPipelines() { registerX86Pipeline(); }
