//===- KernelReport.cpp - lowp-gpu-report-kernels -------------------------===//
//
// One remark per host function with the number of kernels it launches, by
// kind: what fusion is measured by.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPGPUREPORTKERNELS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct LowpGPUReportKernelsPass
    : lowp::impl::LowpGPUReportKernelsBase<LowpGPUReportKernelsPass> {
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface func) {
      if (isa<gpu::GPUFuncOp>(func))
        return;
      unsigned matrixUnit = 0, rowReduction = 0, naive = 0;
      func->walk([&](gpu::LaunchFuncOp launch) {
        StringRef module = launch.getKernelModuleName().getValue();
        // The GEMM kernels' modules end in their back end's suffix.
        if (module.ends_with("_mma_sync") || module.ends_with("_mfma") ||
            module.ends_with("_wgmma") || module.contains("_mma_sync_") ||
            module.contains("_mfma_") || module.contains("_wgmma_"))
          ++matrixUnit;
        else if (module.contains("_row_reduction"))
          ++rowReduction;
        else
          ++naive;
      });
      unsigned total = matrixUnit + rowReduction + naive;
      if (total == 0)
        return;
      emitRemark(func.getLoc()) << "@" << func.getName() << " launches " << total
                         << " kernel" << (total == 1 ? "" : "s") << ": "
                         << matrixUnit << " matrix-unit, " << rowReduction
                         << " row-reduction, " << naive << " naive";
    });
  }
};
} // namespace
