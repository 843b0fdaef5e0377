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
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
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

/// How a kernel reads one matrix operand of a (batched) contraction.
struct MatrixOperand {
  Value mem;
  bool transposed = false; ///< stored as [cols][rows]
  bool batched = false;    ///< indexed by the batch first
};

/// A statically shaped, identity-layout memref of rank `rank`.
static MemRefType getPlainMemRef(Value v, unsigned rank) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != rank || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return nullptr;
  return type;
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

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
  Value addIdx(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value alloc(MemRefType type) {
    return memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
  }
  void dealloc(Value v) { memref::DeallocOp::create(b, loc, v); }
  /// `prefix` followed by `rest`: the indices of a maybe-batched operand.
  static SmallVector<Value> at(ValueRange prefix,
                               std::initializer_list<Value> rest) {
    SmallVector<Value> all(prefix.begin(), prefix.end());
    all.append(rest.begin(), rest.end());
    return all;
  }
  /// for (i = lo; i < hi; i += step) body(i). `parallel`: the iterations
  /// write disjoint memory and read nothing another one writes; the loop
  /// carries `lowp.parallel`, which lowp-parallelize-loops (threads= of
  /// lowp-pipeline-x86) turns into an scf.parallel.
  void loop(Value lo, Value hi, int64_t step, function_ref<void(Value)> body,
            bool parallel = false) {
    auto forOp = scf::ForOp::create(
        b, loc, lo, hi, idx(step), ValueRange{},
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
  void loop(int64_t lo, int64_t hi, int64_t step,
            function_ref<void(Value)> body, bool parallel = false) {
    if (lo < hi)
      loop(idx(lo), idx(hi), step, body, parallel);
  }
  void loop(int64_t n, int64_t step, function_ref<void(Value)> body,
            bool parallel = false) {
    loop(0, n, step, body, parallel);
  }

  /// The rows of a square block of vectors, transposed in registers:
  /// log2(L) butterfly stages of two-input shuffles (unpack / shuffle /
  /// permute instructions; no memory traffic, no scalar code). Shuffles are
  /// done on integers of the element's width: LLVM handles those for every
  /// width, while some targets scalarize shuffles of bf16 vectors.
  SmallVector<Value> transposeBlock(ArrayRef<Value> rows) {
    int64_t n = rows.size();
    auto type = cast<VectorType>(rows[0].getType());
    Type elem = type.getElementType();
    auto intType = VectorType::get(
        {n}, b.getIntegerType(elem.getIntOrFloatBitWidth()));
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

  /// dst[c][r] = src[r][c] for r < rows, c < cols, through `lanes` x `lanes`
  /// blocks transposed in registers; the edges element by element.
  /// loadRow(r, c): `lanes` source elements of row r from column c (already
  /// converted to what is stored); storeRow(c, r, v): the same number of
  /// destination elements of row c from column r; copyOne(r, c): one.
  void emitTransposeCopy(int64_t rows, int64_t cols, int64_t lanes,
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

  /// for c in [0, n): `lanes` elements at a time while they fit, then one
  /// at a time: vec(c) / one(c).
  void emitVectorizedLoop(int64_t n, int64_t lanes,
                          function_ref<void(Value)> vec,
                          function_ref<void(Value)> one) {
    int64_t full = n / lanes * lanes;
    loop(full, lanes, vec);
    loop(full, n, 1, one);
  }

  /// The payload of an elementwise op (one input, see isFusableCast)
  /// applied to `x`, a scalar or a vector: the payload's ops are cloned with
  /// vector results, scalars they use broadcast.
  Value applyBody(linalg::LinalgOp op, Value x) {
    Block *body = op.getBlock();
    auto vt = dyn_cast<VectorType>(x.getType());
    IRMapping map;
    map.map(body->getArgument(0), x);
    auto get = [&](Value v) {
      Value m = map.lookupOrDefault(v);
      if (vt && !isa<VectorType>(m.getType()))
        m = vector::BroadcastOp::create(
            b, loc, VectorType::get(vt.getShape(), m.getType()), m);
      return m;
    };
    for (Operation &inner : body->without_terminator()) {
      if (inner.getNumOperands() == 0) {
        b.clone(inner, map); // constants stay scalar until used
        continue;
      }
      for (Value v : inner.getOperands())
        map.map(v, get(v));
      Operation *cloned = b.clone(inner, map);
      if (vt)
        for (Value r : cloned->getResults())
          r.setType(VectorType::get(vt.getShape(), r.getType()));
    }
    return get(body->getTerminator()->getOperand(0));
  }

  /// The type packB returns for a k x n B of `elem`.
  MemRefType packedType(int64_t n, int64_t k, Type elem) const {
    int64_t panels = ceilDiv(n, cfg.nr);
    if (cfg.bf16Dot && elem.isBF16())
      return MemRefType::get({panels, k / 2, 2 * int64_t(cfg.nr)}, elem);
    return MemRefType::get({panels, k, int64_t(cfg.nr)},
                           Float32Type::get(elem.getContext()));
  }

  /// B[k x n] packed for the kernel: panels of nr columns, [panels][k][nr]
  /// in f32 (narrow types widened), or VNNI pairs [panels][k/2][2*nr] in
  /// bf16 for the dot kernel. A transposed B ([n][k], nn.Linear's weight) is
  /// read through `lanes` x `lanes` register transposes: for the dot, a
  /// pair of bf16 along k is one i32 of a B^T row, so VNNI packing is a
  /// 32-bit transpose. The last panel of an N not divisible by nr is padded
  /// with zeros. The caller deallocates the result.
  ///
  /// With `cast` (an elementwise op that produced B from `bOp.mem`, e.g. the
  /// narrowing cast of a weight the precision decisions insert), B is read
  /// from its source and converted while packing, a vector at a time.
  Value packB(const MatrixOperand &bOp, ValueRange batch, int64_t n, int64_t k,
              Type elem, bool dot, linalg::LinalgOp cast = nullptr) {
    Type f32 = b.getF32Type();
    unsigned lanes = cfg.lanes, nr = cfg.nr, nv = nr / lanes;
    int64_t fullPanels = n / nr;
    int64_t tailCols = n % nr, kSteps = dot ? k / 2 : k;
    Value bMem = bOp.mem;
    Value packed = alloc(packedType(n, k, elem));
    auto f32Vec = VectorType::get({lanes}, f32);
    auto pairVec = VectorType::get({2 * lanes}, elem);
    auto intVec = VectorType::get({lanes}, b.getI32Type());
    // `width` consecutive elements of B's source, converted to `elem`.
    Type srcElem = getElementTypeOrSelf(bMem.getType());
    auto loadVec = [&](int64_t width, ValueRange ix) -> Value {
      Value v = vector::LoadOp::create(
          b, loc, VectorType::get({width}, srcElem), bMem, ix);
      return cast ? applyBody(cast, v) : v;
    };
    auto loadOne = [&](ValueRange ix) -> Value {
      Value v = memref::LoadOp::create(b, loc, bMem, ix);
      return cast ? applyBody(cast, v) : v;
    };
    // Element (row, col) of the logical k x n matrix.
    auto bAt = [&](Value row, Value col) {
      return bOp.transposed ? at(batch, {col, row}) : at(batch, {row, col});
    };
    auto widen = [&](Value x) -> Value {
      if (getElementTypeOrSelf(x.getType()) == f32)
        return x;
      Type to = isa<VectorType>(x.getType()) ? Type(f32Vec) : f32;
      return arith::ExtFOp::create(b, loc, to, x);
    };
    // Packs one element: column c of panel jb, k step kk (a pair for dot).
    auto packOne = [&](Value jb, Value kk, Value c) {
      Value col = addIdx(mulc(jb, nr), c);
      if (dot) {
        for (int64_t p = 0; p < 2; ++p) {
          Value x = loadOne(bAt(addc(mulc(kk, 2), p), col));
          memref::StoreOp::create(b, loc, x, packed,
                                  ValueRange{jb, kk, addc(mulc(c, 2), p)});
        }
      } else {
        Value x = loadOne(bAt(kk, col));
        memref::StoreOp::create(b, loc, widen(x), packed,
                                ValueRange{jb, kk, c});
      }
    };
    if (fullPanels > 0) {
      loop(fullPanels, 1, [&](Value jb) {
        Value col0 = mulc(jb, nr);
        if (bOp.transposed) {
          // Rows of the copy: the panel's nr columns (rows of B^T);
          // columns: k (k pairs for dot).
          emitTransposeCopy(
              nr, kSteps, lanes,
              [&](Value r, Value kk) -> Value {
                Value row = addIdx(col0, r);
                if (dot) {
                  Value x = loadVec(2 * lanes, at(batch, {row, mulc(kk, 2)}));
                  return vector::BitCastOp::create(b, loc, intVec, x);
                }
                return widen(loadVec(lanes, at(batch, {row, kk})));
              },
              [&](Value kk, Value r0, Value v) {
                if (dot) {
                  v = vector::BitCastOp::create(b, loc, pairVec, v);
                  r0 = mulc(r0, 2);
                }
                vector::StoreOp::create(b, loc, v, packed,
                                        ValueRange{jb, kk, r0});
              },
              [&](Value r, Value kk) { packOne(jb, kk, r); });
          return;
        }
        loop(kSteps, 1, [&](Value kk) {
          for (unsigned v = 0; v < nv; ++v) {
            Value col = addc(col0, v * lanes);
            if (dot) {
              Value row0 = mulc(kk, 2);
              Value even = loadVec(lanes, bAt(row0, col));
              Value odd = loadVec(lanes, bAt(addc(row0, 1), col));
              Value pairs = vector::InterleaveOp::create(b, loc, even, odd);
              vector::StoreOp::create(b, loc, pairs, packed,
                                      {jb, kk, idx(2 * v * lanes)});
            } else {
              Value x = loadVec(lanes, bAt(kk, col));
              vector::StoreOp::create(b, loc, widen(x), packed,
                                      {jb, kk, idx(v * lanes)});
            }
          }
        });
      }, /*parallel=*/true);
    }
    if (tailCols) {
      // The last panel: zeros, then its columns one by one (O(k * nr)).
      Value jb = idx(fullPanels);
      VectorType rowVec = dot ? pairVec : f32Vec;
      Value zero = arith::ConstantOp::create(
          b, loc, rowVec, DenseElementsAttr::get(rowVec, b.getZeroAttr(
                                                            rowVec.getElementType())));
      loop(kSteps, 1, [&](Value kk) {
        for (unsigned v = 0; v < nv; ++v)
          vector::StoreOp::create(b, loc, zero, packed,
                                  {jb, kk, idx((dot ? 2 : 1) * v * lanes)});
        loop(tailCols, 1, [&](Value c) { packOne(jb, kk, c); });
      });
    }
    return packed;
  }

  /// A copy of `src` ([rows][cols], maybe batched) widened to f32, in the
  /// same layout: O(rows * cols) shifts, vectorized along the rows.
  Value widenCopy(Value src, ValueRange batch, int64_t rows, int64_t cols) {
    Type f32 = b.getF32Type();
    Type elem = getElementTypeOrSelf(src.getType());
    Value dst = alloc(MemRefType::get({rows, cols}, f32));
    auto narrowVec = VectorType::get({cfg.lanes}, elem);
    auto f32Vec = VectorType::get({cfg.lanes}, f32);
    loop(rows, 1, [&](Value i) {
      emitVectorizedLoop(
          cols, cfg.lanes,
          [&](Value j) {
            Value x =
                vector::LoadOp::create(b, loc, narrowVec, src, at(batch, {i, j}));
            vector::StoreOp::create(b, loc,
                                    arith::ExtFOp::create(b, loc, f32Vec, x),
                                    dst, ValueRange{i, j});
          },
          [&](Value j) {
            Value x = memref::LoadOp::create(b, loc, src, at(batch, {i, j}));
            memref::StoreOp::create(b, loc,
                                    arith::ExtFOp::create(b, loc, f32, x), dst,
                                    ValueRange{i, j});
          });
    });
    return dst;
  }

  /// A row-major copy of a transposed operand ([cols][rows] -> [rows][cols])
  /// in its own type.
  Value transposedCopy(Value src, ValueRange batch, int64_t rows,
                       int64_t cols) {
    Type elem = getElementTypeOrSelf(src.getType());
    Value dst = alloc(MemRefType::get({rows, cols}, elem));
    auto vec = VectorType::get({cfg.lanes}, elem);
    emitTransposeCopy(
        cols, rows, cfg.lanes,
        [&](Value c, Value r0) -> Value {
          return vector::LoadOp::create(b, loc, vec, src, at(batch, {c, r0}));
        },
        [&](Value r, Value c0, Value v) {
          vector::StoreOp::create(b, loc, v, dst, ValueRange{r, c0});
        },
        [&](Value c, Value r) {
          Value x = memref::LoadOp::create(b, loc, src, at(batch, {c, r}));
          memref::StoreOp::create(b, loc, x, dst, ValueRange{r, c});
        });
    return dst;
  }

  /// C[m x n] += A[m x k] * B[k x n] for one batch: `aBatch` / `cBatch`
  /// index A and C, B is packed (packB) or, with `bRowMajor`, already in
  /// the kernel's element layout as rows of at least n rounded up to nr
  /// ([k][n'] f32, [k/2][2n'] VNNI pairs for dot: im2col writes it so). C's
  /// columns start at `cColOffset` (null: 0). A is read in place: broadcast
  /// scalars (f32 kernel; `aTransposed` reads A^T[k][m]) or broadcast pairs
  /// (dot kernel, row-major A only).
  void emitKernel(Value a, ValueRange aBatch, bool aTransposed, Value packed,
                  Value c, ValueRange cBatch, int64_t m, int64_t n, int64_t k,
                  bool dot, bool bRowMajor = false,
                  Value cColOffset = nullptr) {
    Type f32 = b.getF32Type();
    Type elem = getElementTypeOrSelf(packed.getType());
    unsigned lanes = cfg.lanes, nr = cfg.nr;
    auto accType = VectorType::get({lanes}, f32);
    int64_t fullPanels = n / nr, tailCols = n % nr;
    int64_t tail = m % cfg.mr;
    auto pairVec = VectorType::get({2}, elem);
    auto pairAsInt = VectorType::get({1}, b.getI32Type());
    auto bcastInt = VectorType::get({lanes}, b.getI32Type());
    auto dotOperand = VectorType::get({2 * lanes}, elem);
    unsigned unroll = 1;
    // One block of `blockRows` rows and `cols` columns (nr, or the last
    // panel's) of C, in registers across [kBegin, kEnd).
    auto emitBlock = [&](Value jb, Value row0, unsigned blockRows,
                         int64_t cols, Value kBegin, Value kEnd) {
      Value bCol0 = mulc(jb, nr);
      Value col0 = cColOffset ? addIdx(bCol0, cColOffset) : bCol0;
      unsigned nv = ceilDiv(cols, lanes);
      int64_t partial = cols % lanes;
      Value mask, zero;
      if (partial) {
        mask = vector::ConstantMaskOp::create(
            b, loc, VectorType::get({lanes}, b.getI1Type()),
            ArrayRef<int64_t>{partial});
        zero = arith::ConstantOp::create(
            b, loc, accType,
            DenseElementsAttr::get(accType, b.getZeroAttr(f32)));
      }
      auto isPartial = [&](unsigned v) { return partial && v + 1 == nv; };
      SmallVector<Value> rows, init;
      for (unsigned r = 0; r < blockRows; ++r)
        rows.push_back(addc(row0, r));
      for (unsigned r = 0; r < blockRows; ++r)
        for (unsigned v = 0; v < nv; ++v) {
          SmallVector<Value> ix = at(cBatch, {rows[r], addc(col0, v * lanes)});
          init.push_back(isPartial(v)
                             ? vector::MaskedLoadOp::create(b, loc, accType, c,
                                                            ix, mask, zero)
                                   .getResult()
                             : vector::LoadOp::create(b, loc, accType, c, ix)
                                   .getResult());
        }
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
                    bRowMajor
                        ? ValueRange{kk, mulc(addc(bCol0, v * lanes),
                                              dot ? 2 : 1)}
                        : ValueRange{jb, kk, idx((dot ? 2 : 1) * v * lanes)}));
              for (unsigned r = 0; r < blockRows; ++r) {
                Value av;
                if (dot) {
                  // One pair of A (two bf16 = one i32) splat to every lane.
                  Value pair = vector::LoadOp::create(
                      b, loc, pairVec, a, at(aBatch, {rows[r], mulc(kk, 2)}));
                  Value asInt =
                      vector::BitCastOp::create(b, loc, pairAsInt, pair);
                  Value scalar = vector::ExtractOp::create(b, loc, asInt, 0);
                  Value splat =
                      vector::BroadcastOp::create(b, loc, bcastInt, scalar);
                  av = vector::BitCastOp::create(b, loc, dotOperand, splat);
                } else {
                  Value scalar = memref::LoadOp::create(
                      b, loc, a,
                      aTransposed ? at(aBatch, {kk, rows[r]})
                                  : at(aBatch, {rows[r], kk}));
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
        for (unsigned v = 0; v < nv; ++v) {
          Value acc = kLoop.getResult(r * nv + v);
          SmallVector<Value> ix = at(cBatch, {rows[r], addc(col0, v * lanes)});
          if (isPartial(v))
            vector::MaskedStoreOp::create(b, loc, c, ix, mask, acc);
          else
            vector::StoreOp::create(b, loc, acc, c, ix);
        }
    };
    // Every panel: the full ones in a loop, then the zero-padded last one.
    auto forEachPanel = [&](function_ref<void(Value, int64_t)> body) {
      // Panels write disjoint columns of C (parallel).
      loop(fullPanels, 1, [&](Value jb) { body(jb, nr); }, /*parallel=*/true);
      if (tailCols)
        body(idx(fullPanels), tailCols);
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
          forEachPanel([&](Value jb, int64_t cols) {
            loop(ic, icEnd, cfg.mr, [&](Value row0) {
              emitBlock(jb, row0, cfg.mr, cols, kBegin, kEnd);
            });
          });
        });
      }
      if (tail)
        forEachPanel([&](Value jb, int64_t cols) {
          emitBlock(jb, idx(full), tail, cols, kBegin, kEnd);
        });
    });
  }

  /// The operand the kernel reads as A for one batch: in place, or a copy
  /// (widened to f32 for the f32 kernel on narrow types; made row-major for
  /// the dot kernel when transposed). Sets `copy` when the caller must free
  /// it.
  Value prepareA(const MatrixOperand &aOp, ValueRange batch, int64_t m,
                 int64_t k, bool dot, Value &copy, SmallVector<Value> &aBatch,
                 bool &aTransposed) {
    Type elem = getElementTypeOrSelf(aOp.mem.getType());
    aTransposed = aOp.transposed;
    aBatch.assign(batch.begin(), batch.end());
    copy = nullptr;
    if (!dot && !elem.isF32()) {
      copy = aOp.transposed ? widenCopy(aOp.mem, batch, k, m)
                            : widenCopy(aOp.mem, batch, m, k);
    } else if (dot && aOp.transposed) {
      copy = transposedCopy(aOp.mem, batch, m, k);
      aTransposed = false;
    }
    if (!copy)
      return aOp.mem;
    aBatch.clear();
    return copy;
  }

  /// C[batch][m x n] += A * B for every batch (batch = 0: a plain matmul).
  /// A B shared by every batch (broadcast) is packed once.
  /// `prepacked`: B already packed (an argument filled by the prepacking
  /// function); `bCast`: as for packB.
  void emitMatmul(const MatrixOperand &aOp, const MatrixOperand &bOp, Value c,
                  int64_t batches, int64_t m, int64_t n, int64_t k, Type elem,
                  Value prepacked = nullptr,
                  linalg::LinalgOp bCast = nullptr) {
    bool dot = cfg.bf16Dot && elem.isBF16();
    auto one = [&](ValueRange batch, Value packed) {
      ValueRange aB = aOp.batched ? batch : ValueRange{};
      Value aCopy;
      SmallVector<Value> aIx;
      bool aTransposed;
      Value a = prepareA(aOp, aB, m, k, dot, aCopy, aIx, aTransposed);
      emitKernel(a, aIx, aTransposed, packed, c, batch, m, n, k, dot);
      if (aCopy)
        dealloc(aCopy);
    };
    if (!bOp.batched) {
      Value packed =
          prepacked ? prepacked : packB(bOp, {}, n, k, elem, dot, bCast);
      if (!batches)
        one({}, packed);
      else
        loop(batches, 1, [&](Value batch) { one(batch, packed); },
             /*parallel=*/true);
      if (!prepacked)
        dealloc(packed);
      return;
    }
    // Batches are independent (parallel): each packs its own B.
    loop(
        batches, 1,
        [&](Value batch) {
          Value packed = packB(bOp, batch, n, k, elem, dot, bCast);
          one(batch, packed);
          dealloc(packed);
        },
        /*parallel=*/true);
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
  OpBuilder &b;
  Location loc;
  const KernelConfig &cfg;
};

/// A matmul / batch_matmul as the kernels see it.
struct ContractionShape {
  MatrixOperand a, b;
  Value c;
  int64_t batches = 0; ///< 0: a plain matmul
  int64_t m = 0, n = 0, k = 0;
  Type elem;
};

/// How one operand map reads a matrix whose default map is
/// ([batch,] row, col): `row`/`col` are loop dimensions. Fails on maps the
/// kernels do not read.
static FailureOr<MatrixOperand> classifyOperand(AffineMap map, unsigned row,
                                                unsigned col,
                                                std::optional<unsigned> batch) {
  if (!map.isProjectedPermutation())
    return failure();
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults())
    dims.push_back(cast<AffineDimExpr>(e).getPosition());
  MatrixOperand op;
  if (dims.size() == 3 && batch && dims[0] == *batch) {
    op.batched = true;
    dims.erase(dims.begin());
  }
  if (dims.size() != 2)
    return failure();
  if (dims[0] == col && dims[1] == row)
    op.transposed = true;
  else if (dims[0] != row || dims[1] != col)
    return failure();
  return op;
}

