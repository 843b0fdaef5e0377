//===- UnoptimizedRunOnceWrappers.cpp - lowp-unoptimized-run-once-wrappers ===//
//
// The C interface wrapper of a function that runs once (F_prepack) only
// moves descriptors, and so does the function once its loops are outlined;
// llc -O3 would spend seconds scheduling those moves.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPUNOPTIMIZEDRUNONCEWRAPPERS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

/// Whether a branch of `func` goes back to a block that dominates it.
static bool hasLoop(LLVM::LLVMFuncOp func) {
  DominanceInfo dominance(func);
  for (Block &block : func.getBody())
    for (Block *successor : block.getSuccessors())
      if (dominance.dominates(successor, &block))
        return true;
  return false;
}

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
    ArrayAttr unoptimized = b.getArrayAttr(
        {b.getStringAttr("noinline"), b.getStringAttr("optnone")});
    for (LLVM::LLVMFuncOp func : marked) {
      func->removeAttr(runsOnce);
      // Its loops outlined (lowp-outline-repeated-loops), what is left
      // allocates, calls and returns: no optimization needed either.
      if (!func.isExternal() && !hasLoop(func))
        func.setPassthroughAttr(unoptimized);
      auto wrapper = symbols.lookup<LLVM::LLVMFuncOp>(
          ("_mlir_ciface_" + func.getName()).str());
      if (wrapper && !wrapper.isExternal())
        wrapper.setPassthroughAttr(unoptimized);
    }
  }
};
} // namespace
