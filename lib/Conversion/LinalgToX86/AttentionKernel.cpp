//===- AttentionKernel.cpp - attention as one kernel per head group -------===//
//
// Scaled-dot-product attention as front ends export it, bufferized: a
// contraction of the queries with the keys (S = Q K^T, the keys stored
// [key][d]), elementwise ops on the scores (scale, mask, bias), softmax
// along the keys (a max reduction, exp(x - max), a sum reduction, a
// division) and a contraction of the probabilities with the values
// (O = P V). With a few query rows per head group (decoding: one token
// times the query heads that share a key/value head), the GEMM kernels
// would run on rows of one or two vectors and the scores would go to memory
// and back four times. Instead, one kernel per head group streams the keys
// and values once, a block of keys at a time: the block's scores (each
// key row read once for all the group's queries while it is in L1), the
// elementwise ops on them, online softmax in f32 (a running max and sum;
// the value accumulators are rescaled when the max grows) and the values
// accumulated in f32. Neither scores nor probabilities reach memory.
//
// The probabilities are not rounded to the format the P V contraction reads
// (bf16 under a mixed policy): the kernel keeps them in f32, which is
// closer to exact softmax than the unfused path.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Support/Buffers.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// Query rows per head group up to which the fused kernel runs; beyond it
/// (a prompt), the register-blocked GEMMs do the contractions.
constexpr int64_t kMaxQueryRows = 16;
/// Keys per block: scores of a block stay in one small buffer (L1).
constexpr int64_t kKeyBlock = 16;
/// How far ahead, in keys, the kernel prefetches the key and value rows:
/// it does little work per row loaded, and without prefetches it waits on
/// memory (a cache of 4096 positions ran at a third of the bandwidth).
constexpr int64_t kPrefetchKeys = 32;

/// The ops that use `v` or a reshaped view of it (not the views). Any other
/// view of an intermediate buffer is such a user, so the kernel, whose
/// indexing assumes the row-major order of reshapes, refuses it.
void collectUsers(Value v, llvm::SetVector<Operation *> &users) {
  for (Operation *u : v.getUsers()) {
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(u))
      collectUsers(u->getResult(0), users);
    else
      users.insert(u);
  }
}

/// The constant a linalg.fill writes, or null.
FloatAttr fillConstant(linalg::FillOp fill) {
  FloatAttr value;
  if (!matchPattern(fill.value(), m_Constant(&value)))
    return nullptr;
  return value;
}

/// Whether `map` reads, at the loops of a row reduction over the last of
/// `loops` loops, the row's value: the leading loops in order, maybe a
/// trailing 0 (keepdim).
bool isRowMap(AffineMap map, unsigned loops) {
  unsigned n = map.getNumResults();
  if (n != loops - 1 && n != loops)
    return false;
  for (unsigned i = 0; i + 1 < loops; ++i)
    if (map.getResult(i) != getAffineDimExpr(i, map.getContext()))
      return false;
  if (n == loops) {
    auto c = dyn_cast<AffineConstantExpr>(map.getResult(loops - 1));
    return c && c.getValue() == 0;
  }
  return true;
}

bool allParallel(linalg::GenericOp g) {
  return g.getNumReductionLoops() == 0;
}

/// A reduction over the last loop into one output read and written per row.
bool isLastLoopReduction(linalg::GenericOp g) {
  SmallVector<utils::IteratorType> it = g.getIteratorTypesArray();
  if (it.empty() || g.getNumDpsInits() != 1 ||
      it.back() != utils::IteratorType::reduction)
    return false;
  for (size_t i = 0; i + 1 < it.size(); ++i)
    if (it[i] != utils::IteratorType::parallel)
      return false;
  return isRowMap(g.getMatchingIndexingMap(g.getDpsInitOperand(0)),
                  g.getNumLoops());
}

/// The value the payload yields, when it has one.
Value yielded(linalg::GenericOp g) {
  Operation *yield = g.getBody()->getTerminator();
  return yield->getNumOperands() == 1 ? yield->getOperand(0) : Value();
}

bool dependsOn(Value v, Value arg) {
  if (v == arg)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != arg.getParentBlock())
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value o) { return dependsOn(o, arg); });
}

