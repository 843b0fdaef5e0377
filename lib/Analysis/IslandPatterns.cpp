//===- IslandPatterns.cpp - computations that need an FP32 island ---------===//
//
// The recognizers read the term graph (lowp/Analysis/TermGraph.h): every
// tensor or payload scalar described by what it computes, across op
// boundaries. A decomposed softmax written as five generics, as three fused
// generics or as one linalg.softmax is then one shape of term, and every
// recognizer is a few lines over terms.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/IslandPatterns.h"

#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/Analysis/TermGraph.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::lowp;

//===----------------------------------------------------------------------===//
// Recognizers
//===----------------------------------------------------------------------===//

namespace {
Term *S(Term *t) { return TermGraph::strip(t); }
bool is(Term *t, TermKind kind) { return S(t)->kind == kind; }
Term *operand(Term *t, unsigned i) { return S(t)->operands[i]; }
bool same(Term *a, Term *b) { return TermGraph::same(a, b); }

bool isConstant(Term *t, double value) {
  t = S(t);
  return t->kind == TermKind::Constant && t->constant == value;
}

/// A scalar that scales or shifts (a count, an epsilon): a constant or a
/// non-shaped leaf such as an index cast of a dynamic size.
bool isScalarLike(Term *t, unsigned depth = 0) {
  t = S(t);
  if (t->kind == TermKind::Constant)
    return true;
  if (t->kind == TermKind::Leaf)
    return !isa<ShapedType>(t->value.getType());
  // A count computed from counts: 1 / n, n - 1.
  bool arithmetic = t->kind == TermKind::Add || t->kind == TermKind::Sub ||
                    t->kind == TermKind::Mul || t->kind == TermKind::Div;
  return arithmetic && depth < 3 && llvm::all_of(t->operands, [&](Term *o) {
           return isScalarLike(o, depth + 1);
         });
}

/// A parameter of an affine transform: a tensor or scalar the analysis does
/// not see into.
bool isParameter(Term *t) {
  t = S(t);
  return t->kind == TermKind::Leaf || t->kind == TermKind::Constant;
}

/// mean(x): sum(x) / n, sum(x) * (1/n), sum(x / n) or sum(x * (1/n)).
/// Returns the term of x.
Term *matchMean(Term *t) {
  t = S(t);
  auto sumOf = [](Term *s) -> Term * {
    return is(s, TermKind::ReduceSum) ? operand(s, 0) : nullptr;
  };
  auto scaled = [](Term *s) -> Term * {
    s = S(s);
    if (s->kind == TermKind::Div && isScalarLike(s->operands[1]))
      return s->operands[0];
    if (s->kind == TermKind::Mul) {
      if (isScalarLike(s->operands[1]))
        return s->operands[0];
      if (isScalarLike(s->operands[0]))
        return s->operands[1];
    }
    return nullptr;
  };
  if (Term *inner = scaled(t))
    if (Term *x = sumOf(inner))
      return x;
  if (Term *x = sumOf(t))
    return scaled(x);
  return nullptr;
}

/// x * x or pow(x, 2). Returns x.
Term *matchSquare(Term *t) {
  t = S(t);
  if (t->kind == TermKind::Mul && same(t->operands[0], t->operands[1]))
    return t->operands[0];
  if (t->kind == TermKind::Pow && isConstant(t->operands[1], 2.0))
    return t->operands[0];
  return nullptr;
}

/// v + eps, eps + v or max(v, eps) with a scalar eps. Returns v.
Term *matchPlusEps(Term *t) {
  t = S(t);
  if (t->kind != TermKind::Add && t->kind != TermKind::Max)
    return nullptr;
  bool lhsScalar = isScalarLike(t->operands[0]);
  bool rhsScalar = isScalarLike(t->operands[1]);
  if (rhsScalar && !lhsScalar)
    return t->operands[0];
  if (lhsScalar && !rhsScalar)
    return t->operands[1];
  // Both constant: the tensor is the variance (running statistics folded to
  // a splat), the scalar the epsilon.
  if (lhsScalar && rhsScalar) {
    bool lhsTensor = isa<ShapedType>(S(t->operands[0])->value.getType());
    bool rhsTensor = isa<ShapedType>(S(t->operands[1])->value.getType());
    if (lhsTensor != rhsTensor)
      return lhsTensor ? t->operands[0] : t->operands[1];
  }
  return nullptr;
}

/// 1 / sqrt(v + eps) as rsqrt, a division or pow(., -0.5). Returns v.
Term *matchInvStd(Term *t) {
  t = S(t);
  if (t->kind == TermKind::Rsqrt)
    return matchPlusEps(t->operands[0]);
  if (t->kind == TermKind::Div && isConstant(t->operands[0], 1.0) &&
      is(t->operands[1], TermKind::Sqrt))
    return matchPlusEps(operand(t->operands[1], 0));
  if (t->kind == TermKind::Pow && isConstant(t->operands[1], -0.5))
    return matchPlusEps(t->operands[0]);
  return nullptr;
}

/// sqrt(v + eps). Returns v.
Term *matchStd(Term *t) {
  t = S(t);
  if (t->kind == TermKind::Sqrt)
    return matchPlusEps(t->operands[0]);
  return nullptr;
}

/// True when a Forward chain from `t` crosses a reshape: the statistics of a
/// group norm are taken over a reshaped (grouped) view of the input.
bool crossesReshape(Term *t) {
  for (; t->kind == TermKind::Forward; t = t->operands.front())
    if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(t->op))
      return true;
  return false;
}

