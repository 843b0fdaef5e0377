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
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
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

/// MlirOptMain, except that a run in which some pass reported an error but
/// did not fail (some upstream passes report and carry on) fails too: an
/// error diagnostic on a successful run would let a build script take
/// half-lowered output. With -verify-diagnostics the errors are expected.
static LogicalResult runOptimizer(int argc, char **argv,
                                  StringRef inputFilename,
                                  StringRef outputFilename,
                                  DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(argc, argv, inputFilename, outputFilename, registry);

  // Errors reported while passes run, over every -split-input-file chunk.
  auto passErrors = std::make_shared<unsigned>(0);
  auto passPipeline = std::make_shared<MlirOptMainConfig>(config);
  config.setPassPipelineSetupFn([passPipeline, passErrors](PassManager &pm) {
    pm.getContext()->getDiagEngine().registerHandler(
        [passErrors](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            ++*passErrors;
          return failure(); // still printed by the driver's handler
        });
    return passPipeline->setupPassPipeline(pm);
  });

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &message);
  if (!input) {
    llvm::errs() << message << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << message << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  if (*passErrors && !config.shouldVerifyDiagnostics()) {
    llvm::errs() << "fp-opt: error: " << *passErrors
                 << " error(s) reported by passes that did not fail; the "
                    "output is not trustworthy\n";
    return failure();
  }
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
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
      runOptimizer(argc, argv, inputFilename, outputFilename, registry));
}
