//===- TermGraph.h - what a value computes, across op boundaries -*- C++ -*-===//
//
// A DAG of terms over the values of one block: each tensor or payload scalar
// described by the operation it computes, with linalg payloads inlined
// across op boundaries and broadcasts, reshapes, copies and casts made
// transparent, so that the forms front ends emit for one computation are one
// term. The island recognizers (IslandPatterns.h) read it.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_TERMGRAPH_H
#define LOWP_ANALYSIS_TERMGRAPH_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <optional>

namespace mlir::lowp {

/// What a scalar (or elementwise tensor) value computes, with linalg
/// payloads, broadcasts, reshapes and casts looked through.
enum class TermKind {
  Leaf,      ///< a value the analysis does not look into
  Forward,   ///< a transparent op (shape op, broadcast, copy, cast, payload)
  Constant,  ///< a scalar or splat float constant
  Accum,     ///< the accumulator of a reduction payload
  Add, Sub, Mul, Div, Neg, Max, Min, Exp, Log, Sqrt, Rsqrt, Pow, Select,
  Compare,
  Gather,    ///< tensor.extract of a tensor inside a payload
  ReduceSum, ///< a sum over reduction dimensions of its operand
  ReduceMax, ///< a max over reduction dimensions of its operand
  Softmax,   ///< linalg.softmax
};

/// A node of the expression DAG. Terms are owned by a TermGraph.
struct Term {
  TermKind kind = TermKind::Leaf;
  SmallVector<Term *, 3> operands;
  /// The value this term stands for (scalar in a payload or tensor).
  Value value;
  /// The top-level op this term makes part of the computation (a linalg op,
  /// shape op or cast), or null for payload scalars and leaves.
  Operation *op = nullptr;
  /// Constant value, for TermKind::Constant.
  std::optional<double> constant;
  /// Number of elements each output of a reduction combines; -1 if dynamic.
  int64_t reductionSize = 0;
};

/// Builds and caches terms for the values of one block.
class TermGraph {
public:
  /// The term of `value`, built on first use.
  Term *get(Value value);

  /// `term` with Forward nodes skipped.
  static Term *strip(Term *term);
  /// Structural equality: the same leaves combined by the same operations
  /// (commutative operands in either order). Gives up, answering false, on
  /// very large terms.
  static bool same(Term *a, Term *b);

private:
  static bool sameWithin(Term *a, Term *b, unsigned &budget);
  Term *build(Value value, unsigned depth);
  Term *make(TermKind kind, Value value, Operation *op,
             ArrayRef<Term *> operands = {});
  Term *buildLinalgResult(Operation *op, OpResult result, unsigned depth);

  std::deque<Term> storage;
  DenseMap<Value, Term *> cache;
};

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_TERMGRAPH_H
