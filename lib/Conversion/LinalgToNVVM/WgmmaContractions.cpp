//===- WgmmaContractions.cpp - warpgroup MMA back end (sm_90a) ------------===//
//
// The wgmma back end of the GPU GEMM tiling (lowp/Conversion/LinalgToGPU/
// TiledGemm.h), for chips whose capability-table row has a warpgroup tiling
// (the row's wgmma GEMM kernels: sm_90a). A "wave" of the tiling is a
// warpgroup (128 threads); its instruction, wgmma.mma_async.m64nNkK, reads
// both operands from shared memory through 64-bit matrix descriptors and
// accumulates into N/2 f32 registers per thread.
//
//  * Staging: cp.async 16-byte chunks (as mma.sync's, with their zero-fill
//    of tails in M, N and K) into the swizzled layouts the descriptors
//    describe (PTX ISA, "Shared Memory Matrix Layout", "Canonical
//    Layouts"): a K-major tile (A [m][k], B [n][k]) is rows of blockK
//    elements, one swizzle row each (32-, 64- or 128-byte swizzle for rows
//    of that many bytes: 16-byte chunk j of a row lands at j XOR (address
//    bits 7..9)); a 16-bit B stored [k][n] is N-major (imm-trans-b = 1):
//    columns of 64 n values (128-byte swizzle atoms), each holding all
//    blockK rows 128 bytes apart. An FP8 B stored [k][n] (wgmma has no
//    transpose for 8-bit operands) is staged K-major, each 16-byte chunk
//    gathered from a column of B by the layer (transposesBWhileStaging). Stages are 1024-byte aligned (the
//    swizzle pattern's period), so descriptors need no base offset.
//    cp.async writes through the generic proxy and wgmma reads through
//    the async proxy: every thread fences (fence.proxy.async.shared::cta)
//    after its copies land, before the barrier that publishes the slice.
//    Why cp.async rather than TMA: it reuses the tiling layer's staging
//    (per-thread chunks, zero-filled tails, multi-stage pipeline) and needs
//    no tensor maps built on the host (cuTensorMapEncodeTiled), which the
//    runtime library does not offer yet.
//  * Per slice: wgmma.fence, blockK / K wgmma.mma_async per warpgroup and
//    instruction tile (descriptors advanced by K elements), commit_group,
//    wait_group G (the table's mmaGroupsInFlight: the previous slice's
//    MMAs overlap this one's issue and the next slice's copies), and
//    wait_group 0 after the loop; the cp.async copies run
//    stages - 1 - G slices ahead, into the stage no pending group reads.
//  * The accumulators (m64nN f32, PTX ISA "Matrix Fragments for
//    wgmma.mma_async.m64nNk16"): register i of thread t of the warpgroup is
//    row 16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2), column
//    8 (i / 4) + 2 (t % 4) + i % 2: the layer's epilogue stores them.
//  * The emulation: the wgmma reads each operand element through its
//    descriptor as the PTX ISA defines it (bit fields, canonical layout of
//    the descriptor's swizzle mode, the address-bit XOR), independently of
//    how the staging computed where to write, and assigns each element of
//    D to the thread and register the ISA's figure gives: executing it on
//    the CPU checks the staging layout, the descriptors and the
//    accumulator mapping against each other.
//
//===----------------------------------------------------------------------===//

#include "NVVMGemmBackends.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::gpu_gemm;
using namespace mlir::lowp::nvvm_gemm;

