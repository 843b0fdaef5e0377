//===- GemmMicroKernel.cpp - the register-blocked GEMM micro-kernel -------===//
//
// KernelBuilder::emitKernel: C[m x n] (+)= A[m x k] * B[k x n] as k blocks
// of column panels of register blocks (GotoBLAS/BLIS). A MicroKernelPlan,
// decided once per call, says which paths the call takes (FP8 panels, AMX
// tiles, streamed panels, packed A, the k blocking); GemmKernelEmitter then
// writes the blocks:
//
//  * an mr x nr block of C lives in vector registers (scf.for iter_args)
//    across a k block: per k step, nr/VL vector loads of B, mr broadcasts
//    of A and mr*nr/VL FMAs (or vdpbf16ps);
//  * with AMX, full blocks run on 2 x 2 tiles (AmxKernel.cpp);
//  * B is packed ahead (packB, prepacking) or a k block of one panel at a
//    time (PanelPacker).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// A is packed for the micro-kernel when at least this many column panels
/// of B read each packed block: the O(m k) copy is then a few percent of
/// the O(m n k) GEMM at most.
static constexpr int64_t kPackAMinPanels = 16;

namespace {

/// How one emitKernel call runs, decided before any block is written.
struct MicroKernelPlan {
  /// B packed as f8E4M3FN bytes (packFP8B), widened in registers.
  bool fp8B = false;
  /// B's element type as the kernel reads it (bf16 pairs for dot, else
  /// f32), and A's.
  Type elem, aElem;
  unsigned lanes = 0, nr = 0;
  /// Rows of a block: 2 tile rows with AMX, else the configuration's mr.
  unsigned mr = 0;
  int64_t fullPanels = 0, tailCols = 0;
  /// k steps (pairs for dot), and the steps of a k block.
  int64_t kSteps = 0, kcSteps = 0;
  /// Rows past the last full block of mr.
  int64_t tail = 0;
  /// All of M in one register block on a B packed ahead: each panel is
  /// read once, as one stream (no k blocks, no prefetches).
  bool streamsPanels = false;
  /// Full blocks on AMX tiles.
  bool amx = false;
  /// A packed per k block and row block (packABlock).
  bool packA = false;
  /// k steps per iteration of the k loop.
  unsigned unroll = 1;
  /// The first k block starts from the fill value instead of C
  /// (null: from C), the last stores through the consumer instead of into
  /// C (KernelEpilogue.cpp).
  Value fillValue;
  bool fusedConsumer = false;
};

/// One block of C for emitBlock: `rows` rows from row0, `cols` columns (nr,
/// or the last panel's) of panel jb, across k steps [kBegin, kEnd).
struct RegisterBlock {
  Value jb, row0;
  unsigned rows;
  int64_t cols;
  Value kBegin, kEnd;
  bool first, last;
  /// B's panel jb for [kBegin, kEnd) packed on the fly ([kEnd - kBegin][nr],
  /// see packPanelSlice) instead of the packed B.
  Value slice = nullptr;
  /// A's rows packed for this k block (packABlock) and this block's index
  /// in it; null: A read in place.
  Value ap = nullptr, apBlock = nullptr;
};

/// What every k step of a vector block reads: its columns and rows of C,
/// the mask of a partial last vector, and what it prefetches.
struct BlockLayout {
  Value bCol0, col0;
  unsigned nv = 0;
  int64_t partial = 0;
  Value mask, zero;
  SmallVector<Value> rows, cRows;
  /// The packed B's next panel and the columns of one k step of it.
  Value prefetchPanel;
  SmallVector<int64_t> prefetchCols;
  /// The next full panel whose source the PanelPrefetcher reads.
  Value prefetchSourcePanel;
  bool isPartial(unsigned v) const { return partial && v + 1 == nv; }
};

class GemmKernelEmitter : public KernelBuilder {
public:
  GemmKernelEmitter(const KernelBuilder &kb, const GemmCall &call)
      : KernelBuilder(kb), call(call), a(call.a),
        aBatch(call.aBatch.begin(), call.aBatch.end()),
        aTransposed(call.aTransposed), segA(call.segmentedA) {}

  void emit() {
    plan();
    Value aScaled = scaleAForFP8Panels();
    decideAmx();
    if (call.packSlice)
      emitWithPanelSlices();
    else
      emitWithPackedB();
    if (aScaled)
      dealloc(aScaled);
  }

private:
  void plan();
  Value scaleAForFP8Panels();
  void decideAmx();
  Value widenFP8(Value raw);

  void emitWithPanelSlices();
  void emitWithPackedB();
  int64_t rowBlock(int64_t full, int64_t kDepth);
  Value packABlock(Value rowBegin, Value rowEnd, int64_t blocks,
                   unsigned rowsPerBlock, Value kBegin, int64_t len,
                   int64_t maxLen);
  void forEachPanel(function_ref<void(Value, int64_t)> body);
  void withAmxScratch(int64_t cols, bool first, bool last,
                      function_ref<void()> body);