/// The reduction term nearest `t`'s root (through a mean's scaling).
Term *findReduction(Term *t) {
  t = S(t);
  if (t->kind == TermKind::ReduceSum)
    return t;
  for (Term *o : t->operands)
    if (is(o, TermKind::ReduceSum))
      return S(o);
  return nullptr;
}

/// Layer, batch or group norm from where the mean reduces.
IslandReason classifyNormWithStatistics(Term *mean) {
  Term *sum = findReduction(mean);
  if (sum && crossesReshape(sum->operands[0]))
    return IslandReason::GroupNorm;
  if (sum)
    if (auto op = dyn_cast<linalg::LinalgOp>(sum->op)) {
      // Batch norm reduces the outermost dimension and keeps a later one.
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      for (OpOperand &input : getInputOperands(op)) {
        AffineMap map = op.getMatchingIndexingMap(&input);
        if (map.getNumResults() < 2)
          continue;
        auto isReduced = [&](AffineExpr e) {
          return iterators[cast<AffineDimExpr>(e).getPosition()] ==
                 utils::IteratorType::reduction;
        };
        if (isReduced(map.getResult(0)) &&
            !llvm::all_of(map.getResults(), isReduced))
          return IslandReason::BatchNorm;
      }
    }
  return IslandReason::LayerNorm;
}

/// (x - mean) * rsqrt(var + eps) and its spellings. Returns the reason and
/// sets `input` to x.
std::optional<IslandReason> matchNormCore(Term *t, Term *&input) {
  t = S(t);
  Term *centred = nullptr, *variance = nullptr;
  if (t->kind == TermKind::Mul) {
    for (unsigned i = 0; i < 2 && !variance; ++i)
      if ((variance = matchInvStd(t->operands[i])))
        centred = t->operands[1 - i];
  } else if (t->kind == TermKind::Div) {
    if ((variance = matchStd(t->operands[1])))
      centred = t->operands[0];
  }
  if (!variance)
    return std::nullopt;

  // RMSNorm: x * rsqrt(mean(x^2) + eps).
  if (!is(centred, TermKind::Sub)) {
    Term *meanOf = matchMean(variance);
    Term *x = meanOf ? matchSquare(meanOf) : nullptr;
    if (!x || !same(x, centred))
      return std::nullopt;
    input = centred;
    return IslandReason::RMSNorm;
  }

  Term *x = operand(centred, 0), *mu = operand(centred, 1);
  // Statistics computed here: mu = mean(x), var = mean((x - mu)^2) or
  // mean(x^2) - mu^2.
  if (Term *meanOf = matchMean(mu); meanOf && same(meanOf, x)) {
    Term *varOf = matchMean(variance);
    Term *deviation = varOf ? matchSquare(varOf) : nullptr;
    bool ok = deviation && is(deviation, TermKind::Sub) &&
              same(operand(deviation, 0), x) &&
              same(operand(deviation, 1), mu);
    if (!ok && is(variance, TermKind::Sub)) {
      Term *meanOfSquare = matchMean(operand(variance, 0));
      Term *squared = meanOfSquare ? matchSquare(meanOfSquare) : nullptr;
      Term *squaredMean = matchSquare(operand(variance, 1));
      ok = squared && squaredMean && same(squared, x) && same(squaredMean, mu);
    }
    if (!ok)
      return std::nullopt;
    input = x;
    return classifyNormWithStatistics(mu);
  }
  // Batch norm inference: running statistics are tensors from outside
  // (arguments, weights, possibly splat constants).
  if (isParameter(mu) && isParameter(variance) &&
      isa<ShapedType>(S(mu)->value.getType()) &&
      isa<ShapedType>(S(variance)->value.getType())) {
    input = x;
    return IslandReason::BatchNorm;
  }
  return std::nullopt;
}

