//===- TermGraph.cpp - what a value computes, across op boundaries --------===//
//
// Every tensor or payload scalar is described by what it computes, with
// linalg payloads inlined across op boundaries and broadcasts, reshapes,
// copies and casts made transparent. A decomposed softmax written as five
// generics, as three fused generics or as one linalg.softmax is then one
// shape of term.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/TermGraph.h"

#include "lowp/Analysis/StructuredOps.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::lowp;

/// Terms deeper than this become leaves: bounds the work on long chains.
static constexpr unsigned kMaxTermDepth = 64;
/// Structural comparison gives up (answers "different") after visiting this
/// many pairs of terms: shared subterms cannot make it exponential.
static constexpr unsigned kMaxCompareSteps = 4096;

//===----------------------------------------------------------------------===//
// TermGraph
//===----------------------------------------------------------------------===//

Term *TermGraph::make(TermKind kind, Value value, Operation *op,
                      ArrayRef<Term *> operands) {
  Term &term = storage.emplace_back();
  term.kind = kind;
  term.value = value;
  term.op = op;
  term.operands.assign(operands.begin(), operands.end());
  return &term;
}

Term *TermGraph::get(Value value) { return build(value, 0); }

Term *TermGraph::strip(Term *term) {
  while (term->kind == TermKind::Forward)
    term = term->operands.front();
  return term;
}

/// The float value of a scalar or splat float constant attribute.
static std::optional<double> getSplatFloat(Attribute attr) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    if (dense.isSplat())
      return dense.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

/// The value of a scalar or splat float or integer constant attribute
/// (integers matter as exponents of math.fpowi).
static std::optional<double> getSplatNumber(Attribute attr) {
  if (std::optional<double> f = getSplatFloat(attr))
    return f;
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(intAttr.getValue().getSExtValue());
  return std::nullopt;
}

/// True for ops that are payload scalars of a linalg op.
static bool isInPayload(Operation *op) {
  return isa_and_nonnull<linalg::LinalgOp>(op->getParentOp());
}

Term *TermGraph::build(Value value, unsigned depth) {
  if (Term *cached = cache.lookup(value))
    return cached;
  Term *term = nullptr;
  if (depth > kMaxTermDepth)
    return make(TermKind::Leaf, value, nullptr);

  auto recurse = [&](Value v) { return build(v, depth + 1); };

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(
        arg.getOwner()->getParentOp());
    if (linalgOp && arg.getOwner() == linalgOp.getBlock()) {
      OpOperand *operand = linalgOp.getMatchingOpOperand(arg);
      if (!isInit(linalgOp, *operand) || getNumReductionLoops(linalgOp) == 0)
        term = recurse(operand->get());
      else
        term = make(TermKind::Accum, value, nullptr);
    } else {
      term = make(TermKind::Leaf, value, nullptr);
    }
    return cache[value] = term;
  }

  Operation *def = value.getDefiningOp();
  Operation *topLevel = isInPayload(def) ? nullptr : def;
  auto unary = [&](TermKind kind) {
    return make(kind, value, topLevel, {recurse(def->getOperand(0))});
  };
  auto binary = [&](TermKind kind) {
    return make(kind, value, topLevel,
                {recurse(def->getOperand(0)), recurse(def->getOperand(1))});
  };

  term =
      llvm::TypeSwitch<Operation *, Term *>(def)
          .Case([&](linalg::LinalgOp op) {
            return buildLinalgResult(op, cast<OpResult>(value), depth);
          })
          .Case([&](linalg::SoftmaxOp op) {
            return make(TermKind::Softmax, value, op,
                        {recurse(op.getInput())});
          })
          .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                tensor::CastOp, arith::ExtFOp, arith::TruncFOp, lowp::CastOp>(
              [&](Operation *op) { return unary(TermKind::Forward); })
          .Case([&](arith::ConstantOp op) {
            Term *t = make(TermKind::Leaf, value, nullptr);
            if (std::optional<double> c = getSplatNumber(op.getValue())) {
              t->kind = TermKind::Constant;
              t->constant = c;
            }
            return t;
          })
          .Case([&](arith::AddFOp) { return binary(TermKind::Add); })
          .Case([&](arith::SubFOp) { return binary(TermKind::Sub); })
          .Case([&](arith::MulFOp) { return binary(TermKind::Mul); })
          .Case([&](arith::DivFOp) { return binary(TermKind::Div); })
          .Case<arith::MaximumFOp, arith::MaxNumFOp>(
              [&](Operation *) { return binary(TermKind::Max); })
          .Case<arith::MinimumFOp, arith::MinNumFOp>(
              [&](Operation *) { return binary(TermKind::Min); })
          .Case([&](arith::NegFOp) { return unary(TermKind::Neg); })
          .Case([&](math::ExpOp) { return unary(TermKind::Exp); })
          .Case([&](math::LogOp) { return unary(TermKind::Log); })
          .Case([&](math::SqrtOp) { return unary(TermKind::Sqrt); })
          .Case([&](math::RsqrtOp) { return unary(TermKind::Rsqrt); })
          .Case<math::PowFOp, math::FPowIOp>(
              [&](Operation *) { return binary(TermKind::Pow); })
          .Case([&](arith::CmpFOp) { return binary(TermKind::Compare); })
          .Case([&](arith::SelectOp op) {
            return make(TermKind::Select, value, topLevel,
                        {recurse(op.getCondition()),
                         recurse(op.getTrueValue()),
                         recurse(op.getFalseValue())});
          })
          .Case([&](tensor::ExtractOp op) -> Term * {
            if (!topLevel)
              return make(TermKind::Gather, value, nullptr,
                          {recurse(op.getTensor())});
            return make(TermKind::Leaf, value, nullptr);
          })
          .Default([&](Operation *) {
            return make(TermKind::Leaf, value, nullptr);
          });
  return cache[value] = term;
}