  void emitBlock(const RegisterBlock &blk);
  void emitAmxBlockOf(const RegisterBlock &blk);
  void emitVectorBlock(const RegisterBlock &blk);
  BlockLayout layOut(const RegisterBlock &blk);
  SmallVector<Value> loadAccumulators(const RegisterBlock &blk,
                                      const BlockLayout &l);
  void scaleAll(SmallVector<Value> &values, float factor);
  void emitKStep(const RegisterBlock &blk, const BlockLayout &l,
                 SmallVector<Value> &next, Value kk,
                 function_ref<SmallVector<Value>(unsigned r)> aIx);
  SmallVector<Value> emitKLoop(const RegisterBlock &blk, const BlockLayout &l,
                               ArrayRef<Value> init);
  void storeAccumulators(const RegisterBlock &blk, const BlockLayout &l,
                         ArrayRef<Value> sums);

  VectorType accType() const {
    return VectorType::get({p.lanes}, b.getF32Type());
  }

  const GemmCall &call;
  /// A as the blocks read it (a scaled copy for FP8 panels).
  Value a;
  SmallVector<Value> aBatch;
  bool aTransposed;
  const SegmentedA *segA;
  MicroKernelPlan p;
  /// The AMX blocks' f32 scratch block of the current panel (withAmxScratch).
  Value amxScratch;
};

} // namespace

void KernelBuilder::emitKernel(const GemmCall &call) {
  GemmKernelEmitter(*this, call).emit();
}

void GemmKernelEmitter::plan() {
  Type f32 = b.getF32Type();
  Value packed = call.packed;
  bool dot = call.dot;
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
  p.fp8B =
      packed && isa<Float8E4M3FNType>(getElementTypeOrSelf(packed.getType()));
  assert((!p.fp8B || !segA) && "FP8 panels are matmul weights");
  p.elem = p.fp8B   ? (dot ? Type(b.getBF16Type()) : f32)
           : packed ? getElementTypeOrSelf(packed.getType())
                    : (dot ? getElementTypeOrSelf(a.getType()) : f32);
  p.lanes = cfg.lanes;
  p.nr = cfg.nr;
  p.fullPanels = call.n / p.nr;
  p.tailCols = call.n % p.nr;
  // k blocks of kc steps (see emitWithPackedB); in packed slices of at most
  // 256 KiB.
  p.kSteps = dot ? call.k / 2 : call.k;
  p.kcSteps = std::min<int64_t>(p.kSteps, cfg.kcSteps(dot));
  if (call.packSlice)
    p.kcSteps = std::min<int64_t>(p.kcSteps, (256 << 10) / (4 * p.nr));
  // A read by segments: k blocks of whole segments, as many blocks as kc
  // asks for, evenly filled (K = 9 taps of 64 channels, kc = 512: 5 + 4
  // taps, not 8 + 1).
  if (segA) {
    int64_t segSteps = segA->segmentSteps, segments = p.kSteps / segSteps;
    int64_t blocks = ceilDiv(p.kSteps, p.kcSteps);
    p.kcSteps = ceilDiv(segments, blocks) * segSteps;
  }
  // A skinny GEMM (all of M in one register block: a decoding step's
  // projections) reads each byte of a B packed ahead once, in one pass per
  // panel: k blocks would only cut that sequential stream into kc-long runs
  // a panel apart, for no reuse (bench/llm/gemv.py measures the stream).
  p.streamsPanels = packed && !call.packSlice && !segA && !cfg.kc &&
                    call.m <= int64_t(cfg.mr);
  if (p.streamsPanels)
    p.kcSteps = p.kSteps;
  p.aElem = getElementTypeOrSelf(a.getType());
  p.fillValue = !call.epilogue        ? Value()
                : call.epilogue->fill ? call.epilogue->fill->getOperand(0)
                                      : call.epilogue->initValue;
  p.fusedConsumer = call.epilogue && call.epilogue->consumer;
}

Value GemmKernelEmitter::scaleAForFP8Panels() {
  if (!p.fp8B)
    return nullptr;
  // A's rows times 2^64, row-major, in A's own type (exact).
  Type f32 = b.getF32Type(), aElem = p.aElem;
  int64_t m = call.m, k = call.k;
  Value aScaled = alloc(MemRefType::get({m, k}, aElem));
  Value scale = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0x1p64f));
  loop(m, 1, [&](Value row) {
    loop(k, 1, [&](Value col) {
      Value x = memref::LoadOp::create(b, loc, a,
                                       aTransposed ? at(aBatch, {col, row})
                                                   : at(aBatch, {row, col}));
      if (aElem != f32)
        x = arith::ExtFOp::create(b, loc, f32, x);
      x = arith::MulFOp::create(b, loc, x, scale);
      if (aElem != f32)
        x = arith::TruncFOp::create(b, loc, aElem, x);
      memref::StoreOp::create(b, loc, x, aScaled, ValueRange{row, col});
    });
  });
  a = aScaled;
  aBatch.clear();
  aTransposed = false;
  return aScaled;
}

