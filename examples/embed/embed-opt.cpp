//===- embed-opt.cpp - a compiler that embeds fp-opt ----------------------===//
//
// The shape of an IREE- or torch-mlir-style -opt tool: its own dialect set
// (here the linalg-on-tensors subset), upstream passes, and fp-opt's passes
// and pipelines registered next to them, plus a pipeline of its own that
// runs fp-opt's decisions in the middle of its flow.
//
//===----------------------------------------------------------------------===//

#include "lowp/InitLowp.h"
#include "lowp/Pipelines/Pipelines.h"

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
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Run fp-opt's decisions for this chip of its "
                     "capability table, built from C++ "
                     "(lowp::buildAutoMixedPrecisionPipeline)"),
      llvm::cl::init("")};
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("fp-opt passes or pipeline to run, in textual form"),
      llvm::cl::init("")};
};
} // namespace

/// The embedder's own flow: clean up, let fp-opt decide precisions, clean
/// up again. fp-opt's pipeline comes from its C++ API (`target`) or from
/// text (`precision`, e.g. "lowp-auto-mixed-precision{target=sm_90}"); an
/// error in either is an error in the embedder's pipeline, not an abort.
static LogicalResult
buildEmbedPipeline(OpPassManager &pm, const EmbedPipelineOptions &options,
                   function_ref<LogicalResult(const Twine &)> errorHandler) {
  pm.addPass(createCanonicalizerPass());
  if (!options.target.empty()) {
    lowp::AutoMixedPrecisionOptions decisions;
    decisions.target = options.target.getValue();
    if (failed(lowp::buildAutoMixedPrecisionPipeline(pm, decisions,
                                                     errorHandler)))
      return failure();
  }
  if (!options.precision.empty()) {
    std::string message;
    llvm::raw_string_ostream os(message);
    if (failed(parsePassPipeline(options.precision, pm, os)))
      return errorHandler("embed-pipeline: invalid precision pipeline: " +
                          message);
  }
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  return success();
}

int main(int argc, char **argv) {
  registerAllPasses();                       // upstream passes
  lowp::registerLowpPassesAndPipelines();    // fp-opt's, next to them
  registerPassPipeline(
      "embed-pipeline", "The embedding compiler's flow around fp-opt",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        EmbedPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        return buildEmbedPipeline(pm, options, errorHandler);
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(EmbedPipelineOptions());
      });

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
