//===- ConvNchwDirectKernel.cpp - NCHW convolutions of few taps, direct ---===//
//
// linalg.conv_2d_nchw_fchw whose filter has few taps per output (C x KH x
// KW: a network's stem on its 3 colours) as a direct register-blocked
// kernel, without im2col.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelEmitter.h"
#include "NchwRowReader.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// Taps per output at most: the stem of an RGB network (3 x 3 x 3 = 27).
/// The im2col GEMM would have a K this small: its col buffer (KH x KW
/// copies of the input) costs more than the multiply-adds, and each C tile
/// is stored after a few k steps. (A 1x1 filter's col is its input, which
/// the GEMM reads as it is: 1x1 convolutions stay there.)
constexpr int64_t kMaxDirectTaps = 32;
/// Vector registers a block may hold at once: its accumulators, a filter
/// tap broadcast per channel and an input vector per column vector, of 32
/// (two left for temporaries). More spills the accumulators in the taps'
/// loop.
constexpr int64_t kDirectRegisters = 30;

/// out[n][f][y][x] = sum over (c, i, j) of filter[f][c][i][j] * in[n][c][y
/// * s0 + i * d0][x * s1 + j * d1], computed in blocks of `fb` output
/// channels x `vb` vectors of one output row in registers across all taps:
/// each input vector is loaded (and widened) once for the block's fb
/// channels, each filter tap broadcast once for its vb vectors. The fill and
/// the elementwise consumer (batch norm, activation) run on the
/// accumulators, as in the window kernel; a padded input is read through
/// (NchwRowReader).
class ConvNchwDirectEmitter : public ConvKernelEmitter {
public:
  static LogicalResult match(linalg::Conv2DNchwFchwOp op,
                             const KernelConfig &cfg, std::string &why) {
    if (failed(matchConv(op, cfg, why)))
      return failure();
    auto fil = cast<MemRefType>(op.getDpsInputs()[1].getType());
    int64_t taps = fil.getDimSize(1) * fil.getDimSize(2) * fil.getDimSize(3);
    if (taps > kMaxDirectTaps) {
      why = "more than " + std::to_string(kMaxDirectTaps) +
            " taps per output (the im2col kernel's)";
      return failure();
    }
    // A 1x1 convolution's col is its input: the GEMM reads it as it is.
    if (fil.getDimSize(2) * fil.getDimSize(3) == 1) {
      why = "a 1x1 filter (the GEMM's)";
      return failure();
    }
    if (failed(checkNchwWindowStride(op, "direct convolution", why)))
      return failure();
    // Narrow inputs need masked loads at the rows' ends (none on AVX2).
    Type elem = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
    if (!elem.isF32() && cfg.lanes != 16) {
      why = "narrow inputs need masked loads";
      return failure();
    }
    return success();
  }

  ConvNchwDirectEmitter(linalg::Conv2DNchwFchwOp op, PatternRewriter &rw,
                        const KernelConfig &cfg);

  /// The kernel, before the op; the caller erases it and finishes the
  /// epilogue (and the pad read through).
  void emit();

private:
  SmallVector<Value> outIx(Value n, Value f, Value y, Value x) const {
    return {n, f, y, x};
  }
  /// Output row y (`staticY`: y when known, -1 in the row loop), `fb`
  /// channels from f0, `vecs` vectors from column x0 (`staticX0`: x0 when
  /// known), the last one `last` elements wide (0: all lanes).
  void emitBlock(Value n, Value f0, int64_t fb, Value y, int64_t staticY,
                 Value x0, int64_t staticX0, int64_t vecs, int64_t last);
  /// The blocks of output row y across its columns.
  void emitRow(Value n, Value f0, int64_t fb, Value y, int64_t staticY);
  /// The output channels [f0, f0 + fb) of image n.
  void emitChannels(Value n, Value f0, int64_t fb);

  int64_t f, c, oh, ow, kh, kw;
  unsigned lanes;
  VectorType accType;
  /// Output channels and vectors along the row per block.
  int64_t channelsPerBlock, vb;
  /// The input's row vectors (through readThroughPad when there is one).
  std::optional<NchwRowReader> rowReader;
  /// The fill's value as a splat, when the fill is fused.
  Value splat;
};