namespace {

int64_t elementBytes(Type t) { return t.getIntOrFloatBitWidth() / 8; }

/// The descriptor's swizzle-mode field for a swizzle of `bytes` (PTX ISA,
/// "Matrix Descriptor Format": 1: 128-byte, 2: 64-byte, 3: 32-byte).
int64_t swizzleMode(int64_t bytes) {
  return bytes == 128 ? 1 : bytes == 64 ? 2 : 3;
}

/// Where one operand's staged tile puts its elements, in bytes from the
/// start of its stage (before the swizzle).
struct StagedLayout {
  bool kMajor;
  int64_t elemBytes;
  /// K-major: bytes per row (= the swizzle width); N-major: 128.
  int64_t swizzleBytes;
  int64_t stageBytes;
  /// Descriptor strides in bytes. K-major: sbo = 8 rows (lbo unused,
  /// encoded 1); N-major: lbo = the next 64 n (an atom column), sbo = the
  /// next 8 k rows.
  int64_t lbo, sbo;
  /// N-major: n values per atom row (128 bytes).
  int64_t atomElems() const { return swizzleBytes / elemBytes; }
};

StagedLayout stagedLayout(const GemmProblem &p, const GPUGemmTiling &t,
                          StagedOperand which) {
  StagedLayout l;
  Type elem = which == StagedOperand::A ? p.aElem : p.bElem;
  l.elemBytes = elementBytes(elem);
  l.kMajor = which == StagedOperand::A || p.bStagedKMajor();
  int64_t rows = which == StagedOperand::A ? t.blockM : t.blockN;
  l.stageBytes = rows * t.blockK * l.elemBytes;
  if (l.kMajor) {
    l.swizzleBytes = t.blockK * l.elemBytes;
    l.lbo = 16;
    l.sbo = 8 * l.swizzleBytes;
  } else {
    l.swizzleBytes = 128;
    l.lbo = t.blockK * 128;
    l.sbo = 8 * 128;
  }
  return l;
}

/// The 16-byte-chunk XOR of a swizzle `bytes` wide: address bits 4.. take
/// bits 7.. (log2(bytes / 16) of them): Swizzle<B, 4, 3> of the ISA.
Value swizzle(IndexBuilder &ib, Value address, int64_t bytes) {
  Value row = ib.rem(ib.div(address, 128), bytes / 16);
  return arith::XOrIOp::create(ib.b, ib.loc, address, ib.mul(row, 16));
}

class WgmmaBackend final : public CpAsyncBackend {
public:
  WgmmaBackend(MLIRContext *ctx, unsigned stages)
      : CpAsyncBackend(ctx), stagesOverride(stages) {}

  StringRef kernelKind() const override { return "wgmma"; }
  StringRef instructionName() const override { return "wgmma.mma_async"; }
  StringRef moduleSuffix() const override { return "wgmma"; }
  Vendor vendor() const override { return Vendor::NVIDIA; }
  StringRef fallbackKernel() const override {
    return "mma.sync (or the naive kernel where that cannot take it either)";
  }

  MatrixInstruction instruction() const override {
    return MatrixInstruction::Wgmma;
  }

  const GPUGemmTiling *tableTiling(const TargetInfo &chip,
                                   Format f) const override {
    const GPUGemmTiling *t = chip.getGemmTiling(MatrixInstruction::Wgmma, f);
    if (!t || !stagesOverride)
      return t;
    GPUGemmTiling &adjusted =
        f == Format::F16 || f == Format::BF16 ? adjusted16 : adjustedFP8;
    adjusted = *t;
    adjusted.stages = stagesOverride;
    return &adjusted;
  }

  bool acceptsProblem(const GemmProblem &p, const GPUGemmTiling &t,
                      std::string &whyNot) const override {
    int64_t rowBytes = t.blockK * elementBytes(p.aElem);
    if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128) {
      whyNot = "a " + std::to_string(t.blockK) +
               "-deep slice is not one 32-, 64- or 128-byte swizzle row";
      return false;
    }
    if (!p.bTransposed && !transposesBWhileStaging(p) &&
        t.mma.n % (128 / elementBytes(p.bElem))) {
      whyNot = "an N-major B needs whole 128-byte swizzle atoms per "
               "instruction";
      return false;
    }
    return true;
  }

  /// wgmma has no transpose for 8-bit operands: an FP8 B stored [k][n] is
  /// staged K-major ([n][k]), gathered along k.
  bool transposesBWhileStaging(const GemmProblem &p) const override {
    return !p.bTransposed && elementBytes(p.bElem) == 1;
  }

