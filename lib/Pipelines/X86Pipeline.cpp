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
  //    broadcast to memory.
  pm.addPass(createLowpLowerStridedLinalgToLoops());
  addPipelineText(pm, "func.func(convert-linalg-to-affine-loops,"
              "affine-loop-normalize{promote-single-iter=true},"
              "affine-super-vectorize{virtual-vector-size=" +
                  std::to_string(lanes) + "})");
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
  // ...and conversions the chip has no instruction for become integer code
  //    (bf16 on AVX2, every FP8 format): no __truncsfbf2 calls.
  pm.addPass(createLowpExpandFloatConversions({cpu}));
  addPipelineText(pm, "canonicalize,cse");
  pm.addPass(createLowpInlineScalarResources());
  // 6. Down to the LLVM dialect. x86vector ops need the flag on
  //    convert-vector-to-llvm; 2-D transfers are fully unrolled (an alloca
  //    per iteration otherwise).
  addPipelineText(pm, "lower-affine,convert-vector-to-scf{full-unroll=true},"
              "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
              "convert-vector-to-llvm{enable-x86vector=true},"
              "convert-math-to-llvm,convert-math-to-libm,"
              "finalize-memref-to-llvm,convert-to-llvm,"
              "reconcile-unrealized-casts");
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