ConvNchwDirectEmitter::ConvNchwDirectEmitter(linalg::Conv2DNchwFchwOp op,
                                             PatternRewriter &rw,
                                             const KernelConfig &cfg)
    : ConvKernelEmitter(op, rw, cfg) {
  MemRefType fil = filterType(), out = outputType();
  f = out.getDimSize(1);
  oh = out.getDimSize(2);
  ow = out.getDimSize(3);
  c = fil.getDimSize(1);
  kh = fil.getDimSize(2);
  kw = fil.getDimSize(3);
  lanes = cfg.lanes;
  accType = VectorType::get({lanes}, f32);
  readThroughPad = matchExplicitPad(input, op, {2, 3});
  rowReader.emplace(kb, input, lanes, strides[1], dilations[1],
                    readThroughPad ? &*readThroughPad : nullptr);
  input = rowReader->source();
  // Up to 2 vectors along the row, then as many channels fb as the
  // registers allow (fb x vb accumulators, fb taps, vb inputs), evened out
  // over F (16 channels: 2 blocks of 8).
  vb = std::clamp<int64_t>(ceilDiv(ow, lanes), 1, 2);
  int64_t most = std::max<int64_t>(1, (kDirectRegisters - vb) / (vb + 1));
  channelsPerBlock = ceilDiv(f, ceilDiv(f, most));
  std::string whyNot;
  epilogue = matchEpilogue(op, output, {input, filter}, whyNot);
  if (!whyNot.empty())
    emitRemarkAt(op) << "elementwise consumer not fused into '" << op->getName()
                     << "': " << whyNot;
  prepareEpilogue(epilogue, op, rw);
  splat = epilogue.fill ? vector::BroadcastOp::create(
                              rw, loc, accType,
                              rowReader->widen(epilogue.fill->getOperand(0)))
                        : Value();
}

void ConvNchwDirectEmitter::emitBlock(Value n, Value f0, int64_t fb, Value y,
                                      int64_t staticY, Value x0,
                                      int64_t staticX0, int64_t vecs,
                                      int64_t last) {
  auto maskOf = [&](int64_t v) -> Value {
    if (v != vecs - 1 || !last)
      return Value();
    return vector::ConstantMaskOp::create(
        rw, loc, VectorType::get({lanes}, rw.getI1Type()),
        ArrayRef<int64_t>{last});
  };
  auto at = [&](int64_t k, int64_t v) {
    return outIx(n, kb.addc(f0, k), y, kb.addc(x0, v * lanes));
  };
  SmallVector<Value> acc;
  for (int64_t k = 0; k < fb; ++k)
    for (int64_t v = 0; v < vecs; ++v) {
      if (splat) {
        acc.push_back(splat);
        continue;
      }
      Value mask = maskOf(v);
      Value zero = arith::ConstantOp::create(
          rw, loc, accType,
          DenseElementsAttr::get(accType, rw.getZeroAttr(f32)));
      acc.push_back(
          mask ? vector::MaskedLoadOp::create(rw, loc, accType, output,
                                              at(k, v), mask, zero)
                     .getResult()
               : vector::LoadOp::create(rw, loc, accType, output, at(k, v))
                     .getResult());
    }
  Value iy0 = kb.addc(kb.mulc(y, strides[0]), -rowReader->padTop());
  for (int64_t ci = 0; ci < c; ++ci)
    for (int64_t i = 0; i < kh; ++i) {
      int64_t q = i * dilations[0];
      // A row of the pad (known rows only): the pad value.
      bool padRow =
          staticY >= 0 &&
          rowReader->isPadRow(staticY * strides[0] - rowReader->padTop() + q);
      Value iy = kb.addc(iy0, q);
      for (int64_t j = 0; j < kw; ++j) {
        SmallVector<Value> taps;
        for (int64_t k = 0; k < fb; ++k)
          taps.push_back(vector::BroadcastOp::create(
              rw, loc, accType,
              rowReader->widen(
                  memref::LoadOp::create(rw, loc, filter,
                                         ValueRange{kb.addc(f0, k), kb.idx(ci),
                                                    kb.idx(i), kb.idx(j)}))));
        for (int64_t v = 0; v < vecs; ++v) {
          int64_t needed = v == vecs - 1 && last ? last : lanes;
          Value a =
              padRow
                  ? rowReader->padRow()
                  : rowReader->load(n, kb.idx(ci), iy, kb.addc(x0, v * lanes),
                                    staticX0 < 0 ? -1 : staticX0 + v * lanes, j,
                                    needed);
          for (int64_t k = 0; k < fb; ++k) {
            Value &sum = acc[k * vecs + v];
            sum = vector::FMAOp::create(rw, loc, a, taps[k], sum);
          }
        }
      }
    }
  for (int64_t k = 0; k < fb; ++k)
    for (int64_t v = 0; v < vecs; ++v) {
      Value mask = maskOf(v);
      if (epilogue.consumer) {
        kb.storeThroughEpilogue(epilogue, acc[k * vecs + v], at(k, v), mask);
      } else if (mask) {
        vector::MaskedStoreOp::create(rw, loc, output, at(k, v), mask,
                                      acc[k * vecs + v]);
      } else {
        vector::StoreOp::create(rw, loc, acc[k * vecs + v], output, at(k, v));
      }
    }
}

