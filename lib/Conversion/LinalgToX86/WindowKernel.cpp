//===- WindowKernel.cpp - depthwise and pooling window kernel -------------===//
//
// Depthwise convolutions (NHWC, NCHW) and pooling windows (max, min, sum)
// as a direct register-blocked kernel: one kernel, the window's combine
// (a filter tap's multiply-add or the pooling's operation) its parameter.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelEmitter.h"
#include "NchwRowReader.h"
#include "lowp/Conversion/LinalgCommon/Im2col.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

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
/// gives KH x KW), so a stride-2 pooling (ResNet's stem max pool) is
/// vectorized too.
///
/// The setup both layouts share (shapes, the fused epilogue, the element
/// helpers) is in the constructor, then the NHWC or the NCHW loop nest.
template <typename OpTy, bool Nhwc, WindowCombine Combine>
class WindowKernelEmitter : public ConvKernelEmitter {
public:
  static constexpr bool kPooling = Combine != WindowCombine::Fma;

  static LogicalResult match(OpTy op, const KernelConfig &cfg,
                             std::string &why) {
    auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
    return kPooling ? matchPooling(linalgOp, why)
                    : matchConv(linalgOp, cfg, why);
  }

  WindowKernelEmitter(OpTy op, PatternRewriter &rw, const KernelConfig &cfg);

  /// The kernel, before `op`; the caller erases op and finishes the
  /// epilogue.
  void emit() {
    if constexpr (Nhwc)
      emitNhwc();
    else
      emitNchw();
  }

private:
  Value widen(Value v);
  Value narrowToOut(Value v);
  /// The tap's contribution: acc + a * w, or the pooling's operation.
  Value combine(Value a, Value w, Value acc);
  SmallVector<Value> inIx(Value n, Value c, Value iy, Value ix) const {
    return Nhwc ? SmallVector<Value>{n, iy, ix, c}
                : SmallVector<Value>{n, c, iy, ix};
  }
  SmallVector<Value> outIx(Value n, Value c, Value y, Value x) const {
    return Nhwc ? SmallVector<Value>{n, y, x, c}
                : SmallVector<Value>{n, c, y, x};
  }
  SmallVector<Value> filIx(Value c, Value i, Value j) const {
    return Nhwc ? SmallVector<Value>{i, j, c} : SmallVector<Value>{c, i, j};
  }
  /// NCHW: whether a vector of output columns from `firstCol` reads its
  /// input within the row at every tap.
  bool spanFits(int64_t firstCol) const {
    return rowReader->spanFits(firstCol, kw);
  }
  /// The filter tap (i, j) of channel c, widened (none for a pooling).
  Value tapAt(Value c, Value i, Value j);
  /// One output element, every tap (the edges).
  void emitOne(Value n, Value c, Value y, Value x);
  /// The mask of the first `valid` of `width` elements (masked loads and
  /// stores); null for all of them or `valid` 0 (no edge).
  Value maskFor(int64_t valid, int64_t width = 0);
  Value loadVec(VectorType t, Value mem, ValueRange ix, Value mask);
  Value loadAcc(ArrayRef<Value> ix, Value mask) {
    return widen(loadVec(outVec, output, ix, mask));
  }
  void storeAcc(Value acc, ArrayRef<Value> ix, Value mask,
                const IRMapping *hoisted);

  void emitNhwc();
  void emitNhwcBlock(Value n, Value y, Value x0, int64_t pixels, Value c0,
                     int64_t vecs, int64_t partial);
  void emitNchw();
  void emitNchwBlock(Value n, Value c, ArrayRef<Value> taps,
                     const IRMapping *perChannel, Value y0, int64_t staticY0,
                     int64_t rows, Value x0, int64_t staticX0, int64_t vecs,
                     int64_t last);

  Type elem, outElem;
  int64_t channels, oh, ow, kh, kw;
  unsigned lanes;
  VectorType accType, inVec, outVec;
  /// The vectorized dimension: channels (NHWC) or output columns (NCHW),
  /// its whole vectors.
  int64_t vecExtent, vecFull;
  /// AVX2 cannot mask loads of 16-bit types: their edges go element by
  /// element (emitOne).
  bool canMask;
  /// The stride along W.
  int64_t sw;
  /// NCHW: the input's row vectors (through readThroughPad when there is
  /// one).
  std::optional<NchwRowReader> rowReader;
  /// NCHW: output columns [0, vecCols) go a vector at a time (the last one
  /// masked), the rest element by element.
  int64_t vecCols;
  bool scalarEdges;
  /// The fill's value (widened) and its splat, when the fill is fused.
  Value fillValue, splat;
};

