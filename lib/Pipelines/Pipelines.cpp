//===- Pipelines.cpp - fp-opt's named pipelines ---------------------------===//

#include "lowp/Pipelines/Pipelines.h"

#include "lowp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
/// Options of `lowp-auto-mixed-precision`.
struct AutoMixedPrecisionOptions
    : public PassPipelineOptions<AutoMixedPrecisionOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Chip of the capability table (recorded on the module "
                     "as #lowp.target); empty: the module's lowp.target")};
  PassOptions::Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("auto (the target's preferred 16-bit format), f16, "
                     "bf16, or fp8 (16-bit inference, then FP8 selection)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the precision decision report here (.json: "
                     "JSON, else a table, '-': stderr)")};
};
} // namespace

/// The decision half of fp-opt's flow (docs/DESIGN-BRIEF order). Every step
/// reads the target from the module, so the first one records it.
static void buildAutoMixedPrecisionPipeline(
    OpPassManager &pm, const AutoMixedPrecisionOptions &options) {
  // 1. FP32 islands first: inference never demotes inside an island, so
  //    softmax, norms, losses and long sums stay f32 whatever it decides.
  //    Hazards are judged against the format the policy will use.
  lowp::InsertFP32IslandsOptions islands;
  islands.targetChip = options.target;
  islands.low = options.policy == "f16" || options.policy == "bf16"
                    ? std::string(options.policy)
                    : std::string("auto");
  pm.addPass(lowp::createInsertFP32Islands(islands));

  // 2. Precision inference. FP8 policies first decide the 16-bit baseline;
  //    FP8 selection then narrows matrix inputs further.
  lowp::LowpInferPrecisionOptions infer;
  infer.targetChip = options.target;
  infer.lowFormat = options.policy == "fp8" ? std::string("auto")
                                            : std::string(options.policy);
  infer.reportPath = options.report;
  pm.addPass(lowp::createLowpInferPrecision(infer));

  // 3. Loss scaling of training steps (functions marked per
  //    docs/training-step.md), now that their compute type is decided: f16
  //    steps get dynamic scaling, bf16 and FP8 ones are left as they are.
  lowp::LowpMaterializeLossScalingOptions lossScaling;
  lossScaling.policy = options.policy;
  pm.addPass(lowp::createLowpMaterializeLossScaling(lossScaling));
  // 4. lowp-select-fp8-formats joins here (policy=fp8).
}

void mlir::lowp::registerLowpPipelines() {
  PassPipelineRegistration<AutoMixedPrecisionOptions>(
      "lowp-auto-mixed-precision",
      "Decide the precision of every value of an f32 model for a target: "
      "FP32 islands, precision inference, loss scaling, FP8 selection",
      buildAutoMixedPrecisionPipeline);
  registerX86Pipeline();
}
