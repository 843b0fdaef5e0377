//===- FP8Selection.cpp - choosing an FP8 format per tensor ---------------===//
//
// Every number here comes from APFloat semantics (lowp/Formats) and the
// capability table (lowp/Target); nothing about a format is typed in.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Selection.h"
#include "lowp/Formats/FloatFormats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::lowp;
using llvm::APFloat;

std::optional<FP8Recipe> mlir::lowp::symbolizeFP8Recipe(StringRef name) {
  return llvm::StringSwitch<std::optional<FP8Recipe>>(name)
      .Case("hybrid", FP8Recipe::Hybrid)
      .Case("e4m3", FP8Recipe::E4M3)
      .Case("e5m2", FP8Recipe::E5M2)
      .Case("range", FP8Recipe::Range)
      .Default(std::nullopt);
}

StringRef mlir::lowp::stringifyFP8Recipe(FP8Recipe recipe) {
  switch (recipe) {
  case FP8Recipe::Hybrid:
    return "hybrid";
  case FP8Recipe::E4M3:
    return "e4m3";
  case FP8Recipe::E5M2:
    return "e5m2";
  case FP8Recipe::Range:
    return "range";
  }
  return "";
}

/// APFloat semantics of the 8-bit formats the table names. Selection needs no
/// MLIRContext, so it maps the table's names to semantics directly.
static const llvm::fltSemantics &getFP8Semantics(Format format) {
  switch (format) {
  case Format::F8E4M3FN:
    return APFloat::Float8E4M3FN();
  case Format::F8E5M2:
    return APFloat::Float8E5M2();
  case Format::F8E4M3FNUZ:
    return APFloat::Float8E4M3FNUZ();
  case Format::F8E5M2FNUZ:
    return APFloat::Float8E5M2FNUZ();
  default:
    break;
  }
  llvm_unreachable("not an FP8 format of the table");
}

static FloatFormatInfo getFP8Info(Format format) {
  return getFloatFormatInfo(getFP8Semantics(format), stringifyFormat(format));
}

double mlir::lowp::getFP8RangeFloor(Format format) {
  return 2.0 * getFP8Info(format).minSubnormal;
}

double mlir::lowp::getFP8UsableBinades(Format format, unsigned margin) {
  FloatFormatInfo info = getFP8Info(format);
  return std::log2(info.maxFinite) - std::log2(2.0 * info.minSubnormal) -
         margin;
}

double mlir::lowp::computeFP8Scale(Format format, double amax,
                                   unsigned margin) {
  if (!(amax > 0) || !std::isfinite(amax))
    return 1.0;
  double scale =
      getFP8Info(format).maxFinite / amax / std::ldexp(1.0, (int)margin);
  // The scale is an f32 operand: keep it a normal f32.
  return std::clamp(scale, std::ldexp(1.0, -126), std::ldexp(1.0, 127));
}

namespace {
/// n * E[y^2] and n * E[(q(y) - y)^2] summed over populations of scaled
/// values.
struct ErrorSums {
  double signal = 0, error = 0;
};
} // namespace

/// Mean squared rounding error of `format` at a magnitude `y` that is neither
/// flushed nor saturated: a twelfth of the squared spacing there.
static double roundingVariance(const FloatFormatInfo &format, double y) {
  double ulp = y < format.minNormal
                   ? format.minSubnormal
                   : std::ldexp(1.0, std::ilogb(y) - (int)format.mantissaBits);
  return ulp * ulp / 12.0;
}