void ConvNchwDirectEmitter::emitRow(Value n, Value f0, int64_t fb, Value y,
                                    int64_t staticY) {
  // Blocks of vb vectors. In a loop where every tap reads inside the row;
  // at known columns where one reads the pad or past the row's end.
  int64_t step = vb * lanes;
  int64_t vecCols = ceilDiv(ow, lanes) * lanes;
  int64_t chunk0, chunkEnd;
  std::tie(chunk0, chunkEnd) = rowReader->insideColumns(step, ow, kw);
  auto knownColumns = [&](int64_t from, int64_t to) {
    for (int64_t x = from; x < to; x += step) {
      int64_t cols = std::min(step, ow - x);
      emitBlock(n, f0, fb, y, staticY, kb.idx(x), x, ceilDiv(cols, lanes),
                cols % lanes);
    }
  };
  if (chunkEnd > chunk0) {
    knownColumns(0, chunk0);
    kb.loop(chunk0, chunkEnd, step,
            [&](Value x0) { emitBlock(n, f0, fb, y, staticY, x0, -1, vb, 0); });
    knownColumns(chunkEnd, vecCols);
  } else {
    knownColumns(0, vecCols);
  }
}

void ConvNchwDirectEmitter::emitChannels(Value n, Value f0, int64_t fb) {
  // Rows whose every tap reads inside the input in a loop; the rows of the
  // pad's edges at known rows.
  int64_t rowsIn0, rowsIn1;
  std::tie(rowsIn0, rowsIn1) =
      rowReader->insideRows(oh, kh, strides[0], dilations[0]);
  for (int64_t y = 0; y < rowsIn0; ++y)
    emitRow(n, f0, fb, kb.idx(y), y);
  kb.loop(
      rowsIn0, rowsIn1, 1, [&](Value y) { emitRow(n, f0, fb, y, -1); },
      /*parallel=*/true);
  for (int64_t y = rowsIn1; y < oh; ++y)
    emitRow(n, f0, fb, kb.idx(y), y);
}

void ConvNchwDirectEmitter::emit() {
  int64_t fb = channelsPerBlock;
  int64_t fFull = f / fb * fb;
  kb.loop(
      kb.idx(0), kb.dimSize(output, 0), 1,
      [&](Value n) {
        kb.loop(
            fFull, fb, [&](Value f0) { emitChannels(n, f0, fb); },
            /*parallel=*/true);
        if (fFull < f)
          emitChannels(n, kb.idx(fFull), f - fFull);
      },
      /*parallel=*/true);
}

} // namespace

void mlir::lowp::x86::populateConvNchwDirectKernelPatterns(
    RewritePatternSet &patterns, const KernelConfig &cfg) {
  // Ahead of Winograd (2) and the im2col kernel (1).
  patterns.add<
      KernelEmitterPattern<linalg::Conv2DNchwFchwOp, ConvNchwDirectEmitter>>(
      patterns.getContext(), cfg, /*benefit=*/3);
}
