//===- TiledGemm.h - GPU GEMM tiling shared by the back ends -----*- C++ -*-===//
//
// One GPU tiling layer for matrix ops, two matrix-instruction back ends
// (NVIDIA mma.sync in lib/Conversion/LinalgToNVVM, AMD MFMA in
// lib/Conversion/LinalgToROCDL). This layer owns everything that does not
// depend on the instruction:
//
//  * which contractions qualify (C[b][m][n] += A[b?][m][k] * B[b?][k|n][n|k]
//    with an exact f32 product sum; 2-D convolutions as implicit GEMMs,
//    ConvGeometry) and the elementwise epilogue fused after them;
//  * the workgroup tile (grid: one workgroup per blockM x blockN tile of C,
//    z: the batch), the staging of blockK-deep slices of A and B through
//    shared memory / LDS (16-byte chunks, rows padded by 16 bytes, one or
//    two stages; the second stage filled by the back end's asynchronous
//    copy or through registers), the k loop, the wave tiles of f32
//    accumulators, the guarded stores through the epilogue;
//  * the emulated form (`emulate`): the same kernel as host loops over
//    workgroups, threads, waves and lanes, executable on the CPU.
//
// A back end (MatrixInstructionBackend) supplies the instruction: its
// fragment loads, the multiply-accumulate, where each accumulator register
// lies in the instruction tile, optionally an asynchronous copy, and the
// per-lane emulation of its fragments and instruction from the vendor's
// ISA description.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_CONVERSION_LINALGTOGPU_TILEDGEMM_H
#define LOWP_CONVERSION_LINALGTOGPU_TILEDGEMM_H

#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::lowp::gpu_gemm {

/// A 2-D convolution computed as an implicit GEMM: no im2col buffer
/// exists, the staging of the input's operand computes each chunk's address
/// in the input from its (row, k) or (k, column) position.
///  * NHWC (filter HWCF or FHWC): C[(n,oh,ow)][f] += A[(n,oh,ow)][(kh,kw,c)]
///    * B[(kh,kw,c)][f] (B[f][(kh,kw,c)] for FHWC). A is the input: a
///    16-byte chunk is a run of channels at one input pixel (C a multiple of
///    the chunk), B and C are the filter and the output viewed as matrices.
///  * NCHW (filter FCHW): per image n, C[n][f][(oh,ow)] +=
///    A[f][(c,kh,kw)] * B[n][(c,kh,kw)][(oh,ow)]. A is the filter viewed as
///    a matrix; B is the input, gathered element by element (consecutive
///    output columns are `stride` apart in the input).
/// A 1x1 stride-1 convolution is a plain GEMM (`im2col` false): the input
/// is viewed as a matrix as well.
struct ConvGeometry {
  enum class Layout { NhwcHwcf, NhwcFhwc, NchwFchw };
  Layout layout = Layout::NhwcHwcf;
  int64_t images = 0, channels = 0, inH = 0, inW = 0, filters = 0;
  int64_t kernelH = 0, kernelW = 0, outH = 0, outW = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  bool im2col = true;
  /// A zero padding folded into the staging (foldInputPadding): the kernel
  /// reads the unpadded input (`sourceH` x `sourceW` pixels) and padded
  /// pixel (ih, iw) is source pixel (ih - padTop, iw - padLeft), or zero.
  int64_t padTop = 0, padLeft = 0, sourceH = 0, sourceW = 0;
  /// The padded buffer and the ops that built it (the zero fill, the
  /// subview, the copy), erased with the convolution.
  Value paddedBuffer;
  SmallVector<Operation *> paddingOps;
  bool nchw() const { return layout == Layout::NchwFchw; }
};

/// One contraction C[b][m][n] += A[b?][m][k] * B[b?][k][n] (or B[b?][n][k])
/// the tiled kernel can take.
struct GemmProblem {
  Value a, b, c;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool aBatched = false, bBatched = false, cBatched = false;
  bool bTransposed = false; ///< B stored [n][k]
  /// B stored [k][n] but staged [n][k] (the back end reads B K-major only,
  /// MatrixInstructionBackend::transposesBWhileStaging): each staged chunk
  /// gathers a run of k of one column of B.
  bool stageBTransposed = false;
  /// Whether B's staged tile is [n][k].
  bool bStagedKMajor() const { return bTransposed || stageBTransposed; }
  FloatType aElem, bElem;   ///< operand formats (checked by the back end)
  /// Set for a convolution: a, b and c are then its 4-D buffers (input,
  /// filter and output, A and B in GEMM order), which the kernel views or
  /// addresses as the matrices above.
  std::optional<ConvGeometry> conv;

