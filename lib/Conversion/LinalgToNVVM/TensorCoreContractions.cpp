//===- TensorCoreContractions.cpp - lowp-nvvm-lower-contractions ----------===//
//
// Bufferized f16/bf16 contractions to tiled tensor-core kernels for NVIDIA
// chips (mma.sync), with the tiling of the chip's capability-table row:
//
//  * grid: one thread block per blockM x blockN tile of C (z: the batch);
//  * staging: blockK-deep slices of A and B go to shared memory, rows padded
//    by 16 bytes (ldmatrix's eight 16-byte row reads then hit distinct bank
//    groups), with cp.async into two buffers (the next slice is in flight
//    while the current one is multiplied) or synchronous loads into one;
//  * warps: each owns a (blockM / warpsM) x (blockN / warpsN) tile of f32
//    accumulators in registers, loads its fragments with ldmatrix and
//    multiplies them with mma.sync;
//  * epilogue: accumulators plus C's initial values, stored with row and
//    column guards (out-of-range loads were zero-filled).
//
// The index functions (which thread copies which 16-byte chunk, which lane
// gives which ldmatrix row address, which lane holds which accumulator) are
// written once and used by both forms the pass emits: the GPU kernel, and
// with `emulate` the same kernel as host loops over blocks, threads, warps
// and lanes in which ldmatrix and mma.sync are computed per lane from the
// fragment layouts of the PTX ISA ("Warp-level matrix fragments"), so the
// tiling can be executed and checked on a CPU.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPNVVMLOWERCONTRACTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// One contraction C[b][m][n] += A[b?][m][k] * B[b?][k][n] (or B[b?][n][k])
/// the kernel can take.
struct GemmProblem {
  Value a, b, c;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool aBatched = false, bBatched = false, cBatched = false;
  bool bTransposed = false; ///< B stored [n][k]
  FloatType elem;           ///< f16 or bf16

  // The epilogue (collectEpilogue): elementwise ops that follow the
  // contraction and are computed on the accumulators in registers.
  /// C starts as zeros (a linalg.fill of 0 right before): the kernel does
  /// not read C, and the fill goes.
  linalg::FillOp zeroFill;
  /// Elementwise generics applied in order to C's values.
  SmallVector<linalg::GenericOp> epilogue;
  /// Where the kernel stores: C, or the last epilogue op's output.
  Value out;
  /// Buffers the kernel reads besides A, B (and C when not zero-filled):
  /// the epilogue ops' other operands.
  SmallVector<Value> epilogueInputs;
};

/// Elements of a 16-byte chunk (cp.async's largest copy, one ldmatrix row).
constexpr int64_t kChunk = 8;
/// Shared-memory row padding in elements (16 bytes).
constexpr int64_t kPad = 8;

bool isIdentityStatic(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() && memref.getLayout().isIdentity() &&
         !memref.getMemorySpace();
}

/// The body is acc + extf(a) * extf(b) (either operand order) and nothing
/// else: the exact product the tensor cores compute, summed in f32.
bool hasMulAddBody(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 3 || body.getOperations().size() != 5)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == acc) == (add.getRhs() == acc))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto widened = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return {};
  };
  Value x = widened(mul.getLhs()), y = widened(mul.getRhs());
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (x == a && y == b) || (x == b && y == a);
}

/// True when `map`'s results are exactly the loop dimensions `dims`.
bool resultsAre(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return false;
  for (auto [expr, dim] : llvm::zip(map.getResults(), dims)) {
    auto d = dyn_cast<AffineDimExpr>(expr);
    if (!d || d.getPosition() != dim)
      return false;
  }
  return true;
}

/// Whether `op` is a reduction over two operands, one of them 16-bit or
/// FP8: the matrix ops this pass is about (f32 ones and elementwise ops are
/// not its business and get no remark).
bool hasLowPrecisionOperands(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return false;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<FloatType>(getElementTypeOrSelf(in->get().getType()));
    if (type && type.getWidth() < 32)
      return true;
  }
  return false;
}

