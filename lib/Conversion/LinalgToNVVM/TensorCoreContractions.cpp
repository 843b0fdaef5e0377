//===- TensorCoreContractions.cpp - lowp-nvvm-lower-contractions ----------===//
//
// The NVIDIA back end of the GPU GEMM tiling (lowp/Conversion/LinalgToGPU/
// TiledGemm.h): bufferized f16/bf16 and FP8 contractions to tiled
// tensor-core kernels with the tiling of the chip's capability-table row
// (the row's mma.sync GEMM kernels). The shared layer stages the slices
// (here with cp.async into two buffers, rows padded by 16 bytes so
// ldmatrix's eight 16-byte row reads hit distinct bank groups, or
// synchronous loads into one on sm_75) and builds the k loop and epilogue;
// this file supplies the warp-level instruction:
//
//  * fragments: ldmatrix (.x4 / .x2, .trans for a row-major 16-bit B). A
//    32-bit fragment register holds two 16-bit or four FP8 values, and an
//    8 x 8 b16 ldmatrix matrix is 8 rows of 16 bytes whatever they hold, so
//    FP8 A (and a B stored [n][k]) load exactly as 16-bit ones do. ldmatrix
//    cannot transpose bytes: an FP8 B stored [k][n] is read per lane, four
//    bytes down a column of the staged slice per register;
//  * the instruction: mma.sync.aligned.m16n8k16 (m16n8k8 on sm_75) for
//    f16/bf16, m16n8k32 .e4m3/.e5m2 (any pair) for FP8 on sm_89+, f32
//    accumulators (c0..c3: row lane / 4 (+8), columns 2 * (lane % 4) (+1));
//  * the emulation: ldmatrix, the FP8 column reads and mma.sync computed per
//    lane from the fragment layouts of the PTX ISA ("Warp-level matrix
//    fragments"), so the tiling can be executed and checked on a CPU.
//
//===----------------------------------------------------------------------===//

#include "NVVMGemmBackends.h"

#include "lowp/Conversion/LinalgToGPU/TiledGemm.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPNVVMLOWERCONTRACTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::gpu_gemm;
using namespace mlir::lowp::nvvm_gemm;

CpAsyncCopies::CpAsyncCopies(MLIRContext *ctx)
    : tokenType(nvgpu::DeviceAsyncTokenType::get(ctx)) {}

void CpAsyncCopies::copy(IndexBuilder &ib, Value dst, ValueRange dstIdx,
                         Value src, ValueRange srcIdx, int64_t elements,
                         Value inBounds) {
  // cp.async.cg 16 bytes; src-size 0 zero-fills out-of-range chunks.
  Value srcElements = ib.select(inBounds, ib.idx(elements), ib.idx(0));
  tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
      ib.b, ib.loc, tokenType, dst, dstIdx, src, srcIdx,
      ib.b.getIndexAttr(elements), srcElements, ib.b.getUnitAttr()));
}

void CpAsyncCopies::commit(IndexBuilder &ib) {
  lastGroup =
      nvgpu::DeviceAsyncCreateGroupOp::create(ib.b, ib.loc, tokenType, tokens);
  tokens.clear();
}

void CpAsyncCopies::wait(IndexBuilder &ib, int64_t pending) {
  nvgpu::DeviceAsyncWaitOp::create(ib.b, ib.loc, lastGroup,
                                   ib.b.getI32IntegerAttr(pending));
}

namespace {

/// PTX's name of an FP8 operand format (mma.sync's .atype / .btype).
StringRef ptxFP8Name(FloatType t) {
  return isa<Float8E4M3FNType>(t) ? "e4m3" : "e5m2";
}

/// mma.sync with ldmatrix fragments: m16n8k16 / m16n8k8 for f16 and bf16,
/// m16n8k32 for FP8.
class MmaSyncBackend final : public CpAsyncBackend {
public:
  explicit MmaSyncBackend(MLIRContext *ctx) : CpAsyncBackend(ctx) {}

