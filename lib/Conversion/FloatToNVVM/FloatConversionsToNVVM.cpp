//===- FloatConversionsToNVVM.cpp - lowp-convert-fp8-to-nvvm --------------===//
//
// f32 <-> FP8 conversions inside GPU kernels become the NVVM conversion ops
// (cvt.rn.satfinite.e4m3x2.f32, cvt.rn.f16x2.e4m3x2, ...) on chips whose
// capability-table row has FP8 conversions; anywhere else they are reported
// with their location. MLIR 22 lowers neither to NVVM: an FP8 arith.truncf
// or arith.extf inside a gpu.module fails translation.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPCONVERTFP8TONVVM
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {
/// The FP8 formats NVIDIA hardware converts (the OCP encodings).
bool isNvidiaFP8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// True when `value` is already clamped into [-max, max] of `dst` by
/// minimumf/maximumf (or minnumf/maxnumf) with constant bounds, as
/// `lowp.cast ... saturate` lowers: the saturating hardware conversion then
/// rounds exactly as arith.truncf does.
bool isClampedToFinite(Value value, FloatType dst) {
  APFloat max = APFloat::getLargest(dst.getFloatSemantics());
  bool lossy;
  max.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lossy);
  bool upper = false, lower = false;
  for (int depth = 0; depth < 2; ++depth) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumOperands() != 2)
      return false;
    // The bound is either operand (min/max commute).
    FloatAttr bound;
    unsigned boundIndex = 1;
    if (!matchPattern(def->getOperand(1), m_Constant(&bound))) {
      boundIndex = 0;
      if (!matchPattern(def->getOperand(0), m_Constant(&bound)))
        return false;
    }
    // Compared in f32 (the source may be f16; widening is exact).
    APFloat b = bound.getValue();
    b.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lossy);
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(def)) {
      APFloat::cmpResult c = b.compare(max);
      upper |= c == APFloat::cmpLessThan || c == APFloat::cmpEqual;
    } else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
      APFloat::cmpResult c = b.compare(-max);
      lower |= c == APFloat::cmpGreaterThan || c == APFloat::cmpEqual;
    } else {
      return false;
    }
    value = def->getOperand(1 - boundIndex);
  }
  return upper && lower;
}

/// f32 (or f16) -> E4M3FN/E5M2 through `nvvm.convert.f32x2.to.f8x2`
/// (cvt.rn.satfinite), the value in the low byte. The instruction only
/// saturates; a plain truncf gets the format's overflow result (inf for
/// E5M2, NaN for E4M3FN, as APFloat) where |x| rounds beyond the largest
/// finite value.
struct TruncFToNVVM : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto dst = dyn_cast<FloatType>(op.getType());
    if (!dst || !isNvidiaFP8(dst))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getIn();
    if (x.getType().isF16())
      x = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), x);
    Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type();
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        rewriter, loc, i16, /*a=*/zero, /*b=*/x, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, dst);
    Value byte = arith::TruncIOp::create(rewriter, loc, i8, packed);
    if (!isClampedToFinite(op.getIn(), dst))
      byte = selectOverflow(rewriter, loc, x, byte, dst);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, dst, byte);
    return success();
  }

  /// `byte` where x is finite in `dst`, else the format's overflow pattern
  /// with the sign of `byte` (the saturated result keeps x's sign).
  static Value selectOverflow(PatternRewriter &b, Location loc, Value x,
                              Value byte, FloatType dst) {
    const llvm::fltSemantics &sem = dst.getFloatSemantics();
    // The smallest f32 magnitude that rounds past the largest finite value:
    // half an ulp above it, itself included when the tie rounds up.
    APFloat max = APFloat::getLargest(sem);
    int halfUlpExp =
        ilogb(max) - static_cast<int>(APFloat::semanticsPrecision(sem));
    APFloat limit = max;
    bool lossy;
    limit.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lossy);
    limit.add(scalbn(APFloat(1.0f), halfUlpExp, APFloat::rmNearestTiesToEven),
              APFloat::rmNearestTiesToEven);
    APFloat tie = limit;
    tie.convert(sem, APFloat::rmNearestTiesToEven, &lossy);
    bool tieOverflows = !tie.isFinite();
    APFloat overflow = APFloat::semanticsHasInf(sem) ? APFloat::getInf(sem)
                                                     : APFloat::getNaN(sem);
    uint64_t overflowBits = overflow.bitcastToAPInt().getZExtValue() & 0x7f;

    Type f32 = b.getF32Type(), i8 = b.getI8Type();
    auto cst = [&](APFloat v) {
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, v));
    };
    auto above =
        tieOverflows ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT;
    auto below =
        tieOverflows ? arith::CmpFPredicate::OLE : arith::CmpFPredicate::OLT;
    Value hi = arith::CmpFOp::create(b, loc, above, x, cst(limit));
    Value lo = arith::CmpFOp::create(b, loc, below, x, cst(-limit));
    Value isOverflow = arith::OrIOp::create(b, loc, hi, lo);
    auto i8cst = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, v));
    };
    Value sign = arith::AndIOp::create(b, loc, byte, i8cst(0x80));
    Value special = arith::OrIOp::create(b, loc, sign, i8cst(overflowBits));
    return arith::SelectOp::create(b, loc, isOverflow, special, byte);
  }
};

