//===- SoftFloatConversions.cpp - float conversions as integer ops --------===//
//
// Rounding to nearest-even is an integer add on the bit pattern: adding
// (half - 1) plus the lowest kept bit and shifting right rounds ties to even,
// and a carry out of the mantissa bumps the exponent, which is exactly the
// next representable value. Destination subnormals use the same rule with a
// per-lane shift (vpsrlvd on AVX2) of the f32 significand.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/SoftFloat/SoftFloatConversions.h"
#include "lowp/IR/ResourceConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::lowp;
using llvm::APFloat;

namespace {

/// Integer facts of a narrow format, all read off APFloat.
struct NarrowLayout {
  unsigned width;        ///< storage bits
  unsigned mantissaBits; ///< explicit fraction bits
  int minExponent;       ///< unbiased exponent of the smallest normal
  uint32_t infBits;      ///< +inf pattern (0 when the format has none)
  uint32_t quietNaNBits; ///< +qNaN pattern
  uint32_t negNaNBits;   ///< the NaN APFloat produces for a negative NaN
  uint32_t largestBits;  ///< largest finite positive value
  bool hasInf;
  bool hasNegativeZero;

  explicit NarrowLayout(const llvm::fltSemantics &sem) {
    width = APFloat::semanticsSizeInBits(sem);
    mantissaBits = APFloat::semanticsPrecision(sem) - 1;
    minExponent = APFloat::semanticsMinExponent(sem);
    hasInf = APFloat::semanticsHasInf(sem);
    infBits = hasInf ? APFloat::getInf(sem).bitcastToAPInt().getZExtValue() : 0;
    quietNaNBits = APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue();
    negNaNBits = APFloat::getQNaN(sem, /*Negative=*/true)
                     .bitcastToAPInt()
                     .getZExtValue();
    largestBits = APFloat::getLargest(sem).bitcastToAPInt().getZExtValue();
    hasNegativeZero =
        !APFloat::getZero(sem, /*Negative=*/true).bitcastToAPInt().isZero();
  }
  uint32_t signBit() const { return 1u << (width - 1); }
  uint32_t mantissaMask() const { return (1u << mantissaBits) - 1; }
  /// Distance between the f32 and the narrow mantissa.
  unsigned shift() const { return 23 - mantissaBits; }
  /// f32 bit pattern of the narrow format's smallest normal.
  uint32_t minNormalF32Bits() const {
    return uint32_t(127 + minExponent) << 23;
  }
};

/// Builds i32 (scalar or vector, shaped like `like`) arithmetic tersely.
struct IntOps {
  OpBuilder &b;
  Location loc;
  Type i32Like;

  IntOps(OpBuilder &b, Location loc, Type like)
      : b(b), loc(loc), i32Like(withElement(like, b.getI32Type())) {}