/// The attention ops around one Q K^T contraction, as matched.
struct Attention {
  linalg::LinalgOp qk, pv;
  ContractionShape qkShape, pvShape;
  /// The scores' buffer and its initial value (the fill of S).
  Value scores;
  FloatAttr scoreInit;
  /// The elementwise ops from the scores to what softmax reads, in program
  /// order, each writing a buffer only the matched ops read.
  SmallVector<linalg::GenericOp> scoreOps;
  linalg::GenericOp rowMax, exp, rowSum, normalize;
  /// The softmax input as the max reduction's payload computes it.
  Value maxInput;
  FloatAttr maxInit;
  /// The loop ranges the elementwise and softmax ops share (the last one
  /// runs over the keys).
  SmallVector<int64_t> rowSpace;
  /// Every matched op, and the intermediate buffers they alone use.
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<Value> buffers;
};

/// Structural equality of two payload values (the softmax input as the max
/// reduction and the exp op each compute it): the same ops on the same
/// operands read through the same maps.
bool samePayloadValue(Value a, linalg::GenericOp ga, Value b,
                      linalg::GenericOp gb) {
  auto argA = dyn_cast<BlockArgument>(a);
  auto argB = dyn_cast<BlockArgument>(b);
  if (argA && argA.getOwner() == ga.getBody() && argB &&
      argB.getOwner() == gb.getBody()) {
    OpOperand *oa = ga.getMatchingOpOperand(argA);
    OpOperand *ob = gb.getMatchingOpOperand(argB);
    return !ga.isDpsInit(oa) && !gb.isDpsInit(ob) &&
           oa->get() == ob->get() &&
           ga.getMatchingIndexingMap(oa) == gb.getMatchingIndexingMap(ob);
  }
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  bool insideA = da && da->getBlock() == ga.getBody();
  bool insideB = db && db->getBlock() == gb.getBody();
  if (!insideA || !insideB)
    return !insideA && !insideB && !argA && !argB && a == b;
  if (da->getName() != db->getName() || da->getAttrs() != db->getAttrs() ||
      da->getResultTypes() != db->getResultTypes() ||
      da->getNumOperands() != db->getNumOperands() ||
      da->getNumRegions() || db->getNumRegions() ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [x, y] : llvm::zip(da->getOperands(), db->getOperands()))
    if (!samePayloadValue(x, ga, y, gb))
      return false;
  return true;
}

