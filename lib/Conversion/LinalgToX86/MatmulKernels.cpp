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
//  * An mr x nr block of C lives in vector registers (scf.for iter_args)
//    across the whole k loop: per k step, nr/VL vector loads of B, mr
//    broadcasts of A and mr*nr/VL FMAs (or vdpbf16ps).
//
// AMX-BF16 tiles (AmxKernel.cpp) take the shapes they cover.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

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
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// A is packed for the micro-kernel when at least this many column panels
/// of B read each packed block: the O(m k) copy is then a few percent of
/// the O(m n k) GEMM at most.
static constexpr int64_t kPackAMinPanels = 16;

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

void KernelBuilder::emitKernel(Value a, ValueRange aBatch, bool aTransposed, Value packed,
                Value c, ValueRange cBatch, int64_t m, int64_t n, int64_t k,
                bool dot, bool bRowMajor,
                Value cColOffset, PanelPacker packSlice,
                const KernelEpilogue *epilogue,
                PanelPrefetcher prefetchSource, Value cRowOffset,
                const SegmentedA *segA) {
  Type f32 = b.getF32Type();
  // B packed as f8E4M3FN bytes (packFP8B): each load is widened in
  // registers by placing the byte's sign, exponent and mantissa in the
  // fields of a bf16 (dot) or f32 value: a sign extension, a shift and a
  // mask. That value is the FP8 value times 2^-120 (the exponent biases
  // differ by 120; E4M3 subnormals land on the wide format's subnormals),
  // so A is read scaled by 2^64 (an exact copy) and the accumulators are
  // scaled by 2^56 before they are stored: every product stays a normal
  // number. vdpbf16ps reads bf16 subnormals as zero: on the dot kernel an
  // E4M3 subnormal (below 2^-6 of the scaled weight) counts as zero, which
  // fpopt's quantizer never writes (docs/lowering-x86.md).
  bool fp8B = packed &&
              isa<Float8E4M3FNType>(getElementTypeOrSelf(packed.getType()));
  assert((!fp8B || !segA) && "FP8 panels are matmul weights");
  // B's element type as the kernel reads it (bf16 pairs for dot, else f32).
  Type elem = fp8B     ? (dot ? Type(b.getBF16Type()) : f32)
              : packed ? getElementTypeOrSelf(packed.getType())
                       : (dot ? getElementTypeOrSelf(a.getType()) : f32);
  unsigned lanes = cfg.lanes, nr = cfg.nr;
  auto accType = VectorType::get({lanes}, f32);
  int64_t fullPanels = n / nr, tailCols = n % nr;
  // k blocks of kc steps (see below); in packed slices of at most 256 KiB.
  int64_t kSteps = dot ? k / 2 : k;
  int64_t kcSteps = std::min<int64_t>(kSteps, cfg.kcSteps(dot));
  if (packSlice)
    kcSteps = std::min<int64_t>(kcSteps, (256 << 10) / (4 * nr));
  // A read by segments: k blocks of whole segments, as many blocks as kc
  // asks for, evenly filled (K = 9 taps of 64 channels, kc = 512: 5 + 4
  // taps, not 8 + 1).
  if (segA) {
    int64_t segSteps = segA->segmentSteps,
            segments = kSteps / segSteps;
    int64_t blocks = ceilDiv(kSteps, kcSteps);
    kcSteps = ceilDiv(segments, blocks) * segSteps;
  }
  // A skinny GEMM (all of M in one register block: a decoding step's
  // projections) reads each byte of a B packed ahead once, in one pass per
  // panel: k blocks would only cut that sequential stream into kc-long runs
  // a panel apart, for no reuse (bench/llm/gemv.py measures the stream).
  bool streamsPanels =
      packed && !packSlice && !segA && !cfg.kc && m <= int64_t(cfg.mr);
  if (streamsPanels)
    kcSteps = kSteps;
  Type aElem = getElementTypeOrSelf(a.getType());
  Value aScaled;
  if (fp8B) {
    // A's rows times 2^64, row-major, in A's own type (exact).
    aScaled = alloc(MemRefType::get({m, k}, aElem));
    Value scale = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0x1p64f));
    SmallVector<Value> batch(aBatch.begin(), aBatch.end());
    loop(m, 1, [&](Value row) {
      loop(k, 1, [&](Value col) {
        Value x = memref::LoadOp::create(
            b, loc, a,
            aTransposed ? at(batch, {col, row}) : at(batch, {row, col}));
        if (aElem != f32)
          x = arith::ExtFOp::create(b, loc, f32, x);
        x = arith::MulFOp::create(b, loc, x, scale);
        if (aElem != f32)
          x = arith::TruncFOp::create(b, loc, aElem, x);
        memref::StoreOp::create(b, loc, x, aScaled, ValueRange{row, col});
      });
    });
    a = aScaled;
    aBatch = ValueRange();
    aTransposed = false;
  }
  // Freed after the kernel, at whichever return below.
  auto freeScaledA = llvm::make_scope_exit([&] {
    if (aScaled)
      dealloc(aScaled);
  });
  // The raw FP8 bytes of B `raw` (a vector) as bf16 or f32 values: the
  // FP8 value times 2^-120 (see above).
  auto widenFP8 = [&](Value raw) -> Value {
    auto rawType = cast<VectorType>(raw.getType());
    int64_t width = rawType.getNumElements();
    unsigned bits = dot ? 16 : 32;
    auto intType = VectorType::get({width}, b.getIntegerType(bits));
    auto splatInt = [&](uint64_t value) -> Value {
      return arith::ConstantOp::create(
          b, loc, intType,
          DenseElementsAttr::get(intType, APInt(bits, value)));
    };
    Value bytes = vector::BitCastOp::create(
        b, loc, VectorType::get({width}, b.getI8Type()), raw);
    Value wide = arith::ExtSIOp::create(b, loc, intType, bytes);
    // Sign extended: the byte at bits 0-7, its sign above. Shifted so that
    // the exponent's 4 bits end at the wide exponent field's low end, the
    // copies of the sign above the byte masked off but the top one.
    wide = arith::ShLIOp::create(b, loc, wide, splatInt(bits - 12));
    wide = arith::AndIOp::create(
        b, loc, wide,
        splatInt(dot ? 0x87FFu : 0x87FFFFFFu));
    return vector::BitCastOp::create(
        b, loc, VectorType::get({width}, elem), wide);
  };
  // With AMX, blocks of 2 x 2 tiles (AmxKernel.cpp); what they leave, and
  // every block without AMX, mr x nr in vector registers.
  bool amx = false;
  if (dot && cfg.amxTile.valid() && !fp8B) {
    std::optional<std::string> whyNot =
        whyNoAmxBlocks(m, kSteps, kcSteps, aElem,
                       getElementTypeOrSelf(c.getType()), segA);
    amx = !whyNot;
    // vdpbf16ps instead of tiles: several times slower where AMX is.
    if (whyNot && amxFallbackRemarks)
      emitRemark(loc) << "amx=true: a " << m << "x" << n << "x" << k
                      << " GEMM runs on vdpbf16ps, not AMX tiles: " << *whyNot;
  }
  unsigned mr = amx ? 2 * cfg.amxTile.m : cfg.mr;
  // B packed per panel on the fly and read by at most 2 row blocks (a batch
  // of 64 rows on tiles): the slice's reuse that k blocks buy is small, and
  // B's source streams from memory faster in long runs (a transposed
  // weight's rows). k blocks as deep as the slice buffer allows: the MLP
  // 1024-4096-4096-1024 at batch 64, mixed on AMX, 12.1 -> 9.5 ms per call
  // (bench/e2e, kc=2048 against the default in the same rounds).
  if (packSlice && m <= 2 * int64_t(mr))
    kcSteps = std::min<int64_t>(kSteps, (256 << 10) / (4 * nr));
  int64_t tail = m % mr;
  auto pairVec = VectorType::get({2}, elem);
  auto pairAsInt = VectorType::get({1}, b.getI32Type());
  auto bcastInt = VectorType::get({lanes}, b.getI32Type());
  auto dotOperand = VectorType::get({2 * lanes}, elem);
  unsigned unroll = 1;
  // The first k block starts from the fill value instead of C, the last
  // stores through the consumer instead of into C (KernelEpilogue.cpp).
  Value fillValue = !epilogue        ? Value()
                    : epilogue->fill ? epilogue->fill->getOperand(0)
                                     : epilogue->initValue;
  bool fusedConsumer = epilogue && epilogue->consumer;
  // One block of `blockRows` rows and `cols` columns (nr, or the last
  // panel's) of C, in registers across [kBegin, kEnd).
  // `slice`: B's panel jb for [kBegin, kEnd) packed on the fly
  // ([kEnd - kBegin][nr], see packPanelSlice) instead of `packed`.
  // `ap`: A's rows row0.. packed for this k block (packABlock below), as
  // its block `apBlock`; null: A read in place.
  auto emitVectorBlock = [&](Value jb, Value row0, unsigned blockRows,
                             int64_t cols, Value kBegin, Value kEnd,
                             bool first, bool last, Value slice = nullptr,
                             Value ap = nullptr, Value apBlock = nullptr) {
    Value bCol0 = mulc(jb, nr);
    Value col0 = cColOffset ? addIdx(bCol0, cColOffset) : bCol0;
    // B is read from memory by the first row block of each panel (every
    // later one finds it in L2). Each k step of every block therefore also
    // prefetches into L2 what the next panel reads at that k step (later
    // blocks repeat requests already in flight or done), so the next
    // panel's first block runs at the L2 rate. A small B already in cache
    // pays two prefetch issues per 16 FMAs.
    //  * B packed ahead of the kernel: the same k step of the next panel of
    //    the packed buffer. The last full panel prefetches the last one;
    //    that one, none.
    //  * B packed here, a slice per panel: the source the packing of the
    //    next full panel reads (prefetchPanelSource).
    Value prefetchPanel;
    SmallVector<int64_t> prefetchCols;
    Value prefetchSourcePanel;
    std::optional<int64_t> constPanel = getConstantIntValue(jb);
    if (slice && prefetchSource && cfg.prefetchLineBytes && fullPanels > 1 &&
        !constPanel)
      prefetchSourcePanel = arith::MinSIOp::create(b, loc, addc(jb, 1),
                                                   idx(fullPanels - 1));
    // A streamed panel is read by its only row block: a second stream
    // into the next panel only competes with it (bench/llm/gemv.py).
    if (packed && !slice && !bRowMajor && cfg.prefetchLineBytes &&
        !streamsPanels) {
      auto packedType = cast<MemRefType>(packed.getType());
      int64_t panels = packedType.getDimSize(0),
              rowElems = packedType.getDimSize(2);
      int64_t elemBytes = packedType.getElementTypeBitWidth() / 8;
      int64_t lineElems =
          std::max<int64_t>(1, cfg.prefetchLineBytes / elemBytes);
      if (panels > 1 && constPanel != panels - 1) {
        prefetchPanel =
            arith::MinSIOp::create(b, loc, addc(jb, 1), idx(panels - 1));
        for (int64_t col = 0; col < rowElems; col += lineElems)
          prefetchCols.push_back(col);
      }
    }
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
    SmallVector<Value> rows, cRows, init;
    for (unsigned r = 0; r < blockRows; ++r) {
      rows.push_back(addc(row0, r));
      cRows.push_back(cRowOffset ? addIdx(rows.back(), cRowOffset)
                                 : rows.back());
    }
    if (first && fillValue) {
      Value splat = vector::BroadcastOp::create(b, loc, accType, fillValue);
      init.assign(blockRows * nv, splat);
    } else {
    for (unsigned r = 0; r < blockRows; ++r)
      for (unsigned v = 0; v < nv; ++v) {
        SmallVector<Value> ix = at(cBatch, {cRows[r], addc(col0, v * lanes)});
        init.push_back(isPartial(v)
                           ? vector::MaskedLoadOp::create(b, loc, accType, c,
                                                          ix, mask, zero)
                                 .getResult()
                           : vector::LoadOp::create(b, loc, accType, c, ix)
                                 .getResult());
      }
    }
    // FP8 panels: the accumulators hold the sum times 2^-56 (above).
    auto scaleAll = [&](SmallVector<Value> &values, float factor) {
      Value splat = arith::ConstantOp::create(
          b, loc, accType, DenseElementsAttr::get(accType, factor));
      for (Value &v : values)
        v = arith::MulFOp::create(b, loc, v, splat);
    };
    if (first && fp8B)
      scaleAll(init, 0x1p-56f);
    // One k step `kk` on the accumulators `next`; `aIx(r)`: where row r's
    // A (scalar or pair) is, when A is not packed.
    auto kStep = [&](SmallVector<Value> &next, Value kk,
                     function_ref<SmallVector<Value>(unsigned r)> aIx) {
      SmallVector<Value> bv;
      VectorType bType = dot ? dotOperand : accType;
      if (fp8B)
        bType = VectorType::get(bType.getShape(),
                                getElementTypeOrSelf(packed.getType()));
      for (unsigned v = 0; v < nv; ++v) {
        Value loaded = vector::LoadOp::create(
            b, loc, bType, slice ? slice : packed,
            slice ? ValueRange{arith::SubIOp::create(b, loc, kk, kBegin)
                                   .getResult(),
                               idx((dot ? 2 : 1) * v * lanes)}
            : bRowMajor
                ? ValueRange{kk, mulc(addc(bCol0, v * lanes), dot ? 2 : 1)}
                : ValueRange{jb, kk, idx((dot ? 2 : 1) * v * lanes)});
        bv.push_back(fp8B ? widenFP8(loaded) : loaded);
      }
      if (prefetchSourcePanel)
        prefetchSource(prefetchSourcePanel, kBegin, kk);
      for (int64_t col : prefetchCols)
        memref::PrefetchOp::create(b, loc, packed,
                                   ValueRange{prefetchPanel, kk, idx(col)},
                                   /*isWrite=*/false, /*localityHint=*/2,
                                   /*isDataCache=*/true);
      Value kRel =
          ap ? arith::SubIOp::create(b, loc, kk, kBegin).getResult() : Value();
      Value aMem = segA ? segA->source : a;
      for (unsigned r = 0; r < blockRows; ++r) {
        Value av;
        if (dot) {
          // One pair of A (two bf16 = one i32) splat to every lane.
          Value pair =
              ap ? vector::LoadOp::create(b, loc, pairVec, ap,
                                          ValueRange{apBlock, kRel, idx(2 * r)})
                       .getResult()
                 : vector::LoadOp::create(b, loc, pairVec, aMem, aIx(r))
                       .getResult();
          Value asInt = vector::BitCastOp::create(b, loc, pairAsInt, pair);
          Value scalar = vector::ExtractOp::create(b, loc, asInt, 0);
          Value splat = vector::BroadcastOp::create(b, loc, bcastInt, scalar);
          av = vector::BitCastOp::create(b, loc, dotOperand, splat);
        } else {
          Value scalar =
              ap ? memref::LoadOp::create(b, loc, ap,
                                          ValueRange{apBlock, kRel, idx(r)})
                       .getResult()
                 : memref::LoadOp::create(b, loc, aMem, aIx(r)).getResult();
          // A narrow A read in place (a dynamic M's bf16 rows without
          // AVX512_BF16): widened here, an exact shift.
          if (!scalar.getType().isF32())
            scalar = arith::ExtFOp::create(b, loc, f32, scalar);
          av = vector::BroadcastOp::create(b, loc, accType, scalar);
        }
        for (unsigned v = 0; v < nv; ++v) {
          Value &acc = next[r * nv + v];
          acc = dot ? x86vector::DotBF16Op::create(b, loc, accType, acc, av,
                                                   bv[v])
                          .getResult()
                    : vector::FMAOp::create(b, loc, av, bv[v], acc).getResult();
        }
      }
    };
    // The k loop: over [kBegin, kEnd), or, with A read by segments, over
    // the segments in it and the steps of each.
    auto kLoopBody = [&](function_ref<void(SmallVector<Value> &, Value)> step,
                         int64_t stepUnroll) {
      return [&, step, stepUnroll](OpBuilder &nb, Location, Value iv,
                                   ValueRange accs) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> next(accs.begin(), accs.end());
        for (int64_t u = 0; u < stepUnroll; ++u)
          step(next, addc(iv, u));
        scf::YieldOp::create(b, loc, next);
      };
    };
    scf::ForOp kLoop;
    // A streamed panel's unrolled k steps go round `sets` sets of
    // accumulators (as many as half the vector registers hold), summed
    // after the loop: independent chains of dots keep more of the panel's
    // loads in flight. One chain per register of C streamed at 70-75% of
    // the read bandwidth, four at 80-90%, eight at 90-100%, the most
    // steadily on heap memory (bench/llm/gemv.py).
    unsigned perSet = blockRows * nv, sets = 1;
    unsigned vectorRegisters = lanes >= 16 ? 32 : 16; // AVX-512 : AVX2
    if (streamsPanels)
      while (sets * 2 <= unroll && sets * 2 * perSet <= vectorRegisters / 2)
        sets *= 2;
    if (!segA) {
      SmallVector<Value> setInit(init);
      if (sets > 1) {
        Value zeros = arith::ConstantOp::create(
            b, loc, accType, DenseElementsAttr::get(accType, b.getZeroAttr(f32)));
        setInit.append((sets - 1) * perSet, zeros);
      }
      unsigned stepInSet = 0;
      kLoop = scf::ForOp::create(
          b, loc, kBegin, kEnd, idx(unroll), setInit,
          kLoopBody(
              [&](SmallVector<Value> &next, Value kk) {
                unsigned set = stepInSet++ % sets;
                SmallVector<Value> accs(next.begin() + set * perSet,
                                        next.begin() + (set + 1) * perSet);
                kStep(accs, kk, [&](unsigned r) {
                  if (dot)
                    return at(aBatch, {rows[r], mulc(kk, 2)});
                  return aTransposed ? at(aBatch, {kk, rows[r]})
                                     : at(aBatch, {rows[r], kk});
                });
                llvm::copy(accs, next.begin() + set * perSet);
              },
              unroll));
    } else {
      int64_t segSteps = segA->segmentSteps;
      SmallVector<SmallVector<Value>> states;
      for (unsigned r = 0; r < blockRows; ++r)
        states.push_back(segA->rowState(rows[r]));
      Value segBegin = arith::DivUIOp::create(b, loc, kBegin, idx(segSteps));
      Value segEnd = arith::DivUIOp::create(b, loc, kEnd, idx(segSteps));
      int64_t stepUnroll = segSteps % 4 == 0 ? 4 : 1;
      kLoop = scf::ForOp::create(
          b, loc, segBegin, segEnd, idx(1), init,
          [&](OpBuilder &nb, Location, Value seg, ValueRange accs) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPoint(nb.getInsertionBlock(),
                                nb.getInsertionPoint());
            SmallVector<SmallVector<Value>> starts;
            for (unsigned r = 0; r < blockRows; ++r)
              starts.push_back(segA->start(states[r], seg));
            Value k0 = mulc(seg, segSteps);
            auto steps = scf::ForOp::create(
                b, loc, idx(0), idx(segSteps), idx(stepUnroll), accs,
                kLoopBody(
                    [&](SmallVector<Value> &next, Value step) {
                      kStep(next, addIdx(k0, step), [&](unsigned r) {
                        SmallVector<Value> ix = starts[r];
                        ix.back() = addIdx(ix.back(),
                                           dot ? mulc(step, 2) : step);
                        return ix;
                      });
                    },
                    stepUnroll));
            scf::YieldOp::create(b, loc, steps.getResults());
          });
    }
    SmallVector<Value> sums(kLoop.getResults().take_front(perSet));
    for (unsigned set = 1; set < sets; ++set)
      for (unsigned i = 0; i < perSet; ++i)
        sums[i] = arith::AddFOp::create(b, loc, sums[i],
                                        kLoop.getResult(set * perSet + i));
    if (last && fp8B)
      scaleAll(sums, 0x1p56f);
    if (last && fusedConsumer) {
      // What does not depend on the row once per block column, or, with
      // operands per row (an NCHW batch norm), what does not depend on the
      // column once per row.
      if (epilogueHasRowOperands(*epilogue, cBatch.size())) {
        for (unsigned r = 0; r < blockRows; ++r) {
          IRMapping sameInRow =
              hoistEpilogue(*epilogue, at(cBatch, {cRows[r], col0}),
                            EpilogueHoist::SameForEveryColumn, Value());
          for (unsigned v = 0; v < nv; ++v)
            storeThroughEpilogue(
                *epilogue, sums[r * nv + v],
                at(cBatch, {cRows[r], addc(col0, v * lanes)}),
                isPartial(v) ? mask : Value(), &sameInRow);
        }
        return;
      }
      for (unsigned v = 0; v < nv; ++v) {
        Value vMask = isPartial(v) ? mask : Value();
        IRMapping perColumns = hoistEpilogue(
            *epilogue, at(cBatch, {cRows[0], addc(col0, v * lanes)}),
            EpilogueHoist::SameForEveryRow, vMask);
        for (unsigned r = 0; r < blockRows; ++r)
          storeThroughEpilogue(
              *epilogue, sums[r * nv + v],
              at(cBatch, {cRows[r], addc(col0, v * lanes)}), vMask,
              &perColumns);
      }
      return;
    }
    for (unsigned r = 0; r < blockRows; ++r)
      for (unsigned v = 0; v < nv; ++v) {
        Value acc = sums[r * nv + v];
        SmallVector<Value> ix = at(cBatch, {cRows[r], addc(col0, v * lanes)});
        if (isPartial(v))
          vector::MaskedStoreOp::create(b, loc, c, ix, mask, acc);
        else
          vector::StoreOp::create(b, loc, acc, c, ix);
      }
  };
  // The AMX blocks' f32 scratch block (a non-zero fill, the epilogue): one
  // per panel and k block, shared by the panel's row blocks (a malloc per
  // block showed in the profiles of parallel loops).
  Value amxScratch;
  auto withAmxScratch = [&](int64_t cols, bool first, bool last,
                            function_ref<void()> body) {
    bool needed = amx && cols == int64_t(nr) &&
                  ((first && fillValue &&
                    !matchPattern(fillValue, m_AnyZeroFloat())) ||
                   (last && fusedConsumer));
    if (!needed) {
      body();
      return;
    }
    amxScratch = alloc(MemRefType::get({mr, nr}, f32));
    body();
    dealloc(amxScratch);
    amxScratch = nullptr;
  };
  // A block of `mr` rows: on AMX tiles when it is a full one, else as
  // vector blocks of at most cfg.mr rows (A is not packed with AMX).
  auto emitBlock = [&](Value jb, Value row0, unsigned blockRows,
                       int64_t cols, Value kBegin, Value kEnd, bool first,
                       bool last, Value slice = nullptr, Value ap = nullptr,
                       Value apBlock = nullptr) {
    if (!amx) {
      emitVectorBlock(jb, row0, blockRows, cols, kBegin, kEnd, first, last,
                      slice, ap, apBlock);
      return;
    }
    if (blockRows < mr || cols < int64_t(nr)) {
      for (unsigned r0 = 0; r0 < blockRows; r0 += cfg.mr)
        emitVectorBlock(jb, addc(row0, r0), std::min(cfg.mr, blockRows - r0),
                        cols, kBegin, kEnd, first, last, slice);
      return;
    }
    Value bCol0 = mulc(jb, nr);
    AmxBlock blk;
    blk.a = a;
    blk.aBatch.assign(aBatch.begin(), aBatch.end());
    blk.aRow0 = row0;
    blk.c = c;
    blk.cBatch.assign(cBatch.begin(), cBatch.end());
    blk.cRow0 = cRowOffset ? addIdx(row0, cRowOffset) : row0;
    blk.col0 = cColOffset ? addIdx(bCol0, cColOffset) : bCol0;
    blk.bMem = slice ? slice : packed;
    blk.bAt = [&, slice, jb, kBegin, bCol0](Value kk,
                                            int64_t col) -> SmallVector<Value> {
      if (slice)
        return {arith::SubIOp::create(b, loc, kk, kBegin).getResult(),
                idx(col)};
      if (bRowMajor)
        return {kk, addc(mulc(bCol0, 2), col)};
      return {jb, kk, idx(col)};
    };
    blk.kBegin = kBegin;
    blk.kEnd = kEnd;
    blk.kTail = amxKTail(kSteps);
    blk.fill = first ? fillValue : Value();
    blk.epilogue = last && fusedConsumer ? epilogue : nullptr;
    blk.scratch = amxScratch;
    blk.segA = segA;
    emitAmxBlock(blk);
  };
  // Every panel: the full ones in a loop, then the zero-padded last one.
  auto forEachPanel = [&](function_ref<void(Value, int64_t)> body) {
    // Panels write disjoint columns of C (parallel).
    loop(fullPanels, 1, [&](Value jb) { body(jb, nr); }, /*parallel=*/true);
    if (tailCols)
      body(idx(fullPanels), tailCols);
  };
  // K blocks of kc steps (GotoBLAS): the kc x nr slice of a B panel stays
  // close while every block of C passes by. A step is one row of packed B
  // (a k for the FMA kernel, a pair of k for vdpbf16ps), so a block holds
  // the same bytes of A and B in both kernels: counted in k, the bf16 dot
  // kernel's blocks were half as deep, and measured 2-6% slower at
  // 1024-4096 (bench/x86/onednn.sh, kc=1024 against the old default).
  // Rows of an m block (a multiple of mr): `mc`, or as many as keep one
  // block of A (kc deep, read as bf16 pairs by the dot kernel, as f32
  // otherwise) in half the L2; all rows without either. By default only
  // where enough panels pass by to reuse it (N >= 8 nr): with a few, A is
  // read a few times in order, which costs less than the blocking (an NHWC
  // convolution with 64 filters measured 6% slower blocked).
  // With AMX tiles, which read A in place (rows a full row of A apart), a
  // quarter of the L2: a 4096^3 GEMM measured 0.90x oneDNN's with half,
  // 1.20x with a quarter (bench/x86/onednn.sh, mc=256).
  auto rowBlock = [&](int64_t full, int64_t kDepth) -> int64_t {
    int64_t rows = cfg.mc;
    if (!rows && cfg.l2Bytes && n >= 8 * int64_t(nr))
      rows = (cfg.l2Bytes / (amx ? 4 : 2)) / std::max<int64_t>(1, kDepth * 4);
    if (!rows)
      return full;
    return std::max<int64_t>(mr, rows / mr * mr);
  };
  // A packed per k block and row block: the rows of each mr block
  // interleaved along k ([block][k step][mr] f32, or [block][k pair][2 mr]
  // bf16 for the dot kernel), so the micro-kernel's broadcasts read one
  // contiguous stream instead of mr rows a full row of A apart (rows of a
  // 4096-wide A are 16 KiB apart: the same L1 set for all of them). Packed
  // once per k block and row block and read by every panel of B, so only
  // where many panels pass by (the copy is O(m k), the GEMM O(m n k)).
  unsigned aWidth = dot ? 2 : 1;
  bool packA = !amx && !bRowMajor && !segA && m >= int64_t(cfg.mr) &&
               fullPanels >= kPackAMinPanels;
  // Rows [rowBegin, rowEnd) of A (whole mr blocks, `rowsPerBlock` rows
  // each, the last maybe fewer) for k steps [kBegin, kBegin + len) into a
  // new buffer of `blocks` blocks of `maxLen` k steps.
  auto packABlock = [&](Value rowBegin, Value rowEnd, int64_t blocks,
                        unsigned rowsPerBlock, Value kBegin, int64_t len,
                        int64_t maxLen) -> Value {
    Value buf = alloc(MemRefType::get(
        {blocks, maxLen, int64_t(cfg.mr * aWidth)}, aElem));
    auto pair = VectorType::get({aWidth}, aElem);
    loop(rowBegin, rowEnd, rowsPerBlock, [&](Value row0) {
      Value blk = arith::DivUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, row0, rowBegin),
          idx(rowsPerBlock));
      loop(len, 1, [&](Value kk) {
        Value k0 = addIdx(kBegin, kk);
        for (unsigned r = 0; r < rowsPerBlock; ++r) {
          Value row = addc(row0, r);
          if (dot) {
            Value v = vector::LoadOp::create(b, loc, pair, a,
                                             at(aBatch, {row, mulc(k0, 2)}));
            vector::StoreOp::create(b, loc, v, buf,
                                    ValueRange{blk, kk, idx(2 * r)});
          } else {
            Value v = memref::LoadOp::create(
                b, loc, a,
                aTransposed ? at(aBatch, {k0, row}) : at(aBatch, {row, k0}));
            memref::StoreOp::create(b, loc, v, buf,
                                    ValueRange{blk, kk, idx(r)});
          }
        }
      });
    });
    return buf;
  };
  if (packSlice) {
    // B packed a k block of one panel at a time, into a small buffer that
    // stays in L1/L2 while every row block of A passes by: B is read once
    // from memory and never written back (a full packed copy of a large
    // weight is a fresh, page-faulted allocation per call; a 64 KiB one is
    // a reused heap chunk). One buffer per panel iteration, so threads
    // sharing the panels do not share it. Full k blocks, then the rest.
    // The buffer stays within 256 KiB whatever kc (0: all of k) is.
    int64_t fullK = kSteps / kcSteps * kcSteps, restK = kSteps - fullK;
    unroll = (kcSteps % 4 == 0 && restK % 4 == 0) ? 4 : 1;
    int64_t full = m - tail;
    // Row blocks of mc (a multiple of mr; 0: all rows): the mc x kc block
    // of A stays in L2 while every panel passes by, instead of streaming
    // all of A's k block from L3 once per panel when M is large. The slice
    // of B is then packed once per row block (O(k * n * m / mc), small
    // next to the GEMM's O(m * n * k)).
    int64_t mcRows = rowBlock(full, kcSteps);
    auto kBlock = [&](Value kBegin, int64_t len, bool first, bool last) {
      Value kEnd = addc(kBegin, len);
      // The block of row0 in a packed A starting at row `ic`.
      auto apBlockOf = [&](Value row0, Value ic) -> Value {
        return arith::DivUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, row0, ic), idx(cfg.mr));
      };
      Value apTail = packA && tail
                         ? packABlock(idx(full), idx(m), 1, tail, kBegin,
                                      len, len)
                         : Value();
      if (mcRows >= full) {
        Value ap = packA && full ? packABlock(idx(0), idx(full),
                                              full / cfg.mr, cfg.mr, kBegin,
                                              len, len)
                                 : Value();
        forEachPanel([&](Value jb, int64_t cols) {
          Value slice = packSlice(jb, cols, kBegin, len);
          withAmxScratch(cols, first, last, [&] {
            loop(full, mr, [&](Value row0) {
              emitBlock(jb, row0, mr, cols, kBegin, kEnd, first, last,
                        slice, ap, ap ? apBlockOf(row0, idx(0)) : Value());
            });
          });
          if (tail)
            emitBlock(jb, idx(full), tail, cols, kBegin, kEnd, first, last,
                      slice, apTail, apTail ? idx(0) : Value());
          dealloc(slice);
        });
        if (ap)
          dealloc(ap);
        if (apTail)
          dealloc(apTail);
        return;
      }
      loop(full, mcRows, [&](Value ic) {
        Value icEnd = arith::MinSIOp::create(b, loc, addc(ic, mcRows),
                                             idx(full));
        Value ap = packA ? packABlock(ic, icEnd, mcRows / cfg.mr, cfg.mr,
                                      kBegin, len, len)
                         : Value();
        forEachPanel([&](Value jb, int64_t cols) {
          Value slice = packSlice(jb, cols, kBegin, len);
          withAmxScratch(cols, first, last, [&] {
            loop(ic, icEnd, mr, [&](Value row0) {
              emitBlock(jb, row0, mr, cols, kBegin, kEnd, first, last,
                        slice, ap, ap ? apBlockOf(row0, ic) : Value());
            });
          });
          dealloc(slice);
        });
        if (ap)
          dealloc(ap);
      });
      if (tail)
        forEachPanel([&](Value jb, int64_t cols) {
          Value slice = packSlice(jb, cols, kBegin, len);
          emitBlock(jb, idx(full), tail, cols, kBegin, kEnd, first, last,
                    slice, apTail, apTail ? idx(0) : Value());
          dealloc(slice);
        });
      if (apTail)
        dealloc(apTail);
    };
    if (!fillValue && !fusedConsumer) {
      loop(fullK, kcSteps,
           [&](Value kBegin) { kBlock(kBegin, kcSteps, false, false); });
      if (restK)
        kBlock(idx(fullK), restK, false, false);
      return;
    }
    // The first and the last k block peeled (one block may be both).
    int64_t lastBegin = restK ? fullK : fullK - kcSteps;
    if (lastBegin == 0) {
      kBlock(idx(0), kSteps, true, true);
      return;
    }
    kBlock(idx(0), kcSteps, true, false);
    loop(kcSteps, lastBegin, kcSteps,
         [&](Value kBegin) { kBlock(kBegin, kcSteps, false, false); });
    kBlock(idx(lastBegin), kSteps - lastBegin, false, true);
    return;
  }
  // The k loop is unrolled when every k block divides evenly: fewer
  // loop-control instructions among the FMAs / dots.
  unroll = (kSteps % kcSteps == 0 && kcSteps % 4 == 0) ? 4 : 1;
  // A streamed panel: eight steps, for eight sets of accumulators.
  if (streamsPanels && kSteps % 8 == 0)
    unroll = 8;
  // A packed only where every k block has kcSteps steps (the buffer's
  // k extent is static).
  if (kSteps % kcSteps)
    packA = false;
  auto kBlock = [&](Value kBegin, bool first, bool last) {
    Value kEnd =
        arith::MinSIOp::create(b, loc, addc(kBegin, kcSteps), idx(kSteps));
    // Row blocks of mc (a multiple of mr): the mc x kc block of A stays
    // in L2 while every panel of B passes by.
    int64_t full = m - tail;
    int64_t mcRows = rowBlock(full, kcSteps);
    if (full > 0) {
      int64_t rowsPerIc = std::min(mcRows, full);
      loop(full, rowsPerIc, [&](Value ic) {
        Value icEnd = arith::MinSIOp::create(
            b, loc, addc(ic, rowsPerIc), idx(full));
        Value ap = packA ? packABlock(ic, icEnd, rowsPerIc / cfg.mr, cfg.mr,
                                      kBegin, kcSteps, kcSteps)
                         : Value();
        forEachPanel([&](Value jb, int64_t cols) {
          withAmxScratch(cols, first, last, [&] {
            loop(ic, icEnd, mr, [&](Value row0) {
              Value blk =
                  ap ? arith::DivUIOp::create(
                           b, loc, arith::SubIOp::create(b, loc, row0, ic),
                           idx(cfg.mr))
                           .getResult()
                     : Value();
              emitBlock(jb, row0, mr, cols, kBegin, kEnd, first, last,
                        nullptr, ap, blk);
            });
          });
        });
        if (ap)
          dealloc(ap);
      });
    }
    if (tail) {
      Value apTail = packA ? packABlock(idx(full), idx(m), 1, tail, kBegin,
                                        kcSteps, kcSteps)
                           : Value();
      forEachPanel([&](Value jb, int64_t cols) {
        emitBlock(jb, idx(full), tail, cols, kBegin, kEnd, first, last,
                  nullptr, apTail, apTail ? idx(0) : Value());
      });
      if (apTail)
        dealloc(apTail);
    }
  };
  if (!fillValue && !fusedConsumer) {
    loop(kSteps, kcSteps,
         [&](Value kBegin) { kBlock(kBegin, false, false); });
    return;
  }
  // The first and the last k block peeled (one block may be both).
  int64_t lastBegin = (kSteps - 1) / kcSteps * kcSteps;
  if (lastBegin == 0) {
    kBlock(idx(0), true, true);
    return;
  }
  kBlock(idx(0), true, false);
  loop(kcSteps, lastBegin, kcSteps,
       [&](Value kBegin) { kBlock(kBegin, false, false); });
  kBlock(idx(lastBegin), false, true);
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
    emitKernel(a, aIx, aTransposed, packed, c, batch, m, n, k, dot,
               /*bRowMajor=*/false, /*cColOffset=*/nullptr,
               packed ? PanelPacker() : PanelPacker(packSlice), epilogue,
               packed ? PanelPrefetcher() : PanelPrefetcher(prefetchSource));
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
    emitKernel(aOp.mem, {}, /*aTransposed=*/false, packed, c, {}, count, n, k,
               dot, /*bRowMajor=*/false, /*cColOffset=*/nullptr,
               /*packSlice=*/nullptr, epilogue, /*prefetchSource=*/nullptr,
               /*cRowOffset=*/r0, &segA);
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
