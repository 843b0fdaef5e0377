//===- TiledGemm.cpp - GPU GEMM tiling shared by the back ends ------------===//
//
// The builder of the GPU GEMM layer (TiledGemm.h): the workgroup / wave
// tiling, the staging through shared memory, the k loop and the guarded
// stores, in a GPU form and an emulated (host-executable) form that share
// every index function, and the driver that matches (GemmMatching.cpp),
// fuses (GemmEpilogue.cpp) and builds. The instruction-specific parts are
// the back end's.
//
//===----------------------------------------------------------------------===//

#include "GemmLayer.h"

#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::gpu_gemm;

void IndexBuilder::loop(int64_t n, function_ref<void(Value)> body) {
  auto forOp = scf::ForOp::create(b, loc, idx(0), idx(n), idx(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(forOp.getBody());
  body(forOp.getInductionVar());
}

void mlir::lowp::gpu_gemm::emulateLaneDotProduct(
    IndexBuilder &ib, Value acc, ArrayRef<Value> accIdx, int64_t depth,
    function_ref<std::pair<Value, Value>(Value k)> operands) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  Type f32 = b.getF32Type();
  Value init = memref::LoadOp::create(b, loc, acc, accIdx);
  auto kLoop = scf::ForOp::create(b, loc, ib.idx(0), ib.idx(depth), ib.idx(1),
                                  ValueRange{init});
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(kLoop.getBody());
    auto [av, bv] = operands(kLoop.getInductionVar());
    Value prod = arith::MulFOp::create(b, loc,
                                       arith::ExtFOp::create(b, loc, f32, av),
                                       arith::ExtFOp::create(b, loc, f32, bv));
    Value sum =
        arith::AddFOp::create(b, loc, kLoop.getRegionIterArgs()[0], prod);
    scf::YieldOp::create(b, loc, sum);
  }
  memref::StoreOp::create(b, loc, kLoop.getResult(0), acc, accIdx);
}

namespace {

/// Builds one kernel; the GPU and the emulated forms share every index
/// function, the back end supplies the instruction.
class TiledGemmBuilder {
public:
  TiledGemmBuilder(OpBuilder &b, Location loc, const GemmProblem &p,
                   const GPUGemmTiling &t, MatrixInstructionBackend &backend,
                   int64_t groupsInFlight)
      : b(b), loc(loc), ib{b, loc}, p(p), t(t), backend(backend),
        groupsInFlight(groupsInFlight), aBuf(p.a), bBuf(p.b), cBuf(p.c),
        outBuf(p.out) {
    wm = t.blockM / t.warpsM;
    wn = t.blockN / t.warpsN;
    mTiles = wm / t.mma.m;
    nTiles = wn / t.mma.n;
    accRegs = backend.accumulatorsPerTile(t);
    aChunk = chunkElements(p.aElem);
    bChunk = chunkElements(p.bElem);
    gridX = llvm::divideCeil(p.n, t.blockN);
    gridY = llvm::divideCeil(p.m, t.blockM);
    numKTiles = llvm::divideCeil(p.k, t.blockK);
  }

  /// A gpu.module `name` in `symbols` with the kernel, and its launch at
  /// the builder's insertion point.
  void buildGPU(SymbolTable &symbols, StringRef name);
  void buildEmulated();

private:
  /// The GPU kernel's body at the insertion point.
  void buildKernelBody(Value as, Value bs, Value tid, Value blockX,
                       Value blockY, Value blockZ);

  Value idx(int64_t v) { return ib.idx(v); }
  Value add(Value x, Value y) { return ib.add(x, y); }
  Value add(Value x, int64_t c) { return ib.add(x, c); }
  Value mul(Value x, int64_t c) { return ib.mul(x, c); }
  Value div(Value x, int64_t c) { return ib.div(x, c); }
  Value rem(Value x, int64_t c) { return ib.rem(x, c); }
  Value lt(Value x, int64_t c) { return ib.lt(x, c); }
  Value andI(Value x, Value y) { return ib.andI(x, y); }
  Value select(Value c, Value x, Value y) { return ib.select(c, x, y); }
  void loop(int64_t n, function_ref<void(Value)> body) { ib.loop(n, body); }

  // --- shared index functions -------------------------------------------
  /// The shapes of the A and B tiles in shared memory, rows padded by one
  /// 16-byte chunk.
  SmallVector<int64_t> aTileShape() const {
    return backend.stagedTileShape(t, StagedOperand::A, t.blockM, t.blockK,
                                   aChunk);
  }
  SmallVector<int64_t> bTileShape() const {
    if (p.bStagedKMajor())
      return backend.stagedTileShape(t, StagedOperand::B, t.blockN, t.blockK,
                                     bChunk);
    return backend.stagedTileShape(t, StagedOperand::B, t.blockK, t.blockN,
                                   bChunk);
  }

