//===- LowerContractions.cpp - lowp-x86-lower-contractions ----------------===//
//
// Rewrites a bufferized linalg.matmul / linalg.batch_matmul into a packed,
// register-blocked micro-kernel for x86:
//
//  * B is packed once per call into column panels of `nr` columns so the
//    k loop reads it contiguously. On AVX512_BF16 a bf16 B is packed into
//    VNNI pairs (k/2 x nr x 2) for vdpbf16ps; elsewhere it is widened to f32
//    while packing (the widening is a shift, see SoftFloatConversions), so
//    bf16 stays the storage format and costs O(n^2) conversions, not O(n^3).
//  * An mr x nr block of C lives in vector registers (scf.for iter_args)
//    across the whole k loop: per k step, nr/VL vector loads of B, mr
//    broadcasts of A and mr*nr/VL FMAs (or vdpbf16ps).
//
//===----------------------------------------------------------------------===//

#include "lowp/IR/TargetResolution.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPX86LOWERCONTRACTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// The register block and instruction choice of one target.
struct KernelConfig {
  unsigned lanes; ///< f32 lanes per vector register (8: AVX2, 16: AVX-512)
  unsigned mr, nr;
  unsigned kc;  ///< k block (0: all of k)
  unsigned mc;  ///< row block (0: all of m)
  bool bf16Dot; ///< vdpbf16ps available (AVX512_BF16)
  /// AMX tile (rows x columns x k) for bf16, when AMX is requested and the
  /// target has it; invalid otherwise.
  TileShape amxTile;
};

/// A statically shaped, identity-layout memref of rank `rank`.
static MemRefType getPlainMemRef(Value v, unsigned rank) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != rank || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return nullptr;
  return type;
}

