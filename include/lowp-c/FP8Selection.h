/*===-- lowp-c/FP8Selection.h - C API: FP8 format selection --------*- C -*-===*\
|*                                                                            *|
|* The decision `lowp-select-fp8-formats` makes for one tensor, as a pure     *|
|* function of its statistics, its role, the target and the recipe: which    *|
|* FP8 format (or bf16) and which static scale. Lets a framework ask what the *|
|* compiler would choose for calibration data it holds.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LOWP_C_FP8SELECTION_H
#define LOWP_C_FP8SELECTION_H

#include "lowp-c/Tables.h"

#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a tensor is in a training step (mirror of lowp::TensorRole).
typedef enum MlirLowpTensorRole {
  MlirLowpTensorRoleActivation = 0,
  MlirLowpTensorRoleWeight = 1,
  MlirLowpTensorRoleGradient = 2,
} MlirLowpTensorRole;

/// How formats are chosen (mirror of lowp::FP8Recipe).
typedef enum MlirLowpFP8Recipe {
  /// E4M3 for activations and weights, E5M2 for gradients (Transformer
  /// Engine's HYBRID).
  MlirLowpFP8RecipeHybrid = 0,
  /// E4M3 for every tensor.
  MlirLowpFP8RecipeE4M3 = 1,
  /// E5M2 for every tensor.
  MlirLowpFP8RecipeE5M2 = 2,
  /// From the measured range: E4M3 when it fits, else E5M2, else bf16.
  MlirLowpFP8RecipeRange = 3,
} MlirLowpFP8Recipe;

/// The decision for one tensor (mirror of lowp::FP8Decision).
typedef struct MlirLowpFP8Decision {
  /// E4M3 or E5M2 of the target's FP8 flavour, or MlirLowpFormatBF16.
  MlirLowpFormat format;
  /// Whether `scale` holds a static scale (only with statistics).
  bool hasScale;
  /// fp8_max / amax / 2^margin, clamped to f32's normal range.
  double scale;
  /// log2(amax / min): the binades the tensor needs (0 without statistics).
  double binadesNeeded;
  /// Binades each format holds after scaling with the margin.
  double binadesE4M3, binadesE5M2;
} MlirLowpFP8Decision;

/// Chooses the format of one tensor for `target`, a row of the capability table.
///
/// With `hasStats`, `amax` and `min` are the tensor's calibration statistics
/// (as in #lowp.stats); without, only the role and recipe decide and no
/// scale is computed. `margin` is the headroom in binades; with
/// `allowBF16Fallback`, a target without FP8 gets bf16 instead of failure.
///
/// On success fills `decision` and hands the one-sentence reason to
/// `messageCallback`; on failure (unknown chip, target without FP8 and no
/// fallback) hands the error message to it. The callback may be null.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirLowpSelectFP8Format(
    MlirStringRef target, MlirLowpTensorRole role, bool hasStats, double amax,
    double min, MlirLowpFP8Recipe recipe, unsigned margin,
    bool allowBF16Fallback, MlirLowpFP8Decision *decision,
    MlirStringCallback messageCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // LOWP_C_FP8SELECTION_H
