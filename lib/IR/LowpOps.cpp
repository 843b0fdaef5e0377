//===- LowpOps.cpp - lowp operations --------------------------------------===//

#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::lowp;
using llvm::APFloat;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool mlir::lowp::detail::haveSameShape(Type a, Type b) {
  auto sa = dyn_cast<ShapedType>(a);
  auto sb = dyn_cast<ShapedType>(b);
  if (!sa || !sb)
    return !sa && !sb;
  if (sa.getTypeID() != sb.getTypeID())
    return false;
  if (auto va = dyn_cast<VectorType>(a))
    return va.getShape() == cast<VectorType>(b).getShape() &&
           va.getScalableDims() == cast<VectorType>(b).getScalableDims();
  if (sa.hasRank() != sb.hasRank())
    return false;
  return !sa.hasRank() || sa.getShape() == sb.getShape();
}

FloatType mlir::lowp::getFloatElementType(Type type) {
  return dyn_cast<FloatType>(getElementTypeOrSelf(type));
}

FloatType mlir::lowp::getPinnedPrecision(Operation *op) {
  TypeAttr attr = LowpDialect::PrecisionAttrHelper(op->getContext()).getAttr(op);
  return attr ? dyn_cast<FloatType>(attr.getValue()) : FloatType();
}

bool mlir::lowp::isEightBitFloat(Type type) {
  if (!type)
    return false;
  FloatType element = getFloatElementType(type);
  return element && element.getWidth() == 8;
}

Type mlir::lowp::withFloatElementType(Type type, FloatType elementType) {
  if (!getFloatElementType(type))
    return type;
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

/// `value` in its shortest round-tripping decimal form ("1024", "-0.5", "inf")
/// for diagnostics.
static std::string formatNumber(double value) {
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  if (std::isnan(value))
    return "nan";
  SmallString<32> text;
  APFloat(value).toString(text);
  return std::string(text);
}

/// The constant value of `scale` as a double, if it is a float constant.
static std::optional<double> getConstantScale(Value scale) {
  FloatAttr attr;
  if (!matchPattern(scale, m_Constant(&attr)))
    return std::nullopt;
  return attr.getValue().convertToDouble();
}

/// Rejects a constant scale that is not a positive finite number.
static LogicalResult verifyPositiveScale(Operation *op, Value scale) {
  std::optional<double> value = getConstantScale(scale);
  if (value && !(*value > 0.0 && std::isfinite(*value)))
    return op->emitOpError() << "requires a positive finite scale, got "
                             << formatNumber(*value);
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

FloatType CastOp::getInputElementType() {
  return getFloatElementType(getInput().getType());
}
FloatType CastOp::getResultElementType() {
  return getFloatElementType(getResult().getType());
}
bool CastOp::isWidening() {
  return APFloat::isRepresentableBy(getInputElementType().getFloatSemantics(),
                                    getResultElementType().getFloatSemantics());
}

LogicalResult CastOp::verify() {
  bool stochastic = getRounding() == RoundingMode::Stochastic;
  if (stochastic && !getSeed())
    return emitOpError("stochastic rounding requires a 'seed' operand");
  if (!stochastic && getSeed())
    return emitOpError("a 'seed' operand is only meaningful with stochastic "
                       "rounding");
  if (Value seed = getSeed())
    if (isa<ShapedType>(seed.getType()) &&
        !detail::haveSameShape(seed.getType(), getInput().getType()))
      return emitOpError("seed must be a scalar or have the input's shape");
  return success();
}

/// Converts `value` to `sem` as a lowp.cast with `mode` and `saturate` does.
/// Returns nullopt for modes that cannot be evaluated at compile time.
static std::optional<APFloat> convertConstant(APFloat value,
                                              const llvm::fltSemantics &sem,
                                              RoundingMode mode,
                                              bool saturate) {
  APFloat::roundingMode rm;
  switch (mode) {
  case RoundingMode::NearestEven:
    rm = APFloat::rmNearestTiesToEven;
    break;
  case RoundingMode::TowardZero:
    rm = APFloat::rmTowardZero;
    break;
  case RoundingMode::Stochastic:
    return std::nullopt;
  }
  bool wasNaN = value.isNaN();
  bool negative = value.isNegative();
  bool losesInfo = false;
  (void)value.convert(sem, rm, &losesInfo);
  // Saturation maps everything but NaN (overflow and infinities alike) into
  // the finite range, as PTX's `.satfinite` does.
  if (saturate && !wasNaN && !value.isFinite())
    return APFloat::getLargest(sem, negative);
  // A NaN source in a format without NaN has no defined image: do not fold.
  if (value.isNaN() && !APFloat::semanticsHasNaN(sem))
    return std::nullopt;
  return value;
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Type resultType = getResult().getType();
  // A cast to the same type is the identity.
  if (getInput().getType() == resultType)
    return getInput();

  // narrow -> wide -> narrow: the wide value holds the narrow one exactly.
  if (auto producer = getInput().getDefiningOp<CastOp>())
    if (producer.getInput().getType() == resultType && producer.isWidening())
      return producer.getInput();

  const llvm::fltSemantics &sem = getResultElementType().getFloatSemantics();
  RoundingMode mode = getRounding();
  bool saturate = getSaturate();
  if (auto scalar = dyn_cast_if_present<FloatAttr>(adaptor.getInput())) {
    std::optional<APFloat> folded =
        convertConstant(scalar.getValue(), sem, mode, saturate);
    if (!folded)
      return {};
    return FloatAttr::get(resultType, *folded);
  }
  if (auto dense = dyn_cast_if_present<DenseFPElementsAttr>(adaptor.getInput())) {
    auto shaped = cast<ShapedType>(resultType);
    if (dense.isSplat()) {
      std::optional<APFloat> folded = convertConstant(
          dense.getSplatValue<APFloat>(), sem, mode, saturate);
      if (!folded)
        return {};
      return DenseElementsAttr::get(shaped, *folded);
    }
    SmallVector<APFloat> values;
    values.reserve(dense.getNumElements());
    for (APFloat v : dense.getValues<APFloat>()) {
      std::optional<APFloat> folded = convertConstant(v, sem, mode, saturate);
      if (!folded)
        return {};
      values.push_back(*folded);
    }
    return DenseElementsAttr::get(shaped, values);
  }
  return {};
}

namespace {
/// cast(cast(x : A -> B) : B -> C) with A -> B exact is one cast A -> C: the
/// first cast changes no value, so only the second one rounds.
struct FoldExactCastIntoCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<CastOp>();
    if (!producer || !producer.isWidening())
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(producer.getInput()); });
    return success();
  }
};
} // namespace

void CastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldExactCastIntoCast>(context);
}

//===----------------------------------------------------------------------===//
// IslandOp
//===----------------------------------------------------------------------===//

void IslandOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes, ValueRange inputs,
                     FloatType precision) {
  if (!precision)
    precision = builder.getF32Type();
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  state.getOrAddProperties<Properties>().precision = TypeAttr::get(precision);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(withFloatElementType(input.getType(), precision),
                       input.getLoc());
}

Type IslandOp::getIslandType(Type type) {
  return withFloatElementType(type, getPrecisionType());
}

YieldOp IslandOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult IslandOp::verify() {
  for (Type t : getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && getFloatElementType(t) && !isa<TensorType, VectorType>(t))
      return emitOpError("float operands must be scalars, vectors or tensors, "
                         "got ")
             << t;
  return success();
}

LogicalResult IslandOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getNumOperands())
    return emitOpError("has ") << getNumOperands() << " operands but its body "
                               << "takes " << block.getNumArguments()
                               << " arguments";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), block.getArgumentTypes()))) {
    auto [operandType, argType] = pair;
    Type expected = getIslandType(operandType);
    if (argType != expected)
      return emitOpError("body argument #")
             << index << " has type " << argType << " but operand type "
             << operandType << " at " << getPrecision() << " is " << expected;
  }
  YieldOp yield = getYield();
  if (yield.getNumOperands() != getNumResults())
    return yield.emitOpError("yields ")
           << yield.getNumOperands() << " values but the island has "
           << getNumResults() << " results";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(getResultTypes(), yield.getOperandTypes()))) {
    auto [resultType, yieldedType] = pair;
    Type expected = getIslandType(resultType);
    if (yieldedType != expected)
      return yield.emitOpError("value #")
             << index << " has type " << yieldedType << " but result type "
             << resultType << " at " << getPrecision() << " is " << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScaleOp / UnscaleOp
//===----------------------------------------------------------------------===//

static LogicalResult inferScalingResultTypes(ValueRange operands,
                                             SmallVectorImpl<Type> &types) {
  if (operands.empty())
    return failure();
  for (Value v : operands.drop_front())
    types.push_back(v.getType());
  return success();
}

static LogicalResult verifyScalingOp(Operation *op, Value scale,
                                     ValueRange inputs) {
  if (inputs.empty())
    return op->emitOpError("requires at least one input");
  return verifyPositiveScale(op, scale);
}

/// Scaling by a constant 1 changes nothing.
static LogicalResult foldUnitScale(Value scale, ValueRange inputs,
                                   SmallVectorImpl<OpFoldResult> &results) {
  std::optional<double> value = getConstantScale(scale);
  if (!value || *value != 1.0)
    return failure();
  results.append(inputs.begin(), inputs.end());
  return success();
}

LogicalResult ScaleOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &types) {
  return inferScalingResultTypes(operands, types);
}
LogicalResult ScaleOp::verify() {
  return verifyScalingOp(*this, getScale(), getInputs());
}
LogicalResult ScaleOp::fold(FoldAdaptor, SmallVectorImpl<OpFoldResult> &res) {
  return foldUnitScale(getScale(), getInputs(), res);
}