  Attribute sharedMemorySpace(MLIRContext *ctx) const override {
    return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  }
  bool supportsTiling(const GPUGemmTiling &t) const override {
    // m64nNkK per warpgroup, N a multiple of 8 up to 256; the warpgroups
    // of a block split it by rows and columns.
    return t.waveSize == 128 && t.mma.m == 64 && t.mma.n % 8 == 0 &&
           t.mma.n >= 8 && t.mma.n <= 256 &&
           (t.mma.k == 16 || t.mma.k == 32) && t.stages >= 2;
  }

  int64_t accumulatorsPerTile(const GPUGemmTiling &t) const override {
    return t.mma.n / 2;
  }
  int64_t storeWidth() const override { return 2; }
  /// Register i: rows +8 for i % 4 in {2, 3}, columns 8 (i / 4) + i % 2.
  std::pair<int64_t, int64_t> accumulatorOffset(const GPUGemmTiling &,
                                                int64_t i) const override {
    return {8 * ((i / 2) % 2), 8 * (i / 4) + i % 2};
  }
  /// Thread t of the warpgroup: its warp's 16 rows, row (t % 32) / 4.
  Value accumulatorLaneRow(IndexBuilder &ib, const GPUGemmTiling &, Value lane,
                           int64_t) const override {
    return ib.add(ib.mul(ib.div(lane, 32), 16), ib.div(ib.rem(lane, 32), 4));
  }
  Value accumulatorLaneCol(IndexBuilder &ib, const GPUGemmTiling &, Value lane,
                           int64_t) const override {
    return ib.mul(ib.rem(lane, 4), 2);
  }

  bool hasAsyncCopy(const GPUGemmTiling &t) const override {
    return t.stages >= 2;
  }

