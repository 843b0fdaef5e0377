//===- FloatFormats.cpp - numeric facts of float formats ------------------===//

#include "lowp/Formats/FloatFormats.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::lowp;
using llvm::APFloat;

/// The value of `v` as a double. Every value of every format in the table
/// fits a double exactly (f64 included), so nothing is rounded.
static double toDouble(const APFloat &v) {
  APFloat d = v;
  bool losesInfo = false;
  (void)d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  return d.convertToDouble();
}

FloatFormatInfo mlir::lowp::getFloatFormatInfo(const llvm::fltSemantics &sem,
                                               StringRef name) {
  FloatFormatInfo info;
  info.name = name.str();
  info.bits = APFloat::semanticsSizeInBits(sem);
  unsigned precision = APFloat::semanticsPrecision(sem);
  info.mantissaBits = precision - 1;
  info.hasSign = APFloat::semanticsHasSignedRepr(sem);
  info.exponentBits = info.bits - info.mantissaBits - (info.hasSign ? 1 : 0);
  info.maxFinite = toDouble(APFloat::getLargest(sem));
  info.minNormal = toDouble(APFloat::getSmallestNormalized(sem));
  info.minSubnormal = toDouble(APFloat::getSmallest(sem));
  info.epsilon = getEpsilon(sem);
  // Subtract logs: f64's max / min subnormal overflows a double.
  info.binades = std::log2(info.maxFinite) - std::log2(info.minSubnormal);
  info.normalBinades = std::log2(info.maxFinite) - std::log2(info.minNormal);
  info.hasInf = APFloat::semanticsHasInf(sem);
  info.hasNaN = APFloat::semanticsHasNaN(sem);
  // A negative zero exists when negating zero gives a distinct encoding.
  info.hasNegativeZero = false;
  if (APFloat::semanticsHasZero(sem) && info.hasSign) {
    APFloat negZero = APFloat::getZero(sem, /*Negative=*/true);
    info.hasNegativeZero = negZero.isNegative();
  }
  return info;
}

double mlir::lowp::getEpsilon(const llvm::fltSemantics &sem) {
  // 1.0 has the exponent 0 and the least significant of its `precision`
  // significand bits weighs 2^(1 - precision).
  return std::ldexp(1.0, 1 - static_cast<int>(APFloat::semanticsPrecision(sem)));
}

FloatFormatInfo mlir::lowp::getFloatFormatInfo(FloatType type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return getFloatFormatInfo(type.getFloatSemantics(), name);
}

bool mlir::lowp::isExactlyRepresentableIn(FloatType narrow, FloatType wide) {
  return APFloat::isRepresentableBy(narrow.getFloatSemantics(),
                                    wide.getFloatSemantics());
}

double mlir::lowp::getMaxFinite(FloatType type) {
  return toDouble(APFloat::getLargest(type.getFloatSemantics()));
}

SmallVector<FloatType> mlir::lowp::getTabulatedFloatTypes(MLIRContext *ctx) {
  return {Float64Type::get(ctx),          Float32Type::get(ctx),
          FloatTF32Type::get(ctx),        Float16Type::get(ctx),
          BFloat16Type::get(ctx),         Float8E4M3FNType::get(ctx),
          Float8E5M2Type::get(ctx),       Float8E4M3FNUZType::get(ctx),
          Float8E5M2FNUZType::get(ctx),   Float8E4M3Type::get(ctx),
          Float8E4M3B11FNUZType::get(ctx), Float8E3M4Type::get(ctx),
          Float8E8M0FNUType::get(ctx),    Float6E3M2FNType::get(ctx),
          Float6E2M3FNType::get(ctx),     Float4E2M1FNType::get(ctx)};
}

void mlir::lowp::printFloatFormatTable(MLIRContext *ctx, raw_ostream &os,
                                       bool json) {
  SmallVector<FloatType> types = getTabulatedFloatTypes(ctx);
  auto yesNo = [](bool b) { return b ? "yes" : "no"; };
  if (json) {
    os << "[\n";
    llvm::interleave(
        types, os,
        [&](FloatType t) {
          FloatFormatInfo i = getFloatFormatInfo(t);
          os << llvm::format(
              "  {\"name\": \"%s\", \"bits\": %u, \"exponent_bits\": %u, "
              "\"mantissa_bits\": %u, \"max\": %.17g, \"min_normal\": %.17g, "
              "\"min_subnormal\": %.17g, \"epsilon\": %.17g, \"binades\": "
              "%.6f, \"has_inf\": %s, \"has_nan\": %s, \"has_neg_zero\": %s}",
              i.name.c_str(), i.bits, i.exponentBits, i.mantissaBits,
              i.maxFinite, i.minNormal, i.minSubnormal, i.epsilon, i.binades,
              i.hasInf ? "true" : "false", i.hasNaN ? "true" : "false",
              i.hasNegativeZero ? "true" : "false");
        },
        ",\n");
    os << "\n]\n";
    return;
  }
  os << llvm::format("%-15s %4s %3s %3s %-13s %-13s %-13s %-13s %8s %-3s %-3s "
                     "%-3s\n",
                     "format", "bits", "exp", "man", "max", "min_normal",
                     "min_subnormal", "epsilon", "binades", "inf", "nan",
                     "-0");
  for (FloatType t : types) {
    FloatFormatInfo i = getFloatFormatInfo(t);
    os << llvm::format(
        "%-15s %4u %3u %3u %-13.6g %-13.6g %-13.6g %-13.6g %8.2f %-3s %-3s "
        "%-3s\n",
        i.name.c_str(), i.bits, i.exponentBits, i.mantissaBits, i.maxFinite,
        i.minNormal, i.minSubnormal, i.epsilon, i.binades, yesNo(i.hasInf),
        yesNo(i.hasNaN), yesNo(i.hasNegativeZero));
  }
}
