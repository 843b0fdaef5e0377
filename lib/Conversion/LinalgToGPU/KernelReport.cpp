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
      unsigned tensorCore = 0, rowReduction = 0, naive = 0;
      func->walk([&](gpu::LaunchFuncOp launch) {
        StringRef module = launch.getKernelModuleName().getValue();
        if (module.contains("_mma_sync"))
          ++tensorCore;
        else if (module.contains("_row_reduction"))
          ++rowReduction;
        else
          ++naive;
      });
      unsigned total = tensorCore + rowReduction + naive;
      if (total == 0)
        return;
      emitRemark(func.getLoc()) << "@" << func.getName() << " launches " << total
                         << " kernel" << (total == 1 ? "" : "s") << ": "
                         << tensorCore << " tensor-core, " << rowReduction
                         << " row-reduction, " << naive << " naive";
    });
  }
};
} // namespace
