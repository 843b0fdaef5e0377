/*===-- lowp-c/Attributes.h - C API: lowp attributes --------------*- C -*-===*\
|*                                                                            *|
|* Builders and getters for #lowp.target, #lowp.policy and #lowp.stats.       *|
|* Builders verify their parameters: on invalid input they emit an error on  *|
|* the context (visible to an attached diagnostic handler) and return a null *|
|* attribute (check with mlirAttributeIsNull).                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LOWP_C_ATTRIBUTES_H
#define LOWP_C_ATTRIBUTES_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// #lowp.target<"chip">
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a #lowp.target.
MLIR_CAPI_EXPORTED bool mlirAttributeIsALowpTarget(MlirAttribute attr);

/// Builds #lowp.target<"chip">; null when `chip` is not a row of the target
/// table (the error lists the known chips).
MLIR_CAPI_EXPORTED MlirAttribute mlirLowpTargetAttrGet(MlirContext ctx,
                                                       MlirStringRef chip);

/// The chip name of a #lowp.target; the storage lives as long as `attr`.
MLIR_CAPI_EXPORTED MlirStringRef mlirLowpTargetAttrGetChip(MlirAttribute attr);

//===----------------------------------------------------------------------===//
// #lowp.policy<compute = T, accumulate = T, storage = T, loss_scale = m>
//===----------------------------------------------------------------------===//

/// How a training step scales its loss (values of lowp::LossScaleMode).
typedef enum MlirLowpLossScaleMode {
  MlirLowpLossScaleNone = 0,
  MlirLowpLossScaleStatic = 1,
  MlirLowpLossScaleDynamic = 2,
} MlirLowpLossScaleMode;

/// Returns true if `attr` is a #lowp.policy.
MLIR_CAPI_EXPORTED bool mlirAttributeIsALowpPolicy(MlirAttribute attr);

/// Builds a #lowp.policy from three float types and a loss-scale mode; null
/// when a type is not a float type or the policy fails verification.
MLIR_CAPI_EXPORTED MlirAttribute mlirLowpPolicyAttrGet(
    MlirContext ctx, MlirType compute, MlirType accumulate, MlirType storage,
    MlirLowpLossScaleMode lossScale);

MLIR_CAPI_EXPORTED MlirType mlirLowpPolicyAttrGetCompute(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirType mlirLowpPolicyAttrGetAccumulate(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirType mlirLowpPolicyAttrGetStorage(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirLowpLossScaleMode
mlirLowpPolicyAttrGetLossScale(MlirAttribute attr);

//===----------------------------------------------------------------------===//
// #lowp.stats<amax = a, min = m[, samples = n]>
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a #lowp.stats.
MLIR_CAPI_EXPORTED bool mlirAttributeIsALowpStats(MlirAttribute attr);

/// Builds #lowp.stats; `samples < 0` means "not recorded". Null when the
/// statistics fail verification (e.g. negative or non-finite magnitudes).
MLIR_CAPI_EXPORTED MlirAttribute mlirLowpStatsAttrGet(MlirContext ctx,
                                                      double amax, double min,
                                                      int64_t samples);

MLIR_CAPI_EXPORTED double mlirLowpStatsAttrGetAmax(MlirAttribute attr);
MLIR_CAPI_EXPORTED double mlirLowpStatsAttrGetMin(MlirAttribute attr);
/// The sample count, or -1 when the attribute does not record one.
MLIR_CAPI_EXPORTED int64_t mlirLowpStatsAttrGetSamples(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif // LOWP_C_ATTRIBUTES_H