template <typename OpTy, bool Nhwc, WindowCombine Combine>
WindowKernelEmitter<OpTy, Nhwc, Combine>::WindowKernelEmitter(
    OpTy op, PatternRewriter &rw, const KernelConfig &cfg)
    : ConvKernelEmitter(op, rw, cfg) {
  MemRefType fil = filterType(), out = outputType();
  elem = getElementTypeOrSelf(input.getType());
  // A pooling's narrow output (max, min: exact) is written narrowed.
  outElem = out.getElementType();
  // NHWC: out[n][y][x][c], filter[i][j][c]; NCHW: out[n][c][y][x],
  // filter[c][i][j].
  channels = Nhwc ? out.getDimSize(3) : out.getDimSize(1);
  oh = Nhwc ? out.getDimSize(1) : out.getDimSize(2);
  ow = Nhwc ? out.getDimSize(2) : out.getDimSize(3);
  // The window of a pooling is [KH][KW] in both layouts.
  kh = Nhwc || kPooling ? fil.getDimSize(0) : fil.getDimSize(1);
  kw = Nhwc || kPooling ? fil.getDimSize(1) : fil.getDimSize(2);
  lanes = cfg.lanes;
  accType = VectorType::get({lanes}, f32);
  inVec = VectorType::get({lanes}, elem);
  outVec = VectorType::get({lanes}, outElem);
  vecExtent = Nhwc ? channels : ow;
  vecFull = vecExtent / lanes * lanes;
  canMask = (elem == f32 && outElem == f32) || cfg.lanes == 16;
  // NCHW at stride 2 along W (MobileNet's downsampling blocks): a tap's
  // input vector is every other element of 2 x lanes contiguous ones.
  sw = strides[1];
  // A padded input (bufferized tensor.pad: a fill and a copy) is read
  // through: the windows' edges get the pad value in registers, from
  // masked loads' pass-through and lane shifts. Where vectors cannot be
  // masked, the padded buffer stays.
  if constexpr (!Nhwc) {
    if (canMask)
      readThroughPad = matchExplicitPad(input, op, {2, 3});
    rowReader.emplace(kb, input, lanes, sw, dilations[1],
                      readThroughPad ? &*readThroughPad : nullptr);
    input = rowReader->source();
  }
  // Without masks, whole vectors whose loads stay in the row.
  vecCols = ow;
  if (!Nhwc && !canMask) {
    vecCols = vecFull;
    while (vecCols > 0 && !spanFits(vecCols - lanes))
      vecCols -= lanes;
  }
  scalarEdges = Nhwc ? vecFull < vecExtent && !canMask : vecCols < ow;
  // The fill of the output and its elementwise consumer (batch norm,
  // ReLU6) run on the accumulators: the first tap starts from the fill
  // value, the store goes through the consumer into its output.
  std::string whyNot;
  epilogue = matchEpilogue(op, output, {input, filter}, whyNot);
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
    emitRemarkAt(op) << "elementwise consumer not fused into '"
                     << op->getName() << "': " << whyNot;
  prepareEpilogue(epilogue, op, rw);
  fillValue = epilogue.fill ? widen(epilogue.fill->getOperand(0)) : Value();
  splat = fillValue ? vector::BroadcastOp::create(rw, loc, accType, fillValue)
                    : Value();
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
Value WindowKernelEmitter<OpTy, Nhwc, Combine>::widen(Value v) {
  if (getElementTypeOrSelf(v.getType()) == f32)
    return v;
  return arith::ExtFOp::create(
      rw, loc, isa<VectorType>(v.getType()) ? Type(accType) : f32, v);
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
Value WindowKernelEmitter<OpTy, Nhwc, Combine>::narrowToOut(Value v) {
  if (outElem == f32)
    return v;
  auto vec = dyn_cast<VectorType>(v.getType());
  return arith::TruncFOp::create(
      rw, loc, vec ? Type(VectorType::get(vec.getShape(), outElem)) : outElem,
      v);
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
Value WindowKernelEmitter<OpTy, Nhwc, Combine>::combine(Value a, Value w,
                                                        Value acc) {
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
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
Value WindowKernelEmitter<OpTy, Nhwc, Combine>::tapAt(Value c, Value i,
                                                      Value j) {
  if (kPooling)
    return Value();
  return widen(memref::LoadOp::create(rw, loc, filter, filIx(c, i, j)));
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
void WindowKernelEmitter<OpTy, Nhwc, Combine>::emitOne(Value n, Value c,
                                                       Value y, Value x) {
  Value acc = fillValue ? fillValue
                        : widen(memref::LoadOp::create(rw, loc, output,
                                                       outIx(n, c, y, x)));
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      Value iy = kb.addc(kb.mulc(y, strides[0]), i * dilations[0]);
      Value ix = kb.addc(kb.mulc(x, strides[1]), j * dilations[1]);
      Value a =
          widen(memref::LoadOp::create(rw, loc, input, inIx(n, c, iy, ix)));
      acc = combine(a, tapAt(c, kb.idx(i), kb.idx(j)), acc);
    }
  memref::StoreOp::create(rw, loc, narrowToOut(acc), output,
                          outIx(n, c, y, x));
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
Value WindowKernelEmitter<OpTy, Nhwc, Combine>::maskFor(int64_t valid,
                                                        int64_t width) {
  width = width ? width : lanes;
  if (!valid || valid >= width)
    return Value();
  return vector::ConstantMaskOp::create(
      rw, loc, VectorType::get({width}, rw.getI1Type()),
      ArrayRef<int64_t>{valid});
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
Value WindowKernelEmitter<OpTy, Nhwc, Combine>::loadVec(VectorType t,
                                                        Value mem,
                                                        ValueRange ix,
                                                        Value mask) {
  if (!mask)
    return vector::LoadOp::create(rw, loc, t, mem, ix);
  Value zero = arith::ConstantOp::create(
      rw, loc, t, DenseElementsAttr::get(t, rw.getZeroAttr(t.getElementType())));
  return vector::MaskedLoadOp::create(rw, loc, t, mem, ix, mask, zero);
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
void WindowKernelEmitter<OpTy, Nhwc, Combine>::storeAcc(
    Value acc, ArrayRef<Value> ix, Value mask, const IRMapping *hoisted) {
  if (epilogue.consumer) {
    kb.storeThroughEpilogue(epilogue, acc, ix, mask, hoisted);
    return;
  }
  acc = narrowToOut(acc);
  if (mask)
    vector::MaskedStoreOp::create(rw, loc, output, ix, mask, acc);
  else
    vector::StoreOp::create(rw, loc, acc, output, ix);
}

/// A block: output row y, `pixels` pixels from x0, `vecs` channel vectors
/// from c0 in registers across all taps (a loop over filter rows, unrolled
/// over columns): one filter load per tap and channel vector, one input
/// load and FMA per accumulator.
template <typename OpTy, bool Nhwc, WindowCombine Combine>
void WindowKernelEmitter<OpTy, Nhwc, Combine>::emitNhwcBlock(
    Value n, Value y, Value x0, int64_t pixels, Value c0, int64_t vecs,
    int64_t partial) {
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
        rw.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> next(accs.begin(), accs.end());
        Value iy = kb.addIdx(kb.mulc(y, strides[0]), kb.mulc(i, dilations[0]));
        for (int64_t j = 0; j < kw; ++j)
          for (int64_t v = 0; v < vecs; ++v) {
            Value c = kb.addc(c0, v * lanes);
            Value w = kPooling ? Value()
                               : widen(loadVec(inVec, filter,
                                               filIx(c, i, kb.idx(j)), mask));
            for (int64_t p = 0; p < pixels; ++p) {
              Value x = kb.addc(kb.mulc(kb.addc(x0, p), strides[1]), j * dilations[1]);
              Value a = widen(loadVec(inVec, input, inIx(n, c, iy, x), mask));
              Value &acc = next[p * vecs + v];
              acc = combine(a, w, acc);
            }
          }
        scf::YieldOp::create(rw, loc, next);
      });
  for (int64_t p = 0; p < pixels; ++p)
    for (int64_t v = 0; v < vecs; ++v)
      storeAcc(rows.getResult(p * vecs + v), at(p, v), mask, nullptr);
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
void WindowKernelEmitter<OpTy, Nhwc, Combine>::emitNhwc() {
  // Blocks of xb pixels x cv channel vectors.
  int64_t xb = 4, cv = 2;
  int64_t pixelsFull = ow / xb * xb;
  // Images and output rows are independent (parallel with threads=: the
  // images when there are at least as many as threads).
  kb.loop(kb.idx(0), kb.dimSize(output, 0), 1, [&](Value n) {
    kb.loop(oh, 1, [&](Value y) {
      auto overPixels = [&](Value c0, int64_t vecs, int64_t partial) {
        kb.loop(pixelsFull, xb, [&](Value x0) {
          emitNhwcBlock(n, y, x0, xb, c0, vecs, partial);
        });
        if (pixelsFull < ow)
          emitNhwcBlock(n, y, kb.idx(pixelsFull), ow - pixelsFull, c0, vecs,
                        partial);
      };
      // Full channel vectors, cv at a time, then one at a time; the rest
      // one masked vector of f32 (element by element for narrow types,
      // which AVX2 cannot mask).
      int64_t vecBlocks = vecFull / (cv * lanes) * (cv * lanes);
      kb.loop(vecBlocks, cv * lanes, [&](Value c0) { overPixels(c0, cv, 0); });
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
  }, /*parallel=*/true);
}

/// Output rows y0 .. y0+rows-1, `vecs` vectors from column x0 (`staticX0`:
/// x0 when known, -1 otherwise), the last one `last` elements wide (0: all
/// lanes). Each input row vector is loaded (and widened) once for every
/// output row of the block reading it.
template <typename OpTy, bool Nhwc, WindowCombine Combine>
void WindowKernelEmitter<OpTy, Nhwc, Combine>::emitNchwBlock(
    Value n, Value c, ArrayRef<Value> taps, const IRMapping *perChannel,
    Value y0, int64_t staticY0, int64_t rows, Value x0, int64_t staticX0,
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
  Value iy0 = kb.addc(kb.mulc(y0, strides[0]), -rowReader->padTop());
  int64_t inputRows = (rows - 1) * strides[0] + (kh - 1) * dilations[0] + 1;
  for (int64_t q = 0; q < inputRows; ++q) {
    // The (output row, filter row) pairs reading input row iy0 + q.
    SmallVector<std::pair<int64_t, int64_t>> readers;
    for (int64_t r = 0; r < rows; ++r)
      if ((q - r * strides[0]) % dilations[0] == 0 && q >= r * strides[0] &&
          (q - r * strides[0]) / dilations[0] < kh)
        readers.push_back({r, (q - r * strides[0]) / dilations[0]});
    if (readers.empty())
      continue;
    Value iy = kb.addc(iy0, q);
    // A row of the pad (blocks at known rows only): the pad value.
    bool padRow = staticY0 >= 0 && rowReader->isPadRow(staticY0 * strides[0] -
                                                       rowReader->padTop() + q);
    for (int64_t j = 0; j < kw; ++j)
      for (int64_t v = 0; v < vecs; ++v) {
        int64_t needed = v == vecs - 1 && last ? last : lanes;
        Value a = padRow ? rowReader->padRow()
                         : rowReader->load(n, c, iy, kb.addc(x0, v * lanes),
                                      staticX0 < 0 ? -1 : staticX0 + v * lanes,
                                      j, needed);
        for (auto [r, i] : readers) {
          Value &sum = acc[r * vecs + v];
          sum = combine(a, kPooling ? Value() : taps[i * kw + j], sum);
        }
      }
  }
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t v = 0; v < vecs; ++v)
      storeAcc(acc[r * vecs + v], at(r, v), maskOf(v), perChannel);
}

template <typename OpTy, bool Nhwc, WindowCombine Combine>
void WindowKernelEmitter<OpTy, Nhwc, Combine>::emitNchw() {
  // Image by image and channel by channel (the parallel loops): the kh x kw
  // taps broadcast once, and the epilogue's per-channel part (a batch
  // norm's rsqrt(var + eps) * gamma) computed once. A block of `ry` output
  // rows x `vb` vectors along a row stays in registers across all taps,
  // fully unrolled: a 3x3 filter at stride 1 takes (ry + 2) x 3 loads per
  // column vector for 9 ry FMAs, and the FMAs of a block are independent.
  int64_t vecsInRow = ceilDiv(vecCols, lanes);
  int64_t vb = std::clamp<int64_t>(vecsInRow, 1, 4);
  int64_t accBudget = lanes >= 16 ? 12 : 8;
  int64_t ry = std::clamp<int64_t>(accBudget / vb, 1, oh);
  // Chunks of vb full vectors in a loop while every load stays in the row
  // unmasked; the rest as blocks at known columns.
  // Read through a pad, the chunks start where no tap reads left of the
  // row, and the rows of blocks in the loop where none reads above or
  // below the input. The blocks outside run at known rows and columns,
  // their pad given in registers.
  int64_t chunk0, chunkCols, rowsIn0, rowsIn1;
  std::tie(chunk0, chunkCols) =
      rowReader->insideColumns(vb * lanes, vecCols, kw);
  std::tie(rowsIn0, rowsIn1) =
      rowReader->insideRows(oh, kh, strides[0], dilations[0]);
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
      auto overColumns = [&](Value y0, int64_t staticY0, int64_t rows) {
        auto knownColumns = [&](int64_t from, int64_t to) {
          for (int64_t x = from; x < to; x += vb * lanes) {
            int64_t cols = std::min(vb * lanes, to - x);
            emitNchwBlock(n, c, taps, &perChannel, y0, staticY0, rows,
                          kb.idx(x), x, ceilDiv(cols, lanes), cols % lanes);
          }
        };
        if (chunkCols > chunk0) {
          knownColumns(0, chunk0);
          kb.loop(chunk0, chunkCols, vb * lanes, [&](Value x0) {
            emitNchwBlock(n, c, taps, &perChannel, y0, staticY0, rows, x0,
                          -1, vb, 0);
          });
          knownColumns(chunkCols, vecCols);
        } else {
          knownColumns(0, vecCols);
        }
        for (int64_t r = 0; r < rows; ++r)
          kb.loop(vecCols, ow, 1,
                  [&](Value x) { emitOne(n, c, kb.addc(y0, r), x); });
      };
      auto knownRows = [&](int64_t from, int64_t to) {
        for (int64_t y = from; y < to; y += ry)
          overColumns(kb.idx(y), y, std::min(ry, to - y));
      };
      knownRows(0, rowsIn0);
      int64_t rowsFull = rowsIn0 + (rowsIn1 - rowsIn0) / ry * ry;
      kb.loop(rowsIn0, rowsFull, ry,
              [&](Value y0) { overColumns(y0, -1, ry); });
      if (rowsFull < rowsIn1)
        overColumns(kb.idx(rowsFull), -1, rowsIn1 - rowsFull);
      knownRows(rowsIn1, oh);
    }, /*parallel=*/true);
  }, /*parallel=*/true);
}

template <typename OpTy, bool Nhwc, WindowCombine Combine = WindowCombine::Fma>
using WindowOpToKernel =
    KernelEmitterPattern<OpTy, WindowKernelEmitter<OpTy, Nhwc, Combine>>;

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

void mlir::lowp::x86::populateWindowKernelPatterns(RewritePatternSet &patterns,
                                                   const KernelConfig &cfg) {
  patterns.add<
      WindowOpToKernel<linalg::DepthwiseConv2DNhwcHwcOp, true>,
      WindowOpToKernel<linalg::DepthwiseConv2DNchwChwOp, false>,
      WindowOpToKernel<linalg::PoolingNhwcMaxOp, true, WindowCombine::Max>,
      WindowOpToKernel<linalg::PoolingNhwcMinOp, true, WindowCombine::Min>,
      WindowOpToKernel<linalg::PoolingNhwcSumOp, true, WindowCombine::Sum>,
      WindowOpToKernel<linalg::PoolingNchwMaxOp, false, WindowCombine::Max>,
      WindowOpToKernel<linalg::PoolingNchwSumOp, false, WindowCombine::Sum>>(
      patterns.getContext(), cfg);
  patterns.add<DepthwiseUnitMultiplierToHwc>(patterns.getContext());
}