  /// Copies of one k slice (starting at `k0`) into `stage`, the chunks thread
  /// `tid` owns: chunk q = tid + i * threads of a row-major tile, its global
  /// coordinates, and whether it lies inside the operand (K and N are
  /// multiples of the chunk: a chunk is entirely in or out).
  /// `copy(dst, dstIdx, src, srcIdx, elements, inBounds)` moves one chunk.
  using CopyFn = function_ref<void(Value, ValueRange, Value, ValueRange,
                                   int64_t, Value)>;
  void copySlice(Value as, Value bs, Value tid, Value stage, Value k0,
                 Value batchIdx, Value rowBase, Value colBase, CopyFn copy) {
    auto copyTile = [&](StagedOperand which, Value dst, Value src,
                        bool batched, int64_t rows,
                        int64_t cols, Value base0, Value base1, int64_t bound0,
                        int64_t bound1, int64_t chunk) {
      int64_t perRow = cols / chunk;
      int64_t chunks = rows * perRow;
      for (int64_t i = 0; i < chunks / t.threads(); ++i) {
        Value q = add(tid, i * t.threads());
        Value r = div(q, perRow);
        Value c = mul(rem(q, perRow), chunk);
        Value g0 = add(base0, r), g1 = add(base1, c);
        Value inBounds = andI(lt(g0, bound0), lt(g1, bound1));
        SmallVector<Value> srcIdx;
        if (batched)
          srcIdx.push_back(batchIdx);
        // Out-of-range chunks read element 0 (zero-filled, never used).
        srcIdx.push_back(select(inBounds, g0, idx(0)));
        srcIdx.push_back(select(inBounds, g1, idx(0)));
        copy(dst, backend.stagedIndex(ib, p, t, which, stage, r, c), src,
             srcIdx, chunk, inBounds);
      }
    };
    if (p.conv && p.conv->im2col) {
      // The convolution's input operand: its chunks are addressed in the
      // input itself (implicit GEMM).
      if (p.conv->nchw()) {
        copyTile(StagedOperand::A, as, aBuf, false, t.blockM, t.blockK,
                 rowBase, k0, p.m, p.k, aChunk);
        if (p.stageBTransposed)
          copyNchwInputTileKMajor(bs, tid, stage, k0, batchIdx, colBase, copy);
        else
          copyNchwInputTile(bs, tid, stage, k0, batchIdx, colBase, copy);
      } else {
        copyNhwcInputTile(as, tid, stage, k0, rowBase, copy);
        if (p.stageBTransposed)
          return copyTransposedBTile(bs, tid, stage, k0, batchIdx, colBase,
                                     copy);
        copyTile(StagedOperand::B, bs, bBuf, false,
                 p.bTransposed ? t.blockN : t.blockK,
                 p.bTransposed ? t.blockK : t.blockN,
                 p.bTransposed ? colBase : k0, p.bTransposed ? k0 : colBase,
                 p.bTransposed ? p.n : p.k, p.bTransposed ? p.k : p.n, bChunk);
      }
      return;
    }
    copyTile(StagedOperand::A, as, aBuf, p.aBatched, t.blockM, t.blockK, rowBase, k0, p.m, p.k,
             aChunk);
    if (p.bTransposed)
      copyTile(StagedOperand::B, bs, bBuf, p.bBatched, t.blockN, t.blockK, colBase, k0, p.n, p.k,
               bChunk);
    else if (p.stageBTransposed)
      copyTransposedBTile(bs, tid, stage, k0, batchIdx, colBase, copy);
    else
      copyTile(StagedOperand::B, bs, bBuf, p.bBatched, t.blockK, t.blockN, k0, colBase, p.k, p.n,
               bChunk);
  }

