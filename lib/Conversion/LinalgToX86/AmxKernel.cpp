//===- AmxKernel.cpp - AMX-BF16 tile kernel for bf16 matmuls --------------===//
//
// The `amx=true` kernel: tdpbf16ps on 2 x 2 accumulator tiles, taken by
// ContractionToKernel (MatmulKernels.cpp) for the shapes amxCovers accepts.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

bool KernelBuilder::amxCovers(int64_t m, int64_t n, int64_t k, Type elem) const {
  const TileShape &t = cfg.amxTile;
  return t.valid() && elem.isBF16() && m % (2 * t.m) == 0 &&
         n % (2 * t.n) == 0 && k % t.k == 0;
}

void KernelBuilder::emitAmxMatmul(Value a, Value bMat, Value c, int64_t m, int64_t n,
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
