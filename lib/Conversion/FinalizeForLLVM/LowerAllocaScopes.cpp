//===- LowerAllocaScopes.cpp - lowp-lower-alloca-scopes -------------------===//
//
// convert-scf-to-openmp wraps every parallel loop body in a
// memref.alloca_scope so that its allocas are freed per iteration. A scope
// that holds an alloca survives canonicalization, and once scf-to-cf splits
// the loops inside it into blocks it is no longer a valid (single-block)
// alloca_scope. Lowered here while it still has one block: the stack
// pointer saved before its inlined body and restored after it, which is
// what finalize-memref-to-llvm would emit for it.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPLOWERALLOCASCOPES
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct LowpLowerAllocaScopesPass
    : lowp::impl::LowpLowerAllocaScopesBase<LowpLowerAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    // Innermost first: an inner scope is inlined into its parent's block.
    getOperation()->walk<WalkOrder::PostOrder>(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    IRRewriter rw(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Location loc = scope.getLoc();
      rw.setInsertionPoint(scope);
      auto ptrType = LLVM::LLVMPointerType::get(&getContext());
      Value saved = LLVM::StackSaveOp::create(rw, loc, ptrType);
      // One block: the op's verifier holds it to that.
      Block *block = &scope.getBodyRegion().front();
      auto ret = cast<memref::AllocaScopeReturnOp>(block->getTerminator());
      SmallVector<Value> results(ret.getResults());
      rw.eraseOp(ret);
      rw.inlineBlockBefore(block, scope);
      LLVM::StackRestoreOp::create(rw, loc, saved);
      rw.replaceOp(scope, results);
    }
  }
};
} // namespace