  StringRef kernelKind() const override { return "tensor-core"; }
  StringRef instructionName() const override { return "mma.sync"; }
  StringRef moduleSuffix() const override { return "mma_sync"; }
  Vendor vendor() const override { return Vendor::NVIDIA; }
  MatrixInstruction instruction() const override {
    return MatrixInstruction::MmaSync;
  }

  Attribute sharedMemorySpace(MLIRContext *ctx) const override {
    return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  }

  bool supportsTiling(const GPUGemmTiling &t) const override {
    // 16 x 8 tiles, an even number of n tiles per warp (ldmatrix.x4 loads
    // two), 32 lanes.
    return t.mma.m == 16 && t.mma.n == 8 &&
           (t.mma.k == 32 || t.mma.k == 16 || t.mma.k == 8) &&
           t.waveSize == 32 && t.warpsN && t.blockN % (t.warpsN * 16) == 0;
  }

  int64_t accumulatorsPerTile(const GPUGemmTiling &) const override {
    return 4;
  }
  int64_t storeWidth() const override { return 2; }
  /// Accumulator register i (c0..c3) of a lane: row lane / 4 (+8 for c2,
  /// c3), column 2 * (lane % 4) (+1 for c1, c3).
  std::pair<int64_t, int64_t> accumulatorOffset(const GPUGemmTiling &,
                                                int64_t i) const override {
    return {(i / 2) * 8, i % 2};
  }
  Value accumulatorLaneRow(IndexBuilder &ib, const GPUGemmTiling &, Value lane,
                           int64_t) const override {
    return ib.div(lane, 4);
  }
  Value accumulatorLaneCol(IndexBuilder &ib, const GPUGemmTiling &, Value lane,
                           int64_t) const override {
    return ib.mul(ib.rem(lane, 4), 2);
  }

  bool hasAsyncCopy(const GPUGemmTiling &t) const override {
    return t.stages == 2;
  }

  Fragments loadFragments(IndexBuilder &ib, const WaveContext &w, Value lane,
                          int64_t kk) override;
  SmallVector<Value> operandsA(IndexBuilder &ib, const WaveContext &w,
                               const Fragments &f, int64_t mi) override {
    Layout l(w);
    SmallVector<Value> ops;
    for (int64_t r = 0; r < l.aRegs; ++r)
      ops.push_back(fragmentRegister(ib, l, f.a[mi], r));
    return ops;
  }
  SmallVector<Value> operandsB(IndexBuilder &ib, const WaveContext &w,
                               const Fragments &f, int64_t ni) override {
    Layout l(w);
    SmallVector<Value> ops;
    for (int64_t r = 0; r < l.bRegs; ++r) {
      if (l.bByColumns)
        ops.push_back(f.b[ni * l.bRegs + r]);
      else
        ops.push_back(
            fragmentRegister(ib, l, f.b[ni / 2], (ni % 2) * l.bRegs + r));
    }
    return ops;
  }
  SmallVector<Value> multiplyAccumulate(IndexBuilder &ib, const WaveContext &w,
                                        ArrayRef<Value> aFrag,
                                        ArrayRef<Value> bFrag,
                                        ArrayRef<Value> acc) override;
  void emulateStep(IndexBuilder &ib, const WaveContext &w, Value acc,
                   Value warp, int64_t kk) override;

private:
  /// The fragments of one instruction: a 32-bit register holds `perReg`
  /// values (2 of 16 bits, 4 FP8), one 16-byte row of an 8 x 8 b16 ldmatrix
  /// matrix `chunk` of them; A m16kK takes 2 * K / chunk registers, B kKn8
  /// K / chunk. An FP8 B stored [k][n] is read by columns (no ldmatrix).
  struct Layout {
    explicit Layout(const WaveContext &w)
        : fp8(FloatType(w.problem.aElem).getWidth() == 8), perReg(fp8 ? 4 : 2),
          chunk(4 * perReg), kHalves(w.tiling.mma.k / chunk),
          aRegs(2 * kHalves), bRegs(kHalves),
          bByColumns(fp8 && !w.problem.bTransposed) {}
    bool fp8;
    int64_t perReg, chunk, kHalves, aRegs, bRegs;
    bool bByColumns;
  };