  // The epilogue (collectEpilogue): elementwise ops that follow the
  // contraction and are computed on the accumulators in registers.
  /// C starts as zeros (a linalg.fill of 0 right before): the kernel does
  /// not read C, and the fill goes.
  linalg::FillOp zeroFill;
  /// Or C starts as the values an elementwise generic right before the
  /// contraction writes to all of it from other buffers (torch-mlir's bias
  /// broadcast into a linear layer's or convolution's output): computed
  /// in registers, C is not read, and the generic goes.
  linalg::GenericOp initOp;
  /// Whether the kernel reads C's initial values from C.
  bool readsC() const { return !zeroFill && !initOp; }
  /// Elementwise generics applied in order to C's values.
  SmallVector<linalg::GenericOp> epilogue;
  /// Where the kernel stores: C, or the last epilogue op's output.
  Value out;
  /// Buffers (and scalars) the kernel reads besides A, B (and C when not
  /// zero-filled): the epilogue ops' other operands.
  SmallVector<Value> epilogueInputs;
};

/// Elements of a 16-byte chunk of `elem` (one staging copy, one padded row
/// end in shared memory).
int64_t chunkElements(FloatType elem);

/// Whether `op` is a reduction over two operands, one of them 16-bit or
/// FP8: the matrix ops the tiled kernels are about (f32 ones and
/// elementwise ops are nobody's business here and get no remark).
bool hasLowPrecisionOperands(linalg::LinalgOp op);

/// The structure of `op` as a GemmProblem (dimensions, maps, static
/// row-major buffers, an exact f32 product sum; for a convolution its
/// implicit GEMM), or the reason it has none. Operand formats are left to
/// the back end.
FailureOr<GemmProblem> matchGemmStructure(linalg::LinalgOp op,
                                          std::string &whyNot);

/// Small index arithmetic on a builder (shared by the layer and the back
/// ends so that both forms of the kernel compute the same indices).
struct IndexBuilder {
  OpBuilder &b;
  Location loc;
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return c ? add(x, idx(c)) : x; }
  Value mul(Value x, int64_t c) {
    return c == 1 ? x : arith::MulIOp::create(b, loc, x, idx(c)).getResult();
  }
  Value div(Value x, int64_t c) {
    return c == 1 ? x : arith::DivUIOp::create(b, loc, x, idx(c)).getResult();
  }
  Value rem(Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, idx(c));
  }
  Value lt(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, idx(c));
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// for (iv = 0; iv < n; ++iv) body(iv), at the current insertion point.
  void loop(int64_t n, function_ref<void(Value)> body);
};

/// Where one wave's fragments come from: the staged tiles of the current
/// k slice, the wave's position, and the problem's layout.
struct WaveContext {
  const GemmProblem &problem;
  const GPUGemmTiling &tiling;
  Value aStage, bStage; ///< shared tiles: [stage][row][col]
  Value stage;          ///< the stage being multiplied
  Value warpM, warpN;   ///< the wave's position in the workgroup
  int64_t waveM, waveN; ///< the wave tile's extent (blockM / warpsM, ...)
  int64_t mTiles, nTiles;
};

/// The operands the workgroup stages through shared memory.
enum class StagedOperand { A, B };

/// The matrix instruction of one vendor, as the tiled kernel uses it.
class MatrixInstructionBackend {
public:
  virtual ~MatrixInstructionBackend() = default;

  /// The capability table's tiling of this instruction for operands in `f`
  /// on `chip`, or null (default: the row's GEMM kernel on instruction()).
  virtual const GPUGemmTiling *tableTiling(const TargetInfo &chip,
                                           Format f) const {
    return chip.getGemmTiling(instruction(), f);
  }
  /// Whether the kernel takes `p` with tiling `t` beyond the layer's own
  /// checks (formats, 16-byte rows); else the reason, for the remark.
  virtual bool acceptsProblem(const GemmProblem &p, const GPUGemmTiling &t,
                              std::string &whyNot) const {
    return true;
  }
  /// Whether B stored [k][n] must be staged [n][k] (gathered along k): the
  /// instruction reads B K-major only for these operands.
  virtual bool transposesBWhileStaging(const GemmProblem &p) const {
    return false;
  }
  /// What computes an op this back end does not take ("the naive kernel").
  virtual StringRef fallbackKernel() const { return "the naive kernel"; }