void GemmKernelEmitter::decideAmx() {
  // With AMX, blocks of 2 x 2 tiles (AmxKernel.cpp); what they leave, and
  // every block without AMX, mr x nr in vector registers.
  if (call.dot && cfg.amxTile.valid() && !p.fp8B) {
    std::optional<std::string> whyNot =
        whyNoAmxBlocks(call.m, p.kSteps, p.kcSteps, p.aElem,
                       getElementTypeOrSelf(call.c.getType()), segA);
    p.amx = !whyNot;
    // vdpbf16ps instead of tiles: several times slower where AMX is.
    if (whyNot && amxFallbackRemarks)
      emitRemark(loc) << "amx=true: a " << call.m << "x" << call.n << "x"
                      << call.k
                      << " GEMM runs on vdpbf16ps, not AMX tiles: " << *whyNot;
  }
  p.mr = p.amx ? 2 * cfg.amxTile.m : cfg.mr;
  // B packed per panel on the fly and read by at most 2 row blocks (a batch
  // of 64 rows on tiles): the slice's reuse that k blocks buy is small, and
  // B's source streams from memory faster in long runs (a transposed
  // weight's rows). k blocks as deep as the slice buffer allows: the MLP
  // 1024-4096-4096-1024 at batch 64, mixed on AMX, 12.1 -> 9.5 ms per call
  // (bench/e2e, kc=2048 against the default in the same rounds).
  if (call.packSlice && call.m <= 2 * int64_t(p.mr))
    p.kcSteps = std::min<int64_t>(p.kSteps, (256 << 10) / (4 * p.nr));
  p.tail = call.m % p.mr;
  // A packed per k block and row block: the rows of each mr block
  // interleaved along k ([block][k step][mr] f32, or [block][k pair][2 mr]
  // bf16 for the dot kernel), so the micro-kernel's broadcasts read one
  // contiguous stream instead of mr rows a full row of A apart (rows of a
  // 4096-wide A are 16 KiB apart: the same L1 set for all of them). Packed
  // once per k block and row block and read by every panel of B, so only
  // where many panels pass by (the copy is O(m k), the GEMM O(m n k)).
  p.packA = !p.amx && !call.bRowMajor && !segA && call.m >= int64_t(cfg.mr) &&
            p.fullPanels >= kPackAMinPanels;
}

// The raw FP8 bytes of B `raw` (a vector) as bf16 or f32 values: the FP8
// value times 2^-120 (see plan()).
Value GemmKernelEmitter::widenFP8(Value raw) {
  auto rawType = cast<VectorType>(raw.getType());
  int64_t width = rawType.getNumElements();
  unsigned bits = call.dot ? 16 : 32;
  auto intType = VectorType::get({width}, b.getIntegerType(bits));
  auto splatInt = [&](uint64_t value) -> Value {
    return arith::ConstantOp::create(
        b, loc, intType, DenseElementsAttr::get(intType, APInt(bits, value)));
  };
  Value bytes = vector::BitCastOp::create(
      b, loc, VectorType::get({width}, b.getI8Type()), raw);
  Value wide = arith::ExtSIOp::create(b, loc, intType, bytes);
  // Sign extended: the byte at bits 0-7, its sign above. Shifted so that
  // the exponent's 4 bits end at the wide exponent field's low end, the
  // copies of the sign above the byte masked off but the top one.
  wide = arith::ShLIOp::create(b, loc, wide, splatInt(bits - 12));
  wide = arith::AndIOp::create(b, loc, wide,
                               splatInt(call.dot ? 0x87FFu : 0x87FFFFFFu));
  return vector::BitCastOp::create(b, loc, VectorType::get({width}, p.elem),
                                   wide);
}

//===----------------------------------------------------------------------===//
// Vector register blocks
//===----------------------------------------------------------------------===//

