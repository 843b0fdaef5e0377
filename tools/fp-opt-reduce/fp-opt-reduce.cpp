//===- fp-opt-reduce.cpp - mlir-reduce with fp-opt's passes ---------------===//
//
// Shrinks an input on which fp-opt misbehaves to a small reproducer:
// mlir-reduce's reduction tree (and opt-reduction-pass with any pass
// pipeline) over IR of every upstream dialect plus lowp, with fp-opt's
// passes and pipelines available to the reductions and to
// opt-reduction-pass. The interestingness test is a script that exits 1
// while the reduced input still shows the problem.
//
//===----------------------------------------------------------------------===//

#include "lowp/InitLowp.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

using namespace mlir;

int main(int argc, char **argv) {
  registerAllPasses();
  lowp::registerLowpPassesAndPipelines();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  lowp::registerLowpDialects(registry);
  MLIRContext context(registry);
  return failed(mlirReduceMain(argc, argv, context));
}