/// The kernel's view of `op`, or the reason it cannot take it.
FailureOr<GemmProblem> matchGemm(linalg::LinalgOp op, const TargetInfo &chip,
                                 std::string &whyNot) {
  auto fail = [&](const Twine &reason) {
    whyNot = reason.str();
    return failure();
  };
  if (!op.hasPureBufferSemantics())
    return fail("not bufferized");
  if (!linalg::isaContractionOpInterface(op) || !hasMulAddBody(op))
    return fail("not a multiply-accumulate contraction (acc + extf(a) * "
                "extf(b))");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  // A batch dimension one operand lacks (broadcast weights) is classified
  // as an m (or n) dimension: the outer one is the batch (the maps are
  // checked below).
  if (succeeded(dims) && dims->batch.empty() && dims->k.size() == 1) {
    if (dims->m.size() == 2 && dims->n.size() == 1) {
      dims->batch.push_back(dims->m[0]);
      dims->m.erase(dims->m.begin());
    } else if (dims->n.size() == 2 && dims->m.size() == 1) {
      dims->batch.push_back(dims->n[0]);
      dims->n.erase(dims->n.begin());
    }
  }
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return fail("not one m, one n, one k and at most one batch dimension");

  GemmProblem p;
  p.a = op.getDpsInputOperand(0)->get();
  p.b = op.getDpsInputOperand(1)->get();
  p.c = op.getDpsInitOperand(0)->get();
  for (Value v : {p.a, p.b, p.c})
    if (!isIdentityStatic(v.getType()))
      return fail("an operand is not a statically shaped, row-major buffer");

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  auto withBatch = [&](std::initializer_list<unsigned> rest) {
    SmallVector<unsigned> d(batch);
    d.append(rest);
    return d;
  };
  auto plain = [&](std::initializer_list<unsigned> rest) {
    return SmallVector<unsigned>(rest);
  };
  // Operands without the batch dimension are broadcast (torch-mlir's
  // batched matmul with shared weights).
  if (resultsAre(maps[0], withBatch({m, k})))
    p.aBatched = !batch.empty();
  else if (batch.empty() || !resultsAre(maps[0], plain({m, k})))
    return fail("A is not indexed [batch][m][k] (a transposed A is not "
                "supported)");
  if (resultsAre(maps[1], withBatch({k, n}))) {
    p.bBatched = !batch.empty();
  } else if (resultsAre(maps[1], withBatch({n, k}))) {
    p.bBatched = !batch.empty();
    p.bTransposed = true;
  } else if (!batch.empty() && resultsAre(maps[1], plain({k, n}))) {
    p.bBatched = false;
  } else if (!batch.empty() && resultsAre(maps[1], plain({n, k}))) {
    p.bTransposed = true;
  } else {
    return fail("B is not indexed [batch][k][n] or [batch][n][k]");
  }
  if (!resultsAre(maps[2], withBatch({m, n})))
    return fail("C is not indexed [batch][m][n]");
  p.cBatched = !batch.empty();

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  p.m = ranges[m];
  p.n = ranges[n];
  p.k = ranges[k];
  p.batch = batch.empty() ? 1 : ranges[batch[0]];

  auto aType = dyn_cast<FloatType>(getElementTypeOrSelf(p.a.getType()));
  auto bType = dyn_cast<FloatType>(getElementTypeOrSelf(p.b.getType()));
  if (!aType || aType != bType)
    return fail("A and B have different element types");
  if (!getElementTypeOrSelf(p.c.getType()).isF32())
    return fail("the accumulator is not f32");
  if (aType.getWidth() == 8) {
    std::string name;
    llvm::raw_string_ostream(name) << aType;
    return fail("FP8 operands (" + name + ") have no mma.sync kernel yet");
  }
  if (!aType.isF16() && !aType.isBF16())
    return fail("operands are neither f16 nor bf16");
  p.elem = aType;

  const MmaSyncTiling &t = chip.mmaSync16;
  if (!t.valid())
    return fail(Twine(chip.name) +
                " has no mma.sync tiling in the capability table (no "
                "ldmatrix and no m16n8 mma shapes)");
  if (!chip.hasMatrixUnit(*getFormat(aType)))
    return fail(Twine(chip.name) + " has no " +
                stringifyFormat(*getFormat(aType)) + " tensor cores");
  if (p.n % kChunk || p.k % kChunk)
    return fail("N (" + Twine(p.n) + ") and K (" + Twine(p.k) +
                ") must be multiples of 8 (16-byte rows for cp.async)");
  return p;
}

/// The op after `op` in its block, skipping allocations and constants (the
/// bufferized IR puts a result's alloc between producer and consumer).
Operation *nextRelevantOp(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && (isa<memref::AllocOp>(next) ||
                  next->hasTrait<OpTrait::ConstantLike>()))
    next = next->getNextNode();
  return next;
}

/// Whether `buffer`, a temporary (memref.alloc), is used only by `users`
/// and deallocations.
bool onlyUsedBy(Value buffer, ArrayRef<Operation *> users) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return isa<memref::DeallocOp>(user) || llvm::is_contained(users, user);
  });
}

/// Fills p.zeroFill, p.epilogue, p.epilogueInputs and p.out: the zero fill
/// of C right before `op`, and the chain of elementwise linalg.generic ops
/// right after it that each consume the previous value (C, then their own
/// output) through an identity map while that buffer is a temporary nobody
/// else reads. Their other operands may be any buffer indexed by a
/// projection of C's dimensions (a bias row), their payload may use
/// constants from outside. The kernel then stores only the last value.
void collectEpilogue(linalg::LinalgOp op, GemmProblem &p) {
  p.out = p.c;
  auto cType = cast<MemRefType>(p.c.getType());
  // A zero fill right before the contraction.
  Operation *prev = op->getPrevNode();
  while (prev && (isa<memref::AllocOp>(prev) ||
                  prev->hasTrait<OpTrait::ConstantLike>()))
    prev = prev->getPrevNode();
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(prev)) {
    FloatAttr value;
    if (fill.getOutputs()[0] == p.c &&
        matchPattern(fill.getInputs()[0], m_Constant(&value)) &&
        value.getValue().isZero())
      p.zeroFill = fill;
  }

  SmallVector<Operation *> chain{op};
  if (p.zeroFill)
    chain.push_back(p.zeroFill);
  // Buffers the chain writes: the kernel reads none of them, and writes
  // none of the buffers it reads (threads would race).
  SmallVector<Value> written{p.c};
  Value current = p.c;
  Operation *last = op;
  while (auto g = dyn_cast_or_null<linalg::GenericOp>(nextRelevantOp(last))) {
    if (!g.hasPureBufferSemantics() || g.getNumDpsInits() != 1 ||
        g.getNumReductionLoops() != 0 ||
        g.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
        g.getStaticLoopRanges() != SmallVector<int64_t>(cType.getShape()))
      break;
    Value out = g.getDpsInitOperand(0)->get();
    auto outType = dyn_cast<MemRefType>(out.getType());
    if (!outType || !isIdentityStatic(outType) ||
        !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
      break;
    bool readsCurrent = false, ok = true;
    for (OpOperand &operand : g->getOpOperands()) {
      AffineMap map = g.getMatchingIndexingMap(&operand);
      if (operand.get() == current) {
        readsCurrent = true;
        ok &= map.isIdentity();
        continue;
      }
      // Other operands: not a buffer the chain writes, a plain projection.
      ok &= !llvm::is_contained(written, operand.get()) &&
            map.isProjectedPermutation() &&
            isa<MemRefType>(operand.get().getType());
    }
    // The payload: no value from outside but constants.
    g.getRegion().walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (!g.getRegion().isAncestor(v.getParentRegion()) &&
            !matchPattern(v, m_Constant()))
          ok = false;
    });
    // A payload that reads its output's old value (other than the value
    // so far, in place) would read what the kernel writes.
    if (out != current && !g.getRegionOutputArgs()[0].use_empty())
      ok = false;
    bool outIsOwnInput = llvm::any_of(g.getDpsInputOperands(), [&](OpOperand *in) {
      return in->get() == out && out != current;
    });
    if (!readsCurrent || !ok || outIsOwnInput ||
        llvm::is_contained(p.epilogueInputs, out))
      break;
    // The value so far must not be needed by anyone but this op (an
    // in-place op writes it again).
    SmallVector<Operation *> users(chain);
    users.push_back(g);
    if (out != current && !onlyUsedBy(current, users))
      break;
    if (out == current && current == p.c && !onlyUsedBy(current, users))
      break;
    for (OpOperand *in : g.getDpsInputOperands())
      if (in->get() != current &&
          !llvm::is_contained(p.epilogueInputs, in->get()))
        p.epilogueInputs.push_back(in->get());
    p.epilogue.push_back(g);
    chain.push_back(g);
    written.push_back(out);
    current = out;
    last = g;
  }
  p.out = current;
  // C itself must be dead after the chain unless it is what is stored.
  if (!p.epilogue.empty() && p.out != p.c) {
    SmallVector<Operation *> users(chain);
    if (!onlyUsedBy(p.c, users)) {
      p.epilogue.clear();
      p.epilogueInputs.clear();
      p.out = p.c;
    }
  }
}