  /// A B stored [k][n] staged [n][k] (p.stageBTransposed): chunk (n, k..k
  /// + chunk) of the staged tile gathers B[k + j][n] element by element
  /// and is stored as a vector (`copy` with a vector source), zero outside
  /// B. Consecutive threads take consecutive n, so each of a warp's loads
  /// reads adjacent bytes of one row of B. K is a multiple of the chunk: a
  /// chunk is entirely inside or outside B, and outside it reads row 0.
  void copyTransposedBTile(Value bs, Value tid, Value stage, Value k0,
                           Value batchIdx, Value colBase, CopyFn copy) {
    auto vecType = VectorType::get({bChunk}, p.bElem);
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType, b.getFloatAttr(p.bElem, 0)));
    forEachKMajorBChunk(tid, k0, colBase, [&](Value r, Value c, Value n,
                                              Value k, Value inBounds) {
      SmallVector<Value> elements;
      for (int64_t j = 0; j < bChunk; ++j) {
        SmallVector<Value> srcIdx;
        if (p.bBatched)
          srcIdx.push_back(batchIdx);
        srcIdx.append({add(k, j), n});
        elements.push_back(memref::LoadOp::create(b, loc, bBuf, srcIdx));
      }
      Value chunk = select(
          inBounds, vector::FromElementsOp::create(b, loc, vecType, elements),
          zero);
      copy(bs, backend.stagedIndex(ib, p, t, StagedOperand::B, stage, r, c),
           chunk, ValueRange{}, bChunk, inBounds);
    });
  }
  /// The chunks of a B tile staged [n][k] that thread `tid` copies:
  /// `body(r, c, n, k, inside)` for the chunk at row r (an n of the tile)
  /// and k offset c, with its n and k in B, both 0 where the chunk lies
  /// outside B (`inside` false). Consecutive threads take consecutive n.
  void forEachKMajorBChunk(
      Value tid, Value k0, Value colBase,
      function_ref<void(Value, Value, Value, Value, Value)> body) {
    int64_t chunks = t.blockN * (t.blockK / bChunk);
    for (int64_t i = 0; i < chunks / t.threads(); ++i) {
      Value q = add(tid, i * t.threads());
      Value r = rem(q, t.blockN);
      Value c = mul(div(q, t.blockN), bChunk);
      Value n = add(colBase, r), k = add(k0, c);
      Value inside = andI(lt(n, p.n), lt(k, p.k));
      body(r, c, select(inside, n, idx(0)), select(inside, k, idx(0)),
           inside);
    }
  }

  /// Padded input pixel (ih, iw) in the buffer the kernel reads: itself,
  /// or with a folded padding the source pixel (ih - top, iw - left),
  /// clamped to 0 and out of bounds where it lies in the padding (the
  /// unsigned compare also catches the wrapped negative differences).
  std::tuple<Value, Value, Value> sourcePixel(Value ih, Value iw,
                                              Value inBounds) {
    const ConvGeometry &g = *p.conv;
    if (!g.paddedBuffer)
      return {ih, iw, inBounds};
    auto sub = [&](Value x, int64_t c) {
      return c ? arith::SubIOp::create(b, loc, x, idx(c)).getResult() : x;
    };
    ih = sub(ih, g.padTop);
    iw = sub(iw, g.padLeft);
    inBounds = andI(inBounds, andI(lt(ih, g.sourceH), lt(iw, g.sourceW)));
    return {select(inBounds, ih, idx(0)), select(inBounds, iw, idx(0)),
            inBounds};
  }
  /// The NHWC input's A chunks (row m = (n, oh, ow), 16-byte run of k =
  /// (kh, kw, c)): one run of channels at input pixel (oh * sh + kh * dh,
  /// ow * sw + kw * dw) of image n, contiguous since C is a multiple of the
  /// chunk.
  void copyNhwcInputTile(Value as, Value tid, Value stage, Value k0,
                         Value rowBase, CopyFn copy) {
    const ConvGeometry &g = *p.conv;
    int64_t perRow = t.blockK / aChunk;
    int64_t chunks = t.blockM * perRow;
    for (int64_t i = 0; i < chunks / t.threads(); ++i) {
      Value q = add(tid, i * t.threads());
      Value r = div(q, perRow);
      Value c = mul(rem(q, perRow), aChunk);
      Value m = add(rowBase, r), k = add(k0, c);
      Value inBounds = andI(lt(m, p.m), lt(k, p.k));
      // Out-of-range chunks read the input's first element (zero-filled).
      m = select(inBounds, m, idx(0));
      k = select(inBounds, k, idx(0));
      Value image = div(m, g.outH * g.outW);
      Value oh = rem(div(m, g.outW), g.outH), ow = rem(m, g.outW);
      Value kh = div(k, g.kernelW * g.channels);
      Value kw = rem(div(k, g.channels), g.kernelW);
      Value channel = rem(k, g.channels);
      Value ih = add(mul(oh, g.strideH), mul(kh, g.dilationH));
      Value iw = add(mul(ow, g.strideW), mul(kw, g.dilationW));
      std::tie(ih, iw, inBounds) = sourcePixel(ih, iw, inBounds);
      copy(as, backend.stagedIndex(ib, p, t, StagedOperand::A, stage, r, c),
           aBuf, ValueRange{image, ih, iw, channel}, aChunk, inBounds);
    }
  }
  /// The NCHW input's B chunks (row k = (c, kh, kw), columns (oh, ow)):
  /// consecutive output columns are a stride apart in the input (and cross
  /// output rows), so each element is loaded on its own, inside the
  /// operand or zero, and the chunk is stored to the stage as a vector
  /// (`copy` with a vector source).
  void copyNchwInputTile(Value bs, Value tid, Value stage, Value k0,
                         Value batchIdx, Value colBase, CopyFn copy) {
    const ConvGeometry &g = *p.conv;
    int64_t perRow = t.blockN / bChunk;
    int64_t chunks = t.blockK * perRow;
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(p.bElem, 0));
    for (int64_t i = 0; i < chunks / t.threads(); ++i) {
      Value q = add(tid, i * t.threads());
      Value r = div(q, perRow);
      Value c = mul(rem(q, perRow), bChunk);
      Value k = add(k0, r);
      Value kIn = lt(k, p.k);
      k = select(kIn, k, idx(0));
      Value channel = div(k, g.kernelH * g.kernelW);
      Value kh = rem(div(k, g.kernelW), g.kernelH), kw = rem(k, g.kernelW);
      Value rowOffset = mul(kh, g.dilationH), colOffset = mul(kw, g.dilationW);
      SmallVector<Value> elements;
      for (int64_t j = 0; j < bChunk; ++j) {
        Value pixel = add(add(colBase, c), j);
        Value inBounds = andI(kIn, lt(pixel, p.n));
        pixel = select(inBounds, pixel, idx(0));
        Value ih = add(mul(div(pixel, g.outW), g.strideH), rowOffset);
        Value iw = add(mul(rem(pixel, g.outW), g.strideW), colOffset);
        elements.push_back(
            loadNchwInputOrZero(batchIdx, channel, ih, iw, inBounds, zero));
      }
      stageBChunk(bs, stage, r, c, elements, kIn, copy);
    }
  }
  /// The NCHW input's B chunks staged [n][k] (p.stageBTransposed): chunk
  /// (output pixel n, k..k + chunk) gathers the input under that pixel at
  /// 16 consecutive (c, kh, kw). Consecutive threads take consecutive
  /// pixels (loads a stride apart). C*KH*KW is a multiple of the chunk: a
  /// chunk is entirely inside or outside K, and one pixel is inside N or
  /// not; elements in the (folded) padding are zero.
  void copyNchwInputTileKMajor(Value bs, Value tid, Value stage, Value k0,
                               Value batchIdx, Value colBase, CopyFn copy) {
    const ConvGeometry &g = *p.conv;
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(p.bElem, 0));
    forEachKMajorBChunk(tid, k0, colBase, [&](Value r, Value c, Value pixel,
                                              Value k, Value chunkIn) {
      Value ihBase = mul(div(pixel, g.outW), g.strideH);
      Value iwBase = mul(rem(pixel, g.outW), g.strideW);
      SmallVector<Value> elements;
      for (int64_t j = 0; j < bChunk; ++j) {
        Value kj = add(k, j);
        Value channel = div(kj, g.kernelH * g.kernelW);
        Value kh = rem(div(kj, g.kernelW), g.kernelH), kw = rem(kj, g.kernelW);
        Value ih = add(ihBase, mul(kh, g.dilationH));
        Value iw = add(iwBase, mul(kw, g.dilationW));
        elements.push_back(
            loadNchwInputOrZero(batchIdx, channel, ih, iw, chunkIn, zero));
      }
      stageBChunk(bs, stage, r, c, elements, chunkIn, copy);
    });
  }
  /// The NCHW input at (batch, channel, ih, iw) when `inBounds` and the
  /// pixel is inside the (folded) padding's source, else `zero`.
  Value loadNchwInputOrZero(Value batchIdx, Value channel, Value ih, Value iw,
                            Value inBounds, Value zero) {
    std::tie(ih, iw, inBounds) = sourcePixel(ih, iw, inBounds);
    Value v = memref::LoadOp::create(b, loc, bBuf,
                                     ValueRange{batchIdx, channel, ih, iw});
    return select(inBounds, v, zero);
  }
  /// `elements` (one chunk of B) stored to the stage at (r, c) as a vector
  /// (`copy` with a vector source), when `inside`.
  void stageBChunk(Value bs, Value stage, Value r, Value c,
                   ArrayRef<Value> elements, Value inside, CopyFn copy) {
    Value chunk = vector::FromElementsOp::create(
        b, loc, VectorType::get({bChunk}, p.bElem), elements);
    copy(bs, backend.stagedIndex(ib, p, t, StagedOperand::B, stage, r, c),
         chunk, ValueRange{}, bChunk, inside);
  }
  /// The kernel's views of the convolution's buffers as the GEMM's
  /// matrices (row-major collapses: no copy), at the insertion point. The
  /// input stays 4-D where the staging addresses it (im2col).
  void viewConvolutionOperands() {
    if (!p.conv)
      return;
    const ConvGeometry &g = *p.conv;
    auto collapse = [&](Value v, ArrayRef<ReassociationIndices> groups) {
      return memref::CollapseShapeOp::create(b, loc, v, groups).getResult();
    };
    if (g.nchw()) {
      aBuf = collapse(aBuf, {{0}, {1, 2, 3}});          // [F][C*KH*KW]
      if (!g.im2col)
        bBuf = collapse(bBuf, {{0}, {1}, {2, 3}});      // [N][C][H*W]
      if (p.readsC())
        cBuf = collapse(cBuf, {{0}, {1}, {2, 3}});      // [N][F][OH*OW]
      outBuf = collapse(outBuf, {{0}, {1}, {2, 3}});
      return;
    }
    if (!g.im2col)
      aBuf = collapse(aBuf, {{0, 1, 2}, {3}});          // [N*H*W][C]
    bBuf = g.layout == ConvGeometry::Layout::NhwcHwcf
               ? collapse(bBuf, {{0, 1, 2}, {3}})       // [KH*KW*C][F]
               : collapse(bBuf, {{0}, {1, 2, 3}});      // [F][KH*KW*C]
    if (p.readsC())
      cBuf = collapse(cBuf, {{0, 1, 2}, {3}});          // [N*OH*OW][F]
    outBuf = collapse(outBuf, {{0, 1, 2}, {3}});
  }
  /// The loop indices of the ops fused after the matrix op (their iteration
  /// space is C's: the convolution's 4-D output) at C's (batch, row, col).
  SmallVector<Value> epilogueLoopIndices(Value batchIdx, Value row,
                                         Value col) {
    if (p.conv && p.conv->nchw()) {
      const ConvGeometry &g = *p.conv;
      return {batchIdx, row, div(col, g.outW), rem(col, g.outW)};
    }
    if (p.conv) {
      const ConvGeometry &g = *p.conv;
      return {div(row, g.outH * g.outW), rem(div(row, g.outW), g.outH),
              rem(row, g.outW), col};
    }
    SmallVector<Value> loopIdx;
    if (p.cBatched)
      loopIdx.push_back(batchIdx);
    loopIdx.append({row, col});
    return loopIdx;
  }

  /// Where accumulator register `i` of `lane` in instruction tile (mi, ni)
  /// of wave (warpM, warpN) lies in C.
  std::pair<Value, Value> accumulatorCoordinates(Value rowBase, Value colBase,
                                                 Value warpM, Value warpN,
                                                 Value lane, int64_t mi,
                                                 int64_t ni, int64_t i) {
    auto [rowOff, colOff] = backend.accumulatorOffset(t, i);
    Value row = add(add(add(rowBase, mul(warpM, wm)), mi * t.mma.m + rowOff),
                    backend.accumulatorLaneRow(ib, t, lane, i));
    Value col = add(add(add(colBase, mul(warpN, wn)), ni * t.mma.n + colOff),
                    backend.accumulatorLaneCol(ib, t, lane, i));
    return {row, col};
  }
  SmallVector<Value> cIndices(Value batchIdx, Value row, Value col) {
    SmallVector<Value> ix;
    if (p.cBatched)
      ix.push_back(batchIdx);
    ix.append({row, col});
    return ix;
  }
  /// C[row][col], or 0 outside C (a load from a clamped address and a
  /// select: no branch).
  Value loadInitial(Value batchIdx, Value row, Value col) {
    if (p.zeroFill)
      return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value inBounds = andI(lt(row, p.m), lt(col, p.n));
    if (p.initOp) {
      // C's initializer at the element (clamped into C: its operands are
      // loaded; the value outside C is never stored).
      Value v = evaluatePayload(
          p.initOp,
          epilogueLoopIndices(batchIdx, select(inBounds, row, idx(0)),
                              select(inBounds, col, idx(0))),
          Value(), Value());
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      return select(inBounds, v, zero);
    }
    Value v = memref::LoadOp::create(
        b, loc, cBuf,
        cIndices(batchIdx, select(inBounds, row, idx(0)),
                 select(inBounds, col, idx(0))));
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    return select(inBounds, v, zero);
  }
  /// Stores `values` (accumulators of adjacent columns of one row, starting
  /// at `col`) through the epilogue: all inside or all outside C (N is a
  /// multiple of the store width); the epilogue's loads are inside the
  /// guard too.
  void storeGroup(Value batchIdx, Value row, Value col, ArrayRef<Value> values) {
    Value inBounds = andI(lt(row, p.m), lt(col, p.n));
    auto ifOp = scf::IfOp::create(b, loc, inBounds);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> results;
    for (auto [j, v] : llvm::enumerate(values))
      results.push_back(
          applyEpilogue(batchIdx, row, j ? add(col, j) : col, v));
    Value group = vector::FromElementsOp::create(
        b, loc,
        VectorType::get({static_cast<int64_t>(results.size())},
                        results.front().getType()),
        results);
    vector::StoreOp::create(b, loc, group, outBuf,
                            cIndices(batchIdx, row, col));
  }
  /// A synchronous 16-byte chunk load: the chunk, or zeros outside the
  /// operand. The source indices are already clamped into the operand, so
  /// the load is unconditional (no branch).
  Value loadChunk(Value src, ValueRange srcIdx, int64_t elements,
                  Value inBounds) {
    if (isa<VectorType>(src.getType()))
      return src; // gathered already (copyNchwInputTile)
    Type elem = cast<MemRefType>(src.getType()).getElementType();
    auto vecType = VectorType::get({elements}, elem);
    Value v = vector::LoadOp::create(b, loc, vecType, src, srcIdx,
                                     /*nontemporal=*/false, llvm::Align(16));
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType, b.getFloatAttr(elem, 0)));
    return select(inBounds, v, zero);
  }
  /// A synchronous chunk copy (chips without asynchronous copies, and the
  /// emulation): 16-byte accesses, as cp.async's (the operands' base
  /// addresses are 16-byte aligned, rows whole chunks, shared rows padded
  /// by 16 bytes).
  void copyChunkSync(Value dst, ValueRange dstIdx, Value src,
                     ValueRange srcIdx, int64_t elements, Value inBounds) {
    Value v = loadChunk(src, srcIdx, elements, inBounds);
    vector::StoreOp::create(b, loc, v, dst, dstIdx, /*nontemporal=*/false,
                            llvm::Align(16));
  }

  OpBuilder &b;
  Location loc;
  IndexBuilder ib;
  const GemmProblem &p;
  const GPUGemmTiling &t;
  MatrixInstructionBackend &backend;
  int64_t wm, wn, mTiles, nTiles, accRegs, aChunk, bChunk;
  int64_t gridX, gridY, numKTiles;
  /// Slices whose asynchronous instructions stay pending while the next
  /// slice's are issued (0: each slice waits for its own); the copies then
  /// run stages - 1 - groupsInFlight slices ahead.
  int64_t groupsInFlight;
  int64_t copiesAhead() const { return t.stages - 1 - groupsInFlight; }
  /// The operands as the kernel sees them (its arguments on the GPU).
  Value aBuf, bBuf, cBuf, outBuf;
  /// Host buffers (epilogue inputs) to the kernel's values.
  IRMapping kernelBuffers;

  WaveContext waveContext(Value as, Value bs, Value stage, Value warpM,
                          Value warpN) const {
    return WaveContext{p, t, as, bs, stage, warpM, warpN, wm, wn, mTiles,
                       nTiles};
  }

  /// The host buffers the kernel reads or writes, in argument order.
  SmallVector<Value> kernelOperands() const {
    SmallVector<Value> operands{p.a, p.b};
    auto add = [&](Value v) {
      if (!llvm::is_contained(operands, v))
        operands.push_back(v);
    };
    if (p.readsC())
      add(p.c);
    for (Value v : p.epilogueInputs)
      add(v);
    add(p.out);
    return operands;
  }

  /// `g`'s payload at loop indices `loopIdx`, its operand `current` (if
  /// any) being `value`, its other operands loaded through their maps.
  Value evaluatePayload(linalg::GenericOp g, ArrayRef<Value> loopIdx,
                        Value current, Value value);
  /// The epilogue ops' payloads on `value`, C's element (row, col): the
  /// value each produces feeds the next; their other operands are loaded
  /// where their indexing maps say.
  Value applyEpilogue(Value batchIdx, Value row, Value col, Value value);
};

