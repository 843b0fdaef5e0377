//===- FP8Selection.h - choosing an FP8 format per tensor --------*- C++ -*-===//
//
// The arithmetic behind `lowp-select-fp8-formats`, as a pure function of a
// tensor's statistics, its role, the target and the recipe, so that the pass,
// the C API and Python all decide the same way. No IR is involved.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_FP8SELECTION_H
#define LOWP_ANALYSIS_FP8SELECTION_H

#include "lowp/IR/LowpDialect.h"
#include "lowp/Target/TargetInfo.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::lowp {

/// How formats are chosen.
enum class FP8Recipe {
  /// E4M3 for activations and weights, E5M2 for gradients (Transformer
  /// Engine's HYBRID).
  Hybrid,
  /// E4M3 for every tensor.
  E4M3,
  /// E5M2 for every tensor.
  E5M2,
  /// From each tensor's calibration statistics: with a |x| histogram, the
  /// format with the lowest predicted relative RMS error (bf16 when neither
  /// is within the bound); with amax and min only, E4M3 when the range fits,
  /// else E5M2, else bf16.
  Range,
};
std::optional<FP8Recipe> symbolizeFP8Recipe(llvm::StringRef name);
llvm::StringRef stringifyFP8Recipe(FP8Recipe recipe);

/// Where the per-tensor scales of FP8 operands come from.
enum class FP8Scaling {
  /// Compile-time constants from #lowp.stats.
  Static,
  /// From an amax history carried across steps as function state.
  Delayed,
  /// From this step's amax, computed in the graph.
  Current,
};

/// What calibration measured of one tensor (see #lowp.stats).
struct TensorStatistics {
  /// Largest magnitude.
  double amax = 0;
  /// Smallest magnitude that matters; 0 when nothing small matters.
  double min = 0;
  /// Optional: non-zero |x| counted per binade, `histogram[i]` counting
  /// [2^(lowestBinade+i), 2^(lowestBinade+i+1)) (binade -127 holds f32's
  /// subnormals, [2^-149, 2^-126)). Empty when not measured.
  std::vector<uint64_t> histogram;
  int lowestBinade = 0;
};

struct FP8SelectionOptions {
  FP8Recipe recipe = FP8Recipe::Hybrid;
  /// Binades of headroom kept between the scaled amax and the format's max.
  unsigned margin = 0;
  /// On a target without FP8, choose bf16 instead of failing.
  bool allowBF16Fallback = false;
  /// `range` with a histogram: bf16 when the better FP8 format's predicted
  /// relative RMS error exceeds this; <= 0 means the default,
  /// getDefaultFP8ErrorBound(target).
  double maxRelativeError = 0;
};

/// The decision for one tensor.
struct FP8Decision {
  /// The chosen format: E4M3 or E5M2 of the target's flavour, or BF16.
  Format format = Format::BF16;
  /// The static scale `fp8_max / amax / 2^margin` when statistics are known
  /// (1 for an all-zero tensor), clamped to f32's normal range.
  std::optional<double> scale;
  /// log2(amax / min): the binades the tensor needs (0 without statistics).
  double binadesNeeded = 0;
  /// Binades each format holds after scaling with the margin (0 when the
  /// target has no FP8).
  double binadesE4M3 = 0, binadesE5M2 = 0;
  /// `range` with a histogram: each format's predicted relative RMS error
  /// after scaling, and the bound bf16 is chosen above.
  std::optional<double> errorE4M3, errorE5M2, errorBound;
  /// One sentence saying why.
  std::string reason;

  bool isFP8() const { return format != Format::BF16; }
};

/// The smallest magnitude `format` holds with at least two significant bits
/// (twice its smallest subnormal): below it the relative rounding error
/// exceeds 25%, so values there count as lost.
double getFP8RangeFloor(Format format);

/// Binades from the floor to the largest finite value, less `margin`.
double getFP8UsableBinades(Format format, unsigned margin);

/// `max_finite(format) / amax / 2^margin`, as Transformer Engine computes it;
/// 1 for amax == 0; clamped to [2^-126, 2^127] so that it is a normal f32.
double computeFP8Scale(Format format, double amax, unsigned margin);

/// The relative RMS error ||q(x) - x||_2 / ||x||_2 predicted for `format`
/// after per-tensor scaling (`computeFP8Scale(format, amax, margin)`) of a
/// tensor with the |x| histogram of `stats`, each binade's values taken as
/// log-uniform (the top one ending at amax): round-to-nearest in each of the
/// format's binades costs ulp^2/12 per value, values under half the smallest
/// subnormal flush to zero, values above the largest finite value saturate.
/// nullopt without a histogram or non-zero counts.
std::optional<double> predictFP8RelativeError(Format format,
                                              const TensorStatistics &stats,
                                              unsigned margin);

/// The relative RMS error of rounding values spread log-uniformly over one
/// binade of `format`'s normal range: 2^-m * sqrt(ln 2 / 18) for m fraction
/// bits (E4M3 0.0245, E5M2 0.0491). What a tensor that fits costs.
double getFP8RoundingError(Format format);

/// The default bound of `range` with a histogram: twice the rounding error
/// of the target's E5M2 (0.098), i.e. the better FP8 format loses at most as
/// much again to flushed and saturated values as E5M2's rounding costs.
/// 0 for a target without FP8.
double getDefaultFP8ErrorBound(const TargetInfo &target);

/// Chooses the format (and, with statistics, the static scale) of one tensor.
/// Fails only when `target` has no FP8 and the options forbid the fallback.
llvm::Expected<FP8Decision>
selectFP8Format(const TargetInfo &target, TensorRole role,
                std::optional<TensorStatistics> stats,
                const FP8SelectionOptions &options);

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_FP8SELECTION_H
