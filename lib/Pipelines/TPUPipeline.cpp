//===- TPUPipeline.cpp - lowp-pipeline-tpu --------------------------------===//
//
// The TPU-style structuring of a decided module: every matrix op becomes
// bf16 x bf16 -> f32 contractions of exactly one MXU tile of the chosen
// generation (lowp-tile-for-mxu), then the rest is lowered for this CPU
// with the generic loop path, so the numerics of that structure can be
// executed (mlir-runner) and checked. There is no TPU backend in LLVM;
// docs/lowering-tpu.md says what this models and what it does not.
//
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::lowp;

LowpTileForMXUOptions TPUPipelineOptions::getTilingOptions() const {
  LowpTileForMXUOptions options;
  options.target = selectTargetOption("lowp-pipeline-tpu", target,
                                      "generation", deprecatedGeneration);
  return options;
}

LogicalResult mlir::lowp::buildTPUPipeline(OpPassManager &pm,
                                           const TPUPipelineOptions &opts,
                                           PipelineErrorHandler) {
  // 1. Matrix ops in MXU form: bf16 operands, f32 accumulator, padded and
  //    tiled to the generation's tile. It runs before the lowp lowering,
  //    which removes the module's lowp.target this pass can read the
  //    generation from; it touches linalg contractions only, so lowp ops
  //    and islands (their contents included) are all the same to it.
  //    Elementwise ops keep the precision lowp-infer-precision gave them
  //    (f32 compute on generations without bf16 vector arithmetic). An
  //    unknown or missing generation is reported by this pass, with the
  //    module's location.
  pm.addPass(createLowpTileForMXU(opts.getTilingOptions()));
  // 2. fp-opt's decisions become arith/linalg; as on x86, arith/math on
  //    whole tensors become linalg.generic and branches that carry tensors
  //    scf (neither bufferizes).
  addLowpToBufferizableTensors(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // 3. The CPU stand-in for the chip: the reference loop lowering. Its
  //    bf16 <-> f32 conversions are exact integer code (no libcalls), which
  //    is what the MXU's inputs are: rounded to nearest even.
  addReferenceLoopLowering(pm);
  return success();
}
