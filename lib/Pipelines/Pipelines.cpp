//===- Pipelines.cpp - lowp-auto-mixed-precision, and registration --------===//

#include "lowp/Pipelines/Pipelines.h"

#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::lowp;

/// The low format the policy decides in: its own for f16 and bf16, the
/// target's preferred one for the others (FP8 selection starts from the
/// 16-bit decision; autocast uses the preferred format).
static LowFormat getLowFormat(PrecisionPolicy policy) {
  switch (policy) {
  case PrecisionPolicy::F16:
    return LowFormat::F16;
  case PrecisionPolicy::BF16:
    return LowFormat::BF16;
  default:
    return LowFormat::Auto;
  }
}

LowpInsertFP32IslandsOptions
AutoMixedPrecisionOptions::getIslandsOptions() const {
  LowpInsertFP32IslandsOptions islands;
  islands.target = target;
  islands.low = getLowFormat(policy);
  return islands;
}

LowpInferPrecisionOptions
AutoMixedPrecisionOptions::getInferenceOptions() const {
  LowpInferPrecisionOptions infer;
  infer.target = target;
  infer.lowFormat = getLowFormat(policy);
  infer.propagate = policy != PrecisionPolicy::Autocast;
  infer.keepStreamsF32 = f32Streams;
  infer.demoteWeights = demoteWeights;
  infer.demoteState = demoteState;
  infer.stateFormat = stateFormat;
  // FP8 selection quantizes constant weights from their f32 values (one
  // rounding, amax of the real values), not from a bf16 copy.
  infer.matrixConstantsWide = policy == PrecisionPolicy::FP8;
  // The report is written by the pipeline's last step, on the module every
  // decision pass has seen.
  return infer;
}

LowpMaterializeLossScalingOptions
AutoMixedPrecisionOptions::getLossScalingOptions() const {
  LowpMaterializeLossScalingOptions lossScaling;
  // Autocast decides per op: the IR's types say what a step computes in.
  lossScaling.policy = policy == PrecisionPolicy::Autocast ||
                               policy == PrecisionPolicy::FP8Weights
                           ? PrecisionPolicy::Auto
                           : policy;
  return lossScaling;
}

LowpSelectFP8FormatsOptions AutoMixedPrecisionOptions::getFP8Options() const {
  LowpSelectFP8FormatsOptions fp8;
  fp8.target = target;
  fp8.recipe = fp8Recipe;
  fp8.scaling = fp8Scaling;
  fp8.amaxHistory = fp8AmaxHistory;
  fp8.margin = fp8Margin;
  fp8.firstLastBF16 = firstLastBF16;
  fp8.fp8Attention = fp8Attention;
  fp8.allowBF16Fallback = allowBF16Fallback;
  fp8.demoteWeights = demoteWeights;
  return fp8;
}

/// The decision half of fp-opt's flow (docs/design.md). Every step reads
/// the target from the module, so the first one records it.
LogicalResult mlir::lowp::buildAutoMixedPrecisionPipeline(
    OpPassManager &pm, const AutoMixedPrecisionOptions &options,
    PipelineErrorHandler) {
  // 1. FP32 islands first: inference never demotes inside an island, so
  //    softmax, norms, losses and long sums stay f32 whatever it decides.
  //    Hazards are judged against the format the policy will use.
  pm.addPass(createLowpInsertFP32Islands(options.getIslandsOptions()));
  // 2. Precision inference. FP8 policies first decide the 16-bit baseline;
  //    FP8 selection then narrows matrix inputs further.
  //    With a report, inference collects its decisions for step 5.
  std::shared_ptr<PrecisionReport> report;
  if (!options.report.empty())
    report = std::make_shared<PrecisionReport>();
  pm.addPass(createLowpInferPrecision(options.getInferenceOptions(), report));
  // 3. Loss scaling of training steps (functions marked per
  //    docs/training-step.md), now that their compute type is decided: f16
  //    steps get dynamic scaling, bf16 and FP8 ones are left as they are.
  pm.addPass(
      createLowpMaterializeLossScaling(options.getLossScalingOptions()));
  // 4. FP8: matrix ops take FP8 operands with per-tensor scales (by
  //    default the hybrid recipe with scales computed in the graph, which
  //    works without calibration).
  if (options.policy == PrecisionPolicy::FP8)
    pm.addPass(createLowpSelectFP8Formats(options.getFP8Options()));
  //    Weight-only FP8 (targets without FP8 arithmetic): the matrix ops
  //    keep their decided formats and read weights stored as FP8.
  if (options.policy == PrecisionPolicy::FP8Weights) {
    LowpFP8WeightOnlyOptions weightOnly;
    weightOnly.target = options.target;
    pm.addPass(createLowpFP8WeightOnly(weightOnly));
  }
  // 5. The report, measured on the module every decision pass has seen
  //    (FP8 operands, demoted signatures), then the picture of what was
  //    decided, and the JSON report completed with it: every op's final
  //    precision, islands, casts, scales and hazards, for
  //    scripts/lowp-report-html.py.
  if (report) {
    LowpWritePrecisionReportOptions write;
    write.reportPath = options.report;
    pm.addPass(createLowpWritePrecisionReport(write, report));
  }
  bool jsonReport = StringRef(options.report).ends_with(".json");
  if (!options.graph.empty() || jsonReport) {
    LowpViewPrecisionGraphOptions view;
    view.output = options.graph;
    view.report = jsonReport ? options.report.getValue() : std::string();
    pm.addPass(createLowpViewPrecisionGraph(view));
  }
  return success();
}

