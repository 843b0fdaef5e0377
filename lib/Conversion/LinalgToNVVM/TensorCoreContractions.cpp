//===- TensorCoreContractions.cpp - lowp-nvvm-lower-contractions ----------===//
//
// The NVIDIA back end of the GPU GEMM tiling (lowp/Conversion/LinalgToGPU/
// TiledGemm.h): bufferized f16/bf16 contractions to tiled tensor-core
// kernels with the tiling of the chip's capability-table row. The shared
// layer stages the slices (here with cp.async into two buffers, rows padded
// by 16 bytes so ldmatrix's eight 16-byte row reads hit distinct bank
// groups, or synchronous loads into one on sm_75) and builds the k loop and
// epilogue; this file supplies the warp-level instruction:
//
//  * fragments: ldmatrix (.x4 / .x2, .trans for a row-major B);
//  * the instruction: mma.sync.aligned.m16n8k16 (m16n8k8 on sm_75), f32
//    accumulators (c0..c3: row lane / 4 (+8), columns 2 * (lane % 4) (+1));
//  * the emulation: ldmatrix and mma.sync computed per lane from the
//    fragment layouts of the PTX ISA ("Warp-level matrix fragments"), so
//    the tiling can be executed and checked on a CPU.
//
//===----------------------------------------------------------------------===//

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

namespace {

/// Elements of a 16-byte chunk of f16/bf16 (cp.async's largest copy, one
/// ldmatrix row).
constexpr int64_t kChunk = 8;

/// mma.sync m16n8k16 / m16n8k8 with ldmatrix fragments.
class MmaSyncBackend final : public MatrixInstructionBackend {
public:
  explicit MmaSyncBackend(MLIRContext *ctx)
      : tokenType(nvgpu::DeviceAsyncTokenType::get(ctx)) {}

  StringRef kernelKind() const override { return "tensor-core"; }
  StringRef moduleSuffix() const override { return "mma_sync"; }

  FailureOr<const GPUGemmTiling *>
  selectTiling(const GemmProblem &p, const TargetInfo &chip,
               std::string &whyNot) const override {
    auto fail = [&](const Twine &reason) {
      whyNot = reason.str();
      return failure();
    };
    FloatType aType = p.aElem;
    if (!aType || aType != p.bElem)
      return fail("A and B have different element types");
    if (!getElementTypeOrSelf(p.c.getType()).isF32())
      return fail("the accumulator is not f32");
    if (aType.getWidth() == 8) {
      std::string name;
      llvm::raw_string_ostream(name) << aType;
      return fail("FP8 operands (" + name + ") have no mma.sync kernel yet");
    }
    if (!aType.isF16() && !aType.isBF16())
      return fail("operands are neither f16 nor bf16");
    const GPUGemmTiling &t = chip.mmaSync16;
    if (!t.valid())
      return fail(Twine(chip.name) +
                  " has no mma.sync tiling in the capability table (no "
                  "ldmatrix and no m16n8 mma shapes)");
    if (!chip.hasMatrixUnit(*getFormat(aType)))
      return fail(Twine(chip.name) + " has no " +
                  stringifyFormat(*getFormat(aType)) + " tensor cores");
    if (p.n % kChunk || p.k % kChunk)
      return fail("N (" + Twine(p.n) + ") and K (" + Twine(p.k) +
                  ") must be multiples of 8 (16-byte rows for cp.async)");
    return &t;
  }

  Attribute sharedMemorySpace(MLIRContext *ctx) const override {
    return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  }

