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

/// An op that only moves bits (llvm.insertelement, llvm.extractelement,
/// llvm.intr.masked.load/store) on narrow floats -> the same op on their
/// integer twins: float operands bitcast in, float results bitcast out.
template <typename MoveOp>
struct MoveAsIntegers : OpRewritePattern<MoveOp> {
  using OpRewritePattern<MoveOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MoveOp op,
                                PatternRewriter &rewriter) const override {
    auto asInteger = [](Value v) { return narrowFloatAsInteger(v.getType()); };
    if (llvm::none_of(op->getOperands(), asInteger) &&
        llvm::none_of(op->getResults(), asInteger))
      return rewriter.notifyMatchFailure(op, "moves no narrow floats");
    Location loc = op.getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      Type bits = asInteger(operand);
      operands.push_back(
          bits ? LLVM::BitcastOp::create(rewriter, loc, bits, operand)
               : operand);
    }
    Operation *moved = rewriter.clone(*op.getOperation());
    rewriter.modifyOpInPlace(moved, [&] {
      moved->setOperands(operands);
      for (OpResult result : moved->getResults())
        if (Type bits = asInteger(result))
          result.setType(bits);
    });
    SmallVector<Value> results;
    for (auto [before, after] :
         llvm::zip_equal(op->getResults(), moved->getResults()))
      results.push_back(before.getType() == after.getType()
                            ? Value(after)
                            : LLVM::BitcastOp::create(rewriter, loc,
                                                      before.getType(), after)
                                  .getResult());
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A masked store of 8- or 16-bit lanes whose constant mask keeps one lane
/// -> that lane extracted and stored alone. LLVM 22's x86 backend reduces
/// such a store to a scalar one itself, and on AVX-512 hosts has been seen
/// to emit it 32 bits wide (`vmovd %xmm16`: the lane and the next element),
/// overwriting the element after a row's last column; a plain scalar store
/// of the lane is selected correctly.
struct SingleLaneMaskedStoreAsScalar : OpRewritePattern<LLVM::MaskedStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::MaskedStoreOp op,
                                PatternRewriter &rewriter) const override {
    auto vecType = dyn_cast<VectorType>(op.getValue().getType());
    if (!vecType || vecType.isScalable() ||
        vecType.getElementTypeBitWidth() > 16)
      return rewriter.notifyMatchFailure(op, "not 8- or 16-bit lanes");
    auto maskConst = op.getMask().getDefiningOp<LLVM::ConstantOp>();
    auto mask = maskConst ? dyn_cast<DenseIntElementsAttr>(maskConst.getValue())
                          : DenseIntElementsAttr();
    if (!mask)
      return rewriter.notifyMatchFailure(op, "mask is not a constant");
    int64_t lane = -1, kept = 0;
    for (auto [i, bit] : llvm::enumerate(mask.getValues<bool>()))
      if (bit) {
        lane = i;
        ++kept;
      }
    if (kept != 1)
      return rewriter.notifyMatchFailure(op, "mask keeps no lane or several");
    Location loc = op.getLoc();
    Type elem = vecType.getElementType();
    Value index = LLVM::ConstantOp::create(rewriter, loc,
                                           rewriter.getI64Type(), lane);
    Value value = LLVM::ExtractElementOp::create(rewriter, loc, op.getValue(),
                                                 index);
    Value ptr = LLVM::GEPOp::create(
        rewriter, loc, op.getData().getType(), elem, op.getData(),
        ArrayRef<LLVM::GEPArg>{LLVM::GEPArg(int32_t(lane))});
    LLVM::StoreOp::create(rewriter, loc, value, ptr,
                          vecType.getElementTypeBitWidth() / 8);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowpNarrowFloatMovesAsIntegersPass
    : lowp::impl::LowpNarrowFloatMovesAsIntegersBase<
          LowpNarrowFloatMovesAsIntegersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MoveAsIntegers<LLVM::MaskedStoreOp>,
                 MoveAsIntegers<LLVM::MaskedLoadOp>,
                 MoveAsIntegers<LLVM::InsertElementOp>,
                 MoveAsIntegers<LLVM::ExtractElementOp>,
                 SingleLaneMaskedStoreAsScalar>(&getContext());
    // Only the moves themselves (and what their rewrites create) are
    // visited: a greedy driver over the whole LLVM-dialect module folded
    // and revisited every op (3.4 s of EfficientNetV2-S's 22 s in fp-opt).
    SmallVector<Operation *> moves;
    getOperation()->walk([&](Operation *op) {
      if (isa<LLVM::MaskedStoreOp, LLVM::MaskedLoadOp, LLVM::InsertElementOp,
              LLVM::ExtractElementOp>(op))
        moves.push_back(op);
    });
    if (moves.empty())
      return;
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(moves, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
