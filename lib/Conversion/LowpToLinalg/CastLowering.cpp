//===- CastLowering.cpp - lowp.cast semantics in arith ops ----------------===//
//
// One scalar (or vector) float conversion with explicit rounding and
// saturation, built from arith ops only, so every later pipeline can run it.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/LowpToLinalg/LowpToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::lowp;
using llvm::APFloat;

/// A constant shaped like `like` (scalar or splat vector) of element `type`.
static Value buildConstant(OpBuilder &b, Location loc, Type like,
                           TypedAttr scalar) {
  if (auto vec = dyn_cast<VectorType>(like)) {
    auto shaped = vec.clone(scalar.getType());
    return arith::ConstantOp::create(b, loc,
                                     SplatElementsAttr::get(shaped, scalar));
  }
  return arith::ConstantOp::create(b, loc, scalar);
}

static Value buildFloatConstant(OpBuilder &b, Location loc, Type like,
                                APFloat value) {
  auto elementType = cast<FloatType>(getElementTypeOrSelf(like));
  bool losesInfo;
  (void)value.convert(elementType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
  return buildConstant(b, loc, like, b.getFloatAttr(elementType, value));
}

static Value buildIntConstant(OpBuilder &b, Location loc, Type like,
                              IntegerType type, uint64_t value) {
  return buildConstant(b, loc, like, b.getIntegerAttr(type, value));
}

/// `like` with its element type replaced by `element`.
static Type withElement(Type like, Type element) {
  if (auto vec = dyn_cast<VectorType>(like))
    return vec.clone(element);
  return element;
}

/// Clamps `x` to [-max, max] of `dst`, keeping NaN (minimumf/maximumf
/// propagate NaN).
static Value clampToFinite(OpBuilder &b, Location loc, Value x,
                           FloatType dst) {
  const llvm::fltSemantics &sem = dst.getFloatSemantics();
  Value hi = buildFloatConstant(b, loc, x.getType(),
                                APFloat::getLargest(sem, false));
  Value lo = buildFloatConstant(b, loc, x.getType(),
                                APFloat::getLargest(sem, true));
  Value clamped = arith::MaximumFOp::create(b, loc, x, lo);
  return arith::MinimumFOp::create(b, loc, clamped, hi);
}

/// Rounds `x` (f32) toward zero to `dst`: the nearest-even result, stepped
/// one unit toward zero when it landed beyond |x|. Sign-magnitude encodings
/// make "one unit toward zero" an integer decrement of the bit pattern.
static Value buildTowardZero(OpBuilder &b, Location loc, Value x,
                             FloatType dst) {
  Type srcLike = x.getType();
  // Toward-zero rounding never overflows: clamp first.
  x = clampToFinite(b, loc, x, dst);
  Value rounded = arith::TruncFOp::create(b, loc, withElement(srcLike, dst), x);
  Value back = arith::ExtFOp::create(b, loc, srcLike, rounded);
  Value absBack = math::AbsFOp::create(b, loc, back);
  Value absX = math::AbsFOp::create(b, loc, x);
  Value overshoot = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                          absBack, absX);
  unsigned width = dst.getWidth();
  auto intType = b.getIntegerType(width);
  Type intLike = withElement(srcLike, intType);
  Value bits = arith::BitcastOp::create(b, loc, intLike, rounded);
  Value one = buildIntConstant(b, loc, srcLike, intType, 1);
  Value stepped = arith::SubIOp::create(b, loc, bits, one);
  // The smallest subnormal steps to zero of the input's sign (a plain
  // decrement would reach the FNUZ NaN pattern 0x80 from 0x81).
  Value magnitudeMask =
      buildIntConstant(b, loc, srcLike, intType,
                       APInt::getSignedMaxValue(width).getZExtValue());
  Value magnitude = arith::AndIOp::create(b, loc, bits, magnitudeMask);
  Value isSmallest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           magnitude, one);
  Value zero = buildFloatConstant(b, loc, srcLike,
                                  APFloat::getZero(APFloat::IEEEsingle()));
  Value signedZero = math::CopySignOp::create(b, loc, zero, x);
  Value zeroBits = arith::BitcastOp::create(
      b, loc, intLike,
      arith::TruncFOp::create(b, loc, withElement(srcLike, dst), signedZero));
  stepped = arith::SelectOp::create(b, loc, isSmallest, zeroBits, stepped);
  Value result = arith::SelectOp::create(b, loc, overshoot, stepped, bits);
  return arith::BitcastOp::create(b, loc, withElement(srcLike, dst), result);
}