/// The kernels' view of a bufferized matmul or batch_matmul, or why they
/// cannot take it (for the remark of the fallback).
static FailureOr<ContractionShape>
matchContraction(linalg::LinalgOp op, const KernelConfig &cfg,
                 std::string &why) {
  bool batch = isa<linalg::BatchMatmulOp>(op);
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
    why = "no x86 kernel for this contraction";
    return failure();
  }
  if (!op.hasPureBufferSemantics()) {
    why = "operands are not buffers (the kernels run after bufferization)";
    return failure();
  }
  unsigned m = batch ? 1 : 0, n = m + 1, k = m + 2;
  std::optional<unsigned> bDim =
      batch ? std::optional<unsigned>(0) : std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  FailureOr<MatrixOperand> a = classifyOperand(maps[0], m, k, bDim);
  FailureOr<MatrixOperand> b = classifyOperand(maps[1], k, n, bDim);
  FailureOr<MatrixOperand> c = classifyOperand(maps[2], m, n, bDim);
  if (failed(a) || failed(b) || failed(c) || c->transposed ||
      c->batched != batch) {
    why = "indexing maps other than a (transposed, broadcast) matrix per "
          "operand";
    return failure();
  }
  ContractionShape s;
  s.a = *a;
  s.b = *b;
  s.a.mem = op.getDpsInputs()[0];
  s.b.mem = op.getDpsInputs()[1];
  s.c = op.getDpsInits()[0];
  MemRefType at = getPlainMemRef(s.a.mem, a->batched ? 3 : 2);
  MemRefType bt = getPlainMemRef(s.b.mem, b->batched ? 3 : 2);
  MemRefType ct = getPlainMemRef(s.c, batch ? 3 : 2);
  if (!at || !bt || !ct) {
    why = "operands are not static identity-layout memrefs";
    return failure();
  }
  s.elem = at.getElementType();
  auto floatElem = dyn_cast<FloatType>(s.elem);
  if (s.elem != bt.getElementType() || !floatElem ||
      floatElem.getWidth() > 32 || !ct.getElementType().isF32()) {
    why = "needs float inputs of at most 32 bits of one type and an f32 "
          "output";
    return failure();
  }
  unsigned ar = at.getRank(), cr = ct.getRank();
  s.batches = batch ? ct.getDimSize(0) : 0;
  s.m = ct.getDimSize(cr - 2);
  s.n = ct.getDimSize(cr - 1);
  s.k = at.getDimSize(s.a.transposed ? ar - 2 : ar - 1);
  if (cfg.bf16Dot && s.elem.isBF16() && s.k % 2) {
    why = "odd K: the bf16 dot kernel reads K in pairs";
    return failure();
  }
  return s;
}

