//===- LowerStridedLinalgToLoops.cpp - lowp-lower-strided-linalg-to-loops -===//
//
// Keeps strided linalg ops away from affine-super-vectorize, which in
// MLIR 22 vectorizes an access like x[2 * i + k] along i as if it were
// contiguous (llvm/llvm-project#196973): they become scf loops, which that
// pass does not look at. So do ops with a dynamic size that is no affine
// symbol (a buffer defined inside a loop body, e.g. an scf.for iter_arg):
// convert-linalg-to-affine-loops would bound an affine.for by it. And so do
// ops on strided views that no x86 pattern took (those with a contiguous
// innermost dimension - a fused QKV projection split by extract_slice, then
// transposed per head - become vector loops in lowp-x86-lower-contractions
// first): affine-super-vectorize reports an error on any memref with a
// non-identity layout and leaves the loop scalar anyway.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPLOWERSTRIDEDLINALGTOLOOPS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// True when `expr` moves by exactly one element per step of every loop
/// dimension it uses: a sum of dimensions, symbols and constants.
bool hasUnitDimSteps(AffineExpr expr) {
  switch (expr.getKind()) {
  case AffineExprKind::DimId:
  case AffineExprKind::SymbolId:
  case AffineExprKind::Constant:
    return true;
  case AffineExprKind::Add: {
    auto sum = cast<AffineBinaryOpExpr>(expr);
    return hasUnitDimSteps(sum.getLHS()) && hasUnitDimSteps(sum.getRHS());
  }
  case AffineExprKind::Mul: {
    // A product without dimensions is loop invariant; d * c moves by c (the
    // simplified form keeps a constant factor on the right).
    auto product = cast<AffineBinaryOpExpr>(expr);
    if (product.isSymbolicOrConstant())
      return true;
    auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
    return factor && factor.getValue() == 1 &&
           hasUnitDimSteps(product.getLHS());
  }
  case AffineExprKind::Mod:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    return expr.isSymbolicOrConstant();
  }
  llvm_unreachable("unknown affine expression kind");
}

/// True when a loop bound of `op` would be the size of a buffer that is not
/// defined at the top level of an affine scope: `memref.dim` of it is no
/// valid affine symbol, so affine loops cannot be bounded by it.
bool hasNonAffineBounds(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperands(), [](Value operand) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    return type && !type.hasStaticShape() && !affine::isTopLevelValue(operand);
  });
}

/// The first memref operand with a non-identity layout (a strided view), or
/// -1.
int firstStridedViewOperand(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands())
    if (auto type = dyn_cast<MemRefType>(operand.get().getType()))
      if (!type.getLayout().isIdentity())
        return operand.getOperandNumber();
  return -1;
}

struct LowerStridedLinalgOp : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not bufferized");
    bool strided = llvm::any_of(op.getIndexingMapsArray(), [](AffineMap map) {
      return !llvm::all_of(map.getResults(), hasUnitDimSteps);
    });
    int view = firstStridedViewOperand(op);
    if (!strided && !hasNonAffineBounds(op) && view < 0)
      return rewriter.notifyMatchFailure(
          op, "unit-stride accesses, identity layouts and affine bounds only");
    if (view >= 0)
      lowp::emitRemarkAt(op)
          << "slow path: scalar loops, operand #" << view
          << " is a strided view (" << op->getOperand(view).getType()
          << ") the vectorizer cannot read, in '" << op->getName() << "'";
    else if (strided)
      lowp::emitRemarkAt(op)
          << "slow path: scalar loops, an access with a non-unit step (a "
             "stride, a dilation, floordiv or mod) the vectorizer would read "
             "as contiguous, in '"
          << op->getName() << "'";
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "no loop lowering");
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowpLowerStridedLinalgToLoopsPass
    : lowp::impl::LowpLowerStridedLinalgToLoopsBase<
          LowpLowerStridedLinalgToLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerStridedLinalgOp>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
