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
#include "lowp/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct TPUPipelineOptions : PassPipelineOptions<TPUPipelineOptions> {
  Option<std::string> generation{
      *this, "generation",
      llvm::cl::desc("TPU generation: tpu-v2, tpu-v3, tpu-v4, tpu-v5e, "
                     "tpu-v5p, tpu-v6e (default: the module's lowp.target)")};
};

void buildTPUPipeline(OpPassManager &pm, const TPUPipelineOptions &opts) {
  // 1. Matrix ops in MXU form: bf16 operands, f32 accumulator, padded and
  //    tiled to the generation's tile. It runs before the lowp lowering,
  //    which removes the module's lowp.target this pass can read the
  //    generation from; it touches linalg contractions only, so lowp ops
  //    and islands (their contents included) are all the same to it.
  //    Elementwise ops keep the precision lowp-infer-precision gave them
  //    (f32 compute on generations without bf16 vector arithmetic).
  pm.addPass(createLowpTileForMXU({opts.generation}));
  // 2. fp-opt's decisions become arith/linalg; as on x86, arith/math on
  //    whole tensors become linalg.generic and branches that carry tensors
  //    scf (neither bufferizes).
  addLowpToBufferizableTensors(pm);
  addPipelineText(pm, "canonicalize,cse");
  // 3. The CPU stand-in for the chip: buffers, loops, LLVM. bf16 <-> f32
  //    conversions become exact integer code (no libcalls), which is what
  //    the MXU's inputs are: rounded to nearest even. Scalar dense_resource
  //    globals are read into dense ones (finalize-memref-to-llvm aborts on
  //    them).
  addBufferization(pm);
  addPipelineText(pm, "convert-linalg-to-loops");
  pm.addPass(createLowpInlineScalarResources());
  pm.addPass(createLowpExpandFloatConversions());
  //    Vector code front ends leave next to linalg (cache updates as
  //    vector.transfer_write) becomes 1-D transfers, then loads and stores
  //    (convert-vector-to-llvm; convert-to-llvm has no transfer lowering).
  addPipelineText(pm, "convert-vector-to-scf{full-unroll=true},"
              "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
              "convert-vector-to-llvm,"
              "convert-math-to-llvm,convert-math-to-libm,"
              "finalize-memref-to-llvm,convert-to-llvm,"
              "reconcile-unrealized-casts");
  pm.addPass(createLowpStripAttributes());
}
} // namespace

void mlir::lowp::registerTPUPipeline() {
  PassPipelineRegistration<TPUPipelineOptions>(
      "lowp-pipeline-tpu",
      "TPU-style structuring of a mixed-precision module (bf16 MXU inputs, "
      "f32 accumulation, matrix ops padded and tiled to the generation's MXU "
      "tile), lowered to the LLVM dialect for this CPU so its numerics can "
      "be executed",
      buildTPUPipeline);
}