  /// The staged tile of one operand for a `rows` x `cols` slice (row-major
  /// in the slice: A [m][k], B [k][n] or [n][k]) of `chunk`-element 16-byte
  /// chunks: its shape, and the indices of element (r, c) of stage `stage`
  /// (c a multiple of the chunk; a chunk stays contiguous). By default
  /// [stages][rows][cols + chunk]: rows padded by one chunk.
  virtual SmallVector<int64_t> stagedTileShape(const GPUGemmTiling &t,
                                               StagedOperand which,
                                               int64_t rows, int64_t cols,
                                               int64_t chunk) const {
    return {t.stages, rows, cols + chunk};
  }
  virtual SmallVector<Value> stagedIndex(IndexBuilder &ib,
                                         const GemmProblem &p,
                                         const GPUGemmTiling &t,
                                         StagedOperand which, Value stage,
                                         Value r, Value c) const {
    return {stage, r, c};
  }
  /// Alignment in bytes of the staged tiles (16: one chunk).
  virtual int64_t stagingAlignment(const GPUGemmTiling &t) const { return 16; }
  /// After this thread's copies of the current slice have landed, before
  /// the workgroup barrier that publishes them (e.g. a proxy fence).
  virtual void sliceLanded(IndexBuilder &ib) {}
  /// Around one slice's instructions (asynchronous instructions: fence
  /// before, commit after, then wait until at most `pendingGroups` groups
  /// of earlier slices are in flight; the table's mmaGroupsInFlight, or 0).
  virtual void beginSliceProducts(IndexBuilder &ib) {}
  virtual void endSliceProducts(IndexBuilder &ib, int64_t pendingGroups) {}
  /// After the k loop, when groups were left in flight: wait for all.
  virtual void retireProducts(IndexBuilder &ib) {}

  /// "tensor-core" (remarks: "no tensor-core kernel for ..."), the
  /// instruction's name in messages ("mma.sync") and the suffix of the
  /// kernel's gpu.module ("mma_sync").
  virtual StringRef kernelKind() const = 0;
  virtual StringRef instructionName() const = 0;
  virtual StringRef moduleSuffix() const = 0;
  /// The vendor whose chips the instruction runs on.
  virtual Vendor vendor() const = 0;
  /// The instruction family of the capability table's GEMM kernels this
  /// back end builds.
  virtual MatrixInstruction instruction() const = 0;

  /// The memory space of the staging buffers (the kernel's workgroup
  /// attributions).
  virtual Attribute sharedMemorySpace(MLIRContext *ctx) const = 0;
  /// Whether the builder can lay out `t` with this instruction.
  virtual bool supportsTiling(const GPUGemmTiling &t) const = 0;

  /// f32 accumulator registers per lane per instruction tile of `t`.
  virtual int64_t accumulatorsPerTile(const GPUGemmTiling &t) const = 0;
  /// Consecutive accumulator registers that hold adjacent columns of one
  /// row (stored together).
  virtual int64_t storeWidth() const = 0;
  /// Where accumulator register `i` of `lane` lies in an instruction tile
  /// of `t`: a constant offset and a lane-dependent one, for rows and
  /// columns.
  virtual std::pair<int64_t, int64_t>
  accumulatorOffset(const GPUGemmTiling &t, int64_t i) const = 0;
  virtual Value accumulatorLaneRow(IndexBuilder &ib, const GPUGemmTiling &t,
                                   Value lane, int64_t i) const = 0;
  virtual Value accumulatorLaneCol(IndexBuilder &ib, const GPUGemmTiling &t,
                                   Value lane, int64_t i) const = 0;

  /// Asynchronous 16-byte global-to-shared copies (the later stages are
  /// then filled by them, up to four; otherwise the second one through
  /// registers).
  virtual bool hasAsyncCopy(const GPUGemmTiling &t) const { return false; }
  virtual void asyncCopy(IndexBuilder &ib, Value dst, ValueRange dstIdx,
                         Value src, ValueRange srcIdx, int64_t elements,
                         Value inBounds) {}
  /// Closes the copies issued since the last call into one group.
  virtual void commitCopies(IndexBuilder &ib) {}
  /// Waits until at most `pending` groups are in flight.
  virtual void waitCopies(IndexBuilder &ib, int64_t pending) {}