  /// Register `r` of an ldmatrix result: 16-bit pairs are rows of a vector
  /// (nvgpu.ldmatrix), FP8 quadruples i32 members of nvvm.ldmatrix's struct.
  Value fragmentRegister(IndexBuilder &ib, const Layout &l, Value frag,
                         int64_t r) const {
    if (l.fp8)
      return LLVM::ExtractValueOp::create(ib.b, ib.loc, frag, r);
    return vector::ExtractOp::create(ib.b, ib.loc, frag, ArrayRef<int64_t>{r});
  }

  /// ldmatrix of `tiles` 8 x 8 b16 matrices (x4 / x2, optionally .trans)
  /// whose rows `lane` addresses at (row, col) of stage `w.stage` of
  /// `smem`. 16-bit: nvgpu.ldmatrix. FP8: nvgpu.ldmatrix's lowering
  /// bitcasts the registers to the memref's element type, which LLVM does
  /// not have for FP8, so the FP8 form is nvvm.ldmatrix (b16: the bytes go
  /// unchanged) on the row's shared-memory address.
  Value ldmatrix(IndexBuilder &ib, const WaveContext &w, const Layout &l,
                 Value smem, Value row, Value col, int64_t tiles,
                 bool transpose) const {
    OpBuilder &b = ib.b;
    auto type = cast<MemRefType>(smem.getType());
    if (!l.fp8)
      return nvgpu::LdMatrixOp::create(
          b, ib.loc, VectorType::get({tiles, l.perReg}, type.getElementType()),
          smem, ValueRange{w.stage, row, col}, transpose, tiles);
    assert(!transpose && "ldmatrix transposes 16-bit elements only");
    // Byte offset of (stage, row, col) in the identity-layout tile.
    ArrayRef<int64_t> shape = type.getShape();
    Value offset = ib.add(
        ib.mul(ib.add(ib.mul(w.stage, shape[1]), row), shape[2]), col);
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(b, ib.loc, smem);
    Value address = arith::IndexCastOp::create(b, ib.loc, b.getI64Type(),
                                               ib.add(base, offset));
    Value ptr = LLVM::IntToPtrOp::create(
        b, ib.loc, LLVM::LLVMPointerType::get(b.getContext(), 3), address);
    auto resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(tiles, b.getI32Type()));
    return NVVM::LdMatrixOp::create(
        b, ib.loc, resultType, ptr, tiles, NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
  }