/// True when every tensor read along reduction dimensions is read with the
/// same projected-permutation map: a sum or max of an elementwise function
/// (broadcast operands allowed), not a contraction or convolution.
static bool isElementwiseReduction(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<AffineMap> reducedMap;
  for (OpOperand &input : getInputOperands(op)) {
    AffineMap map = op.getMatchingIndexingMap(&input);
    if (!map.isProjectedPermutation())
      return false;
    bool readsReducedDim = llvm::any_of(map.getResults(), [&](AffineExpr e) {
      return iterators[cast<AffineDimExpr>(e).getPosition()] ==
             utils::IteratorType::reduction;
    });
    if (!readsReducedDim)
      continue;
    if (reducedMap && *reducedMap != map)
      return false;
    reducedMap = map;
  }
  return reducedMap.has_value();
}

/// The value `yielded` combines with `acc` by a max, or null.
static Value getMaxCombined(Value yielded, Value acc) {
  Operation *def = yielded.getDefiningOp();
  if (!def)
    return {};
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
    if (def->getOperand(0) == acc)
      return def->getOperand(1);
    if (def->getOperand(1) == acc)
      return def->getOperand(0);
    return {};
  }
  // select(x > acc, x, acc), as torch-mlir writes max-with-index.
  auto select = dyn_cast<arith::SelectOp>(def);
  if (!select || select.getFalseValue() != acc)
    return {};
  Value x = select.getTrueValue();
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return {};
  using P = arith::CmpFPredicate;
  P pred = cmp.getPredicate();
  bool greater = pred == P::OGT || pred == P::OGE || pred == P::UGT ||
                 pred == P::UGE;
  bool less = pred == P::OLT || pred == P::OLE || pred == P::ULT ||
              pred == P::ULE;
  if ((greater && cmp.getLhs() == x && cmp.getRhs() == acc) ||
      (less && cmp.getLhs() == acc && cmp.getRhs() == x))
    return x;
  return {};
}


Term *TermGraph::buildLinalgResult(Operation *op, OpResult result,
                                   unsigned depth) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  Block *body = linalgOp.getBlock();
  if (!body || !isa<linalg::YieldOp>(body->getTerminator()))
    return make(TermKind::Leaf, result, nullptr);
  Value yielded = body->getTerminator()->getOperand(result.getResultNumber());

  if (getNumReductionLoops(linalgOp) == 0)
    return make(TermKind::Forward, result, op, {build(yielded, depth + 1)});

  if (!isElementwiseReduction(linalgOp))
    return make(TermKind::Leaf, result, nullptr);
  Value acc = getRegionInitArgs(linalgOp)[result.getResultNumber()];
  TermKind kind;
  Value combined;
  auto add = yielded.getDefiningOp<arith::AddFOp>();
  if (add && (add.getLhs() == acc || add.getRhs() == acc)) {
    kind = TermKind::ReduceSum;
    combined = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  } else if ((combined = getMaxCombined(yielded, acc))) {
    kind = TermKind::ReduceMax;
  } else {
    return make(TermKind::Leaf, result, nullptr);
  }
  Term *term = make(kind, result, op, {build(combined, depth + 1)});
  int64_t size = 1;
  for (auto [dim, iterator] :
       llvm::enumerate(linalgOp.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    int64_t range = getStaticLoopSize(linalgOp, dim);
    if (ShapedType::isDynamic(range)) {
      size = -1;
      break;
    }
    size *= range;
  }
  term->reductionSize = size;
  return term;
}

static bool isCommutative(TermKind kind) {
  return kind == TermKind::Add || kind == TermKind::Mul ||
         kind == TermKind::Max || kind == TermKind::Min;
}

bool TermGraph::same(Term *a, Term *b) {
  unsigned budget = kMaxCompareSteps;
  return sameWithin(a, b, budget);
}

bool TermGraph::sameWithin(Term *a, Term *b, unsigned &budget) {
  a = strip(a);
  b = strip(b);
  if (a == b)
    return true;
  if (budget == 0 || a->kind != b->kind ||
      a->operands.size() != b->operands.size())
    return false;
  --budget;
  switch (a->kind) {
  case TermKind::Leaf:
  case TermKind::Accum:
    return a->value == b->value;
  case TermKind::Constant:
    return a->constant == b->constant;
  case TermKind::ReduceSum:
  case TermKind::ReduceMax:
    if (a->reductionSize != b->reductionSize)
      return false;
    break;
  default:
    break;
  }
  auto allSame = [&](ArrayRef<Term *> x, ArrayRef<Term *> y) {
    for (auto [p, q] : llvm::zip(x, y))
      if (!sameWithin(p, q, budget))
        return false;
    return true;
  };
  if (allSame(a->operands, b->operands))
    return true;
  return isCommutative(a->kind) &&
         sameWithin(a->operands[0], b->operands[1], budget) &&
         sameWithin(a->operands[1], b->operands[0], budget);
}