/// Builds one kernel; the GPU and the emulated forms share every index
/// function.
class GemmKernelBuilder {
public:
  GemmKernelBuilder(OpBuilder &b, Location loc, const GemmProblem &p,
                    const MmaSyncTiling &t)
      : b(b), loc(loc), p(p), t(t), aBuf(p.a), bBuf(p.b), cBuf(p.c),
        outBuf(p.out) {
    wm = t.blockM / t.warpsM;
    wn = t.blockN / t.warpsN;
    mTiles = wm / t.mma.m;
    nTiles = wn / t.mma.n;
    numK8 = t.mma.k / 8;
    aRegs = 2 * numK8;
    bRegs = numK8;
    gridX = llvm::divideCeil(p.n, t.blockN);
    gridY = llvm::divideCeil(p.m, t.blockM);
    numKTiles = llvm::divideCeil(p.k, t.blockK);
  }

  /// Whether the table's tiling is one this builder can lay out.
  static bool tilingIsConsistent(const MmaSyncTiling &t) {
    if (t.mma.m != 16 || t.mma.n != 8 || (t.mma.k != 16 && t.mma.k != 8))
      return false;
    if (!t.warpsM || !t.warpsN || t.blockM % (t.warpsM * 16) ||
        t.blockN % (t.warpsN * 16) || t.blockK % t.mma.k ||
        (t.stages != 1 && t.stages != 2))
      return false;
    unsigned threads = t.threads();
    return (t.blockM * t.blockK / kChunk) % threads == 0 &&
           (t.blockN * t.blockK / kChunk) % threads == 0;
  }

  /// A gpu.module `name` in `symbols` with the kernel, and its launch at
  /// the builder's insertion point.
  void buildGPU(SymbolTable &symbols, StringRef name);
  void buildEmulated();

private:
  /// The GPU kernel's body at the insertion point.
  void buildKernelBody(Value as, Value bs, Value tid, Value blockX,
                       Value blockY, Value blockZ);