/// Matches the attention whose scores `qk` computes into `att`, or says
/// why not.
LogicalResult matchAttentionInto(Attention &att, linalg::LinalgOp qk,
                                 const KernelConfig &cfg, std::string &why) {
  att.qk = qk;
  std::string ignored;
  FailureOr<ContractionShape> qkShape = matchContraction(qk, cfg, ignored);
  if (failed(qkShape) || !qkShape->b.transposed || qkShape->a.transposed ||
      ShapedType::isDynamic(qkShape->m) ||
      ShapedType::isDynamic(qkShape->batches) || qkShape->m > kMaxQueryRows)
    return failure();
  att.qkShape = *qkShape;
  int64_t batches = std::max<int64_t>(qkShape->batches, 1);
  int64_t rows = qkShape->m, keys = qkShape->n;

  Value scores = getRootBuffer(qkShape->c);
  if (!scores.getDefiningOp<memref::AllocOp>())
    return failure();
  att.scores = scores;
  Block *block = qk->getBlock();

  // Walk forward from the contraction: every op reading a buffer derived
  // from the scores must be one of the pieces, in order.
  llvm::SetVector<Value> derived; // scores and the score ops' outputs
  derived.insert(scores);
  Value maxBuf, expBuf, sumBuf, probBuf;
  auto setRowSpace = [&](linalg::GenericOp g) {
    SmallVector<int64_t> ranges = g.getStaticLoopRanges();
    if (att.rowSpace.empty()) {
      int64_t total = 1;
      for (int64_t r : ranges)
        total = ShapedType::isDynamic(r) ? -1 : total * r;
      if (ranges.empty() || ranges.back() != keys ||
          total != batches * rows * keys)
        return false;
      att.rowSpace = ranges;
      return true;
    }
    return ranges == att.rowSpace;
  };
  auto freshOutput = [](linalg::GenericOp g) -> Value {
    if (g.getNumDpsInits() != 1 || g.getNumResults() != 0)
      return nullptr;
    Value root = getRootBuffer(g.getDpsInits()[0]);
    return root.getDefiningOp<memref::AllocOp>() ? root : nullptr;
  };
  auto plainPayload = [](linalg::GenericOp g) {
    return isVectorizablePayload(g.getBody()) &&
           g.getBody()->getOps<linalg::IndexOp>().empty() && yielded(g);
  };
  // The fill of a reduction's output, just before the reduction.
  auto fillOf = [&](Value root, linalg::GenericOp reduction) {
    llvm::SetVector<Operation *> users;
    collectUsers(root, users);
    for (Operation *u : users)
      if (auto fill = dyn_cast<linalg::FillOp>(u))
        if (fill->getBlock() == block && fill->isBeforeInBlock(reduction))
          return fill;
    return linalg::FillOp();
  };

  for (Operation *op = qk->getNextNode(); op && !att.pv; op = op->getNextNode()) {
    auto lop = dyn_cast<linalg::LinalgOp>(op);
    if (!lop)
      continue;
    auto readsAny = [&](ArrayRef<Value> bufs) {
      for (OpOperand *in : lop.getDpsInputOperands())
        if (llvm::is_contained(bufs, getRootBuffer(in->get())))
          return true;
      return false;
    };
    bool readsDerived = readsAny(derived.getArrayRef());
    bool readsSoftmax = (maxBuf && readsAny({maxBuf})) ||
                        (expBuf && readsAny({expBuf})) ||
                        (sumBuf && readsAny({sumBuf})) ||
                        (probBuf && readsAny({probBuf}));
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      (void)fill;
      continue; // a reduction's init: checked with the reduction
    }
    if (!readsDerived && !readsSoftmax)
      continue;
    auto g = dyn_cast<linalg::GenericOp>(op);
    // The probabilities, read by the second contraction.
    if (probBuf && !g) {
      FailureOr<ContractionShape> pv = matchContraction(lop, cfg, ignored);
      if (failed(pv) || getRootBuffer(pv->a.mem) != probBuf ||
          getRootBuffer(pv->b.mem) == probBuf) {
        why = "the probabilities are read by an op other than one "
              "contraction with the values";
        return failure();
      }
      if (pv->a.transposed || pv->b.transposed ||
          ShapedType::isDynamic(pv->batches) ||
          std::max<int64_t>(pv->batches, 1) != batches || pv->m != rows ||
          pv->k != keys || pv->a.batched != (pv->batches > 0)) {
        why = "the probabilities times the values is not one [keys] x "
              "[value dims] product per row of scores";
        return failure();
      }
      att.pv = lop;
      att.pvShape = *pv;
      break;
    }
    if (!g) {
      why = "the scores are read by '" + op->getName().getStringRef().str() +
            "'";
      return failure();
    }
    Value out = freshOutput(g);
    if (!out || !setRowSpace(g) || !plainPayload(g)) {
      why = "'" + op->getName().getStringRef().str() +
            "' on the scores is not elementwise or a row reduction over "
            "the keys with one fresh output";
      return failure();
    }
    unsigned loops = g.getNumLoops();
    // Every derived buffer is read element for element.
    for (OpOperand *in : g.getDpsInputOperands()) {
      Value root = getRootBuffer(in->get());
      AffineMap map = g.getMatchingIndexingMap(in);
      bool rowRead = root == maxBuf || root == sumBuf;
      if ((derived.contains(root) || root == expBuf) && !map.isIdentity())
        return why = "a score is read through a map other than the identity",
               failure();
      if (rowRead && !isRowMap(map, loops))
        return why = "a row's max or sum is read at other indices",
               failure();
    }
    Value result = yielded(g);
    Value outArg = g.getMatchingBlockArgument(g.getDpsInitOperand(0));
    if (!att.rowMax && isLastLoopReduction(g) && !readsSoftmax) {
      auto max = result.getDefiningOp<arith::MaximumFOp>();
      Value x = !max                         ? Value()
                : max.getRhs() == outArg     ? max.getLhs()
                : max.getLhs() == outArg     ? max.getRhs()
                                             : Value();
      if (!x || dependsOn(x, outArg))
        return why = "a row reduction of the scores other than their max",
               failure();
      linalg::FillOp fill = fillOf(out, g);
      if (!fill || !(att.maxInit = fillConstant(fill)))
        return why = "the row max starts from no constant", failure();
      att.rowMax = g;
      att.maxInput = x;
      att.ops.insert(fill);
      maxBuf = out;
    } else if (att.rowMax && !att.exp && allParallel(g) &&
               readsAny({maxBuf})) {
      auto exp = result.getDefiningOp<math::ExpOp>();
      auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>()
                     : arith::SubFOp();
      auto maxArg = sub ? dyn_cast<BlockArgument>(sub.getRhs())
                        : BlockArgument();
      if (!maxArg || maxArg.getOwner() != g.getBody() ||
          g.isDpsInit(g.getMatchingOpOperand(maxArg)) ||
          getRootBuffer(g.getMatchingOpOperand(maxArg)->get()) != maxBuf ||
          !samePayloadValue(att.maxInput, att.rowMax, sub.getLhs(), g) ||
          !result.getType().isF32())
        return why = "the row max is used other than as exp(x - max) of the "
                     "values it is the max of, in f32",
               failure();
      att.exp = g;
      expBuf = out;
    } else if (att.exp && !att.rowSum && isLastLoopReduction(g) &&
               g.getNumDpsInputs() == 1 && readsAny({expBuf})) {
      auto add = result.getDefiningOp<arith::AddFOp>();
      Value in = g.getMatchingBlockArgument(g.getDpsInputOperand(0));
      linalg::FillOp fill = fillOf(out, g);
      FloatAttr zero = fill ? fillConstant(fill) : nullptr;
      if (!add || !((add.getLhs() == in && add.getRhs() == outArg) ||
                    (add.getLhs() == outArg && add.getRhs() == in)) ||
          !zero || !zero.getValue().isZero())
        return why = "the exponentials are reduced other than by a sum from "
                     "zero",
               failure();
      att.rowSum = g;
      att.ops.insert(fill);
      sumBuf = out;
    } else if (att.rowSum && !att.normalize && allParallel(g) &&
               g.getNumDpsInputs() == 2) {
      Value v = result;
      if (auto trunc = v.getDefiningOp<arith::TruncFOp>())
        v = trunc.getIn();
      auto div = v.getDefiningOp<arith::DivFOp>();
      auto num = div ? dyn_cast<BlockArgument>(div.getLhs()) : BlockArgument();
      auto den = div ? dyn_cast<BlockArgument>(div.getRhs()) : BlockArgument();
      if (!num || !den || num.getOwner() != g.getBody() ||
          den.getOwner() != g.getBody() || num.getArgNumber() > 1 ||
          den.getArgNumber() > 1 ||
          getRootBuffer(g.getDpsInputs()[num.getArgNumber()]) != expBuf ||
          getRootBuffer(g.getDpsInputs()[den.getArgNumber()]) != sumBuf)
        return why = "the exponentials are normalized other than divided by "
                     "their sum",
               failure();
      att.normalize = g;
      probBuf = out;
    } else if (!att.rowMax && allParallel(g) && !readsSoftmax &&
               !g.payloadUsesValueFromOperand(g.getDpsInitOperand(0))) {
      att.scoreOps.push_back(g);
      derived.insert(out);
      continue;
    } else {
      why = "'linalg.generic' on the scores that is not a step of softmax";
      return failure();
    }
  }
  if (!att.pv) {
    if (att.rowMax)
      why = "no contraction of the probabilities with the values follows";
    return failure();
  }

  // Keys and queries are read as rows of vectors.
  int64_t depth = qkShape->k, valueDims = att.pvShape.n;
  if (depth % cfg.lanes || valueDims % cfg.lanes) {
    why = "the head dimensions (" + std::to_string(depth) + ", " +
          std::to_string(valueDims) + ") are not multiples of " +
          std::to_string(cfg.lanes) + " lanes";
    return failure();
  }

  // The intermediate buffers: nothing but the matched ops (and the fill of
  // the scores) may use them.
  for (Operation *op : {att.qk.getOperation(), att.rowMax.getOperation(),
                        att.exp.getOperation(), att.rowSum.getOperation(),
                        att.normalize.getOperation(), att.pv.getOperation()})
    att.ops.insert(op);
  for (linalg::GenericOp g : att.scoreOps)
    att.ops.insert(g);
  for (Value buf : derived)
    att.buffers.insert(buf);
  for (Value buf : {maxBuf, expBuf, sumBuf, probBuf})
    att.buffers.insert(buf);
  llvm::SetVector<Operation *> scoreUsers;
  collectUsers(scores, scoreUsers);
  for (Operation *u : scoreUsers)
    if (auto fill = dyn_cast<linalg::FillOp>(u)) {
      if (fill->getBlock() != block || !fill->isBeforeInBlock(qk) ||
          att.scoreInit)
        return why = "the scores are initialized other than by one fill",
               failure();
      att.scoreInit = fillConstant(fill);
      if (!att.scoreInit)
        return why = "the scores start from no constant", failure();
      att.ops.insert(fill);
    }
  if (!att.scoreInit)
    return why = "the scores are not initialized by a fill", failure();
  for (Value buf : att.buffers) {
    llvm::SetVector<Operation *> users;
    collectUsers(buf, users);
    for (Operation *u : users)
      if (!att.ops.contains(u) && !isa<memref::DeallocOp>(u))
        return why = "an intermediate of softmax is also read by '" +
                     u->getName().getStringRef().str() + "'",
               failure();
  }

  // The kernel runs where the second contraction was: nothing in between
  // may write what the first contraction or the score ops read before it.
  llvm::SmallDenseSet<Value> readEarly = {getRootBuffer(qkShape->a.mem),
                                          getRootBuffer(qkShape->b.mem)};
  for (Operation *op = qk->getNextNode(); op != att.pv.getOperation();
       op = op->getNextNode()) {
    if (att.ops.contains(op)) {
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()))
          readEarly.insert(getRootBuffer(operand));
      continue;
    }
    if (isMemoryEffectFree(op) ||
        isa<memref::AllocOp, memref::DeallocOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp>(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || (op->getNumRegions() && !isa<linalg::LinalgOp>(op)))
      return why = "'" + op->getName().getStringRef().str() +
                   "' between the contractions may write what they read",
             failure();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
        continue;
      Value target = e.getValue();
      if (!target || readEarly.contains(getRootBuffer(target)))
        return why = "'" + op->getName().getStringRef().str() +
                     "' between the contractions writes what they read",
               failure();
    }
  }
  return success();
}

