//===- MatmulKernels.cpp - packed register-blocked GEMM kernels -----------===//
//
// linalg.matmul / linalg.batch_matmul on buffers -> a packed,
// register-blocked micro-kernel for x86 (the GotoBLAS/BLIS structure):
//
//  * B is packed once per call into column panels of `nr` columns so the
//    k loop reads it contiguously. On AVX512_BF16 a bf16 B is packed into
//    VNNI pairs (k/2 x nr x 2) for vdpbf16ps; elsewhere it is widened to f32
//    while packing (the widening is a shift, see SoftFloatConversions), so
//    bf16 stays the storage format and costs O(n^2) conversions, not O(n^3).
//  * The micro-kernel (GemmMicroKernel.cpp, KernelBuilder::emitKernel)
//    keeps an mr x nr block of C in vector registers across a k block;
//    AMX-BF16 tiles (AmxKernel.cpp) take the shapes they cover.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Support/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

MemRefType KernelBuilder::packedType(int64_t n, int64_t k, Type elem) const {
  int64_t panels = ceilDiv(n, cfg.nr);
  if (cfg.dotFor(elem, k))
    return MemRefType::get({panels, k / 2, 2 * int64_t(cfg.nr)}, elem);
  return MemRefType::get({panels, k, int64_t(cfg.nr)},
                         Float32Type::get(elem.getContext()));
}

Value KernelBuilder::packB(const MatrixOperand &bOp, ValueRange batch, int64_t n, int64_t k,
            Type elem, bool dot, linalg::LinalgOp cast) {
  unsigned nr = cfg.nr;
  int64_t fullPanels = n / nr;
  int64_t tailCols = n % nr, kSteps = dot ? k / 2 : k;
  // f32 panels whenever the f32 kernel reads them (also bf16 with an odd
  // k on a dot target).
  Value packed = alloc(packedType(n, k, dot ? elem : b.getF32Type()));
  if (fullPanels > 0) {
    loop(fullPanels, 1, [&](Value jb) {
      packPanel(bOp, batch, packed, jb, mulc(jb, nr), nr, /*kBegin=*/nullptr,
                kSteps, elem, dot, cast);
    }, /*parallel=*/true);
  }
  // The last panel: zeros, then its columns one by one (O(k * nr)).
  if (tailCols)
    packPanel(bOp, batch, packed, idx(fullPanels), /*col0=*/nullptr, tailCols,
              /*kBegin=*/nullptr, kSteps, elem, dot, cast);
  return packed;
}

bool KernelBuilder::readsFP8Panels(linalg::LinalgOp cast) const {
  if (!cast || cfg.amxTile.valid() || cast.getNumDpsInputs() != 1)
    return false;
  if (!isa<Float8E4M3FNType>(getElementTypeOrSelf(cast.getDpsInputs()[0])))
    return false;
  // The payload is one exact widening of the input element.
  Block *body = cast.getBlock();
  auto yield = cast_or_null<linalg::YieldOp>(body->getTerminator());
  auto ext = yield && yield.getNumOperands() == 1
                 ? yield.getOperand(0).getDefiningOp<arith::ExtFOp>()
                 : arith::ExtFOp();
  return ext && ext.getIn() == body->getArgument(0) &&
         (ext.getType().isF32() || ext.getType().isBF16());
}

Value KernelBuilder::packFP8B(const MatrixOperand &bOp, int64_t n, int64_t k,
                              bool dot) {
  Type fp8 = getElementTypeOrSelf(bOp.mem.getType());
  MemRefType wide = packedType(n, k, dot ? b.getBF16Type() : b.getF32Type());
  Value packed = alloc(MemRefType::get(wide.getShape(), fp8));
  int64_t panels = wide.getDimSize(0), steps = wide.getDimSize(1);
  unsigned pairs = dot ? 2 : 1, nr = cfg.nr;
  Value zero = arith::ConstantOp::create(b, loc, FloatAttr::get(fp8, 0.0));
  loop(panels, 1, [&](Value jb) {
    loop(steps, 1, [&](Value kk) {
      loop(nr, 1, [&](Value c) {
        Value col = addIdx(mulc(jb, nr), c);
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             col, idx(n));
        Value readCol = arith::MinSIOp::create(b, loc, col, idx(n - 1));
        for (unsigned p = 0; p < pairs; ++p) {
          Value row = addc(mulc(kk, pairs), p);
          Value x = memref::LoadOp::create(
              b, loc, bOp.mem,
              bOp.transposed ? ValueRange{readCol, row}
                             : ValueRange{row, readCol});
          x = arith::SelectOp::create(b, loc, inside, x, zero);
          memref::StoreOp::create(b, loc, x, packed,
                                  ValueRange{jb, kk, addc(mulc(c, pairs), p)});
        }
      });
    });
  }, /*parallel=*/true);
  return packed;
}