  // --- arithmetic on indices -------------------------------------------
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return c ? add(x, idx(c)) : x; }
  Value mul(Value x, int64_t c) {
    return c == 1 ? x : arith::MulIOp::create(b, loc, x, idx(c)).getResult();
  }
  Value div(Value x, int64_t c) {
    return c == 1 ? x : arith::DivUIOp::create(b, loc, x, idx(c)).getResult();
  }
  Value rem(Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, idx(c));
  }
  Value lt(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, idx(c));
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// for (iv = 0; iv < n; ++iv) body(iv), at the current insertion point.
  void loop(int64_t n, function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, loc, idx(0), idx(n), idx(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(forOp.getBody());
    body(forOp.getInductionVar());
  }

  // --- shared index functions -------------------------------------------
  /// The shapes of one stage of the A and B tiles in shared memory.
  SmallVector<int64_t> aTileShape() const {
    return {t.stages, t.blockM, t.blockK + kPad};
  }
  SmallVector<int64_t> bTileShape() const {
    if (p.bTransposed)
      return {t.stages, t.blockN, t.blockK + kPad};
    return {t.stages, t.blockK, t.blockN + kPad};
  }

  /// Copies of one k slice (starting at `k0`) into `stage`, the chunks thread
  /// `tid` owns: chunk q = tid + i * threads of a row-major tile, its global
  /// coordinates, and whether it lies inside the operand (K and N are
  /// multiples of 8: a chunk is entirely in or out). `copy(dst, dstIdx,
  /// src, srcIdx, inBounds)` moves one chunk.
  using CopyFn = function_ref<void(Value, ValueRange, Value, ValueRange,
                                   Value)>;
  void copySlice(Value as, Value bs, Value tid, Value stage, Value k0,
                 Value batchIdx, Value rowBase, Value colBase, CopyFn copy) {
    auto copyTile = [&](Value dst, Value src, bool batched, int64_t rows,
                        int64_t cols, Value base0, Value base1, int64_t bound0,
                        int64_t bound1) {
      int64_t perRow = cols / kChunk;
      int64_t chunks = rows * perRow;
      for (int64_t i = 0; i < chunks / t.threads(); ++i) {
        Value q = add(tid, i * t.threads());
        Value r = div(q, perRow);
        Value c = mul(rem(q, perRow), kChunk);
        Value g0 = add(base0, r), g1 = add(base1, c);
        Value inBounds = andI(lt(g0, bound0), lt(g1, bound1));
        SmallVector<Value> srcIdx;
        if (batched)
          srcIdx.push_back(batchIdx);
        // Out-of-range chunks read element 0 (zero-filled, never used).
        srcIdx.push_back(select(inBounds, g0, idx(0)));
        srcIdx.push_back(select(inBounds, g1, idx(0)));
        copy(dst, ValueRange{stage, r, c}, src, srcIdx, inBounds);
      }
    };
    copyTile(as, aBuf, p.aBatched, t.blockM, t.blockK, rowBase, k0, p.m, p.k);
    if (p.bTransposed)
      copyTile(bs, bBuf, p.bBatched, t.blockN, t.blockK, colBase, k0, p.n, p.k);
    else
      copyTile(bs, bBuf, p.bBatched, t.blockK, t.blockN, k0, colBase, p.k, p.n);
  }

  /// ldmatrix row addresses (row, column in a stage) given by `lane` for the
  /// A fragments of m tile `mi` at k step `kk` (x4: a0..a3 of m16k16, or x2:
  /// a0, a1 of m16k8): lanes 0-15 rows 0-15 at k, lanes 16-31 at k + 8.
  std::pair<Value, Value> aFragmentAddress(Value warpM, Value lane,
                                           int64_t mi, int64_t kk) {
    Value row = add(add(mul(warpM, wm), mi * 16), rem(lane, 16));
    Value col = add(mul(rem(div(lane, 16), numK8), kChunk), kk * t.mma.k);
    return {row, col};
  }
  /// The same for the B fragments of n tiles 2*np and 2*np+1: matrix j =
  /// lane / 8 is (n tile 2*np + j / numK8, k half j % numK8); a row-major B
  /// gives k rows (read with .trans), a transposed one n rows.
  std::pair<Value, Value> bFragmentAddress(Value warpN, Value lane,
                                           int64_t np, int64_t kk) {
    Value j = rem(div(lane, 8), 2 * numK8);
    Value kOff = add(mul(rem(j, numK8), kChunk), kk * t.mma.k);
    Value nOff = add(add(mul(warpN, wn), np * 2 * t.mma.n),
                     mul(div(j, numK8), t.mma.n));
    if (p.bTransposed)
      return {add(nOff, rem(lane, 8)), kOff};
    return {add(kOff, rem(lane, 8)), nOff};
  }
  /// Where accumulator register `i` (c0..c3) of `lane` lies in C: row
  /// lane / 4 (+8 for c2, c3), column 2 * (lane % 4) (+1 for c1, c3).
  std::pair<Value, Value> accumulatorCoordinates(Value rowBase, Value colBase,
                                                 Value warpM, Value warpN,
                                                 Value lane, int64_t mi,
                                                 int64_t ni, int64_t i) {
    Value row = add(add(add(rowBase, mul(warpM, wm)), mi * 16 + (i / 2) * 8),
                    div(lane, 4));
    Value col = add(add(add(colBase, mul(warpN, wn)), ni * 8 + i % 2),
                    mul(rem(lane, 4), 2));
    return {row, col};
  }
  SmallVector<Value> cIndices(Value batchIdx, Value row, Value col) {
    SmallVector<Value> ix;
    if (p.cBatched)
      ix.push_back(batchIdx);
    ix.append({row, col});
    return ix;
  }
  /// C[row][col], or 0 outside C (a load from a clamped address and a
  /// select: no branch).
  Value loadInitial(Value batchIdx, Value row, Value col) {
    if (p.zeroFill)
      return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value inBounds = andI(lt(row, p.m), lt(col, p.n));
    Value v = memref::LoadOp::create(
        b, loc, cBuf,
        cIndices(batchIdx, select(inBounds, row, idx(0)),
                 select(inBounds, col, idx(0))));
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    return select(inBounds, v, zero);
  }
  /// Stores c0, c1 (or c2, c3) of a lane through the epilogue: two
  /// adjacent columns, both inside or both outside C (N is a multiple of
  /// 8); the epilogue's loads are inside the guard too.
  void storePair(Value batchIdx, Value row, Value col, Value lo, Value hi) {
    Value inBounds = andI(lt(row, p.m), lt(col, p.n));
    auto ifOp = scf::IfOp::create(b, loc, inBounds);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    lo = applyEpilogue(batchIdx, row, col, lo);
    hi = applyEpilogue(batchIdx, row, add(col, 1), hi);
    Value pair = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, lo.getType()), ValueRange{lo, hi});
    vector::StoreOp::create(b, loc, pair, outBuf,
                            cIndices(batchIdx, row, col));
  }
  /// A synchronous chunk copy (chips without cp.async, and the emulation):
  /// 16 bytes, or zeros outside the operand. The source indices are already
  /// clamped into the operand, so the load is unconditional (no branch).
  void copyChunkSync(Value dst, ValueRange dstIdx, Value src,
                     ValueRange srcIdx, Value inBounds) {
    // 16-byte accesses, as cp.async's (the operands' base addresses are
    // 16-byte aligned, K and N multiples of 8, shared rows padded by 16).
    auto vecType = VectorType::get({kChunk}, p.elem);
    Value v = vector::LoadOp::create(b, loc, vecType, src, srcIdx,
                                     /*nontemporal=*/false, llvm::Align(16));
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType, b.getFloatAttr(p.elem, 0)));
    vector::StoreOp::create(b, loc, select(inBounds, v, zero), dst, dstIdx,
                            /*nontemporal=*/false, llvm::Align(16));
  }

  /// mma.sync on one tile: A fragment registers (vector<2 x elem> each),
  /// B fragment registers, four f32 accumulators; returns the new four.
  SmallVector<Value> mmaSync(ArrayRef<Value> aFrag, ArrayRef<Value> bFrag,
                             ArrayRef<Value> acc);

  OpBuilder &b;
  Location loc;
  const GemmProblem &p;
  const MmaSyncTiling &t;
  int64_t wm, wn, mTiles, nTiles, numK8, aRegs, bRegs;
  int64_t gridX, gridY, numKTiles;
  /// The operands as the kernel sees them (its arguments on the GPU).
  Value aBuf, bBuf, cBuf, outBuf;
  /// Host buffers (epilogue inputs) to the kernel's values.
  IRMapping kernelBuffers;

  /// The host buffers the kernel reads or writes, in argument order.
  SmallVector<Value> kernelOperands() const {
    SmallVector<Value> operands{p.a, p.b};
    auto add = [&](Value v) {
      if (!llvm::is_contained(operands, v))
        operands.push_back(v);
    };
    if (!p.zeroFill)
      add(p.c);
    for (Value v : p.epilogueInputs)
      add(v);
    add(p.out);
    return operands;
  }

  /// The epilogue ops' payloads on `value`, C's element (row, col): the
  /// value each produces feeds the next; their other operands are loaded
  /// where their indexing maps say.
  Value applyEpilogue(Value batchIdx, Value row, Value col, Value value);
};

