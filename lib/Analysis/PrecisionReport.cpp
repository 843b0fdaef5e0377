//===- PrecisionReport.cpp - why each op got its precision ----------------===//

#include "lowp/Analysis/PrecisionReport.h"

#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::lowp;

std::string mlir::lowp::printReportLocation(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getName().str();
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().getValue() + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

static StringRef getCategoryName(DecisionCategory category) {
  switch (category) {
  case DecisionCategory::Islands:
    return "lowp-insert-fp32-islands";
  case DecisionCategory::Precision:
    return "lowp-infer-precision";
  case DecisionCategory::LossScaling:
    return "lowp-materialize-loss-scaling";
  case DecisionCategory::FP8:
    return "lowp-select-fp8-formats";
  }
  llvm_unreachable("unknown decision category");
}

/// The remark-engine half of emitDecisionRemark.
static void emitAnalysisRemark(Location loc, DecisionCategory category,
                               StringRef name, StringRef function,
                               StringRef text) {
  auto remark = remark::analysis(loc, remark::RemarkOpts::name(name)
                                          .category(getCategoryName(category))
                                          .function(function));
  remark << text;
}

void mlir::lowp::emitDecisionRemark(Location loc, DecisionCategory category,
                                    StringRef name, StringRef function,
                                    const Twine &message, bool asDiagnostic) {
  std::string text = message.str();
  emitAnalysisRemark(loc, category, name, function, text);
  if (asDiagnostic)
    mlir::emitRemark(loc) << text;
}

void mlir::lowp::emitDecisionRemark(Operation *op, DecisionCategory category,
                                    StringRef name, const Twine &message,
                                    bool asDiagnostic) {
  std::string text = message.str();
  auto function = op->getParentOfType<FunctionOpInterface>();
  emitAnalysisRemark(op->getLoc(), category, name,
                     function ? function.getName() : StringRef(), text);
  if (asDiagnostic)
    op->emitRemark() << text;
}

LogicalResult mlir::lowp::writeReportFile(
    Operation *anchor, StringRef path, StringRef what,
    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError()
           << "cannot write the " << what << " to '" << path << "': " << error;
  write(file->os());
  file->keep();
  return success();
}

/// Bytes of a statically shaped float tensor, 0 for anything else.
static int64_t getFloatTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<FloatType>(tensor.getElementType()))
    return 0;
  int64_t bits = tensor.getElementTypeBitWidth();
  return (tensor.getNumElements() * bits + 7) / 8;
}

TensorBytes mlir::lowp::measureTensorBytes(Operation *root) {
  TensorBytes bytes;
  root->walk([&](func::FuncOp func) {
    for (Type type : func.getArgumentTypes())
      bytes.arguments += getFloatTensorBytes(type);
    for (Type type : func.getResultTypes())
      bytes.results += getFloatTensorBytes(type);
    func.getBody().walk([&](Operation *op) {
      int64_t &role = isa<CastOp>(op) ? bytes.conversions : bytes.intermediates;
      for (Type type : op->getResultTypes())
        role += getFloatTensorBytes(type);
    });
  });
  return bytes;
}

std::map<std::string, std::map<std::string, unsigned>>
PrecisionReport::countByKind() const {
  std::map<std::string, std::map<std::string, unsigned>> counts;
  for (const PrecisionDecision &d : decisions)
    ++counts[d.opName][d.precision];
  return counts;
}

static llvm::json::Object toJson(const TensorBytes &bytes) {
  return llvm::json::Object{{"arguments", bytes.arguments},
                            {"results", bytes.results},
                            {"intermediates", bytes.intermediates},
                            {"conversions", bytes.conversions},
                            {"total", bytes.total()}};
}

void PrecisionReport::writeJson(llvm::raw_ostream &os) const {
  llvm::json::Object counts;
  for (const auto &[kind, byPrecision] : countByKind()) {
    llvm::json::Object entry;
    for (const auto &[precision, n] : byPrecision)
      entry[precision] = n;
    counts[kind] = std::move(entry);
  }
  llvm::json::Array kept;
  for (const PrecisionDecision &d : decisions) {
    if (!d.keptWide)
      continue;
    kept.push_back(llvm::json::Object{{"op", d.opName},
                                      {"loc", d.location},
                                      {"precision", d.precision},
                                      {"class", d.opClass},
                                      {"reason", d.rule}});
  }
  llvm::json::Array all;
  for (const PrecisionDecision &d : decisions)
    all.push_back(llvm::json::Object{{"op", d.opName},
                                     {"loc", d.location},
                                     {"precision", d.precision},
                                     {"class", d.opClass},
                                     {"rule", d.rule}});
  llvm::json::Object root{{"schema_version", kPrecisionReportSchemaVersion},
                          {"producer", "fp-opt"},
                          {"low", lowFormat},
                          {"accumulate", accumulate},
                          {"target", target},
                          {"note", note},
                          {"counts", std::move(counts)},
                          {"casts_inserted", castsInserted},
                          {"constants_rounded", constantsRounded},
                          {"bytes_before", toJson(bytesBefore)},
                          {"bytes_after", toJson(bytesAfter)},
                          {"kept_wide", std::move(kept)},
                          {"decisions", std::move(all)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

void PrecisionReport::writeTable(llvm::raw_ostream &os) const {
  os << "precision inference: low=" << lowFormat
     << " accumulate=" << accumulate
     << " target=" << (target.empty() ? "-" : target) << "\n";
  if (!note.empty())
    os << "note: " << note << "\n";
  os << llvm::format("%-32s %-10s %6s\n", "op kind", "precision", "count");
  for (const auto &[kind, byPrecision] : countByKind())
    for (const auto &[precision, n] : byPrecision)
      os << llvm::format("%-32s %-10s %6u\n", kind.c_str(), precision.c_str(),
                         n);
  os << "casts inserted: " << castsInserted
     << ", constants rounded: " << constantsRounded << "\n";
  os << llvm::format("%-14s %14s %14s\n", "tensor bytes", "before", "after");
  auto row = [&](const char *name, int64_t before, int64_t after) {
    os << llvm::format("%-14s %14lld %14lld\n", name, (long long)before,
                       (long long)after);
  };
  row("arguments", bytesBefore.arguments, bytesAfter.arguments);
  row("results", bytesBefore.results, bytesAfter.results);
  row("intermediates", bytesBefore.intermediates, bytesAfter.intermediates);
  row("casts", bytesBefore.conversions, bytesAfter.conversions);
  row("total", bytesBefore.total(), bytesAfter.total());
  // Transparent ops kept with their neighbours are summarised; the JSON
  // lists each of them.
  os << "kept at original precision:\n";
  std::map<std::string, unsigned> quietlyKept;
  for (const PrecisionDecision &d : decisions) {
    if (!d.keptWide)
      continue;
    if (d.opClass == "transparent") {
      ++quietlyKept[d.opName];
      continue;
    }
    os << "  " << d.opName << " (" << d.opClass << ") at " << d.location
       << ": " << d.rule << "\n";
  }
  for (const auto &[kind, n] : quietlyKept)
    os << "  " << n << " x " << kind
       << " (transparent): kept with their neighbours\n";
}
