//===- X86Kernels.h - x86 micro-kernels for contractions and convs --------===//
//
// The rewrite patterns of lowp-x86-lower-contractions, one family per file
// in lib/Conversion/LinalgToX86: the packed register-blocked GEMM kernels
// (f32 FMA, AVX512_BF16 vdpbf16ps, AMX-BF16 tiles), the NCHW and depthwise
// convolution kernels, and the vectorized layout copies. Every pattern works
// on buffers (after bufferization) and leaves ops it cannot take alone.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_CONVERSION_LINALGTOX86_X86KERNELS_H
#define LOWP_CONVERSION_LINALGTOX86_X86KERNELS_H

#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::lowp::x86 {

/// Points a loop nest needs before its outermost loop is worth splitting
/// over threads (an OpenMP region costs microseconds): lowp-pipeline-x86
/// gives it to lowp-parallelize-loops as `min-iterations`, and the loops
/// the patterns below write for elementwise ops are marked parallel only
/// from this size on.
constexpr int64_t kMinPointsForThreads = 16384;

/// The register block and instruction choice of one target.
struct KernelConfig {
  unsigned lanes; ///< f32 lanes per vector register (8: AVX2, 16: AVX-512)
  unsigned mr, nr;
  unsigned kc;  ///< k block in k steps (0: the kernel's, kcSteps)
  unsigned mc;  ///< row block (0: from l2Bytes; all of m without it)
  unsigned l2Bytes = 0;   ///< the target's per-core L2 (CPUInfo::l2Bytes)
  unsigned f32KBlock = 0; ///< the f32 kernel's kc (CPUInfo::f32KBlock)
  /// Prefetch unit for a packed B's next panel (CPUInfo::cacheLineBytes;
  /// 0: no prefetching).
  unsigned prefetchLineBytes = 0;
  /// bf16 products on vdpbf16ps (AVX512_BF16, where the target's table
  /// does not measure it slower than f32 FMAs); otherwise bf16 operands are
  /// widened to f32 while packed and multiplied with FMAs.
  bool bf16Dot;
  /// AMX tile (rows x columns x k) for bf16, when AMX is requested and the
  /// target has it; invalid otherwise.
  TileShape amxTile;
  /// 3x3 stride-1 convolutions on the f32 FMA kernel as Winograd
  /// F(2x2, 3x3) (WinogradConv.cpp) instead of im2col + GEMM.
  bool winograd = true;
  /// Attention with a few query rows as one kernel per head group
  /// (AttentionKernel.cpp) rather than two GEMMs and softmax loops.
  bool fuseAttention = true;

  /// Whether a GEMM of `elem` operands over `k` runs on the bf16 dot
  /// (vdpbf16ps, AMX tiles), which reads K in pairs: bf16 where the target
  /// takes it, with an even K. An odd K (a small Linear's 7 inputs) runs on
  /// the f32 FMA kernel, its operands widened (exact), instead.
  bool dotFor(Type elem, int64_t k) const {
    return bf16Dot && elem.isBF16() && k % 2 == 0;
  }

  /// The k block of a kernel, in its k steps (a k, or a pair of k for
  /// vdpbf16ps and AMX): `kc` when set, otherwise 512 pairs for the bf16
  /// kernels and the target's f32KBlock (512 without one) for the f32 FMA
  /// kernel.
  int64_t kcSteps(bool dot) const {
    if (kc)
      return kc;
    return dot || !f32KBlock ? 512 : f32KBlock;
  }
};

/// The options of lowp-x86-lower-contractions (and lowp-pipeline-x86) that
/// shape the kernels; 0 picks the target's default.
struct KernelOptions {
  unsigned mr = 0, nr = 0, kc = 0, mc = 0;
  bool amx = false;
  bool prefetch = true;
  bool winograd = true;
  bool fuseAttention = true;
};

/// The kernel configuration of `target` (a CPU row of the capability
/// table) under `options`: the vector width, register block and
/// instruction choice from the row's CPUInfo, the options' overrides
/// applied. Options the row cannot take (amx without AMX-BF16, an nr that
/// is not a multiple of the lanes) fail, with an error through `emitError`
/// when given.
FailureOr<KernelConfig>
getKernelConfig(const TargetInfo &target, const KernelOptions &options,
                function_ref<InFlightDiagnostic()> emitError = {});

/// linalg.matmul / linalg.batch_matmul (operands maybe transposed, B maybe
/// shared by the batch, a constant B packed at compile time, the cast that
/// produced B applied while packing) -> the packed kernels
/// (MatmulKernels.cpp; the full blocks on AMX-BF16 tiles when `cfg.amxTile`
/// is set, AmxKernel.cpp).
void populateMatmulKernelPatterns(RewritePatternSet &patterns,
                                  const KernelConfig &cfg);

/// Attention with a few query rows per head group (Q K^T, elementwise ops
/// on the scores, softmax along the keys, P V; decoding's form) as one
/// kernel per head group: keys and values streamed once in blocks, online
/// softmax in f32, no scores or probabilities in memory
/// (AttentionKernel.cpp). Applied before the other kernel patterns, which
/// would take its two contractions one by one.
void populateAttentionKernelPatterns(RewritePatternSet &patterns,
                                     const KernelConfig &cfg);

/// linalg.conv_2d_nchw_fchw as blocked im2col in the kernel's layout + the
/// GEMM kernel; depthwise NHWC / NCHW convolutions as a direct kernel
/// (ConvKernels.cpp and the kernel files it gathers).
void populateConvKernelPatterns(RewritePatternSet &patterns,
                                const KernelConfig &cfg);

/// A linalg.transpose moving the innermost dimension as register transposes;
/// a memref.copy with a strided side as vector loops (LayoutCopies.cpp).
void populateLayoutCopyPatterns(RewritePatternSet &patterns,
                                const KernelConfig &cfg);

/// Elementwise ops the kernels did not take into an epilogue (applied after
/// the patterns above, which match consumers in their original form):
/// all-parallel ops on strided views with a contiguous innermost dimension
/// as vector loops; identity-map ops on contiguous buffers whose innermost
/// extent is not a multiple of the vector lanes (a 3x3 filter's cast)
/// flattened to one dimension for the affine vectorizer (LayoutCopies.cpp).
void populateLeftoverElementwisePatterns(RewritePatternSet &patterns,
                                         const KernelConfig &cfg);

/// The weight packing of `func` split into `<func>_prepack`
/// (PrepackWeights.cpp, the `prepack` option); null when no weight argument
/// qualifies.
/// `packedArgs` receives the numbers of the arguments of `func` that now
/// take packed buffers (in the order of the prepacking function's results).
func::FuncOp splitPrepacking(func::FuncOp func, const KernelConfig &cfg,
                             SmallVectorImpl<unsigned> &packedArgs);

/// Why a contraction or convolution is left to the generic loop path by the
/// patterns above, or nothing for ops they take or that are neither.
std::optional<std::string> whyGenericPath(linalg::LinalgOp op,
                                          const KernelConfig &cfg);

/// Makes `f` ask Linux once per process for the AMX tile registers
/// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)) before its first
/// tile instruction, and print why (perror) and abort when Linux refuses
/// (AmxKernel.cpp). f's body moves to a private noinline function f calls
/// after the request: LLVM loads the tile configuration at the entry of a
/// function with tile code, which a CPU without AMX does not execute.
LogicalResult requestAmxPermission(func::FuncOp f);

} // namespace mlir::lowp::x86

#endif // LOWP_CONVERSION_LINALGTOX86_X86KERNELS_H