  /// ldmatrix row addresses (row, column in a stage) given by `lane` for the
  /// A fragments of m tile `mi` at k step `kk` (x4: a0..a3 of m16kK, or x2:
  /// a0, a1 of m16k8): lanes 0-15 rows 0-15 at k, lanes 16-31 at k + chunk.
  std::pair<Value, Value> aFragmentAddress(IndexBuilder &ib,
                                           const WaveContext &w, Value lane,
                                           int64_t mi, int64_t kk) const {
    Layout l(w);
    Value row = ib.add(ib.add(ib.mul(w.warpM, w.waveM), mi * 16),
                       ib.rem(lane, 16));
    Value col = ib.add(ib.mul(ib.rem(ib.div(lane, 16), l.kHalves), l.chunk),
                       kk * w.tiling.mma.k);
    return {row, col};
  }
  /// The same for the B fragments of n tiles 2*np and 2*np+1: matrix j =
  /// lane / 8 is (n tile 2*np + j / kHalves, k half j % kHalves); a
  /// row-major B gives k rows (read with .trans), a transposed one n rows.
  std::pair<Value, Value> bFragmentAddress(IndexBuilder &ib,
                                           const WaveContext &w, Value lane,
                                           int64_t np, int64_t kk) const {
    Layout l(w);
    const TileShape &mma = w.tiling.mma;
    Value j = ib.rem(ib.div(lane, 8), 2 * l.kHalves);
    Value kOff = ib.add(ib.mul(ib.rem(j, l.kHalves), l.chunk), kk * mma.k);
    Value nOff = ib.add(ib.add(ib.mul(w.warpN, w.waveN), np * 2 * mma.n),
                        ib.mul(ib.div(j, l.kHalves), mma.n));
    if (w.problem.bTransposed)
      return {ib.add(nOff, ib.rem(lane, 8)), kOff};
    return {ib.add(kOff, ib.rem(lane, 8)), nOff};
  }
  /// An FP8 B stored [k][n], read by columns: element `x` of register `r`
  /// of `lane` in n tile `ni` at k step `kk` is B[k][n] with n = lane / 4
  /// and k = r * chunk + 4 * (lane % 4) + x (the PTX ISA's m16n8k32 B
  /// fragment), as (row, column) of the staged [k][n] slice.
  std::pair<Value, Value> bColumnAddress(IndexBuilder &ib,
                                         const WaveContext &w, Value lane,
                                         int64_t ni, int64_t kk, int64_t r,
                                         int64_t x) const {
    Layout l(w);
    const TileShape &mma = w.tiling.mma;
    Value k = ib.add(ib.mul(ib.rem(lane, 4), l.perReg),
                     kk * mma.k + r * l.chunk + x);
    Value n = ib.add(ib.add(ib.mul(w.warpN, w.waveN), ni * mma.n),
                     ib.div(lane, 4));
    return {k, n};
  }

};

MatrixInstructionBackend::Fragments
MmaSyncBackend::loadFragments(IndexBuilder &ib, const WaveContext &w,
                              Value lane, int64_t kk) {
  Layout l(w);
  Fragments f;
  for (int64_t mi = 0; mi < w.mTiles; ++mi) {
    auto [r, c] = aFragmentAddress(ib, w, lane, mi, kk);
    f.a.push_back(ldmatrix(ib, w, l, w.aStage, r, c, l.aRegs,
                           /*transpose=*/false));
  }
  if (l.bByColumns) {
    // Four bytes of one column per register, packed as ldmatrix would.
    auto quad = VectorType::get({4}, w.problem.bElem);
    auto word = VectorType::get({1}, ib.b.getI32Type());
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      for (int64_t r = 0; r < l.bRegs; ++r) {
        SmallVector<Value> bytes;
        for (int64_t x = 0; x < 4; ++x) {
          auto [k, n] = bColumnAddress(ib, w, lane, ni, kk, r, x);
          bytes.push_back(memref::LoadOp::create(ib.b, ib.loc, w.bStage,
                                                 ValueRange{w.stage, k, n}));
        }
        Value packed = vector::BitCastOp::create(
            ib.b, ib.loc, word,
            vector::FromElementsOp::create(ib.b, ib.loc, quad, bytes));
        f.b.push_back(vector::ExtractOp::create(ib.b, ib.loc, packed,
                                                ArrayRef<int64_t>{0}));
      }
    return f;
  }
  for (int64_t np = 0; np < w.nTiles / 2; ++np) {
    auto [r, c] = bFragmentAddress(ib, w, lane, np, kk);
    f.b.push_back(ldmatrix(ib, w, l, w.bStage, r, c, 2 * l.bRegs,
                           /*transpose=*/!w.problem.bTransposed));
  }
  return f;
}

SmallVector<Value> MmaSyncBackend::multiplyAccumulate(IndexBuilder &ib,
                                                      const WaveContext &w,
                                                      ArrayRef<Value> aFrag,
                                                      ArrayRef<Value> bFrag,
                                                      ArrayRef<Value> acc) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  FloatType elem = w.problem.aElem;
  const TileShape &mma = w.tiling.mma;
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  Value result;
  if (elem.getWidth() == 8) {
    // MLIR 22's nvvm.mma.sync has no dense FP8 shape (its table lists FP8
    // only for the sparse and block-scaled forms), but LLVM 22's NVPTX
    // back end has the intrinsic (PTX ISA 8.4, sm_89+): called by name
    // rather than as inline PTX, LLVM still knows it for what it is.
    std::string name = ("llvm.nvvm.mma.m" + Twine(mma.m) + "n" + Twine(mma.n) +
                        "k" + Twine(mma.k) + ".row.col.f32." +
                        ptxFP8Name(elem) + "." +
                        ptxFP8Name(w.problem.bElem) + ".f32")
                           .str();
    SmallVector<Value> args(aFrag);
    llvm::append_range(args, bFrag);
    llvm::append_range(args, acc);
    result = LLVM::CallIntrinsicOp::create(b, loc, resultType,
                                           b.getStringAttr(name), args)
                 ->getResult(0);
  } else {
    // NVVM wants f16 pairs as vector<2xf16> and bf16 pairs packed in an i32.
    auto operand = [&](Value pair) -> Value {
      if (elem.isF16())
        return pair;
      Value packed = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), pair);
      return vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0});
    };
    SmallVector<Value> a, bv;
    for (Value v : aFrag)
      a.push_back(operand(v));
    for (Value v : bFrag)
      bv.push_back(operand(v));
    NVVM::MMATypes ptxType =
        elem.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
    result = NVVM::MmaOp::create(
        b, loc, resultType, a, bv, acc,
        ArrayRef<int64_t>{mma.m, mma.n, mma.k}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
  }
  return extractMembers(b, loc, result, 4);
}