/// A normalization, optionally followed by `* gamma` and `+ beta`.
std::optional<IslandReason> matchNorm(Term *t, Term *&input,
                                      unsigned affineDepth = 0) {
  if (auto reason = matchNormCore(t, input))
    return reason;
  t = S(t);
  if (affineDepth >= 2 ||
      (t->kind != TermKind::Add && t->kind != TermKind::Mul))
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i)
    if (isParameter(t->operands[1 - i]))
      if (auto reason = matchNorm(t->operands[i], input, affineDepth + 1))
        return reason;
  return std::nullopt;
}

/// exp(a) / sum(exp(a)) or exp(a) * (1 / sum(exp(a))). Returns a.
Term *matchSoftmaxOfExp(Term *t) {
  t = S(t);
  Term *numerator = nullptr, *sum = nullptr;
  if (t->kind == TermKind::Div) {
    numerator = t->operands[0];
    sum = t->operands[1];
  } else if (t->kind == TermKind::Mul) {
    for (unsigned i = 0; i < 2 && !sum; ++i) {
      Term *r = S(t->operands[i]);
      if (r->kind == TermKind::Div && isConstant(r->operands[0], 1.0)) {
        sum = r->operands[1];
        numerator = t->operands[1 - i];
      }
    }
  }
  if (!sum || !is(numerator, TermKind::Exp) || !is(sum, TermKind::ReduceSum))
    return nullptr;
  if (!same(numerator, operand(sum, 0)))
    return nullptr;
  return operand(numerator, 0);
}

/// The input of a max-shifted argument: x for x - max(x), else `a` itself.
Term *unshift(Term *a) {
  Term *s = S(a);
  if (s->kind == TermKind::Sub && is(s->operands[1], TermKind::ReduceMax) &&
      same(operand(s->operands[1], 0), s->operands[0]))
    return s->operands[0];
  return a;
}

/// log(sum(exp(a))) or m + log(sum(exp(x - m))). Returns the argument whose
/// logsumexp this is (a, or x).
Term *matchLogSumExp(Term *t) {
  t = S(t);
  auto logSumExp = [](Term *l) -> Term * {
    l = S(l);
    if (l->kind != TermKind::Log || !is(l->operands[0], TermKind::ReduceSum))
      return nullptr;
    Term *e = operand(l->operands[0], 0);
    return is(e, TermKind::Exp) ? operand(e, 0) : nullptr;
  };
  if (Term *a = logSumExp(t))
    return a;
  if (t->kind != TermKind::Add)
    return nullptr;
  for (unsigned i = 0; i < 2; ++i) {
    Term *a = logSumExp(t->operands[i]);
    if (a && is(a, TermKind::Sub) && same(operand(a, 1), t->operands[1 - i]))
      return operand(a, 0);
  }
  return nullptr;
}

/// a - logsumexp(a). Returns a.
Term *matchLogSoftmax(Term *t) {
  t = S(t);
  if (t->kind != TermKind::Sub)
    return nullptr;
  Term *a = matchLogSumExp(t->operands[1]);
  return a && same(a, t->operands[0]) ? a : nullptr;
}