  bool supportsTiling(const GPUGemmTiling &t) const override {
    // 16 x 8 tiles, an even number of n tiles per warp (ldmatrix.x4 loads
    // two), 32 lanes.
    return t.mma.m == 16 && t.mma.n == 8 && (t.mma.k == 16 || t.mma.k == 8) &&
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
  void asyncCopy(IndexBuilder &ib, Value dst, ValueRange dstIdx, Value src,
                 ValueRange srcIdx, int64_t elements, Value inBounds) override {
    // cp.async.cg 16 bytes; src-size 0 zero-fills out-of-range chunks.
    Value srcElements = ib.select(inBounds, ib.idx(elements), ib.idx(0));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        ib.b, ib.loc, tokenType, dst, dstIdx, src, srcIdx,
        ib.b.getIndexAttr(elements), srcElements, ib.b.getUnitAttr()));
  }
  void commitCopies(IndexBuilder &ib) override {
    lastGroup = nvgpu::DeviceAsyncCreateGroupOp::create(ib.b, ib.loc,
                                                        tokenType, tokens);
    tokens.clear();
  }
  void waitCopies(IndexBuilder &ib, int64_t pending) override {
    nvgpu::DeviceAsyncWaitOp::create(ib.b, ib.loc, lastGroup,
                                     ib.b.getI32IntegerAttr(pending));
  }

  Fragments loadFragments(IndexBuilder &ib, const WaveContext &w, Value lane,
                          int64_t kk) override {
    Layout l(w);
    auto fragType = [&](int64_t regs) {
      return VectorType::get({regs, 2}, w.problem.aElem);
    };
    Fragments f;
    for (int64_t mi = 0; mi < w.mTiles; ++mi) {
      auto [r, c] = aFragmentAddress(ib, w, lane, mi, kk);
      f.a.push_back(nvgpu::LdMatrixOp::create(
          ib.b, ib.loc, fragType(l.aRegs), w.aStage, ValueRange{w.stage, r, c},
          /*transpose=*/false, l.aRegs));
    }
    for (int64_t np = 0; np < w.nTiles / 2; ++np) {
      auto [r, c] = bFragmentAddress(ib, w, lane, np, kk);
      f.b.push_back(nvgpu::LdMatrixOp::create(
          ib.b, ib.loc, fragType(2 * l.bRegs), w.bStage,
          ValueRange{w.stage, r, c},
          /*transpose=*/!w.problem.bTransposed, 2 * l.bRegs));
    }
    return f;
  }
  SmallVector<Value> operandsA(IndexBuilder &ib, const WaveContext &w,
                               const Fragments &f, int64_t mi) override {
    SmallVector<Value> ops;
    for (int64_t r = 0; r < Layout(w).aRegs; ++r)
      ops.push_back(vector::ExtractOp::create(ib.b, ib.loc, f.a[mi],
                                              ArrayRef<int64_t>{r}));
    return ops;
  }
  SmallVector<Value> operandsB(IndexBuilder &ib, const WaveContext &w,
                               const Fragments &f, int64_t ni) override {
    int64_t bRegs = Layout(w).bRegs;
    SmallVector<Value> ops;
    for (int64_t r = 0; r < bRegs; ++r)
      ops.push_back(vector::ExtractOp::create(
          ib.b, ib.loc, f.b[ni / 2], ArrayRef<int64_t>{(ni % 2) * bRegs + r}));
    return ops;
  }
  SmallVector<Value> multiplyAccumulate(IndexBuilder &ib, const WaveContext &w,
                                        ArrayRef<Value> aFrag,
                                        ArrayRef<Value> bFrag,
                                        ArrayRef<Value> acc) override;
  void emulateStep(IndexBuilder &ib, const WaveContext &w, Value acc,
                   Value warp, int64_t kk) override;

private:
  /// Registers of the fragments: A m16kK in 2 * K/8 registers of two
  /// elements, B kKn8 in K/8.
  struct Layout {
    explicit Layout(const WaveContext &w)
        : numK8(w.tiling.mma.k / 8), aRegs(2 * numK8), bRegs(numK8) {}
    int64_t numK8, aRegs, bRegs;
  };

