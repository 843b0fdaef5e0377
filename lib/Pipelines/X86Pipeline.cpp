//===- X86Pipeline.cpp - lowp-pipeline-x86 --------------------------------===//
//
// From a mixed-precision module (linalg + lowp on tensors) to the LLVM
// dialect for one x86 chip; mlir-translate + llc with the chip's
// -mcpu/-mattr (TargetInfo::llvmCpu/llvmFeatures) finish the job.
//
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"

#include "lowp/Conversion/LinalgToX86/X86Kernels.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::lowp;

std::string X86PipelineOptions::getTarget() const {
  std::string chip =
      selectTargetOption("lowp-pipeline-x86", target, "cpu", deprecatedCpu);
  return chip.empty() ? "avx2" : chip;
}

LowpX86LowerContractionsOptions
X86PipelineOptions::getContractionOptions() const {
  LowpX86LowerContractionsOptions options;
  options.target = getTarget();
  options.mr = mr;
  options.nr = nr;
  options.kc = kc;
  options.mc = mc;
  options.amx = amx;
  options.prepack = prepack;
  options.winograd = winograd;
  options.fuseAttention = fuseAttention;
  return options;
}

LogicalResult mlir::lowp::buildX86Pipeline(OpPassManager &pm,
                                           const X86PipelineOptions &opts,
                                           PipelineErrorHandler) {
  LowpX86LowerContractionsOptions contractions = opts.getContractionOptions();
  std::string chip = contractions.target;
  // The vector width of the elementwise loops: the kernels' for the row,
  // which the register-block options do not change (the pass checks those).
  // Unknown chips get AVX2's here and reach the passes, which report them
  // with a location.
  const TargetInfo *info = lookupTarget(chip);
  int64_t lanes = 8;
  if (info)
    if (FailureOr<x86::KernelConfig> kernels =
            x86::getKernelConfig(*info, x86::KernelOptions());
        succeeded(kernels))
      lanes = kernels->lanes;

  // 1. fp-opt's decisions become arith/linalg, arith/math on whole tensors
  //    (front ends emit them; they do not bufferize) linalg.generic, and
  //    branches that carry tensors scf (one-shot-bufferize gives cf block
  //    arguments buffer types their predecessors do not pass).
  addLowpToBufferizableTensors(pm);
  //    Transposes and broadcasts of matmul operands become indexing maps
  //    (the kernels of step 3 read them while packing).
  pm.addPass(createLowpFoldLayoutIntoContractions());
  //    NCHW convolutions run NHWC: all pixels of a batch are the rows of
  //    one GEMM, channels the vector lanes; the transposes between them
  //    cancel. Filters are transposed at compile time, or by the prepack
  //    split when weights are arguments.
  if (opts.nhwcConvolutions)
    pm.addPass(createLowpConvertConvNchwToNhwc(
        LowpConvertConvNchwToNhwcOptions{opts.prepack}));
  //    Chains of elementwise ops (bias, activation, casts, broadcasts,
  //    residuals) fuse into one loop nest each, while still on tensors: no
  //    buffer between them. Matmuls and convolutions stay named.
  //    Each contraction next to its consumer, each with its own fill.
  pm.addNestedPass<func::FuncOp>(
      createLowpFuseElementwise(LowpFuseElementwiseOptions{true}));
  //    A padded tensor (torch-mlir pads every convolution input) whose
  //    source an op computes for it alone is written once: the border by
  //    fills, the interior by that op, in place; not filled whole, then
  //    overwritten by a copy of the op's own buffer.
  pm.addPass(createLowpFoldPadIntoProducer());
  // 2. Tensors to buffers (identity layouts, so the kernels below see
  //    row-major memrefs). With update-in-place, a training step's new
  //    parameters and optimizer state are written over the old ones.
  addBufferization(pm, opts.updateInPlace);
  // 3. Contractions: packed, register-blocked micro-kernels.
  pm.addPass(createLowpX86LowerContractions(contractions));
  //    Buffers are freed after their last use, not at the end of the
  //    function: later intermediates (the kernels' im2col blocks, padded
  //    copies) reuse their memory instead of fresh pages on every call.
  pm.addNestedPass<func::FuncOp>(createLowpFreeBuffersEarly());
  //    The kernels' loop nests the module repeats (a model's layers) are
  //    compiled once from here on, as a function every copy calls: the
  //    passes below see each once. The linalg ops left to step 4 stay
  //    (their buffers, as arguments, would alias as far as those passes
  //    can tell) and are outlined once they are loops.
  if (opts.outlineRepeatedLoops)
    pm.addPass(createLowpOutlineRepeatedLoops());
  // 4. Everything else elementwise: loops, vectorized along the innermost
  //    dimension at the register width. Strided ops (pooling, strided or
  //    dilated convolutions left by step 3) become scf loops first: the
  //    affine vectorizer would read their windows as contiguous.
  //    Single-iteration loops (a 1-wide window or channel) are promoted
  //    first: the affine vectorizer would vectorize one and write a
  //    broadcast to memory. Reduction accumulators move from memory into
  //    loop-carried values, so row reductions (softmax, norms) vectorize
  //    too, into a vector accumulator and one horizontal reduction.
  //    Row-invariant work (a norm's 1/sqrt(var + eps), a mean) leaves the
  //    inner loop before vectorization: computed once per row, broadcast.
  pm.addPass(createLowpLowerStridedLinalgToLoops());
  //    Adjacent loops every operand reads contiguously run as one (an NCHW
  //    plane's rows and columns): long vector runs, no masked tail per row,
  //    one horizontal reduction per plane.
  pm.addPass(createLowpCollapseContiguousLoops());
  //    Threads: the kernels' panel loops become scf.parallel, large linalg
  //    ops affine loops with an affine.parallel outermost (OpenMP in step
  //    6). One level: what is inside stays sequential. After the strided
  //    lowering, so no strided op reaches the affine vectorizer this way.
  if (opts.threads > 1)
    pm.addPass(createLowpParallelizeLoops(
        LowpParallelizeLoopsOptions{opts.threads, x86::kMinPointsForThreads}));
  {
    OpPassManager &funcs = pm.nest<func::FuncOp>();
    funcs.addPass(createConvertLinalgToAffineLoopsPass());
    funcs.addPass(
        affine::createAffineLoopNormalizePass(/*promoteSingleIter=*/true));
    funcs.addPass(createLowpPromoteReductionAccumulators());
    funcs.addPass(affine::createAffineLoopInvariantCodeMotionPass());
    affine::AffineVectorizeOptions vectorize;
    vectorize.vectorSizes = {lanes};
    vectorize.vectorizeReductions = true;
    funcs.addPass(affine::createAffineVectorize(vectorize));
  }
  pm.addPass(createLowpInferTransferInBounds());
  //    Loop nests the module repeats (a model's repeated layers, lowered)
  //    are compiled once, as a function each copy calls: the conversions
  //    below and LLVM see each once.
  if (opts.outlineRepeatedLoops)
    pm.addPass(createLowpOutlineRepeatedLoops());
  //    Fixed-size buffers become views of one workspace per function, kept
  //    across calls: no malloc, free or fresh page per call or per packing
  //    panel. After the loops are parallel: buffers allocated inside a
  //    parallel loop stay per iteration (per thread).
  pm.addPass(createLowpPlanWorkspace(
      LowpPlanWorkspaceOptions{opts.staticWorkspace}));
  // 5. Arithmetic on formats the chip can neither compute in nor convert
  //    natively (FP8 everywhere, bf16 on AVX2) runs in f32 between an extf
  //    and a truncf (LLVM promotes the others itself, with the chip's
  //    conversion instructions)...
  addFloatEmulation(pm.nest<func::FuncOp>(), [&](Format format) {
    return !info || (!info->hasNativeArithmetic(format) &&
                     !info->hasNativeConversion(format));
  });
  //    Transcendentals (exp, erf, tanh, log, ...) become polynomials in
  //    arith/math.fma: LLVM would call libm once per vector element.
  pm.addPass(createLowpApproximateMath());
  // ...and conversions the chip has no instruction for become integer code
  //    (bf16 on AVX2, every FP8 format): no __truncsfbf2 calls.
  pm.addPass(createLowpExpandFloatConversions({chip}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLowpInlineScalarResources());
  // 6. Down to the LLVM dialect. 2-D transfers are fully unrolled (an
  //    alloca per iteration otherwise). scf.parallel loops run on OpenMP
  //    threads (libomp at run time); the alloca scopes that conversion
  //    wraps loop bodies in are inlined (canonicalize), or lowered where
  //    they hold an iteration's stack arena, before scf-to-cf splits those
  //    bodies into blocks. x86vector ops need the flag on
  //    convert-vector-to-llvm.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll(true)));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (opts.threads > 1) {
    pm.addPass(createConvertSCFToOpenMPPass(
        ConvertSCFToOpenMPPassOptions{opts.threads}));
    pm.addPass(createCanonicalizerPass());
    //  The scopes still holding allocas (a parallel iteration's stack arena,
    //  lowp-plan-workspace) become stacksave/stackrestore while one block.
    pm.addPass(createLowpLowerAllocaScopes());
  }
  pm.addPass(createSCFToControlFlowPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.x86Vector = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  addCPUToLLVMFinalization(pm);
  //    Lanes of 16-bit float vectors moved one at a time (masked accesses
  //    past a row, lane inserts and extracts) move as integers: LLVM would
  //    round-trip each bf16 lane through f32 on AVX2 (__truncsfbf2).
  pm.addPass(createLowpNarrowFloatMovesAsIntegers());
  return success();
}
