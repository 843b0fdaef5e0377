//===- NarrowFloatMovesAsIntegers.cpp - lowp-narrow-float-moves-as-integers ===//
//
// A masked load or store, an element insert or extract only moves bits; on
// integers of the same width it moves the same ones. LLVM legalizes every
// scalar bf16 lane on AVX2 through f32 (fpext, then __truncsfbf2 to put it
// back); integer lanes need neither.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPNARROWFLOATMOVESASINTEGERS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {

/// The integer type of `type`'s shape (a vector or a scalar) when its
/// elements are floats of at most 16 bits, else null.
Type narrowFloatAsInteger(Type type) {
  auto elem = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!elem || elem.getWidth() > 16)
    return nullptr;
  auto asInt = IntegerType::get(type.getContext(), elem.getWidth());
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.clone(asInt);
  return asInt;
}

/// llvm.insertelement into a narrow float vector -> into its integer twin.
struct InsertElementAsIntegers : OpRewritePattern<LLVM::InsertElementOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::InsertElementOp op,
                                PatternRewriter &rewriter) const override {
    Type asInt = narrowFloatAsInteger(op.getType());
    if (!asInt)
      return rewriter.notifyMatchFailure(op, "not a narrow float vector");
    Location loc = op.getLoc();
    Value vec = LLVM::BitcastOp::create(rewriter, loc, asInt, op.getVector());
    Value elem = LLVM::BitcastOp::create(
        rewriter, loc, narrowFloatAsInteger(op.getValue().getType()),
        op.getValue());
    Value ins = LLVM::InsertElementOp::create(rewriter, loc, vec, elem,
                                              op.getPosition());
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(), ins);
    return success();
  }
};

/// llvm.extractelement from a narrow float vector -> from its integer twin.
struct ExtractElementAsIntegers : OpRewritePattern<LLVM::ExtractElementOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::ExtractElementOp op,
                                PatternRewriter &rewriter) const override {
    Type asInt = narrowFloatAsInteger(op.getVector().getType());
    if (!asInt)
      return rewriter.notifyMatchFailure(op, "not a narrow float vector");
    Location loc = op.getLoc();
    Value vec = LLVM::BitcastOp::create(rewriter, loc, asInt, op.getVector());
    Value ext =
        LLVM::ExtractElementOp::create(rewriter, loc, vec, op.getPosition());
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(), ext);
    return success();
  }
};

/// llvm.intr.masked.store of narrow floats -> of integers.
struct MaskedStoreAsIntegers : OpRewritePattern<LLVM::MaskedStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::MaskedStoreOp op,
                                PatternRewriter &rewriter) const override {
    Type asInt = narrowFloatAsInteger(op.getValue().getType());
    if (!asInt)
      return rewriter.notifyMatchFailure(op, "not a narrow float vector");
    Value bits =
        LLVM::BitcastOp::create(rewriter, op.getLoc(), asInt, op.getValue());
    rewriter.modifyOpInPlace(op, [&] { op.getValueMutable().assign(bits); });
    return success();
  }
};

/// llvm.intr.masked.load of narrow floats -> of integers (the pass-through
/// value bitcast too), bitcast back.
struct MaskedLoadAsIntegers : OpRewritePattern<LLVM::MaskedLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::MaskedLoadOp op,
                                PatternRewriter &rewriter) const override {
    Type asInt = narrowFloatAsInteger(op.getType());
    if (!asInt)
      return rewriter.notifyMatchFailure(op, "not a narrow float vector");
    Location loc = op.getLoc();
    Value passThru = op.getPassThru();
    if (passThru)
      passThru = LLVM::BitcastOp::create(rewriter, loc, asInt, passThru);
    auto load = LLVM::MaskedLoadOp::create(
        rewriter, loc, asInt, op.getData(), op.getMask(), passThru,
        op.getAlignmentAttr(), op.getNontemporalAttr());
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(),
                                                 load.getResult());
    return success();
  }
};

struct LowpNarrowFloatMovesAsIntegersPass
    : lowp::impl::LowpNarrowFloatMovesAsIntegersBase<
          LowpNarrowFloatMovesAsIntegersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MaskedStoreAsIntegers, MaskedLoadAsIntegers,
                 InsertElementAsIntegers, ExtractElementAsIntegers>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
