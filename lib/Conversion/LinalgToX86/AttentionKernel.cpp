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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// Query rows per head group up to which the fused kernel runs; beyond it
/// (a prompt), the register-blocked GEMMs do the contractions.
constexpr int64_t kMaxQueryRows = 16;
/// Keys per vector of scores (one per query row and 16 keys).
constexpr int64_t kKeyVector = 16;
/// Vectors of scores per block of keys: the block's max, its `exp`
/// rescaling and the accumulators' reload are paid once per 64 keys.
constexpr int64_t kVectorsPerBlock = 4;
constexpr int64_t kBlockKeys = kKeyVector * kVectorsPerBlock;
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

bool allParallel(linalg::GenericOp g) { return g.getNumReductionLoops() == 0; }

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
  /// The loop ranges of the elementwise and softmax ops: the last runs
  /// over the keys, the others over the rows of scores in row-major order
  /// (views of one another's buffers may split them differently).
  /// Every matched op, and the intermediate buffers they alone use.
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<Value> buffers;
  /// The elementwise ops that write the keys' and the values' buffers when
  /// the kernel computes their elements as it reads them (an FP8 cache
  /// widened with the new token's key selected in), or null.
  linalg::GenericOp keyProducer, valueProducer;
};

/// Whether `view` is `root` or a chain of reshapes of it.
bool isReshapeOf(Value view, Value root) {
  while (view != root) {
    Operation *def = view.getDefiningOp();
    if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return false;
    view = def->getOperand(0);
  }
  return true;
}

