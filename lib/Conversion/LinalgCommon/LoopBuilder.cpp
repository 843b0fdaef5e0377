//===- LoopBuilder.cpp - scf/vector loop nests for hand-written kernels ---===//

#include "lowp/Conversion/LinalgCommon/LoopBuilder.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::lowp;

MemRefType mlir::lowp::getPlainMemRef(Value v, unsigned rank) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != rank || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return nullptr;
  return type;
}

MemRefType mlir::lowp::getRowMajorView(Value v, unsigned rank) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != rank || !type.hasStaticShape())
    return nullptr;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      (rank && strides.back() != 1))
    return nullptr;
  return type;
}

Value LoopBuilder::idx(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value LoopBuilder::dimSize(Value v, unsigned d) {
  auto type = cast<MemRefType>(v.getType());
  if (!type.isDynamicDim(d))
    return idx(type.getDimSize(d));
  return memref::DimOp::create(b, loc, v, d);
}

Value LoopBuilder::addc(Value x, int64_t c) {
  return c ? arith::AddIOp::create(b, loc, x, idx(c)).getResult() : x;
}

Value LoopBuilder::mulc(Value x, int64_t c) {
  return c == 1 ? x : arith::MulIOp::create(b, loc, x, idx(c)).getResult();
}

Value LoopBuilder::addIdx(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value LoopBuilder::alloc(MemRefType type) {
  return memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
}

void LoopBuilder::dealloc(Value v) { memref::DeallocOp::create(b, loc, v); }

SmallVector<Value> LoopBuilder::at(ValueRange prefix,
                                   std::initializer_list<Value> rest) {
  SmallVector<Value> all(prefix.begin(), prefix.end());
  all.append(rest.begin(), rest.end());
  return all;
}

void LoopBuilder::loop(Value lo, Value hi, int64_t step,
                       function_ref<void(Value)> body, bool parallel) {
  auto forOp = scf::ForOp::create(
      b, loc, lo, hi, idx(step), ValueRange{},
      [&](OpBuilder &nb, Location, Value iv, ValueRange) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        body(iv);
        scf::YieldOp::create(b, loc);
      });
  if (parallel)
    lowp::LowpDialect::ParallelAttrHelper(b.getContext())
        .setAttr(forOp, b.getUnitAttr());
}

void LoopBuilder::loop(int64_t lo, int64_t hi, int64_t step,
                       function_ref<void(Value)> body, bool parallel) {
  if (lo < hi)
    loop(idx(lo), idx(hi), step, body, parallel);
}

void LoopBuilder::loop(int64_t n, int64_t step, function_ref<void(Value)> body,
                       bool parallel) {
  loop(0, n, step, body, parallel);
}

SmallVector<Value> LoopBuilder::transposeBlock(ArrayRef<Value> rows) {
  int64_t n = rows.size();
  auto type = cast<VectorType>(rows[0].getType());
  Type elem = type.getElementType();
  auto intType =
      VectorType::get({n}, b.getIntegerType(elem.getIntOrFloatBitWidth()));
  SmallVector<Value> r;
  for (Value v : rows)
    r.push_back(elem.isInteger()
                    ? v
                    : vector::BitCastOp::create(b, loc, intType, v));
  // Stage h swaps the off-diagonal h x h blocks of every 2h x 2h block.
  for (int64_t h = n / 2; h >= 1; h /= 2) {
    SmallVector<int64_t> lo(n), hi(n);
    for (int64_t p = 0; p < n; ++p) {
      lo[p] = (p & h) ? n + p - h : p;
      hi[p] = (p & h) ? n + p : p + h;
    }
    SmallVector<Value> next(r);
    for (int64_t i = 0; i < n; ++i) {
      if (i & h)
        continue;
      next[i] = vector::ShuffleOp::create(b, loc, r[i], r[i + h], lo);
      next[i + h] = vector::ShuffleOp::create(b, loc, r[i], r[i + h], hi);
    }
    r = std::move(next);
  }
  if (!elem.isInteger())
    for (Value &v : r)
      v = vector::BitCastOp::create(b, loc, type, v);
  return r;
}

void LoopBuilder::emitTransposeCopy(
    int64_t rows, int64_t cols, int64_t lanes,
    function_ref<Value(Value, Value)> loadRow,
    function_ref<void(Value, Value, Value)> storeRow,
    function_ref<void(Value, Value)> copyOne) {
  int64_t rFull = rows / lanes * lanes, cFull = cols / lanes * lanes;
  if (rFull && cFull)
    loop(rFull, lanes, [&](Value r0) {
      loop(cFull, lanes, [&](Value c0) {
        SmallVector<Value> block;
        for (int64_t i = 0; i < lanes; ++i)
          block.push_back(loadRow(addc(r0, i), c0));
        SmallVector<Value> t = transposeBlock(block);
        for (int64_t j = 0; j < lanes; ++j)
          storeRow(addc(c0, j), r0, t[j]);
      });
    });
  if (rFull && cFull < cols)
    loop(rFull, 1, [&](Value r) {
      loop(cFull, cols, 1, [&](Value c) { copyOne(r, c); });
    });
  if (rFull < rows)
    loop(rFull, rows, 1, [&](Value r) {
      loop(cols, 1, [&](Value c) { copyOne(r, c); });
    });
}

void LoopBuilder::emitVectorizedLoop(int64_t n, int64_t lanes,
                                     function_ref<void(Value)> vec,
                                     function_ref<void(Value)> one) {
  int64_t full = n / lanes * lanes;
  loop(full, lanes, vec);
  loop(full, n, 1, one);
}

void LoopBuilder::emitVectorizedLoopOverlappingTail(
    int64_t n, int64_t lanes, function_ref<void(Value)> vec,
    function_ref<void(Value)> one) {
  if (n < lanes) {
    loop(n, 1, one);
    return;
  }
  int64_t full = n / lanes * lanes;
  // A few vectors (a tap's 64 channels, a row of 56 pixels) straight: the
  // loop's control and its mispredicted exit cost as much as the copy
  // (llc does not unroll).
  if (full / lanes <= kMaxStraightVectors) {
    for (int64_t c = 0; c < full; c += lanes)
      vec(idx(c));
  } else {
    loop(full, lanes, vec);
  }
  if (full < n)
    vec(idx(n - lanes));
}

Value LoopBuilder::applyBody(linalg::LinalgOp op, Value x) {
  return applyPayload(op.getBlock(), {x});
}

/// The payload's values mapped to `map`'s, with vectors of `vt`'s shape
/// where `vt` is set: scalars broadcast when an op uses them.
static Value lookupAsVector(OpBuilder &b, Location loc, IRMapping &map,
                            VectorType vt, Value v) {
  Value m = map.lookupOrDefault(v);
  if (vt && !isa<VectorType>(m.getType()))
    m = vector::BroadcastOp::create(
        b, loc, VectorType::get(vt.getShape(), m.getType()), m);
  return m;
}

/// Clones `inner` through `map`, its results vectors of `vt` (when set).
static void clonePayloadOp(OpBuilder &b, Location loc, IRMapping &map,
                           VectorType vt, Operation &inner) {
  if (inner.getNumOperands() == 0) {
    b.clone(inner, map); // constants stay scalar until used
    return;
  }
  for (Value v : inner.getOperands())
    map.map(v, lookupAsVector(b, loc, map, vt, v));
  Operation *cloned = b.clone(inner, map);
  if (vt)
    for (Value r : cloned->getResults())
      r.setType(VectorType::get(vt.getShape(), r.getType()));
}

Value LoopBuilder::applyPayload(Block *body, ArrayRef<Value> args,
                                const IRMapping *hoisted, VectorType vt) {
  if (!vt)
    for (Value a : args)
      if (a && (vt = dyn_cast<VectorType>(a.getType())))
        break;
  IRMapping map;
  if (hoisted)
    map = *hoisted;
  for (auto [arg, value] : llvm::zip(body->getArguments(), args))
    if (value)
      map.map(arg, value);
  for (Operation &inner : body->without_terminator()) {
    if (inner.getNumResults() && map.contains(inner.getResult(0)))
      continue; // computed by hoistPayload
    clonePayloadOp(b, loc, map, vt, inner);
  }
  return lookupAsVector(b, loc, map, vt, body->getTerminator()->getOperand(0));
}

IRMapping LoopBuilder::hoistPayload(Block *body, ArrayRef<Value> args,
                                    VectorType vt) {
  IRMapping map;
  for (auto [arg, value] : llvm::zip(body->getArguments(), args))
    if (value)
      map.map(arg, value);
  // Available: what `args` set, values from outside the payload, and the
  // results of ops computed here.
  auto available = [&](Value v) {
    if (map.contains(v))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() != body;
    return v.getDefiningOp()->getBlock() != body;
  };
  for (Operation &inner : body->without_terminator()) {
    if (!isPure(&inner) || inner.getNumRegions() ||
        !llvm::all_of(inner.getOperands(), available))
      continue;
    clonePayloadOp(b, loc, map, vt, inner);
  }
  return map;
}