LogicalResult UnscaleOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &types) {
  return inferScalingResultTypes(operands, types);
}
LogicalResult UnscaleOp::verify() {
  return verifyScalingOp(*this, getScale(), getInputs());
}
LogicalResult UnscaleOp::fold(FoldAdaptor,
                              SmallVectorImpl<OpFoldResult> &res) {
  return foldUnitScale(getScale(), getInputs(), res);
}

//===----------------------------------------------------------------------===//
// AllFiniteOp
//===----------------------------------------------------------------------===//

LogicalResult AllFiniteOp::verify() {
  if (getInputs().empty())
    return emitOpError("requires at least one input");
  return success();
}

/// Folds when every input is a constant: true iff no element is inf or NaN.
OpFoldResult AllFiniteOp::fold(FoldAdaptor adaptor) {
  bool allFinite = true;
  for (Attribute attr : adaptor.getInputs()) {
    if (auto scalar = dyn_cast_if_present<FloatAttr>(attr)) {
      allFinite &= scalar.getValue().isFinite();
      continue;
    }
    auto dense = dyn_cast_if_present<DenseFPElementsAttr>(attr);
    if (!dense)
      return {};
    for (APFloat v : dense.getValues<APFloat>())
      allFinite &= v.isFinite();
  }
  return BoolAttr::get(getContext(), allFinite);
}

//===----------------------------------------------------------------------===//
// UpdateScaleOp
//===----------------------------------------------------------------------===//

std::optional<ScaleUpdateParameter>
mlir::lowp::findInvalidScaleUpdateParameter(double growthFactor,
                                            double backoffFactor,
                                            int64_t growthInterval) {
  if (!(growthFactor > 1.0) || !std::isfinite(growthFactor))
    return ScaleUpdateParameter::GrowthFactor;
  if (!(backoffFactor > 0.0 && backoffFactor < 1.0))
    return ScaleUpdateParameter::BackoffFactor;
  if (growthInterval < 1)
    return ScaleUpdateParameter::GrowthInterval;
  return std::nullopt;
}

LogicalResult UpdateScaleOp::verify() {
  double growth = getGrowthFactor().convertToDouble();
  double backoff = getBackoffFactor().convertToDouble();
  if (std::optional<ScaleUpdateParameter> invalid =
          findInvalidScaleUpdateParameter(growth, backoff,
                                          getGrowthInterval())) {
    switch (*invalid) {
    case ScaleUpdateParameter::GrowthFactor:
      return emitOpError("growth_factor must be a finite number > 1, got ")
             << formatNumber(growth);
    case ScaleUpdateParameter::BackoffFactor:
      return emitOpError("backoff_factor must be in (0, 1), got ")
             << formatNumber(backoff);
    case ScaleUpdateParameter::GrowthInterval:
      return emitOpError("growth_interval must be at least 1, got ")
             << getGrowthInterval();
    }
  }
  std::optional<APFloat> minScale = getMinScale();
  std::optional<APFloat> maxScale = getMaxScale();
  if (minScale && !(minScale->convertToDouble() > 0.0))
    return emitOpError("min_scale must be positive, got ")
           << formatNumber(minScale->convertToDouble());
  if (maxScale && !(maxScale->convertToDouble() > 0.0))
    return emitOpError("max_scale must be positive, got ")
           << formatNumber(maxScale->convertToDouble());
  if (minScale && maxScale &&
      minScale->convertToDouble() > maxScale->convertToDouble())
    return emitOpError("min_scale (")
           << formatNumber(minScale->convertToDouble())
           << ") exceeds max_scale ("
           << formatNumber(maxScale->convertToDouble()) << ")";
  return verifyPositiveScale(*this, getScale());
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  FloatType resultElement = getFloatElementType(getResult().getType());
  if (!isEightBitFloat(resultElement))
    return emitOpError("result element type must be an 8-bit float, got ")
           << resultElement;
  FloatType inputElement = getFloatElementType(getInput().getType());
  if (isEightBitFloat(inputElement))
    return emitOpError("input is already an 8-bit float (")
           << inputElement << ")";
  return verifyPositiveScale(*this, getScale());
}

