//===- ConvKernels.cpp - convolution, depthwise and pooling kernels -------===//
//
// linalg.conv_2d_nchw_fchw and conv_2d_nhwc_hwcf as GEMMs on blocks of
// im2col built in the GEMM kernel's own layout, and depthwise convolutions
// (NHWC, NCHW) and pooling windows as a direct register-blocked kernel.
// (The target-independent im2col + linalg.matmul of
// lib/Conversion/LinalgCommon/Im2col.cpp remains the NHWC fallback.)
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Conversion/LinalgCommon/Im2col.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// Why a convolution cannot take its kernel (im2col + GEMM, the NCHW GEMM
/// or the depthwise kernel), or success.
/// The NCHW window kernel (depthwise, pooling) vectorizes along the output
/// row, whose input is read contiguously (stride 1) or as every other
/// element (stride 2); `kernel` names it in the reason.
static LogicalResult checkNchwWindowStride(linalg::LinalgOp op,
                                           StringRef kernel,
                                           std::string &why) {
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  if (strides && *std::next(strides.getValues<int64_t>().begin()) > 2) {
    why = ("stride along W above 2: the NCHW " + kernel +
           " kernel vectorizes output rows")
              .str();
    return failure();
  }
  return success();
}

LogicalResult mlir::lowp::x86::matchConv(linalg::LinalgOp op,
                                         const KernelConfig &cfg,
                                         std::string &why) {
  if (failed(checkConvOperands(op, why, /*dynamicBatch=*/true)))
    return failure();
  if (isa<linalg::DepthwiseConv2DNchwChwOp>(op))
    return checkNchwWindowStride(op, "depthwise", why);
  return success();
}

namespace {
/// How a window kernel combines an input with its accumulator: a
/// depthwise convolution's multiply-add by the filter tap, or a pooling
/// window's max, min or sum (linalg's payloads: arith.maximumf, minimumf,
/// addf).
enum class WindowCombine { Fma, Max, Min, Sum };
} // namespace

bool mlir::lowp::x86::isKernelPooling(linalg::LinalgOp op) {
  return isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcMinOp,
             linalg::PoolingNhwcSumOp, linalg::PoolingNchwMaxOp,
             linalg::PoolingNchwSumOp>(op);
}

static WindowCombine poolingCombine(linalg::LinalgOp op) {
  if (isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNchwMaxOp>(op))
    return WindowCombine::Max;
  if (isa<linalg::PoolingNhwcMinOp>(op))
    return WindowCombine::Min;
  return WindowCombine::Sum;
}

LogicalResult mlir::lowp::x86::matchPooling(linalg::LinalgOp op,
                                            std::string &why) {
  WindowCombine combine = poolingCombine(op);
  if (failed(checkConvBuffers(op, why, /*dynamicBatch=*/true)))
    return failure();
  Value input = op.getDpsInputs()[0], output = op.getDpsInits()[0];
  Type in = getElementTypeOrSelf(input.getType()),
       out = getElementTypeOrSelf(output.getType());
  auto inFloat = dyn_cast<FloatType>(in);
  if (!inFloat || inFloat.getWidth() > 32 ||
      !(out.isF32() || (combine != WindowCombine::Sum && out == in))) {
    why = combine == WindowCombine::Sum
              ? "needs float inputs of at most 32 bits and an f32 output"
              : "needs float inputs of at most 32 bits and an output of "
                "their type or f32";
    return failure();
  }
  if (isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op))
    return checkNchwWindowStride(op, "window", why);
  return success();
}

