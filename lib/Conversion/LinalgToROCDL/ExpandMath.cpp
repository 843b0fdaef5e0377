//===- ExpandMath.cpp - lowp-rocdl-expand-math ----------------------------===//
//
// Math ops in AMDGPU kernels without the ROCm device library (ocml): LLVM's
// AMDGPU backend expands llvm.exp/log/sqrt/ceil/... itself, but
// convert-gpu-to-rocdl takes llvm.sin/cos/log2/log10/floor and the functions
// with no LLVM intrinsic (erf, erfc, atan, asin, acos, cbrt) to __ocml_*
// calls that only link with the device library. This pass rewrites those on
// f32 (f16/bf16 through f32) into upstream MLIR's polynomial approximations
// (arith and math.fma only, the ones lowp-approximate-math uses on x86; tan
// through sin / cos), floor(x) into -ceil(-x) (any width: exact) and log10
// into log. f64 transcendentals have no such expansion here (the f32
// polynomials would silently lose precision) and the backend none either:
// inside a gpu.module they are rejected with one located error naming the
// op, instead of a legalization failure deep in convert-gpu-to-rocdl or a
// missing-bitcode error at serialization.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPROCDLEXPANDMATH
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// The ops convert-gpu-to-rocdl sends to ocml, with an upstream polynomial
/// approximation (f32).
constexpr StringLiteral kApproximated[] = {"sin",  "cos",  "atan", "atan2",
                                           "asin", "acos", "cbrt", "erf",
                                           "erfc", "log2"};

/// f32 and narrower (f64 math needs the device library either way).
bool isAtMost32Bit(Type type) {
  auto elem = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return elem && elem.getWidth() <= 32;
}

/// The math ops on f64 that reach AMDGCN without the device library:
/// sign and rounding bit operations, fma, sqrt/rsqrt (the backend expands
/// llvm.sqrt.f64), ceil (math-expand-ops, exact), floor (through ceil),
/// the classification predicates and fpowi by a constant (math-expand-ops'
/// multiplications). Every other f64 math op becomes an __ocml_*_f64 call
/// or an LLVM intrinsic that convert-gpu-to-rocdl only lowers to one.
bool f64LowersWithoutDeviceLibrary(Operation *op) {
  if (auto powi = dyn_cast<math::FPowIOp>(op))
    return matchPattern(powi.getRhs(), m_Constant());
  return isa<math::AbsFOp, math::CeilOp, math::ClampFOp, math::CopySignOp,
             math::FloorOp, math::FmaOp, math::IsFiniteOp, math::IsInfOp,
             math::IsNaNOp, math::IsNormalOp, math::RoundEvenOp,
             math::RoundOp, math::RsqrtOp, math::SqrtOp, math::TruncOp>(op);
}

bool hasF64Operand(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    return getElementTypeOrSelf(type).isF64();
  });
}

/// Ops that only the device library implements in a kernel: f64 math
/// other than the above, and arith.remf of any width (__ocml_fmod_*: no
/// AMDGCN instruction, and x - trunc(x / y) * y is not exact).
bool needsDeviceLibrary(Operation *op) {
  if (isa<arith::RemFOp>(op))
    return true;
  return isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
         hasF64Operand(op) && !f64LowersWithoutDeviceLibrary(op);
}

/// floor(x) = -ceil(-x), exactly (signed zeros, infinities and NaN
/// included); math.ceil is expanded by math-expand-ops.
struct FloorThroughCeil : OpRewritePattern<math::FloorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FloorOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value neg = arith::NegFOp::create(rewriter, loc, op.getOperand());
    Value ceil = math::CeilOp::create(rewriter, loc, neg);
    rewriter.replaceOpWithNewOp<arith::NegFOp>(op, ceil);
    return success();
  }
};

/// log10(x) = log(x) * (1 / ln 10): llvm.log is the backend's own.
struct Log10ThroughLog : OpRewritePattern<math::Log10Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Log10Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isAtMost32Bit(type))
      return failure();
    auto elem = cast<FloatType>(getElementTypeOrSelf(type));
    Location loc = op.getLoc();
    TypedAttr scale = rewriter.getFloatAttr(elem, 1.0 / llvm::numbers::ln10);
    if (auto shaped = dyn_cast<ShapedType>(type))
      scale = SplatElementsAttr::get(shaped, scale);
    Value c = arith::ConstantOp::create(rewriter, loc, scale);
    Value log = math::LogOp::create(rewriter, loc, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, log, c);
    return success();
  }
};

struct LowpROCDLExpandMathPass
    : lowp::impl::LowpROCDLExpandMathBase<LowpROCDLExpandMathPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    auto isSelected = [](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained(kApproximated, name);
    };
    populateMathF32ExpansionPatterns(patterns, isSelected);
    populateMathPolynomialApproximationPatterns(patterns, isSelected);
    // tan as sin / cos, which are then approximated.
    math::populateExpansionPatterns(patterns, {"tan"});
    patterns.add<FloorThroughCeil, Log10ThroughLog>(context);
    frozen = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (failed(rejectF64NeedingDeviceLibrary()))
      return signalPassFailure();
    // Only the math ops named above and what their rewrites create.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::FloorOp, math::Log10Op, math::TanOp>(op) ||
          (isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
           llvm::is_contained(kApproximated, op->getName().stripDialect())))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, frozen, config)))
      signalPassFailure();
  }

  /// One error, on the first f64 op in a kernel module that only the
  /// device library implements (notes point at the others). Outside
  /// gpu.modules (host code, or this pass's CPU accuracy test) f64 math is
  /// left alone.
  LogicalResult rejectF64NeedingDeviceLibrary() {
    SmallVector<Operation *> unsupported;
    getOperation()->walk([&](Operation *op) {
      if (needsDeviceLibrary(op) && op->getParentOfType<gpu::GPUModuleOp>())
        unsupported.push_back(op);
    });
    if (unsupported.empty())
      return success();
    Operation *first = unsupported.front();
    Type type = getElementTypeOrSelf(first->getOperand(0).getType());
    InFlightDiagnostic diag =
        first->emitError()
        << "'" << first->getName() << "' on " << type
        << " in an AMDGPU kernel needs the ROCm device library (ocml): "
           "AMDGCN has no instruction for it and lowp-rocdl-expand-math no "
           "exact expansion; give lowp-pipeline-rocdl rocm-path=<ROCm "
           "installation>";
    if (type.isF64() && !isa<arith::RemFOp>(first))
      diag << ", or compute it in f32";
    for (Operation *other : llvm::drop_begin(unsupported))
      diag.attachNote(other->getLoc())
          << "'" << other->getName() << "' here needs it as well";
    return failure();
  }

  FrozenRewritePatternSet frozen;
};
} // namespace