  /// ldmatrix row addresses (row, column in a stage) given by `lane` for the
  /// A fragments of m tile `mi` at k step `kk` (x4: a0..a3 of m16k16, or x2:
  /// a0, a1 of m16k8): lanes 0-15 rows 0-15 at k, lanes 16-31 at k + 8.
  std::pair<Value, Value> aFragmentAddress(IndexBuilder &ib,
                                           const WaveContext &w, Value lane,
                                           int64_t mi, int64_t kk) const {
    int64_t numK8 = Layout(w).numK8;
    Value row = ib.add(ib.add(ib.mul(w.warpM, w.waveM), mi * 16),
                       ib.rem(lane, 16));
    Value col = ib.add(ib.mul(ib.rem(ib.div(lane, 16), numK8), kChunk),
                       kk * w.tiling.mma.k);
    return {row, col};
  }
  /// The same for the B fragments of n tiles 2*np and 2*np+1: matrix j =
  /// lane / 8 is (n tile 2*np + j / numK8, k half j % numK8); a row-major B
  /// gives k rows (read with .trans), a transposed one n rows.
  std::pair<Value, Value> bFragmentAddress(IndexBuilder &ib,
                                           const WaveContext &w, Value lane,
                                           int64_t np, int64_t kk) const {
    int64_t numK8 = Layout(w).numK8;
    const TileShape &mma = w.tiling.mma;
    Value j = ib.rem(ib.div(lane, 8), 2 * numK8);
    Value kOff = ib.add(ib.mul(ib.rem(j, numK8), kChunk), kk * mma.k);
    Value nOff = ib.add(ib.add(ib.mul(w.warpN, w.waveN), np * 2 * mma.n),
                        ib.mul(ib.div(j, numK8), mma.n));
    if (w.problem.bTransposed)
      return {ib.add(nOff, ib.rem(lane, 8)), kOff};
    return {ib.add(kOff, ib.rem(lane, 8)), nOff};
  }

  Type tokenType;
  SmallVector<Value> tokens;
  Value lastGroup;
};

SmallVector<Value> MmaSyncBackend::multiplyAccumulate(IndexBuilder &ib,
                                                      const WaveContext &w,
                                                      ArrayRef<Value> aFrag,
                                                      ArrayRef<Value> bFrag,
                                                      ArrayRef<Value> acc) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  FloatType elem = w.problem.aElem;
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
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  NVVM::MMATypes ptxType =
      elem.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
  const TileShape &mma = w.tiling.mma;
  auto op = NVVM::MmaOp::create(
      b, loc, resultType, a, bv, acc,
      ArrayRef<int64_t>{mma.m, mma.n, mma.k}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> out;
  for (int64_t i = 0; i < 4; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, op, i));
  return out;
}