/// saturate_cast_rne(value * scale) as lowp.quantize computes it: the
/// product rounded to f32 (exact widening first), clamped to the format's
/// largest finite magnitude, then rounded to nearest even. NaN stays NaN.
static APFloat quantizeConstant(APFloat value, const APFloat &scale,
                                const llvm::fltSemantics &fp8) {
  bool losesInfo = false;
  (void)value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
  (void)value.multiply(scale, APFloat::rmNearestTiesToEven);
  if (value.isNaN())
    return APFloat::getNaN(fp8);
  APFloat largest = APFloat::getLargest(fp8);
  (void)largest.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                        &losesInfo);
  if (abs(value).compare(largest) == APFloat::cmpGreaterThan)
    value = APFloat::copySign(largest, value);
  (void)value.convert(fp8, APFloat::rmNearestTiesToEven, &losesInfo);
  return value;
}

OpFoldResult QuantizeOp::fold(FoldAdaptor adaptor) {
  auto scale = dyn_cast_if_present<FloatAttr>(adaptor.getScale());
  if (!scale || !(scale.getValueAsDouble() > 0.0))
    return {};
  APFloat scaleValue = scale.getValue();
  auto fp8Type = getFloatElementType(getResult().getType());
  const llvm::fltSemantics &fp8 = fp8Type.getFloatSemantics();
  if (auto scalar = dyn_cast_if_present<FloatAttr>(adaptor.getInput()))
    return FloatAttr::get(fp8Type,
                          quantizeConstant(scalar.getValue(), scaleValue, fp8));
  auto dense = dyn_cast_if_present<DenseFPElementsAttr>(adaptor.getInput());
  if (!dense)
    return {};
  auto resultType = cast<ShapedType>(getResult().getType());
  if (dense.isSplat())
    return DenseElementsAttr::get(
        resultType,
        quantizeConstant(dense.getSplatValue<APFloat>(), scaleValue, fp8));
  SmallVector<APFloat> values;
  values.reserve(dense.getNumElements());
  for (APFloat v : dense.getValues<APFloat>())
    values.push_back(quantizeConstant(v, scaleValue, fp8));
  return DenseElementsAttr::get(resultType, values);
}

LogicalResult DequantizeOp::verify() {
  FloatType inputElement = getFloatElementType(getInput().getType());
  if (!isEightBitFloat(inputElement))
    return emitOpError("input element type must be an 8-bit float, got ")
           << inputElement;
  FloatType resultElement = getFloatElementType(getResult().getType());
  if (isEightBitFloat(resultElement))
    return emitOpError("result element type must be wider than 8 bits, got ")
           << resultElement;
  return verifyPositiveScale(*this, getScale());
}

//===----------------------------------------------------------------------===//
// ComputeScaleOp / PushAmaxOp
//===----------------------------------------------------------------------===//

LogicalResult ComputeScaleOp::verify() {
  auto format = dyn_cast<FloatType>(getFormat());
  if (!isEightBitFloat(format))
    return emitOpError("format must be an 8-bit float, got ") << getFormat();
  if (getMargin() < 0)
    return emitOpError("margin must be non-negative, got ") << getMargin();
  if (auto history = dyn_cast<RankedTensorType>(getAmax().getType()))
    if (history.getDimSize(0) == 0)
      return emitOpError("amax history must not be empty");
  return success();
}

LogicalResult PushAmaxOp::verify() {
  if (getHistory().getType().getDimSize(0) == 0)
    return emitOpError("amax history must not be empty");
  return success();
}

#define GET_OP_CLASSES
#include "lowp/IR/LowpOps.cpp.inc"

#include "lowp/IR/LowpInterfaces.cpp.inc"
