//===- ExpandFloatConversions.cpp - lowp-expand-float-conversions ---------===//

#include "lowp/IR/TargetResolution.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/Conversion/SoftFloat/SoftFloatConversions.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPEXPANDFLOATCONVERSIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {
/// Conversions left to the hardware lose their fast-math flags: they mean
/// nothing on a conversion, and MLIR 22's arith-to-LLVM lowering carries
/// them onto llvm.fpext/llvm.fptrunc as an attribute mlir-translate cannot
/// read (math-extend-to-supported-types sets `contract` on the extf/truncf
/// it creates).
template <typename ConversionOp>
struct DropConversionFastMath : OpRewritePattern<ConversionOp> {
  using OpRewritePattern<ConversionOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConversionOp op,
                                PatternRewriter &rewriter) const override {
    auto flags = op.getFastmathAttr();
    if (!flags || flags.getValue() == arith::FastMathFlags::none)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.removeFastmathAttr(); });
    return success();
  }
};

struct LowpExpandFloatConversionsPass
    : lowp::impl::LowpExpandFloatConversionsBase<
          LowpExpandFloatConversionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    // The option wins; else the nearest enclosing lowp.target.
    FailureOr<const TargetInfo *> resolved = resolveTarget(root, target);
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    auto shouldExpand = [info](FloatType type) {
      std::optional<Format> format = getFormat(type);
      if (!info)
        return !type.isF16();
      return !format || !info->hasNativeConversion(*format);
    };
    // No CPU converts f64 to 16 bits or fewer (LLVM calls the runtime).
    auto truncatesF64ThroughF32 = [info, shouldExpand](FloatType type) {
      return !info || info->cpu || shouldExpand(type);
    };
    RewritePatternSet patterns(&getContext());
    populateSoftFloatConversionPatterns(patterns, shouldExpand,
                                        truncatesF64ThroughF32);
    patterns.add<DropConversionFastMath<arith::ExtFOp>,
                 DropConversionFastMath<arith::TruncFOp>>(&getContext());
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
