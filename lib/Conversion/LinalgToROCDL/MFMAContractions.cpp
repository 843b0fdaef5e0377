//===- MFMAContractions.cpp - lowp-rocdl-lower-contractions ---------------===//
//
// The AMD back end of the GPU GEMM tiling (lowp/Conversion/LinalgToGPU/
// TiledGemm.h): bufferized f16, bf16 and FP8 contractions to tiled MFMA
// kernels with the tiling of the chip's capability-table row (waves of 64
// lanes; the shared layer stages the slices through LDS, the next one
// through registers while the current one is multiplied, and builds the k
// loop and the fused epilogue). This file supplies the wave-level
// instruction, `amdgpu.mfma` (lowered by convert-amdgpu-to-rocdl to the
// chip's v_mfma_f32_<m>x<n>x<k>_<format>), for the non-blocked forms
// (CDNA3 ISA, "Matrix fused-multiply-add"):
//
//  * A (m x k): lane l holds A[l % m][(l / m) * e + j], j < e, with
//    e = k * m / 64 elements per lane; B (k x n): B[(l / n) * e + j][l % n];
//  * D (m x n, m * n / 64 f32 registers): register i of lane l holds
//    D[(i / 4) * 4 * (64 / n) + (l / n) * 4 + i % 4][l % n].
//
// The emulated form computes the same fragments per lane into host memory
// and the instruction from the layout above, so the tiling, the fragment
// addresses and the accumulator coordinates execute on a CPU.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/LinalgToGPU/TiledGemm.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPROCDLLOWERCONTRACTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::gpu_gemm;

namespace {

constexpr int64_t kWave = 64;

/// amdgpu.mfma (non-blocked forms) with per-lane LDS fragment loads.
class MfmaBackend final : public MatrixInstructionBackend {
public:
  StringRef kernelKind() const override { return "MFMA"; }
  StringRef instructionName() const override { return "MFMA"; }
  StringRef moduleSuffix() const override { return "mfma"; }
  Vendor vendor() const override { return Vendor::AMD; }
  MatrixInstruction instruction() const override {
    return MatrixInstruction::Mfma;
  }

  /// LDS as AMDGPU's address space 3 rather than the gpu dialect's
  /// attribute: lowp-pipeline-rocdl runs upstream's convert-vector-to-llvm
  /// before convert-gpu-to-rocdl, and it maps no gpu address-space
  /// attribute (the gpu.func verifier takes either).
  Attribute sharedMemorySpace(MLIRContext *ctx) const override {
    return IntegerAttr::get(IntegerType::get(ctx, 64), 3);
  }

  bool supportsTiling(const GPUGemmTiling &t) const override {
    // Non-blocked forms: m = n in {16, 32}, whole k groups per lane.
    return t.waveSize == kWave && t.mma.m == t.mma.n &&
           (t.mma.m == 16 || t.mma.m == 32) &&
           (t.mma.k * t.mma.m) % kWave == 0;
  }

  int64_t accumulatorsPerTile(const GPUGemmTiling &t) const override {
    return t.mma.m * t.mma.n / kWave;
  }
  // Adjacent registers hold adjacent rows: one column per store, the
  // lanes of a row store adjacent columns.
  int64_t storeWidth() const override { return 1; }
  std::pair<int64_t, int64_t> accumulatorOffset(const GPUGemmTiling &t,
                                                int64_t i) const override {
    return {(i / 4) * 4 * (kWave / t.mma.n) + i % 4, 0};
  }
  Value accumulatorLaneRow(IndexBuilder &ib, const GPUGemmTiling &t, Value lane,
                           int64_t) const override {
    return ib.mul(ib.div(lane, t.mma.n), 4);
  }
  Value accumulatorLaneCol(IndexBuilder &ib, const GPUGemmTiling &t, Value lane,
                           int64_t) const override {
    return ib.rem(lane, t.mma.n);
  }

  Fragments loadFragments(IndexBuilder &ib, const WaveContext &w, Value lane,
                          int64_t kk) override {
    Fragments f;
    for (int64_t mi = 0; mi < w.mTiles; ++mi)
      f.a.push_back(loadA(ib, w, lane, mi, kk));
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      f.b.push_back(loadB(ib, w, lane, ni, kk));
    return f;
  }
  SmallVector<Value> multiplyAccumulate(IndexBuilder &ib, const WaveContext &w,
                                        ArrayRef<Value> a, ArrayRef<Value> b,
                                        ArrayRef<Value> acc) override {
    OpBuilder &builder = ib.b;
    int64_t accRegs = accumulatorsPerTile(w.tiling);
    auto accType = VectorType::get({accRegs}, builder.getF32Type());
    Value c = vector::FromElementsOp::create(builder, ib.loc, accType, acc);
    const TileShape &mma = w.tiling.mma;
    Value d = amdgpu::MFMAOp::create(builder, ib.loc, accType, mma.m, mma.n,
                                     mma.k, /*blocks=*/1, a[0], b[0], c)
                  .getResult();
    SmallVector<Value> out;
    for (int64_t i = 0; i < accRegs; ++i)
      out.push_back(vector::ExtractOp::create(builder, ib.loc, d,
                                              ArrayRef<int64_t>{i}));
    return out;
  }

