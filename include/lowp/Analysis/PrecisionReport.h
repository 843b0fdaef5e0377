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
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class Location;
class Value;
class Operation;
namespace lowp {

/// Version of the layout of the JSON decision report. Bumped whenever a
/// field is removed or changes meaning, so that readers (the report page,
/// scripts/lowp-report-html.py) refuse a report they would misread instead
/// of drawing it wrong. Version 1 adds `schema_version` and the `graph`
/// section of lowp-view-precision-graph. Version 2: tensor bytes count what
/// a lowering materializes (see TensorBytes; fused conversions are no
/// tensors), the pipeline's report is written after its last decision pass
/// (FP8 included), and `matrix_inputs` and `demoted_arguments` are new.
constexpr int64_t kPrecisionReportSchemaVersion = 2;

/// `loc` as the report prints it: the name of a name location, file:line:col
/// of a file location, else MLIR's own form.
std::string printReportLocation(Location loc);

/// Which decision pass a remark explains: its category in MLIR's remark
/// engine is the pass's flag (`--remarks-filter=lowp-select-fp8-formats`).
enum class DecisionCategory {
  Islands,
  Precision,
  LossScaling,
  FP8,
  FP8WeightOnly
};

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
/// writeReportFile of `root` as JSON indented by two spaces, with a final
/// newline (the JSON reports of lowp-view-precision-graph and
/// lowp-select-fp8-formats).
LogicalResult writeJsonReportFile(Operation *anchor, llvm::StringRef path,
                                  llvm::StringRef what, llvm::json::Value root);

/// The decision for one op.
struct PrecisionDecision {
  std::string opName;     ///< e.g. "linalg.matmul"
  std::string location;   ///< the op's location, printed
  std::string precision;  ///< the element type its float values got, e.g. "bf16"
  std::string opClass;    ///< matrix / sensitive / follow / transparent / none
  std::string rule;       ///< the rule (or class reason, or override) that decided
  bool keptWide = false;  ///< left at the original (f32) precision
};

/// Bytes of the statically shaped float tensors a lowering materializes,
/// split by role. Not counted: `tensor.empty` (the shape of an output),
/// views (reshapes, slices, tensor.cast), island results (counted where the
/// island computes them), a value whose only use is the init of a
/// destination-style op (it shares that op's buffer, as an accumulator's
/// fill does), values fused into their consumer (isFusedIntoConsumer), and
/// conversions a producer or consumer fuses (getConversionFusion).
struct TensorBytes {
  int64_t arguments = 0;     ///< function arguments
  int64_t results = 0;       ///< function results
  int64_t intermediates = 0; ///< every other op result but conversions
  int64_t conversions = 0;   ///< results of materialized conversions
  /// Tensor conversions lowered inside a producer or consumer, and those
  /// that are a tensor of their own.
  unsigned fusedConversions = 0;
  unsigned materializedConversions = 0;
  int64_t total() const {
    return arguments + results + intermediates + conversions;
  }
};

/// A float-to-float conversion: lowp.cast, lowp.quantize, lowp.dequantize,
/// arith.extf / arith.truncf on tensors.
bool isFloatConversion(Operation *op);

/// Where lowerings put a conversion (`isFloatConversion`).
enum class ConversionFusion {
  /// Every use converts it as it reads: an input of a matrix op (converted
  /// while packing or loading tiles, the kernel's prologue) or of an
  /// elementwise op (converted per element in its loop). No tensor.
  IntoConsumers,
  /// Its input is the only use of an elementwise or matrix op's result:
  /// that op writes the converted format (its epilogue rounds), and the
  /// conversion's result replaces the producer's. Preferred for a
  /// narrowing that its consumers could also fuse (the narrow form is the
  /// one stored).
  IntoProducer,
  /// A tensor of its own.
  Materialized,
};
ConversionFusion getConversionFusion(Operation *conversion);

/// True when lowerings never store `value`: it is the only use of an
/// elementwise or matrix op's result and an elementwise op reads it (it is
/// computed inside that consumer's loop, elementwise fusion, or in the
/// matrix op's epilogue), or it is a transpose or broadcast read only by
/// matrix ops (read in place while they pack their operands).
bool isFusedIntoConsumer(Value value);

/// Counts the bytes of the statically shaped float tensors of every function
/// under `root` (see TensorBytes).
TensorBytes measureTensorBytes(Operation *root);

/// A function argument whose type a decision narrowed (demote-weights).
struct DemotedArgument {
  std::string function;
  unsigned index = 0;
  std::string type;   ///< its new type, e.g. "tensor<32x64xbf16>"
  std::string reason; ///< e.g. "weight of linalg.matmul at mm7"
};

/// Everything the decision passes decided for one module.
struct PrecisionReport {
  std::string lowFormat;  ///< f16, bf16, or "none" when nothing was demoted
  std::string accumulate; ///< accumulator type of matrix ops
  std::string target;     ///< chip name or empty
  std::string note;       ///< why nothing changed, when nothing did
  std::vector<PrecisionDecision> decisions;
  unsigned castsInserted = 0;
  unsigned constantsRounded = 0;
  TensorBytes bytesBefore, bytesAfter;
  /// Matrix ops by the element type of their inputs when the report is
  /// written ("bf16", "f8E4M3FN", "f32", "mixed").
  std::map<std::string, unsigned> matrixInputs;
  std::vector<DemotedArgument> demotedArguments;

  /// Measures the module as it is now: bytesAfter and matrixInputs.
  void measureFinal(Operation *root);

  /// op kind -> precision -> number of ops.
  std::map<std::string, std::map<std::string, unsigned>> countByKind() const;

  void writeJson(llvm::raw_ostream &os) const;
  void writeTable(llvm::raw_ostream &os) const;
  /// Writes the report where a pass's report option says: nothing for an
  /// empty path, the table on stderr for "-", JSON for a path ending in
  /// .json, else the table; a file that cannot be opened is an error at
  /// `anchor`.
  LogicalResult writeTo(Operation *anchor, llvm::StringRef path) const;
};

} // namespace lowp
} // namespace mlir

#endif // LOWP_ANALYSIS_PRECISIONREPORT_H