/// The first term under `t` that takes a logarithm (directly or through a
/// gather of log-probabilities), or null.
Term *findLogarithm(Term *t, DenseSet<Term *> &visited) {
  t = S(t);
  if (!visited.insert(t).second)
    return nullptr;
  if (t->kind == TermKind::Log)
    return t;
  for (Term *o : t->operands)
    if (Term *log = findLogarithm(o, visited))
      return log;
  return nullptr;
}

/// A sum to one value (or its mean or negation) of a term that reads a
/// logarithm (cross-entropy, NLL, KL and other likelihood losses) or of
/// squared differences (mean squared error, squared L2 distance). Returns
/// the loss's core: the difference, or a logarithm.
Term *matchLoss(Term *t, unsigned depth = 0) {
  t = S(t);
  if (depth < 3) {
    if (t->kind == TermKind::Neg)
      return matchLoss(t->operands[0], depth + 1);
    if (t->kind == TermKind::Sub && isConstant(t->operands[0], 0.0))
      return matchLoss(t->operands[1], depth + 1);
    if ((t->kind == TermKind::Div || t->kind == TermKind::Mul) &&
        isScalarLike(t->operands[1]))
      return matchLoss(t->operands[0], depth + 1);
    if (t->kind == TermKind::Mul && isScalarLike(t->operands[0]))
      return matchLoss(t->operands[1], depth + 1);
  }
  if (t->kind != TermKind::ReduceSum)
    return nullptr;
  auto type = dyn_cast<ShapedType>(t->value.getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() != 1)
    return nullptr;
  if (Term *difference = matchSquare(t->operands[0]);
      difference && is(difference, TermKind::Sub))
    return S(difference);
  DenseSet<Term *> visited;
  return findLogarithm(t->operands[0], visited);
}

/// True when `t` is a loss's core term (matchLoss): a logarithm when the
/// core is one, else the difference.
bool isLossCore(Term *t, Term *core) {
  t = S(t);
  if (core->kind == TermKind::Log)
    return t->kind == TermKind::Log;
  return t->kind == core->kind && same(t, core);
}

/// A long sum, or its mean. Returns the reduction.
Term *matchLongReduction(Term *t, int64_t threshold) {
  if (threshold <= 0)
    return nullptr;
  t = S(t);
  if ((t->kind == TermKind::Div || t->kind == TermKind::Mul) &&
      isScalarLike(t->operands[1]))
    t = S(t->operands[0]);
  if (t->kind != TermKind::ReduceSum)
    return nullptr;
  if (t->reductionSize >= 0 && t->reductionSize <= threshold)
    return nullptr;
  return t;
}

/// True for a pooling sum (a convolution-shaped reduction whose payload only
/// accumulates with an add) whose windows hold more than `threshold`
/// elements, or a dynamic number: sum pooling over a whole feature map.
bool isLongWindowSum(linalg::LinalgOp op, int64_t threshold) {
  if (threshold <= 0 || op->getNumResults() != 1)
    return false;
  // The payload first, the structure (costlier) only for an accumulating
  // add: the payload rules out fills, elementwise ops and contractions.
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() == 0)
    return false;
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  Value acc = body->getArguments().back();
  if (!add || (add.getLhs() != acc && add.getRhs() != acc) ||
      llvm::any_of(body->getOperations(), llvm::IsaPred<arith::MulFOp>))
    return false;
  // A generic states its maps: a window is read through one that is not a
  // projected permutation (an index d1 + d4). Sums of rows are not.
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      generic &&
      llvm::all_of(generic.getIndexingMaps().getAsValueRange<AffineMapAttr>(),
                   [](AffineMap map) {
                     return map.isProjectedPermutation(
                         /*allowZeroInResults=*/true);
                   }))
    return false;
  if (!linalg::isaConvolutionOpInterface(op))
    return false;
  int64_t size = 1;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    int64_t range = getStaticLoopSize(op, dim);
    if (ShapedType::isDynamic(range))
      return true;
    size *= range;
  }
  return size > threshold;
}