  /// The GPU form, per k step `kk` of a slice: loads the wave's fragments
  /// (opaque values), the instruction operands of m tile `mi` / n tile
  /// `ni` from them, and one instruction on the accumulators `acc`.
  struct Fragments {
    SmallVector<Value> a, b;
  };
  virtual Fragments loadFragments(IndexBuilder &ib, const WaveContext &w,
                                  Value lane, int64_t kk) = 0;
  /// By default a tile's fragment is its operand (one register or
  /// descriptor per tile); mma.sync splits its fragments.
  virtual SmallVector<Value> operandsA(IndexBuilder &ib, const WaveContext &w,
                                       const Fragments &f, int64_t mi) {
    return {f.a[mi]};
  }
  virtual SmallVector<Value> operandsB(IndexBuilder &ib, const WaveContext &w,
                                       const Fragments &f, int64_t ni) {
    return {f.b[ni]};
  }
  virtual SmallVector<Value> multiplyAccumulate(IndexBuilder &ib,
                                                const WaveContext &w,
                                                ArrayRef<Value> a,
                                                ArrayRef<Value> b,
                                                ArrayRef<Value> acc) = 0;

  /// The emulated form of wave `warp`'s k step `kk`: its fragment loads
  /// and instructions computed per lane on host memory, as the vendor's ISA
  /// defines them. `acc` holds the workgroup's f32 accumulators
  /// [waves][mTiles][nTiles][lanes][accumulatorsPerTile].
  virtual void emulateStep(IndexBuilder &ib, const WaveContext &w, Value acc,
                           Value warp, int64_t kk) = 0;
};

/// One accumulator of one lane in an emulated instruction (the back ends'
/// emulateStep): acc[accIdx] += the sum, for k from 0 to `depth` - 1 in
/// order, of the f32 product of the A and B elements `operands(k)` loads
/// (it emits their index arithmetic and loads in the k loop's body), in
/// f32: the products of 16-bit and FP8 values are exact there.
void emulateLaneDotProduct(
    IndexBuilder &ib, Value acc, ArrayRef<Value> accIdx, int64_t depth,
    function_ref<std::pair<Value, Value>(Value k)> operands);

/// The chip a back end's pass lowers for: `targetOption` (the pass's
/// option; empty: the module's lowp.target), which must be one of
/// `vendor`'s. Errors are located at `root`.
FailureOr<const TargetInfo *> resolveGemmChip(Operation *root,
                                              StringRef targetOption,
                                              Vendor vendor);

/// The capability table's tiling for `p`'s operand formats on `chip`
/// (the back end's tableTiling; one tiling for both operands: 16-bit ones of
/// one format, FP8 ones in any E4M3/E5M2 mix of the chip's flavour), an f32
/// accumulator, and N and K in whole 16-byte rows; or the reason there is
/// none (naming the back end's instruction).
FailureOr<const GPUGemmTiling *>
selectTableTiling(const GemmProblem &p, const TargetInfo &chip,
                  const MatrixInstructionBackend &backend,
                  std::string &whyNot);

/// Matrix ops under `root` with FP8 operands `chip`'s matrix instructions
/// do not take (FP8 on a chip without it, the other vendor's flavour, FP8
/// formats outside the table) get a located error naming what the chip
/// has: the FP8 decision was made for another chip, and running its matrix
/// ops on the naive kernel would hide that.
LogicalResult checkFP8MatrixOperands(Operation *root, const TargetInfo &chip,
                                     StringRef instruction);

/// Rewrites every qualifying contraction under `root` into a launch of a
/// tiled kernel built with `backend` (each in its own gpu.module
/// @<function>_<suffix>), or with `emulate` into host loops; FP8 operands
/// the chip lacks are errors (checkFP8MatrixOperands), other contractions
/// with low-precision operands the kernel cannot take get a remark and are
/// left for the naive mapping.
LogicalResult lowerContractionsToTiledKernels(Operation *root,
                                              const TargetInfo &chip,
                                              MatrixInstructionBackend &backend,
                                              bool emulate);

} // namespace mlir::lowp::gpu_gemm

#endif // LOWP_CONVERSION_LINALGTOGPU_TILEDGEMM_H