BlockLayout GemmKernelEmitter::layOut(const RegisterBlock &blk) {
  BlockLayout l;
  Value packed = call.packed;
  l.bCol0 = mulc(blk.jb, p.nr);
  l.col0 = call.cColOffset ? addIdx(l.bCol0, call.cColOffset) : l.bCol0;
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
  std::optional<int64_t> constPanel = getConstantIntValue(blk.jb);
  if (blk.slice && call.prefetchSource && cfg.prefetchLineBytes &&
      p.fullPanels > 1 && !constPanel)
    l.prefetchSourcePanel =
        arith::MinSIOp::create(b, loc, addc(blk.jb, 1), idx(p.fullPanels - 1));
  // A streamed panel is read by its only row block: a second stream
  // into the next panel only competes with it (bench/llm/gemv.py).
  if (packed && !blk.slice && !call.bRowMajor && cfg.prefetchLineBytes &&
      !p.streamsPanels) {
    auto packedType = cast<MemRefType>(packed.getType());
    int64_t panels = packedType.getDimSize(0),
            rowElems = packedType.getDimSize(2);
    int64_t elemBytes = packedType.getElementTypeBitWidth() / 8;
    int64_t lineElems = std::max<int64_t>(1, cfg.prefetchLineBytes / elemBytes);
    if (panels > 1 && constPanel != panels - 1) {
      l.prefetchPanel =
          arith::MinSIOp::create(b, loc, addc(blk.jb, 1), idx(panels - 1));
      for (int64_t col = 0; col < rowElems; col += lineElems)
        l.prefetchCols.push_back(col);
    }
  }
  l.nv = ceilDiv(blk.cols, p.lanes);
  l.partial = blk.cols % p.lanes;
  if (l.partial) {
    l.mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({p.lanes}, b.getI1Type()),
        ArrayRef<int64_t>{l.partial});
    l.zero = arith::ConstantOp::create(
        b, loc, accType(),
        DenseElementsAttr::get(accType(), b.getZeroAttr(b.getF32Type())));
  }
  for (unsigned r = 0; r < blk.rows; ++r) {
    l.rows.push_back(addc(blk.row0, r));
    l.cRows.push_back(call.cRowOffset ? addIdx(l.rows.back(), call.cRowOffset)
                                      : l.rows.back());
  }
  return l;
}

SmallVector<Value> GemmKernelEmitter::loadAccumulators(const RegisterBlock &blk,
                                                       const BlockLayout &l) {
  SmallVector<Value> init;
  if (blk.first && p.fillValue) {
    Value splat = vector::BroadcastOp::create(b, loc, accType(), p.fillValue);
    init.assign(blk.rows * l.nv, splat);
    return init;
  }
  for (unsigned r = 0; r < blk.rows; ++r)
    for (unsigned v = 0; v < l.nv; ++v) {
      SmallVector<Value> ix =
          at(call.cBatch, {l.cRows[r], addc(l.col0, v * p.lanes)});
      init.push_back(l.isPartial(v)
                         ? vector::MaskedLoadOp::create(
                               b, loc, accType(), call.c, ix, l.mask, l.zero)
                               .getResult()
                         : vector::LoadOp::create(b, loc, accType(), call.c, ix)
                               .getResult());
    }
  return init;
}

// FP8 panels: the accumulators hold the sum times 2^-56 (plan()).
void GemmKernelEmitter::scaleAll(SmallVector<Value> &values, float factor) {
  Value splat = arith::ConstantOp::create(
      b, loc, accType(), DenseElementsAttr::get(accType(), factor));
  for (Value &v : values)
    v = arith::MulFOp::create(b, loc, v, splat);
}

// One k step `kk` on the accumulators `next`; `aIx(r)`: where row r's A
// (scalar or pair) is, when A is not packed.
void GemmKernelEmitter::emitKStep(
    const RegisterBlock &blk, const BlockLayout &l, SmallVector<Value> &next,
    Value kk, function_ref<SmallVector<Value>(unsigned r)> aIx) {
  bool dot = call.dot;
  Value packed = call.packed;
  Type f32 = b.getF32Type();
  auto dotOperand = VectorType::get({2 * p.lanes}, p.elem);
  SmallVector<Value> bv;
  VectorType bType = dot ? dotOperand : accType();
  if (p.fp8B)
    bType = VectorType::get(bType.getShape(),
                            getElementTypeOrSelf(packed.getType()));
  for (unsigned v = 0; v < l.nv; ++v) {
    Value loaded = vector::LoadOp::create(
        b, loc, bType, blk.slice ? blk.slice : packed,
        blk.slice ? ValueRange{arith::SubIOp::create(b, loc, kk, blk.kBegin)
                                   .getResult(),
                               idx((dot ? 2 : 1) * v * p.lanes)}
        : call.bRowMajor
            ? ValueRange{kk, mulc(addc(l.bCol0, v * p.lanes), dot ? 2 : 1)}
            : ValueRange{blk.jb, kk, idx((dot ? 2 : 1) * v * p.lanes)});
    bv.push_back(p.fp8B ? widenFP8(loaded) : loaded);
  }
  if (l.prefetchSourcePanel)
    call.prefetchSource(l.prefetchSourcePanel, blk.kBegin, kk);
  for (int64_t col : l.prefetchCols)
    memref::PrefetchOp::create(b, loc, packed,
                               ValueRange{l.prefetchPanel, kk, idx(col)},
                               /*isWrite=*/false, /*localityHint=*/2,
                               /*isDataCache=*/true);
  Value kRel = blk.ap
                   ? arith::SubIOp::create(b, loc, kk, blk.kBegin).getResult()
                   : Value();
  Value aMem = segA ? segA->source : a;
  auto pairVec = VectorType::get({2}, p.elem);
  auto pairAsInt = VectorType::get({1}, b.getI32Type());
  auto bcastInt = VectorType::get({p.lanes}, b.getI32Type());
  for (unsigned r = 0; r < blk.rows; ++r) {
    Value av;
    if (dot) {
      // One pair of A (two bf16 = one i32) splat to every lane.
      Value pair = blk.ap
                       ? vector::LoadOp::create(
                             b, loc, pairVec, blk.ap,
                             ValueRange{blk.apBlock, kRel, idx(2 * r)})
                             .getResult()
                       : vector::LoadOp::create(b, loc, pairVec, aMem, aIx(r))
                             .getResult();
      Value asInt = vector::BitCastOp::create(b, loc, pairAsInt, pair);
      Value scalar = vector::ExtractOp::create(b, loc, asInt, 0);
      Value splat = vector::BroadcastOp::create(b, loc, bcastInt, scalar);
      av = vector::BitCastOp::create(b, loc, dotOperand, splat);
    } else {
      Value scalar =
          blk.ap ? memref::LoadOp::create(b, loc, blk.ap,
                                          ValueRange{blk.apBlock, kRel, idx(r)})
                       .getResult()
                 : memref::LoadOp::create(b, loc, aMem, aIx(r)).getResult();
      // A narrow A read in place (a dynamic M's bf16 rows without
      // AVX512_BF16): widened here, an exact shift.
      if (!scalar.getType().isF32())
        scalar = arith::ExtFOp::create(b, loc, f32, scalar);
      av = vector::BroadcastOp::create(b, loc, accType(), scalar);
    }
    for (unsigned v = 0; v < l.nv; ++v) {
      Value &acc = next[r * l.nv + v];
      acc =
          dot ? x86vector::DotBF16Op::create(b, loc, accType(), acc, av, bv[v])
                    .getResult()
              : vector::FMAOp::create(b, loc, av, bv[v], acc).getResult();
    }
  }
}

