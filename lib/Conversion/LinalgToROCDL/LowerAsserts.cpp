//===- LowerAsserts.cpp - lowp-rocdl-lower-asserts ------------------------===//
//
// cf.assert inside AMDGPU kernels as a conditional trap. Upstream's
// cf-to-LLVM assert lowering prints the message through a global created
// in the enclosing builtin.module, outside the gpu.module that references
// it; AMDGPU has no __assertfail. The trap ends the kernel exactly when
// the check fails.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPROCDLLOWERASSERTS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// cf.assert %c, "msg" -> scf.if (%c xor true) { llvm.intr.trap }: an
/// scf.if, not a branch, so that an assert inside a single-block region (a
/// loop body) stays valid.
struct AssertToTrap : OpRewritePattern<cf::AssertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(cf::AssertOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value isTrue = arith::ConstantIntOp::create(rw, loc, 1, 1);
    Value failed = arith::XOrIOp::create(rw, loc, op.getArg(), isTrue);
    scf::IfOp::create(rw, loc, failed, [&](OpBuilder &b, Location bodyLoc) {
      LLVM::Trap::create(b, bodyLoc);
      scf::YieldOp::create(b, bodyLoc);
    });
    rw.eraseOp(op);
    return success();
  }
};

struct LowpROCDLLowerAssertsPass
    : lowp::impl::LowpROCDLLowerAssertsBase<LowpROCDLLowerAssertsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AssertToTrap>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