  SmallVector<int64_t> stagedTileShape(const GPUGemmTiling &t, StagedOperand,
                                       int64_t rows, int64_t cols,
                                       int64_t) const override {
    return {t.stages, rows * cols};
  }
  /// Element (r, c) of the slice as copied: its byte in the layout, then
  /// the swizzle (a 16-byte chunk stays whole).
  SmallVector<Value> stagedIndex(IndexBuilder &ib, const GemmProblem &p,
                                 const GPUGemmTiling &t, StagedOperand which,
                                 Value stage, Value r,
                                 Value c) const override {
    StagedLayout l = stagedLayout(p, t, which);
    Value byte;
    if (l.kMajor) {
      byte = ib.add(ib.mul(r, l.swizzleBytes), ib.mul(c, l.elemBytes));
    } else {
      // (k, n) = (r, c): atom column n / 64, row k, position n % 64.
      int64_t atom = l.atomElems();
      byte = ib.add(ib.add(ib.mul(ib.div(c, atom), l.lbo), ib.mul(r, 128)),
                    ib.mul(ib.rem(c, atom), l.elemBytes));
    }
    return {stage, ib.div(swizzle(ib, byte, l.swizzleBytes), l.elemBytes)};
  }
  int64_t stagingAlignment(const GPUGemmTiling &) const override {
    return 1024;
  }
  void sliceLanded(IndexBuilder &ib) override {
    NVVM::FenceProxyOp::create(
        ib.b, ib.loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ib.b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }
  void beginSliceProducts(IndexBuilder &ib) override {
    NVVM::WgmmaFenceAlignedOp::create(ib.b, ib.loc);
  }
  /// The slice's group may stay in flight (`pendingGroups` 1): wgmma
  /// instructions on the same accumulators are ordered by the hardware, and
  /// the layer refills no stage a pending group reads.
  void endSliceProducts(IndexBuilder &ib, int64_t pendingGroups) override {
    NVVM::WgmmaGroupSyncAlignedOp::create(ib.b, ib.loc);
    NVVM::WgmmaWaitGroupSyncOp::create(ib.b, ib.loc, pendingGroups);
  }
  void retireProducts(IndexBuilder &ib) override {
    NVVM::WgmmaWaitGroupSyncOp::create(ib.b, ib.loc, 0);
  }

  Fragments loadFragments(IndexBuilder &ib, const WaveContext &w, Value,
                          int64_t kk) override {
    auto address = [&](Value tile) -> Value {
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(ib.b, ib.loc, tile);
      return arith::IndexCastOp::create(ib.b, ib.loc, ib.b.getI64Type(), base);
    };
    Value aBase = address(w.aStage), bBase = address(w.bStage);
    Fragments f;
    for (int64_t mi = 0; mi < w.mTiles; ++mi)
      f.a.push_back(descriptorA(ib, w, aBase, mi, kk));
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      f.b.push_back(descriptorB(ib, w, bBase, ni, kk));
    return f;
  }
  SmallVector<Value> multiplyAccumulate(IndexBuilder &ib, const WaveContext &w,
                                        ArrayRef<Value> a, ArrayRef<Value> b,
                                        ArrayRef<Value> acc) override;
  void emulateStep(IndexBuilder &ib, const WaveContext &w, Value acc,
                   Value warp, int64_t kk) override;

private:
  /// The byte offset (from the operand's stage 0) where instruction tile
  /// mi's A starts at k step kk: its 64 rows, K elements in.
  Value startA(IndexBuilder &ib, const WaveContext &w, int64_t mi,
               int64_t kk) const {
    StagedLayout l = stagedLayout(w.problem, w.tiling, StagedOperand::A);
    Value row = ib.add(ib.mul(w.warpM, w.waveM), mi * w.tiling.mma.m);
    return ib.add(ib.add(ib.mul(w.stage, l.stageBytes),
                         ib.mul(row, l.swizzleBytes)),
                  kk * w.tiling.mma.k * l.elemBytes);
  }
  /// The same for instruction tile ni's B.
  Value startB(IndexBuilder &ib, const WaveContext &w, int64_t ni,
               int64_t kk) const {
    StagedLayout l = stagedLayout(w.problem, w.tiling, StagedOperand::B);
    const TileShape &mma = w.tiling.mma;
    Value n = ib.add(ib.mul(w.warpN, w.waveN), ni * mma.n);
    Value stageOffset = ib.mul(w.stage, l.stageBytes);
    if (l.kMajor)
      return ib.add(ib.add(stageOffset, ib.mul(n, l.swizzleBytes)),
                    kk * mma.k * l.elemBytes);
    // Whole atom columns (acceptsProblem), whole groups of 8 k rows.
    return ib.add(ib.add(stageOffset, ib.mul(ib.div(n, l.atomElems()), l.lbo)),
                  (kk * mma.k / 8) * l.sbo);
  }

  /// The 64-bit matrix descriptor of the operand at `base` + `start` bytes
  /// (PTX ISA "Matrix Descriptor Format": bits 0-13 the start address,
  /// 16-29 the leading and 32-45 the stride dimension byte offset, each
  /// (x & 0x3FFFF) >> 4; 62-63 the swizzle mode; base offset 0: stages are
  /// aligned to the pattern).
  Value descriptor(IndexBuilder &ib, const StagedLayout &l, Value base,
                   Value start) const {
    OpBuilder &b = ib.b;
    Location loc = ib.loc;
    Type i64 = b.getI64Type();
    auto constant = [&](uint64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
    };
    auto encode = [](uint64_t x) { return (x & 0x3FFFF) >> 4; };
    uint64_t fixed = (encode(l.lbo) << 16) | (encode(l.sbo) << 32) |
                     (uint64_t(swizzleMode(l.swizzleBytes)) << 62);
    Value address = arith::AddIOp::create(
        b, loc, base, arith::IndexCastOp::create(b, loc, i64, start));
    Value field = arith::ShRUIOp::create(
        b, loc, arith::AndIOp::create(b, loc, address, constant(0x3FFFF)),
        constant(4));
    return arith::OrIOp::create(b, loc, field, constant(fixed));
  }
  Value descriptorA(IndexBuilder &ib, const WaveContext &w, Value base,
                    int64_t mi, int64_t kk) const {
    return descriptor(
        ib, stagedLayout(w.problem, w.tiling, StagedOperand::A), base,
        startA(ib, w, mi, kk));
  }
  Value descriptorB(IndexBuilder &ib, const WaveContext &w, Value base,
                    int64_t ni, int64_t kk) const {
    return descriptor(
        ib, stagedLayout(w.problem, w.tiling, StagedOperand::B), base,
        startB(ib, w, ni, kk));
  }

  /// The wgmma-stages option (0: the table's), and the table's tilings
  /// with it applied (one object per tiling: both FP8 formats share one).
  unsigned stagesOverride;
  mutable GPUGemmTiling adjusted16, adjustedFP8;
};

NVVM::WGMMATypes wgmmaType(Type t) {
  if (t.isF16())
    return NVVM::WGMMATypes::f16;
  if (t.isBF16())
    return NVVM::WGMMATypes::bf16;
  return isa<Float8E4M3FNType>(t) ? NVVM::WGMMATypes::e4m3
                                  : NVVM::WGMMATypes::e5m2;
}

SmallVector<Value> WgmmaBackend::multiplyAccumulate(IndexBuilder &ib,
                                                    const WaveContext &w,
                                                    ArrayRef<Value> a,
                                                    ArrayRef<Value> b,
                                                    ArrayRef<Value> acc) {
  OpBuilder &builder = ib.b;
  Location loc = ib.loc;
  MLIRContext *ctx = builder.getContext();
  const TileShape &mma = w.tiling.mma;
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(acc.size(), builder.getF32Type()));
  Value inouts = LLVM::PoisonOp::create(builder, loc, structType);
  for (auto [i, v] : llvm::enumerate(acc))
    inouts = LLVM::InsertValueOp::create(builder, loc, inouts, v, i);
  // A K-major (row); B K-major (col) when stored [n][k] or staged so (FP8
  // stored [k][n]), else N-major (row: imm-trans-b = 1, 16-bit only).
  Value result = NVVM::WgmmaMmaAsyncOp::create(
      builder, loc, structType, inouts, a[0], b[0],
      NVVM::MMAShapeAttr::get(ctx, mma.m, mma.n, mma.k),
      wgmmaType(w.problem.aElem), wgmmaType(w.problem.bElem),
      NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
      w.problem.bStagedKMajor() ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      /*satfinite=*/nullptr);
  return extractMembers(builder, loc, result, acc.size());
}