void MmaSyncBackend::emulateStep(IndexBuilder &ib, const WaveContext &w,
                                 Value acc, Value warp, int64_t kk) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  Layout l(w);
  FloatType elem = w.problem.aElem;
  Type f32 = b.getF32Type();
  int64_t mmaK = w.tiling.mma.k;
  auto alloc = [&](ArrayRef<int64_t> shape) -> Value {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, elem));
  };
  // The lanes' fragment registers, in memory.
  Value aFrag = alloc({w.mTiles, l.aRegs, 32, 2});
  Value bFrag = alloc({w.nTiles, l.bRegs, 32, 2});
  // ldmatrix .x<tiles>: matrix j's row r comes from the address lane
  // 8 * j + r gives. Lane l receives, as its register j, elements
  // (l / 4, 2 * (l % 4) + e) of matrix j, or with .trans elements
  // (2 * (l % 4) + e, l / 4).
  auto ldmatrix =
      [&](Value smem, int64_t tiles, bool trans,
          function_ref<std::pair<Value, Value>(Value)> address,
          function_ref<void(int64_t, Value, int64_t, Value)> storeReg) {
        ib.loop(32, [&](Value lane) {
          for (int64_t j = 0; j < tiles; ++j)
            for (int64_t e = 0; e < 2; ++e) {
              Value srcLane =
                  trans ? ib.add(ib.add(ib.mul(ib.rem(lane, 4), 2), e), j * 8)
                        : ib.add(ib.div(lane, 4), j * 8);
              auto [r, c] = address(srcLane);
              Value col = trans ? ib.add(c, ib.div(lane, 4))
                                : ib.add(ib.add(c, ib.mul(ib.rem(lane, 4), 2)),
                                         e);
              Value v = memref::LoadOp::create(b, loc, smem,
                                               ValueRange{w.stage, r, col});
              storeReg(j, lane, e, v);
            }
        });
      };
  for (int64_t mi = 0; mi < w.mTiles; ++mi)
    ldmatrix(
        w.aStage, l.aRegs, false,
        [&](Value srcLane) { return aFragmentAddress(ib, w, srcLane, mi, kk); },
        [&](int64_t j, Value lane, int64_t e, Value v) {
          memref::StoreOp::create(b, loc, v, aFrag,
                                  ValueRange{ib.idx(mi), ib.idx(j), lane,
                                             ib.idx(e)});
        });
  for (int64_t np = 0; np < w.nTiles / 2; ++np)
    ldmatrix(
        w.bStage, 2 * l.bRegs, !w.problem.bTransposed,
        [&](Value srcLane) { return bFragmentAddress(ib, w, srcLane, np, kk); },
        [&](int64_t j, Value lane, int64_t e, Value v) {
          int64_t ni = 2 * np + j / l.bRegs;
          memref::StoreOp::create(b, loc, v, bFrag,
                                  ValueRange{ib.idx(ni), ib.idx(j % l.bRegs),
                                             lane, ib.idx(e)});
        });
  // mma.sync m16n8kK: lane l's d_i is D[l / 4 + 8 * (i / 2)]
  // [2 * (l % 4) + i % 2]; A[r][k] is in lane (r % 8) * 4 + (k % 8) / 2,
  // register r / 8 + 2 * (k / 8), half k % 2; B[k][c] in lane
  // c * 4 + (k % 8) / 2, register k / 8, half k % 2.
  for (int64_t mi = 0; mi < w.mTiles; ++mi)
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      ib.loop(32, [&](Value lane) {
        for (int64_t i = 0; i < 4; ++i) {
          Value r = ib.add(ib.div(lane, 4), 8 * (i / 2));
          Value c = ib.add(ib.mul(ib.rem(lane, 4), 2), i % 2);
          SmallVector<Value> accIdx{warp, ib.idx(mi), ib.idx(ni), lane,
                                    ib.idx(i)};
          Value init = memref::LoadOp::create(b, loc, acc, accIdx);
          auto kLoop = scf::ForOp::create(b, loc, ib.idx(0), ib.idx(mmaK),
                                          ib.idx(1), ValueRange{init});
          {
            OpBuilder::InsertionGuard kg(b);
            b.setInsertionPointToStart(kLoop.getBody());
            Value k = kLoop.getInductionVar();
            Value half = ib.rem(k, 2);
            Value aLane =
                ib.add(ib.mul(ib.rem(r, 8), 4), ib.div(ib.rem(k, 8), 2));
            Value aReg = ib.add(ib.div(r, 8), ib.mul(ib.div(k, 8), 2));
            Value bLane = ib.add(ib.mul(c, 4), ib.div(ib.rem(k, 8), 2));
            Value bReg = ib.div(k, 8);
            Value av = memref::LoadOp::create(
                b, loc, aFrag, ValueRange{ib.idx(mi), aReg, aLane, half});
            Value bv = memref::LoadOp::create(
                b, loc, bFrag, ValueRange{ib.idx(ni), bReg, bLane, half});
            Value prod = arith::MulFOp::create(
                b, loc, arith::ExtFOp::create(b, loc, f32, av),
                arith::ExtFOp::create(b, loc, f32, bv));
            Value sum = arith::AddFOp::create(
                b, loc, kLoop.getRegionIterArgs()[0], prod);
            scf::YieldOp::create(b, loc, sum);
          }
          memref::StoreOp::create(b, loc, kLoop.getResult(0), acc, accIdx);
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
    FailureOr<const TargetInfo *> resolved = resolveTarget(
        root, selectTargetOption(getArgument(), target, "chip", deprecatedChip));
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    if (!info) {
      root->emitError("no NVIDIA chip: set target=sm_XX or a lowp.target");
      return signalPassFailure();
    }
    if (info->vendor != Vendor::NVIDIA) {
      root->emitError() << "'" << info->name
                        << "' is not an NVIDIA chip (NVVM targets: sm_XX)";
      return signalPassFailure();
    }
    MmaSyncBackend backend(root->getContext());
    if (failed(lowerContractionsToTiledKernels(root, *info, backend, emulate)))
      return signalPassFailure();
  }
};
} // namespace