/// The attention whose scores `qk` computes, or why not: empty unless the
/// ops after `qk` include a max reduction of its scores (softmax), so that
/// every other contraction fails silently.
FailureOr<Attention> matchAttention(linalg::LinalgOp qk,
                                    const KernelConfig &cfg,
                                    std::string &why) {
  Attention att;
  if (succeeded(matchAttentionInto(att, qk, cfg, why)))
    return att;
  if (!att.rowMax)
    why.clear();
  return failure();
}

/// Emits the fused kernel for `att` before its second contraction.
class AttentionEmitter {
public:
  AttentionEmitter(const Attention &att, RewriterBase &rw,
                   const KernelConfig &cfg)
      : att(att), kb(rw, att.pv->getLoc(), cfg), b(rw),
        loc(att.pv->getLoc()), lanes(cfg.lanes),
        f32(Float32Type::get(rw.getContext())),
        vec(VectorType::get({lanes}, f32)),
        blockVec(VectorType::get({kKeyBlock}, f32)) {
    batches = std::max<int64_t>(att.qkShape.batches, 1);
    rows = att.qkShape.m;
    keys = att.qkShape.n;
    depth = att.qkShape.k;
    valueDims = att.pvShape.n;
  }

  void emit() {
    kb.loop(
        batches, 1, [&](Value bi) { emitGroup(bi); },
        /*parallel=*/batches > 1);
  }

private:
  const Attention &att;
  KernelBuilder kb;
  OpBuilder &b;
  Location loc;
  int64_t lanes;
  Type f32;
  VectorType vec, blockVec;
  int64_t batches, rows, keys, depth, valueDims;
  /// Per group: running max and sum per query row, the value accumulators
  /// [row][value dim], one block of scores [row][key], and each row's
  /// leading indices in the row space of the score ops.
  Value acc, runMax, runSum, block;
  SmallVector<SmallVector<Value>> lead;