/// E4M3FN/E5M2 -> f16 (-> f32) through `nvvm.convert.f8x2.to.f16x2`
/// (cvt.rn.f16x2.e4m3x2), the value in the low byte; f16 -> f32 is exact.
struct ExtFToNVVM : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type src = op.getIn().getType();
    if (!isNvidiaFP8(src))
      return failure();
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type();
    Value byte = arith::BitcastOp::create(rewriter, loc, i8, op.getIn());
    Value wide = arith::ExtUIOp::create(rewriter, loc, i16, byte);
    Value pair =
        LLVM::BitcastOp::create(rewriter, loc, VectorType::get({2}, i8), wide);
    auto f16x2 = VectorType::get({2}, rewriter.getF16Type());
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        rewriter, loc, f16x2, pair, /*relu=*/false, src);
    Value index =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    Value half = LLVM::ExtractElementOp::create(rewriter, loc, halves, index);
    if (op.getType().isF16())
      rewriter.replaceOp(op, half);
    else
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), half);
    return success();
  }
};

/// The FP8 side of an FP8 conversion, if any.
FloatType getFP8Side(Operation *op) {
  for (Type t : {op->getOperand(0).getType(), op->getResult(0).getType()}) {
    auto ft = dyn_cast<FloatType>(getElementTypeOrSelf(t));
    if (ft && ft.getWidth() == 8)
      return ft;
  }
  return {};
}

/// Where to report a problem with `op`: its own location, else (the body of
/// a named linalg op is built without one) the nearest ancestor's.
InFlightDiagnostic emitConversionError(Operation *op) {
  Operation *located = op;
  while (isa<UnknownLoc>(located->getLoc()) && located->getParentOp())
    located = located->getParentOp();
  InFlightDiagnostic diag = mlir::emitError(located->getLoc());
  diag << "'" << op->getName() << "' op ";
  return diag;
}

struct LowpConvertFP8ToNVVMPass
    : lowp::impl::LowpConvertFP8ToNVVMBase<LowpConvertFP8ToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(
        root, selectTargetOption(getArgument(), target, "chip", deprecatedChip));
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    if (!info) {
      root->emitError("no NVIDIA chip: set target=sm_XX or a lowp.target");
      return signalPassFailure();
    }
    if (info->vendor != Vendor::NVIDIA) {
      root->emitError() << "'" << info->name
                        << "' is not an NVIDIA chip (NVVM targets: sm_XX)";
      return signalPassFailure();
    }
    // Every FP8 conversion must have a lowering before anything changes.
    WalkResult checked = root->walk([&](Operation *op) {
      if (!isa<arith::TruncFOp, arith::ExtFOp>(op))
        return WalkResult::advance();
      FloatType fp8 = getFP8Side(op);
      if (!fp8)
        return WalkResult::advance();
      if (!isNvidiaFP8(fp8)) {
        emitConversionError(op) << "converts " << fp8
                                << ", which NVIDIA hardware has no encoding of "
                                   "(decide FP8 formats for this chip: "
                                   "E4M3FN/E5M2)";
        return WalkResult::interrupt();
      }
      std::optional<Format> format = getFormat(fp8);
      if (!format || !info->hasNativeConversion(*format)) {
        emitConversionError(op) << "converts " << fp8 << ", but " << info->name
                                << " has no FP8 conversion instructions (FP8 "
                                   "needs sm_89 or later)";
        return WalkResult::interrupt();
      }
      Type other = isa<arith::TruncFOp>(op) ? op->getOperand(0).getType()
                                            : op->getResult(0).getType();
      if (isa<VectorType>(other) || !(other.isF32() || other.isF16())) {
        emitConversionError(op)
            << "has no NVVM lowering: only scalar f32/f16 <-> " << fp8
            << " conversions are supported";
        return WalkResult::interrupt();
      }
      if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
        std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
        if (mode && *mode != arith::RoundingMode::to_nearest_even) {
          emitConversionError(op) << "has no NVVM lowering: FP8 "
                                     "conversions round to nearest-even only";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    patterns.add<TruncFToNVVM, ExtFToNVVM>(&getContext());
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
