//===- InitLowp.cpp - register everything fp-opt provides -----------------===//

#include "lowp/InitLowp.h"

#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void mlir::lowp::registerLowpDialects(DialectRegistry &registry) {
  registry.insert<LowpDialect>();
  registerPrecisionClassModels(registry);
}

void mlir::lowp::registerLowpPassesAndPipelines() {
  registerLowpPasses();
  registerLowpConversionPasses();
  registerLowpPipelines();
}