class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const KernelConfig &cfg)
      : b(b), loc(loc), cfg(cfg) {}

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value addc(Value x, int64_t c) {
    return c ? arith::AddIOp::create(b, loc, x, idx(c)).getResult() : x;
  }
  Value mulc(Value x, int64_t c) {
    return c == 1 ? x : arith::MulIOp::create(b, loc, x, idx(c)).getResult();
  }
  /// for (i = 0; i < n; i += step) body(i). `parallel`: the iterations
  /// write disjoint memory and read nothing another one writes; the loop
  /// carries `lowp.parallel`, which lowp-parallelize-loops (threads= of
  /// lowp-pipeline-x86) turns into an scf.parallel.
  void loop(int64_t n, int64_t step, function_ref<void(Value)> body,
            bool parallel = false) {
    auto forOp = scf::ForOp::create(
        b, loc, idx(0), idx(n), idx(step), ValueRange{},
        [&](OpBuilder &nb, Location, Value iv, ValueRange) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          body(iv);
          scf::YieldOp::create(b, loc);
        });
    if (parallel)
      forOp->setAttr(lowp::LowpDialect::getParallelLoopAttrName(),
                     b.getUnitAttr());
  }

  /// C[m x n] += A[m x k] * B[k x n] (memrefs, maybe offset by `batch`).
  void emitMatmul(Value a, Value bMat, Value c, ValueRange batch, int64_t m,
                  int64_t n, int64_t k, Type elem) {
    bool dot = cfg.bf16Dot && elem.isBF16();
    Type f32 = b.getF32Type();
    unsigned lanes = cfg.lanes;
    unsigned nv = cfg.nr / lanes;
    auto accType = VectorType::get({lanes}, f32);
    auto at = [&](std::initializer_list<Value> ix) {
      SmallVector<Value> all(batch.begin(), batch.end());
      all.append(ix.begin(), ix.end());
      return all;
    };

    // Pack B into panels of nr columns: [n/nr][k][nr] (f32) or, for the
    // bf16 dot, VNNI pairs [n/nr][k/2][2*nr] (bf16).
    int64_t panels = n / cfg.nr;
    MemRefType packedType =
        dot ? MemRefType::get({panels, k / 2, 2 * cfg.nr}, elem)
            : MemRefType::get({panels, k, cfg.nr}, f32);
    Value packed =
        memref::AllocOp::create(b, loc, packedType, b.getI64IntegerAttr(64));
    auto narrowVec = VectorType::get({lanes}, elem);
    // Panels are packed independently (parallel).
    loop(panels, 1, [&](Value jb) {
      Value col0 = mulc(jb, cfg.nr);
      loop(dot ? k / 2 : k, 1, [&](Value kk) {
        for (unsigned v = 0; v < nv; ++v) {
          Value col = addc(col0, v * lanes);
          if (dot) {
            Value row0 = mulc(kk, 2);
            Value even = vector::LoadOp::create(b, loc, narrowVec, bMat,
                                                at({row0, col}));
            Value odd = vector::LoadOp::create(b, loc, narrowVec, bMat,
                                               at({addc(row0, 1), col}));
            Value pairs = vector::InterleaveOp::create(b, loc, even, odd);
            vector::StoreOp::create(b, loc, pairs, packed,
                                    {jb, kk, idx(2 * v * lanes)});
          } else {
            Value x =
                vector::LoadOp::create(b, loc, narrowVec, bMat, at({kk, col}));
            if (elem != f32)
              x = arith::ExtFOp::create(b, loc, accType, x);
            vector::StoreOp::create(b, loc, x, packed,
                                    {jb, kk, idx(v * lanes)});
          }
        }
      });
    }, /*parallel=*/true);

    // The f32 kernel broadcasts scalars of A, read in place (packing A into
    // row panels measured slower here: the k loop's broadcasts stream mr
    // rows well). A narrow A is widened once into an f32 copy, vectorized:
    // O(m*k) shifts.
    int64_t tail = m % cfg.mr;
    Value aEff = a, widenedA;
    SmallVector<Value> aBatch(batch.begin(), batch.end());
    if (!dot && elem != f32) {
      widenedA = memref::AllocOp::create(b, loc, MemRefType::get({m, k}, f32),
                                         b.getI64IntegerAttr(64));
      bool vectorized = k % lanes == 0;
      loop(m, 1, [&](Value i) {
        loop(k, vectorized ? lanes : 1, [&](Value kk) {
          if (vectorized) {
            Value x = vector::LoadOp::create(b, loc, narrowVec, a, at({i, kk}));
            vector::StoreOp::create(b, loc,
                                    arith::ExtFOp::create(b, loc, accType, x),
                                    widenedA, {i, kk});
          } else {
            Value x = memref::LoadOp::create(b, loc, a, at({i, kk}));
            memref::StoreOp::create(b, loc,
                                    arith::ExtFOp::create(b, loc, f32, x),
                                    widenedA, {i, kk});
          }
        });
      });
      aEff = widenedA;
      aBatch.clear();
    }

    // The register-blocked kernel.
    auto pairVec = VectorType::get({2}, elem);
    auto pairAsInt = VectorType::get({1}, b.getI32Type());
    auto bcastInt = VectorType::get({lanes}, b.getI32Type());
    auto dotOperand = VectorType::get({2 * lanes}, elem);
    unsigned unroll = 1;
    // One mr-row block (mr = `blockRows`) of one panel.
    auto emitBlock = [&](Value jb, Value row0, unsigned blockRows, Value kBegin,
                         Value kEnd) {
      Value col0 = mulc(jb, cfg.nr);
      SmallVector<Value> rows, init;
      for (unsigned r = 0; r < blockRows; ++r)
        rows.push_back(addc(row0, r));
      for (unsigned r = 0; r < blockRows; ++r)
        for (unsigned v = 0; v < nv; ++v)
          init.push_back(vector::LoadOp::create(
              b, loc, accType, c, at({rows[r], addc(col0, v * lanes)})));
      auto kLoop = scf::ForOp::create(
          b, loc, kBegin, kEnd, idx(unroll), init,
          [&](OpBuilder &nb, Location, Value kLoopIv, ValueRange accs) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            SmallVector<Value> next(accs.begin(), accs.end());
            for (unsigned u = 0; u < unroll; ++u) {
              Value kk = addc(kLoopIv, u);
              SmallVector<Value> bv;
              for (unsigned v = 0; v < nv; ++v)
                bv.push_back(vector::LoadOp::create(
                    b, loc, dot ? dotOperand : accType, packed,
                    {jb, kk, idx((dot ? 2 : 1) * v * lanes)}));
              // Column of A's pair in the dot kernel, of A's scalar else.
              Value aCol = dot ? mulc(kk, 2) : kk;
              for (unsigned r = 0; r < blockRows; ++r) {
                SmallVector<Value> aIx(batch.begin(), batch.end());
                aIx.push_back(rows[r]);
                Value av;
                if (dot) {
                  // One pair of A (two bf16 = one i32) splat to every lane.
                  aIx.push_back(aCol);
                  Value pair = vector::LoadOp::create(b, loc, pairVec, a, aIx);
                  Value asInt =
                      vector::BitCastOp::create(b, loc, pairAsInt, pair);
                  Value scalar = vector::ExtractOp::create(b, loc, asInt, 0);
                  Value splat =
                      vector::BroadcastOp::create(b, loc, bcastInt, scalar);
                  av = vector::BitCastOp::create(b, loc, dotOperand, splat);
                } else {
                  SmallVector<Value> aEffIx(aBatch.begin(), aBatch.end());
                  aEffIx.append({rows[r], aCol});
                  Value scalar = memref::LoadOp::create(b, loc, aEff, aEffIx);
                  av = vector::BroadcastOp::create(b, loc, accType, scalar);
                }
                for (unsigned v = 0; v < nv; ++v) {
                  Value &acc = next[r * nv + v];
                  acc = dot ? x86vector::DotBF16Op::create(b, loc, accType, acc,
                                                           av, bv[v])
                                  .getResult()
                            : vector::FMAOp::create(b, loc, av, bv[v], acc)
                                  .getResult();
                }
              }
            }
            scf::YieldOp::create(b, loc, next);
          });
      for (unsigned r = 0; r < blockRows; ++r)
        for (unsigned v = 0; v < nv; ++v)
          vector::StoreOp::create(b, loc, kLoop.getResult(r * nv + v), c,
                                  at({rows[r], addc(col0, v * lanes)}));
    };
    // K blocks of kc (GotoBLAS): the kc x nr slice of a B panel stays in L1
    // and the m x kc slice of A in L2 while every block of C passes by.
    int64_t kSteps = dot ? k / 2 : k;
    int64_t kcSteps = std::min<int64_t>(
        kSteps,
        cfg.kc ? std::max<int64_t>(1, dot ? cfg.kc / 2 : cfg.kc) : kSteps);
    // The k loop is unrolled when every k block divides evenly: fewer
    // loop-control instructions among the FMAs / dots.
    unroll = (kSteps % kcSteps == 0 && kcSteps % 4 == 0) ? 4 : 1;
    loop(kSteps, kcSteps, [&](Value kBegin) {
      Value kEnd =
          arith::MinSIOp::create(b, loc, addc(kBegin, kcSteps), idx(kSteps));
      // Row blocks of mc (a multiple of mr): the mc x kc block of A stays
      // in L2 while every panel of B passes by.
      int64_t full = m - tail;
      int64_t mcRows =
          cfg.mc ? std::max<int64_t>(cfg.mr, cfg.mc / cfg.mr * cfg.mr) : full;
      if (full > 0) {
        loop(full, std::min(mcRows, full), [&](Value ic) {
          Value icEnd = arith::MinSIOp::create(
              b, loc, addc(ic, std::min(mcRows, full)), idx(full));
          loop(panels, 1, [&](Value jb) {
            scf::ForOp::create(
                b, loc, ic, icEnd, idx(cfg.mr), ValueRange{},
                [&](OpBuilder &nb, Location, Value row0, ValueRange) {
                  OpBuilder::InsertionGuard g(b);
                  b.setInsertionPoint(nb.getInsertionBlock(),
                                      nb.getInsertionPoint());
                  emitBlock(jb, row0, cfg.mr, kBegin, kEnd);
                  scf::YieldOp::create(b, loc);
                });
          }, /*parallel=*/true);
        });
      }
      if (tail)
        loop(
            panels, 1,
            [&](Value jb) { emitBlock(jb, idx(full), tail, kBegin, kEnd); },
            /*parallel=*/true);
    });
    memref::DeallocOp::create(b, loc, packed);
    if (widenedA)
      memref::DeallocOp::create(b, loc, widenedA);
  }

  /// True when the AMX kernel covers an m x n x k bf16 matmul: 2 x 2 C
  /// tiles per block (4 accumulators, 2 A and 2 B tiles: all 8 tmm).
  bool amxCovers(int64_t m, int64_t n, int64_t k, Type elem) const {
    const TileShape &t = cfg.amxTile;
    return t.valid() && elem.isBF16() && m % (2 * t.m) == 0 &&
           n % (2 * t.n) == 0 && k % t.k == 0;
  }

  /// C[m x n] += A[m x k] * B[k x n] on AMX (tdpbf16ps): B packed into VNNI
  /// panels of 2 tile columns, 2 x 2 accumulator tiles carried across k.
  void emitAmxMatmul(Value a, Value bMat, Value c, int64_t m, int64_t n,
                     int64_t k, Type elem) {
    const TileShape &t = cfg.amxTile;
    int64_t cols = 2 * t.n, rows = 2 * t.m, panels = n / cols;
    // VNNI panels as a 2-D buffer, one row per (panel, k pair), so a B tile
    // is t.k/2 consecutive rows of 2*t.n values.
    auto packedType = MemRefType::get({panels * (k / 2), 2 * cols}, elem);
    Value packed =
        memref::AllocOp::create(b, loc, packedType, b.getI64IntegerAttr(64));
    auto half = VectorType::get({t.n}, elem);
    loop(panels, 1, [&](Value jb) {
      loop(k / 2, 1, [&](Value kk) {
        Value row = addIdx(mulc(jb, k / 2), kk);
        for (int64_t v = 0; v < 2; ++v) {
          Value col = addc(mulc(jb, cols), v * t.n);
          Value even =
              vector::LoadOp::create(b, loc, half, bMat, {mulc(kk, 2), col});
          Value odd = vector::LoadOp::create(b, loc, half, bMat,
                                             {addc(mulc(kk, 2), 1), col});
          Value pairs = vector::InterleaveOp::create(b, loc, even, odd);
          vector::StoreOp::create(b, loc, pairs, packed,
                                  {row, idx(2 * v * t.n)});
        }
      });
    });
    auto accType =
        amx::TileType::get({int64_t(t.m), int64_t(t.n)}, b.getF32Type());
    auto inType = amx::TileType::get({int64_t(t.m), int64_t(2 * t.n)}, elem);
    loop(panels, 1, [&](Value jb) {
      loop(m, rows, [&](Value row0) {
        SmallVector<Value> init;
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t h = 0; h < 2; ++h)
            init.push_back(amx::TileLoadOp::create(
                b, loc, accType, c,
                ValueRange{addc(row0, r * t.m),
                           addc(mulc(jb, cols), h * t.n)}));
        auto kLoop = scf::ForOp::create(
            b, loc, idx(0), idx(k / 2), idx(t.k / 2), init,
            [&](OpBuilder &nb, Location, Value k2, ValueRange accs) {
              OpBuilder::InsertionGuard g(b);
              b.setInsertionPoint(nb.getInsertionBlock(),
                                  nb.getInsertionPoint());
              Value bRow = addIdx(mulc(jb, k / 2), k2);
              Value tb[2], ta[2];
              for (int64_t h = 0; h < 2; ++h)
                tb[h] = amx::TileLoadOp::create(
                    b, loc, inType, packed, ValueRange{bRow, idx(2 * h * t.n)});
              for (int64_t r = 0; r < 2; ++r)
                ta[r] = amx::TileLoadOp::create(
                    b, loc, inType, a,
                    ValueRange{addc(row0, r * t.m), mulc(k2, 2)});
              SmallVector<Value> next;
              for (int64_t r = 0; r < 2; ++r)
                for (int64_t h = 0; h < 2; ++h)
                  next.push_back(amx::TileMulFOp::create(
                      b, loc, accType, ta[r], tb[h], accs[r * 2 + h]));
              scf::YieldOp::create(b, loc, next);
            });
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t h = 0; h < 2; ++h)
            amx::TileStoreOp::create(
                b, loc, c,
                ValueRange{addc(row0, r * t.m), addc(mulc(jb, cols), h * t.n)},
                kLoop.getResult(r * 2 + h));
      });
    });
    memref::DeallocOp::create(b, loc, packed);
  }

