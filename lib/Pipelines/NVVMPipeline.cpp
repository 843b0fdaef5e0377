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
#include "lowp/IR/TargetResolution.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::lowp;

std::string NVVMPipelineOptions::getTarget() const {
  return selectTargetOption("lowp-pipeline-nvvm", target, "chip",
                            deprecatedChip);
}

LogicalResult mlir::lowp::buildNVVMPipeline(OpPassManager &pm,
                                            const NVVMPipelineOptions &opts,
                                            PipelineErrorHandler errorHandler) {
  // The PTX target is fixed here, so a module's lowp.target cannot stand
  // in for a missing or unknown chip.
  FailureOr<const TargetInfo *> found = lookupPipelineTarget(
      "lowp-pipeline-nvvm", opts.getTarget(), Vendor::NVIDIA, errorHandler);
  if (failed(found))
    return failure();
  const TargetInfo &info = **found;
  std::string chip = info.name.str();
  // Checked here: gpu-module-to-binary would report it on the kernel
  // module, unlocated and with the module's IR dumped.
  if (!opts.cudaPath.empty() && !llvm::sys::fs::is_directory(opts.cudaPath)) {
    std::string message = "lowp-pipeline-nvvm: cuda-path '" + opts.cudaPath +
                          "' is not a directory (libdevice is linked from "
                          "<cuda-path>/nvvm/libdevice)";
    if (errorHandler)
      (void)errorHandler(message);
    else
      llvm::errs() << message << "\n";
    return failure();
  }

  // 1-2. Bufferization, f16/bf16 contractions to tensor-core kernels
  //      (mma.sync, tiled as the capability table says; the others get a
  //      remark), and the naive mapping of everything else (GPUMapping.h).
  addNaiveGPUMapping(pm, info, opts.threads, [&](OpPassManager &nested) {
    if (opts.tensorCores)
      nested.addPass(createLowpNVVMLowerContractions(
          {chip, /*emulate=*/false, /*wgmma=*/opts.wgmma}));
  });
  // 3. Inside the kernels: FP8 conversions become the chip's cvt
  //    instructions (or a located error where it has none); bf16
  //    conversions a chip has no cvt for become exact integer code
  //    (lowp-expand-float-conversions).
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowpConvertFP8ToNVVM({chip}));
  kernels.addPass(createLowpExpandFloatConversions({chip}));
  addKernelReport(pm);
  // Host functions allocate device memory and copy their arguments and
  // results as the calling convention says; gpu-async-region puts the
  // copies and launches on a stream (gpu-to-llvm lowers only async ones).
  pm.addPass(createLowpGPUDeviceBuffers({opts.callingConvention}));
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // 4. Upstream's gpu-lower-to-nvvm-pipeline, step by step (it has no
  //    CUDA path option): PTX for the chip at the PTX ISA version the
  //    capability table gives it, libdevice linked from cuda-path.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions attach;
  attach.chip = info.llvmCpu.str();
  attach.features = info.llvmFeatures.str();
  pm.addPass(createGpuNVVMAttachTarget(attach));
  pm.addPass(createLowerAffinePass());
  // Host code only: inside the kernels, convert-gpu-to-nvvm lowers arith
  // itself and maps what PTX has no instruction for (arith.remf) to
  // libdevice; an llvm.frem made here would be illegal there.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  OpPassManager &gpuModules = pm.nest<gpu::GPUModuleOp>();
  gpuModules.addPass(createStripDebugInfoPass());
  gpuModules.addPass(createConvertGpuOpsToNVVMOps());
  gpuModules.addPass(createCanonicalizerPass());
  gpuModules.addPass(createCSEPass());
  gpuModules.addPass(createReconcileUnrealizedCastsPass());
  // 5. Launches to LLVM, kernels to PTX, lowp's attributes dropped.
  addGPUToLLVMFinalization(pm, opts.cudaPath);
  return success();
}