Value GemmKernelBuilder::applyEpilogue(Value batchIdx, Value row, Value col,
                                       Value value) {
  SmallVector<Value> loopIdx;
  if (p.cBatched)
    loopIdx.push_back(batchIdx);
  loopIdx.append({row, col});
  Value current = p.c;
  for (linalg::GenericOp g : p.epilogue) {
    IRMapping map;
    for (OpOperand &operand : g->getOpOperands()) {
      BlockArgument arg = g.getMatchingBlockArgument(&operand);
      if (operand.get() == current) {
        map.map(arg, value);
        continue;
      }
      if (arg.use_empty())
        continue; // an output the payload only overwrites
      SmallVector<Value> indices;
      for (AffineExpr e : g.getMatchingIndexingMap(&operand).getResults())
        indices.push_back(loopIdx[cast<AffineDimExpr>(e).getPosition()]);
      map.map(arg, memref::LoadOp::create(
                       b, loc, kernelBuffers.lookupOrDefault(operand.get()),
                       indices));
    }
    Block *body = g.getBody();
    for (Operation &inner : body->without_terminator()) {
      // Constants from the host function are rebuilt where the epilogue is.
      for (Value v : inner.getOperands())
        if (!map.contains(v) && v.getParentBlock() != body)
          if (Operation *def = v.getDefiningOp())
            b.clone(*def, map);
      b.clone(inner, map);
    }
    Value yielded = body->getTerminator()->getOperand(0);
    if (!map.contains(yielded) && yielded.getParentBlock() != body)
      if (Operation *def = yielded.getDefiningOp())
        b.clone(*def, map);
    value = map.lookupOrDefault(yielded);
    current = g.getDpsInitOperand(0)->get();
  }
  return value;
}

SmallVector<Value> GemmKernelBuilder::mmaSync(ArrayRef<Value> aFrag,
                                              ArrayRef<Value> bFrag,
                                              ArrayRef<Value> acc) {
  // NVVM wants f16 pairs as vector<2xf16> and bf16 pairs packed in an i32.
  auto operand = [&](Value pair) -> Value {
    if (p.elem.isF16())
      return pair;
    Value packed = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), pair);
    return vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0});
  };
  SmallVector<Value> a, bv;
  for (Value v : aFrag)
    a.push_back(operand(v));
  for (Value v : bFrag)
    bv.push_back(operand(v));
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  NVVM::MMATypes ptxType =
      p.elem.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
  auto mma = NVVM::MmaOp::create(
      b, loc, resultType, a, bv, acc,
      ArrayRef<int64_t>{t.mma.m, t.mma.n, t.mma.k}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> out;
  for (int64_t i = 0; i < 4; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, mma, i));
  return out;
}

void GemmKernelBuilder::buildGPU(SymbolTable &symbols, StringRef name) {
  MLIRContext *ctx = b.getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto aTileType = MemRefType::get(aTileShape(), p.elem, nullptr, workgroup);
  auto bTileType = MemRefType::get(bTileShape(), p.elem, nullptr, workgroup);

  // The kernel is outlined here rather than by gpu-kernel-outlining: its
  // staging buffers need 16-byte alignment (cp.async and ldmatrix address
  // 16-byte rows), which only a gpu.func's attributions can carry.
  Location hostLoc = loc;
  Block *hostBlock = b.getInsertionBlock();
  Block::iterator hostPoint = b.getInsertionPoint();
  OpBuilder detached(ctx);
  auto module = gpu::GPUModuleOp::create(detached, loc, name);
  symbols.insert(module); // at the end, renamed if the name is taken
  b.setInsertionPointToStart(module.getBody());
  SmallVector<Value> operands = kernelOperands();
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name,
      b.getFunctionType(ValueRange(operands).getTypes(), {}),
      TypeRange{aTileType, bTileType});
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  for (unsigned i = 0; i < 2; ++i)
    kernel.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                       b.getI64IntegerAttr(16));
  // No launch bounds (known_block_size becomes .reqntid, minctasm
  // .minnctapersm): with either, ptxas targets a register budget these
  // accumulators do not fit in and spills (checked on every chip by
  // test/Pipelines/lowp-pipeline-nvvm-tensor-cores-ptxas.test).
  Block &body = kernel.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  for (auto [host, arg] : llvm::zip(operands, kernel.getArguments()))
    kernelBuffers.map(host, arg);
  aBuf = kernelBuffers.lookup(p.a);
  bBuf = kernelBuffers.lookup(p.b);
  cBuf = kernelBuffers.lookupOrDefault(p.c);
  outBuf = kernelBuffers.lookup(p.out);
  buildKernelBody(kernel.getWorkgroupAttributions()[0],
                  kernel.getWorkgroupAttributions()[1],
                  gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
                  gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                  gpu::BlockIdOp::create(b, loc, gpu::Dimension::y),
                  gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));

  b.setInsertionPoint(hostBlock, hostPoint);
  gpu::LaunchFuncOp::create(
      b, hostLoc, kernel,
      gpu::KernelDim3{idx(gridX), idx(gridY), idx(p.batch)},
      gpu::KernelDim3{idx(t.threads()), idx(1), idx(1)},
      /*dynamicSharedMemorySize=*/nullptr, operands);
}

