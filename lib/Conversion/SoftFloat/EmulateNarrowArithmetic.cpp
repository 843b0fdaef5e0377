//===- EmulateNarrowArithmetic.cpp - lowp-emulate-narrow-arithmetic -------===//
//
// Upstream's emulation of unsupported float arithmetic, with the rounding
// after every op kept: its casts are marked `contract`, which lets the
// canonicalizer fold extf(truncf(x)) and compute a whole chain in f32.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPEMULATENARROWARITHMETIC
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {

struct LowpEmulateNarrowArithmeticPass
    : lowp::impl::LowpEmulateNarrowArithmeticBase<
          LowpEmulateNarrowArithmeticPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Operation *root = getOperation();
    SmallVector<Type> sourceTypes;
    for (const std::string &name : formats) {
      std::optional<lowp::Format> format = lowp::symbolizeFormat(name);
      if (!format || *format == lowp::Format::F32) {
        root->emitError() << "lowp-emulate-narrow-arithmetic: formats= takes "
                             "narrow float types (f16, bf16, f8E4M3FN, ...), "
                             "got '"
                          << name << "'";
        return signalPassFailure();
      }
      sourceTypes.push_back(lowp::getFloatType(ctx, *format));
    }
    // The casts that were in the input keep their flags.
    llvm::DenseSet<Operation *> existingCasts;
    if (!excessPrecision)
      root->walk([&](Operation *op) {
        if (isa<arith::ExtFOp, arith::TruncFOp>(op))
          existingCasts.insert(op);
      });

    Type f32 = Float32Type::get(ctx);
    if (!sourceTypes.empty()) {
      TypeConverter converter;
      arith::populateEmulateUnsupportedFloatsConversions(converter,
                                                         sourceTypes, f32);
      RewritePatternSet patterns(ctx);
      arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
      ConversionTarget target(*ctx);
      arith::populateEmulateUnsupportedFloatsLegality(target, converter);
      if (failed(applyPartialConversion(root, target, std::move(patterns))))
        return signalPassFailure();
    }
    // Math functions have f32/f64 implementations only (libm, the
    // polynomials of lowp-approximate-math): narrower operands of any format
    // are computed in f32 (math-extend-to-supported-types).
    {
      // The types math is computed in; the converter keeps a reference.
      SetVector<Type> mathTypes;
      mathTypes.insert(f32);
      mathTypes.insert(Float64Type::get(ctx));
      TypeConverter converter;
      math::populateExtendToSupportedTypesTypeConverter(converter, mathTypes,
                                                        f32);
      RewritePatternSet patterns(ctx);
      math::populateExtendToSupportedTypesPatterns(patterns, converter);
      ConversionTarget target(*ctx);
      math::populateExtendToSupportedTypesConversionTarget(target, converter);
      if (failed(applyPartialConversion(root, target, std::move(patterns))))
        return signalPassFailure();
    }
    if (excessPrecision)
      return;

    // Without `contract` on both casts, extf(truncf(x)) does not fold: every
    // op's result is rounded to its format, as the IR states.
    auto dropContract = [](auto cast) {
      arith::FastMathFlagsAttr attr = cast.getFastmathAttr();
      if (!attr || !arith::bitEnumContainsAny(attr.getValue(),
                                              arith::FastMathFlags::contract))
        return;
      arith::FastMathFlags rest =
          attr.getValue() & ~arith::FastMathFlags::contract;
      if (rest == arith::FastMathFlags::none)
        cast.removeFastmathAttr();
      else
        cast.setFastmath(rest);
    };
    root->walk([&](Operation *op) {
      if (existingCasts.contains(op))
        return;
      if (auto ext = dyn_cast<arith::ExtFOp>(op))
        dropContract(ext);
      else if (auto trunc = dyn_cast<arith::TruncFOp>(op))
        dropContract(trunc);
    });
  }
};

} // namespace
