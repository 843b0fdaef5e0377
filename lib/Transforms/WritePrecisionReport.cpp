//===- WritePrecisionReport.cpp - lowp-write-precision-report -------------===//
//
// Writes the decision report measured on the module as it stands, so that
// lowp-auto-mixed-precision's report shows what every decision pass did
// (FP8 selection comes after precision inference).
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPWRITEPRECISIONREPORT
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct LowpWritePrecisionReportPass
    : public lowp::impl::LowpWritePrecisionReportBase<
          LowpWritePrecisionReportPass> {
  using Base::Base;
  LowpWritePrecisionReportPass(const LowpWritePrecisionReportOptions &options,
                               std::shared_ptr<PrecisionReport> collected)
      : Base(options), collected(std::move(collected)) {}

  /// What precision inference collected earlier in the pipeline; null when
  /// the pass runs on its own.
  std::shared_ptr<PrecisionReport> collected;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PrecisionReport report;
    if (collected) {
      report = *collected;
    } else {
      report.lowFormat = "none";
      report.note = "measured by lowp-write-precision-report";
      report.bytesBefore = measureTensorBytes(module);
    }
    report.measureFinal(module);
    markAllAnalysesPreserved();
    if (failed(report.writeTo(module, reportPath)))
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::lowp::createLowpWritePrecisionReport(
    const LowpWritePrecisionReportOptions &options,
    std::shared_ptr<PrecisionReport> collected) {
  return std::make_unique<LowpWritePrecisionReportPass>(options,
                                                        std::move(collected));
}