Value TiledGemmBuilder::evaluatePayload(linalg::GenericOp g,
                                        ArrayRef<Value> loopIdx,
                                        Value current, Value value) {
  IRMapping map;
  for (OpOperand &operand : g->getOpOperands()) {
    BlockArgument arg = g.getMatchingBlockArgument(&operand);
    if (current && operand.get() == current) {
      map.map(arg, value);
      continue;
    }
    if (arg.use_empty())
      continue; // an output the payload only overwrites
    if (!isa<MemRefType>(operand.get().getType())) {
      map.map(arg, kernelBuffers.lookupOrDefault(operand.get()));
      continue; // a scalar
    }
    SmallVector<Value> indices;
    for (AffineExpr e : g.getMatchingIndexingMap(&operand).getResults())
      indices.push_back(loopIdx[cast<AffineDimExpr>(e).getPosition()]);
    map.map(arg, memref::LoadOp::create(
                     b, loc, kernelBuffers.lookupOrDefault(operand.get()),
                     indices));
  }
  Block *body = g.getBody();
  for (Operation &inner : body->without_terminator()) {
    // The payload's loop indices are the element's (the output map is
    // the identity): there is no linalg op around it any more.
    if (auto indexOp = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(indexOp.getResult(), loopIdx[indexOp.getDim()]);
      continue;
    }
    // Constants from the host function are rebuilt where the payload is.
    for (Value v : inner.getOperands())
      if (!map.contains(v) && v.getParentBlock() != body)
        if (Operation *def = v.getDefiningOp())
          b.clone(*def, map);
    b.clone(inner, map);
  }
  Value yielded = body->getTerminator()->getOperand(0);
  if (!map.contains(yielded) && yielded.getParentBlock() != body)
    if (Operation *def = yielded.getDefiningOp())
      b.clone(*def, map);
  return map.lookupOrDefault(yielded);
}