/// Adds `count` values spread log-uniformly over [a, b] (a point mass when
/// a == b) of an already scaled tensor. The interval is cut where the
/// format's behaviour changes: half its smallest subnormal (flush below),
/// its normal binades (spacing doubles at each), its largest finite value
/// (saturation above).
static void addScaledPopulation(const FloatFormatInfo &format, double a,
                                double b, double count, ErrorSums &sums) {
  double flushBelow = format.minSubnormal / 2, maxFinite = format.maxFinite;
  if (!(b > a)) {
    sums.signal += count * a * a;
    if (a < flushBelow)
      sums.error += count * a * a;
    else if (a > maxFinite)
      sums.error += count * (a - maxFinite) * (a - maxFinite);
    else
      sums.error += count * roundingVariance(format, a);
    return;
  }
  double logWidth = std::log(b / a);
  sums.signal += count * (b * b - a * a) / (2 * logWidth);
  for (double c = a; c < b;) {
    double d;
    if (c < flushBelow) {
      d = std::min(b, flushBelow);
      // Flushed: the error is the value itself.
      sums.error += count * (d * d - c * c) / (2 * logWidth);
    } else if (c >= maxFinite) {
      d = b;
      // Saturated: integral of (y - M)^2 / y.
      sums.error += count / logWidth *
                    ((d * d - c * c) / 2 - 2 * maxFinite * (d - c) +
                     maxFinite * maxFinite * std::log(d / c));
    } else {
      double next = c < format.minNormal
                        ? format.minNormal
                        : std::ldexp(1.0, std::ilogb(c) + 1);
      d = std::min({b, next, maxFinite});
      if (d <= c) // c sits exactly on maxFinite's binade edge
        d = std::min(b, maxFinite);
      sums.error +=
          count * std::log(d / c) / logWidth * roundingVariance(format, c);
    }
    if (d <= c)
      break;
    c = d;
  }
}

std::optional<double>
mlir::lowp::predictFP8RelativeError(Format format,
                                    const TensorStatistics &stats,
                                    unsigned margin) {
  if (stats.histogram.empty() || !(stats.amax > 0) ||
      !std::isfinite(stats.amax))
    return std::nullopt;
  FloatFormatInfo info = getFP8Info(format);
  double scale = computeFP8Scale(format, stats.amax, margin);
  ErrorSums sums;
  // The element at amax scales to max_finite / 2^margin, which the format
  // holds exactly; in heavy-tailed tensors it alone can carry most of the
  // energy, so it is counted as the exact point it is.
  double top = stats.amax * scale;
  sums.signal += top * top;
  if (top > info.maxFinite)
    sums.error += (top - info.maxFinite) * (top - info.maxFinite);
  bool amaxCounted = false;
  for (size_t i = stats.histogram.size(); i-- > 0;) {
    double count = (double)stats.histogram[i];
    if (!amaxCounted && count > 0) {
      count -= 1;
      amaxCounted = true;
    }
    if (count <= 0)
      continue;
    int binade = stats.lowestBinade + (int)i;
    // f32's subnormals share the binade -127: [2^-149, 2^-126).
    double lo = std::ldexp(1.0, binade == -127 ? -149 : binade);
    double hi = std::min(std::ldexp(1.0, binade + 1), stats.amax);
    if (hi < lo) // inconsistent with amax: take the values as amax
      lo = hi;
    addScaledPopulation(info, lo * scale, hi * scale, count, sums);
  }
  if (!(sums.signal > 0))
    return std::nullopt;
  return std::sqrt(sums.error / sums.signal);
}

double mlir::lowp::getFP8RoundingError(Format format) {
  return std::ldexp(1.0, -(int)getFP8Info(format).mantissaBits) *
         std::sqrt(std::log(2.0) / 18.0);
}

double mlir::lowp::getDefaultFP8ErrorBound(const TargetInfo &target) {
  std::optional<Format> e5m2 = target.getE5M2();
  return e5m2 ? 2 * getFP8RoundingError(*e5m2) : 0.0;
}

/// Does a tensor with `stats`, scaled for `format`, keep its smallest
/// significant magnitude above the format's floor?
static bool fits(Format format, const TensorStatistics &stats,
                 unsigned margin) {
  if (stats.min <= 0 || stats.amax <= 0)
    return true;
  double scale = computeFP8Scale(format, stats.amax, margin);
  return stats.min * scale >= getFP8RangeFloor(format);
}