  static Type withElement(Type like, Type element) {
    if (auto vec = dyn_cast<VectorType>(like))
      return vec.clone(element);
    return element;
  }
  Value c(uint32_t v) {
    auto attr = b.getI32IntegerAttr(static_cast<int32_t>(v));
    if (auto vec = dyn_cast<VectorType>(i32Like))
      return arith::ConstantOp::create(b, loc,
                                       SplatElementsAttr::get(vec, attr));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value band(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value umin(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value umax(Value x, Value y) { return arith::MaxUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// Round-to-nearest-even right shift of a non-negative `x` by `s` (s >= 1).
  Value roundingShift(Value x, Value s, Value halfMinusOne) {
    Value lsb = band(shr(x, s), c(1));
    return shr(add(add(x, halfMinusOne), lsb), s);
  }
};

} // namespace

bool mlir::lowp::isSoftFloatConvertible(FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  unsigned width = APFloat::semanticsSizeInBits(sem);
  return width <= 16 && width >= 4 && APFloat::hasSignBitInMSB(sem) &&
         APFloat::semanticsHasSignedRepr(sem) &&
         APFloat::semanticsHasZero(sem) && APFloat::semanticsHasNaN(sem) &&
         APFloat::semanticsPrecision(sem) < 24 &&
         APFloat::semanticsMinExponent(sem) >= -126 &&
         APFloat::semanticsMaxExponent(sem) <= 127;
}

/// f32 -> a format with f32's exponent range (bf16): one rounding add on
/// the upper bits; NaN keeps sign and payload, made quiet.
static Value buildTruncSameRange(IntOps &o, Value u, const NarrowLayout &l) {
  unsigned shift = l.shift();
  Value sc = o.c(shift);
  Value rounded = o.roundingShift(u, sc, o.c((1u << (shift - 1)) - 1));
  Value abs = o.band(u, o.c(0x7FFFFFFFu));
  Value isNaN = o.cmp(arith::CmpIPredicate::ugt, abs, o.c(0x7F800000u));
  Value quiet = o.bor(o.shr(u, sc), o.c(l.quietNaNBits & ~l.infBits));
  // Both keep the sign bit above the narrow magnitude.
  return o.select(isNaN, quiet, rounded);
}

Value mlir::lowp::buildSoftTruncF(OpBuilder &b, Location loc, Value value,
                                  FloatType dstType, bool saturate) {
  assert(getElementTypeOrSelf(value.getType()).isF32() &&
         isSoftFloatConvertible(dstType) && "unsupported soft truncation");
  NarrowLayout l(dstType.getFloatSemantics());
  IntOps o(b, loc, value.getType());
  using P = arith::CmpIPredicate;
  Value u = arith::BitcastOp::create(b, loc, o.i32Like, value);
  unsigned shift = l.shift();
  Type narrowInt =
      IntOps::withElement(value.getType(), b.getIntegerType(l.width));
  auto finish = [&](Value bits32) -> Value {
    Value truncated = arith::TruncIOp::create(b, loc, narrowInt, bits32);
    return arith::BitcastOp::create(
        b, loc, IntOps::withElement(value.getType(), dstType), truncated);
  };
  // bf16: the sign rides along in the upper bits.
  if (l.minExponent == -126 && !saturate)
    return finish(buildTruncSameRange(o, u, l));

  Value abs = o.band(u, o.c(0x7FFFFFFFu));
  Value isNaN = o.cmp(P::ugt, abs, o.c(0x7F800000u));
  Value magnitude;
  {
    // Normal results: rebias the exponent, then round the mantissa.
    Value halfMinusOne = o.c((1u << (shift - 1)) - 1);
    uint32_t rebias = uint32_t(126 + l.minExponent) << 23;
    Value normal = o.roundingShift(o.sub(o.umax(abs, o.c(rebias)), o.c(rebias)),
                                   o.c(shift), halfMinusOne);
    // Subnormal results: shift the full significand by a per-lane amount.
    Value exponent = o.shr(abs, o.c(23));
    Value hasImplicitBit = o.cmp(P::ne, exponent, o.c(0));
    Value significand = o.bor(o.band(abs, o.c(0x7FFFFFu)),
                              o.select(hasImplicitBit, o.c(0x800000u), o.c(0)));
    Value effectiveExponent = o.umax(exponent, o.c(1));
    // s = shift + (127 + minExponent) - e, at most 31 (everything smaller
    // than half the smallest subnormal rounds to zero).
    Value s = o.umin(o.sub(o.c(shift + 127 + l.minExponent), effectiveExponent),
                     o.c(31));
    Value half = o.shr(o.c(1u << 31), o.sub(o.c(32), s));
    Value subnormal = o.roundingShift(significand, s, o.sub(half, o.c(1)));
    Value isSubnormal = o.cmp(P::ult, abs, o.c(l.minNormalF32Bits()));
    magnitude = o.select(isSubnormal, subnormal, normal);

    Value overflow = o.cmp(P::ugt, magnitude, o.c(l.largestBits));
    uint32_t overflowBits = saturate   ? l.largestBits
                            : l.hasInf ? l.infBits
                                       : l.quietNaNBits & (l.signBit() - 1);
    magnitude = o.select(overflow, o.c(overflowBits), magnitude);
    // NaN: IEEE-like formats keep the top payload bits and set the quiet
    // bit; the others have one NaN magnitude.
    Value nanBits = o.c(l.quietNaNBits & (l.signBit() - 1));
    if (l.hasInf)
      nanBits =
          o.bor(nanBits, o.band(o.shr(abs, o.c(shift)), o.c(l.mantissaMask())));
    magnitude = o.select(isNaN, nanBits, magnitude);
    if (!saturate && !l.hasInf)
      isNaN = arith::OrIOp::create(b, loc, isNaN, overflow);
  }

  // Sign: copied, except that formats without -0 give +0, and whose NaN
  // is a fixed pattern (FNUZ: 0x80) ignore it.
  Value sign = o.shr(o.band(u, o.c(0x80000000u)), o.c(32 - l.width));
  Value result = o.bor(magnitude, sign);
  if (!l.hasNegativeZero) {
    Value isZero = o.cmp(P::eq, magnitude, o.c(0));
    result = o.select(isZero, magnitude, result);
  }
  if (l.quietNaNBits & l.signBit()) // NaN encoded with the sign bit set.
    result = o.select(isNaN, o.c(l.quietNaNBits), result);

  return finish(result);
}

Value mlir::lowp::buildSoftExtF(OpBuilder &b, Location loc, Value value) {
  auto srcType = cast<FloatType>(getElementTypeOrSelf(value.getType()));
  assert(isSoftFloatConvertible(srcType) && "unsupported soft extension");
  NarrowLayout l(srcType.getFloatSemantics());
  IntOps o(b, loc, value.getType());
  using P = arith::CmpIPredicate;
  Type narrowInt =
      IntOps::withElement(value.getType(), b.getIntegerType(l.width));
  Type f32Like = IntOps::withElement(value.getType(), b.getF32Type());
  Value bits = arith::ExtUIOp::create(
      b, loc, o.i32Like, arith::BitcastOp::create(b, loc, narrowInt, value));
  unsigned shift = l.shift();

  if (l.minExponent == -126) {
    // Same exponent range as f32 (bf16): the bits are the top of an f32.
    // A signalling NaN stays signalling, as LLVM's own bf16 fpext does
    // (APFloat would quiet it).
    Value wide = o.shl(bits, o.c(32 - l.width));
    return arith::BitcastOp::create(b, loc, f32Like, wide);
  }

  Value magnitude = o.band(bits, o.c(l.signBit() - 1));
  Value sign = o.shl(o.band(bits, o.c(l.signBit())), o.c(32 - l.width));
  // Normals: rebias the exponent and move the fraction into place.
  uint32_t rebias = uint32_t(126 + l.minExponent) << 23;
  Value normal = o.add(o.shl(magnitude, o.c(shift)), o.c(rebias));
  // Subnormals: the fraction is an integer count of the smallest subnormal;
  // the conversion and the power-of-two scaling are exact.
  uint32_t minNormalMagnitude = 1u << l.mantissaBits;
  Value isSubnormal = o.cmp(P::ult, magnitude, o.c(minNormalMagnitude));
  Value count = arith::SIToFPOp::create(b, loc, f32Like, magnitude);
  APFloat quantum = APFloat::getSmallest(srcType.getFloatSemantics());
  bool losesInfo;
  (void)quantum.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                        &losesInfo);
  Value quantumValue;
  {
    auto attr = b.getFloatAttr(b.getF32Type(), quantum);
    if (auto vec = dyn_cast<VectorType>(f32Like))
      quantumValue =
          arith::ConstantOp::create(b, loc, SplatElementsAttr::get(vec, attr));
    else
      quantumValue = arith::ConstantOp::create(b, loc, attr);
  }
  Value scaled = arith::BitcastOp::create(
      b, loc, o.i32Like, arith::MulFOp::create(b, loc, count, quantumValue));
  Value result = o.select(isSubnormal, scaled, normal);

  // Specials.
  if (l.hasInf) {
    // Exponent all ones: inf, or NaN with the payload moved up and quieted.
    Value isSpecial = o.cmp(P::uge, magnitude, o.c(l.infBits));
    Value isNaN = o.cmp(P::ugt, magnitude, o.c(l.infBits));
    Value payload = o.shl(o.band(magnitude, o.c(l.mantissaMask())), o.c(shift));
    Value special = o.bor(o.c(0x7F800000u), payload);
    special = o.select(isNaN, o.bor(special, o.c(0x400000u)), special);
    result = o.select(isSpecial, special, result);
  } else if (l.quietNaNBits & l.signBit()) {
    // One NaN pattern without a sign (FNUZ: 0x80).
    Value isNaN = o.cmp(P::eq, bits, o.c(l.quietNaNBits));
    result = o.select(isNaN, o.c(0x7FC00000u), result);
    sign = o.select(isNaN, o.c(0), sign);
  } else {
    // NaN is the all-ones magnitude (E4M3FN): its fraction moves up as the
    // payload, as APFloat does.
    uint32_t nanMagnitude = l.quietNaNBits & (l.signBit() - 1);
    Value isNaN = o.cmp(P::eq, magnitude, o.c(nanMagnitude));
    uint32_t payload = (nanMagnitude & l.mantissaMask()) << shift;
    result = o.select(isNaN, o.c(0x7FC00000u | payload), result);
  }
  result = o.bor(result, sign);
  return arith::BitcastOp::create(b, loc, f32Like, result);
}

/// The body of a named linalg op (linalg.matmul of f8 operands widens them
/// with arith.extf) is implied by its name: rewritten, the op no longer
/// verifies. Its conversions are expanded once it is generalized or lowered
/// to loops. generic, map and reduce carry the body they are given.
static bool isInNamedLinalgBody(Operation *op) {
  Operation *parent = op->getParentOp();
  return isa_and_nonnull<linalg::LinalgOp>(parent) &&
         !isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp>(parent);
}

/// The integer sequences are built on scalars and vectors; a conversion of
/// tensors is reached once bufferized.
static bool isScalarOrVector(Type type) {
  return !isa<ShapedType>(type) || isa<VectorType>(type);
}

namespace {
/// A conversion pattern taken for the formats `appliesTo` accepts (the
/// narrow one of the conversion).
template <typename OpTy>
struct FormatPattern : OpRewritePattern<OpTy> {
  FormatPattern(MLIRContext *ctx, std::function<bool(FloatType)> pred)
      : OpRewritePattern<OpTy>(ctx), appliesTo(std::move(pred)) {}
  std::function<bool(FloatType)> appliesTo;
};

/// arith.truncf f32 -> narrow (nearest-even) as integer ops.
struct SoftTruncFPattern : FormatPattern<arith::TruncFOp> {
  using FormatPattern::FormatPattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto dst = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (!getElementTypeOrSelf(op.getIn().getType()).isF32() || !dst ||
        !isSoftFloatConvertible(dst) || !appliesTo(dst) ||
        !isScalarOrVector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a soft truncation");
    if (isInNamedLinalgBody(op))
      return rewriter.notifyMatchFailure(op, "in a named linalg op's body");
    if (auto mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "rounding mode not nearest-even");
    rewriter.replaceOp(op, buildSoftTruncF(rewriter, op.getLoc(), op.getIn(),
                                           dst, /*saturate=*/false));
    return success();
  }
};

/// arith.truncf from f64 to a format narrower than f32 (a torch-mlir body
/// rounding a captured f64 scalar to bf16): no x86 instruction converts
/// f64 to 16 bits, and LLVM calls __truncdfbf2 / __truncdfhf2, which the
/// process may not have. A constant is rounded here with APFloat; anything
/// else is rounded to f32 to odd (the hardware f64 -> f32 rounding, moved
/// one ulp toward zero where it went away from it, its last bit set where
/// it was inexact), then to nearest-even in the narrow format: f32 keeps
/// more than two extra bits, so the two roundings give the one rounding.
struct TruncFFromF64ThroughF32Pattern : FormatPattern<arith::TruncFOp> {
  using FormatPattern::FormatPattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto dst = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (!getElementTypeOrSelf(op.getIn().getType()).isF64() || !dst ||
        dst.getWidth() >= 32 || !isSoftFloatConvertible(dst) ||
        !appliesTo(dst) || !isScalarOrVector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not an f64 -> narrow truncation");
    if (isInNamedLinalgBody(op))
      return rewriter.notifyMatchFailure(op, "in a named linalg op's body");
    if (auto mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "rounding mode not nearest-even");
    Attribute value;
    if (matchPattern(op.getIn(), m_Constant(&value)))
      if (TypedAttr rounded = convertFloatConstant(value, dst)) {
        rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(),
                                                       rounded);
        return success();
      }
    Location loc = op.getLoc();
    Value x = op.getIn();
    IntOps o(rewriter, loc, x.getType());
    Type f32Like = IntOps::withElement(x.getType(), rewriter.getF32Type());
    using P = arith::CmpFPredicate;
    Value nearest = arith::TruncFOp::create(rewriter, loc, f32Like, x);
    Value back = arith::ExtFOp::create(rewriter, loc, x.getType(), nearest);
    Value inexact = arith::CmpFOp::create(rewriter, loc, P::ONE, back, x);
    Value zero = arith::ConstantOp::create(
        rewriter, loc, x.getType(), rewriter.getZeroAttr(x.getType()));
    Value awayFromZero = arith::SelectOp::create(
        rewriter, loc, arith::CmpFOp::create(rewriter, loc, P::OGE, x, zero),
        arith::CmpFOp::create(rewriter, loc, P::OGT, back, x),
        arith::CmpFOp::create(rewriter, loc, P::OLT, back, x));
    Value bits = arith::BitcastOp::create(rewriter, loc, o.i32Like, nearest);
    Value towardZero = o.select(awayFromZero, o.sub(bits, o.c(1)), bits);
    Value odd = o.select(inexact, o.bor(towardZero, o.c(1)), towardZero);
    Value asF32 = arith::BitcastOp::create(rewriter, loc, f32Like, odd);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), asF32);
    return success();
  }
};

/// arith.extf narrow -> f32 as integer ops.
struct SoftExtFPattern : FormatPattern<arith::ExtFOp> {
  using FormatPattern::FormatPattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    auto src = dyn_cast<FloatType>(getElementTypeOrSelf(op.getIn().getType()));
    if (!getElementTypeOrSelf(op.getType()).isF32() || !src ||
        !isSoftFloatConvertible(src) || !appliesTo(src) ||
        !isScalarOrVector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a soft extension");
    if (isInNamedLinalgBody(op))
      return rewriter.notifyMatchFailure(op, "in a named linalg op's body");
    rewriter.replaceOp(op, buildSoftExtF(rewriter, op.getLoc(), op.getIn()));
    return success();
  }
};

/// arith.extf narrow -> a 16-bit format (FP8 -> bf16: a matmul's FP8 weight
/// widened for vdpbf16ps) through f32: an expanded extension to f32, then a
/// truncation that is exact (every value of the narrow format is one of the
/// 16-bit format's), expanded or not as that format's conversions are.
struct SoftExtFThroughF32Pattern : FormatPattern<arith::ExtFOp> {
  using FormatPattern::FormatPattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    auto src = dyn_cast<FloatType>(getElementTypeOrSelf(op.getIn().getType()));
    auto dst = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (!src || !dst || dst.getWidth() >= 32 || !isSoftFloatConvertible(src) ||
        !appliesTo(src))
      return rewriter.notifyMatchFailure(op, "not a soft narrow extension");
    if (isInNamedLinalgBody(op))
      return rewriter.notifyMatchFailure(op, "in a named linalg op's body");
    Type f32 = rewriter.getF32Type();
    Type wide = f32;
    if (auto vec = dyn_cast<VectorType>(op.getType()))
      wide = vec.clone(f32);
    else if (auto tensor = dyn_cast<RankedTensorType>(op.getType()))
      wide = tensor.clone(f32);
    Value asF32 = arith::ExtFOp::create(rewriter, op.getLoc(), wide, op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), asF32);
    return success();
  }
};
} // namespace

void mlir::lowp::populateSoftFloatConversionPatterns(
    RewritePatternSet &patterns, std::function<bool(FloatType)> shouldExpand,
    std::function<bool(FloatType)> truncatesF64ThroughF32) {
  patterns.add<SoftTruncFPattern, SoftExtFPattern, SoftExtFThroughF32Pattern>(
      patterns.getContext(), shouldExpand);
  patterns.add<TruncFFromF64ThroughF32Pattern>(patterns.getContext(),
                                               truncatesF64ThroughF32);
}
