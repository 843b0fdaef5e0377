//===- Pipeline.cpp - C API: running fp-opt pipelines ---------------------===//

#include "lowp-c/Pipeline.h"

#include "DiagnosticText.h"
#include "lowp/Pipelines/RunPipeline.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using mlir::lowp::capi::formatDiagnostic;

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
  if (failed(lowp::runVerifyingAtEnd(pm, moduleOp)) || errors)
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}

template <typename T>
static std::string printToString(T printable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printable.print(os);
  return text;
}

MlirLogicalResult mlirLowpDescribeFunctionSignature(
    MlirModule module, MlirStringRef function, MlirStringCallback callback,
    void *userData, MlirStringCallback errorCallback, void *errorUserData) {
  ModuleOp moduleOp = unwrap(module);
  auto fail = [&](const Twine &message) {
    if (errorCallback)
      errorCallback(wrap(message.str()), errorUserData);
    return mlirLogicalResultFailure();
  };
  func::FuncOp func;
  StringRef name = unwrap(function);
  if (!name.empty()) {
    func = moduleOp.lookupSymbol<func::FuncOp>(name);
    if (!func)
      return fail("the module has no func.func @" + name);
  } else {
    for (auto candidate : moduleOp.getOps<func::FuncOp>()) {
      if (candidate.isExternal() || !candidate.isPublic() ||
          !SymbolTable::symbolKnownUseEmpty(candidate, moduleOp))
        continue;
      if (func)
        return fail("the module has more than one entry function (@" +
                    func.getName() + ", @" + candidate.getName() +
                    "); name one");
      func = candidate;
    }
    if (!func)
      return fail("the module has no entry function (a public func.func "
                  "with a body that nothing calls)");
  }
  llvm::json::Array arguments;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    llvm::json::Object attributes;
    for (NamedAttribute attr : function_interface_impl::getArgAttrs(func, i))
      attributes[attr.getName().getValue()] =
          printToString(attr.getValue());
    arguments.push_back(
        llvm::json::Object{{"type", printToString(func.getArgumentTypes()[i])},
                           {"attributes", std::move(attributes)}});
  }
  llvm::json::Array results;
  for (Type type : func.getResultTypes())
    results.push_back(printToString(type));
  llvm::json::Object root{{"function", func.getName()},
                          {"arguments", std::move(arguments)},
                          {"results", std::move(results)}};
  std::string text =
      llvm::formatv("{0}", llvm::json::Value(std::move(root))).str();
  callback(wrap(text), userData);
  return mlirLogicalResultSuccess();
}
