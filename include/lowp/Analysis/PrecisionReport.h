//===- PrecisionReport.h - why each op got its precision ---------*- C++ -*-===//
//
// The decision report of precision inference: per op the chosen precision,
// its class and the rule that decided, the casts inserted and the tensor
// bytes before and after. Plain data plus JSON and table writers, so the
// pass, the C API and the Python helper print the same facts.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_PRECISIONREPORT_H
#define LOWP_ANALYSIS_PRECISIONREPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class Location;
class Operation;
namespace lowp {

/// Version of the layout of the JSON decision report. Bumped whenever a
/// field is removed or changes meaning, so that readers (the report page,
/// scripts/lowp-report-html.py) refuse a report they would misread instead
/// of drawing it wrong. Version 1 adds `schema_version` and the `graph`
/// section of lowp-view-precision-graph.
constexpr int64_t kPrecisionReportSchemaVersion = 1;

/// `loc` as the report prints it: the name of a name location, file:line:col
/// of a file location, else MLIR's own form.
std::string printReportLocation(Location loc);

/// Which decision pass a remark explains: its category in MLIR's remark
/// engine is the pass's flag (`--remarks-filter=lowp-select-fp8-formats`).
enum class DecisionCategory { Islands, Precision, LossScaling, FP8 };

/// The one way the decision passes explain a decision: an analysis remark
/// named `name` in `category` through MLIR's remark engine (seen when a
/// remark filter selects it) and, when `asDiagnostic` (the passes' `remarks`
/// options), a remark diagnostic at `loc` as well.
void emitDecisionRemark(Location loc, DecisionCategory category,
                        llvm::StringRef name, llvm::StringRef function,
                        const llvm::Twine &message, bool asDiagnostic);
/// The same for a decision about `op`, in the function around it; the
/// diagnostic is the op's own (Operation::emitRemark: printed with the op).
void emitDecisionRemark(Operation *op, DecisionCategory category,
                        llvm::StringRef name, const llvm::Twine &message,
                        bool asDiagnostic);

/// Writes a report to the file `path` through `write`; a file that cannot be
/// opened is an error at `anchor`: "cannot write the <what> to '<path>'".
LogicalResult writeReportFile(Operation *anchor, llvm::StringRef path,
                              llvm::StringRef what,
                              llvm::function_ref<void(llvm::raw_ostream &)>
                                  write);

/// The decision for one op.
struct PrecisionDecision {
  std::string opName;     ///< e.g. "linalg.matmul"
  std::string location;   ///< the op's location, printed
  std::string precision;  ///< the element type its float values got, e.g. "bf16"
  std::string opClass;    ///< matrix / sensitive / follow / transparent / none
  std::string rule;       ///< the rule (or class reason, or override) that decided
  bool keptWide = false;  ///< left at the original (f32) precision
};

/// Bytes of statically shaped float tensors, split by role.
struct TensorBytes {
  int64_t arguments = 0;     ///< function arguments
  int64_t results = 0;       ///< function results
  int64_t intermediates = 0; ///< every other op result but casts
  int64_t conversions = 0;   ///< results of lowp.cast
  int64_t total() const {
    return arguments + results + intermediates + conversions;
  }
};

/// Counts the bytes of the statically shaped float tensors of every function
/// under `root` (one walk).
TensorBytes measureTensorBytes(Operation *root);

/// Everything precision inference decided for one module.
struct PrecisionReport {
  std::string lowFormat;  ///< f16, bf16, or "none" when nothing was demoted
  std::string accumulate; ///< accumulator type of matrix ops
  std::string target;     ///< chip name or empty
  std::string note;       ///< why nothing changed, when nothing did
  std::vector<PrecisionDecision> decisions;
  unsigned castsInserted = 0;
  unsigned constantsRounded = 0;
  TensorBytes bytesBefore, bytesAfter;

  /// op kind -> precision -> number of ops.
  std::map<std::string, std::map<std::string, unsigned>> countByKind() const;

  void writeJson(llvm::raw_ostream &os) const;
  void writeTable(llvm::raw_ostream &os) const;
};

} // namespace lowp
} // namespace mlir

#endif // LOWP_ANALYSIS_PRECISIONREPORT_H