namespace {

/// Depthwise convolutions (one filter per channel, no reduction across
/// channels: not a GEMM) as a direct register-blocked kernel. Along the
/// contiguous dimension - channels in NHWC, output columns in NCHW - `lanes`
/// values per vector, the last one masked; blocks of accumulators stay in
/// registers across all filter taps (NHWC: pixels x channel vectors, one
/// filter load per tap and vector; NCHW: output rows x column vectors of
/// one channel, its taps broadcast once). Narrow inputs are widened as they
/// are loaded; on AVX2 (no masked narrow loads) their edges go element by
/// element.
///
/// Pooling windows (max, min, sum; `Combine` other than Fma) are the same
/// kernel without a filter: each tap's input is combined with the
/// accumulator by the pooling's operation instead (the window operand only
/// gives KH x KW). Before, a stride-2 pooling (ResNet's stem max pool)
/// went element by element through scalar loops.
template <typename OpTy, bool Nhwc, WindowCombine Combine = WindowCombine::Fma>
struct WindowOpToKernel : OpRewritePattern<OpTy> {
  WindowOpToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern<OpTy>(ctx), cfg(cfg) {}
  static constexpr bool kPooling = Combine != WindowCombine::Fma;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    std::string why;
    auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
    if (failed(kPooling ? matchPooling(linalgOp, why)
                        : matchConv(linalgOp, cfg, why)))
      return rw.notifyMatchFailure(op, why);
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    auto fil = cast<MemRefType>(filter.getType()),
         out = cast<MemRefType>(output.getType());
    Type elem = getElementTypeOrSelf(input.getType()), f32 = rw.getF32Type();
    // A pooling's narrow output (max, min: exact) is written narrowed.
    Type outElem = out.getElementType();
    SmallVector<int64_t> st(op.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dl(op.getDilations().template getValues<int64_t>());
    // NHWC: out[n][y][x][c], filter[i][j][c]; NCHW: out[n][c][y][x],
    // filter[c][i][j].
    int64_t channels = Nhwc ? out.getDimSize(3) : out.getDimSize(1);
    int64_t oh = Nhwc ? out.getDimSize(1) : out.getDimSize(2);
    int64_t ow = Nhwc ? out.getDimSize(2) : out.getDimSize(3);
    // The window of a pooling is [KH][KW] in both layouts.
    int64_t kh = Nhwc || kPooling ? fil.getDimSize(0) : fil.getDimSize(1);
    int64_t kw = Nhwc || kPooling ? fil.getDimSize(1) : fil.getDimSize(2);
    unsigned lanes = cfg.lanes;
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    auto accType = VectorType::get({lanes}, f32);
    auto inVec = VectorType::get({lanes}, elem);
    auto widen = [&](Value v) -> Value {
      if (getElementTypeOrSelf(v.getType()) == f32)
        return v;
      return arith::ExtFOp::create(
          rw, loc, isa<VectorType>(v.getType()) ? Type(accType) : f32, v);
    };
    auto narrowToOut = [&](Value v) -> Value {
      if (outElem == f32)
        return v;
      auto vec = dyn_cast<VectorType>(v.getType());
      return arith::TruncFOp::create(
          rw, loc,
          vec ? Type(VectorType::get(vec.getShape(), outElem)) : outElem, v);
    };
    // The tap's contribution: acc + a * w, or the pooling's operation.
    auto combine = [&](Value a, Value w, Value acc) -> Value {
      switch (Combine) {
      case WindowCombine::Fma:
        return isa<VectorType>(a.getType())
                   ? vector::FMAOp::create(rw, loc, a, w, acc).getResult()
                   : math::FmaOp::create(rw, loc, a, w, acc).getResult();
      case WindowCombine::Max:
        return arith::MaximumFOp::create(rw, loc, acc, a);
      case WindowCombine::Min:
        return arith::MinimumFOp::create(rw, loc, acc, a);
      case WindowCombine::Sum:
        return arith::AddFOp::create(rw, loc, acc, a);
      }
      llvm_unreachable("window combine");
    };
    auto inIx = [&](Value n, Value c, Value iy, Value ix) {
      return Nhwc ? SmallVector<Value>{n, iy, ix, c}
                  : SmallVector<Value>{n, c, iy, ix};
    };
    auto outIx = [&](Value n, Value c, Value y, Value x) {
      return Nhwc ? SmallVector<Value>{n, y, x, c}
                  : SmallVector<Value>{n, c, y, x};
    };
    auto filIx = [&](Value c, Value i, Value j) {
      return Nhwc ? SmallVector<Value>{i, j, c} : SmallVector<Value>{c, i, j};
    };
    // The vectorized dimension: channels (NHWC) or output columns (NCHW).
    int64_t vecExtent = Nhwc ? channels : ow;
    int64_t vecFull = vecExtent / lanes * lanes;
    // AVX2 cannot mask loads of 16-bit types: their edges go element by
    // element (emitOne).
    bool canMask = (elem == f32 && outElem == f32) || cfg.lanes == 16;
    // NCHW at stride 2 along W (MobileNet's downsampling blocks): a tap's
    // input vector is every other element of 2 x lanes contiguous ones.
    int64_t sw = st[1];
    int64_t iw = cast<MemRefType>(input.getType()).getDimSize(Nhwc ? 2 : 3);
    auto spanFits = [&](int64_t firstCol) {
      return firstCol * sw + (kw - 1) * dl[1] + sw * lanes <= iw;
    };
    // NCHW: output columns [0, vecCols) go a vector at a time (the last
    // one masked), the rest element by element; without masks, whole
    // vectors whose loads stay in the row.
    int64_t vecCols = ow;
    if (!Nhwc && !canMask) {
      vecCols = vecFull;
      while (vecCols > 0 && !spanFits(vecCols - lanes))
        vecCols -= lanes;
    }
    bool scalarEdges = Nhwc ? vecFull < vecExtent && !canMask : vecCols < ow;
    // The fill of the output and its elementwise consumer (batch norm,
    // ReLU6) run on the accumulators: the first tap starts from the fill
    // value, the store goes through the consumer into its output.
    std::string whyNot;
    KernelEpilogue epilogue = matchEpilogue(op, output, {input, filter}, whyNot);
    if (epilogue.consumer && (scalarEdges || outElem != f32)) {
      whyNot = scalarEdges
                   ? "the kernel computes the edge columns element by element"
                   : "a narrow pooling output";
      epilogue.consumer = nullptr;
      epilogue.kinds.clear();
      epilogue.dims.clear();
      epilogue.alongCols.clear();
    }
    if (!whyNot.empty())
      op->emitRemark() << "elementwise consumer not fused into '"
                       << op->getName() << "': " << whyNot;
    prepareEpilogue(epilogue, op, rw);
    Value fillValue =
        epilogue.fill ? widen(epilogue.fill->getOperand(0)) : Value();
    // The filter tap (i, j) of channel c, widened (none for a pooling).
    auto tapAt = [&](Value c, Value i, Value j) -> Value {
      if (kPooling)
        return Value();
      return widen(memref::LoadOp::create(rw, loc, filter, filIx(c, i, j)));
    };
    // One output element, every tap (the edges).
    auto emitOne = [&](Value n, Value c, Value y, Value x) {
      Value acc = fillValue ? fillValue
                            : widen(memref::LoadOp::create(rw, loc, output,
                                                           outIx(n, c, y, x)));
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          Value iy = kb.addc(kb.mulc(y, st[0]), i * dl[0]);
          Value ix = kb.addc(kb.mulc(x, st[1]), j * dl[1]);
          Value a = widen(
              memref::LoadOp::create(rw, loc, input, inIx(n, c, iy, ix)));
          acc = combine(a, tapAt(c, kb.idx(i), kb.idx(j)), acc);
        }
      memref::StoreOp::create(rw, loc, narrowToOut(acc), output,
                              outIx(n, c, y, x));
    };
    // The mask of the first `valid` of `width` elements (masked loads and
    // stores); null for all of them or `valid` 0 (no edge).
    auto maskFor = [&](int64_t valid, int64_t width = 0) -> Value {
      width = width ? width : lanes;
      if (!valid || valid >= width)
        return Value();
      return vector::ConstantMaskOp::create(
          rw, loc, VectorType::get({width}, rw.getI1Type()),
          ArrayRef<int64_t>{valid});
    };
    auto loadVec = [&](VectorType t, Value mem, ValueRange ix,
                       Value mask) -> Value {
      if (!mask)
        return vector::LoadOp::create(rw, loc, t, mem, ix);
      Value zero = arith::ConstantOp::create(
          rw, loc, t,
          DenseElementsAttr::get(t, rw.getZeroAttr(t.getElementType())));
      return vector::MaskedLoadOp::create(rw, loc, t, mem, ix, mask, zero);
    };
    auto outVec = VectorType::get({lanes}, outElem);
    auto loadAcc = [&](ArrayRef<Value> ix, Value mask) -> Value {
      return widen(loadVec(outVec, output, ix, mask));
    };
    auto storeAcc = [&](Value acc, ArrayRef<Value> ix, Value mask,
                        const IRMapping *hoisted) {
      if (epilogue.consumer) {
        kb.storeThroughEpilogue(epilogue, acc, ix, mask, hoisted);
        return;
      }
      acc = narrowToOut(acc);
      if (mask)
        vector::MaskedStoreOp::create(rw, loc, output, ix, mask, acc);
      else
        vector::StoreOp::create(rw, loc, acc, output, ix);
    };
    Value splat =
        fillValue ? vector::BroadcastOp::create(rw, loc, accType, fillValue)
                  : Value();