void WgmmaBackend::emulateStep(IndexBuilder &ib, const WaveContext &w,
                               Value acc, Value warp, int64_t kk) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  const TileShape &mma = w.tiling.mma;
  // The emulated shared memory starts at address 0 (a 1024-byte aligned
  // address on the GPU); its stages are [stage][element].
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  auto bits = [&](Value desc, int64_t shift, uint64_t mask) -> Value {
    Value v = arith::ShRUIOp::create(
        b, loc, desc,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(shift)));
    v = arith::AndIOp::create(
        b, loc, v, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(mask)));
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  // A descriptor as the hardware reads it: start address, leading and
  // stride byte offsets (fields << 4), and the swizzle width of its mode
  // (bits 62-63: 1, 2, 3 are 128, 64, 32 bytes: 256 >> mode).
  struct Decoded {
    Value start, lbo, sbo, swizzleBytes;
  };
  auto decode = [&](Value desc) {
    Value mode = bits(desc, 62, 3);
    Value width = arith::ShRUIOp::create(b, loc, ib.idx(256), mode);
    return Decoded{ib.mul(bits(desc, 0, 0x3FFF), 16),
                   ib.mul(bits(desc, 16, 0x3FFF), 16),
                   ib.mul(bits(desc, 32, 0x3FFF), 16), width};
  };
  auto mulV = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto divV = [&](Value x, Value y) -> Value {
    return arith::DivUIOp::create(b, loc, x, y);
  };
  auto remV = [&](Value x, Value y) -> Value {
    return arith::RemUIOp::create(b, loc, x, y);
  };
  // Swizzle<B, 4, 3> for a swizzle `width` bytes wide: the 16-byte chunk
  // bits of the address XOR (address / 128) % (width / 16).
  auto swizzleAt = [&](Value address, Value width) -> Value {
    Value row = remV(ib.div(address, 128), ib.div(width, 16));
    return arith::XOrIOp::create(b, loc, address, ib.mul(row, 16));
  };
  // Loads the element at shared byte `address` (after the swizzle) of a
  // [stage][element] buffer.
  auto loadAt = [&](Value smem, Value address, Type elem) -> Value {
    auto shape = cast<MemRefType>(smem.getType()).getShape();
    int64_t eb = elementBytes(elem);
    int64_t stageBytes = shape[1] * eb;
    return memref::LoadOp::create(
        b, loc, smem,
        ValueRange{ib.div(address, stageBytes),
                   ib.div(ib.rem(address, stageBytes), eb)});
  };
  int64_t aBytes = elementBytes(w.problem.aElem);
  int64_t bBytes = elementBytes(w.problem.bElem);
  bool bKMajor = w.problem.bStagedKMajor();
  for (int64_t mi = 0; mi < w.mTiles; ++mi)
    for (int64_t ni = 0; ni < w.nTiles; ++ni) {
      Decoded da = decode(descriptorA(ib, w, zero, mi, kk));
      Decoded db = decode(descriptorB(ib, w, zero, ni, kk));
      // D[row][col] of the m64nN tile, for every row and column: which
      // thread and register hold it (the ISA's accumulator figure, read
      // from the element: warp row / 16 of the warpgroup, lane
      // 4 (row % 8) + (col % 8) / 2, register 4 (col / 8) +
      // 2 ((row % 16) / 8) + col % 2).
      ib.loop(mma.m, [&](Value row) {
        ib.loop(mma.n, [&](Value col) {
          Value lane = ib.add(ib.add(ib.mul(ib.div(row, 16), 32),
                                     ib.mul(ib.rem(row, 8), 4)),
                              ib.div(ib.rem(col, 8), 2));
          Value reg = ib.add(ib.add(ib.mul(ib.div(col, 8), 4),
                                    ib.mul(ib.div(ib.rem(row, 16), 8), 2)),
                             ib.rem(col, 2));
          SmallVector<Value> accIdx{warp, ib.idx(mi), ib.idx(ni), lane, reg};
          emulateLaneDotProduct(ib, acc, accIdx, mma.k, [&](Value k) {
            // K-major canonical layout ((8, m), (T, 2k)) : ((W, SBO),
            // (1, T)) in elements, W the swizzle row: row r at
            // (r % 8) W + (r / 8) SBO bytes, k contiguous.
            auto kMajor = [&](const Decoded &d, Value r, int64_t eb) {
              return ib.add(ib.add(ib.add(d.start,
                                          mulV(ib.rem(r, 8), d.swizzleBytes)),
                                   mulV(ib.div(r, 8), d.sbo)),
                            ib.mul(k, eb));
            };
            Value aAddress = kMajor(da, row, aBytes);
            Value bAddress;
            if (bKMajor) {
              bAddress = kMajor(db, col, bBytes);
            } else {
              // MN-major ((T, 8, m), (8, k)) : ((1, T, LBO), (8T, SBO)):
              // n contiguous within an atom row of W bytes, the next atom
              // LBO on; k rows W apart, groups of 8 SBO apart.
              Value atom = ib.div(db.swizzleBytes, bBytes);
              bAddress = ib.add(
                  ib.add(ib.add(db.start, ib.mul(remV(col, atom), bBytes)),
                         mulV(divV(col, atom), db.lbo)),
                  ib.add(mulV(ib.rem(k, 8), db.swizzleBytes),
                         mulV(ib.div(k, 8), db.sbo)));
            }
            Value av = loadAt(w.aStage, swizzleAt(aAddress, da.swizzleBytes),
                              w.problem.aElem);
            Value bv = loadAt(w.bStage, swizzleAt(bAddress, db.swizzleBytes),
                              w.problem.bElem);
            return std::pair(av, bv);
          });
        });
      });
    }
}

} // namespace

std::unique_ptr<MatrixInstructionBackend>
mlir::lowp::nvvm_gemm::createWgmmaBackend(MLIRContext *ctx, unsigned stages) {
  return std::make_unique<WgmmaBackend>(ctx, stages);
}