Value TiledGemmBuilder::applyEpilogue(Value batchIdx, Value row, Value col,
                                       Value value) {
  SmallVector<Value> loopIdx = epilogueLoopIndices(batchIdx, row, col);
  Value current = p.c;
  for (linalg::GenericOp g : p.epilogue) {
    value = evaluatePayload(g, loopIdx, current, value);
    current = g.getDpsInitOperand(0)->get();
  }
  return value;
}

void TiledGemmBuilder::buildGPU(SymbolTable &symbols, StringRef name) {
  MLIRContext *ctx = b.getContext();
  Attribute workgroup = backend.sharedMemorySpace(ctx);
  auto aTileType = MemRefType::get(aTileShape(), p.aElem, nullptr, workgroup);
  auto bTileType = MemRefType::get(bTileShape(), p.bElem, nullptr, workgroup);

  // The kernel is outlined here rather than by gpu-kernel-outlining: its
  // staging buffers need 16-byte alignment (16-byte copies, ldmatrix rows,
  // ds_read_b128), which only a gpu.func's attributions can carry.
  Location hostLoc = loc;
  Block *hostBlock = b.getInsertionBlock();
  Block::iterator hostPoint = b.getInsertionPoint();
  OpBuilder detached(ctx);
  auto module = gpu::GPUModuleOp::create(detached, loc, name);
  symbols.insert(module); // at the end, renamed if the name is taken
  b.setInsertionPointToStart(module.getBody());
  SmallVector<Value> operands = kernelOperands();
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name,
      b.getFunctionType(ValueRange(operands).getTypes(), {}),
      TypeRange{aTileType, bTileType});
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  for (unsigned i = 0; i < 2; ++i)
    kernel.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                       b.getI64IntegerAttr(
                                           backend.stagingAlignment(t)));
  // No launch bounds (known_block_size becomes .reqntid, minctasm
  // .minnctapersm): with either, ptxas targets a register budget these
  // accumulators do not fit in and spills (checked on every chip by
  // test/Pipelines/lowp-pipeline-nvvm-tensor-cores-ptxas.test).
  Block &body = kernel.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  for (auto [host, arg] : llvm::zip(operands, kernel.getArguments()))
    kernelBuffers.map(host, arg);
  aBuf = kernelBuffers.lookup(p.a);
  bBuf = kernelBuffers.lookup(p.b);
  cBuf = kernelBuffers.lookupOrDefault(p.c);
  outBuf = kernelBuffers.lookup(p.out);
  viewConvolutionOperands();
  buildKernelBody(kernel.getWorkgroupAttributions()[0],
                  kernel.getWorkgroupAttributions()[1],
                  gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
                  gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                  gpu::BlockIdOp::create(b, loc, gpu::Dimension::y),
                  gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));

  b.setInsertionPoint(hostBlock, hostPoint);
  gpu::LaunchFuncOp::create(
      b, hostLoc, kernel,
      gpu::KernelDim3{idx(gridX), idx(gridY), idx(p.batch)},
      gpu::KernelDim3{idx(t.threads()), idx(1), idx(1)},
      /*dynamicSharedMemorySize=*/nullptr, operands);
}