/// The buffer a view (subview, collapse_shape, ...) reads, through every
/// view.
static Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// The elementwise op that produced `bMem`, a buffer the contraction
/// `consumer` reads as B, when packing can read its source and apply its
/// payload instead (the narrowing cast of a weight): `bMem` is an alloc of
/// the same block that only it writes and only `consumer` reads (besides
/// deallocations); the op has one input of B's shape and layout, identity
/// maps, and a payload of elementwise ops that ignores the output; nothing
/// between it and `consumer` may write its input.
static linalg::LinalgOp findFusableCast(Value bMem, Operation *consumer) {
  auto alloc = bMem.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != consumer->getBlock())
    return nullptr;
  linalg::LinalgOp producer;
  for (OpOperand &use : alloc->getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user))
      continue;
    if (user == consumer) {
      if (use.getOperandNumber() != 1)
        return nullptr;
      continue;
    }
    auto l = dyn_cast<linalg::LinalgOp>(user);
    if (!l || producer || !l.isDpsInit(&use))
      return nullptr;
    producer = l;
  }
  if (!producer || producer->getBlock() != consumer->getBlock() ||
      !producer->isBeforeInBlock(consumer) ||
      !producer.hasPureBufferSemantics() || producer.getNumDpsInputs() != 1 ||
      producer.getNumDpsInits() != 1 ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      !llvm::all_of(producer.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return nullptr;
  Value src = producer.getDpsInputs()[0];
  auto srcType = dyn_cast<MemRefType>(src.getType());
  auto dstType = cast<MemRefType>(bMem.getType());
  if (!srcType || srcType.getShape() != dstType.getShape() ||
      !srcType.getLayout().isIdentity() ||
      !srcType.getElementType().isIntOrFloat())
    return nullptr;
  Block *body = producer.getBlock();
  if (!body->getArgument(1).use_empty() ||
      !llvm::all_of(body->without_terminator(), [](Operation &inner) {
        return inner.getNumRegions() == 0 &&
               (inner.hasTrait<OpTrait::ConstantLike>() ||
                (OpTrait::hasElementwiseMappableTraits(&inner) &&
                 isPure(&inner)));
      }))
    return nullptr;
  // Nothing in between may write the source.
  Value srcRoot = rootBuffer(src);
  for (Operation *it = producer->getNextNode(); it != consumer;
       it = it->getNextNode()) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(it);
    if (!effects)
      return nullptr;
    for (const MemoryEffects::EffectInstance &e : *effects)
      if (isa<MemoryEffects::Write>(e.getEffect()) &&
          (!e.getValue() || rootBuffer(e.getValue()) == srcRoot))
        return nullptr;
  }
  return producer;
}

