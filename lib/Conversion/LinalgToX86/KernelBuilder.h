//===- KernelBuilder.h - shared pieces of the x86 kernels -----------------===//
//
// Internal to lib/Conversion/LinalgToX86: the GEMM building blocks (B
// packing, the register-blocked micro-kernel, A preparation) that the matmul,
// convolution and prepacking code share, and the matching of a contraction.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOX86_KERNELBUILDER_H
#define LIB_CONVERSION_LINALGTOX86_KERNELBUILDER_H

#include "lowp/Conversion/LinalgCommon/LoopBuilder.h"
#include "lowp/Conversion/LinalgToX86/X86Kernels.h"

#include <functional>
#include <optional>
#include <string>
#include <numeric>

namespace mlir::lowp::x86 {

/// How a kernel reads one matrix operand of a (batched) contraction.
struct MatrixOperand {
  Value mem;
  bool transposed = false; ///< stored as [cols][rows]
  bool batched = false;    ///< indexed by the batch first
};

/// A matmul / batch_matmul as the kernels see it.
struct ContractionShape {
  MatrixOperand a, b;
  Value c;
  int64_t batches = 0; ///< 0: a plain matmul
  int64_t m = 0, n = 0, k = 0;
  Type elem;
};

/// The kernels' view of a bufferized matmul or batch_matmul, or why they
/// cannot take it (for the remark of the fallback).
FailureOr<ContractionShape> matchContraction(linalg::LinalgOp op,
                                             const KernelConfig &cfg,
                                             std::string &why);

/// The elementwise op that produced `bMem`, a buffer the contraction
/// `consumer` reads as B, when packing can read its source and apply its
/// payload instead (the narrowing cast of a weight); null otherwise.
linalg::LinalgOp findFusableCast(Value bMem, Operation *consumer);

/// Whether `op`, a linalg op on buffers with one input and one init, maps
/// each element of its input to one of its init: all loops parallel,
/// identity maps, a payload of pure elementwise ops that ignores the init
/// (a narrowing cast).
bool isElementwiseConversion(linalg::LinalgOp op);

/// What a GEMM kernel does besides C += A * B, read off the ops around a
/// bufferized contraction (KernelEpilogue.cpp):
///  * `fill`: the linalg.fill that initialised C; the first k block starts
///    its accumulators from the fill value instead of loading C;
///  * `consumer`: the elementwise linalg.generic that reads C (bias,
///    activation, residual, narrowing cast); the last k block applies its
///    payload to the accumulators in registers and stores the result into
///    the consumer's output instead of C.
/// Indices are those of C as the kernel sees it: ([batch,] row, col).
struct KernelEpilogue {
  linalg::FillOp fill;
  linalg::GenericOp consumer;
  /// Without a fill: the value the first k block starts from instead of
  /// loading C (a scratch C the kernel's caller reads back, e.g. zero).
  Value initValue;
  /// The buffer the contraction writes as C (maybe a collapsed view of
  /// `cRoot`, the buffer the fill and the consumer see).
  Value c, cRoot;
  /// C is `cRoot` collapsed by this (empty: C is `cRoot`).
  SmallVector<ReassociationIndices> collapse;
  /// Per operand of the consumer (inputs, then the output), how the
  /// epilogue reads it, set by prepareEpilogue: the accumulator, a scalar
  /// value, or a buffer (`mems`, maybe collapsed like C) at the C indices
  /// `dims` (-1: index 0), a vector along the columns when `alongCols`.
  enum class Kind { Acc, Scalar, Memory, Unused };
  SmallVector<Kind> kinds;
  SmallVector<Value> mems;
  SmallVector<SmallVector<int64_t>> dims;
  SmallVector<bool> alongCols;
  /// The consumer's output as the kernel writes it (maybe collapsed), and
  /// the C index of each of its dimensions when it is written through a
  /// permutation (empty: in C's order).
  Value out;
  SmallVector<int64_t> outDims;

