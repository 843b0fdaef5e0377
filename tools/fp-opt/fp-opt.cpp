//===- fp-opt.cpp - the fp-opt driver -------------------------------------===//
//
// mlir-opt with every upstream dialect, extension and pass registered, plus
// the lowp dialect, its passes and its named pipelines. Users bring IR from
// any front end, so fp-opt parses whatever upstream mlir-opt parses.
//
//===----------------------------------------------------------------------===//

#include "lowp/Formats/FloatFormats.h"
#include "lowp/InitLowp.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::OptionCategory fpOptCategory("fp-opt tables");

static llvm::cl::opt<bool> printFormatTable(
    "print-format-table",
    llvm::cl::desc("Print the numeric facts of every float format and exit"),
    llvm::cl::cat(fpOptCategory));

static llvm::cl::opt<bool> printTargetTable(
    "print-target-table",
    llvm::cl::desc("Print the hardware capability table and exit"),
    llvm::cl::cat(fpOptCategory));

static llvm::cl::opt<bool>
    printJson("json", llvm::cl::desc("Print tables as JSON instead of text"),
              llvm::cl::cat(fpOptCategory));

int main(int argc, char **argv) {
  registerAllPasses();
  lowp::registerLowpPassesAndPipelines();

  DialectRegistry registry;
  registerAllDialects(registry);
  // Without the extensions convert-to-llvm silently leaves ops unconverted.
  registerAllExtensions(registry);
  // gpu-module-to-binary (lowp-pipeline-nvvm/-rocdl) translates gpu.module
  // contents to LLVM IR inside the pass.
  registerAllGPUToLLVMIRTranslations(registry);
  lowp::registerLowpDialects(registry);

  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "fp-opt " << FPOPT_VERSION << " (lowp dialect), built against MLIR "
       << LLVM_VERSION_STRING << "\n";
  });

  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "fp-opt: the fp-opt optimizer "
                                             "driver\n", registry);
  if (printFormatTable || printTargetTable) {
    if (printFormatTable) {
      MLIRContext context;
      lowp::printFloatFormatTable(&context, llvm::outs(), printJson);
    }
    if (printTargetTable)
      lowp::printTargetTable(llvm::outs(), printJson);
    return 0;
  }
  return asMainReturnCode(
      MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
