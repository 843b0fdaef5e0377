//===- DiagnosticText.h - diagnostics as the C API hands them over -*- C++ -*-===//
//
// One format for every diagnostic the C API passes to a callback:
// "<location>: <severity>: <message>\n", each note on a line of its own.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_CAPI_DIAGNOSTICTEXT_H
#define LOWP_CAPI_DIAGNOSTICTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::lowp::capi {

/// "file:line:col" for file locations (as mlir-opt prints them), the
/// location attribute otherwise.
inline void printLocation(Location loc, raw_ostream &os) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
    return;
  }
  os << loc;
}

inline StringRef getSeverityName(DiagnosticSeverity severity) {
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

inline std::string formatDiagnostic(Diagnostic &diag) {
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

} // namespace mlir::lowp::capi

#endif // LOWP_CAPI_DIAGNOSTICTEXT_H