  Value cst(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value splat(VectorType t, double v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(t, b.getF32FloatAttr(v)));
  }
  Value bcast(VectorType t, Value x) {
    return vector::BroadcastOp::create(b, loc, t, x);
  }

  /// Indices of a (maybe batched) matrix operand.
  static SmallVector<Value> at(const MatrixOperand &op, Value bi, Value r,
                               Value c) {
    if (op.batched)
      return {bi, r, c};
    return {r, c};
  }

  /// `lanes` elements of a row, in f32.
  Value loadRow(Value mem, ArrayRef<Value> ix) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    Value v = vector::LoadOp::create(b, loc, VectorType::get({lanes}, elem),
                                     mem, ix);
    if (elem != f32)
      v = arith::ExtFOp::create(b, loc, vec, v);
    return v;
  }

  /// Prefetches row `key` + kPrefetchKeys (the last row past the end) of a
  /// key or value operand, at column `col`.
  void prefetchAhead(const MatrixOperand &op, Value bi, Value key, Value col) {
    Value ahead = arith::MinUIOp::create(b, loc, kb.addc(key, kPrefetchKeys),
                                         kb.idx(keys - 1));
    memref::PrefetchOp::create(b, loc, op.mem, at(op, bi, ahead, col),
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
  }

  /// for (i = 0; i < n; i += step) carrying `init` through `body`.
  SmallVector<Value>
  carry(Value lo, int64_t n, int64_t step, ValueRange init,
        function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto loopOp = scf::ForOp::create(
        b, loc, lo, kb.idx(n), kb.idx(step), init,
        [&](OpBuilder &nb, Location, Value i, ValueRange carried) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, body(i, carried));
        });
    return SmallVector<Value>(loopOp.getResults());
  }

  /// The softmax input at loops `ix` of the row space, from the raw score
  /// `dot`: the score ops' payloads, then the max reduction's up to its
  /// input, on scalars.
  Value softmaxInput(ArrayRef<Value> ix, Value dot) {
    DenseMap<Value, Value> values; // derived buffer -> value at ix
    Value score = dot;
    if (!att.scoreInit.getValue().isZero())
      score = arith::AddFOp::create(
          b, loc, score, cst(att.scoreInit.getValueAsDouble()));
    values[att.scores] = score;
    auto operandsAt = [&](linalg::GenericOp g) {
      SmallVector<Value> args;
      for (OpOperand &o : g->getOpOperands()) {
        if (g.isDpsInit(&o)) {
          args.push_back(nullptr);
          continue;
        }
        auto it = values.find(getRootBuffer(o.get()));
        if (it != values.end()) {
          args.push_back(it->second);
          continue;
        }
        AffineMap map = g.getMatchingIndexingMap(&o);
        SmallVector<Value> idx;
        for (AffineExpr e : map.getResults()) {
          if (auto d = dyn_cast<AffineDimExpr>(e))
            idx.push_back(ix[d.getPosition()]);
          else
            idx.push_back(kb.idx(cast<AffineConstantExpr>(e).getValue()));
        }
        args.push_back(memref::LoadOp::create(b, loc, o.get(), idx));
      }
      return args;
    };
    for (linalg::GenericOp g : att.scoreOps)
      values[getRootBuffer(g.getDpsInits()[0])] =
          kb.applyPayload(g.getBody(), operandsAt(g));
    // The max reduction's payload, only the ops its input needs.
    linalg::GenericOp rowMax = att.rowMax;
    Block *body = rowMax.getBody();
    IRMapping map;
    for (auto [arg, v] : llvm::zip(body->getArguments(), operandsAt(rowMax)))
      if (v)
        map.map(arg, v);
    llvm::SetVector<Operation *> slice;
    BackwardSliceOptions opts;
    opts.inclusive = true;
    opts.filter = [&](Operation *op) { return op->getBlock() == body; };
    if (Operation *def = att.maxInput.getDefiningOp())
      (void)getBackwardSlice(def, &slice, opts);
    for (Operation &op : body->without_terminator())
      if (slice.contains(&op))
        b.clone(op, map);
    Value x = map.lookupOrDefault(att.maxInput);
    if (x.getType() != f32)
      x = arith::ExtFOp::create(b, loc, f32, x);
    return x;
  }

  /// The row space's leading indices of query row `r` of group `bi`.
  SmallVector<Value> rowIndices(Value bi, int64_t r) {
    Value linear = kb.addc(kb.mulc(bi, rows), r);
    SmallVector<Value> ix(att.rowSpace.size() - 1);
    for (int64_t d = ix.size() - 1; d >= 0; --d) {
      Value size = kb.idx(att.rowSpace[d]);
      ix[d] = arith::RemUIOp::create(b, loc, linear, size);
      linear = arith::DivUIOp::create(b, loc, linear, size);
    }
    return ix;
  }

  void emitGroup(Value bi) {
    auto buf = [&](ArrayRef<int64_t> shape) {
      return kb.alloc(MemRefType::get(shape, f32));
    };
    acc = buf({rows, valueDims});
    runMax = buf({rows});
    runSum = buf({rows});
    block = buf({rows, kKeyBlock});
    lead.clear();
    for (int64_t r = 0; r < rows; ++r) {
      lead.push_back(rowIndices(bi, r));
      memref::StoreOp::create(b, loc, cst(att.maxInit.getValueAsDouble()),
                              runMax, kb.idx(r));
      memref::StoreOp::create(b, loc, cst(0.0), runSum, kb.idx(r));
      Value zero = splat(vec, 0.0);
      kb.loop(valueDims, lanes, [&](Value c) {
        vector::StoreOp::create(b, loc, zero, acc, ValueRange{kb.idx(r), c});
      });
    }
    int64_t full = keys / kKeyBlock * kKeyBlock;
    kb.loop(0, full, kKeyBlock,
            [&](Value k0) { emitKeyBlock(bi, k0, kKeyBlock); });
    if (full < keys)
      emitKeyBlock(bi, kb.idx(full), keys - full);
    // O += acc / sum.
    MatrixOperand c;
    c.batched = att.pvShape.batches > 0;
    for (int64_t r = 0; r < rows; ++r) {
      Value ri = kb.idx(r);
      Value sum = bcast(vec, memref::LoadOp::create(b, loc, runSum, ri));
      kb.loop(valueDims, lanes, [&](Value col) {
        SmallVector<Value> ix = at(c, bi, ri, col);
        Value o = vector::LoadOp::create(b, loc, vec, att.pvShape.c, ix);
        Value a = vector::LoadOp::create(b, loc, vec, acc, ValueRange{ri, col});
        o = arith::AddFOp::create(b, loc, o,
                                  arith::DivFOp::create(b, loc, a, sum));
        vector::StoreOp::create(b, loc, o, att.pvShape.c, ix);
      });
    }
    for (Value v : {acc, runMax, runSum, block})
      kb.dealloc(v);
  }

  /// Keys [k0, k0 + n) of group `bi`, every query row of it.
  void emitKeyBlock(Value bi, Value k0, int64_t n) {
    const MatrixOperand &q = att.qkShape.a, &k = att.qkShape.b,
                        &v = att.pvShape.b;
    // A short last block: the scores past it are -inf (probability 0).
    if (n < kKeyBlock)
      for (int64_t r = 0; r < rows; ++r)
        vector::StoreOp::create(
            b, loc, splat(blockVec, -std::numeric_limits<double>::infinity()),
            block, ValueRange{kb.idx(r), kb.idx(0)});
    // 1. Scores: each key row read once, against every query row.
    kb.loop(n, 1, [&](Value j) {
      Value key = kb.addIdx(k0, j);
      SmallVector<Value> zeros(rows, splat(vec, 0.0));
      SmallVector<Value> dots =
          carry(kb.idx(0), depth, lanes, zeros, [&](Value d, ValueRange sums) {
            Value kv = loadRow(k.mem, at(k, bi, key, d));
            prefetchAhead(k, bi, key, d);
            SmallVector<Value> next;
            for (int64_t r = 0; r < rows; ++r)
              next.push_back(vector::FMAOp::create(
                  b, loc, loadRow(q.mem, at(q, bi, kb.idx(r), d)), kv,
                  sums[r]));
            return next;
          });
      for (int64_t r = 0; r < rows; ++r) {
        Value dot = vector::ReductionOp::create(
            b, loc, vector::CombiningKind::ADD, dots[r]);
        SmallVector<Value> ix(lead[r]);
        ix.push_back(key);
        memref::StoreOp::create(b, loc, softmaxInput(ix, dot), block,
                                ValueRange{kb.idx(r), j});
      }
    });
    // 2. Online softmax per row, on the block as one vector.
    Value negInf = cst(-std::numeric_limits<double>::infinity());
    SmallVector<Value> rescale;
    for (int64_t r = 0; r < rows; ++r) {
      Value ri = kb.idx(r);
      Value s = vector::LoadOp::create(b, loc, blockVec, block,
                                       ValueRange{ri, kb.idx(0)});
      Value oldMax = memref::LoadOp::create(b, loc, runMax, ri);
      Value newMax = arith::MaximumFOp::create(
          b, loc, oldMax,
          vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXIMUMF,
                                      s));
      // Fully masked so far: exp(-inf - 0) = 0 instead of exp(NaN).
      Value allMasked = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::OEQ, newMax, negInf);
      Value ref = arith::SelectOp::create(b, loc, allMasked, cst(0.0), newMax);
      rescale.push_back(math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, oldMax, ref)));
      Value p = math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, s, bcast(blockVec, ref)));
      vector::StoreOp::create(b, loc, p, block, ValueRange{ri, kb.idx(0)});
      Value sum = vector::ReductionOp::create(
          b, loc, vector::CombiningKind::ADD, p);
      Value oldSum = memref::LoadOp::create(b, loc, runSum, ri);
      memref::StoreOp::create(
          b, loc,
          arith::AddFOp::create(
              b, loc, arith::MulFOp::create(b, loc, oldSum, rescale.back()),
              sum),
          runSum, ri);
      memref::StoreOp::create(b, loc, newMax, runMax, ri);
    }
    // 3. acc = acc * rescale + sum_j p_j * V[key j]: each value row read
    //    once, for every query row.
    kb.loop(valueDims, lanes, [&](Value col) {
      SmallVector<Value> init;
      for (int64_t r = 0; r < rows; ++r)
        init.push_back(arith::MulFOp::create(
            b, loc,
            vector::LoadOp::create(b, loc, vec, acc,
                                   ValueRange{kb.idx(r), col}),
            bcast(vec, rescale[r])));
      SmallVector<Value> sums =
          carry(kb.idx(0), n, 1, init, [&](Value j, ValueRange a) {
            Value key = kb.addIdx(k0, j);
            Value vv = loadRow(v.mem, at(v, bi, key, col));
            prefetchAhead(v, bi, key, col);
            SmallVector<Value> next;
            for (int64_t r = 0; r < rows; ++r) {
              Value p = memref::LoadOp::create(b, loc, block,
                                               ValueRange{kb.idx(r), j});
              next.push_back(
                  vector::FMAOp::create(b, loc, bcast(vec, p), vv, a[r]));
            }
            return next;
          });
      for (int64_t r = 0; r < rows; ++r)
        vector::StoreOp::create(b, loc, sums[r], acc,
                                ValueRange{kb.idx(r), col});
    });
  }
};