    if constexpr (Nhwc) {
      // A block: output row y, xb pixels from x0, `vecs` channel vectors
      // from c0 in registers across all taps (a loop over filter rows,
      // unrolled over columns): one filter load per tap and channel vector,
      // one input load and FMA per accumulator.
      int64_t xb = 4, cv = 2;
      auto emitBlock = [&](Value n, Value y, Value x0, int64_t pixels,
                           Value c0, int64_t vecs, int64_t partial) {
        Value mask = maskFor(partial);
        auto at = [&](int64_t p, int64_t v) {
          return outIx(n, kb.addc(c0, v * lanes), y, kb.addc(x0, p));
        };
        SmallVector<Value> init;
        for (int64_t p = 0; p < pixels; ++p)
          for (int64_t v = 0; v < vecs; ++v)
            init.push_back(splat ? splat : loadAcc(at(p, v), mask));
        auto rows = scf::ForOp::create(
            rw, loc, kb.idx(0), kb.idx(kh), kb.idx(1), init,
            [&](OpBuilder &nb, Location, Value i, ValueRange accs) {
              OpBuilder::InsertionGuard g(rw);
              rw.setInsertionPoint(nb.getInsertionBlock(),
                                   nb.getInsertionPoint());
              SmallVector<Value> next(accs.begin(), accs.end());
              Value iy = kb.addIdx(kb.mulc(y, st[0]), kb.mulc(i, dl[0]));
              for (int64_t j = 0; j < kw; ++j)
                for (int64_t v = 0; v < vecs; ++v) {
                  Value c = kb.addc(c0, v * lanes);
                  Value w = kPooling
                                ? Value()
                                : widen(loadVec(inVec, filter,
                                                filIx(c, i, kb.idx(j)), mask));
                  for (int64_t p = 0; p < pixels; ++p) {
                    Value x = kb.addc(kb.mulc(kb.addc(x0, p), st[1]),
                                      j * dl[1]);
                    Value a =
                        widen(loadVec(inVec, input, inIx(n, c, iy, x), mask));
                    Value &acc = next[p * vecs + v];
                    acc = combine(a, w, acc);
                  }
                }
              scf::YieldOp::create(rw, loc, next);
            });
        for (int64_t p = 0; p < pixels; ++p)
          for (int64_t v = 0; v < vecs; ++v)
            storeAcc(rows.getResult(p * vecs + v), at(p, v), mask, nullptr);
      };
      int64_t pixelsFull = ow / xb * xb;
      // Output rows are independent (parallel with threads=).
      kb.loop(kb.idx(0), kb.dimSize(output, 0), 1, [&](Value n) {
        kb.loop(oh, 1, [&](Value y) {
          auto overPixels = [&](Value c0, int64_t vecs, int64_t partial) {
            kb.loop(pixelsFull, xb, [&](Value x0) {
              emitBlock(n, y, x0, xb, c0, vecs, partial);
            });
            if (pixelsFull < ow)
              emitBlock(n, y, kb.idx(pixelsFull), ow - pixelsFull, c0, vecs,
                        partial);
          };
          // Full channel vectors, cv at a time, then one at a time; the
          // rest one masked vector of f32 (element by element for narrow
          // types, which AVX2 cannot mask).
          int64_t vecBlocks = vecFull / (cv * lanes) * (cv * lanes);
          kb.loop(vecBlocks, cv * lanes,
                  [&](Value c0) { overPixels(c0, cv, 0); });
          kb.loop(vecBlocks, vecFull, lanes,
                  [&](Value c0) { overPixels(c0, 1, 0); });
          if (vecFull < vecExtent) {
            if (!scalarEdges)
              overPixels(kb.idx(vecFull), 1, vecExtent - vecFull);
            else
              kb.loop(ow, 1, [&](Value x) {
                kb.loop(vecFull, vecExtent, 1,
                        [&](Value c) { emitOne(n, c, y, x); });
              });
          }
        }, /*parallel=*/true);
      });
    } else {
      // Channel by channel (the parallel loop): the kh x kw taps broadcast
      // once, and the epilogue's per-channel part (a batch norm's
      // rsqrt(var + eps) * gamma) computed once. A block of `ry` output
      // rows x `vecs` vectors along a row stays in registers across all
      // taps, fully unrolled: each input row vector is loaded (and
      // widened) once for every output row of the block reading it, so
      // a 3x3 filter at stride 1 takes (ry + 2) x 3 loads per column
      // vector for 9 ry FMAs, and the FMAs of a block are independent.
      int64_t vecsInRow = ceilDiv(vecCols, lanes);
      int64_t vb = std::clamp<int64_t>(vecsInRow, 1, 4);
      int64_t accBudget = lanes >= 16 ? 12 : 8;
      int64_t ry = std::clamp<int64_t>(accBudget / vb, 1, oh);
      // Chunks of vb full vectors in a loop while every load stays in the
      // row unmasked; the rest as blocks at known columns.
      int64_t chunkCols = vecCols / lanes / vb * vb * lanes;
      while (chunkCols > 0 && !spanFits(chunkCols - lanes))
        chunkCols -= vb * lanes;
      // The input vector of output columns x .. x+lanes-1 at column tap j
      // (`staticX`: x when known, -1 in the chunk loop); `needed` of the
      // lanes are used.
      auto loadInput = [&](Value n, Value c, Value iy, Value x,
                           int64_t staticX, int64_t j, int64_t needed) {
        Value start = kb.addc(kb.mulc(x, sw), j * dl[1]);
        // sw x lanes elements from the tap's first column (stride 1: the
        // `needed` ones), masked to what the row holds where known.
        int64_t width = sw * lanes;
        int64_t inRow = sw == 1 ? needed : width;
        if (staticX >= 0)
          inRow = std::min(inRow, iw - (staticX * sw + j * dl[1]));
        Value raw = loadVec(VectorType::get({width}, elem), input,
                            inIx(n, c, iy, start), maskFor(inRow, width));
        if (sw != 1) {
          // Every sw-th element, shuffled as integers (some targets
          // scalarize shuffles of 16-bit float vectors).
          auto intSpan = VectorType::get(
              {sw * lanes}, rw.getIntegerType(elem.getIntOrFloatBitWidth()));
          Value bits = vector::BitCastOp::create(rw, loc, intSpan, raw);
          SmallVector<int64_t> picks;
          for (int64_t l = 0; l < lanes; ++l)
            picks.push_back(l * sw);
          Value picked = vector::ShuffleOp::create(rw, loc, bits, bits, picks);
          raw = vector::BitCastOp::create(rw, loc, inVec, picked);
        }
        return widen(raw);
      };
      // Output rows y0 .. y0+rows-1, `vecs` vectors from column x0
      // (`staticX0`: x0 when known, -1 otherwise), the last one `last`
      // elements wide (0: all lanes).
      auto emitBlock = [&](Value n, Value c, ArrayRef<Value> taps,
                           const IRMapping *perChannel, Value y0,
                           int64_t rows, Value x0, int64_t staticX0,
                           int64_t vecs, int64_t last) {
        auto maskOf = [&](int64_t v) {
          return v == vecs - 1 ? maskFor(last) : Value();
        };
        auto at = [&](int64_t r, int64_t v) {
          return outIx(n, c, kb.addc(y0, r), kb.addc(x0, v * lanes));
        };
        SmallVector<Value> acc;
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t v = 0; v < vecs; ++v)
            acc.push_back(splat ? splat : loadAcc(at(r, v), maskOf(v)));
        Value iy0 = kb.mulc(y0, st[0]);
        int64_t inputRows = (rows - 1) * st[0] + (kh - 1) * dl[0] + 1;
        for (int64_t q = 0; q < inputRows; ++q) {
          // The (output row, filter row) pairs reading input row iy0 + q.
          SmallVector<std::pair<int64_t, int64_t>> readers;
          for (int64_t r = 0; r < rows; ++r)
            if ((q - r * st[0]) % dl[0] == 0 && q >= r * st[0] &&
                (q - r * st[0]) / dl[0] < kh)
              readers.push_back({r, (q - r * st[0]) / dl[0]});
          if (readers.empty())
            continue;
          Value iy = kb.addc(iy0, q);
          for (int64_t j = 0; j < kw; ++j)
            for (int64_t v = 0; v < vecs; ++v) {
              int64_t needed = v == vecs - 1 && last ? last : lanes;
              Value a = loadInput(
                  n, c, iy, kb.addc(x0, v * lanes),
                  staticX0 < 0 ? -1 : staticX0 + v * lanes, j, needed);
              for (auto [r, i] : readers) {
                Value &sum = acc[r * vecs + v];
                sum = combine(a, kPooling ? Value() : taps[i * kw + j], sum);
              }
            }
        }
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t v = 0; v < vecs; ++v)
            storeAcc(acc[r * vecs + v], at(r, v), maskOf(v), perChannel);
      };
      kb.loop(kb.idx(0), kb.dimSize(output, 0), 1, [&](Value n) {
        kb.loop(channels, 1, [&](Value c) {
          SmallVector<Value> taps;
          for (int64_t i = 0; i < kh && !kPooling; ++i)
            for (int64_t j = 0; j < kw; ++j)
              taps.push_back(vector::BroadcastOp::create(
                  rw, loc, accType, tapAt(c, kb.idx(i), kb.idx(j))));
          IRMapping perChannel;
          if (epilogue.consumer)
            perChannel = kb.hoistEpilogue(
                epilogue, outIx(n, c, kb.idx(0), kb.idx(0)),
                KernelBuilder::EpilogueHoist::SameForRowsAndColumns, Value());
          auto overColumns = [&](Value y0, int64_t rows) {
            kb.loop(chunkCols, vb * lanes, [&](Value x0) {
              emitBlock(n, c, taps, &perChannel, y0, rows, x0, -1, vb, 0);
            });
            for (int64_t x = chunkCols; x < vecCols; x += vb * lanes) {
              int64_t cols = std::min(vb * lanes, vecCols - x);
              emitBlock(n, c, taps, &perChannel, y0, rows, kb.idx(x), x,
                        ceilDiv(cols, lanes), cols % lanes);
            }
            for (int64_t r = 0; r < rows; ++r)
              kb.loop(vecCols, ow, 1, [&](Value x) {
                emitOne(n, c, kb.addc(y0, r), x);
              });
          };
          int64_t rowsFull = oh / ry * ry;
          kb.loop(rowsFull, ry, [&](Value y0) { overColumns(y0, ry); });
          if (rowsFull < oh)
            overColumns(kb.idx(rowsFull), oh - rowsFull);
        }, /*parallel=*/true);
      });
    }
    rw.eraseOp(op);
    finishEpilogue(epilogue, rw);
    return success();
  }
  KernelConfig cfg;
};

