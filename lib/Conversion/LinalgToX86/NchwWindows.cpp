//===- NchwWindows.cpp - an NCHW input's windows as im2col rows -----------===//

#include "NchwWindows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::lowp::x86;

NchwWindows::NchwWindows(KernelBuilder &kb, Value input,
                         ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                         int64_t kh, int64_t kw, int64_t ow, unsigned lanes)
    : kb(kb), input(input), strides(strides), dilations(dilations), kh(kh),
      kw(kw), ow(ow), lanes(lanes), elem(getElementTypeOrSelf(input)),
      vectorRuns(strides[1] == 1 || strides[1] == 2) {
  for (unsigned l = 0; l < lanes; l += 2)
    evens.push_back(l);
  for (unsigned l = 0; l < lanes; l += 2)
    evens.push_back(lanes + l + 1);
}

NchwWindows::TapOffsets NchwWindows::decode(Value kk) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  Value ci = arith::DivUIOp::create(b, loc, kk, kb.idx(kh * kw));
  Value ij = arith::RemUIOp::create(b, loc, kk, kb.idx(kh * kw));
  Value i = arith::DivUIOp::create(b, loc, ij, kb.idx(kw));
  Value j = arith::RemUIOp::create(b, loc, ij, kb.idx(kw));
  return TapOffsets{ci, kb.mulc(i, dilations[0]), kb.mulc(j, dilations[1])};
}

NchwWindows::Tap NchwWindows::at(const TapOffsets &t, Value y) {
  return Tap{t.ci, kb.addIdx(kb.mulc(y, strides[0]), t.iOffset), t.jx};
}

Value NchwWindows::loadRun(Value n, const Tap &t, Value x) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  auto vec = VectorType::get({int64_t(lanes)}, elem);
  Value x0 = kb.addIdx(kb.mulc(x, strides[1]), t.jx);
  Value first =
      vector::LoadOp::create(b, loc, vec, input, ValueRange{n, t.ci, t.iy, x0});
  if (strides[1] == 1)
    return first;
  Value second = vector::LoadOp::create(
      b, loc, vec, input, ValueRange{n, t.ci, t.iy, kb.addc(x0, lanes - 1)});
  // On integers of the element's width (bf16 shuffles may be scalarized).
  auto asInt = VectorType::get({int64_t(lanes)},
                               b.getIntegerType(elem.getIntOrFloatBitWidth()));
  Value lo = vector::BitCastOp::create(b, loc, asInt, first);
  Value hi = vector::BitCastOp::create(b, loc, asInt, second);
  Value even = vector::ShuffleOp::create(b, loc, lo, hi, evens);
  return vector::BitCastOp::create(b, loc, vec, even);
}

void NchwWindows::copyRow(Value n, const Tap &t,
                          function_ref<void(Value, Value)> store,
                          function_ref<void(Value, Value)> storeOne) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  auto one = [&](Value x) {
    Value ix = kb.addIdx(kb.mulc(x, strides[1]), t.jx);
    storeOne(x, memref::LoadOp::create(b, loc, input,
                                       ValueRange{n, t.ci, t.iy, ix}));
  };
  if (!vectorRuns) {
    kb.loop(ow, 1, one);
    return;
  }
  kb.emitVectorizedLoopOverlappingTail(
      ow, lanes, [&](Value x) { store(x, loadRun(n, t, x)); }, one);
}