/// Erases `buf` and its views once nothing else uses them.
void eraseDeadBuffer(Value buf, RewriterBase &rw) {
  SmallVector<Operation *> users(buf.getUsers());
  for (Operation *u : users) {
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(u))
      eraseDeadBuffer(u->getResult(0), rw);
    else if (isa<memref::DeallocOp>(u))
      rw.eraseOp(u);
  }
  if (buf.use_empty())
    if (Operation *def = buf.getDefiningOp())
      rw.eraseOp(def);
}

template <typename OpTy>
struct AttentionToKernel : OpRewritePattern<OpTy> {
  AttentionToKernel(MLIRContext *ctx, const KernelConfig &cfg)
      : OpRewritePattern<OpTy>(ctx), cfg(cfg) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    std::string why;
    auto qk = cast<linalg::LinalgOp>(op.getOperation());
    FailureOr<Attention> att = matchAttention(qk, cfg, why);
    if (failed(att)) {
      if (!why.empty())
        emitRemarkAt(op) << "attention not fused into one kernel per head "
                            "group: "
                         << why;
      return rw.notifyMatchFailure(op, why);
    }
    rw.setInsertionPoint(att->pv);
    AttentionEmitter(*att, rw, cfg).emit();
    SmallVector<Operation *> ops(att->ops.begin(), att->ops.end());
    llvm::sort(ops, [](Operation *x, Operation *y) {
      return y->isBeforeInBlock(x);
    });
    for (Operation *dead : ops)
      rw.eraseOp(dead);
    for (Value buf : att->buffers)
      eraseDeadBuffer(buf, rw);
    return success();
  }

  KernelConfig cfg;
};

} // namespace

void mlir::lowp::x86::populateAttentionKernelPatterns(
    RewritePatternSet &patterns, const KernelConfig &cfg) {
  patterns.add<AttentionToKernel<linalg::MatmulOp>,
               AttentionToKernel<linalg::BatchMatmulOp>>(patterns.getContext(),
                                                         cfg);
}