/// The values of a constant buffer (memref.get_global of a constant global
/// with dense or dense_resource contents of f32 / bf16), or nothing.
static std::optional<SmallVector<APFloat>> constantValues(Value mem) {
  auto get = mem.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue())
    return std::nullopt;
  Attribute init = *global.getInitialValue();
  auto type = cast<MemRefType>(mem.getType());
  auto elem = dyn_cast<FloatType>(type.getElementType());
  if (!elem || !(elem.isF32() || elem.isBF16()))
    return std::nullopt;
  SmallVector<APFloat> values;
  if (auto dense = dyn_cast<DenseFPElementsAttr>(init)) {
    if (dense.isSplat())
      values.assign(type.getNumElements(), dense.getSplatValue<APFloat>());
    else
      values.assign(dense.value_begin<APFloat>(), dense.value_end<APFloat>());
    return values;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(init);
  if (!resource || !resource.getRawHandle().getBlob())
    return std::nullopt;
  ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
  unsigned bytes = elem.getWidth() / 8;
  if (data.size() != size_t(type.getNumElements()) * bytes)
    return std::nullopt;
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, data.data() + i * bytes, bytes);
    values.push_back(APFloat(elem.getFloatSemantics(),
                             APInt(elem.getWidth(), bits)));
  }
  return values;
}

/// B packed at compile time, when B (or the source of the cast that
/// produced it, see findFusableCast) is a constant buffer and the cast, if
/// any, is a plain arith.truncf: the values are rounded with APFloat
/// (nearest-even, as the run-time conversion) and laid out as packB would,
/// in a new private constant global. Returns its memref.get_global.
static Value packConstantB(const ContractionShape &s, linalg::LinalgOp bCast,
                           Value source, const KernelConfig &cfg,
                           PatternRewriter &rw, Location loc) {
  if (s.b.batched)
    return nullptr;
  if (bCast) {
    Block *body = bCast.getBlock();
    auto ops = body->without_terminator();
    if (std::distance(ops.begin(), ops.end()) != 1 ||
        !isa<arith::TruncFOp>(*ops.begin()) ||
        body->getTerminator()->getOperand(0) != ops.begin()->getResult(0))
      return nullptr;
  }
  std::optional<SmallVector<APFloat>> values = constantValues(source);
  if (!values)
    return nullptr;
  auto elem = cast_or_null<FloatType>(s.elem);
  bool dot = cfg.bf16Dot && s.elem.isBF16();
  int64_t n = s.n, k = s.k, nr = cfg.nr;
  KernelBuilder probe(rw, loc, cfg);
  MemRefType packed = probe.packedType(n, k, s.elem);
  Type packedElem = packed.getElementType();
  const llvm::fltSemantics &kernelSem = elem.getFloatSemantics();
  const llvm::fltSemantics &packedSem =
      cast<FloatType>(packedElem).getFloatSemantics();
  // B(row, col) of the logical k x n matrix, in the kernel's element type,
  // then in the packed buffer's.
  auto at = [&](int64_t row, int64_t col) {
    APFloat v = (*values)[s.b.transposed ? col * k + row : row * n + col];
    bool lost;
    v.convert(kernelSem, APFloat::rmNearestTiesToEven, &lost);
    v.convert(packedSem, APFloat::rmNearestTiesToEven, &lost);
    return v;
  };
  APFloat zero = APFloat::getZero(packedSem);
  SmallVector<APFloat> out;
  out.reserve(packed.getNumElements());
  int64_t panels = packed.getDimSize(0);
  for (int64_t jb = 0; jb < panels; ++jb)
    for (int64_t kk = 0; kk < (dot ? k / 2 : k); ++kk)
      for (int64_t c = 0; c < nr; ++c) {
        int64_t col = jb * nr + c;
        if (dot) {
          out.push_back(col < n ? at(2 * kk, col) : zero);
          out.push_back(col < n ? at(2 * kk + 1, col) : zero);
        } else {
          out.push_back(col < n ? at(kk, col) : zero);
        }
      }
  auto tensorType = RankedTensorType::get(packed.getShape(), packedElem);
  auto module = source.getDefiningOp()->getParentOfType<ModuleOp>();
  if (!module)
    return nullptr;
  // A fresh symbol name.
  std::string name = "__lowp_packed_weight";
  for (unsigned i = 0; SymbolTable::lookupSymbolIn(module, name); ++i)
    name = "__lowp_packed_weight_" + std::to_string(i);
  memref::GlobalOp global;
  {
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(module.getBody());
    global = memref::GlobalOp::create(
        rw, loc, rw.getStringAttr(name), rw.getStringAttr("private"),
        TypeAttr::get(packed), DenseElementsAttr::get(tensorType, out),
        rw.getUnitAttr(), rw.getI64IntegerAttr(64));
  }
  return memref::GetGlobalOp::create(rw, loc, packed, global.getSymName());
}