// The k loop: over [kBegin, kEnd), or, with A read by segments, over the
// segments in it and the steps of each. Returns the block's sums.
SmallVector<Value> GemmKernelEmitter::emitKLoop(const RegisterBlock &blk,
                                                const BlockLayout &l,
                                                ArrayRef<Value> init) {
  bool dot = call.dot;
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
  unsigned perSet = blk.rows * l.nv, sets = 1;
  unsigned vectorRegisters = p.lanes >= 16 ? 32 : 16; // AVX-512 : AVX2
  if (p.streamsPanels)
    while (sets * 2 <= p.unroll && sets * 2 * perSet <= vectorRegisters / 2)
      sets *= 2;
  if (!segA) {
    SmallVector<Value> setInit(init);
    if (sets > 1) {
      Value zeros = arith::ConstantOp::create(
          b, loc, accType(),
          DenseElementsAttr::get(accType(), b.getZeroAttr(b.getF32Type())));
      setInit.append((sets - 1) * perSet, zeros);
    }
    unsigned stepInSet = 0;
    kLoop = scf::ForOp::create(
        b, loc, blk.kBegin, blk.kEnd, idx(p.unroll), setInit,
        kLoopBody(
            [&](SmallVector<Value> &next, Value kk) {
              unsigned set = stepInSet++ % sets;
              SmallVector<Value> accs(next.begin() + set * perSet,
                                      next.begin() + (set + 1) * perSet);
              emitKStep(blk, l, accs, kk, [&](unsigned r) {
                if (dot)
                  return at(aBatch, {l.rows[r], mulc(kk, 2)});
                return aTransposed ? at(aBatch, {kk, l.rows[r]})
                                   : at(aBatch, {l.rows[r], kk});
              });
              llvm::copy(accs, next.begin() + set * perSet);
            },
            p.unroll));
  } else {
    int64_t segSteps = segA->segmentSteps;
    SmallVector<SmallVector<Value>> states;
    for (unsigned r = 0; r < blk.rows; ++r)
      states.push_back(segA->rowState(l.rows[r]));
    Value segBegin = arith::DivUIOp::create(b, loc, blk.kBegin, idx(segSteps));
    Value segEnd = arith::DivUIOp::create(b, loc, blk.kEnd, idx(segSteps));
    int64_t stepUnroll = segSteps % 4 == 0 ? 4 : 1;
    kLoop = scf::ForOp::create(
        b, loc, segBegin, segEnd, idx(1), init,
        [&](OpBuilder &nb, Location, Value seg, ValueRange accs) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          SmallVector<SmallVector<Value>> starts;
          for (unsigned r = 0; r < blk.rows; ++r)
            starts.push_back(segA->start(states[r], seg));
          Value k0 = mulc(seg, segSteps);
          auto steps = scf::ForOp::create(
              b, loc, idx(0), idx(segSteps), idx(stepUnroll), accs,
              kLoopBody(
                  [&](SmallVector<Value> &next, Value step) {
                    emitKStep(blk, l, next, addIdx(k0, step), [&](unsigned r) {
                      SmallVector<Value> ix = starts[r];
                      ix.back() = addIdx(ix.back(), dot ? mulc(step, 2) : step);
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
  return sums;
}

void GemmKernelEmitter::storeAccumulators(const RegisterBlock &blk,
                                          const BlockLayout &l,
                                          ArrayRef<Value> sums) {
  const KernelEpilogue *epilogue = call.epilogue;
  ValueRange cBatch = call.cBatch;
  unsigned lanes = p.lanes;
  if (blk.last && p.fusedConsumer) {
    // What does not depend on the row once per block column, or, with
    // operands per row (an NCHW batch norm), what does not depend on the
    // column once per row.
    if (epilogueHasRowOperands(*epilogue, cBatch.size())) {
      for (unsigned r = 0; r < blk.rows; ++r) {
        IRMapping sameInRow =
            hoistEpilogue(*epilogue, at(cBatch, {l.cRows[r], l.col0}),
                          EpilogueHoist::SameForEveryColumn, Value());
        for (unsigned v = 0; v < l.nv; ++v)
          storeThroughEpilogue(
              *epilogue, sums[r * l.nv + v],
              at(cBatch, {l.cRows[r], addc(l.col0, v * lanes)}),
              l.isPartial(v) ? l.mask : Value(), &sameInRow);
      }
      return;
    }
    for (unsigned v = 0; v < l.nv; ++v) {
      Value vMask = l.isPartial(v) ? l.mask : Value();
      IRMapping perColumns = hoistEpilogue(
          *epilogue, at(cBatch, {l.cRows[0], addc(l.col0, v * lanes)}),
          EpilogueHoist::SameForEveryRow, vMask);
      for (unsigned r = 0; r < blk.rows; ++r)
        storeThroughEpilogue(*epilogue, sums[r * l.nv + v],
                             at(cBatch, {l.cRows[r], addc(l.col0, v * lanes)}),
                             vMask, &perColumns);
    }
    return;
  }
  for (unsigned r = 0; r < blk.rows; ++r)
    for (unsigned v = 0; v < l.nv; ++v) {
      Value acc = sums[r * l.nv + v];
      SmallVector<Value> ix = at(cBatch, {l.cRows[r], addc(l.col0, v * lanes)});
      if (l.isPartial(v))
        vector::MaskedStoreOp::create(b, loc, call.c, ix, l.mask, acc);
      else
        vector::StoreOp::create(b, loc, acc, call.c, ix);
    }
}

void GemmKernelEmitter::emitVectorBlock(const RegisterBlock &blk) {
  BlockLayout l = layOut(blk);
  SmallVector<Value> init = loadAccumulators(blk, l);
  if (blk.first && p.fp8B)
    scaleAll(init, 0x1p-56f);
  SmallVector<Value> sums = emitKLoop(blk, l, init);
  if (blk.last && p.fp8B)
    scaleAll(sums, 0x1p56f);
  storeAccumulators(blk, l, sums);
}

//===----------------------------------------------------------------------===//
// Blocks, panels and k blocks
//===----------------------------------------------------------------------===//

// The AMX blocks' f32 scratch block (a non-zero fill, the epilogue): one
// per panel and k block, shared by the panel's row blocks (a malloc per
// block showed in the profiles of parallel loops).
void GemmKernelEmitter::withAmxScratch(int64_t cols, bool first, bool last,
                                       function_ref<void()> body) {
  bool needed =
      p.amx && cols == int64_t(p.nr) &&
      ((first && p.fillValue && !matchPattern(p.fillValue, m_AnyZeroFloat())) ||
       (last && p.fusedConsumer));
  if (!needed) {
    body();
    return;
  }
  amxScratch = alloc(MemRefType::get({p.mr, p.nr}, b.getF32Type()));
  body();
  dealloc(amxScratch);
  amxScratch = nullptr;
}

// A block of `mr` rows: on AMX tiles when it is a full one, else as vector
// blocks of at most cfg.mr rows (A is not packed with AMX).
void GemmKernelEmitter::emitBlock(const RegisterBlock &blk) {
  if (!p.amx) {
    emitVectorBlock(blk);
    return;
  }
  if (blk.rows < p.mr || blk.cols < int64_t(p.nr)) {
    for (unsigned r0 = 0; r0 < blk.rows; r0 += cfg.mr) {
      RegisterBlock part = blk;
      part.row0 = addc(blk.row0, r0);
      part.rows = std::min(cfg.mr, blk.rows - r0);
      part.ap = part.apBlock = nullptr;
      emitVectorBlock(part);
    }
    return;
  }
  emitAmxBlockOf(blk);
}

void GemmKernelEmitter::emitAmxBlockOf(const RegisterBlock &blk) {
  Value bCol0 = mulc(blk.jb, p.nr);
  Value slice = blk.slice, jb = blk.jb, kBegin = blk.kBegin;
  bool bRowMajor = call.bRowMajor;
  AmxBlock amxBlock;
  amxBlock.a = a;
  amxBlock.aBatch = aBatch;
  amxBlock.aRow0 = blk.row0;
  amxBlock.c = call.c;
  amxBlock.cBatch.assign(call.cBatch.begin(), call.cBatch.end());
  amxBlock.cRow0 =
      call.cRowOffset ? addIdx(blk.row0, call.cRowOffset) : blk.row0;
  amxBlock.col0 = call.cColOffset ? addIdx(bCol0, call.cColOffset) : bCol0;
  amxBlock.bMem = slice ? slice : call.packed;
  amxBlock.bAt = [&, slice, jb, kBegin, bCol0,
                  bRowMajor](Value kk, int64_t col) -> SmallVector<Value> {
    if (slice)
      return {arith::SubIOp::create(b, loc, kk, kBegin).getResult(), idx(col)};
    if (bRowMajor)
      return {kk, addc(mulc(bCol0, 2), col)};
    return {jb, kk, idx(col)};
  };
  amxBlock.kBegin = blk.kBegin;
  amxBlock.kEnd = blk.kEnd;
  amxBlock.kTail = amxKTail(p.kSteps);
  amxBlock.fill = blk.first ? p.fillValue : Value();
  amxBlock.epilogue = blk.last && p.fusedConsumer ? call.epilogue : nullptr;
  amxBlock.scratch = amxScratch;
  amxBlock.segA = segA;
  emitAmxBlock(amxBlock);
}

// Every panel: the full ones in a loop, then the zero-padded last one.
void GemmKernelEmitter::forEachPanel(function_ref<void(Value, int64_t)> body) {
  // Panels write disjoint columns of C (parallel).
  loop(
      p.fullPanels, 1, [&](Value jb) { body(jb, p.nr); }, /*parallel=*/true);
  if (p.tailCols)
    body(idx(p.fullPanels), p.tailCols);
}

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
int64_t GemmKernelEmitter::rowBlock(int64_t full, int64_t kDepth) {
  int64_t rows = cfg.mc;
  if (!rows && cfg.l2Bytes && call.n >= 8 * int64_t(p.nr))
    rows = (cfg.l2Bytes / (p.amx ? 4 : 2)) / std::max<int64_t>(1, kDepth * 4);
  if (!rows)
    return full;
  return std::max<int64_t>(p.mr, rows / p.mr * p.mr);
}

// Rows [rowBegin, rowEnd) of A (whole mr blocks, `rowsPerBlock` rows
// each, the last maybe fewer) for k steps [kBegin, kBegin + len) into a
// new buffer of `blocks` blocks of `maxLen` k steps.
Value GemmKernelEmitter::packABlock(Value rowBegin, Value rowEnd,
                                    int64_t blocks, unsigned rowsPerBlock,
                                    Value kBegin, int64_t len, int64_t maxLen) {
  bool dot = call.dot;
  unsigned aWidth = dot ? 2 : 1;
  Value buf = alloc(
      MemRefType::get({blocks, maxLen, int64_t(cfg.mr * aWidth)}, p.aElem));
  auto pair = VectorType::get({aWidth}, p.aElem);
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
          Value v = memref::LoadOp::create(b, loc, a,
                                           aTransposed ? at(aBatch, {k0, row})
                                                       : at(aBatch, {row, k0}));
          memref::StoreOp::create(b, loc, v, buf, ValueRange{blk, kk, idx(r)});
        }
      }
    });
  });
  return buf;
}

// B packed a k block of one panel at a time, into a small buffer that
// stays in L1/L2 while every row block of A passes by: B is read once from
// memory and never written back (a full packed copy of a large weight is a
// fresh, page-faulted allocation per call; a 64 KiB one is a reused heap
// chunk). One buffer per panel iteration, so threads sharing the panels do
// not share it. Full k blocks, then the rest. The buffer stays within
// 256 KiB whatever kc (0: all of k) is.
void GemmKernelEmitter::emitWithPanelSlices() {
  int64_t m = call.m, mr = p.mr, tail = p.tail, kcSteps = p.kcSteps;
  int64_t fullK = p.kSteps / kcSteps * kcSteps, restK = p.kSteps - fullK;
  p.unroll = (kcSteps % 4 == 0 && restK % 4 == 0) ? 4 : 1;
  int64_t full = m - tail;
  // Row blocks of mc (a multiple of mr; 0: all rows): the mc x kc block of
  // A stays in L2 while every panel passes by, instead of streaming all of
  // A's k block from L3 once per panel when M is large. The slice of B is
  // then packed once per row block (O(k * n * m / mc), small next to the
  // GEMM's O(m * n * k)).
  int64_t mcRows = rowBlock(full, kcSteps);
  auto kBlock = [&](Value kBegin, int64_t len, bool first, bool last) {
    Value kEnd = addc(kBegin, len);
    auto block = [&](Value jb, Value row0, unsigned rows, int64_t cols,
                     Value slice, Value ap, Value apBlock) {
      emitBlock({jb, row0, rows, cols, kBegin, kEnd, first, last, slice, ap,
                 apBlock});
    };
    // The block of row0 in a packed A starting at row `ic`.
    auto apBlockOf = [&](Value row0, Value ic) -> Value {
      return arith::DivUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, row0, ic), idx(cfg.mr));
    };
    Value apTail = p.packA && tail ? packABlock(idx(full), idx(m), 1, tail,
                                                kBegin, len, len)
                                   : Value();
    if (mcRows >= full) {
      Value ap = p.packA && full ? packABlock(idx(0), idx(full), full / cfg.mr,
                                              cfg.mr, kBegin, len, len)
                                 : Value();
      forEachPanel([&](Value jb, int64_t cols) {
        Value slice = call.packSlice(jb, cols, kBegin, len);
        withAmxScratch(cols, first, last, [&] {
          loop(full, mr, [&](Value row0) {
            block(jb, row0, mr, cols, slice, ap,
                  ap ? apBlockOf(row0, idx(0)) : Value());
          });
        });
        if (tail)
          block(jb, idx(full), tail, cols, slice, apTail,
                apTail ? idx(0) : Value());
        dealloc(slice);
      });
      if (ap)
        dealloc(ap);
      if (apTail)
        dealloc(apTail);
      return;
    }
    loop(full, mcRows, [&](Value ic) {
      Value icEnd = arith::MinSIOp::create(b, loc, addc(ic, mcRows), idx(full));
      Value ap = p.packA ? packABlock(ic, icEnd, mcRows / cfg.mr, cfg.mr,
                                      kBegin, len, len)
                         : Value();
      forEachPanel([&](Value jb, int64_t cols) {
        Value slice = call.packSlice(jb, cols, kBegin, len);
        withAmxScratch(cols, first, last, [&] {
          loop(ic, icEnd, mr, [&](Value row0) {
            block(jb, row0, mr, cols, slice, ap,
                  ap ? apBlockOf(row0, ic) : Value());
          });
        });
        dealloc(slice);
      });
      if (ap)
        dealloc(ap);
    });
    if (tail)
      forEachPanel([&](Value jb, int64_t cols) {
        Value slice = call.packSlice(jb, cols, kBegin, len);
        block(jb, idx(full), tail, cols, slice, apTail,
              apTail ? idx(0) : Value());
        dealloc(slice);
      });
    if (apTail)
      dealloc(apTail);
  };
  if (!p.fillValue && !p.fusedConsumer) {
    loop(fullK, kcSteps,
         [&](Value kBegin) { kBlock(kBegin, kcSteps, false, false); });
    if (restK)
      kBlock(idx(fullK), restK, false, false);
    return;
  }
  // The first and the last k block peeled (one block may be both).
  int64_t lastBegin = restK ? fullK : fullK - kcSteps;
  if (lastBegin == 0) {
    kBlock(idx(0), p.kSteps, true, true);
    return;
  }
  kBlock(idx(0), kcSteps, true, false);
  loop(kcSteps, lastBegin, kcSteps,
       [&](Value kBegin) { kBlock(kBegin, kcSteps, false, false); });
  kBlock(idx(lastBegin), p.kSteps - lastBegin, false, true);
}

