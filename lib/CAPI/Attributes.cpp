//===- Attributes.cpp - C API: lowp attributes ----------------------------===//

#include "lowp-c/Attributes.h"

#include "lowp/IR/LowpDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::lowp;

/// Errors of the checked builders go to the context's diagnostic handlers.
static auto emitOn(MLIRContext *ctx) {
  return mlir::detail::getDefaultDiagnosticEmitFn(ctx);
}

//===----------------------------------------------------------------------===//
// #lowp.target
//===----------------------------------------------------------------------===//

bool mlirAttributeIsALowpTarget(MlirAttribute attr) {
  return isa<TargetAttr>(unwrap(attr));
}

MlirAttribute mlirLowpTargetAttrGet(MlirContext ctx, MlirStringRef chip) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<LowpDialect>();
  return wrap(TargetAttr::getChecked(emitOn(context), context, unwrap(chip)));
}

MlirStringRef mlirLowpTargetAttrGetChip(MlirAttribute attr) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getChip());
}

//===----------------------------------------------------------------------===//
// #lowp.policy
//===----------------------------------------------------------------------===//

static_assert(MlirLowpLossScaleNone ==
                  static_cast<int>(LossScaleMode::None) &&
              MlirLowpLossScaleStatic ==
                  static_cast<int>(LossScaleMode::Static) &&
              MlirLowpLossScaleDynamic ==
                  static_cast<int>(LossScaleMode::Dynamic),
              "C enum out of sync with lowp::LossScaleMode");

bool mlirAttributeIsALowpPolicy(MlirAttribute attr) {
  return isa<PolicyAttr>(unwrap(attr));
}

MlirAttribute mlirLowpPolicyAttrGet(MlirContext ctx, MlirType compute,
                                    MlirType accumulate, MlirType storage,
                                    MlirLowpLossScaleMode lossScale) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<LowpDialect>();
  auto emitError = emitOn(context);
  auto asFloat = [&](MlirType type, StringRef role) -> FloatType {
    auto floatType = dyn_cast_or_null<FloatType>(unwrap(type));
    if (!floatType)
      emitError() << "#lowp.policy " << role << " must be a float type, got "
                  << unwrap(type);
    return floatType;
  };
  FloatType c = asFloat(compute, "compute");
  FloatType a = asFloat(accumulate, "accumulate");
  FloatType s = asFloat(storage, "storage");
  if (!c || !a || !s)
    return MlirAttribute{nullptr};
  if (lossScale < MlirLowpLossScaleNone || lossScale > MlirLowpLossScaleDynamic) {
    emitError() << "invalid #lowp.policy loss-scale mode "
                << static_cast<int>(lossScale);
    return MlirAttribute{nullptr};
  }
  return wrap(PolicyAttr::getChecked(emitError, context, c, a, s,
                                     static_cast<LossScaleMode>(lossScale)));
}

MlirType mlirLowpPolicyAttrGetCompute(MlirAttribute attr) {
  return wrap(cast<PolicyAttr>(unwrap(attr)).getCompute());
}
MlirType mlirLowpPolicyAttrGetAccumulate(MlirAttribute attr) {
  return wrap(cast<PolicyAttr>(unwrap(attr)).getAccumulate());
}
MlirType mlirLowpPolicyAttrGetStorage(MlirAttribute attr) {
  return wrap(cast<PolicyAttr>(unwrap(attr)).getStorage());
}
MlirLowpLossScaleMode mlirLowpPolicyAttrGetLossScale(MlirAttribute attr) {
  return static_cast<MlirLowpLossScaleMode>(
      cast<PolicyAttr>(unwrap(attr)).getLossScale());
}

//===----------------------------------------------------------------------===//
// #lowp.stats
//===----------------------------------------------------------------------===//

bool mlirAttributeIsALowpStats(MlirAttribute attr) {
  return isa<StatsAttr>(unwrap(attr));
}

MlirAttribute mlirLowpStatsAttrGet(MlirContext ctx, double amax, double min,
                                   int64_t samples) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<LowpDialect>();
  std::optional<uint64_t> count;
  if (samples >= 0)
    count = static_cast<uint64_t>(samples);
  return wrap(StatsAttr::getChecked(emitOn(context), context,
                                    llvm::APFloat(amax), llvm::APFloat(min),
                                    count));
}

double mlirLowpStatsAttrGetAmax(MlirAttribute attr) {
  return cast<StatsAttr>(unwrap(attr)).getAmaxValue();
}
double mlirLowpStatsAttrGetMin(MlirAttribute attr) {
  return cast<StatsAttr>(unwrap(attr)).getMinValue();
}
int64_t mlirLowpStatsAttrGetSamples(MlirAttribute attr) {
  std::optional<uint64_t> samples = cast<StatsAttr>(unwrap(attr)).getSamples();
  return samples ? static_cast<int64_t>(*samples) : -1;
}