  bool empty() const { return !fill && !consumer && !initValue; }
};

/// Whether a linalg payload can run on vectors (KernelBuilder::applyPayload):
/// ops without regions, constants or pure elementwise-mappable ops on
/// scalars.
bool isVectorizablePayload(Block *body);

/// The fill and elementwise consumer around `contraction`, which writes
/// `c` and reads `kernelReads` (A, B and what packing reads for B), that a
/// kernel can take (either may be absent). `whyNot` is set when the result
/// of `contraction` has exactly one elementwise consumer that cannot be
/// fused, with the reason (for a remark).
KernelEpilogue matchEpilogue(Operation *contraction, Value c,
                             ArrayRef<Value> kernelReads, std::string &whyNot);

/// matchEpilogue, with a remark on `contraction` naming the reason when its
/// elementwise consumer cannot be fused.
KernelEpilogue matchEpilogueOrRemark(Operation *contraction, Value c,
                                     ArrayRef<Value> kernelReads);

/// Makes the epilogue's buffers available at the rewriter's insertion point
/// (before the contraction): definitions between the contraction and the
/// consumer (its output's alloc) move before it, and views collapsed like
/// C are created there.
void prepareEpilogue(KernelEpilogue &e, Operation *contraction,
                     RewriterBase &rw);

/// After the kernel replaced `contraction` (already erased): erases the
/// fill and the consumer, and C when nothing reads it any more.
void finishEpilogue(KernelEpilogue &e, RewriterBase &rw);

/// Why a pooling op (max, min or sum; NHWC, or NCHW max and sum) cannot
/// take the window kernel (WindowKernel.cpp), or success. The window operand
/// only gives the shape. Max and min write the input's type (exact in it:
/// the f32 result is one of the inputs) or f32; a sum accumulates in f32
/// and writes f32 only (a narrow sum would round each partial sum).
LogicalResult matchPooling(linalg::LinalgOp op, std::string &why);

/// Whether `op` is a pooling op the window kernel is registered for.
bool isKernelPooling(linalg::LinalgOp op);

/// Fails with the reason in `why` when the NCHW window kernel (`kernel`:
/// "depthwise", "window") cannot take `op`'s stride along W: it vectorizes
/// output rows, read contiguously or as every other element.
LogicalResult checkNchwWindowStride(linalg::LinalgOp op, StringRef kernel,
                                    std::string &why);

/// The convolution kernels, one file each (ConvKernels.cpp gathers them in
/// populateConvKernelPatterns): NCHW blocked im2col + GEMM, NHWC GEMMs on A
/// read in place, depthwise and pooling windows.
void populateConvNchwKernelPatterns(RewritePatternSet &patterns,
                                    const KernelConfig &cfg);
void populateConvNhwcKernelPatterns(RewritePatternSet &patterns,
                                    const KernelConfig &cfg);
void populateWindowKernelPatterns(RewritePatternSet &patterns,
                                  const KernelConfig &cfg);
/// NCHW convolutions of at most 32 taps per output (ConvNchwDirectKernel.cpp)
/// as a direct kernel, ahead of the im2col one.
void populateConvNchwDirectKernelPatterns(RewritePatternSet &patterns,
                                          const KernelConfig &cfg);

/// The filter gradient of an NCHW convolution, as a contraction generic
/// (ConvFilterGradKernel.cpp): o[c][kh][kw][f] += x[n][c][oh * s0 + kh * d0]
/// [ow * s1 + kw * d1] * g[n][f][oh][ow], loops in any order, the operands
/// maybe rounded and widened in the body.
struct FilterGradient {
  int64_t strides[2] = {1, 1}, dilations[2] = {1, 1};
  /// The type x and g are multiplied in, and whether the body rounds each
  /// to it from its buffer's element type (a fused narrowing cast).
  Type elem;
  bool rounded[2] = {false, false};
};
/// `op` as a filter gradient the kernel takes. On failure, `why` is empty
/// when `op` is not a filter gradient, and the reason when it is one the
/// kernel cannot take (for the remark of the loop path).
FailureOr<FilterGradient> matchFilterGradient(linalg::GenericOp op,
                                              std::string &why);
void populateConvFilterGradKernelPatterns(RewritePatternSet &patterns,
                                          const KernelConfig &cfg);

/// Why a convolution cannot take its kernel (ConvKernels.cpp), or success.
LogicalResult matchConv(linalg::LinalgOp op, const KernelConfig &cfg,
                        std::string &why);

/// Why a convolution (conv_2d_nchw_fchw, conv_2d_nhwc_hwcf or _fhwc)
/// does not run as Winograd F(2x2, 3x3) (WinogradConv.cpp), or success.
LogicalResult matchWinograd(linalg::LinalgOp op, const KernelConfig &cfg,
                            std::string &why);

/// The Winograd F(2x2, 3x3) kernel for the convolutions matchWinograd
/// takes, ahead of the im2col kernel (a higher benefit).
void populateWinogradConvPatterns(RewritePatternSet &patterns,
                                  const KernelConfig &cfg);

/// The GEMM pieces on top of LoopBuilder, for one target's KernelConfig.
class KernelBuilder : public LoopBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const KernelConfig &cfg)
      : LoopBuilder(b, loc), cfg(cfg) {}

  /// The type packB returns for a k x n B of `elem`.
  MemRefType packedType(int64_t n, int64_t k, Type elem) const;

  /// B[k x n] packed for the kernel: panels of nr columns, [panels][k][nr]
  /// in f32 (narrow types widened), or VNNI pairs [panels][k/2][2*nr] in
  /// bf16 for the dot kernel. A transposed B ([n][k], nn.Linear's weight) is
  /// read through `lanes` x `lanes` register transposes: for the dot, a
  /// pair of bf16 along k is one i32 of a B^T row, so VNNI packing is a
  /// 32-bit transpose. The last panel of an N not divisible by nr is padded
  /// with zeros. The caller deallocates the result.
  ///
  /// With `cast` (an elementwise op that produced B from `bOp.mem`, e.g. the
  /// narrowing cast of a weight the precision decisions insert), B is read
  /// from its source and converted while packing, a vector at a time.
  Value packB(const MatrixOperand &bOp, ValueRange batch, int64_t n, int64_t k,
              Type elem, bool dot, linalg::LinalgOp cast = nullptr);

  /// B[k x n] of f8E4M3FN elements (`bOp.mem`, not batched) packed as
  /// bytes in the layout packB gives the kernel that reads them (VNNI pairs
  /// for `dot`, rows of nr otherwise): the kernel widens them in registers
  /// (see emitKernel), so a prepacked weight stays a byte per element. The
  /// last panel is padded with zeros. Runs once (prepack): scalar copies.
  Value packFP8B(const MatrixOperand &bOp, int64_t n, int64_t k, bool dot);

  /// Whether `cast`, the elementwise op producing a matmul's B, is an exact
  /// widening of f8E4M3FN elements the kernels can read as packed bytes
  /// (packFP8B) on this configuration (not AMX tiles, which load B from
  /// memory as it is).
  bool readsFP8Panels(linalg::LinalgOp cast) const;

  /// A copy of `src` ([rows][cols], maybe batched) widened to f32, in the
  /// same layout: O(rows * cols) shifts, vectorized along the rows.
  Value widenCopy(Value src, ValueRange batch, int64_t rows, int64_t cols);

  /// A row-major copy of a transposed operand ([cols][rows] -> [rows][cols])
  /// in its own type.
  Value transposedCopy(Value src, ValueRange batch, int64_t rows,
                       int64_t cols);

  /// B packed inside the kernel, one k block of one panel at a time, by
  /// packSlice(jb, columns, kBegin, k steps) into a small buffer the kernel
  /// frees after the panel (packPanelSlice).
  using PanelPacker =
      std::function<Value(Value jb, int64_t cols, Value kBegin, int64_t steps)>;
  /// Called at each k step `kk` of a block of panel jb with the next full
  /// panel and the block's kBegin (B's source for the slice the
  /// PanelPacker reads next, prefetchPanelSource).
  using PanelPrefetcher =
      std::function<void(Value jbNext, Value kBegin, Value kk)>;
  /// A read in place from a buffer that is not an [m][k] matrix: a
  /// convolution's (padded) input instead of its im2col copy. K is split
  /// into segments of `segmentSteps` k steps (one filter tap's channels);
  /// row `row`'s segment `seg` is a contiguous run along the last dimension
  /// of `source` (f32 elements, or bf16 pairs for the dot kernel) starting
  /// at `start(rowState(row), seg)`. rowState is computed once per row of a
  /// block, start once per row and segment, outside the k loop. A is not
  /// packed; k blocks hold whole segments. AMX tiles read A only with
  /// `rowsEvenlySpaced`: row r + 1's run starts one row of `source` (its
  /// second-to-last index) after row r's, so 16 rows are one tile load.
  struct SegmentedA {
    Value source;
    int64_t segmentSteps = 0;
    bool rowsEvenlySpaced = false;
    std::function<SmallVector<Value>(Value row)> rowState;
    std::function<SmallVector<Value>(ArrayRef<Value> state, Value seg)> start;
  };
  /// One GEMM for emitKernel: C[m x n] += A[m x k] * B[k x n] for one
  /// batch (or, with an epilogue, C = its consumer of A * B + fill).
  struct GemmCall {
    GemmCall(Value a, Value packed, Value c, int64_t m, int64_t n, int64_t k,
             bool dot)
        : a(a), packed(packed), c(c), m(m), n(n), k(k), dot(dot) {}
    /// A, indexed by `aBatch` then [m][k] (`aTransposed`: [k][m]), read in
    /// place: broadcast scalars (f32 kernel) or broadcast pairs (dot
    /// kernel, row-major A only). `segmentedA` instead: A read by segments.
    Value a;
    SmallVector<Value> aBatch;
    bool aTransposed = false;
    const SegmentedA *segmentedA = nullptr;
    /// B packed (packB, packFP8B) or, with `bRowMajor`, already in the
    /// kernel's element layout as rows of at least n rounded up to nr
    /// ([k][n'] f32, [k/2][2n'] VNNI pairs for dot: im2col writes it so).
    /// With `packSlice`, `packed` is unused: B is packed per panel slice.
    Value packed;
    bool bRowMajor = false;
    PanelPacker packSlice;
    PanelPrefetcher prefetchSource;
    /// C, indexed by `cBatch` then [m][n]; its columns start at
    /// `cColOffset`, its rows at `cRowOffset` (null: 0; A's rows always
    /// start at 0).
    Value c;
    SmallVector<Value> cBatch;
    Value cColOffset, cRowOffset;
    int64_t m = 0, n = 0, k = 0;
    /// vdpbf16ps (pairs of k) rather than f32 FMAs.
    bool dot = false;
    /// Fill and consumer fused into the first and last k blocks.
    const KernelEpilogue *epilogue = nullptr;
  };
  /// Writes `call` as the register-blocked micro-kernel and its loops
  /// (GemmMicroKernel.cpp).
  void emitKernel(const GemmCall &call);

  /// Zeros elements [valid, next vector boundary) of every row (last
  /// dimension) of a row-major B the kernel reads in place (`bRowMajor`):
  /// it loads the last panel's last vector whole, and whatever a scratch
  /// buffer held there (denormals cost a microcode assist per FMA; a mixed
  /// ResNet block ran 20x slower) must not reach the multiplies. Vectors
  /// are the register width of B's element type.
  void zeroRowTails(Value buf, int64_t valid);

  /// Stores the accumulator `acc` of C at `cIx` (`mask`: the valid lanes,
  /// null for all) through the epilogue's consumer into its output.
  /// With `hoisted` (hoistEpilogue's result for the same columns), what
  /// does not depend on the row is not read or computed again.
  void storeThroughEpilogue(const KernelEpilogue &e, Value acc,
                            ArrayRef<Value> cIx, Value mask,
                            const IRMapping *hoisted = nullptr);

  /// The part of the epilogue that is the same for every row of C at the
  /// columns of `cIx` (SameForEveryRow: vectors), or for every column of
  /// its row (SameForEveryColumn: scalars, broadcast where used): the
  /// consumer's operands that do not index what varies (a bias, batch-norm
  /// statistics per column of an NHWC convolution, per row of an NCHW
  /// one), and its payload ops on them alone (a batch norm's
  /// rsqrt(var + eps)), computed at the insertion point for
  /// storeThroughEpilogue on each row or column. SameForRowsAndColumns:
  /// what indexes neither (per channel of an NCHW depthwise output), as
  /// vectors.
  enum class EpilogueHoist {
    SameForEveryRow,
    SameForEveryColumn,
    SameForRowsAndColumns
  };
  IRMapping hoistEpilogue(const KernelEpilogue &e, ArrayRef<Value> cIx,
                          EpilogueHoist which, Value mask);

  /// Whether the epilogue reads an operand per row of C (`rowPos` in C's
  /// indices) that does not depend on the column: hoisted per row then.
  static bool epilogueHasRowOperands(const KernelEpilogue &e,
                                     unsigned rowPos);

  /// `steps` k steps (pairs for dot) of B from k step `kBegin`, columns
  /// jb*nr.. (`cols` of them; the rest of the nr are zero), packed as one
  /// panel of packB would be ([steps][nr] f32, [steps][2*nr] VNNI bf16) into
  /// a new buffer the caller frees. `cast` as for packB.
  Value packPanelSlice(const MatrixOperand &bOp, ValueRange batch, Value jb,
                       int64_t cols, Value kBegin, int64_t steps, Type elem,
                       bool dot, linalg::LinalgOp cast = nullptr);

  /// Prefetches into L2 the part of B's source (`bOp`, as packPanel reads
  /// it) that k step `kk` of a block starting at k step `kBegin` stands for
  /// in the full panel jb: as many cache lines as one k step of the packed
  /// panel holds. Row-major B: that k step's rows, nr columns from jb*nr.
  /// Transposed B ([n][k], nr rows of it per panel, a line holding several
  /// k steps of one row): spread so that the steps of the block together
  /// cover the nr rows x the block's k range. Nothing where a k step is not
  /// a whole number of lines.
  void prefetchPanelSource(const MatrixOperand &bOp, ValueRange batch,
                           Value jb, Value kBegin, Value kk, bool dot);

  /// `steps` k steps (pairs for dot) of the panel jb of B from k step
  /// `kBegin` (null: 0), `cols` columns of it (the rest of the nr zero),
  /// into `dest` at [jb][k step][column] (`indexDestByPanel`, packB's
  /// layout) or [k step][column] (packPanelSlice's). `col0` is jb * nr
  /// (null for a last panel of packB: computed where a column is read).
  void packPanel(const MatrixOperand &bOp, ValueRange batch, Value dest,
                 Value jb, Value col0, int64_t cols, Value kBegin,
                 int64_t steps, Type elem, bool dot, linalg::LinalgOp cast,
                 bool indexDestByPanel = true);

  /// The operand the kernel reads as A for one batch: in place, or a copy
  /// (widened to f32 for the f32 kernel on narrow types; made row-major for
  /// the dot kernel when transposed). Sets `copy` when the caller must free
  /// it.
  Value prepareA(const MatrixOperand &aOp, ValueRange batch, int64_t m,
                 int64_t k, bool dot, Value &copy, SmallVector<Value> &aBatch,
                 bool &aTransposed);

  /// C[batch][m x n] += A * B for every batch (batch = 0: a plain matmul).
  /// A B shared by every batch (broadcast) is packed once.
  /// `prepacked`: B already packed (an argument filled by the prepacking
  /// function); `bCast`: as for packB.
  void emitMatmul(const MatrixOperand &aOp, const MatrixOperand &bOp, Value c,
                  int64_t batches, int64_t m, int64_t n, int64_t k, Type elem,
                  Value prepacked = nullptr, linalg::LinalgOp bCast = nullptr,
                  const KernelEpilogue *epilogue = nullptr);

  /// emitMatmul's plain matmul with a dynamic M (A [?][K] row-major, C
  /// [?][N]): B packed once, static blocks of rows, then the rest.
  void emitDynamicRowsMatmul(const MatrixOperand &aOp,
                             const MatrixOperand &bOp, Value c, int64_t n,
                             int64_t k, Type elem, Value prepacked,
                             linalg::LinalgOp bCast,
                             const KernelEpilogue *epilogue);

  /// Why emitKernel's full blocks do not run on AMX (`amx=true`,
  /// AmxKernel.cpp), for the remark of the slower path; nullopt when they
  /// do: that takes a bf16 A and an f32 C, panels of 2 tile columns, at
  /// least one block of 2 tile rows, and k blocks of whole tiles or a
  /// single k block.
  std::optional<std::string>
  whyNoAmxBlocks(int64_t m, int64_t kSteps, int64_t kcSteps, Type aElem,
                 Type cElem, const SegmentedA *segA = nullptr) const;
  /// The k pairs past the last whole tile (K = 24: 12), taken at the end of
  /// the (then only) k block by a tile of zero-padded copies.
  int64_t amxKTail(int64_t kSteps) const;

  /// The rows a caller blocking M should take a multiple of: mr, and with
  /// AMX (`dot` kernels) also the 2 tile rows of a tile block.
  int64_t rowBlockQuantum(bool dot) const {
    int64_t rows = cfg.mr;
    if (dot && cfg.amxTile.valid())
      rows = std::lcm<int64_t>(rows, 2 * cfg.amxTile.m);
    return rows;
  }

  /// One 2t.m x 2t.n block of C on AMX tiles across k pairs [kBegin, kEnd).
  struct AmxBlock {
    Value a;                  ///< bf16, row-major, read in place
    SmallVector<Value> aBatch; ///< A's leading indices
    Value aRow0;
    Value c;                  ///< f32 partial sums
    SmallVector<Value> cBatch;
    Value cRow0, col0;
    Value bMem;               ///< packed VNNI B
    /// Indices of B's k pair `kk`, element column `col` of the panel.
    std::function<SmallVector<Value>(Value kk, int64_t col)> bAt;
    Value kBegin, kEnd;
    int64_t kTail = 0; ///< pairs at the end of [kBegin, kEnd) past whole tiles
    Value fill;                         ///< accumulators start here, not C
    const KernelEpilogue *epilogue = nullptr; ///< stored through, not to C
    /// A 2t.m x 2t.n f32 buffer for the fill and the epilogue (null: the
    /// block allocates its own when it needs one).
    Value scratch;
    /// A read by segments (rowsEvenlySpaced), not from `a`.
    const SegmentedA *segA = nullptr;
  };
  void emitAmxBlock(const AmxBlock &blk);

  const KernelConfig &config() const { return cfg; }

  /// Whether emitKernel says so in a remark when AMX takes no block of its
  /// GEMM (off for the row rests of a dynamic M, which say it once).
  bool amxFallbackRemarks = true;

protected:
  const KernelConfig &cfg;
};

} // namespace mlir::lowp::x86

#endif // LIB_CONVERSION_LINALGTOX86_KERNELBUILDER_H