/// The elementwise op writing the whole buffer that `operand` (the keys or
/// the values, [key][d] rows) views, when the kernel can compute its
/// elements as it reads them instead: all loops parallel, its output the
/// buffer itself (an identity map, rows of the same length as the
/// operand's), a payload that runs on vectors, inputs either not read
/// along the rows' last dimension or read along their own last, contiguous
/// one; the buffer read by `reader` alone (and freed); nothing from the
/// producer to `end` writing what the producer reads.
linalg::GenericOp inlinableProducer(const MatrixOperand &operand,
                                    Operation *reader, Operation *end) {
  Value root = getRootBuffer(operand.mem);
  if (!root.getDefiningOp<memref::AllocOp>() || !isReshapeOf(operand.mem, root))
    return {};
  auto rootType = cast<MemRefType>(root.getType());
  auto viewType = cast<MemRefType>(operand.mem.getType());
  if (!rootType.getLayout().isIdentity() || !rootType.hasStaticShape() ||
      rootType.getShape().back() != viewType.getShape().back())
    return {};
  linalg::GenericOp producer;
  llvm::SetVector<Operation *> users;
  collectUsers(root, users);
  for (Operation *u : users) {
    if (u == reader || isa<memref::DeallocOp>(u))
      continue;
    auto g = dyn_cast<linalg::GenericOp>(u);
    if (producer || !g || g.getNumDpsInits() != 1 ||
        g.getDpsInits()[0] != root || g->getBlock() != reader->getBlock() ||
        !g->isBeforeInBlock(reader))
      return {};
    producer = g;
  }
  if (!producer || producer.getNumReductionLoops() ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isIdentity() ||
      !isVectorizablePayload(producer.getBody()) ||
      producer.payloadUsesValueFromOperand(producer.getDpsInitOperand(0)) ||
      !producer.getBody()->getOps<linalg::IndexOp>().empty())
    return {};
  unsigned last = producer.getNumLoops() - 1;
  llvm::SmallDenseSet<Value> inputs;
  for (OpOperand *in : producer.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type)
      return {};
    inputs.insert(getRootBuffer(in->get()));
    AffineMap map = producer.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(last))
      continue;
    unsigned n = map.getNumResults();
    if (map.getResult(n - 1) != getAffineDimExpr(last, map.getContext()) ||
        !type.isLastDimUnitStride() ||
        type.getElementType().getIntOrFloatBitWidth() < 8)
      return {};
    for (unsigned i = 0; i + 1 < n; ++i)
      if (map.getResult(i).isFunctionOfDim(last))
        return {};
  }
  // The kernel reads the producer's inputs where `end` is.
  for (Operation *op = producer->getNextNode(); op != end;
       op = op->getNextNode()) {
    if (isMemoryEffectFree(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || (op->getNumRegions() && !isa<linalg::LinalgOp>(op)))
      return {};
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list)
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()) &&
          (!e.getValue() || inputs.contains(getRootBuffer(e.getValue()))))
        return {};
  }
  return producer;
}

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
    return !ga.isDpsInit(oa) && !gb.isDpsInit(ob) && oa->get() == ob->get() &&
           ga.getMatchingIndexingMap(oa) == gb.getMatchingIndexingMap(ob);
  }
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  bool insideA = da && da->getBlock() == ga.getBody();
  bool insideB = db && db->getBlock() == gb.getBody();
  if (!insideA || !insideB)
    return !insideA && !insideB && !argA && !argB && a == b;
  if (da->getName() != db->getName() || da->getAttrs() != db->getAttrs() ||
      da->getResultTypes() != db->getResultTypes() ||
      da->getNumOperands() != db->getNumOperands() || da->getNumRegions() ||
      db->getNumRegions() ||
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
  auto inRowSpace = [&](linalg::GenericOp g) {
    SmallVector<int64_t> ranges = g.getStaticLoopRanges();
    int64_t total = 1;
    for (int64_t r : ranges)
      total = ShapedType::isDynamic(r) || total < 0 ? -1 : total * r;
    return !ranges.empty() && ranges.back() == keys &&
           total == batches * rows * keys;
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

  for (Operation *op = qk->getNextNode(); op && !att.pv;
       op = op->getNextNode()) {
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
    bool readsSoftmax =
        (maxBuf && readsAny({maxBuf})) || (expBuf && readsAny({expBuf})) ||
        (sumBuf && readsAny({sumBuf})) || (probBuf && readsAny({probBuf}));
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
      why =
          "the scores are read by '" + op->getName().getStringRef().str() + "'";
      return failure();
    }
    Value out = freshOutput(g);
    if (!out || !inRowSpace(g) || !plainPayload(g)) {
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
        return why = "a row's max or sum is read at other indices", failure();
    }
    Value result = yielded(g);
    Value outArg = g.getMatchingBlockArgument(g.getDpsInitOperand(0));
    if (!att.rowMax && isLastLoopReduction(g) && !readsSoftmax) {
      auto max = result.getDefiningOp<arith::MaximumFOp>();
      Value x = !max                     ? Value()
                : max.getRhs() == outArg ? max.getLhs()
                : max.getLhs() == outArg ? max.getRhs()
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
    } else if (att.rowMax && !att.exp && allParallel(g) && readsAny({maxBuf})) {
      auto exp = result.getDefiningOp<math::ExpOp>();
      auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>()
                     : arith::SubFOp();
      auto maxArg =
          sub ? dyn_cast<BlockArgument>(sub.getRhs()) : BlockArgument();
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
      if (!add ||
          !((add.getLhs() == in && add.getRhs() == outArg) ||
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

  // The kernel computes the scores a block of keys at a time, as vectors:
  // the score ops' other operands are read along their last dimension when
  // they depend on the key, or as one value per row otherwise.
  SmallVector<linalg::GenericOp> payloads(att.scoreOps);
  payloads.push_back(att.rowMax);
  for (linalg::GenericOp g : payloads)
    for (OpOperand *in : g.getDpsInputOperands()) {
      unsigned keyLoop = g.getNumLoops() - 1;
      if (derived.contains(getRootBuffer(in->get())))
        continue;
      AffineMap map = g.getMatchingIndexingMap(in);
      if (!map.isFunctionOfDim(keyLoop))
        continue;
      auto type = cast<MemRefType>(in->get().getType());
      bool lastIsKey = map.getResult(map.getNumResults() - 1) ==
                       getAffineDimExpr(keyLoop, map.getContext());
      for (unsigned i = 0; lastIsKey && i + 1 < map.getNumResults(); ++i)
        lastIsKey = !map.getResult(i).isFunctionOfDim(keyLoop);
      if (!lastIsKey || !type.isLastDimUnitStride())
        return why = "an operand of the scores is read along the keys other "
                     "than through its last, contiguous dimension",
               failure();
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

  // Keys and values an elementwise op writes (a widened copy of a narrow
  // cache, the new position selected in) are computed as they are read.
  auto inlineProducer = [&](const MatrixOperand &operand, Operation *reader,
                            linalg::GenericOp &slot) {
    slot = inlinableProducer(operand, reader, att.pv);
    if (!slot)
      return;
    att.ops.insert(slot);
    att.buffers.insert(getRootBuffer(operand.mem));
  };
  inlineProducer(qkShape->b, qk, att.keyProducer);
  inlineProducer(att.pvShape.b, att.pv, att.valueProducer);
  return success();
}

/// The attention whose scores `qk` computes, or why not: empty unless the
/// ops after `qk` include a max reduction of its scores (softmax), so that
/// every other contraction fails silently.
FailureOr<Attention> matchAttention(linalg::LinalgOp qk,
                                    const KernelConfig &cfg, std::string &why) {
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
      : att(att), kb(rw, att.pv->getLoc(), cfg), b(rw), loc(att.pv->getLoc()),
        lanes(cfg.lanes), f32(Float32Type::get(rw.getContext())),
        vec(VectorType::get({lanes}, f32)),
        blockVec(VectorType::get({kKeyVector}, f32)) {
    batches = std::max<int64_t>(att.qkShape.batches, 1);
    rows = att.qkShape.m;
    keys = att.qkShape.n;
    depth = att.qkShape.k;
    valueDims = att.pvShape.n;
    rowChunk = lanes >= 16 ? 4 : 2;
    qkDot = cfg.bf16Dot && depth % (2 * lanes) == 0 &&
            getElementTypeOrSelf(att.qkShape.a.mem.getType()).isBF16() &&
            getElementTypeOrSelf(att.qkShape.b.mem.getType()).isBF16();
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
  /// Scores on vdpbf16ps (bf16 queries and keys on AVX512_BF16).
  bool qkDot;
  /// Query rows whose scores are summed together: 4 rows hold 4
  /// accumulators and up to 16 partly summed vectors, within the 32
  /// vector registers of AVX-512; 2 within AVX2's 16.
  int64_t rowChunk;
  /// Per group: running max and sum per query row, the value accumulators
  /// [row][value dim], one block of scores [row][key], and each row's
  /// leading indices in the row space of the score ops.
  Value acc, runMax, runSum, block;
  /// Per op on the scores and query row: the op's loop indices of the row
  /// (all but the last loop), computed once per group.
  DenseMap<std::pair<Operation *, int64_t>, SmallVector<Value>> lead;
  Value group;
  /// The query rows as the score loop reads them (the operand itself, or
  /// a copy widened to f32 when they are narrow and the scores run on f32
  /// FMAs) and their indices.
  Value queries;
  std::function<SmallVector<Value>(Value, Value)> queryIx;

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
    Value v =
        vector::LoadOp::create(b, loc, VectorType::get({lanes}, elem), mem, ix);
    if (elem != f32)
      v = arith::ExtFOp::create(b, loc, vec, v);
    return v;
  }

  /// `v` in f32.
  Value widen(Value v) {
    if (getElementTypeOrSelf(v.getType()) == f32)
      return v;
    return arith::ExtFOp::create(b, loc, vec, v);
  }

  /// Whether the producer's input `in` is read along the rows (its map uses
  /// the last two loops: the keys' and the columns'), which prefetchAhead
  /// prefetches.
  static bool readAlongRows(linalg::GenericOp producer, OpOperand *in) {
    unsigned last = producer.getNumLoops() - 1;
    AffineMap map = producer.getMatchingIndexingMap(in);
    return last > 0 && map.isFunctionOfDim(last) &&
           map.isFunctionOfDim(last - 1);
  }

  /// Columns per 64-byte line of what prefetchAhead prefetches for `op`.
  static int64_t lineColumns(const MatrixOperand &op,
                             linalg::GenericOp producer) {
    unsigned bits =
        getElementTypeOrSelf(op.mem.getType()).getIntOrFloatBitWidth();
    if (producer)
      for (OpOperand *in : producer.getDpsInputOperands())
        if (readAlongRows(producer, in))
          bits = std::min(bits, getElementTypeOrSelf(in->get().getType())
                                    .getIntOrFloatBitWidth());
    return 512 / bits;
  }

  /// `width` elements of row `key`, from column `col`, of the keys or the
  /// values (`op`, maybe written by `producer`), in their element type:
  /// loaded, or computed by the producer's payload from its inputs.
  Value loadOperandRow(const MatrixOperand &op, linalg::GenericOp producer,
                       Value bi, Value key, Value col, int64_t width) {
    Type elem = getElementTypeOrSelf(op.mem.getType());
    if (!producer)
      return vector::LoadOp::create(b, loc, VectorType::get({width}, elem),
                                    op.mem, at(op, bi, key, col));
    SmallVector<Value> args;
    unsigned last = producer.getNumLoops() - 1;
    SmallVector<Value> loops = producerLoops(op, producer, bi, key, col);
    for (OpOperand &o : producer->getOpOperands()) {
      if (producer.isDpsInit(&o)) {
        args.push_back(nullptr);
        continue;
      }
      AffineMap map = producer.getMatchingIndexingMap(&o);
      SmallVector<Value> idx = indicesOf(map, loops);
      Type inElem = getElementTypeOrSelf(o.get().getType());
      args.push_back(
          map.isFunctionOfDim(last)
              ? Value(vector::LoadOp::create(
                    b, loc, VectorType::get({width}, inElem), o.get(), idx))
              : Value(memref::LoadOp::create(b, loc, o.get(), idx)));
    }
    return kb.applyPayload(producer.getBody(), args, nullptr,
                           VectorType::get({width}, elem));
  }

  /// The producer's loop indices where the kernel reads (bi, key, col) of
  /// `op`: the row's linear index spread over the buffer's leading
  /// dimensions, then the column.
  SmallVector<Value> producerLoops(const MatrixOperand &op,
                                   linalg::GenericOp producer, Value bi,
                                   Value key, Value col) {
    auto shape = cast<MemRefType>(getRootBuffer(op.mem).getType()).getShape();
    Value linear = key;
    if (op.batched) {
      int64_t rowsPerBatch =
          cast<MemRefType>(op.mem.getType()).getShape().drop_back().back();
      linear = kb.addIdx(kb.mulc(bi, rowsPerBatch), key);
    }
    SmallVector<Value> loops = delinearize(linear, shape.drop_back());
    loops.push_back(col);
    return loops;
  }

  /// The indices over dimensions of `sizes` (row-major) of element
  /// `linear`.
  SmallVector<Value> delinearize(Value linear, ArrayRef<int64_t> sizes) {
    SmallVector<Value> ix(sizes.size());
    for (int64_t d = sizes.size() - 1; d >= 0; --d) {
      Value size = kb.idx(sizes[d]);
      ix[d] = arith::RemUIOp::create(b, loc, linear, size);
      linear = arith::DivUIOp::create(b, loc, linear, size);
    }
    return ix;
  }

  /// `map` applied to `loops` (dimensions and constants).
  SmallVector<Value> indicesOf(AffineMap map, ArrayRef<Value> loops) {
    SmallVector<Value> idx;
    for (AffineExpr e : map.getResults()) {
      if (auto d = dyn_cast<AffineDimExpr>(e))
        idx.push_back(loops[d.getPosition()]);
      else
        idx.push_back(kb.idx(cast<AffineConstantExpr>(e).getValue()));
    }
    return idx;
  }

  /// Prefetches row `key` + kPrefetchKeys (the last row past the end) of a
  /// key or value operand, at column `col`: of what its producer reads
  /// along the rows when it has one.
  void prefetchAhead(const MatrixOperand &op, linalg::GenericOp producer,
                     Value bi, Value key, Value col) {
    Value ahead = arith::MinUIOp::create(b, loc, kb.addc(key, kPrefetchKeys),
                                         kb.idx(keys - 1));
    auto prefetch = [&](Value mem, ArrayRef<Value> idx) {
      memref::PrefetchOp::create(b, loc, mem, idx,
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    };
    if (!producer)
      return prefetch(op.mem, at(op, bi, ahead, col));
    SmallVector<Value> loops = producerLoops(op, producer, bi, ahead, col);
    for (OpOperand *in : producer.getDpsInputOperands())
      if (readAlongRows(producer, in))
        prefetch(in->get(),
                 indicesOf(producer.getMatchingIndexingMap(in), loops));
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

  /// The softmax input of query row `r` at keys [k0, k0 + kKeyVector) as
  /// one vector, from the raw scores `dots` (lanes past `n` are loaded
  /// masked and come out -inf): the score ops' payloads, then the max
  /// reduction's up to its input (its payload on an accumulator of -inf,
  /// which maximumf returns the input from), on vectors of the keys.
  /// Operands that do not depend on the query row (a mask of the keys)
  /// are loaded once per block, for every row.
  Value softmaxInput(int64_t r, Value k0, int64_t n, Value dots,
                     DenseMap<OpOperand *, Value> &shared) {
    DenseMap<Value, Value> values; // derived buffer -> its vector of keys
    Type scoreElem = getElementTypeOrSelf(att.scores.getType());
    Value score = dots;
    if (scoreElem != f32)
      score = arith::TruncFOp::create(
          b, loc, VectorType::get({kKeyVector}, scoreElem), score);
    if (!att.scoreInit.getValue().isZero())
      score = arith::AddFOp::create(
          b, loc, score,
          arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(
                  cast<ShapedType>(score.getType()),
                  b.getFloatAttr(scoreElem,
                                 att.scoreInit.getValueAsDouble()))));
    values[att.scores] = score;
    Value mask = n < kKeyVector
                     ? vector::CreateMaskOp::create(
                           b, loc, VectorType::get({kKeyVector}, b.getI1Type()),
                           ValueRange{kb.idx(n)})
                     : Value();
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
        auto cached = shared.find(&o);
        if (cached != shared.end()) {
          args.push_back(cached->second);
          continue;
        }
        AffineMap map = g.getMatchingIndexingMap(&o);
        unsigned keyLoop = g.getNumLoops() - 1;
        SmallVector<Value> loops = rowIndices(g, r);
        loops.push_back(k0);
        SmallVector<Value> idx = indicesOf(map, loops);
        bool perRow = llvm::any_of(map.getResults(), [&](AffineExpr e) {
          auto d = dyn_cast<AffineDimExpr>(e);
          return d && d.getPosition() != keyLoop;
        });
        Value v = map.isFunctionOfDim(keyLoop)
                      ? loadKeys(o.get(), idx, n, mask)
                      : memref::LoadOp::create(b, loc, o.get(), idx);
        if (!perRow)
          shared[&o] = v;
        args.push_back(v);
      }
      return args;
    };
    for (linalg::GenericOp g : att.scoreOps)
      values[getRootBuffer(g.getDpsInits()[0])] =
          kb.applyPayload(g.getBody(), operandsAt(g));
    linalg::GenericOp rowMax = att.rowMax;
    SmallVector<Value> maxArgs = operandsAt(rowMax);
    BlockArgument outArg =
        rowMax.getMatchingBlockArgument(rowMax.getDpsInitOperand(0));
    Type maxElem = outArg.getType();
    maxArgs[outArg.getArgNumber()] = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            VectorType::get({kKeyVector}, maxElem),
            b.getFloatAttr(maxElem, -std::numeric_limits<double>::infinity())));
    Value x = kb.applyPayload(rowMax.getBody(), maxArgs);
    if (getElementTypeOrSelf(x.getType()) != f32)
      x = arith::ExtFOp::create(b, loc, blockVec, x);
    if (mask)
      x = arith::SelectOp::create(
          b, loc, mask, x,
          splat(blockVec, -std::numeric_limits<double>::infinity()));
    return x;
  }

  /// kKeyVector elements of `mem` from `idx` along its last dimension (the
  /// keys), the first `n` of them. i1 elements (a boolean mask) are read
  /// one by one: a vector of i1 in memory is packed bits, a memref of i1 is
  /// a byte each.
  Value loadKeys(Value mem, ArrayRef<Value> idx, int64_t n, Value mask) {
    Type elem = getElementTypeOrSelf(mem.getType());
    auto type = VectorType::get({kKeyVector}, elem);
    if (elem.getIntOrFloatBitWidth() < 8) {
      Value v = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      SmallVector<Value> at(idx);
      for (int64_t j = 0; j < n; ++j) {
        at.back() = kb.addc(idx.back(), j);
        v = vector::InsertOp::create(
            b, loc, memref::LoadOp::create(b, loc, mem, at), v, j);
      }
      return v;
    }
    if (!mask)
      return vector::LoadOp::create(b, loc, type, mem, idx);
    Value pass = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    return vector::MaskedLoadOp::create(b, loc, type, mem, idx, mask, pass);
  }

  /// The loop indices of op `g` on the scores (all but its last loop, the
  /// keys') at query row `r` of the group being emitted: the row's linear
  /// index delinearized over g's loop ranges.
  SmallVector<Value> rowIndices(linalg::GenericOp g, int64_t r) {
    SmallVector<Value> &ix = lead[{g.getOperation(), r}];
    if (!ix.empty() || g.getNumLoops() == 1)
      return ix;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(group);
    SmallVector<int64_t> ranges = g.getStaticLoopRanges();
    ix = delinearize(kb.addc(kb.mulc(group, rows), r),
                     ArrayRef<int64_t>(ranges).drop_back());
    return ix;
  }

  void emitGroup(Value bi) {
    auto buf = [&](ArrayRef<int64_t> shape) {
      return kb.alloc(MemRefType::get(shape, f32));
    };
    acc = buf({rows, valueDims});
    runMax = buf({rows});
    runSum = buf({rows});
    block = buf({rows, kBlockKeys});
    // Narrow queries on f32 FMAs: widened once per group, not per key.
    const MatrixOperand &q = att.qkShape.a;
    queries = q.mem;
    queryIx = [&](Value r, Value d) { return at(q, bi, r, d); };
    if (getElementTypeOrSelf(q.mem.getType()) != f32 && !qkDot) {
      queries = buf({rows, depth});
      queryIx = [](Value r, Value d) { return SmallVector<Value>{r, d}; };
      for (int64_t r = 0; r < rows; ++r)
        kb.loop(depth, lanes, [&](Value d) {
          vector::StoreOp::create(b, loc,
                                  loadRow(q.mem, at(q, bi, kb.idx(r), d)),
                                  queries, ValueRange{kb.idx(r), d});
        });
    }
    lead.clear();
    group = bi;
    for (int64_t r = 0; r < rows; ++r) {
      memref::StoreOp::create(b, loc, cst(att.maxInit.getValueAsDouble()),
                              runMax, kb.idx(r));
      memref::StoreOp::create(b, loc, cst(0.0), runSum, kb.idx(r));
      Value zero = splat(vec, 0.0);
      kb.loop(valueDims, lanes, [&](Value c) {
        vector::StoreOp::create(b, loc, zero, acc, ValueRange{kb.idx(r), c});
      });
    }
    int64_t full = keys / kBlockKeys * kBlockKeys;
    kb.loop(0, full, kBlockKeys,
            [&](Value k0) { emitKeyBlock(bi, k0, kBlockKeys); });
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
    if (queries != q.mem)
      kb.dealloc(queries);
    for (Value v : {acc, runMax, runSum, block})
      kb.dealloc(v);
  }

  /// `v`'s lanes combined by `op` in log2(lanes) steps of halves (a
  /// vector.reduction of floats is ordered, lane after lane, without
  /// reassociation; the max and the sum of a block may be taken in any
  /// order).
  Value reduceHalves(Value v, function_ref<Value(Value, Value)> op) {
    for (int64_t w = cast<VectorType>(v.getType()).getNumElements(); w > 1;
         w /= 2) {
      SmallVector<int64_t> lo(w / 2), hi(w / 2);
      std::iota(lo.begin(), lo.end(), 0);
      std::iota(hi.begin(), hi.end(), w / 2);
      v = op(vector::ShuffleOp::create(b, loc, v, v, lo),
             vector::ShuffleOp::create(b, loc, v, v, hi));
    }
    return vector::ExtractOp::create(b, loc, v, 0);
  }

  /// a + b on vectors of `lanes` partial sums of m keys each (lane
  /// p * m + key), as one vector of partial sums of their 2m keys (a's
  /// first): two shuffles and an add.
  Value mergePartials(Value x, Value y, int64_t m) {
    int64_t parts = lanes / m, half = parts / 2;
    SmallVector<int64_t> lo, hi;
    for (int64_t p = 0; p < half; ++p)
      for (int64_t key = 0; key < 2 * m; ++key) {
        int64_t from = key < m ? key : lanes + key - m;
        lo.push_back(from + p * m);
        hi.push_back(from + (p + half) * m);
      }
    return arith::AddFOp::create(b, loc,
                                 vector::ShuffleOp::create(b, loc, x, y, lo),
                                 vector::ShuffleOp::create(b, loc, x, y, hi));
  }

  /// Keys [k0, k0 + n) of group `bi`, every query row of it.
  void emitKeyBlock(Value bi, Value k0, int64_t n) {
    const MatrixOperand &k = att.qkShape.b, &v = att.pvShape.b;
    // 1. Scores: each key row read from memory once, against every query
    //    row (a chunk of rows at a time); each (key, row) leaves a vector
    //    of partial sums over d, which a tree of shuffles sums as it goes
    //    into one vector of 16 keys per row (log2(lanes) merges per pair of
    //    vectors, where a horizontal sum per score would take as many per
    //    score). Keys past the block's end are zeros.
    int64_t keyLine = lineColumns(k, att.keyProducer);
    // The block's softmax inputs: scores[r][i] for keys
    // [k0 + 16 i, k0 + 16 i + 16) of query row r.
    int64_t vectors = ceilDiv(n, kKeyVector);
    SmallVector<SmallVector<Value>> scores(rows);
    for (int64_t i = 0; i < vectors; ++i) {
      int64_t width = std::min(kKeyVector, n - i * kKeyVector);
      Value first = kb.addc(k0, i * kKeyVector);
      SmallVector<SmallVector<std::pair<int64_t, Value>>> pending(rows);
      // A few query rows at a time (the keys' rows, just read, stay in L1):
      // their accumulators and partly summed vectors stay in registers.
      for (int64_t r0 = 0; r0 < rows; r0 += rowChunk)
        for (int64_t j = 0; j < kKeyVector; ++j) {
          int64_t chunk = std::min(rowChunk, rows - r0);
          SmallVector<Value> dots(chunk, splat(vec, 0.0));
          if (j < width) {
            Value key = kb.addc(first, j);
            // One prefetch per cache line of the row kPrefetchKeys ahead.
            if (r0 == 0)
              for (int64_t col = 0; col < depth; col += keyLine)
                prefetchAhead(k, att.keyProducer, bi, key, kb.idx(col));
            // bf16 queries and keys: vdpbf16ps on pairs along d, as the GEMM
            // kernel multiplies them (exact products, f32 sums).
            if (qkDot)
              dots = carry(
                  kb.idx(0), depth, 2 * lanes, dots,
                  [&](Value d, ValueRange sums) {
                    Type bf16 = b.getBF16Type();
                    auto pairs = VectorType::get({2 * lanes}, bf16);
                    Value kv = loadOperandRow(k, att.keyProducer, bi, key, d,
                                              pairs.getNumElements());
                    SmallVector<Value> next;
                    for (int64_t r = 0; r < chunk; ++r)
                      next.push_back(x86vector::DotBF16Op::create(
                          b, loc, vec, sums[r],
                          vector::LoadOp::create(b, loc, pairs, queries,
                                                 queryIx(kb.idx(r0 + r), d)),
                          kv));
                    return next;
                  });
            else
              dots = carry(
                  kb.idx(0), depth, lanes, dots, [&](Value d, ValueRange sums) {
                    Value kv = widen(
                        loadOperandRow(k, att.keyProducer, bi, key, d, lanes));
                    SmallVector<Value> next;
                    for (int64_t r = 0; r < chunk; ++r)
                      next.push_back(vector::FMAOp::create(
                          b, loc,
                          vector::LoadOp::create(b, loc, vec, queries,
                                                 queryIx(kb.idx(r0 + r), d)),
                          kv, sums[r]));
                    return next;
                  });
          }
          for (int64_t r = 0; r < chunk; ++r) {
            auto &stack = pending[r0 + r];
            stack.push_back({1, dots[r]});
            while (stack.size() > 1 && stack.back().first < lanes &&
                   stack.back().first == stack[stack.size() - 2].first) {
              auto [m, y] = stack.pop_back_val();
              stack.back() = {2 * m, mergePartials(stack.back().second, y, m)};
            }
          }
        }
      // The vectors of `lanes` keys, in key order, as one of 16 keys.
      DenseMap<OpOperand *, Value> shared;
      for (int64_t r = 0; r < rows; ++r) {
        SmallVector<Value> parts;
        for (auto &[m, part] : pending[r])
          parts.push_back(part);
        while (parts.size() > 1) {
          SmallVector<Value> joined;
          for (size_t p = 0; p < parts.size(); p += 2) {
            int64_t w = cast<VectorType>(parts[p].getType()).getNumElements();
            SmallVector<int64_t> all(2 * w);
            std::iota(all.begin(), all.end(), 0);
            joined.push_back(
                vector::ShuffleOp::create(b, loc, parts[p], parts[p + 1], all));
          }
          parts = joined;
        }
        scores[r].push_back(softmaxInput(r, first, width, parts[0], shared));
      }
    }
    // 2. Online softmax per row, on the block's vectors.
    Value negInf = cst(-std::numeric_limits<double>::infinity());
    SmallVector<Value> rescale;
    auto maxOf = [&](Value x, Value y) -> Value {
      return arith::MaximumFOp::create(b, loc, x, y);
    };
    auto sumOf = [&](Value x, Value y) -> Value {
      return arith::AddFOp::create(b, loc, x, y);
    };
    for (int64_t r = 0; r < rows; ++r) {
      Value ri = kb.idx(r);
      Value blockMax = scores[r][0];
      for (Value sv : ArrayRef<Value>(scores[r]).drop_front())
        blockMax = maxOf(blockMax, sv);
      Value oldMax = memref::LoadOp::create(b, loc, runMax, ri);
      Value newMax = maxOf(oldMax, reduceHalves(blockMax, maxOf));
      // Fully masked so far: exp(-inf - 0) = 0 instead of exp(NaN).
      Value allMasked = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                              newMax, negInf);
      Value ref = arith::SelectOp::create(b, loc, allMasked, cst(0.0), newMax);
      rescale.push_back(math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, oldMax, ref)));
      Value sums;
      for (auto [i, sv] : llvm::enumerate(scores[r])) {
        Value p = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, sv, bcast(blockVec, ref)));
        vector::StoreOp::create(b, loc, p, block,
                                ValueRange{ri, kb.idx(i * kKeyVector)});
        sums = sums ? sumOf(sums, p) : p;
      }
      Value sum = reduceHalves(sums, sumOf);
      Value oldSum = memref::LoadOp::create(b, loc, runSum, ri);
      memref::StoreOp::create(
          b, loc,
          arith::AddFOp::create(
              b, loc, arith::MulFOp::create(b, loc, oldSum, rescale.back()),
              sum),
          runSum, ri);
      memref::StoreOp::create(b, loc, newMax, runMax, ri);
    }
    // 3. acc = acc * rescale + sum_j p_j * V[key j], a group of columns at
    //    a time: each value vector read once for every query row, the
    //    group's accumulators (rows x columns, at most half the vector
    //    registers) in registers across the block's keys.
    int64_t chunks = valueDims / lanes;
    int64_t registers = lanes >= 16 ? 32 : 16; // AVX-512 : AVX2
    int64_t perGroup = std::clamp<int64_t>(registers / 2 / rows, 1, chunks);
    while (chunks % perGroup)
      --perGroup;
    int64_t valueLine = lineColumns(v, att.valueProducer);
    kb.loop(valueDims, perGroup * lanes, [&](Value col0) {
      SmallVector<Value> init;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < perGroup; ++c)
          init.push_back(arith::MulFOp::create(
              b, loc,
              vector::LoadOp::create(
                  b, loc, vec, acc,
                  ValueRange{kb.idx(r), kb.addc(col0, c * lanes)}),
              bcast(vec, rescale[r])));
      SmallVector<Value> sums =
          carry(kb.idx(0), n, 1, init, [&](Value j, ValueRange a) {
            Value key = kb.addIdx(k0, j);
            SmallVector<Value> vv;
            for (int64_t c = 0; c < perGroup; ++c) {
              Value col = kb.addc(col0, c * lanes);
              vv.push_back(widen(
                  loadOperandRow(v, att.valueProducer, bi, key, col, lanes)));
              if (c * lanes % valueLine == 0)
                prefetchAhead(v, att.valueProducer, bi, key, col);
            }
            SmallVector<Value> next;
            for (int64_t r = 0; r < rows; ++r) {
              Value p =
                  bcast(vec, memref::LoadOp::create(b, loc, block,
                                                    ValueRange{kb.idx(r), j}));
              for (int64_t c = 0; c < perGroup; ++c)
                next.push_back(vector::FMAOp::create(b, loc, p, vv[c],
                                                     a[r * perGroup + c]));
            }
            return next;
          });
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < perGroup; ++c)
          vector::StoreOp::create(
              b, loc, sums[r * perGroup + c], acc,
              ValueRange{kb.idx(r), kb.addc(col0, c * lanes)});
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

template <typename OpTy> struct AttentionToKernel : OpRewritePattern<OpTy> {
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
    llvm::sort(
        ops, [](Operation *x, Operation *y) { return y->isBeforeInBlock(x); });
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