void TiledGemmBuilder::buildKernelBody(Value as, Value bs, Value tid,
                                       Value blockX, Value blockY,
                                       Value blockZ) {
  Value batchIdx = blockZ;
  Value rowBase = mul(blockY, t.blockM);
  Value colBase = mul(blockX, t.blockN);
  Value lane = rem(tid, t.waveSize);
  Value warp = div(tid, t.waveSize);
  Value warpM = div(warp, t.warpsN), warpN = rem(warp, t.warpsN);

  // Accumulators start from C (C += A * B).
  SmallVector<Value> acc;
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t i = 0; i < accRegs; ++i) {
        auto [row, col] = accumulatorCoordinates(rowBase, colBase, warpM,
                                                 warpN, lane, mi, ni, i);
        acc.push_back(loadInitial(batchIdx, row, col));
      }

  auto asyncCopy = [&](Value dst, ValueRange dstIdx, Value src,
                       ValueRange srcIdx, int64_t elements, Value inBounds) {
    // A gathered chunk (copyNchwInputTile) is stored now: the stage it
    // fills was last read by instructions retired before the previous
    // iteration's barrier.
    if (isa<VectorType>(src.getType())) {
      copyChunkSync(dst, dstIdx, src, srcIdx, elements, inBounds);
      return;
    }
    backend.asyncCopy(ib, dst, dstIdx, src, srcIdx, elements, inBounds);
  };
  auto syncCopy = [&](Value dst, ValueRange dstIdx, Value src,
                      ValueRange srcIdx, int64_t elements, Value inBounds) {
    copyChunkSync(dst, dstIdx, src, srcIdx, elements, inBounds);
  };
  // S stages: with the back end's asynchronous copies, the next S - 1
  // slices are in flight while the current one is multiplied; without them
  // (two stages), the next slice is loaded into registers before the
  // multiplications and stored to the other stage after them.
  int64_t stages = t.stages;
  bool twoStages = stages == 2;
  bool async = stages >= 2 && backend.hasAsyncCopy(t);
  int64_t ahead = copiesAhead();
  if (async) {
    for (int64_t s = 0; s < ahead; ++s) {
      copySlice(as, bs, tid, idx(s), idx(s * t.blockK), batchIdx, rowBase,
                colBase, asyncCopy);
      backend.commitCopies(ib);
    }
  } else if (twoStages) {
    copySlice(as, bs, tid, idx(0), idx(0), batchIdx, rowBase, colBase,
              syncCopy);
    gpu::BarrierOp::create(b, loc);
  }

  auto kLoop = scf::ForOp::create(b, loc, idx(0), idx(numKTiles), idx(1), acc);
  {
    OpBuilder::InsertionGuard lg(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value kt = kLoop.getInductionVar();
    Value stage;
    // Register-staged chunks of the next slice: (stage, row, col) and value.
    SmallVector<std::tuple<Value, SmallVector<Value>, Value>> prefetched;
    if (async) {
      // Slice kt + D (D = S - 1 - G copies ahead, G instruction groups in
      // flight) goes in flight into the stage slice kt + D - S used: the
      // instructions that read it were retired (at most G groups, slices
      // kt - G .. kt - 1, are pending, none of them in that stage). Past
      // the end of K it is all zero-fill. Then slice kt must have landed:
      // wait until at most the D newest copy groups are pending.
      Value next = add(kt, ahead);
      copySlice(as, bs, tid, rem(next, stages), mul(next, t.blockK), batchIdx,
                rowBase, colBase, asyncCopy);
      backend.commitCopies(ib);
      backend.waitCopies(ib, ahead);
      stage = rem(kt, stages);
    } else if (twoStages) {
      Value next = add(kt, 1);
      copySlice(as, bs, tid, rem(next, 2), mul(next, t.blockK), batchIdx,
                rowBase, colBase,
                [&](Value dst, ValueRange dstIdx, Value src, ValueRange srcIdx,
                    int64_t elements, Value inBounds) {
                  prefetched.emplace_back(
                      dst, llvm::to_vector(dstIdx),
                      loadChunk(src, srcIdx, elements, inBounds));
                });
      stage = rem(kt, 2);
    } else {
      copySlice(as, bs, tid, idx(0), mul(kt, t.blockK), batchIdx, rowBase,
                colBase, syncCopy);
      stage = idx(0);
    }
    if (!twoStages || async) {
      backend.sliceLanded(ib);
      gpu::BarrierOp::create(b, loc);
    }

    WaveContext w = waveContext(as, bs, stage, warpM, warpN);
    SmallVector<Value> cur(kLoop.getRegionIterArgs());
    backend.beginSliceProducts(ib);
    for (int64_t kk = 0; kk < t.blockK / t.mma.k; ++kk) {
      MatrixInstructionBackend::Fragments frags =
          backend.loadFragments(ib, w, lane, kk);
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        SmallVector<Value> aOps = backend.operandsA(ib, w, frags, mi);
        for (int64_t ni = 0; ni < nTiles; ++ni) {
          SmallVector<Value> bOps = backend.operandsB(ib, w, frags, ni);
          int64_t base = (mi * nTiles + ni) * accRegs;
          SmallVector<Value> res = backend.multiplyAccumulate(
              ib, w, aOps, bOps, ArrayRef<Value>(cur).slice(base, accRegs));
          std::copy(res.begin(), res.end(), cur.begin() + base);
        }
      }
    }
    backend.endSliceProducts(ib, groupsInFlight);
    // The next slice lands in the other stage, which nobody reads now.
    for (auto &[dst, dstIdx, value] : prefetched)
      vector::StoreOp::create(b, loc, value, dst, dstIdx,
                              /*nontemporal=*/false, llvm::Align(16));
    // Nobody overwrites a buffer other waves still read (and, staged
    // through registers, the next slice is complete before it is read).
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, cur);
  }
  // The accumulators are read once the last groups are retired.
  if (groupsInFlight)
    backend.retireProducts(ib);

  int64_t width = backend.storeWidth();
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t h = 0; h < accRegs / width; ++h) {
        auto [row, col] = accumulatorCoordinates(
            rowBase, colBase, warpM, warpN, lane, mi, ni, width * h);
        int64_t base = (mi * nTiles + ni) * accRegs + width * h;
        SmallVector<Value> values;
        for (int64_t j = 0; j < width; ++j)
          values.push_back(kLoop.getResult(base + j));
        storeGroup(batchIdx, row, col, values);
      }
}

