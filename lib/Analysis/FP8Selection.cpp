//===- FP8Selection.cpp - choosing an FP8 format per tensor ---------------===//
//
// Every number here comes from APFloat semantics (lowp/Formats) and the
// capability table (lowp/Target); nothing about a format is typed in.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Selection.h"
#include "lowp/Formats/FloatFormats.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

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
