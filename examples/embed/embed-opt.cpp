//===- embed-opt.cpp - a compiler that embeds fp-opt ----------------------===//
//
// The shape of an IREE- or torch-mlir-style -opt tool: its own dialect set
// (here the linalg-on-tensors subset), upstream passes, and fp-opt's passes
// and pipelines registered next to them, plus a pipeline of its own that
// runs fp-opt's decisions in the middle of its flow.
//
//===----------------------------------------------------------------------===//

#include "lowp/InitLowp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
struct EmbedPipelineOptions
    : public PassPipelineOptions<EmbedPipelineOptions> {
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("fp-opt passes or pipeline to run, in textual form"),
      llvm::cl::init("")};
};
} // namespace

/// The embedder's own flow: clean up, let fp-opt decide precisions (the
/// `precision` option names fp-opt's pipeline, e.g.
/// "lowp-auto-mixed-precision{target=sm_90}"), clean up again.
static void buildEmbedPipeline(OpPassManager &pm,
                               const EmbedPipelineOptions &options) {
  pm.addPass(createCanonicalizerPass());
  if (!options.precision.empty() &&
      failed(parsePassPipeline(options.precision, pm, llvm::errs())))
    llvm::report_fatal_error("embed-pipeline: invalid precision pipeline");
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

int main(int argc, char **argv) {
  registerAllPasses();                       // upstream passes
  lowp::registerLowpPassesAndPipelines();    // fp-opt's, next to them
  PassPipelineRegistration<EmbedPipelineOptions>(
      "embed-pipeline", "The embedding compiler's flow around fp-opt",
      buildEmbedPipeline);

  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
  // The lowp dialect plus the precision-class models on upstream ops.
  lowp::registerLowpDialects(registry);

  return asMainReturnCode(
      MlirOptMain(argc, argv, "embed-opt: a compiler embedding fp-opt\n",
                  registry));
}