Value KernelBuilder::packPanelSlice(const MatrixOperand &bOp, ValueRange batch,
                                    Value jb, int64_t cols, Value kBegin,
                                    int64_t steps, Type elem, bool dot,
                                    linalg::LinalgOp cast) {
  unsigned nr = cfg.nr;
  Value slice =
      alloc(dot ? MemRefType::get({steps, 2 * int64_t(nr)}, elem)
                : MemRefType::get({steps, int64_t(nr)}, b.getF32Type()));
  packPanel(bOp, batch, slice, jb, mulc(jb, nr), cols, kBegin, steps, elem,
            dot, cast, /*indexDestByPanel=*/false);
  return slice;
}

void KernelBuilder::packPanel(const MatrixOperand &bOp, ValueRange batch,
                              Value dest, Value jb, Value col0, int64_t cols,
                              Value kBegin, int64_t steps, Type elem, bool dot,
                              linalg::LinalgOp cast, bool indexDestByPanel) {
  Type f32 = b.getF32Type();
  unsigned lanes = cfg.lanes, nr = cfg.nr, nv = nr / lanes;
  Value bMem = bOp.mem;
  auto f32Vec = VectorType::get({lanes}, f32);
  auto pairVec = VectorType::get({2 * lanes}, elem);
  auto intVec = VectorType::get({lanes}, b.getI32Type());
  // `width` consecutive elements of B's source, converted to `elem`.
  Type srcElem = getElementTypeOrSelf(bMem.getType());
  auto loadVec = [&](int64_t width, ValueRange ix) -> Value {
    Value v = vector::LoadOp::create(b, loc, VectorType::get({width}, srcElem),
                                     bMem, ix);
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
  // Where k step `kk`, column `c` of the panel goes.
  auto destAt = [&](Value kk, Value c) -> SmallVector<Value> {
    if (indexDestByPanel)
      return {jb, kk, c};
    return {kk, c};
  };
  // The k step (pair for dot) `kk` of the panel, as B's row (first of pair).
  auto row = [&](Value kk) {
    Value step = kBegin ? addIdx(kBegin, kk) : kk;
    return dot ? mulc(step, 2) : step;
  };
  // Packs one element: column c, k step kk (a pair for dot).
  auto packOne = [&](Value kk, Value c) {
    Value col = addIdx(col0 ? col0 : mulc(jb, nr), c);
    if (dot) {
      for (int64_t p = 0; p < 2; ++p) {
        Value x = loadOne(bAt(addc(row(kk), p), col));
        memref::StoreOp::create(b, loc, x, dest,
                                destAt(kk, addc(mulc(c, 2), p)));
      }
    } else {
      Value x = loadOne(bAt(row(kk), col));
      memref::StoreOp::create(b, loc, widen(x), dest, destAt(kk, c));
    }
  };
  if (cols < int64_t(nr)) {
    // A last panel: zeros, then its columns one by one.
    VectorType rowVec = dot ? pairVec : f32Vec;
    Value zero = arith::ConstantOp::create(
        b, loc, rowVec,
        DenseElementsAttr::get(rowVec, b.getZeroAttr(rowVec.getElementType())));
    loop(steps, 1, [&](Value kk) {
      for (unsigned v = 0; v < nv; ++v)
        vector::StoreOp::create(b, loc, zero, dest,
                                destAt(kk, idx((dot ? 2 : 1) * v * lanes)));
      loop(cols, 1, [&](Value c) { packOne(kk, c); });
    });
    return;
  }
  assert(col0 && "a full panel needs its first column");
  if (bOp.transposed) {
    // nr rows of B^T (the panel's columns) x `steps` k steps, transposed
    // `lanes` x `lanes` in registers (for dot, a k pair is one i32).
    emitTransposeCopy(
        nr, steps, lanes,
        [&](Value r, Value kk) -> Value {
          Value bRow = addIdx(col0, r);
          if (dot) {
            Value x = loadVec(2 * lanes, at(batch, {bRow, row(kk)}));
            return vector::BitCastOp::create(b, loc, intVec, x);
          }
          return widen(loadVec(lanes, at(batch, {bRow, row(kk)})));
        },
        [&](Value kk, Value r0, Value v) {
          if (dot) {
            v = vector::BitCastOp::create(b, loc, pairVec, v);
            r0 = mulc(r0, 2);
          }
          vector::StoreOp::create(b, loc, v, dest, destAt(kk, r0));
        },
        [&](Value r, Value kk) { packOne(kk, r); });
    return;
  }
  loop(steps, 1, [&](Value kk) {
    for (unsigned v = 0; v < nv; ++v) {
      Value col = addc(col0, v * lanes);
      if (dot) {
        Value first = row(kk);
        Value even = loadVec(lanes, bAt(first, col));
        Value odd = loadVec(lanes, bAt(addc(first, 1), col));
        Value pairs = vector::InterleaveOp::create(b, loc, even, odd);
        vector::StoreOp::create(b, loc, pairs, dest,
                                destAt(kk, idx(2 * v * lanes)));
      } else {
        Value x = loadVec(lanes, bAt(row(kk), col));
        vector::StoreOp::create(b, loc, widen(x), dest,
                                destAt(kk, idx(v * lanes)));
      }
    }
  });
}

void KernelBuilder::prefetchPanelSource(const MatrixOperand &bOp,
                                       ValueRange batch, Value jb,
                                       Value kBegin, Value kk, bool dot) {
  auto srcType = cast<MemRefType>(bOp.mem.getType());
  int64_t elemBytes = srcType.getElementTypeBitWidth() / 8;
  int64_t line = cfg.prefetchLineBytes, nr = cfg.nr;
  // B's rows (k) per k step, and the bytes of one k step of the panel.
  int64_t rowsPerStep = dot ? 2 : 1;
  int64_t stepBytes = nr * rowsPerStep * elemBytes;
  if (!line || stepBytes % line)
    return;
  int64_t lineElems = line / elemBytes, linesPerStep = stepBytes / line;
  Value col0 = mulc(jb, nr);
  auto prefetch = [&](Value row, Value col) {
    memref::PrefetchOp::create(b, loc, bOp.mem, at(batch, {row, col}),
                               /*isWrite=*/false, /*localityHint=*/2,
                               /*isDataCache=*/true);
  };
  if (!bOp.transposed) {
    // Row-major [k][n]: the step's rows, a line at a time along the panel.
    for (int64_t r = 0; r < rowsPerStep; ++r)
      for (int64_t c = 0; c < nr * elemBytes / line; ++c)
        prefetch(addc(mulc(kk, rowsPerStep), r), addc(col0, c * lineElems));
    return;
  }
  // Transposed [n][k]: line p (of linesPerStep per step, counted from the
  // block's first step) is row p mod nr of the panel, k chunk p / nr.
  Value step = arith::SubIOp::create(b, loc, kk, kBegin);
  Value kElem0 = mulc(kBegin, rowsPerStep);
  for (int64_t l = 0; l < linesPerStep; ++l) {
    Value p = addc(mulc(step, linesPerStep), l);
    Value row = arith::RemUIOp::create(b, loc, p, idx(nr));
    Value chunk = arith::DivUIOp::create(b, loc, p, idx(nr));
    prefetch(addIdx(col0, row), addIdx(kElem0, mulc(chunk, lineElems)));
  }
}

Value KernelBuilder::widenCopy(Value src, ValueRange batch, int64_t rows, int64_t cols) {
  Type f32 = b.getF32Type();
  Type elem = getElementTypeOrSelf(src.getType());
  Value dst = alloc(MemRefType::get({rows, cols}, f32));
  auto narrowVec = VectorType::get({cfg.lanes}, elem);
  auto f32Vec = VectorType::get({cfg.lanes}, f32);
  loop(rows, 1, [&](Value i) {
    // Into a fresh buffer: the last run may overlap the one before.
    emitVectorizedLoopOverlappingTail(
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

Value KernelBuilder::transposedCopy(Value src, ValueRange batch, int64_t rows,
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

void KernelBuilder::zeroRowTails(Value buf, int64_t valid) {
  auto type = cast<MemRefType>(buf.getType());
  Type elem = type.getElementType();
  int64_t width = cfg.lanes * 32 / elem.getIntOrFloatBitWidth();
  int64_t padded = ceilDiv(valid, width) * width;
  if (padded == valid)
    return;
  auto vec = VectorType::get({width}, elem);
  Value zeros = arith::ConstantOp::create(
      b, loc, vec, DenseElementsAttr::get(vec, b.getZeroAttr(elem)));
  Value mask = vector::ConstantMaskOp::create(
      b, loc, VectorType::get({width}, b.getI1Type()),
      ArrayRef<int64_t>{padded - valid});
  SmallVector<Value> ix(type.getRank());
  ix.back() = idx(valid);
  std::function<void(int64_t)> rows = [&](int64_t d) {
    if (d + 1 == type.getRank()) {
      vector::MaskedStoreOp::create(b, loc, buf, ix, mask, zeros);
      return;
    }
    loop(type.getDimSize(d), 1, [&](Value i) {
      ix[d] = i;
      rows(d + 1);
    });
  };
  rows(0);
}

Value KernelBuilder::prepareA(const MatrixOperand &aOp, ValueRange batch, int64_t m,
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

void KernelBuilder::emitMatmul(const MatrixOperand &aOp, const MatrixOperand &bOp, Value c,
                int64_t batches, int64_t m, int64_t n, int64_t k, Type elem,
                Value prepacked,
                linalg::LinalgOp bCast, const KernelEpilogue *epilogue) {
  bool dot = cfg.dotFor(elem, k);
  // Not the generic loop path, but slower than the dot kernel would be
  // (half its rate on Zen 4, far from AMX tiles): said, as slow paths are.
  if (cfg.bf16Dot && elem.isBF16() && !dot)
    emitRemark(loc) << "odd K (" << k
                    << "): a bf16 GEMM on the f32 FMA kernel (operands "
                       "widened), not the bf16 dot kernel, which reads K in "
                       "pairs";
  if (ShapedType::isDynamic(m)) {
    emitDynamicRowsMatmul(aOp, bOp, c, n, k, elem, prepacked, bCast,
                          epilogue);
    return;
  }
  // `packed`: B packed whole; null: packed a panel slice at a time, inside
  // the kernel (B of this batch).
  auto one = [&](ValueRange batch, Value packed) {
    ValueRange aB = aOp.batched ? batch : ValueRange{};
    ValueRange bB = bOp.batched ? batch : ValueRange{};
    Value aCopy;
    SmallVector<Value> aIx;
    bool aTransposed;
    Value a = prepareA(aOp, aB, m, k, dot, aCopy, aIx, aTransposed);
    auto packSlice = [&](Value jb, int64_t cols, Value kBegin,
                         int64_t steps) {
      return packPanelSlice(bOp, bB, jb, cols, kBegin, steps, elem, dot,
                            bCast);
    };
    auto prefetchSource = [&](Value jbNext, Value kBegin, Value kk) {
      prefetchPanelSource(bOp, bB, jbNext, kBegin, kk, dot);
    };
    GemmCall call(a, packed, c, m, n, k, dot);
    call.aBatch.assign(aIx.begin(), aIx.end());
    call.aTransposed = aTransposed;
    if (!packed) {
      call.packSlice = packSlice;
      call.prefetchSource = prefetchSource;
    }
    call.cBatch.assign(batch.begin(), batch.end());
    call.epilogue = epilogue;
    emitKernel(call);
    if (aCopy)
      dealloc(aCopy);
  };
  // A B shared by several batches is packed whole, once, outside the batch
  // loop; any other B that is not already packed is packed slice by slice
  // inside the kernel.
  // The batch count (a run-time value for a dynamic batch).
  Value batchCount = batches ? dimSize(c, 0) : Value();
  if (!bOp.batched && batches && !prepacked) {
    Value packed = packB(bOp, {}, n, k, elem, dot, bCast);
    loop(idx(0), batchCount, 1, [&](Value batch) { one(batch, packed); },
         /*parallel=*/true);
    dealloc(packed);
    return;
  }
  if (!batches) {
    one({}, prepacked);
    return;
  }
  // Batches are independent (parallel).
  loop(idx(0), batchCount, 1, [&](Value batch) { one(batch, prepacked); },
       /*parallel=*/true);
}

void KernelBuilder::emitDynamicRowsMatmul(const MatrixOperand &aOp,
                                          const MatrixOperand &bOp, Value c,
                                          int64_t n, int64_t k, Type elem,
                                          Value prepacked,
                                          linalg::LinalgOp bCast,
                                          const KernelEpilogue *epilogue) {
  bool dot = cfg.dotFor(elem, k);
  // B packed once for every block of rows.
  Value packed = prepacked ? prepacked : packB(bOp, {}, n, k, elem, dot, bCast);
  // A's rows read in place from row r0 on (SegmentedA: the kernel's A rows
  // start at 0 otherwise), in runs of whole k blocks where K allows (a
  // common divisor of K and kc in whole tiles), else all of K at once.
  int64_t width = dot ? 2 : 1, kSteps = k / width;
  int64_t segSteps = std::gcd(kSteps, cfg.kcSteps(dot));
  if (segSteps % 16)
    segSteps = kSteps;
  auto rowsFrom = [&](Value r0, int64_t count) {
    SegmentedA segA;
    segA.source = aOp.mem;
    segA.segmentSteps = segSteps;
    segA.rowsEvenlySpaced = true;
    segA.rowState = [&, r0](Value r) -> SmallVector<Value> {
      return {addIdx(r0, r)};
    };
    segA.start = [&](ArrayRef<Value> state,
                     Value seg) -> SmallVector<Value> {
      return {state[0], mulc(seg, segSteps * width)};
    };
    GemmCall call(aOp.mem, packed, c, count, n, k, dot);
    call.segmentedA = &segA;
    call.cRowOffset = r0;
    call.epilogue = epilogue;
    emitKernel(call);
  };
  // Blocks of `chunk` rows (parallel with threads=), then the rest (below
  // chunk rows) as kernels of 2^j rows for the bits set in it: each reads
  // B once more, instead of once per row.
  int64_t chunk = 2 * rowBlockQuantum(dot);
  Value rows = dimSize(c, 0);
  Value full = mulc(arith::DivUIOp::create(b, loc, rows, idx(chunk)), chunk);
  loop(idx(0), full, chunk, [&](Value r0) { rowsFrom(r0, chunk); },
       /*parallel=*/true);
  Value rest = arith::SubIOp::create(b, loc, rows, full);
  if (dot && cfg.amxTile.valid())
    emitRemark(loc) << "amx=true: a ?x" << n << "x" << k
                    << " GEMM (dynamic M) runs its last M mod " << chunk
                    << " rows on vdpbf16ps, not AMX tiles";
  bool remarks = amxFallbackRemarks;
  amxFallbackRemarks = false;
  for (int64_t bit = llvm::PowerOf2Ceil(chunk) / 2; bit >= 1; bit /= 2) {
    if (bit >= chunk)
      continue;
    Value set = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, rest, idx(bit)), idx(0));
    // After the rows of the higher bits.
    Value r0 = addIdx(full, arith::AndIOp::create(b, loc, rest,
                                                  idx(~(2 * bit - 1))));
    scf::IfOp::create(b, loc, set, [&](OpBuilder &nb, Location) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      rowsFrom(r0, bit);
      scf::YieldOp::create(b, loc);
    });
  }
  amxFallbackRemarks = remarks;
  if (!prepacked)
    dealloc(packed);
}

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
FailureOr<ContractionShape>
mlir::lowp::x86::matchContraction(linalg::LinalgOp op,
                                  const KernelConfig &cfg, std::string &why) {
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
  // A dynamic M (a front end's dynamic batch flattened into the rows of a
  // linear layer's input): a plain matmul with A read row by row, [?][K]
  // and C [?][N] otherwise static (emitMatmul).
  bool dynamicM = false;
  auto dynamicRows = [](Value v) -> MemRefType {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t || t.getRank() != 2 || !t.getLayout().isIdentity() ||
        !t.isDynamicDim(0) || t.isDynamicDim(1))
      return nullptr;
    return t;
  };
  if (!batch && bt && !at && !ct && !s.a.transposed) {
    at = dynamicRows(s.a.mem);
    ct = dynamicRows(s.c);
    dynamicM = at && ct;
  }
  // A dynamic batch of a batch_matmul (static matrices): a run-time loop.
  auto dynamicBatch = [](Value v, bool batched) -> MemRefType {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t || !batched || t.getRank() != 3 || !t.getLayout().isIdentity() ||
        !t.isDynamicDim(0) || t.isDynamicDim(1) || t.isDynamicDim(2))
      return nullptr;
    return t;
  };
  if (batch && !ct) {
    ct = dynamicBatch(s.c, true);
    if (ct && !at)
      at = dynamicBatch(s.a.mem, s.a.batched);
    if (ct && !bt)
      bt = dynamicBatch(s.b.mem, s.b.batched);
  }
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
  s.batches = batch ? ct.getDimSize(0) : 0; // maybe ShapedType::kDynamic
  s.m = dynamicM ? ShapedType::kDynamic : ct.getDimSize(cr - 2);
  s.n = ct.getDimSize(cr - 1);
  s.k = at.getDimSize(s.a.transposed ? ar - 2 : ar - 1);
  return s;
}

bool mlir::lowp::x86::isElementwiseConversion(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = op.getBlock();
  return body->getArgument(1).use_empty() &&
         llvm::all_of(body->without_terminator(), [](Operation &inner) {
           return inner.getNumRegions() == 0 &&
                  (inner.hasTrait<OpTrait::ConstantLike>() ||
                   (OpTrait::hasElementwiseMappableTraits(&inner) &&
                    isPure(&inner)));
         });
}

/// The elementwise op that produced `bMem`, a buffer the contraction
/// `consumer` reads as B, when packing can read its source and apply its
/// payload instead (the narrowing cast of a weight): `bMem` is an alloc of
/// the same block that only it writes and only `consumer` reads (besides
/// deallocations); the op has one input of B's shape and layout, identity
/// maps, and a payload of elementwise ops that ignores the output; nothing
/// between it and `consumer` may write its input.
linalg::LinalgOp mlir::lowp::x86::findFusableCast(Value bMem,
                                                  Operation *consumer) {
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
      !producer.hasPureBufferSemantics() || !isElementwiseConversion(producer))
    return nullptr;
  Value src = producer.getDpsInputs()[0];
  auto srcType = dyn_cast<MemRefType>(src.getType());
  auto dstType = cast<MemRefType>(bMem.getType());
  if (!srcType || srcType.getShape() != dstType.getShape() ||
      !srcType.getLayout().isIdentity() ||
      !srcType.getElementType().isIntOrFloat())
    return nullptr;
  // Nothing in between may write the source.
  Value srcRoot = getRootBuffer(src);
  for (Operation *it = producer->getNextNode(); it != consumer;
       it = it->getNextNode()) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(it);
    if (!effects)
      return nullptr;
    for (const MemoryEffects::EffectInstance &e : *effects)
      if (isa<MemoryEffects::Write>(e.getEffect()) &&
          (!e.getValue() || getRootBuffer(e.getValue()) == srcRoot))
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
  bool dot = cfg.dotFor(s.elem, s.k);
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

namespace {

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
    // A cast producing B is applied while packing (it was a full pass
    // over B writing a buffer the packing then read).
    linalg::LinalgOp cast =
        s->b.batched ? nullptr : findFusableCast(s->b.mem, op);
    MatrixOperand b = s->b;
    if (cast)
      b.mem = cast.getDpsInputs()[0];
    // The fill of C and its elementwise consumer run in the kernel, on the
    // accumulators.
    KernelEpilogue epilogue =
        matchEpilogueOrRemark(op, s->c, {s->a.mem, s->b.mem, b.mem});
    prepareEpilogue(epilogue, op, rw);
    // A constant weight is packed (and rounded) here, once.
    Value prepacked = packConstantB(*s, cast, b.mem, cfg, rw, op.getLoc());
    kb.emitMatmul(s->a, b, s->c, s->batches, s->m, s->n, s->k, s->elem,
                  prepacked, cast, &epilogue);
    if (cast)
      rw.eraseOp(cast);
    rw.eraseOp(op);
    finishEpilogue(epilogue, rw);
    return success();
  }
  KernelConfig cfg;
};

} // namespace

void mlir::lowp::x86::populateMatmulKernelPatterns(RewritePatternSet &patterns,
                                                   const KernelConfig &cfg) {
  patterns.add<ContractionToKernel<linalg::MatmulOp>,
               ContractionToKernel<linalg::BatchMatmulOp>>(
      patterns.getContext(), cfg);
}