// B packed ahead (packB, a prepacked weight, or a row-major B the kernel
// reads in place).
void GemmKernelEmitter::emitWithPackedB() {
  int64_t m = call.m, kSteps = p.kSteps, kcSteps = p.kcSteps, tail = p.tail;
  unsigned mr = p.mr;
  // The k loop is unrolled when every k block divides evenly: fewer
  // loop-control instructions among the FMAs / dots.
  p.unroll = (kSteps % kcSteps == 0 && kcSteps % 4 == 0) ? 4 : 1;
  // A streamed panel: eight steps, for eight sets of accumulators.
  if (p.streamsPanels && kSteps % 8 == 0)
    p.unroll = 8;
  // A packed only where every k block has kcSteps steps (the buffer's
  // k extent is static).
  if (kSteps % kcSteps)
    p.packA = false;
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
        Value icEnd =
            arith::MinSIOp::create(b, loc, addc(ic, rowsPerIc), idx(full));
        Value ap = p.packA ? packABlock(ic, icEnd, rowsPerIc / cfg.mr, cfg.mr,
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
              emitBlock({jb, row0, mr, cols, kBegin, kEnd, first, last, nullptr,
                         ap, blk});
            });
          });
        });
        if (ap)
          dealloc(ap);
      });
    }
    if (tail) {
      Value apTail = p.packA ? packABlock(idx(full), idx(m), 1, tail, kBegin,
                                          kcSteps, kcSteps)
                             : Value();
      forEachPanel([&](Value jb, int64_t cols) {
        emitBlock({jb, idx(full), unsigned(tail), cols, kBegin, kEnd, first,
                   last, nullptr, apTail, apTail ? idx(0) : Value()});
      });
      if (apTail)
        dealloc(apTail);
    }
  };
  if (!p.fillValue && !p.fusedConsumer) {
    loop(kSteps, kcSteps, [&](Value kBegin) { kBlock(kBegin, false, false); });
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