void MmaSyncBackend::emulateStep(IndexBuilder &ib, const WaveContext &w,
                                 Value acc, Value warp, int64_t kk) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  Layout l(w);
  int64_t mmaK = w.tiling.mma.k, e = l.perReg;
  // The lanes' fragment registers, in memory: [tile][register][lane][value].
  Value aFrag = memref::AllocOp::create(
      b, loc, MemRefType::get({w.mTiles, l.aRegs, 32, e}, w.problem.aElem));
  Value bFrag = memref::AllocOp::create(
      b, loc, MemRefType::get({w.nTiles, l.bRegs, 32, e}, w.problem.bElem));
  // ldmatrix .x<tiles>: matrix j's row r comes from the address lane
  // 8 * j + r gives. Lane l receives, as its register j, the four bytes
  // (l / 4, 4 * (l % 4) ..) of matrix j's 16-byte rows: values
  // (l / 4, e * (l % 4) + x); with .trans (16-bit only) elements
  // (2 * (l % 4) + x, l / 4).
  auto ldmatrix =
      [&](Value smem, int64_t tiles, bool trans,
          function_ref<std::pair<Value, Value>(Value)> address,
          function_ref<void(int64_t, Value, int64_t, Value)> storeReg) {
        ib.loop(32, [&](Value lane) {
          for (int64_t j = 0; j < tiles; ++j)
            for (int64_t x = 0; x < e; ++x) {
              Value srcLane =
                  trans ? ib.add(ib.add(ib.mul(ib.rem(lane, 4), 2), x), j * 8)
                        : ib.add(ib.div(lane, 4), j * 8);
              auto [r, c] = address(srcLane);
              Value col = trans ? ib.add(c, ib.div(lane, 4))
                                : ib.add(ib.add(c, ib.mul(ib.rem(lane, 4), e)),
                                         x);
              Value v = memref::LoadOp::create(b, loc, smem,
                                               ValueRange{w.stage, r, col});
              storeReg(j, lane, x, v);
            }
        });
      };
  for (int64_t mi = 0; mi < w.mTiles; ++mi)
    ldmatrix(
        w.aStage, l.aRegs, false,
        [&](Value srcLane) { return aFragmentAddress(ib, w, srcLane, mi, kk); },
        [&](int64_t j, Value lane, int64_t x, Value v) {
          memref::StoreOp::create(b, loc, v, aFrag,
                                  ValueRange{ib.idx(mi), ib.idx(j), lane,
                                             ib.idx(x)});
        });
  if (l.bByColumns) {
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      ib.loop(32, [&](Value lane) {
        for (int64_t r = 0; r < l.bRegs; ++r)
          for (int64_t x = 0; x < e; ++x) {
            auto [k, n] = bColumnAddress(ib, w, lane, ni, kk, r, x);
            Value v = memref::LoadOp::create(b, loc, w.bStage,
                                             ValueRange{w.stage, k, n});
            memref::StoreOp::create(b, loc, v, bFrag,
                                    ValueRange{ib.idx(ni), ib.idx(r), lane,
                                               ib.idx(x)});
          }
      });
  } else {
    for (int64_t np = 0; np < w.nTiles / 2; ++np)
      ldmatrix(
          w.bStage, 2 * l.bRegs, !w.problem.bTransposed,
          [&](Value srcLane) {
            return bFragmentAddress(ib, w, srcLane, np, kk);
          },
          [&](int64_t j, Value lane, int64_t x, Value v) {
            int64_t ni = 2 * np + j / l.bRegs;
            memref::StoreOp::create(b, loc, v, bFrag,
                                    ValueRange{ib.idx(ni),
                                               ib.idx(j % l.bRegs), lane,
                                               ib.idx(x)});
          });
  }
  // mma.sync m16n8kK: lane l's d_i is D[l / 4 + 8 * (i / 2)]
  // [2 * (l % 4) + i % 2]; A[r][k] is in lane (r % 8) * 4 + (k % chunk) / e,
  // register r / 8 + 2 * (k / chunk), value k % e; B[k][c] in lane
  // c * 4 + (k % chunk) / e, register k / chunk, value k % e.
  for (int64_t mi = 0; mi < w.mTiles; ++mi)
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      ib.loop(32, [&](Value lane) {
        for (int64_t i = 0; i < 4; ++i) {
          Value r = ib.add(ib.div(lane, 4), 8 * (i / 2));
          Value c = ib.add(ib.mul(ib.rem(lane, 4), 2), i % 2);
          SmallVector<Value> accIdx{warp, ib.idx(mi), ib.idx(ni), lane,
                                    ib.idx(i)};
          emulateLaneDotProduct(ib, acc, accIdx, mmaK, [&](Value k) {
            Value value = ib.rem(k, e);
            Value inRow = ib.div(ib.rem(k, l.chunk), e);
            Value aLane = ib.add(ib.mul(ib.rem(r, 8), 4), inRow);
            Value aReg = ib.add(ib.div(r, 8), ib.mul(ib.div(k, l.chunk), 2));
            Value bLane = ib.add(ib.mul(c, 4), inRow);
            Value bReg = ib.div(k, l.chunk);
            Value av = memref::LoadOp::create(
                b, loc, aFrag, ValueRange{ib.idx(mi), aReg, aLane, value});
            Value bv = memref::LoadOp::create(
                b, loc, bFrag, ValueRange{ib.idx(ni), bReg, bLane, value});
            return std::pair(av, bv);
          });
        }
      });
  memref::DeallocOp::create(b, loc, aFrag);
  memref::DeallocOp::create(b, loc, bFrag);
}