void GemmKernelBuilder::buildKernelBody(Value as, Value bs, Value tid,
                                        Value blockX, Value blockY,
                                        Value blockZ) {
  MLIRContext *ctx = b.getContext();
  Value batchIdx = blockZ;
  Value rowBase = mul(blockY, t.blockM);
  Value colBase = mul(blockX, t.blockN);
  Value lane = rem(tid, 32);
  Value warp = div(tid, 32);
  Value warpM = div(warp, t.warpsN), warpN = rem(warp, t.warpsN);

  // Accumulators start from C (C += A * B).
  SmallVector<Value> acc;
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t i = 0; i < 4; ++i) {
        auto [row, col] = accumulatorCoordinates(rowBase, colBase, warpM,
                                                 warpN, lane, mi, ni, i);
        acc.push_back(loadInitial(batchIdx, row, col));
      }

  auto tokenType = nvgpu::DeviceAsyncTokenType::get(ctx);
  SmallVector<Value> tokens;
  auto asyncCopy = [&](Value dst, ValueRange dstIdx, Value src,
                       ValueRange srcIdx, Value inBounds) {
    // cp.async.cg 16 bytes; src-size 0 zero-fills out-of-range chunks.
    Value srcElements = select(inBounds, idx(kChunk), idx(0));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, tokenType, dst, dstIdx, src, srcIdx,
        b.getIndexAttr(kChunk), srcElements, b.getUnitAttr()));
  };
  auto syncCopy = [&](Value dst, ValueRange dstIdx, Value src,
                      ValueRange srcIdx, Value inBounds) {
    copyChunkSync(dst, dstIdx, src, srcIdx, inBounds);
  };
  bool async = t.stages == 2;
  if (async) {
    copySlice(as, bs, tid, idx(0), idx(0), batchIdx, rowBase, colBase,
              asyncCopy);
    nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
    tokens.clear();
  }

  auto kLoop = scf::ForOp::create(b, loc, idx(0), idx(numKTiles), idx(1), acc);
  {
    OpBuilder::InsertionGuard lg(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value kt = kLoop.getInductionVar();
    Value stage;
    if (async) {
      // Slice kt + 1 goes in flight into the other buffer (past the end of
      // K it is all zero-fill), then slice kt must have landed: wait until
      // at most the newest group is pending.
      Value next = add(kt, 1);
      copySlice(as, bs, tid, rem(next, 2), mul(next, t.blockK), batchIdx,
                rowBase, colBase, asyncCopy);
      Value group =
          nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
      tokens.clear();
      nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));
      stage = rem(kt, 2);
    } else {
      copySlice(as, bs, tid, idx(0), mul(kt, t.blockK), batchIdx, rowBase,
                colBase, syncCopy);
      stage = idx(0);
    }
    gpu::BarrierOp::create(b, loc);

    SmallVector<Value> cur(kLoop.getRegionIterArgs());
    auto fragType = [&](int64_t regs) {
      return VectorType::get({regs, 2}, p.elem);
    };
    auto row = [&](Value frag, int64_t r) -> Value {
      return vector::ExtractOp::create(b, loc, frag, ArrayRef<int64_t>{r});
    };
    for (int64_t kk = 0; kk < t.blockK / t.mma.k; ++kk) {
      SmallVector<Value> aFrags, bFrags;
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        auto [r, c] = aFragmentAddress(warpM, lane, mi, kk);
        aFrags.push_back(nvgpu::LdMatrixOp::create(
            b, loc, fragType(aRegs), as, ValueRange{stage, r, c},
            /*transpose=*/false, aRegs));
      }
      for (int64_t np = 0; np < nTiles / 2; ++np) {
        auto [r, c] = bFragmentAddress(warpN, lane, np, kk);
        bFrags.push_back(nvgpu::LdMatrixOp::create(
            b, loc, fragType(2 * bRegs), bs, ValueRange{stage, r, c},
            /*transpose=*/!p.bTransposed, 2 * bRegs));
      }
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        SmallVector<Value> aOps;
        for (int64_t r = 0; r < aRegs; ++r)
          aOps.push_back(row(aFrags[mi], r));
        for (int64_t ni = 0; ni < nTiles; ++ni) {
          SmallVector<Value> bOps;
          for (int64_t r = 0; r < bRegs; ++r)
            bOps.push_back(row(bFrags[ni / 2], (ni % 2) * bRegs + r));
          int64_t base = (mi * nTiles + ni) * 4;
          SmallVector<Value> res =
              mmaSync(aOps, bOps, ArrayRef<Value>(cur).slice(base, 4));
          std::copy(res.begin(), res.end(), cur.begin() + base);
        }
      }
    }
    // Nobody overwrites a buffer other warps still read.
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, cur);
  }

  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t h = 0; h < 2; ++h) {
        auto [row, col] = accumulatorCoordinates(rowBase, colBase, warpM,
                                                 warpN, lane, mi, ni, 2 * h);
        int64_t base = (mi * nTiles + ni) * 4 + 2 * h;
        storePair(batchIdx, row, col, kLoop.getResult(base),
                  kLoop.getResult(base + 1));
      }
}