/// matmul / batch_matmul (any of the operand maps classifyOperand reads)
/// -> packed register-blocked kernel.
template <typename OpTy>
struct ContractionToKernel : OpRewritePattern<OpTy> {
  ContractionToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern<OpTy>(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    std::string why;
    FailureOr<ContractionShape> s =
        matchContraction(cast<linalg::LinalgOp>(op.getOperation()), cfg, why);
    if (failed(s))
      return rw.notifyMatchFailure(op, why);
    KernelBuilder kb(rw, op.getLoc(), cfg);
    if (!s->batches && !s->a.transposed && !s->b.transposed &&
        kb.amxCovers(s->m, s->n, s->k, s->elem))
      kb.emitAmxMatmul(s->a.mem, s->b.mem, s->c, s->m, s->n, s->k, s->elem);
    else {
      // A cast producing B is applied while packing (it was a full pass
      // over B writing a buffer the packing then read).
      linalg::LinalgOp cast =
          s->b.batched ? nullptr : findFusableCast(s->b.mem, op);
      MatrixOperand b = s->b;
      if (cast)
        b.mem = cast.getDpsInputs()[0];
      // A constant weight is packed (and rounded) here, once.
      Value prepacked = packConstantB(*s, cast, b.mem, cfg, rw, op.getLoc());
      kb.emitMatmul(s->a, b, s->c, s->batches, s->m, s->n, s->k, s->elem,
                    prepacked, cast);
      if (cast)
        rw.eraseOp(cast);
    }
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// Why a convolution cannot become im2col + kernel, or success.
static LogicalResult matchConv(linalg::LinalgOp op, const KernelConfig &cfg,
                               std::string &why) {
  if (!op.hasPureBufferSemantics()) {
    why = "operands are not buffers (the kernels run after bufferization)";
    return failure();
  }
  for (Value v : op->getOperands())
    if (!getPlainMemRef(v, cast<MemRefType>(v.getType()).getRank())) {
      why = "operands are not static identity-layout memrefs";
      return failure();
    }
  Type elem = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  if (elem != getElementTypeOrSelf(op.getDpsInputs()[1].getType()) ||
      !isa<FloatType>(elem) ||
      !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32()) {
    why = "needs float inputs of one type and an f32 output";
    return failure();
  }
  // NCHW: the GEMM's K is C*KH*KW, read in pairs by the bf16 dot.
  auto filter = cast<MemRefType>(op.getDpsInputs()[1].getType());
  if (isa<linalg::Conv2DNchwFchwOp>(op) && cfg.bf16Dot && elem.isBF16() &&
      filter.getNumElements() / filter.getDimSize(0) % 2) {
    why = "odd C*KH*KW: the bf16 dot kernel reads K in pairs";
    return failure();
  }
  // NCHW depthwise: vectorized along the output row, read contiguously
  // only at stride 1 there.
  if (auto dw = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(op.getOperation()))
    if (*std::next(dw.getStrides().getValues<int64_t>().begin()) != 1) {
      why = "stride along W: the NCHW depthwise kernel vectorizes output rows";
      return failure();
    }
  return success();
}

/// Depthwise convolutions (one filter per channel, no reduction across
/// channels: not a GEMM) as a direct register-blocked kernel. Along the
/// contiguous dimension - channels in NHWC, output columns in NCHW - `lanes`
/// values per vector; a block of `xb` output positions x `cv` vectors stays
/// in registers across all filter taps (loop over filter rows, unrolled
/// over columns): one filter load (NHWC) or broadcast (NCHW) per tap and
/// vector column, one input load and FMA per accumulator. Narrow inputs are
/// widened as they are loaded. Edges (channels or columns beyond the last
/// full vector) go element by element.
template <typename OpTy, bool Nhwc>
struct DepthwiseToKernel : OpRewritePattern<OpTy> {
  DepthwiseToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern<OpTy>(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    std::string why;
    if (failed(matchConv(cast<linalg::LinalgOp>(op.getOperation()), cfg, why)))
      return rw.notifyMatchFailure(op, why);
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    auto fil = cast<MemRefType>(filter.getType()),
         out = cast<MemRefType>(output.getType());
    Type elem = fil.getElementType(), f32 = rw.getF32Type();
    SmallVector<int64_t> st(op.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dl(op.getDilations().template getValues<int64_t>());
    // NHWC: out[n][y][x][c], filter[i][j][c]; NCHW: out[n][c][y][x],
    // filter[c][i][j].
    int64_t batches = out.getDimSize(0);
    int64_t channels = Nhwc ? out.getDimSize(3) : out.getDimSize(1);
    int64_t oh = Nhwc ? out.getDimSize(1) : out.getDimSize(2);
    int64_t ow = Nhwc ? out.getDimSize(2) : out.getDimSize(3);
    int64_t kh = Nhwc ? fil.getDimSize(0) : fil.getDimSize(1);
    int64_t kw = Nhwc ? fil.getDimSize(1) : fil.getDimSize(2);
    unsigned lanes = cfg.lanes;
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    auto accType = VectorType::get({lanes}, f32);
    auto inVec = VectorType::get({lanes}, elem);
    auto widen = [&](Value v) -> Value {
      if (elem == f32)
        return v;
      return arith::ExtFOp::create(
          rw, loc, isa<VectorType>(v.getType()) ? Type(accType) : f32, v);
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
    // Accumulators: NHWC xb pixels x 2 channel vectors; NCHW 1 x 4 column
    // vectors (8 or 4 registers; 16 and 32 exist).
    int64_t xb = Nhwc ? 4 : 1, cv = Nhwc ? 2 : 4;
    // One block: output row y, positions x0.. (NHWC; NCHW: channel c0) and
    // vectors v0.. of the vectorized dimension.
    // `partial` (< lanes, 0: none): the one vector of the block covers only
    // that many elements (masked loads and stores).
    auto emitBlock = [&](Value n, Value y, Value other0, int64_t others,
                         Value v0, int64_t vecs, int64_t partial = 0) {
      Value mask, zeroAcc, zeroIn;
      if (partial) {
        mask = vector::ConstantMaskOp::create(
            rw, loc, VectorType::get({lanes}, rw.getI1Type()),
            ArrayRef<int64_t>{partial});
        zeroAcc = arith::ConstantOp::create(
            rw, loc, accType, DenseElementsAttr::get(accType, rw.getZeroAttr(f32)));
        zeroIn = arith::ConstantOp::create(
            rw, loc, inVec, DenseElementsAttr::get(inVec, rw.getZeroAttr(elem)));
      }
      auto load = [&](VectorType t, Value mem, ValueRange ix) -> Value {
        if (partial)
          return vector::MaskedLoadOp::create(rw, loc, t, mem, ix, mask,
                                              t == accType ? zeroAcc : zeroIn);
        return vector::LoadOp::create(rw, loc, t, mem, ix);
      };
      SmallVector<Value> init;
      auto at = [&](int64_t o, int64_t v) {
        Value vecPos = kb.addc(v0, v * lanes);
        Value otherPos = kb.addc(other0, o);
        // NHWC: other = x, vector = c. NCHW: other = c, vector = x.
        return Nhwc ? outIx(n, vecPos, y, otherPos)
                    : outIx(n, otherPos, y, vecPos);
      };
      for (int64_t o = 0; o < others; ++o)
        for (int64_t v = 0; v < vecs; ++v)
          init.push_back(load(accType, output, at(o, v)));
      auto rows = scf::ForOp::create(
          rw, loc, kb.idx(0), kb.idx(kh), kb.idx(1), init,
          [&](OpBuilder &nb, Location, Value i, ValueRange accs) {
            OpBuilder::InsertionGuard g(rw);
            rw.setInsertionPoint(nb.getInsertionBlock(),
                                 nb.getInsertionPoint());
            SmallVector<Value> next(accs.begin(), accs.end());
            Value iy = kb.addIdx(kb.mulc(y, st[0]), kb.mulc(i, dl[0]));
            for (int64_t j = 0; j < kw; ++j) {
              Value jc = kb.idx(j);
              for (int64_t v = 0; v < vecs; ++v) {
                Value vecPos = kb.addc(v0, v * lanes);
                Value w;
                if (Nhwc)
                  w = widen(load(inVec, filter, filIx(vecPos, i, jc)));
                for (int64_t o = 0; o < others; ++o) {
                  Value otherPos = kb.addc(other0, o);
                  if (!Nhwc)
                    w = vector::BroadcastOp::create(
                        rw, loc, accType,
                        widen(memref::LoadOp::create(rw, loc, filter,
                                                     filIx(otherPos, i, jc))));
                  Value x = Nhwc
                                ? kb.addc(kb.mulc(otherPos, st[1]), j * dl[1])
                                : kb.addc(vecPos, j * dl[1]);
                  Value c = Nhwc ? vecPos : otherPos;
                  Value a = widen(load(inVec, input, inIx(n, c, iy, x)));
                  Value &acc = next[o * vecs + v];
                  acc = vector::FMAOp::create(rw, loc, a, w, acc);
                }
              }
            }
            scf::YieldOp::create(rw, loc, next);
          });
      for (int64_t o = 0; o < others; ++o)
        for (int64_t v = 0; v < vecs; ++v) {
          Value acc = rows.getResult(o * vecs + v);
          if (partial)
            vector::MaskedStoreOp::create(rw, loc, output, at(o, v), mask,
                                          acc);
          else
            vector::StoreOp::create(rw, loc, acc, output, at(o, v));
        }
    };
    // One output element, every tap (the edges).
    auto emitOne = [&](Value n, Value c, Value y, Value x) {
      Value acc = memref::LoadOp::create(rw, loc, output, outIx(n, c, y, x));
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          Value iy = kb.addc(kb.mulc(y, st[0]), i * dl[0]);
          Value ix = kb.addc(kb.mulc(x, st[1]), j * dl[1]);
          Value a = widen(
              memref::LoadOp::create(rw, loc, input, inIx(n, c, iy, ix)));
          Value w = widen(memref::LoadOp::create(
              rw, loc, filter, filIx(c, kb.idx(i), kb.idx(j))));
          acc = math::FmaOp::create(rw, loc, a, w, acc);
        }
      memref::StoreOp::create(rw, loc, acc, output, outIx(n, c, y, x));
    };
    int64_t otherExtent = Nhwc ? ow : channels;
    int64_t otherFull = otherExtent / xb * xb;
    kb.loop(batches, 1, [&](Value n) {
      kb.loop(oh, 1, [&](Value y) {
        // Full vectors of the vectorized dimension, cv at a time, then one
        // at a time.
        int64_t vecBlocks = vecFull / (cv * lanes) * (cv * lanes);
        auto overOthers = [&](Value v0, int64_t vecs, int64_t partial) {
          kb.loop(otherFull, xb, [&](Value o0) {
            emitBlock(n, y, o0, xb, v0, vecs, partial);
          });
          if (otherFull < otherExtent)
            emitBlock(n, y, kb.idx(otherFull), otherExtent - otherFull, v0,
                      vecs, partial);
        };
        kb.loop(vecBlocks, cv * lanes,
                [&](Value v0) { overOthers(v0, cv, 0); });
        kb.loop(vecBlocks, vecFull, lanes,
                [&](Value v0) { overOthers(v0, 1, 0); });
        // The rest of the vectorized dimension: one masked vector of f32
        // (element by element for narrow types, which AVX2 cannot mask).
        if (vecFull < vecExtent) {
          if (elem == f32 || cfg.bf16Dot) {
            overOthers(kb.idx(vecFull), 1, vecExtent - vecFull);
          } else {
            kb.loop(otherExtent, 1, [&](Value o) {
              kb.loop(vecFull, vecExtent, 1, [&](Value v) {
                if (Nhwc)
                  emitOne(n, v, y, o);
                else
                  emitOne(n, o, y, v);
              });
            });
          }
        }
      });
    });
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// linalg.conv_2d_nhwc_hwcf -> im2col + linalg.matmul, which the kernel
/// patterns above then lower: col[(n, oh, ow), (kh, kw, c)] is copied from
/// the input once (O(output pixels x KH*KW*C), in the input's type; runs
/// of C channels are contiguous in both and copied a vector at a time), the
/// filter and the output are the same buffers viewed as matrices.
struct ConvNhwcToMatmul : OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  ConvNhwcToMatmul(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rw) const override {
    std::string why;
    if (failed(matchConv(op, cfg, why)))
      return rw.notifyMatchFailure(op, why);
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    auto fil = cast<MemRefType>(filter.getType()),
         out = cast<MemRefType>(output.getType());
    Type elem = fil.getElementType();
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    int64_t n = out.getDimSize(0), oh = out.getDimSize(1),
            ow = out.getDimSize(2), kh = fil.getDimSize(0),
            kw = fil.getDimSize(1), c = fil.getDimSize(2);
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    int64_t rows = n * oh * ow, depth = kh * kw * c;
    Value col = kb.alloc(MemRefType::get({rows, depth}, elem));
    auto vec = VectorType::get({cfg.lanes}, elem);
    kb.loop(n, 1, [&](Value ni) {
      kb.loop(oh, 1, [&](Value y) {
        kb.loop(ow, 1, [&](Value x) {
          // row = (ni * oh + y) * ow + x
          Value row = kb.addIdx(kb.mulc(kb.addIdx(kb.mulc(ni, oh), y), ow), x);
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              Value iy = kb.addc(kb.mulc(y, strides[0]), i * dilations[0]);
              Value ix = kb.addc(kb.mulc(x, strides[1]), j * dilations[1]);
              int64_t base = (i * kw + j) * c;
              kb.emitVectorizedLoop(
                  c, cfg.lanes,
                  [&](Value ci) {
                    Value v = vector::LoadOp::create(
                        rw, loc, vec, input, ValueRange{ni, iy, ix, ci});
                    vector::StoreOp::create(rw, loc, v, col,
                                            ValueRange{row, kb.addc(ci, base)});
                  },
                  [&](Value ci) {
                    Value v = memref::LoadOp::create(
                        rw, loc, input, ValueRange{ni, iy, ix, ci});
                    memref::StoreOp::create(rw, loc, v, col,
                                            ValueRange{row, kb.addc(ci, base)});
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
    kb.dealloc(col);
    rw.eraseOp(op);
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
    int64_t batches = out.getDimSize(0), f = out.getDimSize(1),
            oh = out.getDimSize(2), ow = out.getDimSize(3),
            c = fil.getDimSize(1), kh = fil.getDimSize(2),
            kw = fil.getDimSize(3);
    int64_t depth = c * kh * kw;
    // Rows per block: col within ~512 KiB (L2), preferring a pixel count
    // that is a multiple of nr (no masked last panel).
    Type colElem = dot ? elem : f32;
    int64_t bytes = colElem.getIntOrFloatBitWidth() / 8;
    int64_t budget = 512 * 1024;
    int64_t rowsPerBlock =
        std::clamp<int64_t>(budget / std::max<int64_t>(1, depth * ow * bytes),
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
    int64_t blockCols = ceilDiv(rowsPerBlock * ow, cfg.nr) * cfg.nr;
    Value col = kb.alloc(dot ? MemRefType::get({depth / 2, 2 * blockCols}, elem)
                             : MemRefType::get({depth, blockCols}, f32));
    // The filter as the kernel's A (widened once for the f32 kernel).
    Value aCopy;
    SmallVector<Value> aIx;
    bool aTransposed;
    Value aMem = kb.prepareA(a, {}, f, depth, dot, aCopy, aIx, aTransposed);
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
    // Input coordinates of filter tap `kk` = (ci, i, j) for output row y:
    // channel, row, column offset.
    struct Tap {
      Value ci, iy, jx;
    };
    auto tap = [&](Value kk, Value y) {
      Value ci = arith::DivUIOp::create(rw, loc, kk, kb.idx(kh * kw));
      Value ij = arith::RemUIOp::create(rw, loc, kk, kb.idx(kh * kw));
      Value i = arith::DivUIOp::create(rw, loc, ij, kb.idx(kw));
      Value j = arith::RemUIOp::create(rw, loc, ij, kb.idx(kw));
      Value iy = kb.addIdx(kb.mulc(y, strides[0]), kb.mulc(i, dilations[0]));
      return Tap{ci, iy, kb.mulc(j, dilations[1])};
    };
    // Output columns copied a vector at a time: at stride 1 a contiguous
    // run of the input; at stride 2 two runs with the even elements
    // shuffled out, as long as the second run stays inside the input row
    // for every filter column.
    int64_t inW = cast<MemRefType>(input.getType()).getDimSize(3);
    int64_t lanes = cfg.lanes, jMax = (kw - 1) * dilations[1];
    int64_t vecEnd = 0;
    if (strides[1] == 1) {
      vecEnd = ow / lanes * lanes;
    } else if (strides[1] == 2 && inW - 2 * lanes - jMax >= 0) {
      int64_t blocks = (inW - 2 * lanes - jMax) / 2 / lanes + 1;
      vecEnd = std::min(blocks * lanes, ow / lanes * lanes);
    }
    SmallVector<int64_t> evens;
    for (int64_t l = 0; l < lanes; ++l)
      evens.push_back(2 * l);
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
          ValueRange{niCur, t.ci, t.iy, kb.addc(x0, lanes)});
      // On integers of the element's width (bf16 shuffles may be
      // scalarized).
      auto asInt = VectorType::get(
          {lanes}, rw.getIntegerType(elem.getIntOrFloatBitWidth()));
      Value a = vector::BitCastOp::create(rw, loc, asInt, first);
      Value b = vector::BitCastOp::create(rw, loc, asInt, second);
      Value even = vector::ShuffleOp::create(rw, loc, a, b, evens);
      return vector::BitCastOp::create(rw, loc, vec, even);
    };
    // col for rows [y0, y0 + rows), then the GEMM on its pixels.
    auto emitBlock = [&](Value ni, Value y0, int64_t rows) {
      niCur = ni;
      kb.loop(rows, 1, [&](Value r) {
        Value y = kb.addIdx(y0, r);
        Value p0 = kb.mulc(r, ow);
        // One col row (or VNNI row pair) for the pixels of output row y.
        auto copyRow = [&](Value kk, function_ref<void(Value, Value)> store,
                           function_ref<void(Value, Value)> storeOne) {
          Tap t = tap(kk, y);
          Value ci = t.ci, iy = t.iy;
          auto ix = [&](Value x) {
            return kb.addIdx(kb.mulc(x, strides[1]), t.jx);
          };
          auto one = [&](Value x) {
            storeOne(x, memref::LoadOp::create(
                            rw, loc, input, ValueRange{ni, ci, iy, ix(x)}));
          };
          kb.loop(vecEnd, cfg.lanes, [&](Value x) { store(x, loadRun(t, x)); });
          kb.loop(vecEnd, ow, 1, one);
        };
        if (!dot) {
          kb.loop(depth, 1, [&](Value kk) {
            copyRow(
                kk,
                [&](Value x, Value v) {
                  vector::StoreOp::create(rw, loc, widen(v), col,
                                          ValueRange{kk, kb.addIdx(p0, x)});
                },
                [&](Value x, Value v) {
                  memref::StoreOp::create(rw, loc, widen(v), col,
                                          ValueRange{kk, kb.addIdx(p0, x)});
                });
          });
          return;
        }
        // VNNI: rows 2kk2 and 2kk2+1 interleaved, pixel by pixel.
        kb.loop(depth / 2, 1, [&](Value kk2) {
          for (int64_t e = 0; e < 2; ++e) {
            Value kk = kb.addc(kb.mulc(kk2, 2), e);
            // Vector runs land in every other slot: strided stores would be
            // scalar, so the even and odd rows are interleaved in registers
            // when the run is full (below) and stored pairwise otherwise.
            copyRow(
                kk,
                [&](Value x, Value v) {
                  if (e == 0)
                    return; // the odd row's pass stores both
                  Value even = loadRun(tap(kb.mulc(kk2, 2), y), x);
                  Value pairs = vector::InterleaveOp::create(rw, loc, even, v);
                  vector::StoreOp::create(
                      rw, loc, pairs, col,
                      ValueRange{kk2, kb.mulc(kb.addIdx(p0, x), 2)});
                },
                [&](Value x, Value v) {
                  memref::StoreOp::create(
                      rw, loc, v, col,
                      ValueRange{kk2, kb.addc(kb.mulc(kb.addIdx(p0, x), 2), e)});
                });
          }
        });
      });
      kb.emitKernel(aMem, aIx, aTransposed, col, cMat, ni, f, rows * ow,
                    depth, dot, /*bRowMajor=*/true, kb.mulc(y0, ow));
    };
    int64_t fullRows = oh / rowsPerBlock * rowsPerBlock;
    kb.loop(batches, 1, [&](Value ni) {
      kb.loop(fullRows, rowsPerBlock,
              [&](Value y0) { emitBlock(ni, y0, rowsPerBlock); });
      if (fullRows < oh)
        emitBlock(ni, kb.idx(fullRows), oh - fullRows);
    });
    if (aCopy)
      kb.dealloc(aCopy);
    kb.dealloc(col);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// A linalg.transpose on buffers that moves the innermost dimension (the
/// affine vectorizer would read one of the two sides with a stride, element
/// by element) -> `lanes` x `lanes` blocks transposed in registers.
struct TransposeToBlockedCopy : OpRewritePattern<linalg::TransposeOp> {
  TransposeToBlockedCopy(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "needs buffers");
    ArrayRef<int64_t> perm = op.getPermutation();
    int64_t rank = perm.size();
    MemRefType in = getPlainMemRef(op.getInput(), rank),
               out = getPlainMemRef(op.getInit(), rank);
    if (!in || !out || rank < 2 || perm[rank - 1] == rank - 1)
      return rw.notifyMatchFailure(op, "needs static identity-layout "
                                       "memrefs and a moved last dimension");
    unsigned width = in.getElementType().getIntOrFloatBitWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return rw.notifyMatchFailure(op, "element width");
    // out[o] = in[i] with i[perm[d]] = o[d]. The input dimension that
    // becomes the output's innermost (rowDim) and the input's innermost form
    // the 2-D transposes; every other dimension is a loop.
    int64_t rowDim = perm[rank - 1];
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    unsigned lanes = cfg.lanes;
    auto vec = VectorType::get({lanes}, in.getElementType());
    SmallVector<Value> outer(rank);
    std::function<void(int64_t)> nest = [&](int64_t d) {
      if (d == rank) {
        auto inIx = [&](Value r, Value c) {
          SmallVector<Value> ix(outer);
          ix[rowDim] = r;
          ix[rank - 1] = c;
          return ix;
        };
        // out index: o[d] = i[perm[d]].
        auto outIx = [&](Value c, Value r) {
          SmallVector<Value> i(outer);
          i[rowDim] = r;
          i[rank - 1] = c;
          SmallVector<Value> o(rank);
          for (int64_t e = 0; e < rank; ++e)
            o[e] = i[perm[e]];
          return o;
        };
        kb.emitTransposeCopy(
            in.getDimSize(rowDim), in.getDimSize(rank - 1), lanes,
            [&](Value r, Value c) -> Value {
              return vector::LoadOp::create(rw, loc, vec, op.getInput(),
                                            inIx(r, c));
            },
            [&](Value c, Value r, Value v) {
              vector::StoreOp::create(rw, loc, v, op.getInit(), outIx(c, r));
            },
            [&](Value r, Value c) {
              Value x = memref::LoadOp::create(rw, loc, op.getInput(),
                                               inIx(r, c));
              memref::StoreOp::create(rw, loc, x, op.getInit(), outIx(c, r));
            });
        return;
      }
      if (d == rowDim || d == rank - 1)
        return nest(d + 1);
      kb.loop(in.getDimSize(d), 1, [&](Value iv) {
        outer[d] = iv;
        nest(d + 1);
      });
    };
    nest(0);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// memref.copy between static buffers where one side is strided (tensor.pad
/// bufferizes to a copy into a subview of the padded buffer; im2col-style
/// slices do the same): finalize-memref-to-llvm calls the runtime's generic
/// element-by-element `memrefCopy` for those. As loops instead, the
/// contiguous innermost dimension a vector at a time.
struct StridedCopyToVectorLoops : OpRewritePattern<memref::CopyOp> {
  StridedCopyToVectorLoops(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rw) const override {
    auto src = dyn_cast<MemRefType>(op.getSource().getType());
    auto dst = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!src || !dst || !src.hasStaticShape() || src.getRank() == 0 ||
        (src.getLayout().isIdentity() && dst.getLayout().isIdentity()))
      return rw.notifyMatchFailure(op, "contiguous or dynamic copy");
    auto innerStride = [](MemRefType t) {
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(t.getStridesAndOffset(strides, offset)))
        return int64_t(0);
      return strides.back();
    };
    if (innerStride(src) != 1 || innerStride(dst) != 1 ||
        !src.getElementType().isIntOrFloat())
      return rw.notifyMatchFailure(op, "innermost dimension not contiguous");
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    int64_t rank = src.getRank();
    auto vec = VectorType::get({cfg.lanes}, src.getElementType());
    SmallVector<Value> ivs;
    std::function<void(int64_t)> nest = [&](int64_t d) {
      if (d + 1 == rank) {
        auto ix = [&](Value i) {
          SmallVector<Value> all(ivs);
          all.push_back(i);
          return all;
        };
        kb.emitVectorizedLoop(
            src.getDimSize(d), cfg.lanes,
            [&](Value i) {
              Value v = vector::LoadOp::create(rw, loc, vec, op.getSource(),
                                               ix(i));
              vector::StoreOp::create(rw, loc, v, op.getTarget(), ix(i));
            },
            [&](Value i) {
              Value v = memref::LoadOp::create(rw, loc, op.getSource(), ix(i));
              memref::StoreOp::create(rw, loc, v, op.getTarget(), ix(i));
            });
        return;
      }
      kb.loop(src.getDimSize(d), 1, [&](Value iv) {
        ivs.push_back(iv);
        nest(d + 1);
        ivs.pop_back();
      });
    };
    nest(0);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// The reason a contraction or convolution left on the generic loop path
/// was not taken by a kernel, or nothing for ops that are neither.
static std::optional<std::string> whyGenericPath(linalg::LinalgOp op,
                                                 const KernelConfig &cfg) {
  std::string why;
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
    (void)matchContraction(op, cfg, why);
    return why;
  }
  if (isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp,
          linalg::DepthwiseConv2DNhwcHwcOp, linalg::DepthwiseConv2DNchwChwOp>(
          op)) {
    if (failed(matchConv(op, cfg, why)))
      return why;
    return std::nullopt;
  }
  if (linalg::isaContractionOpInterface(op))
    return std::string("no x86 kernel for this contraction");
  // Convolutions (not pooling: a multiply-accumulate body).
  if (linalg::isaConvolutionOpInterface(op) &&
      llvm::any_of(op.getBlock()->getOperations(),
                   [](Operation &inner) { return isa<arith::MulFOp>(inner); }))
    return std::string("no x86 kernel for this convolution");
  return std::nullopt;
}

/// Splits the packing of weights out of `func` (see the `prepack` option):
/// every matmul (or batch_matmul with one B for all batches) the kernels
/// take whose B is an argument of `func` used by nothing else, directly or
/// through a fusable cast, reads that argument as already packed; a new
/// function `<func>_prepack` takes the original arguments (in order) and
/// returns the packed buffers (allocated; the caller owns them). Returns
/// the prepacking function, or null when no argument qualifies.
static func::FuncOp splitPrepacking(func::FuncOp func, const KernelConfig &cfg) {
  if (func.isExternal())
    return nullptr;
  Block &entry = func.getBody().front();
  struct Candidate {
    linalg::LinalgOp op;
    ContractionShape shape;
    BlockArgument arg;
    linalg::LinalgOp cast;
  };
  SmallVector<Candidate> candidates;
  for (Operation &op : entry) {
    auto l = dyn_cast<linalg::LinalgOp>(&op);
    if (!l || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      continue;
    std::string why;
    FailureOr<ContractionShape> s = matchContraction(l, cfg, why);
    if (failed(s) || s->b.batched)
      continue;
    linalg::LinalgOp cast = findFusableCast(s->b.mem, &op);
    Value source = cast ? cast.getDpsInputs()[0] : s->b.mem;
    auto arg = dyn_cast<BlockArgument>(source);
    if (!arg || arg.getOwner() != &entry || !arg.hasOneUse())
      continue;
    candidates.push_back({l, *s, arg, cast});
  }
  if (candidates.empty())
    return nullptr;
  llvm::sort(candidates, [](const Candidate &x, const Candidate &y) {
    return x.arg.getArgNumber() < y.arg.getArgNumber();
  });

  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(func);
  SmallVector<Type> weightTypes, packedTypes;
  KernelBuilder probe(b, loc, cfg);
  for (const Candidate &c : candidates) {
    weightTypes.push_back(c.arg.getType());
    packedTypes.push_back(
        probe.packedType(c.shape.n, c.shape.k, c.shape.elem));
  }
  auto prepack = func::FuncOp::create(
      b, loc, (func.getName() + "_prepack").str(),
      FunctionType::get(ctx, weightTypes, packedTypes));
  prepack.setVisibility(func.getVisibility());
  if (Attribute ci = func->getAttr("llvm.emit_c_interface"))
    prepack->setAttr("llvm.emit_c_interface", ci);
  Block *body = prepack.addEntryBlock();
  b.setInsertionPointToStart(body);
  SmallVector<Value> packed;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    KernelBuilder kb(b, c.op.getLoc(), cfg);
    MatrixOperand bOp = c.shape.b;
    bOp.mem = body->getArgument(i);
    bool dot = cfg.bf16Dot && c.shape.elem.isBF16();
    packed.push_back(kb.packB(bOp, {}, c.shape.n, c.shape.k, c.shape.elem,
                              dot, c.cast));
  }
  func::ReturnOp::create(b, loc, packed);

  // The function now reads the packed buffers in the weights' places.
  for (auto [i, c] : llvm::enumerate(candidates)) {
    b.setInsertionPoint(c.op);
    KernelBuilder kb(b, c.op.getLoc(), cfg);
    if (c.cast)
      c.cast->erase();
    c.arg.setType(packedTypes[i]);
    kb.emitMatmul(c.shape.a, c.shape.b, c.shape.c, c.shape.batches, c.shape.m,
                  c.shape.n, c.shape.k, c.shape.elem, c.arg);
    c.op->erase();
  }
  func.setType(FunctionType::get(ctx, entry.getArgumentTypes(),
                                 func.getResultTypes()));
  return prepack;
}

struct LowpX86LowerContractionsPass
    : lowp::impl::LowpX86LowerContractionsBase<LowpX86LowerContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(
        root, selectTargetOption(getArgument(), target, "cpu", deprecatedCpu));
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
    if (prepack) {
      SmallVector<func::FuncOp> funcs;
      root->walk([&](func::FuncOp f) { funcs.push_back(f); });
      for (func::FuncOp f : funcs)
        if (func::FuncOp p = splitPrepacking(f, cfg))
          mlir::emitRemark(f.getLoc()) << "weights of '" << f.getName()
                          << "' are packed once, by '" << p.getName() << "'";
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<ContractionToKernel<linalg::MatmulOp>,
                 ContractionToKernel<linalg::BatchMatmulOp>, ConvNhwcToMatmul,
                 ConvNchwToKernel, TransposeToBlockedCopy,
                 StridedCopyToVectorLoops,
                 DepthwiseToKernel<linalg::DepthwiseConv2DNhwcHwcOp, true>,
                 DepthwiseToKernel<linalg::DepthwiseConv2DNchwChwOp, false>>(
        &getContext(), cfg);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
    // A contraction left to the generic loops is slow: say so, and why.
    root->walk([&](linalg::LinalgOp op) {
      if (std::optional<std::string> why = whyGenericPath(op, cfg))
        op->emitRemark() << "generic loop path for '" << op->getName()
                         << "': " << *why;
    });
  }
};
} // namespace
