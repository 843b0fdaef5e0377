//===- ROCDLPipeline.cpp - lowp-pipeline-rocdl ----------------------------===//
//
// From a mixed-precision module (linalg + lowp on tensors) to host LLVM
// dialect plus one gpu.binary of AMDGCN assembly per kernel for one AMD
// chip, with the same naive mapping as lowp-pipeline-nvvm; no MFMA yet.
//
//===----------------------------------------------------------------------===//

#include "GPUMapping.h"
#include "PipelineSteps.h"

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
struct ROCDLPipelineOptions : PassPipelineOptions<ROCDLPipelineOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("AMD chip of the capability table: gfx908, gfx90a, "
                     "gfx942, gfx950")};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads per block along the innermost parallel "
                     "dimension (the outer ones map to blocks)"),
      llvm::cl::init(128)};
};

void buildROCDLPipeline(OpPassManager &pm, const TargetInfo &info,
                        const ROCDLPipelineOptions &opts) {
  std::string chip = info.llvmCpu.str();
  // 1-2. Bufferization and the naive mapping to kernels (GPUMapping.h).
  addNaiveGPUMapping(pm, info, opts.threads);
  // 3. Inside the kernels: conversions the chip has no instruction for
  //    (bf16 before gfx950; FP8 of the other flavour than the chip's, and
  //    all FP8 on gfx90a) become exact integer code; transcendental math
  //    becomes LLVM intrinsics the AMDGPU backend expands itself, so no
  //    ROCm device library (ocml) is needed.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowpExpandFloatConversions({opts.chip}));
  //    f32 erf, tanh and log1p become polynomials (the x86 pipeline's
  //    lowp-approximate-math): they have no LLVM intrinsic, so
  //    convert-gpu-to-rocdl would call ocml, a ROCm install this pipeline
  //    does not require. Not exp and expm1: their range reduction needs
  //    floor, which convert-gpu-to-rocdl sends to ocml too; llvm.intr.exp
  //    is legal.
  LowpApproximateMathOptions approximate;
  approximate.functions = {"erf", "tanh", "log1p"};
  kernels.addPass(createLowpApproximateMath(approximate));
  addPipelineText(kernels, "math-expand-ops,convert-math-to-llvm");
  // 4. Upstream's ROCDL lowering. convert-arith-to-amdgpu turns the FP8
  //    conversions left (the chip's own flavour) into packed hardware
  //    converts (v_cvt_pk_fp8_f32, v_cvt_f32_fp8); convert-vector-to-llvm
  //    must come before convert-gpu-to-rocdl. Host vector code (a front
  //    end's cache updates as vector.transfer_write) becomes loops and
  //    1-D transfers first, as in the NVVM pipeline.
  addPipelineText(
      pm, "convert-vector-to-scf,convert-scf-to-cf,convert-func-to-llvm,"
          "expand-strided-metadata,"
          "rocdl-attach-target{chip=" +
              chip +
              "},lower-affine,"
              "gpu.module(convert-arith-to-amdgpu{chipset=" +
              chip + "},convert-amdgpu-to-rocdl{chipset=" + chip +
              "},convert-vector-to-llvm,convert-gpu-to-rocdl{chipset=" + chip +
              "},canonicalize,cse,reconcile-unrealized-casts),"
              "gpu-to-llvm,reconcile-unrealized-casts,"
              "gpu-module-to-binary{format=isa},"
              "convert-math-to-llvm,canonicalize,cse,"
              "reconcile-unrealized-casts");
  // 5. mlir-translate does not know lowp's attributes.
  pm.addPass(createLowpStripAttributes());
}
} // namespace

void mlir::lowp::registerROCDLPipeline() {
  // The chip is checked when the pipeline is built: the AMDGCN target is
  // fixed then, so a module's lowp.target cannot stand in for it.
  registerPassPipeline(
      "lowp-pipeline-rocdl",
      "Lower a mixed-precision module to host LLVM dialect and AMDGCN "
      "assembly for an AMD chip: naive parallel-loop mapping, f32 "
      "accumulation, packed FP8 converts of the chip's flavour, exact "
      "integer conversions where the chip has none",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ROCDLPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        const TargetInfo *info = lookupTarget(options.chip);
        if (!info || info->vendor != Vendor::AMD)
          return errorHandler("lowp-pipeline-rocdl needs chip=<gfx...> of "
                              "the capability table (gfx908, gfx90a, gfx942, "
                              "gfx950), got '" +
                              options.chip + "'");
        buildROCDLPipeline(pm, *info, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(ROCDLPipelineOptions());
      });
}
