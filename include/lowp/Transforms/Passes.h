//===- Passes.h - lowp transformation passes ---------------------*- C++ -*-===//

#ifndef LOWP_TRANSFORMS_PASSES_H
#define LOWP_TRANSFORMS_PASSES_H

#include "lowp/Analysis/FP8Selection.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/Support/OptionEnums.h"
#include "lowp/Support/WeightDemotion.h"
#include "mlir/Pass/Pass.h"

#include <memory>

// Enum options of these passes name their values when given a wrong one.
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::FP8Recipe)
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::FP8Scaling)
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::AmaxCompute)

namespace mlir::lowp {

#define GEN_PASS_DECL
#include "lowp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowp/Transforms/Passes.h.inc"

struct PrecisionReport;

/// Precision inference that hands its report to `collected` instead of
/// writing it, and the report step that completes and writes it after the
/// later decision passes: how lowp-auto-mixed-precision reports on the
/// module it leaves.
std::unique_ptr<Pass>
createLowpInferPrecision(const LowpInferPrecisionOptions &options,
                         std::shared_ptr<PrecisionReport> collected);
std::unique_ptr<Pass>
createLowpWritePrecisionReport(const LowpWritePrecisionReportOptions &options,
                               std::shared_ptr<PrecisionReport> collected);

// The factories are ODS's create<Name>, with Name the pass flag in
// CamelCase. The spellings of the previous release without the Lowp prefix
// stay for one release.
using InsertFP32IslandsOptions [[deprecated("use LowpInsertFP32IslandsOptions")]] =
    LowpInsertFP32IslandsOptions;
using SelectFP8FormatsOptions [[deprecated("use LowpSelectFP8FormatsOptions")]] =
    LowpSelectFP8FormatsOptions;
using ViewPrecisionGraphOptions [[deprecated("use LowpViewPrecisionGraphOptions")]] =
    LowpViewPrecisionGraphOptions;
using ApplyCalibrationOptions [[deprecated("use LowpApplyCalibrationOptions")]] =
    LowpApplyCalibrationOptions;
#define LOWP_DEPRECATED_FACTORY(OLD, NEW)                                      \
  template <typename... Args>                                                  \
  [[deprecated("use " #NEW)]] std::unique_ptr<::mlir::Pass> OLD(               \
      Args &&...args) {                                                        \
    return NEW(std::forward<Args>(args)...);                                   \
  }
LOWP_DEPRECATED_FACTORY(createInsertFP32Islands, createLowpInsertFP32Islands)
LOWP_DEPRECATED_FACTORY(createSelectFP8Formats, createLowpSelectFP8Formats)
LOWP_DEPRECATED_FACTORY(createInstrumentCalibration,
                        createLowpInstrumentCalibration)
LOWP_DEPRECATED_FACTORY(createApplyCalibration, createLowpApplyCalibration)
LOWP_DEPRECATED_FACTORY(createViewPrecisionGraph, createLowpViewPrecisionGraph)
#undef LOWP_DEPRECATED_FACTORY

} // namespace mlir::lowp

#endif // LOWP_TRANSFORMS_PASSES_H
