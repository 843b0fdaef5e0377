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
  addGPUTensorFusion(pm);
  addBufferization(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowpInlineScalarResources());
  if (lowerMatrixOps)
    lowerMatrixOps(pm);
  addRowReductionKernels(pm, chip);
  // Constants (the FP8 clamp bounds, loop bounds) are sunk into the
  // launches, so the kernels see them as constants, not parameters.
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createConvertLinalgToParallelLoopsPass());
  // Adjacent loops over the same space (a fill, the reduction it
  // initializes, the cast of its result; same-shaped conversions) become
  // one loop, so one kernel.
  funcs.addPass(createLowpGPUFuseParallelLoops());
  // Blocks of `threads` threads along each loop's innermost dimension;
  // upstream's greedy mapping takes what that leaves (reductions).
  funcs.addPass(createLowpGPUTileParallelLoops({threads}));
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
  // The row kernels' subgroup reductions become the chip's cross-lane
  // instructions (shuffles, DPP) for its subgroup size.
  pm.nest<gpu::GPUModuleOp>().addPass(
      createLowpGPULowerSubgroupReduce({chip.name.str()}));
}

void mlir::lowp::addGPUTensorFusion(OpPassManager &pm) {
  // Transposes and broadcasts of matmul operands become indexing maps (the
  // tensor-core kernels read B as [n][k]): no transpose kernel.
  pm.addPass(createLowpFoldLayoutIntoContractions());
  // Chains of elementwise ops (bias, activation, casts, broadcasts,
  // residuals) fuse into one generic each, and cheap producers into the
  // reductions that consume them (x - mean into the variance), while still
  // on tensors: one kernel, no buffer between them. Matmuls stay named for
  // the tensor-core kernels, whose epilogues take the fused chain after
  // them.
  pm.addNestedPass<func::FuncOp>(createLowpFuseElementwise());
}

void mlir::lowp::addRowReductionKernels(OpPassManager &pm,
                                        const TargetInfo &chip) {
  // Row reductions (softmax, norms) and the elementwise ops on their rows:
  // one kernel per group, a thread block per row, subgroup and
  // shared-memory reductions sized by the table's subgroup size.
  LowpGPUMapRowReductionsOptions options;
  options.target = chip.name.str();
  pm.addNestedPass<func::FuncOp>(createLowpGPUMapRowReductions(options));
}

void mlir::lowp::addKernelReport(OpPassManager &pm) {
  pm.addPass(createLowpGPUReportKernels());
}