/// Stochastic rounding f32 -> bf16: add 16 random bits below bf16's last
/// mantissa bit, then truncate. Rounds up with probability equal to the
/// discarded fraction. Non-finite inputs round to nearest.
static Value buildStochasticToBF16(OpBuilder &b, Location loc, Value x,
                                   Value randomBits) {
  Type like = x.getType();
  auto i32 = b.getI32Type();
  Type intLike = withElement(like, i32);
  Value bits = arith::BitcastOp::create(b, loc, intLike, x);
  Value lowMask = buildIntConstant(b, loc, like, i32, 0xFFFF);
  Value highMask = buildIntConstant(b, loc, like, i32, 0xFFFF0000u);
  Value noise = arith::AndIOp::create(b, loc, randomBits, lowMask);
  Value sum = arith::AddIOp::create(b, loc, bits, noise);
  Value truncated = arith::AndIOp::create(b, loc, sum, highMask);
  Value exact = arith::BitcastOp::create(b, loc, like, truncated);
  // The low 16 bits are zero now, so this truncation is exact.
  Type bf16Like = withElement(like, b.getBF16Type());
  Value stochastic = arith::TruncFOp::create(b, loc, bf16Like, exact);
  Value nearest = arith::TruncFOp::create(b, loc, bf16Like, x);
  Value absX = math::AbsFOp::create(b, loc, x);
  Value inf = buildFloatConstant(b, loc, like,
                                 APFloat::getInf(APFloat::IEEEsingle()));
  Value finite =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, absX, inf);
  return arith::SelectOp::create(b, loc, finite, stochastic, nearest);
}

Value mlir::lowp::buildScalarCast(OpBuilder &b, Location loc, Value value,
                                  FloatType dstType, RoundingMode rounding,
                                  bool saturate, Value randomBits) {
  Type srcLike = value.getType();
  auto srcType = cast<FloatType>(getElementTypeOrSelf(srcLike));
  Type dstLike = withElement(srcLike, dstType);
  if (srcType == dstType)
    return value;
  // Widening is exact: rounding and saturation cannot apply.
  if (APFloat::isRepresentableBy(srcType.getFloatSemantics(),
                                 dstType.getFloatSemantics()))
    return arith::ExtFOp::create(b, loc, dstLike, value);

  // Narrowing between formats neither of which holds the other (f16 <-> bf16)
  // goes through f32, which holds both exactly.
  if (srcType.getWidth() < 32) {
    Type f32Like = withElement(srcLike, b.getF32Type());
    value = arith::ExtFOp::create(b, loc, f32Like, value);
    srcLike = f32Like;
  }

  switch (rounding) {
  case RoundingMode::NearestEven:
    if (saturate)
      value = clampToFinite(b, loc, value, dstType);
    return arith::TruncFOp::create(b, loc, dstLike, value);
  case RoundingMode::TowardZero:
    return buildTowardZero(b, loc, value, dstType);
  case RoundingMode::Stochastic: {
    if (!dstType.isBF16() || !getElementTypeOrSelf(srcLike).isF32() ||
        !randomBits)
      return Value();
    if (saturate)
      value = clampToFinite(b, loc, value, dstType);
    Value r = buildStochasticToBF16(b, loc, value, randomBits);
    if (saturate) {
      // Rounding up from the largest finite value must not reach inf.
      Value wide = arith::ExtFOp::create(b, loc, srcLike, r);
      r = arith::TruncFOp::create(b, loc, dstLike,
                                  clampToFinite(b, loc, wide, dstType));
    }
    return r;
  }
  }
  return Value();
}
