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
  PassOptions::Option<lowp::PrecisionPolicy> policy{
      *this, "policy",
      llvm::cl::desc("auto (the target's preferred 16-bit format), f16, "
                     "bf16, or fp8 (16-bit inference, then FP8 selection)"),
      llvm::cl::init(lowp::PrecisionPolicy::Auto),
      llvm::cl::values(
          clEnumValN(lowp::PrecisionPolicy::Auto, "auto",
                     "the target's preferred format"),
          clEnumValN(lowp::PrecisionPolicy::F16, "f16", "f16"),
          clEnumValN(lowp::PrecisionPolicy::BF16, "bf16", "bf16"),
          clEnumValN(lowp::PrecisionPolicy::FP8, "fp8",
                     "16-bit inference, then FP8"),
          clEnumValN(lowp::PrecisionPolicy::Autocast, "autocast",
                     "PyTorch autocast's choice, for comparison: matrix op "
                     "inputs in the target's preferred format, f32 "
                     "accumulation, everything else f32"))};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the precision decision report here (.json: "
                     "JSON, else a table, '-': stderr); a JSON report "
                     "also gets the graph section of "
                     "lowp-view-precision-graph (the report page's input)")};
  PassOptions::Option<std::string> graph{
      *this, "graph",
      llvm::cl::desc("Draw the decided module here with "
                     "lowp-view-precision-graph (.svg: rendered with "
                     "Graphviz's dot, else DOT)")};

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
  using lowp::PrecisionPolicy;
  lowp::LowpInsertFP32IslandsOptions islands;
  islands.target = options.target;
  PrecisionPolicy policy = options.policy;
  islands.low = policy == PrecisionPolicy::F16    ? lowp::LowFormat::F16
                : policy == PrecisionPolicy::BF16 ? lowp::LowFormat::BF16
                                                  : lowp::LowFormat::Auto;
  pm.addPass(lowp::createLowpInsertFP32Islands(islands));

  // 2. Precision inference. FP8 policies first decide the 16-bit baseline;
  //    FP8 selection then narrows matrix inputs further.
  lowp::LowpInferPrecisionOptions infer;
  infer.target = options.target;
  infer.lowFormat = islands.low;
  infer.propagate = policy != PrecisionPolicy::Autocast;
  infer.reportPath = options.report;
  pm.addPass(lowp::createLowpInferPrecision(infer));

  // 3. Loss scaling of training steps (functions marked per
  //    docs/training-step.md), now that their compute type is decided: f16
  //    steps get dynamic scaling, bf16 and FP8 ones are left as they are.
  lowp::LowpMaterializeLossScalingOptions lossScaling;
  lossScaling.policy =
      policy == PrecisionPolicy::Autocast ? PrecisionPolicy::Auto : policy;
  pm.addPass(lowp::createLowpMaterializeLossScaling(lossScaling));
  // 4. FP8: matrix ops take FP8 operands with per-tensor scales (by
  //    default the hybrid recipe with scales computed in the graph, which
  //    works without calibration).
  if (policy == PrecisionPolicy::FP8) {
    lowp::LowpSelectFP8FormatsOptions fp8;
    fp8.target = options.target;
    fp8.recipe = options.fp8Recipe;
    fp8.scaling = options.fp8Scaling;
    fp8.amaxHistory = options.fp8AmaxHistory;
    fp8.margin = options.fp8Margin;
    fp8.firstLastBF16 = options.firstLastBF16;
    fp8.fp8Attention = options.fp8Attention;
    fp8.allowBF16Fallback = options.allowBF16Fallback;
    pm.addPass(lowp::createLowpSelectFP8Formats(fp8));
  }
  // 5. The picture of what was decided, and the JSON report completed with
  //    it: every op's final precision (FP8 included), islands, casts,
  //    scales and hazards, for scripts/lowp-report-html.py.
  bool jsonReport = StringRef(options.report).ends_with(".json");
  if (!options.graph.empty() || jsonReport) {
    lowp::LowpViewPrecisionGraphOptions view;
    view.output = options.graph;
    view.report = jsonReport ? options.report.getValue() : std::string();
    pm.addPass(lowp::createLowpViewPrecisionGraph(view));
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
