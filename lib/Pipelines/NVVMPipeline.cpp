//===- NVVMPipeline.cpp - lowp-pipeline-nvvm ------------------------------===//
//
// From a mixed-precision module (linalg + lowp on tensors) to host LLVM
// dialect plus one gpu.binary of PTX per kernel for one NVIDIA chip. f16 and
// bf16 contractions become tiled tensor-core kernels (mma.sync); everything
// else gets the naive mapping (parallel loops -> blocks x threads,
// reductions as sequential loops in a thread).
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
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("f16/bf16 contractions to mma.sync kernels (false: "
                     "every op on the naive mapping)"),
      llvm::cl::init(true)};
  Option<std::string> callingConvention{
      *this, "calling-convention",
      llvm::cl::desc("host: functions take and return host buffers and copy "
                     "them to and from the device; device: they take and "
                     "return device buffers"),
      llvm::cl::init("host")};
};

void buildNVVMPipeline(OpPassManager &pm, const NVVMPipelineOptions &opts) {
  // Unknown or non-NVIDIA chips: lowp-convert-fp8-to-nvvm reports them on
  // the module, before it changes anything.
  const TargetInfo *info = lookupTarget(opts.chip);
  if (!info || info->vendor != Vendor::NVIDIA) {
    pm.addPass(createLowpConvertFP8ToNVVM({opts.chip}));
    return;
  }

  // 1-2. Bufferization, f16/bf16 contractions to tensor-core kernels
  //      (mma.sync, tiled as the capability table says; the others get a
  //      remark), and the naive mapping of everything else (GPUMapping.h).
  addNaiveGPUMapping(pm, *info, opts.threads, [&](OpPassManager &nested) {
    if (opts.tensorCores)
      nested.addPass(createLowpNVVMLowerContractions({opts.chip, false}));
  });
  // 3. Inside the kernels: FP8 conversions become the chip's cvt
  //    instructions (or a located error where it has none); bf16
  //    conversions a chip has no cvt for become exact integer code
  //    (lowp-expand-float-conversions).
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowpConvertFP8ToNVVM({opts.chip}));
  kernels.addPass(createLowpExpandFloatConversions({opts.chip}));
  addKernelReport(pm);
  // Host functions allocate device memory and copy their arguments and
  // results as the calling convention says; gpu-async-region puts the
  // copies and launches on a stream (gpu-to-llvm lowers only async ones).
  pm.addPass(createLowpGPUDeviceBuffers({opts.callingConvention}));
  addPipelineText(pm, "func.func(gpu-async-region)");
  // 4. Upstream's gpu-lower-to-nvvm-pipeline, step by step (it has no
  //    CUDA path option): PTX for the chip at the PTX ISA version the
  //    capability table gives it, libdevice linked from cuda-path.
  std::string chip = info->llvmCpu.str();
  std::string features = info->llvmFeatures.str();
  addPipelineText(
      pm,
      "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"
      "convert-nvvm-to-llvm,convert-func-to-llvm,"
      "expand-strided-metadata,nvvm-attach-target{chip=" +
          chip + " features=" + features +
          "},lower-affine,convert-arith-to-llvm,"
          "convert-index-to-llvm,canonicalize,cse,"
          "gpu.module(strip-debuginfo,convert-gpu-to-nvvm,"
          "canonicalize,cse,reconcile-unrealized-casts),"
          "gpu-to-llvm,reconcile-unrealized-casts,"
          "gpu-module-to-binary{format=isa" +
          (opts.cudaPath.empty() ? std::string()
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