/// linalg.conv_2d_nchw_fchw (torch-mlir's default layout) as GEMMs:
/// out[n] (F x OH*OW) += filter (F x C*KH*KW) * col (C*KH*KW x OH*OW), the
/// filter and output viewed as matrices in place. col is built for a block
/// of R output rows at a time, sized to stay in L2, directly in the layout
/// the kernel reads (f32 rows, or VNNI pairs of rows for the bf16 dot), so
/// it is written once and read from cache: no separate packing pass and no
/// full-size buffer. At stride 1 a row of OW pixels is a contiguous run of
/// the input, copied a vector at a time.
struct ConvNchwToKernel : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  ConvNchwToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rw) const override {
    std::string why;
    if (failed(matchConv(op, cfg, why)))
      return rw.notifyMatchFailure(op, why);
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    auto fil = cast<MemRefType>(filter.getType()),
         out = cast<MemRefType>(output.getType());
    Type elem = fil.getElementType();
    Type f32 = rw.getF32Type();
    bool dot = cfg.bf16Dot && elem.isBF16();
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    int64_t f = out.getDimSize(1),
            oh = out.getDimSize(2), ow = out.getDimSize(3),
            c = fil.getDimSize(1), kh = fil.getDimSize(2),
            kw = fil.getDimSize(3);
    int64_t depth = c * kh * kw;
    // The bf16 dot reads K in pairs: an odd K (a stem's 3 colours x 3 x 3)
    // gets a zero k row in col and a zero column in a copy of the filter.
    int64_t kDepth = dot ? depth + depth % 2 : depth;
    // Rows per block: col within a quarter of the L2 (256 KiB on Zen 4:
    // the mixed ResNet block measured 6% faster than with half), preferring
    // a pixel count that is a multiple of nr (no masked last panel).
    Type colElem = dot ? elem : f32;
    int64_t bytes = colElem.getIntOrFloatBitWidth() / 8;
    int64_t budget = cfg.l2Bytes ? cfg.l2Bytes / 4 : 256 * 1024;
    int64_t rowsPerBlock =
        std::clamp<int64_t>(budget / std::max<int64_t>(1, kDepth * ow * bytes),
                            1, oh);
    for (int64_t r = rowsPerBlock; r * 2 > rowsPerBlock; --r)
      if (r * ow % cfg.nr == 0) {
        rowsPerBlock = r;
        break;
      }
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    MatrixOperand a;
    a.mem = memref::CollapseShapeOp::create(
        rw, loc, filter, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    Value cMat = memref::CollapseShapeOp::create(
        rw, loc, output, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    // The fill of the output and its elementwise consumer (batch norm,
    // ReLU, residual) run in the kernel, on the accumulators: the consumer
    // reads per-channel operands as broadcast scalars of the row (F) and
    // full-size ones through the same collapse as C.
    KernelEpilogue epilogue =
        matchEpilogueOrRemark(op, cMat, {input, filter});
    prepareEpilogue(epilogue, op, rw);
    int64_t blockCols = ceilDiv(rowsPerBlock * ow, cfg.nr) * cfg.nr;
    MemRefType colType = dot
                             ? MemRefType::get({kDepth / 2, 2 * blockCols}, elem)
                             : MemRefType::get({depth, blockCols}, f32);
    // With a few blocks of rows or more, they are what threads= shares out
    // (each its own col: one per block, in the workspace with one thread);
    // the im2col copy and the panels of one block are then sequential. With
    // fewer, a block's copy and panels are the parallel loops (a block's
    // parallel regions alone are short: 0.88x at 2 threads on the ResNet
    // block, whose 7 blocks are now shared out).
    int64_t fullRows = oh / rowsPerBlock * rowsPerBlock;
    bool blocksParallel = fullRows / rowsPerBlock >= 4;
    Value sharedCol = blocksParallel ? Value() : kb.alloc(colType);
    // The filter as the kernel's A (widened once for the f32 kernel; with
    // an odd K, copied with a zero last column).
    Value paddedFilter;
    if (kDepth != depth) {
      paddedFilter = kb.alloc(MemRefType::get({f, kDepth}, elem));
      Value zero = arith::ConstantOp::create(rw, loc, rw.getZeroAttr(elem));
      kb.loop(f, 1, [&](Value row) {
        kb.loop(depth, 1, [&](Value k) {
          Value v = memref::LoadOp::create(rw, loc, a.mem, ValueRange{row, k});
          memref::StoreOp::create(rw, loc, v, paddedFilter, ValueRange{row, k});
        });
        memref::StoreOp::create(rw, loc, zero, paddedFilter,
                                ValueRange{row, kb.idx(depth)});
      });
      a.mem = paddedFilter;
    }
    Value aCopy;
    SmallVector<Value> aIx;
    bool aTransposed;
    Value aMem = kb.prepareA(a, {}, f, kDepth, dot, aCopy, aIx, aTransposed);
    auto vec = VectorType::get({cfg.lanes}, elem);
    auto f32Vec = VectorType::get({cfg.lanes}, f32);
    auto widen = [&](Value v) -> Value {
      if (dot || elem == f32)
        return v;
      return arith::ExtFOp::create(rw, loc, isa<VectorType>(v.getType())
                                                ? Type(f32Vec)
                                                : f32,
                                   v);
    };
    // Input coordinates of filter tap `kk` = (ci, i, j): channel, row and
    // column offsets (decoded once per col row and block, not per output
    // row); `at(y)` adds output row y.
    struct Tap {
      Value ci, iy, jx;
    };
    struct TapOffsets {
      Value ci, iOffset, jx;
    };
    auto decodeTap = [&](Value kk) {
      Value ci = arith::DivUIOp::create(rw, loc, kk, kb.idx(kh * kw));
      Value ij = arith::RemUIOp::create(rw, loc, kk, kb.idx(kh * kw));
      Value i = arith::DivUIOp::create(rw, loc, ij, kb.idx(kw));
      Value j = arith::RemUIOp::create(rw, loc, ij, kb.idx(kw));
      return TapOffsets{ci, kb.mulc(i, dilations[0]), kb.mulc(j, dilations[1])};
    };
    auto tapAt = [&](const TapOffsets &t, Value y) {
      return Tap{t.ci, kb.addIdx(kb.mulc(y, strides[0]), t.iOffset), t.jx};
    };
    // Output columns copied a vector at a time: at stride 1 a contiguous
    // run of the input; at stride 2 two runs with the even elements
    // shuffled out, the second one starting an element early so that it
    // ends on the last element used (input column 2 (x + lanes - 1) + j,
    // inside the row for every x + lanes <= OW: the op's shapes guarantee
    // inW >= 2 (OW - 1) + jMax + 1). A row's last OW mod lanes columns are
    // one more run ending at column OW - 1, which rewrites columns already
    // copied with the same values; element by element only when OW < lanes
    // or at larger strides.
    int64_t lanes = cfg.lanes;
    bool vectorRuns = strides[1] == 1 || strides[1] == 2;
    SmallVector<int64_t> evens;
    for (int64_t l = 0; l < lanes; l += 2)
      evens.push_back(l);
    for (int64_t l = 0; l < lanes; l += 2)
      evens.push_back(lanes + l + 1);
    // `lanes` input values of tap `t` for output columns x.., image ni.
    Value niCur;
    auto loadRun = [&](const Tap &t, Value x) -> Value {
      Value x0 = kb.addIdx(kb.mulc(x, strides[1]), t.jx);
      Value first = vector::LoadOp::create(rw, loc, vec, input,
                                           ValueRange{niCur, t.ci, t.iy, x0});
      if (strides[1] == 1)
        return first;
      Value second = vector::LoadOp::create(
          rw, loc, vec, input,
          ValueRange{niCur, t.ci, t.iy, kb.addc(x0, lanes - 1)});
      // On integers of the element's width (bf16 shuffles may be
      // scalarized).
      auto asInt = VectorType::get(
          {lanes}, rw.getIntegerType(elem.getIntOrFloatBitWidth()));
      Value a = vector::BitCastOp::create(rw, loc, asInt, first);
      Value b = vector::BitCastOp::create(rw, loc, asInt, second);
      Value even = vector::ShuffleOp::create(rw, loc, a, b, evens);
      return vector::BitCastOp::create(rw, loc, vec, even);
    };
    // col for rows [y0, y0 + rows), then the GEMM on its pixels. Each col
    // row (or VNNI row pair) is written for all the block's rows in turn:
    // sequential stores, its taps decoded once.
    auto emitBlock = [&](Value ni, Value y0, int64_t rows) {
      niCur = ni;
      Value col = sharedCol ? sharedCol : kb.alloc(colType);
      kb.zeroRowTails(col, rows * ow * (dot ? 2 : 1));
      // The pixels of output row y (first col column p0) of tap `t`.
      auto copyRow = [&](const Tap &t, function_ref<void(Value, Value)> store,
                         function_ref<void(Value, Value)> storeOne) {
        auto one = [&](Value x) {
          Value ix = kb.addIdx(kb.mulc(x, strides[1]), t.jx);
          storeOne(x, memref::LoadOp::create(rw, loc, input,
                                             ValueRange{ni, t.ci, t.iy, ix}));
        };
        if (!vectorRuns) {
          kb.loop(ow, 1, one);
          return;
        }
        kb.emitVectorizedLoopOverlappingTail(
            ow, lanes, [&](Value x) { store(x, loadRun(t, x)); }, one);
      };
      auto forRows = [&](function_ref<void(Value, Value)> body) {
        kb.loop(rows, 1, [&](Value r) {
          body(kb.addIdx(y0, r), kb.mulc(r, ow));
        });
      };
      // Each k (pair) fills its own col row (parallel with threads=).
      if (!dot) {
        kb.loop(depth, 1, [&](Value kk) {
          TapOffsets offsets = decodeTap(kk);
          forRows([&](Value y, Value p0) {
            copyRow(
                tapAt(offsets, y),
                [&](Value x, Value v) {
                  vector::StoreOp::create(rw, loc, widen(v), col,
                                          ValueRange{kk, kb.addIdx(p0, x)});
                },
                [&](Value x, Value v) {
                  memref::StoreOp::create(rw, loc, widen(v), col,
                                          ValueRange{kk, kb.addIdx(p0, x)});
                });
          });
        }, /*parallel=*/true);
      } else {
        // VNNI: rows 2kk2 and 2kk2+1 interleaved, pixel by pixel; with an
        // odd K, the last pair's second row is zeros.
        auto emitPair = [&](Value kk2, bool onlyEven) {
          TapOffsets evenTap = decodeTap(kb.mulc(kk2, 2));
          std::optional<TapOffsets> oddTap;
          if (!onlyEven)
            oddTap = decodeTap(kb.addc(kb.mulc(kk2, 2), 1));
          forRows([&](Value y, Value p0) {
            Tap even = tapAt(evenTap, y);
            auto pairAt = [&](Value x) -> SmallVector<Value, 2> {
              return {kk2, kb.mulc(kb.addIdx(p0, x), 2)};
            };
            // Vector runs land in every other slot: strided stores would
            // be scalar, so the even and odd rows are interleaved in
            // registers when the run is full and stored pairwise
            // otherwise. The odd row's pass stores both (the even run
            // loaded again); without an odd row, the even pass stores it
            // with zeros.
            if (onlyEven) {
              Value zeros = arith::ConstantOp::create(
                  rw, loc, vec,
                  DenseElementsAttr::get(vec, rw.getZeroAttr(elem)));
              Value zero =
                  arith::ConstantOp::create(rw, loc, rw.getZeroAttr(elem));
              copyRow(
                  even,
                  [&](Value x, Value v) {
                    Value pairs =
                        vector::InterleaveOp::create(rw, loc, v, zeros);
                    vector::StoreOp::create(rw, loc, pairs, col, pairAt(x));
                  },
                  [&](Value x, Value v) {
                    Value at = kb.mulc(kb.addIdx(p0, x), 2);
                    memref::StoreOp::create(rw, loc, v, col,
                                            ValueRange{kk2, at});
                    memref::StoreOp::create(rw, loc, zero, col,
                                            ValueRange{kk2, kb.addc(at, 1)});
                  });
              return;
            }
            for (int64_t e = 0; e < 2; ++e)
              copyRow(
                  e ? tapAt(*oddTap, y) : even,
                  [&](Value x, Value v) {
                    if (e == 0)
                      return;
                    vector::StoreOp::create(
                        rw, loc,
                        vector::InterleaveOp::create(rw, loc, loadRun(even, x),
                                                     v),
                        col, pairAt(x));
                  },
                  [&](Value x, Value v) {
                    memref::StoreOp::create(
                        rw, loc, v, col,
                        ValueRange{kk2,
                                   kb.addc(kb.mulc(kb.addIdx(p0, x), 2), e)});
                  });
          });
        };
        kb.loop(depth / 2, 1, [&](Value kk2) { emitPair(kk2, false); },
                /*parallel=*/true);
        if (kDepth != depth)
          emitPair(kb.idx(depth / 2), true);
      }
      kb.emitKernel(aMem, aIx, aTransposed, col, cMat, ni, f, rows * ow,
                    kDepth, dot, /*bRowMajor=*/true, kb.mulc(y0, ow),
                    /*packSlice=*/nullptr, &epilogue);
      if (!sharedCol)
        kb.dealloc(col);
    };
    kb.loop(kb.idx(0), kb.dimSize(output, 0), 1, [&](Value ni) {
      kb.loop(fullRows, rowsPerBlock,
              [&](Value y0) { emitBlock(ni, y0, rowsPerBlock); },
              /*parallel=*/blocksParallel);
      if (fullRows < oh)
        emitBlock(ni, kb.idx(fullRows), oh - fullRows);
    });
    if (aCopy)
      kb.dealloc(aCopy);
    if (paddedFilter)
      kb.dealloc(paddedFilter);
    if (sharedCol)
      kb.dealloc(sharedCol);
    rw.eraseOp(op);
    finishEpilogue(epilogue, rw);
    return success();
  }
  KernelConfig cfg;
};

/// linalg.conv_2d_nhwc_hwcf as GEMMs on blocks of output pixels:
/// out (N*OH*OW x F) = col (N*OH*OW x KH*KW*C) * filter (KH*KW*C x F), the
/// filter (packed once, like any B) and the output viewed as matrices in
/// place. col is built for a block of P pixels at a time, sized to stay in
/// L2 while every panel of the filter passes by, directly in the layout the
/// kernel reads as A (rows of KH*KW*C: f32, or bf16 read in pairs by the
/// dot): no full-size im2col buffer written to and read back from memory.
/// Runs of C channels are contiguous in the input and in col, copied a
/// vector at a time, at any stride and dilation. Takes priority over the
/// target-independent im2col + linalg.matmul rewrite (left for operands
/// matchConv rejects, which then get the matmul's remark).
///
/// linalg.conv_2d_nhwc_fhwc (TOSA's and IREE's filter layout, F x KH x KW
/// x C) is the same GEMM with the filter viewed as F x KH*KW*C: a
/// transposed B, packed once through register transposes like an
/// nn.Linear weight.
template <typename OpTy>
struct ConvNhwcToKernel : OpRewritePattern<OpTy> {
  /// The filter's dimensions are F, KH, KW, C (else KH, KW, C, F).
  static constexpr bool kFilterFirst =
      std::is_same_v<OpTy, linalg::Conv2DNhwcFhwcOp>;
  ConvNhwcToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/2), cfg(cfg) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rw) const override {
    std::string why;
    if (failed(matchConv(op, cfg, why)))
      return rw.notifyMatchFailure(op, why);
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    auto fil = cast<MemRefType>(filter.getType()),
         out = cast<MemRefType>(output.getType());
    Type elem = fil.getElementType(), f32 = rw.getF32Type();
    SmallVector<int64_t> strides(op.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().template getValues<int64_t>());
    unsigned first = kFilterFirst ? 1 : 0;
    int64_t oh = out.getDimSize(1), ow = out.getDimSize(2),
            f = out.getDimSize(3), kh = fil.getDimSize(first),
            kw = fil.getDimSize(first + 1), c = fil.getDimSize(first + 2);
    // Pixels are blocked across images, or per image when the batch is
    // dynamic (`forEachImage`).
    bool dynamicBatch = out.isDynamicDim(0);
    int64_t pixels = (dynamicBatch ? 1 : out.getDimSize(0)) * oh * ow,
            depth = kh * kw * c;
    // The bf16 dot reads K in pairs; an odd KH*KW*C (a first layer on 3
    // colour channels) takes the f32 FMA kernel on col and filter widened
    // while they are copied: exact, and col is copied anyway.
    bool dot = cfg.dotFor(elem, depth);
    // Pixels per block: col within half the L2 (next to the packed filter;
    // a quarter measured no faster here), a multiple of the kernel's row
    // block (no tail rows but in the last block).
    int64_t nhwcBudget = cfg.l2Bytes ? cfg.l2Bytes / 2 : 512 * 1024;
    Type colElem = dot ? elem : f32;
    int64_t rowBytes = depth * colElem.getIntOrFloatBitWidth() / 8;
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    int64_t quantum = kb.rowBlockQuantum(dot);
    int64_t blockPixels = std::max<int64_t>(
        quantum, nhwcBudget / std::max<int64_t>(1, rowBytes) / quantum *
                     quantum);
    blockPixels = std::min(blockPixels, pixels);
    MatrixOperand b;
    b.mem = memref::CollapseShapeOp::create(
        rw, loc, filter,
        kFilterFirst ? ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}}
                     : ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    b.transposed = kFilterFirst;
    Value cMat = memref::CollapseShapeOp::create(
        rw, loc, output, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    // The fill and the elementwise consumer (batch norm, ReLU, residual)
    // run on the accumulators, per-channel operands along the columns.
    KernelEpilogue epilogue =
        matchEpilogueOrRemark(op, cMat, {input, filter});
    prepareEpilogue(epilogue, op, rw);
    Value packed = kb.packB(b, {}, f, depth, elem, dot);
    // body(first pixel): once for all pixels, or per image of a dynamic
    // batch.
    auto forEachImage = [&](function_ref<void(Value)> body) {
      if (!dynamicBatch) {
        body(kb.idx(0));
        return;
      }
      kb.loop(kb.idx(0), kb.dimSize(output, 0), 1,
              [&](Value ni) { body(kb.mulc(ni, oh * ow)); });
    };
    // Filter tap `tap` of KH x KW as its offsets along the input's rows
    // and columns (dilated).
    auto tapOffsets = [&](Value tap) -> std::pair<Value, Value> {
      Value i = arith::DivUIOp::create(rw, loc, tap, kb.idx(kw));
      Value j = arith::RemUIOp::create(rw, loc, tap, kb.idx(kw));
      return {kb.mulc(i, dilations[0]), kb.mulc(j, dilations[1])};
    };
    // The vector kernel reads A in place from the input, a filter tap's C
    // channels at a time (no im2col copy): every row of A is an output
    // pixel with its own address, so blocks of rows may cross output rows.
    // AMX tiles need evenly spaced rows (in place at stride 1 below, else
    // an im2col copy), and the f32 kernel reads f32 (a narrow input is
    // widened first, below, or by the im2col copy of a dynamic batch).
    bool tiles = dot && cfg.amxTile.valid();
    // Without the dot, a narrow input is widened once into an f32 copy of
    // the image (one pass over it: a ninth of a 3x3 im2col's copies), which
    // the f32 kernel then reads in place.
    auto inType = cast<MemRefType>(input.getType());
    Value widenedInput;
    if (!dot && !inType.getElementType().isF32() && !dynamicBatch &&
        inType.getLayout().isIdentity()) {
      int64_t images = inType.getDimSize(0);
      int64_t perImage = inType.getNumElements() / std::max<int64_t>(images, 1);
      Value flat = memref::CollapseShapeOp::create(
          rw, loc, input, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
      widenedInput = kb.widenCopy(flat, {}, images, perImage);
      input = memref::ExpandShapeOp::create(
          rw, loc, MemRefType::get(inType.getShape(), f32), widenedInput,
          ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    }
    bool direct =
        !tiles && (dot ? c % 2 == 0
                       : getElementTypeOrSelf(input.getType()) == f32);
    // Blocks of about 128 pixels (parallel with threads=, enough of them
    // to share out evenly), each a GEMM of its own rows: nothing to keep in
    // L2 but the filter.
    auto emitDirectBlock = [&](Value p0, int64_t count) {
      KernelBuilder::SegmentedA segA;
      segA.source = input;
      segA.segmentSteps = dot ? c / 2 : c;
      segA.rowState = [&, p0](Value r) -> SmallVector<Value> {
        Value p = kb.addIdx(p0, r);
        Value ni = arith::DivUIOp::create(rw, loc, p, kb.idx(oh * ow));
        Value yx = arith::RemUIOp::create(rw, loc, p, kb.idx(oh * ow));
        Value y = arith::DivUIOp::create(rw, loc, yx, kb.idx(ow));
        Value x = arith::RemUIOp::create(rw, loc, yx, kb.idx(ow));
        return {ni, kb.mulc(y, strides[0]), kb.mulc(x, strides[1])};
      };
      segA.start = [&](ArrayRef<Value> st, Value tap) -> SmallVector<Value> {
        auto [di, dj] = tapOffsets(tap);
        return {st[0], kb.addIdx(st[1], di), kb.addIdx(st[2], dj), kb.idx(0)};
      };
      kb.emitKernel(input, {}, /*aTransposed=*/false, packed, cMat, {},
                    count, f, depth, dot, /*bRowMajor=*/false,
                    /*cColOffset=*/nullptr, /*packSlice=*/nullptr,
                    &epilogue, /*prefetchSource=*/nullptr,
                    /*cRowOffset=*/p0, &segA);
    };
    if (direct) {
      int64_t chunk = std::min(pixels, ceilDiv(128, quantum) * quantum);
      int64_t fullChunks = pixels / chunk * chunk;
      forEachImage([&](Value base) {
        kb.loop(fullChunks, chunk,
                [&](Value p0) { emitDirectBlock(kb.addIdx(base, p0), chunk); },
                /*parallel=*/true);
        if (fullChunks < pixels)
          emitDirectBlock(kb.addc(base, fullChunks), pixels - fullChunks);
      });
      kb.dealloc(packed);
      if (widenedInput)
        kb.dealloc(widenedInput);
      rw.eraseOp(op);
      finishEpilogue(epilogue, rw);
      return success();
    }
    // AMX tiles read A in place too at stride 1, with the image taken as
    // one long row of pixels: output pixel (y, x) reads, for tap (i, j),
    // input pixel (y + i d0, x + j d1), row q + (i d0 IW + j d1) of the
    // image flattened to (IH*IW) x C, q = y IW + x. The GEMM runs on every
    // q in [0, (OH-1) IW + OW) - the IW - OW columns past each output row
    // are computed and dropped (2 of 58 for a padded 3x3 on 56 columns) -
    // so 16 consecutive rows are 16 evenly spaced runs: one tile load per
    // tap and 32 channels. The GEMM writes blocks of q rows into an f32
    // buffer from the fill value; the fused consumer (or a plain store)
    // then takes the valid rows into the output. Needs the fill (C is not
    // read) and a tap's channels in whole tiles.
    bool tileRows = tiles && strides[0] == 1 && strides[1] == 1 &&
                    c % cfg.amxTile.k == 0 && epilogue.fill;
    if (tileRows) {
      auto in = cast<MemRefType>(input.getType());
      int64_t iw = in.getDimSize(2);
      int64_t imageRows = (oh - 1) * iw + ow;
      Value flat = memref::CollapseShapeOp::create(
          rw, loc, input, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}});
      // Blocks of 512 q rows (128 KiB of f32 rows for 64 filters).
      int64_t rangeRows =
          std::min(imageRows, 16 * kb.rowBlockQuantum(/*dot=*/true));
      KernelEpilogue fillOnly;
      fillOnly.fill = epilogue.fill;
      unsigned lanes = cfg.lanes;
      auto rowVec = VectorType::get({int64_t(lanes)}, f32);
      int64_t vectors = ceilDiv(f, int64_t(lanes));
      Value tailMask;
      if (f % lanes)
        tailMask = vector::ConstantMaskOp::create(
            rw, loc, VectorType::get({int64_t(lanes)}, rw.getI1Type()),
            ArrayRef<int64_t>{f % int64_t(lanes)});
      auto emitRange = [&](Value ni, Value q0, int64_t count) {
        Value rows = kb.alloc(MemRefType::get({count, f}, f32));
        KernelBuilder::SegmentedA segA;
        segA.source = flat;
        segA.segmentSteps = c / 2;
        segA.rowsEvenlySpaced = true;
        segA.rowState = [&, ni, q0](Value r) -> SmallVector<Value> {
          return {ni, kb.addIdx(q0, r)};
        };
        segA.start = [&](ArrayRef<Value> st, Value tap) -> SmallVector<Value> {
          auto [di, dj] = tapOffsets(tap);
          Value offset = kb.addIdx(kb.mulc(di, iw), dj);
          return {st[0], kb.addIdx(st[1], offset), kb.idx(0)};
        };
        kb.emitKernel(flat, {}, /*aTransposed=*/false, packed, rows, {},
                      count, f, depth, dot, /*bRowMajor=*/false,
                      /*cColOffset=*/nullptr, /*packSlice=*/nullptr,
                      &fillOnly, /*prefetchSource=*/nullptr,
                      /*cRowOffset=*/nullptr, &segA);
        // The valid rows into the output, through the consumer. What
        // does not depend on the pixel is computed once per block.
        bool perRow = epilogue.consumer &&
                      KernelBuilder::epilogueHasRowOperands(epilogue, 0);
        SmallVector<IRMapping> perColumns;
        if (epilogue.consumer && !perRow)
          for (int64_t v = 0; v < vectors; ++v)
            perColumns.push_back(kb.hoistEpilogue(
                epilogue, {kb.idx(0), kb.idx(v * lanes)},
                KernelBuilder::EpilogueHoist::SameForEveryRow,
                v + 1 == vectors ? tailMask : Value()));
        kb.loop(count, 1, [&](Value r) {
          Value q = kb.addIdx(q0, r);
          Value y = arith::DivUIOp::create(rw, loc, q, kb.idx(iw));
          Value x = arith::RemUIOp::create(rw, loc, q, kb.idx(iw));
          Value valid = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult,
                                              x, kb.idx(ow));
          scf::IfOp::create(rw, loc, valid, [&](OpBuilder &nb, Location) {
            OpBuilder::InsertionGuard g(rw);
            rw.setInsertionPoint(nb.getInsertionBlock(),
                                 nb.getInsertionPoint());
            Value p = kb.addIdx(kb.mulc(ni, oh * ow),
                                kb.addIdx(kb.mulc(y, ow), x));
            IRMapping sameInRow;
            if (perRow)
              sameInRow = kb.hoistEpilogue(
                  epilogue, {p, kb.idx(0)},
                  KernelBuilder::EpilogueHoist::SameForEveryColumn, Value());
            Value zero = arith::ConstantOp::create(
                rw, loc, rowVec,
                DenseElementsAttr::get(rowVec, rw.getZeroAttr(f32)));
            for (int64_t v = 0; v < vectors; ++v) {
              Value mask = v + 1 == vectors ? tailMask : Value();
              Value col = kb.idx(v * lanes);
              Value acc =
                  mask ? vector::MaskedLoadOp::create(rw, loc, rowVec, rows,
                                                      ValueRange{r, col}, mask,
                                                      zero)
                             .getResult()
                       : vector::LoadOp::create(rw, loc, rowVec, rows,
                                                ValueRange{r, col})
                             .getResult();
              if (!epilogue.consumer) {
                if (mask)
                  vector::MaskedStoreOp::create(rw, loc, cMat, ValueRange{p, col},
                                                mask, acc);
                else
                  vector::StoreOp::create(rw, loc, acc, cMat,
                                          ValueRange{p, col});
                continue;
              }
              kb.storeThroughEpilogue(epilogue, acc, {p, col}, mask,
                                      perRow ? &sameInRow : &perColumns[v]);
            }
            scf::YieldOp::create(rw, loc);
          });
        });
        kb.dealloc(rows);
      };
      kb.loop(kb.idx(0), kb.dimSize(output, 0), 1, [&](Value ni) {
        int64_t fullRanges = imageRows / rangeRows * rangeRows;
        kb.loop(fullRanges, rangeRows,
                [&](Value q0) { emitRange(ni, q0, rangeRows); },
                /*parallel=*/true);
        if (fullRanges < imageRows)
          emitRange(ni, kb.idx(fullRanges), imageRows - fullRanges);
      });
      kb.dealloc(packed);
      rw.eraseOp(op);
      finishEpilogue(epilogue, rw);
      return success();
    }
    Value col = kb.alloc(MemRefType::get({blockPixels, depth}, colElem));
    auto colVec = VectorType::get({cfg.lanes}, colElem);
    // Channels copied a full vector register at a time: 16-bit ones copied
    // as they are (not widened) fill it at twice the f32 lanes.
    unsigned copyLanes = cfg.lanes;
    if (colElem == elem && elem.getIntOrFloatBitWidth() == 16 &&
        c >= int64_t(2 * cfg.lanes))
      copyLanes = 2 * cfg.lanes;
    auto widen = [&](Value v) -> Value {
      if (colElem == elem)
        return v;
      return arith::ExtFOp::create(
          rw, loc, isa<VectorType>(v.getType()) ? Type(colVec) : f32, v);
    };
    // col rows for pixels [p0, p0 + count), then the GEMM into C's rows
    // p0...
    auto emitBlock = [&](Value p0, int64_t count) {
      // Each pixel fills its own col row (parallel with threads=).
      kb.loop(count, 1, [&](Value r) {
        Value p = kb.addIdx(p0, r);
        Value ni = arith::DivUIOp::create(rw, loc, p, kb.idx(oh * ow));
        Value yx = arith::RemUIOp::create(rw, loc, p, kb.idx(oh * ow));
        Value y = arith::DivUIOp::create(rw, loc, yx, kb.idx(ow));
        Value x = arith::RemUIOp::create(rw, loc, yx, kb.idx(ow));
        emitNhwcIm2colRow(kb, input, col, ni, y, x, r, strides, dilations,
                          kh, kw, c, copyLanes, widen);
      }, /*parallel=*/true);
      kb.emitKernel(col, {}, /*aTransposed=*/false, packed, cMat, {}, count,
                    f, depth, dot, /*bRowMajor=*/false,
                    /*cColOffset=*/nullptr, /*packSlice=*/nullptr,
                    &epilogue, /*prefetchSource=*/nullptr,
                    /*cRowOffset=*/p0);
    };
    int64_t fullPixels = pixels / blockPixels * blockPixels;
    forEachImage([&](Value base) {
      kb.loop(fullPixels, blockPixels,
              [&](Value p0) { emitBlock(kb.addIdx(base, p0), blockPixels); });
      if (fullPixels < pixels)
        emitBlock(kb.addc(base, fullPixels), pixels - fullPixels);
    });
    kb.dealloc(col);
    kb.dealloc(packed);
    rw.eraseOp(op);
    finishEpilogue(epilogue, rw);
    return success();
  }
  KernelConfig cfg;
};

