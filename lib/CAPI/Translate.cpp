//===- Translate.cpp - C API: LLVM dialect to LLVM bitcode ----------------===//

#include "lowp-c/Translate.h"

#include "DiagnosticText.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Hands what is written to the C callback, buffer by buffer.
class CallbackOstream : public llvm::raw_ostream {
public:
  CallbackOstream(MlirStringCallback callback, void *userData)
      : callback(callback), userData(userData) {
    SetBufferSize(1 << 20);
  }
  ~CallbackOstream() override { flush(); }

private:
  void write_impl(const char *ptr, size_t size) override {
    callback(mlirStringRefCreate(ptr, size), userData);
    written += size;
  }
  uint64_t current_pos() const override { return written; }

  MlirStringCallback callback;
  void *userData;
  uint64_t written = 0;
};
} // namespace

MlirLogicalResult mlirLowpTranslateModuleToLLVMBitcode(
    MlirModule module, MlirStringCallback bitcodeCallback, void *userData,
    MlirStringCallback diagnosticCallback, void *diagnosticUserData) {
  ModuleOp moduleOp = unwrap(module);
  MLIRContext *context = moduleOp.getContext();
  DialectRegistry translations;
  registerAllToLLVMIRTranslations(translations);
  context->appendDialectRegistry(translations);

  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diagnosticCallback)
      diagnosticCallback(wrap(lowp::capi::formatDiagnostic(diag)),
                         diagnosticUserData);
    return success();
  });
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(
      moduleOp, llvmContext, "LLVMDialectModule", /*disableVerification=*/true);
  if (!llvmModule)
    return mlirLogicalResultFailure();
  // LLVM's verifier writes to stderr; its findings become the diagnostic.
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*llvmModule, &problemStream)) {
    emitError(moduleOp.getLoc())
        << "the module translated to LLVM IR does not verify:\n"
        << StringRef(problems).trim();
    return mlirLogicalResultFailure();
  }
  CallbackOstream os(bitcodeCallback, userData);
  llvm::WriteBitcodeToFile(*llvmModule, os);
  return mlirLogicalResultSuccess();
}
