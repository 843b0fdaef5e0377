//===- FP8Selection.cpp - C API: FP8 format selection ---------------------===//

#include "lowp-c/FP8Selection.h"

#include "lowp/Analysis/FP8Selection.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/CAPI/Support.h"

#include <cmath>

using namespace mlir;
using namespace mlir::lowp;

static_assert(MlirLowpTensorRoleActivation ==
                      static_cast<int>(TensorRole::Activation) &&
                  MlirLowpTensorRoleWeight ==
                      static_cast<int>(TensorRole::Weight) &&
                  MlirLowpTensorRoleGradient ==
                      static_cast<int>(TensorRole::Gradient),
              "MlirLowpTensorRole out of sync with lowp::TensorRole");
static_assert(MlirLowpFP8RecipeHybrid == static_cast<int>(FP8Recipe::Hybrid) &&
                  MlirLowpFP8RecipeE4M3 == static_cast<int>(FP8Recipe::E4M3) &&
                  MlirLowpFP8RecipeE5M2 == static_cast<int>(FP8Recipe::E5M2) &&
                  MlirLowpFP8RecipeRange ==
                      static_cast<int>(FP8Recipe::Range),
              "MlirLowpFP8Recipe out of sync with lowp::FP8Recipe");

MlirLogicalResult mlirLowpSelectFP8Format(
    MlirStringRef chip, MlirLowpTensorRole role, bool hasStats, double amax,
    double min, MlirLowpFP8Recipe recipe, unsigned margin,
    bool allowBF16Fallback, MlirLowpFP8Decision *decision,
    MlirStringCallback messageCallback, void *userData) {
  auto report = [&](StringRef message) {
    if (messageCallback)
      messageCallback(wrap(message), userData);
  };
  const TargetInfo *target = lookupTarget(unwrap(chip));
  if (!target) {
    report(("unknown target '" + unwrap(chip) + "'; known targets: " +
            getKnownTargetNames())
               .str());
    return mlirLogicalResultFailure();
  }
  if (role < MlirLowpTensorRoleActivation ||
      role > MlirLowpTensorRoleGradient || recipe < MlirLowpFP8RecipeHybrid ||
      recipe > MlirLowpFP8RecipeRange) {
    report("invalid tensor role or FP8 recipe");
    return mlirLogicalResultFailure();
  }
  // The constraints #lowp.stats verifies.
  if (hasStats && !(std::isfinite(amax) && std::isfinite(min) && amax >= 0 &&
                    min >= 0 && min <= amax)) {
    report("invalid statistics: amax and min must be finite, non-negative, "
           "min <= amax");
    return mlirLogicalResultFailure();
  }
  std::optional<TensorStatistics> stats;
  if (hasStats)
    stats = TensorStatistics{amax, min};
  FP8SelectionOptions options;
  options.recipe = static_cast<FP8Recipe>(recipe);
  options.margin = margin;
  options.allowBF16Fallback = allowBF16Fallback;
  llvm::Expected<FP8Decision> chosen = selectFP8Format(
      *target, static_cast<TensorRole>(role), stats, options);
  if (!chosen) {
    report(llvm::toString(chosen.takeError()));
    return mlirLogicalResultFailure();
  }
  decision->format = static_cast<MlirLowpFormat>(chosen->format);
  decision->hasScale = chosen->scale.has_value();
  decision->scale = chosen->scale.value_or(1.0);
  decision->binadesNeeded = chosen->binadesNeeded;
  decision->binadesE4M3 = chosen->binadesE4M3;
  decision->binadesE5M2 = chosen->binadesE5M2;
  report(chosen->reason);
  return mlirLogicalResultSuccess();
}
