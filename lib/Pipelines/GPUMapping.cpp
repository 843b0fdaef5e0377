//===- GPUMapping.cpp - shared front half of the GPU pipelines ------------===//

#include "GPUMapping.h"
#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::lowp;

void mlir::lowp::addNaiveGPUMapping(
    OpPassManager &pm, const TargetInfo &chip, unsigned threads,
    function_ref<void(OpPassManager &)> lowerMatrixOps) {
  // fp-opt's decisions become arith/linalg; tensors become buffers with
  // plain row-major layouts at function boundaries. As on x86, arith/math
  // on whole tensors become linalg.generic and branches that carry tensors
  // scf first (neither bufferizes), and scalar dense_resource globals are
  // read into dense ones (finalize-memref-to-llvm aborts on them).
  addLowpToBufferizableTensors(pm);
  addBufferization(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowpInlineScalarResources());
  if (lowerMatrixOps)
    lowerMatrixOps(pm);
  // Constants (the FP8 clamp bounds, loop bounds) are sunk into the
  // launches, so the kernels see them as constants, not parameters.
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createConvertLinalgToParallelLoopsPass());
  funcs.addPass(createParallelLoopTilingPass(
      {1, static_cast<int64_t>(threads)}, /*noMinMaxBounds=*/true));
  funcs.addPass(createGpuMapParallelLoopsPass());
  funcs.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  // FP8 everywhere, bf16 where the table has no bf16 arithmetic.
  addFloatEmulation(pm.nest<gpu::GPUModuleOp>(), [&](Format format) {
    return !chip.hasNativeArithmetic(format);
  });
}