struct LowpNVVMLowerContractionsPass
    : lowp::impl::LowpNVVMLowerContractionsBase<
          LowpNVVMLowerContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MmaSyncBackend backend(root->getContext());
    FailureOr<const TargetInfo *> chip = resolveGemmChip(
        root, selectTargetOption(getArgument(), target, "chip", deprecatedChip),
        backend.vendor());
    if (failed(chip))
      return signalPassFailure();
    // Warpgroup kernels first where the chip has them; what they do not
    // take (with a remark) goes to mma.sync.
    const TargetInfo &info = **chip;
    if (wgmmaStages && (wgmmaStages < 2 || wgmmaStages > 4)) {
      root->emitError() << "wgmma-stages must be 2, 3 or 4 (0: the "
                           "capability table's), not "
                        << static_cast<unsigned>(wgmmaStages);
      return signalPassFailure();
    }
    if (wgmma && info.hasGemmKernel(MatrixInstruction::Wgmma)) {
      std::unique_ptr<MatrixInstructionBackend> warpgroup =
          createWgmmaBackend(root->getContext(), wgmmaStages);
      if (failed(
              lowerContractionsToTiledKernels(root, info, *warpgroup, emulate)))
        return signalPassFailure();
    }
    if (failed(lowerContractionsToTiledKernels(root, info, backend, emulate)))
      return signalPassFailure();
  }
};
} // namespace
