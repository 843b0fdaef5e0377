//===- X86Pipeline.cpp - lowp-pipeline-x86 --------------------------------===//
//
// From a mixed-precision module (linalg + lowp on tensors) to the LLVM
// dialect for one x86 chip; mlir-translate + llc with the chip's
// -mcpu/-mattr (TargetInfo::llvmCpu/llvmFeatures) finish the job.
//
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct X86PipelineOptions : PassPipelineOptions<X86PipelineOptions> {
  Option<std::string> cpu{*this, "cpu",
                          llvm::cl::desc("x86 chip: avx2, avx512bf16, znver4, "
                                         "sapphirerapids"),
                          llvm::cl::init("avx2")};
  Option<unsigned> mr{*this, "mr",
                      llvm::cl::desc("Rows of the matmul register block "
                                     "(0: the cpu's default)"),
                      llvm::cl::init(0)};
  Option<unsigned> nr{*this, "nr",
                      llvm::cl::desc("Columns of the matmul register block "
                                     "(0: the cpu's default)"),
                      llvm::cl::init(0)};
  Option<unsigned> kc{*this, "kc",
                      llvm::cl::desc("Depth of the matmul k block (0: no "
                                     "k blocking)"),
                      llvm::cl::init(512)};
  Option<unsigned> mc{*this, "mc",
                      llvm::cl::desc("Rows of the matmul m block (0: no m "
                                     "blocking)"),
                      llvm::cl::init(0)};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads (OpenMP, libomp) for the matmul kernels' panel "
                     "loops and large elementwise/reduction ops; 1: "
                     "sequential code, no OpenMP"),
      llvm::cl::init(1)};
  Option<bool> amx{*this, "amx",
                   llvm::cl::desc("bf16 matmuls on AMX-BF16 tiles "
                                  "(sapphirerapids)"),
                   llvm::cl::init(false)};
  Option<bool> prepack{*this, "prepack",
                       llvm::cl::desc("Pack weight arguments once: F_prepack "
                                      "(docs/lowering-x86.md)"),
                       llvm::cl::init(false)};
};

