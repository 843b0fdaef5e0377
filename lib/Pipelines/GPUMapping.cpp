//===- GPUMapping.cpp - shared front half of the GPU pipelines ------------===//

#include "GPUMapping.h"
#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"

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
  addBufferization(pm);
  addPipelineText(pm, "canonicalize");
  pm.addPass(createLowpInlineScalarResources());
  if (lowerMatrixOps)
    lowerMatrixOps(pm);
  // Constants (the FP8 clamp bounds, loop bounds) are sunk into the
  // launches, so the kernels see them as constants, not parameters.
  addPipelineText(pm,
                  "func.func(convert-linalg-to-parallel-loops,"
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
}