/// Adds the top-level ops of the terms under `root` to `ops`, stopping at
/// terms equal to one of `boundaries` (the computation's inputs).
void collectOps(Term *root, ArrayRef<Term *> boundaries, Block &block,
                llvm::SetVector<Operation *> &ops) {
  DenseSet<Term *> visited;
  SmallVector<Term *> worklist{root};
  while (!worklist.empty()) {
    Term *t = worklist.pop_back_val();
    if (!visited.insert(t).second)
      continue;
    if (t != root && llvm::any_of(boundaries, [&](Term *b) {
          return S(b)->kind == S(t)->kind && same(b, t);
        }))
      continue;
    if (t->op && t->op->getBlock() == &block)
      ops.insert(t->op);
    llvm::append_range(worklist, t->operands);
  }
}

/// Adds to `ops` the ops of `block` behind the terms on a path from `root`
/// to a term `isTarget` accepts, both ends included; what lies beyond the
/// target terms, or beside the paths, is left out.
void collectOpsOnPaths(Term *root, function_ref<bool(Term *)> isTarget,
                       Block &block, llvm::SetVector<Operation *> &ops) {
  DenseMap<Term *, bool> onPath;
  std::function<bool(Term *)> visit = [&](Term *t) -> bool {
    if (auto it = onPath.find(t); it != onPath.end())
      return it->second;
    onPath[t] = false;
    bool found = isTarget(t);
    if (!found)
      for (Term *o : t->operands)
        found |= visit(o);
    onPath[t] = found;
    if (found && t->op && t->op->getBlock() == &block)
      ops.insert(t->op);
    return found;
  };
  visit(root);
}
} // namespace

SmallVector<IslandMatch>
mlir::lowp::findIslandMatches(Block &block,
                              const IslandPatternOptions &options) {
  TermGraph graph;
  SmallVector<IslandMatch> matches;
  auto record = [&](IslandReason reason, Term *root,
                    ArrayRef<Term *> boundaries) {
    IslandMatch &match = matches.emplace_back();
    match.reason = reason;
    collectOps(root, boundaries, block, match.ops);
  };

  for (Operation &op : block) {
    auto structured = dyn_cast<linalg::LinalgOp>(op);
    if (!structured && !isa<linalg::SoftmaxOp>(op) &&
        !isFloatPolymorphicDialect(op.getDialect()))
      continue;
    if (structured &&
        isLongWindowSum(structured, options.longReductionThreshold)) {
      IslandMatch &match = matches.emplace_back();
      match.reason = IslandReason::LongReduction;
      match.ops.insert(&op);
      continue;
    }
    for (Value result : op.getResults()) {
      if (!getFloatElementType(result.getType()))
        continue;
      Term *root = graph.get(result);
      Term *core = S(root);
      if (core->kind == TermKind::Softmax) {
        record(IslandReason::Softmax, root, {core->operands[0]});
        continue;
      }
      if (Term *a = matchSoftmaxOfExp(root)) {
        record(IslandReason::Softmax, root, {unshift(a)});
        continue;
      }
      if (Term *a = matchLogSoftmax(root)) {
        record(IslandReason::LogSoftmax, root, {unshift(a)});
        continue;
      }
      if (Term *a = matchLogSumExp(root)) {
        record(IslandReason::LogSumExp, root, {unshift(a)});
        continue;
      }
      Term *input = nullptr;
      if (std::optional<IslandReason> reason = matchNorm(root, input)) {
        record(*reason, root, {input});
        continue;
      }
      // A loss holds the terms between its sum and its core; the prediction
      // and target it reads stay outside, computed where they are.
      if (Term *core = matchLoss(root)) {
        IslandMatch &match = matches.emplace_back();
        match.reason = IslandReason::Loss;
        collectOpsOnPaths(
            root, [&](Term *t) { return isLossCore(t, core); }, block,
            match.ops);
        continue;
      }
      if (Term *sum =
              matchLongReduction(root, options.longReductionThreshold)) {
        SmallVector<Term *> inputs;
        for (OpOperand &in : getInputOperands(cast<linalg::LinalgOp>(sum->op)))
          inputs.push_back(graph.get(in.get()));
        record(IslandReason::LongReduction, root, inputs);
      }
    }
  }
  llvm::erase_if(matches, [](const IslandMatch &m) { return m.ops.empty(); });
  return matches;
}