  void emulateStep(IndexBuilder &ib, const WaveContext &w, Value acc,
                   Value warp, int64_t kk) override;

private:
  /// Elements of A (and B) per lane.
  int64_t perLane(const WaveContext &w) const {
    return w.tiling.mma.k * w.tiling.mma.m / kWave;
  }
  /// Lane `lane`'s A fragment of m tile `mi` at k step `kk`: row
  /// lane % m, e consecutive k from (lane / m) * e (one LDS read).
  Value loadA(IndexBuilder &ib, const WaveContext &w, Value lane, int64_t mi,
              int64_t kk) const {
    int64_t e = perLane(w), m = w.tiling.mma.m;
    Value row = ib.add(ib.add(ib.mul(w.warpM, w.waveM), mi * m),
                       ib.rem(lane, m));
    Value col = ib.add(ib.mul(ib.div(lane, m), e), kk * w.tiling.mma.k);
    return vector::LoadOp::create(
        ib.b, ib.loc, VectorType::get({e}, w.problem.aElem), w.aStage,
        ValueRange{w.stage, row, col});
  }
  /// Lane `lane`'s B fragment of n tile `ni`: column lane % n, e
  /// consecutive k from (lane / n) * e: one LDS read from a [n][k] tile,
  /// e reads down a column of a [k][n] one.
  Value loadB(IndexBuilder &ib, const WaveContext &w, Value lane, int64_t ni,
              int64_t kk) const {
    int64_t e = perLane(w), n = w.tiling.mma.n;
    Value col = ib.add(ib.add(ib.mul(w.warpN, w.waveN), ni * n),
                       ib.rem(lane, n));
    Value k0 = ib.add(ib.mul(ib.div(lane, n), e), kk * w.tiling.mma.k);
    auto type = VectorType::get({e}, w.problem.bElem);
    if (w.problem.bTransposed)
      return vector::LoadOp::create(ib.b, ib.loc, type, w.bStage,
                                    ValueRange{w.stage, col, k0});
    SmallVector<Value> elems;
    for (int64_t j = 0; j < e; ++j)
      elems.push_back(memref::LoadOp::create(
          ib.b, ib.loc, w.bStage, ValueRange{w.stage, ib.add(k0, j), col}));
    return vector::FromElementsOp::create(ib.b, ib.loc, type, elems);
  }
};

void MfmaBackend::emulateStep(IndexBuilder &ib, const WaveContext &w,
                              Value acc, Value warp, int64_t kk) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  const GPUGemmTiling &t = w.tiling;
  int64_t e = perLane(w), m = t.mma.m, n = t.mma.n;
  int64_t accRegs = accumulatorsPerTile(t);
  // The lanes' fragment registers, in memory, loaded as on the GPU.
  Value aFrag = memref::AllocOp::create(
      b, loc, MemRefType::get({w.mTiles, kWave, e}, w.problem.aElem));
  Value bFrag = memref::AllocOp::create(
      b, loc, MemRefType::get({w.nTiles, kWave, e}, w.problem.bElem));
  ib.loop(kWave, [&](Value lane) {
    for (int64_t mi = 0; mi < w.mTiles; ++mi)
      vector::StoreOp::create(b, loc, loadA(ib, w, lane, mi, kk), aFrag,
                              ValueRange{ib.idx(mi), lane, ib.idx(0)});
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      vector::StoreOp::create(b, loc, loadB(ib, w, lane, ni, kk), bFrag,
                              ValueRange{ib.idx(ni), lane, ib.idx(0)});
  });
  // The instruction: register i of lane l is D[r][c] (the accumulator
  // layout), plus the sum over the k of A[r][k] (lane (k / e) * m + r,
  // element k % e) times B[k][c] (lane (k / e) * n + c, element k % e).
  for (int64_t mi = 0; mi < w.mTiles; ++mi)
    for (int64_t ni = 0; ni < w.nTiles; ++ni)
      ib.loop(kWave, [&](Value lane) {
        for (int64_t i = 0; i < accRegs; ++i) {
          Value r = ib.add(accumulatorLaneRow(ib, t, lane, i),
                           accumulatorOffset(t, i).first);
          Value c = ib.add(accumulatorLaneCol(ib, t, lane, i),
                           accumulatorOffset(t, i).second);
          SmallVector<Value> accIdx{warp, ib.idx(mi), ib.idx(ni), lane,
                                    ib.idx(i)};
          emulateLaneDotProduct(ib, acc, accIdx, w.tiling.mma.k, [&](Value k) {
            Value group = ib.div(k, e), item = ib.rem(k, e);
            Value aLane = ib.add(ib.mul(group, m), r);
            Value bLane = ib.add(ib.mul(group, n), c);
            Value av = memref::LoadOp::create(
                b, loc, aFrag, ValueRange{ib.idx(mi), aLane, item});
            Value bv = memref::LoadOp::create(
                b, loc, bFrag, ValueRange{ib.idx(ni), bLane, item});
            return std::pair(av, bv);
          });
        }
      });
  memref::DeallocOp::create(b, loc, aFrag);
  memref::DeallocOp::create(b, loc, bFrag);
}

struct LowpROCDLLowerContractionsPass
    : lowp::impl::LowpROCDLLowerContractionsBase<
          LowpROCDLLowerContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MfmaBackend backend;
    FailureOr<const TargetInfo *> chip =
        resolveGemmChip(root, target, backend.vendor());
    if (failed(chip))
      return signalPassFailure();
    if (failed(lowerContractionsToTiledKernels(root, **chip, backend, emulate)))
      return signalPassFailure();
  }
};
} // namespace