void TiledGemmBuilder::buildEmulated() {
  Type f32 = b.getF32Type();
  auto alloc = [&](ArrayRef<int64_t> shape, Type elem) -> Value {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, elem));
  };
  int64_t warps = t.warpsM * t.warpsN;
  int64_t lanes = t.waveSize;
  viewConvolutionOperands();
  loop(p.batch, [&](Value batchIdx) {
    loop(gridY, [&](Value by) {
      loop(gridX, [&](Value bx) {
        Value rowBase = mul(by, t.blockM), colBase = mul(bx, t.blockN);
        Value as = alloc(aTileShape(), p.aElem);
        Value bs = alloc(bTileShape(), p.bElem);
        // Registers of every lane of every wave, in memory.
        Value acc = alloc({warps, mTiles, nTiles, lanes, accRegs}, f32);
        auto forEachLaneOfEachWarp =
            [&](function_ref<void(Value, Value, Value, Value)> body) {
              loop(warps, [&](Value warp) {
                Value warpM = div(warp, t.warpsN), warpN = rem(warp, t.warpsN);
                loop(lanes,
                     [&](Value lane) { body(warp, warpM, warpN, lane); });
              });
            };
        forEachLaneOfEachWarp([&](Value warp, Value warpM, Value warpN,
                                  Value lane) {
          for (int64_t mi = 0; mi < mTiles; ++mi)
            for (int64_t ni = 0; ni < nTiles; ++ni)
              for (int64_t i = 0; i < accRegs; ++i) {
                auto [row, col] = accumulatorCoordinates(
                    rowBase, colBase, warpM, warpN, lane, mi, ni, i);
                memref::StoreOp::create(
                    b, loc, loadInitial(batchIdx, row, col), acc,
                    ValueRange{warp, idx(mi), idx(ni), lane, idx(i)});
              }
        });

        auto syncCopy = [&](Value dst, ValueRange dstIdx, Value src,
                            ValueRange srcIdx, int64_t elements,
                            Value inBounds) {
          copyChunkSync(dst, dstIdx, src, srcIdx, elements, inBounds);
        };
        auto copyAllThreads = [&](Value stage, Value k0) {
          loop(t.threads(), [&](Value tid) {
            copySlice(as, bs, tid, stage, k0, batchIdx, rowBase, colBase,
                      syncCopy);
          });
        };
        // Either way of filling the second stage (asynchronous copies or
        // registers) has the same effect once the workgroup synchronizes.
        // The copies land when issued (the earliest), and the instructions
        // of slice kt read their stages when the kernel retires them: with
        // G groups in flight, after the copies of iteration kt + G (the
        // latest). A stage refilled while a pending group still reads it
        // would give that group the wrong slice here.
        int64_t stages = t.stages;
        int64_t ahead = stages >= 2 ? copiesAhead() : 0;
        for (int64_t s = 0; s < ahead; ++s)
          copyAllThreads(idx(s), idx(s * t.blockK));
        loop(numKTiles + groupsInFlight, [&](Value kt) {
          if (stages >= 2) {
            Value next = add(kt, ahead);
            copyAllThreads(rem(next, stages), mul(next, t.blockK));
          } else {
            copyAllThreads(idx(0), mul(kt, t.blockK));
          }
          auto products = [&](Value slice) {
            Value stage = stages >= 2 ? rem(slice, stages) : idx(0);
            loop(warps, [&](Value warp) {
              Value warpM = div(warp, t.warpsN), warpN = rem(warp, t.warpsN);
              WaveContext w = waveContext(as, bs, stage, warpM, warpN);
              for (int64_t kk = 0; kk < t.blockK / t.mma.k; ++kk)
                backend.emulateStep(ib, w, acc, warp, kk);
            });
          };
          if (!groupsInFlight) {
            products(kt);
            return;
          }
          Value retired = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::uge, kt, idx(groupsInFlight));
          auto ifOp = scf::IfOp::create(b, loc, retired);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          products(arith::SubIOp::create(b, loc, kt, idx(groupsInFlight)));
        });

        int64_t width = backend.storeWidth();
        forEachLaneOfEachWarp([&](Value warp, Value warpM, Value warpN,
                                  Value lane) {
          for (int64_t mi = 0; mi < mTiles; ++mi)
            for (int64_t ni = 0; ni < nTiles; ++ni)
              for (int64_t h = 0; h < accRegs / width; ++h) {
                auto [row, col] = accumulatorCoordinates(
                    rowBase, colBase, warpM, warpN, lane, mi, ni, width * h);
                SmallVector<Value> values;
                for (int64_t j = 0; j < width; ++j)
                  values.push_back(memref::LoadOp::create(
                      b, loc, acc,
                      ValueRange{warp, idx(mi), idx(ni), lane,
                                 idx(width * h + j)}));
                storeGroup(batchIdx, row, col, values);
              }
        });
        for (Value buffer : {as, bs, acc})
          memref::DeallocOp::create(b, loc, buffer);
      });
    });
  });
}

} // namespace


