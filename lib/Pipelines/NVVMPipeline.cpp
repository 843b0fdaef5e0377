//===- NVVMPipeline.cpp - lowp-pipeline-nvvm ------------------------------===//
//
// From a mixed-precision module (linalg + lowp on tensors) to host LLVM
// dialect plus one gpu.binary of PTX per kernel for one NVIDIA chip. The
// mapping to the GPU is the naive one (parallel loops -> blocks x threads,
// reductions as sequential loops in a thread); no tensor cores yet.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct NVVMPipelineOptions : PassPipelineOptions<NVVMPipelineOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA chip of the capability table: sm_70, sm_75, "
                     "sm_80, sm_86, sm_89, sm_90, sm_100")};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads per block along the innermost parallel "
                     "dimension (the outer ones map to blocks)"),
      llvm::cl::init(128)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose libdevice provides math functions "
                     "(__nv_expf, ...), linked into every kernel; empty: "
                     "MLIR's default ($CUDA_ROOT, $CUDA_HOME, $CUDA_PATH); "
                     "without libdevice the PTX declares them .extern")};
};

/// Appends a textual pipeline; the pieces are fixed strings, so a parse
/// failure is a bug in this file.
void addText(OpPassManager &pm, StringRef text) {
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("lowp-pipeline-nvvm: bad pipeline text");
}

void buildNVVMPipeline(OpPassManager &pm, const NVVMPipelineOptions &opts) {
  // Unknown or non-NVIDIA chips: lowp-convert-fp8-to-nvvm reports them on
  // the module, before it changes anything.
  const TargetInfo *info = lookupTarget(opts.chip);
  if (!info || info->vendor != Vendor::NVIDIA) {
    pm.addPass(createLowpConvertFP8ToNVVM({opts.chip}));
    return;
  }

  // 1. fp-opt's decisions become arith/linalg; tensors become buffers with
  //    plain row-major layouts at function boundaries.
  pm.addPass(createConvertLowpToLinalg());
  addText(pm, "one-shot-bufferize{bufferize-function-boundaries "
              "function-boundary-type-conversion=identity-layout-map},"
              "canonicalize");
  // 2. Naive mapping: every linalg op becomes an scf.parallel over its
  //    parallel dimensions (reductions stay sequential scf.for loops inside
  //    one thread), tiled 1 x threads so the innermost dimension maps to
  //    the threads of a block and the rest to the grid; a guard (not a
  //    min bound) keeps tails in range, so every loop becomes a launch.
  addText(pm, "func.func(convert-linalg-to-parallel-loops,"
              "scf-parallel-loop-tiling{parallel-loop-tile-sizes=1," +
                  std::to_string(opts.threads) +
                  " no-min-max-bounds=true},"
                  "gpu-map-parallel-loops,convert-parallel-loops-to-gpu),"
                  "gpu-launch-sink-index-computations,gpu-kernel-outlining,"
                  "lower-affine,canonicalize");
  // 3. Inside the kernels: arithmetic in formats the chip cannot compute
  //    in (FP8 everywhere, bf16 before sm_80) runs in f32 between an extf
  //    and a truncf; FP8 conversions become the chip's cvt instructions (or
  //    a located error where it has none); bf16 conversions a chip has no
  //    cvt for become exact integer code (lowp-expand-float-conversions).
  std::string emulated;
  for (Format f : {Format::F16, Format::BF16, Format::F8E4M3FN, Format::F8E5M2,
                   Format::F8E4M3FNUZ, Format::F8E5M2FNUZ})
    if (!info->hasNativeArithmetic(f))
      emulated += (emulated.empty() ? "" : ",") + stringifyFormat(f).str();
  addText(pm, "gpu.module(arith-emulate-unsupported-floats{source-types=" +
                  emulated +
                  " target-type=f32},"
                  "math-extend-to-supported-types{target-type=f32})");
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowpConvertFP8ToNVVM({opts.chip}));
  kernels.addPass(createLowpExpandFloatConversions({opts.chip}));
  // 4. Upstream's gpu-lower-to-nvvm-pipeline, step by step (it has no
  //    CUDA path option): PTX for the chip at the PTX ISA version the
  //    capability table gives it, libdevice linked from cuda-path.
  std::string chip = info->llvmCpu.str();
  std::string features = info->llvmFeatures.str();
  addText(pm, "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"
              "convert-nvvm-to-llvm,convert-func-to-llvm,"
              "expand-strided-metadata,nvvm-attach-target{chip=" +
                  chip + " features=" + features +
                  "},lower-affine,convert-arith-to-llvm,"
                  "convert-index-to-llvm,canonicalize,cse,"
                  "gpu.module(strip-debuginfo,convert-gpu-to-nvvm,"
                  "canonicalize,cse,reconcile-unrealized-casts),"
                  "gpu-to-llvm,gpu-module-to-binary{format=isa" +
                  (opts.cudaPath.empty()
                       ? std::string()
                       : " toolkit=" + std::string(opts.cudaPath)) +
                  "},convert-math-to-llvm,canonicalize,cse,"
                  "reconcile-unrealized-casts");
  // 5. mlir-translate does not know lowp's attributes.
  pm.addPass(createLowpStripAttributes());
}
} // namespace

void mlir::lowp::registerNVVMPipeline() {
  // registerPassPipeline rather than PassPipelineRegistration: a missing
  // chip is an error in the pipeline text (the PTX target is fixed when the
  // pipeline is built, so a module's lowp.target cannot stand in for it).
  registerPassPipeline(
      "lowp-pipeline-nvvm",
      "Lower a mixed-precision module to host LLVM dialect and PTX for an "
      "NVIDIA chip: naive parallel-loop mapping, f32 accumulation, hardware "
      "bf16/f16/FP8 conversions (cvt.rn.bf16.f32, "
      "cvt.rn.satfinite.e4m3x2.f32), exact integer conversions where the "
      "chip has none",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        NVVMPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (options.chip.empty())
          return errorHandler("lowp-pipeline-nvvm needs chip=<sm_XX>");
        buildNVVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionsHandler) {
        optionsHandler(NVVMPipelineOptions());
      });
}
