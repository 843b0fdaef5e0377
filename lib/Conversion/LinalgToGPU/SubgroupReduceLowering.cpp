//===- SubgroupReduceLowering.cpp - lowp-gpu-lower-subgroup-reduce --------===//
//
// gpu.subgroup_reduce, which the row-reduction kernels are written in, to
// the chip's cross-lane instructions, for the subgroup size of the
// capability table: a gpu.shuffle butterfly on NVIDIA (shfl.sync.bfly), DPP
// on AMD. Upstream's convert-gpu-to-nvvm/rocdl lower neither floating-point
// subgroup reductions nor take the subgroup size from a table.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPGPULOWERSUBGROUPREDUCE
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct LowpGPULowerSubgroupReducePass
    : lowp::impl::LowpGPULowerSubgroupReduceBase<
          LowpGPULowerSubgroupReducePass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(root, target);
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    bool any = false;
    root->walk([&](gpu::SubgroupReduceOp) { any = true; });
    if (!any)
      return;
    if (!info || !info->gpu) {
      root->emitError() << "lowp-gpu-lower-subgroup-reduce needs a GPU of the "
                           "capability table (target=sm_XX or gfxXXX, or a "
                           "lowp.target)";
      return signalPassFailure();
    }

    RewritePatternSet patterns(&getContext());
    // Wider values become 32-bit pieces the shuffles and DPP can move.
    populateGpuBreakDownSubgroupReducePatterns(patterns,
                                               /*maxShuffleBitwidth=*/32,
                                               /*benefit=*/PatternBenefit(3));
    if (info->vendor == Vendor::AMD) {
      FailureOr<amdgpu::Chipset> chipset =
          amdgpu::Chipset::parse(info->llvmCpu);
      if (failed(chipset)) {
        root->emitError() << "'" << info->llvmCpu
                          << "' is not an AMDGPU chipset";
        return signalPassFailure();
      }
      // DPP row operations first; the shuffle butterfly (ds_bpermute) for
      // what they do not take.
      populateGpuLowerSubgroupReduceToDPPPatterns(
          patterns, info->gpu->subgroupSize, *chipset, PatternBenefit(2));
      populateGpuLowerClusteredSubgroupReduceToDPPPatterns(
          patterns, info->gpu->subgroupSize, *chipset, PatternBenefit(2));
    }
    populateGpuLowerSubgroupReduceToShufflePatterns(
        patterns, info->gpu->subgroupSize, /*shuffleBitwidth=*/32);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, info->gpu->subgroupSize, /*shuffleBitwidth=*/32);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();

    WalkResult left = root->walk([&](gpu::SubgroupReduceOp op) {
      op.emitError() << "no lowering of this subgroup reduction for "
                     << info->name << " (subgroup of " << info->gpu->subgroupSize
                     << " lanes)";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
