//===- IslandPatterns.h - computations that need an FP32 island --*- C++ -*-===//
//
// Structural recognition of the computations that break in 16-bit floats:
// softmax, log-softmax, logsumexp, normalizations (layer, RMS, batch, group),
// cross-entropy / NLL losses and long sums. Recognition never looks at op
// names or attributes of the front end: it reads the dataflow of tensors and
// the scalar semantics of linalg payloads, seen through shape ops,
// broadcasts and casts, so that torch-mlir, IREE, StableHLO/TOSA-to-linalg
// and hand-written forms of one computation are one pattern.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_ISLANDPATTERNS_H
#define LOWP_ANALYSIS_ISLANDPATTERNS_H

#include "lowp/IR/LowpDialect.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::lowp {

/// What an island protects: the ODS enum IslandReason (LowpAttrs.td), with
/// its generated stringifyIslandReason giving the `lowp.island_reasons`
/// spelling.

/// One recognized computation.
struct IslandMatch {
  IslandReason reason;
  /// The top-level ops that compute it, in no particular order.
  llvm::SetVector<Operation *> ops;
};

/// Options of the recognizers.
struct IslandPatternOptions {
  /// Sums over more elements than this are long reductions; 0 disables.
  int64_t longReductionThreshold = 0;
};

/// Every computation of the recognized kinds rooted at a top-level op of
/// `block`. Ops nested in other ops are not roots; values defined outside
/// `block` are leaves.
SmallVector<IslandMatch> findIslandMatches(Block &block,
                                           const IslandPatternOptions &options);

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_ISLANDPATTERNS_H