private:
  Value addIdx(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }

  OpBuilder &b;
  Location loc;
  const KernelConfig &cfg;
};

/// Checks that `op` is a plain (default maps) bufferized contraction of
/// same-typed float inputs (at most 32 bits) into f32, N divisible by nr.
template <typename OpTy>
static LogicalResult matchContraction(OpTy op, const KernelConfig &cfg,
                                      unsigned rank, PatternRewriter &rw) {
  if (!op.hasPureBufferSemantics() || op.hasUserDefinedMaps())
    return rw.notifyMatchFailure(op, "needs buffers and default maps");
  MemRefType a = getPlainMemRef(op.getDpsInputs()[0], rank);
  MemRefType bt = getPlainMemRef(op.getDpsInputs()[1], rank);
  MemRefType c = getPlainMemRef(op.getDpsInits()[0], rank);
  if (!a || !bt || !c)
    return rw.notifyMatchFailure(op, "needs static identity-layout memrefs");
  Type elem = a.getElementType();
  // Inputs narrower than f32 (bf16, f16, FP8) are widened while packing.
  auto floatElem = dyn_cast<FloatType>(elem);
  if (elem != bt.getElementType() || !floatElem || floatElem.getWidth() > 32 ||
      !c.getElementType().isF32())
    return rw.notifyMatchFailure(op, "needs float inputs of at most 32 "
                                     "bits of one type and an f32 output");
  int64_t k = a.getDimSize(rank - 1), n = bt.getDimSize(rank - 1);
  if (n % cfg.nr || (cfg.bf16Dot && elem.isBF16() && k % 2))
    return rw.notifyMatchFailure(op, "shape not divisible by the block");
  return success();
}