void GemmKernelBuilder::buildEmulated() {
  Type f32 = b.getF32Type();
  auto alloc = [&](ArrayRef<int64_t> shape, Type elem) -> Value {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, elem));
  };
  int64_t warps = t.warpsM * t.warpsN;
  loop(p.batch, [&](Value batchIdx) {
    loop(gridY, [&](Value by) {
      loop(gridX, [&](Value bx) {
        Value rowBase = mul(by, t.blockM), colBase = mul(bx, t.blockN);
        Value as = alloc(aTileShape(), p.elem);
        Value bs = alloc(bTileShape(), p.elem);
        // Registers of every lane of every warp, in memory.
        Value acc = alloc({warps, mTiles, nTiles, 32, 4}, f32);
        Value aFrag = alloc({mTiles, aRegs, 32, 2}, p.elem);
        Value bFrag = alloc({nTiles, bRegs, 32, 2}, p.elem);
        auto forEachLaneOfEachWarp =
            [&](function_ref<void(Value, Value, Value, Value)> body) {
              loop(warps, [&](Value warp) {
                Value warpM = div(warp, t.warpsN), warpN = rem(warp, t.warpsN);
                loop(32, [&](Value lane) { body(warp, warpM, warpN, lane); });
              });
            };
        forEachLaneOfEachWarp([&](Value warp, Value warpM, Value warpN,
                                  Value lane) {
          for (int64_t mi = 0; mi < mTiles; ++mi)
            for (int64_t ni = 0; ni < nTiles; ++ni)
              for (int64_t i = 0; i < 4; ++i) {
                auto [row, col] = accumulatorCoordinates(
                    rowBase, colBase, warpM, warpN, lane, mi, ni, i);
                memref::StoreOp::create(
                    b, loc, loadInitial(batchIdx, row, col), acc,
                    ValueRange{warp, idx(mi), idx(ni), lane, idx(i)});
              }
        });

        auto syncCopy = [&](Value dst, ValueRange dstIdx, Value src,
                            ValueRange srcIdx, Value inBounds) {
          copyChunkSync(dst, dstIdx, src, srcIdx, inBounds);
        };
        auto copyAllThreads = [&](Value stage, Value k0) {
          loop(t.threads(), [&](Value tid) {
            copySlice(as, bs, tid, stage, k0, batchIdx, rowBase, colBase,
                      syncCopy);
          });
        };
        bool twoStages = t.stages == 2;
        if (twoStages)
          copyAllThreads(idx(0), idx(0));
        loop(numKTiles, [&](Value kt) {
          Value stage;
          if (twoStages) {
            Value next = add(kt, 1);
            copyAllThreads(rem(next, 2), mul(next, t.blockK));
            stage = rem(kt, 2);
          } else {
            copyAllThreads(idx(0), mul(kt, t.blockK));
            stage = idx(0);
          }
          loop(warps, [&](Value warp) {
            Value warpM = div(warp, t.warpsN), warpN = rem(warp, t.warpsN);
            // ldmatrix .x<tiles>: matrix j's row r comes from the address
            // lane 8 * j + r gives. Lane l receives, as its register j,
            // elements (l / 4, 2 * (l % 4) + e) of matrix j, or with .trans
            // elements (2 * (l % 4) + e, l / 4).
            auto ldmatrix = [&](Value smem, int64_t tiles, bool trans,
                                function_ref<std::pair<Value, Value>(Value)>
                                    address,
                                function_ref<void(int64_t, Value, int64_t,
                                                  Value)>
                                    storeReg) {
              loop(32, [&](Value l) {
                for (int64_t j = 0; j < tiles; ++j)
                  for (int64_t e = 0; e < 2; ++e) {
                    Value srcLane =
                        trans ? add(add(mul(rem(l, 4), 2), e), j * 8)
                              : add(div(l, 4), j * 8);
                    auto [r, c] = address(srcLane);
                    Value col = trans ? add(c, div(l, 4))
                                      : add(add(c, mul(rem(l, 4), 2)), e);
                    Value v = memref::LoadOp::create(
                        b, loc, smem, ValueRange{stage, r, col});
                    storeReg(j, l, e, v);
                  }
              });
            };
            for (int64_t kk = 0; kk < t.blockK / t.mma.k; ++kk) {
              for (int64_t mi = 0; mi < mTiles; ++mi)
                ldmatrix(
                    as, aRegs, false,
                    [&](Value srcLane) {
                      return aFragmentAddress(warpM, srcLane, mi, kk);
                    },
                    [&](int64_t j, Value l, int64_t e, Value v) {
                      memref::StoreOp::create(
                          b, loc, v, aFrag,
                          ValueRange{idx(mi), idx(j), l, idx(e)});
                    });
              for (int64_t np = 0; np < nTiles / 2; ++np)
                ldmatrix(
                    bs, 2 * bRegs, !p.bTransposed,
                    [&](Value srcLane) {
                      return bFragmentAddress(warpN, srcLane, np, kk);
                    },
                    [&](int64_t j, Value l, int64_t e, Value v) {
                      int64_t ni = 2 * np + j / bRegs;
                      memref::StoreOp::create(
                          b, loc, v, bFrag,
                          ValueRange{idx(ni), idx(j % bRegs), l, idx(e)});
                    });
              // mma.sync m16n8kK: lane l's d_i is D[l / 4 + 8 * (i / 2)]
              // [2 * (l % 4) + i % 2]; A[r][k] is in lane (r % 8) * 4 +
              // (k % 8) / 2, register r / 8 + 2 * (k / 8), half k % 2;
              // B[k][c] in lane c * 4 + (k % 8) / 2, register k / 8,
              // half k % 2.
              for (int64_t mi = 0; mi < mTiles; ++mi)
                for (int64_t ni = 0; ni < nTiles; ++ni)
                  loop(32, [&](Value l) {
                    for (int64_t i = 0; i < 4; ++i) {
                      Value r = add(div(l, 4), 8 * (i / 2));
                      Value c = add(mul(rem(l, 4), 2), i % 2);
                      SmallVector<Value> accIdx{warp, idx(mi), idx(ni), l,
                                                idx(i)};
                      Value init = memref::LoadOp::create(b, loc, acc, accIdx);
                      auto kLoop = scf::ForOp::create(
                          b, loc, idx(0), idx(t.mma.k), idx(1),
                          ValueRange{init});
                      {
                        OpBuilder::InsertionGuard kg(b);
                        b.setInsertionPointToStart(kLoop.getBody());
                        Value k = kLoop.getInductionVar();
                        Value half = rem(k, 2);
                        Value aLane = add(mul(rem(r, 8), 4), div(rem(k, 8), 2));
                        Value aReg = add(div(r, 8), mul(div(k, 8), 2));
                        Value bLane = add(mul(c, 4), div(rem(k, 8), 2));
                        Value bReg = div(k, 8);
                        Value av = memref::LoadOp::create(
                            b, loc, aFrag, ValueRange{idx(mi), aReg, aLane, half});
                        Value bv = memref::LoadOp::create(
                            b, loc, bFrag, ValueRange{idx(ni), bReg, bLane, half});
                        Value prod = arith::MulFOp::create(
                            b, loc, arith::ExtFOp::create(b, loc, f32, av),
                            arith::ExtFOp::create(b, loc, f32, bv));
                        Value sum = arith::AddFOp::create(
                            b, loc, kLoop.getRegionIterArgs()[0], prod);
                        scf::YieldOp::create(b, loc, sum);
                      }
                      memref::StoreOp::create(b, loc, kLoop.getResult(0), acc,
                                              accIdx);
                    }
                  });
            }
          });
        });

        forEachLaneOfEachWarp([&](Value warp, Value warpM, Value warpN,
                                  Value lane) {
          for (int64_t mi = 0; mi < mTiles; ++mi)
            for (int64_t ni = 0; ni < nTiles; ++ni)
              for (int64_t h = 0; h < 2; ++h) {
                auto [row, col] = accumulatorCoordinates(
                    rowBase, colBase, warpM, warpN, lane, mi, ni, 2 * h);
                auto reg = [&](int64_t i) -> Value {
                  return memref::LoadOp::create(
                      b, loc, acc,
                      ValueRange{warp, idx(mi), idx(ni), lane, idx(i)});
                };
                storePair(batchIdx, row, col, reg(2 * h), reg(2 * h + 1));
              }
        });
        for (Value buffer : {as, bs, acc, aFrag, bFrag})
          memref::DeallocOp::create(b, loc, buffer);
      });
    });
  });
}

