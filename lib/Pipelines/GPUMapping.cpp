//===- GPUMapping.cpp - shared front half of the GPU pipelines ------------===//

#include "GPUMapping.h"
#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassRegistry.h"

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
  addPipelineText(pm, "canonicalize");
  pm.addPass(createLowpInlineScalarResources());
  if (lowerMatrixOps)
    lowerMatrixOps(pm);
  addRowReductionKernels(pm, chip);
  // Constants (the FP8 clamp bounds, loop bounds) are sunk into the
  // launches, so the kernels see them as constants, not parameters.
  addPipelineText(pm,
                  "func.func(convert-linalg-to-parallel-loops,lowp-gpu-fuse-parallel-loops,"
                  "scf-parallel-loop-tiling{parallel-loop-tile-sizes=1," +
                      std::to_string(threads) +
                      " no-min-max-bounds=true},"
                      "gpu-map-parallel-loops,convert-parallel-loops-to-gpu),"
                      "gpu-launch-sink-index-computations,gpu-kernel-outlining,"
                      "lower-affine,canonicalize");
  // FP8 everywhere, bf16 where the table has no bf16 arithmetic.
  std::string emulated;
  for (Format f : {Format::F16, Format::BF16, Format::F8E4M3FN, Format::F8E5M2,
                   Format::F8E4M3FNUZ, Format::F8E5M2FNUZ})
    if (!chip.hasNativeArithmetic(f))
      emulated += (emulated.empty() ? "" : ",") + stringifyFormat(f).str();
  addPipelineText(
      pm,
      "gpu.module(arith-emulate-unsupported-floats{source-types=" + emulated +
          " target-type=f32},"
          "math-extend-to-supported-types{target-type=f32})");
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
  addPipelineText(pm, "func.func(lowp-fuse-elementwise)");
}

void mlir::lowp::addRowReductionKernels(OpPassManager &pm,
                                        const TargetInfo &chip) {
  // Row reductions (softmax, norms) and the elementwise ops on their rows:
  // one kernel per group, a thread block per row, subgroup and
  // shared-memory reductions sized by the table's subgroup size.
  pm.addNestedPass<func::FuncOp>(
      createLowpGPUMapRowReductions({chip.name.str(), 256}));
}

void mlir::lowp::addKernelReport(OpPassManager &pm) {
  pm.addPass(createLowpGPUReportKernels());
}