struct MatmulToKernel : OpRewritePattern<linalg::MatmulOp> {
  MatmulToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rw) const override {
    if (failed(matchContraction(op, cfg, 2, rw)))
      return failure();
    auto a = cast<MemRefType>(op.getDpsInputs()[0].getType());
    auto bt = cast<MemRefType>(op.getDpsInputs()[1].getType());
    KernelBuilder kb(rw, op.getLoc(), cfg);
    int64_t m = a.getDimSize(0), n = bt.getDimSize(1), k = a.getDimSize(1);
    if (kb.amxCovers(m, n, k, a.getElementType()))
      kb.emitAmxMatmul(op.getDpsInputs()[0], op.getDpsInputs()[1],
                       op.getDpsInits()[0], m, n, k, a.getElementType());
    else
      kb.emitMatmul(op.getDpsInputs()[0], op.getDpsInputs()[1],
                    op.getDpsInits()[0], {}, m, n, k, a.getElementType());
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

struct BatchMatmulToKernel : OpRewritePattern<linalg::BatchMatmulOp> {
  BatchMatmulToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rw) const override {
    if (failed(matchContraction(op, cfg, 3, rw)))
      return failure();
    auto a = cast<MemRefType>(op.getDpsInputs()[0].getType());
    auto bt = cast<MemRefType>(op.getDpsInputs()[1].getType());
    KernelBuilder kb(rw, op.getLoc(), cfg);
    // Batches are independent (parallel): each packs its own B.
    kb.loop(a.getDimSize(0), 1, [&](Value batch) {
      kb.emitMatmul(op.getDpsInputs()[0], op.getDpsInputs()[1],
                    op.getDpsInits()[0], batch, a.getDimSize(1),
                    bt.getDimSize(2), a.getDimSize(2), a.getElementType());
    }, /*parallel=*/true);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// linalg.conv_2d_nhwc_hwcf -> im2col + linalg.matmul, which the kernel
/// patterns above then lower: col[(n, oh, ow), (kh, kw, c)] is copied from
/// the input once (O(output pixels x KH*KW*C), in the input's type), the
/// filter and the output are the same buffers viewed as matrices.
struct ConvToMatmul : OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  ConvToMatmul(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "needs buffers");
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    MemRefType in = getPlainMemRef(input, 4), fil = getPlainMemRef(filter, 4),
               out = getPlainMemRef(output, 4);
    if (!in || !fil || !out)
      return rw.notifyMatchFailure(op, "needs static identity-layout memrefs");
    Type elem = in.getElementType();
    if (elem != fil.getElementType() || !isa<FloatType>(elem) ||
        !out.getElementType().isF32())
      return rw.notifyMatchFailure(op, "needs float inputs, f32 output");
    int64_t f = fil.getDimSize(3);
    if (f % cfg.nr)
      return rw.notifyMatchFailure(op, "filters not divisible by nr");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    int64_t n = out.getDimSize(0), oh = out.getDimSize(1),
            ow = out.getDimSize(2), kh = fil.getDimSize(0),
            kw = fil.getDimSize(1), c = fil.getDimSize(2);
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    int64_t rows = n * oh * ow, depth = kh * kw * c;
    Value col =
        memref::AllocOp::create(rw, loc, MemRefType::get({rows, depth}, elem),
                                rw.getI64IntegerAttr(64));
    kb.loop(n, 1, [&](Value ni) {
      kb.loop(oh, 1, [&](Value y) {
        kb.loop(ow, 1, [&](Value x) {
          // row = (ni * oh + y) * ow + x
          Value row = arith::AddIOp::create(
              rw, loc,
              kb.mulc(arith::AddIOp::create(rw, loc, kb.mulc(ni, oh), y), ow),
              x);
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              Value iy = kb.addc(kb.mulc(y, strides[0]), i * dilations[0]);
              Value ix = kb.addc(kb.mulc(x, strides[1]), j * dilations[1]);
              kb.loop(c, 1, [&](Value ci) {
                Value v = memref::LoadOp::create(rw, loc, input,
                                                 ValueRange{ni, iy, ix, ci});
                memref::StoreOp::create(
                    rw, loc, v, col,
                    ValueRange{row, kb.addc(ci, (i * kw + j) * c)});
              });
            }
        });
      });
    });
    Value filterMatrix = memref::CollapseShapeOp::create(
        rw, loc, filter, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    Value outputMatrix = memref::CollapseShapeOp::create(
        rw, loc, output, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    linalg::MatmulOp::create(rw, loc, ValueRange{col, filterMatrix},
                             ValueRange{outputMatrix});
    memref::DeallocOp::create(rw, loc, col);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

struct LowpX86LowerContractionsPass
    : lowp::impl::LowpX86LowerContractionsBase<LowpX86LowerContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(root, cpu);
    if (failed(resolved))
      return signalPassFailure();
    // Without a target, the baseline every x86-64 machine here has.
    const TargetInfo *info = *resolved ? *resolved : lookupTarget("avx2");
    if (info->vendor != Vendor::X86) {
      root->emitError() << "'" << info->name << "' is not an x86 target";
      return signalPassFailure();
    }
    // A bf16 matrix unit on x86 is AVX512_BF16, which implies AVX-512F:
    // 16 f32 lanes. Otherwise AVX2's 8.
    KernelConfig cfg;
    cfg.bf16Dot = info->hasMatrixUnit(Format::BF16);
    cfg.lanes = cfg.bf16Dot ? 16 : 8;
    // Defaults fill the register file: 6x16 (12 ymm accumulators) on AVX2,
    // 8x32 (16 zmm) with AVX-512.
    cfg.mr = mr ? unsigned(mr) : (cfg.bf16Dot ? 8 : 6);
    cfg.nr = nr ? unsigned(nr) : 2 * cfg.lanes;
    // AMX-BF16's tile (16 x 16 f32 accumulators, k = 32 bf16) is the
    // table's 16-bit matrix tile on chips where it is more than a vdpbf16ps
    // pair.
    if (amx) {
      if (!cfg.bf16Dot || info->tile16.k <= 2) {
        root->emitError() << "amx requested but '" << info->name
                          << "' has no AMX-BF16";
        return signalPassFailure();
      }
      cfg.amxTile = info->tile16;
    }
    cfg.kc = kc;
    cfg.mc = mc;
    if (cfg.nr % cfg.lanes) {
      root->emitError() << "nr=" << cfg.nr << " is not a multiple of the "
                        << cfg.lanes << " f32 lanes of " << info->name;
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<MatmulToKernel, BatchMatmulToKernel, ConvToMatmul>(
        &getContext(), cfg);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
