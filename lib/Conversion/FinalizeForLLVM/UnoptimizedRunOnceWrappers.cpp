//===- UnoptimizedRunOnceWrappers.cpp - lowp-unoptimized-run-once-wrappers ===//
//
// The C interface wrapper of a function that runs once (F_prepack) only
// moves descriptors; llc -O3 would spend seconds scheduling that move.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPUNOPTIMIZEDRUNONCEWRAPPERS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct UnoptimizedRunOnceWrappersPass
    : lowp::impl::LowpUnoptimizedRunOnceWrappersBase<
          UnoptimizedRunOnceWrappersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef runsOnce = lowp::LowpDialect::RunsOnceAttrHelper::getNameStr();
    SymbolTable symbols(module);
    SmallVector<LLVM::LLVMFuncOp> marked;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(runsOnce))
        marked.push_back(func);
    Builder b(module.getContext());
    for (LLVM::LLVMFuncOp func : marked) {
      func->removeAttr(runsOnce);
      auto wrapper = symbols.lookup<LLVM::LLVMFuncOp>(
          ("_mlir_ciface_" + func.getName()).str());
      if (!wrapper || wrapper.isExternal())
        continue;
      wrapper.setPassthroughAttr(
          b.getArrayAttr({b.getStringAttr("noinline"),
                          b.getStringAttr("optnone")}));
    }
  }
};
} // namespace