/// Erases the contraction, its zero fill and epilogue ops (the kernel
/// computes them), then the temporaries only deallocations still use.
void eraseFusedOps(linalg::LinalgOp op, const GemmProblem &p) {
  SmallVector<Value> buffers{p.c};
  for (linalg::GenericOp g : llvm::reverse(p.epilogue)) {
    // In-place ops write the buffer their producer wrote: once each.
    if (!llvm::is_contained(buffers, g.getDpsInitOperand(0)->get()))
      buffers.push_back(g.getDpsInitOperand(0)->get());
    g->erase();
  }
  op->erase();
  if (p.zeroFill)
    p.zeroFill->erase();
  for (Value buffer : buffers) {
    if (buffer == p.out || !buffer.getDefiningOp<memref::AllocOp>() ||
        !llvm::all_of(buffer.getUsers(),
                      [](Operation *u) { return isa<memref::DeallocOp>(u); }))
      continue;
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      user->erase();
    buffer.getDefiningOp()->erase();
  }
}

struct LowpNVVMLowerContractionsPass
    : lowp::impl::LowpNVVMLowerContractionsBase<
          LowpNVVMLowerContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(
        root, selectTargetOption(getArgument(), target, "chip", deprecatedChip));
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    if (!info) {
      root->emitError("no NVIDIA chip: set target=sm_XX or a lowp.target");
      return signalPassFailure();
    }
    if (info->vendor != Vendor::NVIDIA) {
      root->emitError() << "'" << info->name
                        << "' is not an NVIDIA chip (NVVM targets: sm_XX)";
      return signalPassFailure();
    }
    const MmaSyncTiling &tiling = info->mmaSync16;
    if (tiling.valid() && !GemmKernelBuilder::tilingIsConsistent(tiling)) {
      root->emitError() << "the capability table's mma.sync tiling of "
                        << info->name << " cannot be laid out";
      return signalPassFailure();
    }

    SmallVector<std::pair<linalg::LinalgOp, GemmProblem>> work;
    root->walk([&](linalg::LinalgOp op) {
      if (!hasLowPrecisionOperands(op))
        return;
      std::string whyNot;
      FailureOr<GemmProblem> problem = matchGemm(op, *info, whyNot);
      if (failed(problem)) {
        op->emitRemark() << "no tensor-core kernel for '" << op->getName()
                         << "' on " << info->name << ": " << whyNot
                         << "; it runs on the naive kernel";
        return;
      }
      collectEpilogue(op, *problem);
      work.emplace_back(op, *problem);
    });
    if (!work.empty() && !emulate)
      root->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(root->getContext()));
    SymbolTable symbols(root);
    for (auto &[op, problem] : work) {
      // At the last op the kernel computes: its buffers are all allocated
      // by then, and only allocations and constants lie in between.
      OpBuilder b(problem.epilogue.empty() ? op.getOperation()
                                           : problem.epilogue.back());
      GemmKernelBuilder kernel(b, op.getLoc(), problem, tiling);
      if (emulate) {
        kernel.buildEmulated();
      } else {
        auto parent = op->getParentOfType<FunctionOpInterface>();
        kernel.buildGPU(symbols,
                        ((parent ? parent.getName() : StringRef("lowp")) +
                         "_mma_sync")
                            .str());
      }
      eraseFusedOps(op, problem);
    }
  }
};
} // namespace