/// linalg.depthwise_conv_2d_nhwc_hwcm with a channel multiplier of 1
/// (TOSA's depthwise_conv2d lowers to it) is depthwise_conv_2d_nhwc_hwc on
/// the filter and output without their unit last dimension: rewritten so
/// on views of the same buffers, for the depthwise kernel to take.
struct DepthwiseUnitMultiplierToHwc
    : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "not on buffers");
    Value filter = op.getDpsInputs()[1], output = op.getDpsInits()[0];
    auto fil = dyn_cast<MemRefType>(filter.getType());
    auto out = dyn_cast<MemRefType>(output.getType());
    if (!fil || !out || fil.getDimSize(3) != 1 ||
        !getPlainMemRef(filter, 4) || !getPlainMemRef(output, 5))
      return rw.notifyMatchFailure(
          op, "a channel multiplier other than 1, or strided operands");
    Location loc = op.getLoc();
    Value fil3 = memref::CollapseShapeOp::create(
        rw, loc, filter, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    Value out4 = memref::CollapseShapeOp::create(
        rw, loc, output,
        ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    linalg::DepthwiseConv2DNhwcHwcOp::create(
        rw, loc, TypeRange{}, ValueRange{op.getDpsInputs()[0], fil3},
        ValueRange{out4}, op.getStrides(), op.getDilations());
    rw.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::lowp::x86::populateConvKernelPatterns(RewritePatternSet &patterns,
                                                 const KernelConfig &cfg) {
  patterns.add<
      ConvNchwToKernel, ConvNhwcToKernel<linalg::Conv2DNhwcHwcfOp>,
      ConvNhwcToKernel<linalg::Conv2DNhwcFhwcOp>,
      WindowOpToKernel<linalg::DepthwiseConv2DNhwcHwcOp, true>,
      WindowOpToKernel<linalg::DepthwiseConv2DNchwChwOp, false>,
      WindowOpToKernel<linalg::PoolingNhwcMaxOp, true, WindowCombine::Max>,
      WindowOpToKernel<linalg::PoolingNhwcMinOp, true, WindowCombine::Min>,
      WindowOpToKernel<linalg::PoolingNhwcSumOp, true, WindowCombine::Sum>,
      WindowOpToKernel<linalg::PoolingNchwMaxOp, false, WindowCombine::Max>,
      WindowOpToKernel<linalg::PoolingNchwSumOp, false, WindowCombine::Sum>>(
      patterns.getContext(), cfg);
  patterns.add<DepthwiseUnitMultiplierToHwc>(patterns.getContext());
  if (cfg.winograd)
    populateWinogradConvPatterns(patterns, cfg);
}
