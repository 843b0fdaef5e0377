//===- Pipelines.cpp - fp-opt's named pipelines ---------------------------===//

#include "lowp/Pipelines/Pipelines.h"

#include "lowp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
/// What `policy=` asks for; an enum so that a misspelled policy is an error
/// in the pipeline text, naming the values.
enum class Policy { Auto, F16, BF16, FP8, Autocast };

/// The option's spelling, which the passes' own options take.
StringRef stringifyPolicy(Policy policy) {
  switch (policy) {
  case Policy::Auto:
    return "auto";
  case Policy::F16:
    return "f16";
  case Policy::BF16:
    return "bf16";
  case Policy::FP8:
    return "fp8";
  case Policy::Autocast:
    return "autocast";
  }
  llvm_unreachable("unknown policy");
}

/// Options of `lowp-auto-mixed-precision`.
struct AutoMixedPrecisionOptions
    : public PassPipelineOptions<AutoMixedPrecisionOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Chip of the capability table (recorded on the module "
                     "as #lowp.target); empty: the module's lowp.target")};
  PassOptions::Option<Policy> policy{
      *this, "policy",
      llvm::cl::desc("auto (the target's preferred 16-bit format), f16, "
                     "bf16, or fp8 (16-bit inference, then FP8 selection)"),
      llvm::cl::init(Policy::Auto),
      llvm::cl::values(
          clEnumValN(Policy::Auto, "auto", "the target's preferred format"),
          clEnumValN(Policy::F16, "f16", "f16"),
          clEnumValN(Policy::BF16, "bf16", "bf16"),
          clEnumValN(Policy::FP8, "fp8", "16-bit inference, then FP8"),
          clEnumValN(Policy::Autocast, "autocast",
                     "PyTorch autocast's choice, for comparison: matrix op "
                     "inputs in the target's preferred format, f32 "
                     "accumulation, everything else f32"))};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the precision decision report here (.json: "
                     "JSON, else a table, '-': stderr)")};

  // policy=fp8 only: passed to lowp-select-fp8-formats. The defaults are
  // the ones that need nothing but the model: hybrid formats, scales
  // computed in the graph.
  PassOptions::Option<lowp::FP8Recipe> fp8Recipe{
      *this, "fp8-recipe",
      llvm::cl::desc("policy=fp8: how FP8 formats are chosen (default "
                     "hybrid: E4M3 forward, E5M2 gradients)"),
      llvm::cl::init(lowp::FP8Recipe::Hybrid),
      llvm::cl::values(
          clEnumValN(lowp::FP8Recipe::Hybrid, "hybrid",
                     "E4M3 forward, E5M2 for gradients"),
          clEnumValN(lowp::FP8Recipe::E4M3, "e4m3", "E4M3 always"),
          clEnumValN(lowp::FP8Recipe::E5M2, "e5m2", "E5M2 always"),
          clEnumValN(lowp::FP8Recipe::Range, "range",
                     "from #lowp.stats: E4M3 if it fits, else E5M2, else "
                     "bf16 (needs calibration statistics)"))};
  PassOptions::Option<lowp::FP8Scaling> fp8Scaling{
      *this, "fp8-scaling",
      llvm::cl::desc("policy=fp8: where per-tensor scales come from "
                     "(default current: needs no calibration)"),
      llvm::cl::init(lowp::FP8Scaling::Current),
      llvm::cl::values(
          clEnumValN(lowp::FP8Scaling::Static, "static",
                     "constants from #lowp.stats (needs calibration)"),
          clEnumValN(lowp::FP8Scaling::Delayed, "delayed",
                     "amax history carried as function state"),
          clEnumValN(lowp::FP8Scaling::Current, "current",
                     "amax of this step, computed in the graph"))};
  PassOptions::Option<unsigned> fp8AmaxHistory{
      *this, "fp8-amax-history",
      llvm::cl::desc("policy=fp8, fp8-scaling=delayed: length of the amax "
                     "history"),
      llvm::cl::init(1024)};
  PassOptions::Option<unsigned> fp8Margin{
      *this, "fp8-margin",
      llvm::cl::desc("policy=fp8: binades of headroom between the scaled "
                     "amax and the format max"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> firstLastBF16{
      *this, "first-last-bf16",
      llvm::cl::desc("policy=fp8: keep the first and last matrix op of each "
                     "function at 16 bits"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fp8Attention{
      *this, "fp8-attention",
      llvm::cl::desc("policy=fp8: FP8 also for products of two computed "
                     "activations (attention's Q.K^T and P.V); by default "
                     "they keep 16 bits"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> allowBF16Fallback{
      *this, "allow-bf16-fallback",
      llvm::cl::desc("policy=fp8: on a target without FP8, keep the 16-bit "
                     "decision instead of failing"),
      llvm::cl::init(false)};
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
  Policy policy = options.policy;
  StringRef policyName = stringifyPolicy(policy);
  islands.low = policy == Policy::F16 || policy == Policy::BF16
                    ? policyName.str()
                    : std::string("auto");
  pm.addPass(lowp::createInsertFP32Islands(islands));

  // 2. Precision inference. FP8 policies first decide the 16-bit baseline;
  //    FP8 selection then narrows matrix inputs further.
  lowp::LowpInferPrecisionOptions infer;
  infer.targetChip = options.target;
  infer.lowFormat = policy == Policy::FP8 || policy == Policy::Autocast
                        ? std::string("auto")
                        : policyName.str();
  infer.propagate = policy != Policy::Autocast;
  infer.reportPath = options.report;
  pm.addPass(lowp::createLowpInferPrecision(infer));

  // 3. Loss scaling of training steps (functions marked per
  //    docs/training-step.md), now that their compute type is decided: f16
  //    steps get dynamic scaling, bf16 and FP8 ones are left as they are.
  lowp::LowpMaterializeLossScalingOptions lossScaling;
  lossScaling.policy =
      policy == Policy::Autocast ? std::string("auto") : policyName.str();
  pm.addPass(lowp::createLowpMaterializeLossScaling(lossScaling));
  // 4. FP8: matrix ops take FP8 operands with per-tensor scales (by
  //    default the hybrid recipe with scales computed in the graph, which
  //    works without calibration).
  if (policy == Policy::FP8) {
    lowp::SelectFP8FormatsOptions fp8;
    fp8.target = options.target;
    fp8.recipe = options.fp8Recipe;
    fp8.scaling = options.fp8Scaling;
    fp8.amaxHistory = options.fp8AmaxHistory;
    fp8.margin = options.fp8Margin;
    fp8.firstLastBF16 = options.firstLastBF16;
    fp8.fp8Attention = options.fp8Attention;
    fp8.allowBF16Fallback = options.allowBF16Fallback;
    pm.addPass(lowp::createSelectFP8Formats(fp8));
  }
}

void mlir::lowp::registerLowpPipelines() {
  PassPipelineRegistration<AutoMixedPrecisionOptions>(
      "lowp-auto-mixed-precision",
      "Decide the precision of every value of an f32 model for a target: "
      "FP32 islands, precision inference, loss scaling, FP8 selection",
      buildAutoMixedPrecisionPipeline);
  registerX86Pipeline();
  registerNVVMPipeline();
  registerROCDLPipeline();
  registerTPUPipeline();
}