/// Whether the builder can lay out `t` for operands of `f`: whole
/// instruction tiles per wave, whole k steps per slice, 16-byte chunks
/// shared evenly by the threads.
static bool tilingIsConsistent(const GPUGemmTiling &t, Format f,
                               const MatrixInstructionBackend &backend,
                               MLIRContext *ctx) {
  if (!backend.supportsTiling(t))
    return false;
  // More than two stages only through asynchronous copies.
  if (!t.warpsM || !t.warpsN || !t.waveSize || t.blockM % (t.warpsM * t.mma.m) ||
      t.blockN % (t.warpsN * t.mma.n) || t.blockK % t.mma.k || t.stages < 1 ||
      t.stages > (backend.hasAsyncCopy(t) ? 4u : 2u))
    return false;
  int64_t chunk = chunkElements(getFloatType(ctx, f));
  unsigned threads = t.threads();
  return t.blockK % chunk == 0 && t.blockN % chunk == 0 &&
         (t.blockM * t.blockK / chunk) % threads == 0 &&
         (t.blockN * t.blockK / chunk) % threads == 0;
}

LogicalResult mlir::lowp::gpu_gemm::lowerContractionsToTiledKernels(
    Operation *root, const TargetInfo &chip, MatrixInstructionBackend &backend,
    bool emulate) {
  MLIRContext *ctx = root->getContext();
  if (failed(checkFP8MatrixOperands(root, chip, backend.instructionName())))
    return failure();
  for (unsigned i = 0; i < kNumFormats; ++i) {
    auto f = static_cast<Format>(i);
    const GPUGemmTiling *t = backend.tableTiling(chip, f);
    if (t && !tilingIsConsistent(*t, f, backend, ctx))
      return root->emitError()
             << "the capability table's " << backend.moduleSuffix()
             << " tiling of " << chip.name << " for " << stringifyFormat(f)
             << " cannot be laid out";
  }

  struct Work {
    linalg::LinalgOp op;
    GemmProblem problem;
    const GPUGemmTiling *tiling;
    int64_t groupsInFlight;
  };
  SmallVector<Work, 0> work;
  root->walk([&](linalg::LinalgOp op) {
    if (!hasLowPrecisionOperands(op))
      return;
    std::string whyNot;
    FailureOr<GemmProblem> problem = matchGemmStructure(op, whyNot);
    FailureOr<const GPUGemmTiling *> tiling = failure();
    if (succeeded(problem))
      tiling = selectTableTiling(*problem, chip, backend, whyNot);
    if (failed(tiling)) {
      emitRemarkAt(op) << "no " << backend.kernelKind() << " kernel for '"
                       << op->getName() << "' on " << chip.name << ": "
                       << whyNot << "; it runs on " << backend.fallbackKernel();
      return;
    }
    // Asynchronous instructions left in flight across slices need a stage
    // for each pending group's slice besides the one being multiplied and
    // one being loaded; with fewer stages every slice waits for its own.
    const GPUGemmTiling &t = **tiling;
    int64_t groupsInFlight = t.mmaGroupsInFlight;
    if (groupsInFlight && t.stages < t.mmaGroupsInFlight + 2) {
      emitRemarkAt(op) << backend.kernelKind() << " kernel for '"
                       << op->getName() << "' on " << chip.name << " with "
                       << t.stages << " stages keeps no "
                       << backend.instructionName()
                       << " group in flight across slices (that needs "
                       << t.mmaGroupsInFlight + 2
                       << " stages: the pending group's, the multiplied and "
                          "the loaded slice's); each slice waits for its "
                          "instructions";
      groupsInFlight = 0;
    }
    problem->stageBTransposed = backend.transposesBWhileStaging(*problem);
    collectEpilogue(op, *problem);
    if (problem->conv)
      foldInputPadding(op, *problem);
    work.push_back({op, *problem, *tiling, groupsInFlight});
  });
  if (!work.empty() && !emulate)
    root->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  SymbolTable symbols(root);
  for (Work &item : work) {
    linalg::LinalgOp op = item.op;
    GemmProblem &problem = item.problem;
    // At the last op the kernel computes: its buffers are all allocated
    // by then, and only allocations and constants lie in between.
    OpBuilder b(problem.epilogue.empty() ? op.getOperation()
                                         : problem.epilogue.back());
    TiledGemmBuilder kernel(b, op.getLoc(), problem, *item.tiling, backend,
                            item.groupsInFlight);
    if (emulate) {
      kernel.buildEmulated();
    } else {
      auto parent = op->getParentOfType<FunctionOpInterface>();
      kernel.buildGPU(symbols, ((parent ? parent.getName() : StringRef("lowp")) +
                                "_" + backend.moduleSuffix())
                                   .str());
    }
    eraseFusedOps(op, problem);
    if (problem.conv && problem.conv->paddedBuffer) {
      // The padded copy of the input is no longer made.
      for (Operation *padding : problem.conv->paddingOps)
        padding->erase();
      Value padded = problem.conv->paddedBuffer;
      if (llvm::all_of(padded.getUsers(),
                       [](Operation *u) { return isa<memref::DeallocOp>(u); })) {
        for (Operation *user : llvm::make_early_inc_range(padded.getUsers()))
          user->erase();
        padded.getDefiningOp()->erase();
      }
    }
  }
  return success();
}