llvm::Expected<FP8Decision>
mlir::lowp::selectFP8Format(const TargetInfo &target, TensorRole role,
                            std::optional<TensorStatistics> stats,
                            const FP8SelectionOptions &options) {
  FP8Decision decision;
  if (stats && stats->amax > 0 && stats->min > 0)
    decision.binadesNeeded = std::log2(stats->amax) - std::log2(stats->min);

  std::optional<Format> e4m3 = target.getE4M3(), e5m2 = target.getE5M2();
  if (!e4m3 || !e5m2) {
    if (!options.allowBF16Fallback) {
      std::string withFP8;
      for (const TargetInfo &t : getAllTargets())
        if (t.fp8Flavor != FP8Flavor::None)
          withFP8 += (withFP8.empty() ? "" : ", ") + t.name.str();
      return llvm::createStringError(
          llvm::formatv("target '{0}' has no FP8 support (FP8 targets: {1}); "
                        "choose one of them or allow the bf16 fallback",
                        target.name, withFP8)
              .str());
    }
    decision.format = Format::BF16;
    decision.reason =
        llvm::formatv("target '{0}' has no FP8: bf16 fallback", target.name)
            .str();
    return decision;
  }
  decision.binadesE4M3 = getFP8UsableBinades(*e4m3, options.margin);
  decision.binadesE5M2 = getFP8UsableBinades(*e5m2, options.margin);

  auto choose = [&](Format format, std::string reason) {
    decision.format = format;
    decision.reason = std::move(reason);
    if (stats)
      decision.scale = computeFP8Scale(format, stats->amax, options.margin);
    return decision;
  };
  auto byRole = [&](StringRef why) {
    if (role == TensorRole::Gradient)
      return choose(*e5m2, llvm::formatv("{0}: gradient -> E5M2 (range)", why)
                               .str());
    return choose(*e4m3, llvm::formatv("{0}: {1} -> E4M3 (precision)", why,
                                       stringifyTensorRole(role))
                             .str());
  };

  switch (options.recipe) {
  case FP8Recipe::E4M3:
    return choose(*e4m3, "recipe e4m3");
  case FP8Recipe::E5M2:
    return choose(*e5m2, "recipe e5m2");
  case FP8Recipe::Hybrid:
    return byRole("recipe hybrid");
  case FP8Recipe::Range:
    break;
  }

  if (!stats)
    return byRole("recipe range without #lowp.stats");
  if (stats->amax <= 0)
    return choose(*e4m3, "all-zero tensor: any format holds it, E4M3");
  std::optional<double> errorE4M3 =
      predictFP8RelativeError(*e4m3, *stats, options.margin);
  std::optional<double> errorE5M2 =
      predictFP8RelativeError(*e5m2, *stats, options.margin);
  if (errorE4M3 && errorE5M2) {
    double bound = options.maxRelativeError > 0
                       ? options.maxRelativeError
                       : getDefaultFP8ErrorBound(target);
    decision.errorE4M3 = errorE4M3;
    decision.errorE5M2 = errorE5M2;
    decision.errorBound = bound;
    std::string errors =
        llvm::formatv("predicted relative RMS error E4M3 {0:e2}, E5M2 {1:e2}",
                      *errorE4M3, *errorE5M2)
            .str();
    if (std::min(*errorE4M3, *errorE5M2) > bound) {
      decision.format = Format::BF16;
      decision.reason =
          llvm::formatv("{0} > bound {1:e2}: bf16", errors, bound).str();
      return decision;
    }
    // Ties go to E4M3: the same error with one more mantissa bit in reserve.
    if (*errorE4M3 <= *errorE5M2)
      return choose(*e4m3, errors + ": E4M3");
    return choose(*e5m2, errors + ": E5M2");
  }
  if (stats->min <= 0)
    return choose(*e4m3,
                  "no small magnitude matters (min = 0): E4M3 holds amax");
  if (fits(*e4m3, *stats, options.margin))
    return choose(*e4m3,
                  llvm::formatv("needs {0:f1} binades, E4M3 holds {1:f1}",
                                decision.binadesNeeded, decision.binadesE4M3)
                      .str());
  if (fits(*e5m2, *stats, options.margin))
    return choose(*e5m2, llvm::formatv("needs {0:f1} binades > E4M3's {1:f1}, "
                                       "E5M2 holds {2:f1}",
                                       decision.binadesNeeded,
                                       decision.binadesE4M3,
                                       decision.binadesE5M2)
                             .str());
  decision.format = Format::BF16;
  decision.reason = llvm::formatv("needs {0:f1} binades > E5M2's {1:f1}: bf16",
                                  decision.binadesNeeded, decision.binadesE5M2)
                        .str();
  return decision;
}