void buildX86Pipeline(OpPassManager &pm, const X86PipelineOptions &opts) {
  const TargetInfo *info = lookupTarget(opts.cpu);
  // Unknown chips reach the passes, which report them with a location.
  bool avx512 = info && info->hasMatrixUnit(Format::BF16);
  std::string cpu = opts.cpu;
  unsigned lanes = avx512 ? 16 : 8;

  // 1. fp-opt's decisions become arith/linalg, arith/math on whole tensors
  //    (front ends emit them; they do not bufferize) linalg.generic, and
  //    branches that carry tensors scf (one-shot-bufferize gives cf block
  //    arguments buffer types their predecessors do not pass).
  addLowpToBufferizableTensors(pm);
  //    Transposes and broadcasts of matmul operands become indexing maps
  //    (the kernels of step 3 read them while packing).
  pm.addPass(createLowpFoldLayoutIntoContractions());
  //    Chains of elementwise ops (bias, activation, casts, broadcasts,
  //    residuals) fuse into one loop nest each, while still on tensors: no
  //    buffer between them. Matmuls and convolutions stay named.
  addPipelineText(pm, "func.func(lowp-fuse-elementwise)");
  // 2. Tensors to buffers (identity layouts, so the kernels below see
  //    row-major memrefs).
  addBufferization(pm);
  // 3. Contractions: packed, register-blocked micro-kernels.
  pm.addPass(createLowpX86LowerContractions(
      {cpu, opts.mr, opts.nr, opts.kc, opts.mc, opts.amx, opts.prepack}));
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
  //    Threads: the kernels' panel loops become scf.parallel, large linalg
  //    ops affine loops with an affine.parallel outermost (OpenMP in step
  //    6). One level: what is inside stays sequential. After the strided
  //    lowering, so no strided op reaches the affine vectorizer this way.
  if (opts.threads > 1)
    pm.addPass(createLowpParallelizeLoops(
        LowpParallelizeLoopsOptions{opts.threads, /*minIterations=*/16384}));
  addPipelineText(pm, "func.func(convert-linalg-to-affine-loops,"
              "affine-loop-normalize{promote-single-iter=true},"
              "lowp-promote-reduction-accumulators,"
              "affine-loop-invariant-code-motion,"
              "affine-super-vectorize{virtual-vector-size=" +
                  std::to_string(lanes) + " vectorize-reductions=true})");
  pm.addPass(createLowpInferTransferInBounds());
  // 5. Arithmetic on formats the chip can neither compute in nor convert
  //    natively (FP8 everywhere, bf16 on AVX2) runs in f32 between an extf
  //    and a truncf (LLVM promotes the others itself, with the chip's
  //    conversion instructions)...
  std::string emulated;
  for (Format f : {Format::F16, Format::BF16, Format::F8E4M3FN, Format::F8E5M2,
                   Format::F8E4M3FNUZ, Format::F8E5M2FNUZ})
    if (!info ||
        (!info->hasNativeArithmetic(f) && !info->hasNativeConversion(f)))
      emulated += (emulated.empty() ? "" : ",") + stringifyFormat(f).str();
  addPipelineText(pm, "func.func(arith-emulate-unsupported-floats{source-types=" +
                  emulated + " target-type=f32},"
                  "math-extend-to-supported-types{target-type=f32})");
  //    Transcendentals (exp, erf, tanh, log, ...) become polynomials in
  //    arith/math.fma: LLVM would call libm once per vector element.
  pm.addPass(createLowpApproximateMath());
  // ...and conversions the chip has no instruction for become integer code
  //    (bf16 on AVX2, every FP8 format): no __truncsfbf2 calls.
  pm.addPass(createLowpExpandFloatConversions({cpu}));
  addPipelineText(pm, "canonicalize,cse");
  pm.addPass(createLowpInlineScalarResources());
  // 6. Down to the LLVM dialect. x86vector ops need the flag on
  //    convert-vector-to-llvm; 2-D transfers are fully unrolled (an alloca
  //    per iteration otherwise).
  //    scf.parallel loops run on OpenMP threads (libomp at run time); the
  //    alloca scopes that conversion wraps loop bodies in are inlined
  //    (canonicalize) before scf-to-cf splits those bodies into blocks.
  std::string openmp =
      opts.threads > 1 ? "convert-scf-to-openmp{num-threads=" +
                             std::to_string(opts.threads) + "},canonicalize,"
                       : "";
  addPipelineText(pm, "lower-affine,convert-vector-to-scf{full-unroll=true},"
              "expand-strided-metadata,lower-affine," + openmp +
              "convert-scf-to-cf,"
              "convert-vector-to-llvm{enable-x86vector=true},"
              "convert-math-to-llvm,convert-math-to-libm,"
              "finalize-memref-to-llvm,convert-to-llvm,"
              "reconcile-unrealized-casts");
  //    Lanes of 16-bit float vectors moved one at a time (masked accesses
  //    past a row, strided reads) move as integers: LLVM would round-trip
  //    each bf16 lane through f32 on AVX2 (__truncsfbf2).
  pm.addPass(createLowpNarrowFloatMovesAsIntegers());
  // 7. mlir-translate does not know lowp's attributes.
  pm.addPass(createLowpStripAttributes());
}
} // namespace

void mlir::lowp::registerX86Pipeline() {
  PassPipelineRegistration<X86PipelineOptions>(
      "lowp-pipeline-x86",
      "Lower a mixed-precision module to the LLVM dialect for an x86 chip: "
      "packed register-blocked matmul kernels (vdpbf16ps with VNNI-packed B "
      "on AVX512_BF16, f32 FMA on bf16 storage on AVX2), vectorized "
      "elementwise code, exact integer bf16/FP8 conversions where the chip "
      "has none",
      buildX86Pipeline);
}
