//===- ROCDLPipeline.cpp - lowp-pipeline-rocdl ----------------------------===//
//
// From a mixed-precision module (linalg + lowp on tensors) to host LLVM
// dialect plus one gpu.binary of AMDGCN assembly per kernel for one AMD
// chip: f16, bf16 and FP8 contractions become tiled MFMA kernels (the GPU
// tiling shared with lowp-pipeline-nvvm), everything else gets the same
// naive mapping as there.
//
//===----------------------------------------------------------------------===//

#include "GPUMapping.h"
#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::lowp;

std::string ROCDLPipelineOptions::getTarget() const {
  return selectTargetOption("lowp-pipeline-rocdl", target, "chip",
                            deprecatedChip);
}

LogicalResult
mlir::lowp::buildROCDLPipeline(OpPassManager &pm,
                               const ROCDLPipelineOptions &opts,
                               PipelineErrorHandler errorHandler) {
  // The AMDGCN target is fixed here, so a module's lowp.target cannot
  // stand in for a missing or unknown chip.
  FailureOr<const TargetInfo *> found = lookupPipelineTarget(
      "lowp-pipeline-rocdl", opts.getTarget(), Vendor::AMD, errorHandler);
  if (failed(found))
    return failure();
  const TargetInfo &info = **found;
  std::string chip = info.llvmCpu.str();

  // 1-2. Bufferization, f16/bf16/FP8 contractions to MFMA kernels (tiled
  //      as the capability table says; the others get a remark, FP8 of a
  //      flavour the chip's MFMA lacks an error), and the naive mapping of
  //      everything else (GPUMapping.h).
  addNaiveGPUMapping(pm, info, opts.threads, [&](OpPassManager &nested) {
    if (opts.mfma)
      nested.addPass(createLowpROCDLLowerContractions({chip, false}));
  });
  // 3. Inside the kernels: conversions the chip has no instruction for
  //    (bf16 before gfx950; FP8 of the other flavour than the chip's, and
  //    all FP8 on gfx90a) become exact integer code; transcendental math
  //    becomes LLVM intrinsics the AMDGPU backend expands itself or, where
  //    convert-gpu-to-rocdl would call the ROCm device library (sin, erf,
  //    floor, ...), polynomial approximations, so no ocml is needed. With
  //    rocm-path, convert-gpu-to-rocdl's own patterns make __ocml_* calls
  //    and the device library is linked.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // A front end's run-time checks (cf.assert) trap in the kernel.
  kernels.addPass(createLowpROCDLLowerAsserts());
  kernels.addPass(createLowpExpandFloatConversions({info.name.str()}));
  if (opts.rocmPath.empty()) {
    kernels.addPass(createLowpROCDLExpandMath());
    kernels.addPass(math::createMathExpandOpsPass());
    kernels.addPass(createConvertMathToLLVMPass());
  }
  addKernelReport(pm);
  // Host functions allocate device memory and copy as the calling
  // convention says, on a stream (as in the NVVM pipeline): the host module
  // calls the HIP-style mgpu* interface of docs/lowering-gpu.md.
  pm.addPass(createLowpGPUDeviceBuffers({opts.callingConvention}));
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // 4. Upstream's ROCDL lowering. convert-arith-to-amdgpu turns the FP8
  //    conversions left (the chip's own flavour) into packed hardware
  //    converts (v_cvt_pk_fp8_f32, v_cvt_f32_fp8); convert-vector-to-llvm
  //    must come before convert-gpu-to-rocdl. Host vector code (a front
  //    end's cache updates as vector.transfer_write) becomes loops and
  //    1-D transfers first, as in the NVVM pipeline.
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuROCDLAttachTargetOptions attach;
  attach.chip = chip;
  pm.addPass(createGpuROCDLAttachTarget(attach));
  pm.addPass(createLowerAffinePass());
  OpPassManager &gpuModules = pm.nest<gpu::GPUModuleOp>();
  ArithToAMDGPUConversionPassOptions arithToAMDGPU;
  arithToAMDGPU.chipset = chip;
  gpuModules.addPass(createArithToAMDGPUConversionPass(arithToAMDGPU));
  ConvertAMDGPUToROCDLPassOptions amdgpuToROCDL;
  amdgpuToROCDL.chipset = chip;
  gpuModules.addPass(createConvertAMDGPUToROCDLPass(amdgpuToROCDL));
  gpuModules.addPass(createConvertVectorToLLVMPass());
  ConvertGpuOpsToROCDLOpsOptions gpuToROCDL;
  gpuToROCDL.chipset = chip;
  gpuModules.addPass(createConvertGpuOpsToROCDLOps(gpuToROCDL));
  gpuModules.addPass(createCanonicalizerPass());
  gpuModules.addPass(createCSEPass());
  gpuModules.addPass(createReconcileUnrealizedCastsPass());
  // 5. Launches to LLVM, kernels to AMDGCN assembly, lowp's attributes
  //    dropped.
  addGPUToLLVMFinalization(pm, opts.rocmPath);
  return success();
}
