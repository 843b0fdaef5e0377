//===- fp-opt-lsp-server.cpp - MLIR's language server for fp-opt IR -------===//
//
// mlir-lsp-server with the dialects fp-opt parses: every upstream dialect
// and extension, plus lowp. Editors then get diagnostics, hover, go to
// definition and outlines for the IR that fp-opt reads and writes,
// lowp.island and lowp.cast included.
//
//===----------------------------------------------------------------------===//

#include "lowp/InitLowp.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

using namespace mlir;

int main(int argc, char **argv) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  lowp::registerLowpDialects(registry);
  return failed(MlirLspServerMain(argc, argv, registry));
}
