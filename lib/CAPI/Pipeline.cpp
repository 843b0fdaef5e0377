//===- Pipeline.cpp - C API: running fp-opt pipelines ---------------------===//

#include "lowp-c/Pipeline.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// "file:line:col" for file locations (as mlir-opt prints them), the
/// location attribute otherwise.
static void printLocation(Location loc, raw_ostream &os) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
    return;
  }
  os << loc;
}

static StringRef getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  llvm_unreachable("unknown diagnostic severity");
}

static std::string formatDiagnostic(Diagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto printOne = [&](Diagnostic &d) {
    printLocation(d.getLocation(), os);
    os << ": " << getSeverityName(d.getSeverity()) << ": " << d.str() << "\n";
  };
  printOne(diag);
  for (Diagnostic &note : diag.getNotes())
    printOne(note);
  return text;
}

/// Returns the pass list inside `builtin.module(...)` when `pipeline` is
/// anchored on the module op, or `pipeline` itself when it is a plain list.
static StringRef stripModuleAnchor(StringRef pipeline, StringRef moduleName) {
  StringRef text = pipeline.trim();
  if (!text.consume_front(moduleName))
    return text;
  StringRef rest = text.ltrim();
  if (!rest.starts_with("(") || !rest.ends_with(")"))
    return pipeline.trim();
  // The opening parenthesis must close at the very end: otherwise this is
  // a list such as "builtin.module(a),b", which the parser diagnoses.
  int depth = 0;
  for (size_t i = 0, e = rest.size(); i < e; ++i) {
    if (rest[i] == '(')
      ++depth;
    else if (rest[i] == ')' && --depth == 0 && i + 1 != e)
      return pipeline.trim();
  }
  return rest.drop_front().drop_back();
}

MlirModule mlirLowpParseModule(MlirContext context, MlirStringRef source,
                               MlirStringRef sourceName,
                               MlirStringCallback diagnosticCallback,
                               void *userData) {
  MLIRContext *ctx = unwrap(context);
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diagnosticCallback)
      diagnosticCallback(wrap(formatDiagnostic(diag)), userData);
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      unwrap(source), ParserConfig(ctx), unwrap(sourceName));
  return MlirModule{module.release().getOperation()};
}

MlirLogicalResult mlirLowpRunPipeline(MlirModule module, MlirStringRef pipeline,
                                      MlirStringCallback diagnosticCallback,
                                      void *userData) {
  ModuleOp moduleOp = unwrap(module);
  MLIRContext *context = moduleOp.getContext();
  auto report = [&](StringRef text) {
    if (diagnosticCallback)
      diagnosticCallback(wrap(text), userData);
  };

  // A pass may report an error and carry on; the run has failed all the
  // same (its output is not trustworthy).
  unsigned errors = 0;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    report(formatDiagnostic(diag));
    return success();
  });

  PassManager pm(context, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  StringRef passes =
      stripModuleAnchor(unwrap(pipeline), ModuleOp::getOperationName());
  if (failed(parsePassPipeline(passes, pm, errorStream))) {
    report(("<pipeline>: error: invalid pass pipeline '" + unwrap(pipeline) +
            "': " + StringRef(parseErrors).trim() + "\n")
               .str());
    return mlirLogicalResultFailure();
  }
  if (failed(pm.run(moduleOp)) || errors)
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}
