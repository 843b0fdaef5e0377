//===- NchwRowReader.cpp - vectors along NCHW rows, read through a pad ----===//

#include "NchwRowReader.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <cassert>

using namespace mlir;
using namespace mlir::lowp::x86;

NchwRowReader::NchwRowReader(KernelBuilder &kb, Value input, unsigned lanes,
                             int64_t strideW, int64_t dilationW,
                             const ExplicitPad *pad)
    : kb(kb), input(pad ? pad->source : input), lanes(lanes), sw(strideW),
      dw(dilationW), elem(getElementTypeOrSelf(input.getType())) {
  auto type = cast<MemRefType>(this->input.getType());
  ih = type.getDimSize(2);
  iw = type.getDimSize(3);
  if (!pad)
    return;
  top = pad->low[0];
  left = pad->low[1];
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  padSpan = vector::BroadcastOp::create(
      b, loc, VectorType::get({sw * int64_t(lanes)}, elem), pad->value);
  padWide = widen(vector::BroadcastOp::create(
      b, loc, VectorType::get({int64_t(lanes)}, elem), pad->value));
}

Value NchwRowReader::widen(Value v) {
  if (getElementTypeOrSelf(v.getType()).isF32())
    return v;
  OpBuilder &b = kb.builder();
  Type f32 = b.getF32Type();
  auto vec = dyn_cast<VectorType>(v.getType());
  return arith::ExtFOp::create(
      b, kb.location(), vec ? Type(VectorType::get(vec.getShape(), f32)) : f32,
      v);
}

bool NchwRowReader::spanFits(int64_t firstCol, int64_t kw) const {
  return firstCol * sw + (kw - 1) * dw - left + sw * int64_t(lanes) <= iw;
}

std::pair<int64_t, int64_t> NchwRowReader::insideRows(int64_t oh, int64_t kh,
                                                      int64_t strideH,
                                                      int64_t dilationH) const {
  int64_t reach = (kh - 1) * dilationH;
  int64_t first = std::min(oh, ceilDiv(top, strideH));
  int64_t lastRead = ih - 1 + top - reach;
  int64_t last =
      std::clamp<int64_t>(lastRead < 0 ? 0 : lastRead / strideH + 1, first, oh);
  return {first, last};
}

std::pair<int64_t, int64_t>
NchwRowReader::insideColumns(int64_t step, int64_t bound, int64_t kw) const {
  int64_t first = ceilDiv(ceilDiv(left, sw), step) * step;
  int64_t last = bound / step * step;
  while (last > 0 && !spanFits(last - int64_t(lanes), kw))
    last -= step;
  return {first, last};
}

Value NchwRowReader::load(Value n, Value c, Value iy, Value x, int64_t staticX,
                          int64_t j, int64_t needed) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  // sw x lanes elements from the tap's first column (stride 1: the
  // `needed` ones), masked to what the row holds where known. Read through
  // a pad, the span may start before the row (`shift` pad elements, then
  // the row from column 0) and end after it (the masked load's
  // pass-through is the pad value).
  int64_t width = sw * lanes;
  int64_t inRow = sw == 1 ? needed : width;
  int64_t shift = 0;
  Value start;
  if (staticX >= 0) {
    int64_t first = staticX * sw + j * dw - left;
    shift = std::max<int64_t>(0, -first);
    inRow = std::min(first + inRow, iw) - (first + shift);
    if (inRow <= 0) {
      assert(padWide && "only a pad's columns lie outside the row");
      return padWide;
    }
    start = kb.idx(first + shift);
  } else {
    start = kb.addc(kb.mulc(x, sw), j * dw - left);
  }
  auto spanType = VectorType::get({width}, elem);
  SmallVector<Value> ix{n, c, iy, start};
  Value raw;
  if (inRow >= width) {
    raw = vector::LoadOp::create(b, loc, spanType, input, ix);
  } else {
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({width}, b.getI1Type()),
        ArrayRef<int64_t>{inRow});
    Value passThru =
        padSpan ? padSpan
                : arith::ConstantOp::create(
                      b, loc, spanType,
                      DenseElementsAttr::get(spanType, b.getZeroAttr(elem)));
    raw = vector::MaskedLoadOp::create(b, loc, spanType, input, ix, mask,
                                       passThru);
  }
  if (sw != 1 || shift) {
    // Every sw-th element of the span, past `shift` pad elements: one
    // shuffle with the pad span, as integers (some targets scalarize
    // shuffles of 16-bit float vectors).
    auto intSpan = VectorType::get(
        {width}, b.getIntegerType(elem.getIntOrFloatBitWidth()));
    Value bits = vector::BitCastOp::create(b, loc, intSpan, raw);
    Value padBits =
        shift ? vector::BitCastOp::create(b, loc, intSpan, padSpan).getResult()
              : bits;
    SmallVector<int64_t> picks;
    for (int64_t l = 0; l < int64_t(lanes); ++l)
      picks.push_back(!shift           ? l * sw
                      : l * sw < shift ? l * sw
                                       : width + l * sw - shift);
    Value picked = vector::ShuffleOp::create(b, loc, padBits, bits, picks);
    raw = vector::BitCastOp::create(
        b, loc, VectorType::get({int64_t(lanes)}, elem), picked);
  }
  return widen(raw);
}