/// Registers `build` as the textual pipeline `name`: the options struct
/// parses the text, and the builder's errors become errors in the text.
template <typename OptionsT>
static void registerPipeline(StringRef name, StringRef description,
                             LogicalResult (*build)(OpPassManager &,
                                                    const OptionsT &,
                                                    PipelineErrorHandler)) {
  registerPassPipeline(
      name, description,
      [build](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        OptionsT options;
        if (failed(options.parseFromString(text)))
          return failure();
        return build(pm, options, errorHandler);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(OptionsT());
      });
}

void mlir::lowp::registerLowpPipelines() {
  registerPipeline<AutoMixedPrecisionOptions>(
      "lowp-auto-mixed-precision",
      "Decide the precision of every value of an f32 model for a target: "
      "FP32 islands, precision inference, loss scaling, FP8 selection",
      buildAutoMixedPrecisionPipeline);
  registerPipeline<X86PipelineOptions>(
      "lowp-pipeline-x86",
      "Lower a mixed-precision module to the LLVM dialect for an x86 chip: "
      "packed register-blocked matmul kernels (vdpbf16ps with VNNI-packed B "
      "on AVX512_BF16, f32 FMA on bf16 storage on AVX2), vectorized "
      "elementwise code, exact integer bf16/FP8 conversions where the chip "
      "has none",
      buildX86Pipeline);
  registerPipeline<NVVMPipelineOptions>(
      "lowp-pipeline-nvvm",
      "Lower a mixed-precision module to host LLVM dialect and PTX for an "
      "NVIDIA chip: naive parallel-loop mapping, f32 accumulation, hardware "
      "bf16/f16/FP8 conversions (cvt.rn.bf16.f32, "
      "cvt.rn.satfinite.e4m3x2.f32), exact integer conversions where the "
      "chip has none",
      buildNVVMPipeline);
  registerPipeline<ROCDLPipelineOptions>(
      "lowp-pipeline-rocdl",
      "Lower a mixed-precision module to host LLVM dialect and AMDGCN "
      "assembly for an AMD chip: naive parallel-loop mapping, f32 "
      "accumulation, packed FP8 converts of the chip's flavour, exact "
      "integer conversions where the chip has none",
      buildROCDLPipeline);
  registerPipeline<ReferencePipelineOptions>(
      "lowp-pipeline-reference",
      "Lower a module to the LLVM dialect for this CPU as plain loops, no "
      "kernels: every op in the format the IR states, rounded after every "
      "op, every narrow conversion exact integer code; what decisions and "
      "kernels are checked against",
      buildReferencePipeline);
  registerPipeline<TPUPipelineOptions>(
      "lowp-pipeline-tpu",
      "TPU-style structuring of a mixed-precision module (bf16 MXU inputs, "
      "f32 accumulation, matrix ops padded and tiled to the generation's MXU "
      "tile), lowered to the LLVM dialect for this CPU so its numerics can "
      "be executed",
      buildTPUPipeline);
}
