//===- GPUMapping.h - shared front half of the GPU pipelines -----*- C++ -*-===//
//
// lowp-pipeline-nvvm and lowp-pipeline-rocdl differ only from the kernels'
// conversions on; the way to the kernels is the same.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_LIB_PIPELINES_GPUMAPPING_H
#define LOWP_LIB_PIPELINES_GPUMAPPING_H

#include "lowp/Target/TargetInfo.h"

#include "mlir/Pass/PassManager.h"

namespace mlir::lowp {

/// convert-lowp-to-linalg, bufferization, and the naive mapping to the GPU:
/// every linalg op becomes an scf.parallel over its parallel dimensions
/// (reductions stay sequential scf.for loops inside one thread), tiled
/// 1 x `threads` so the innermost dimension maps to the threads of a block
/// and the rest to the grid (a guard, not a min bound, keeps tails in range,
/// so every loop becomes a launch), outlined into one gpu.module per kernel.
/// Inside the kernels, arithmetic in formats `chip` cannot compute in runs
/// in f32 between an extf and a truncf. `lowerMatrixOps`, when given, runs
/// on the bufferized module before the naive mapping (the NVVM pipeline's
/// tensor-core kernels: what it leaves goes the naive way).
void addNaiveGPUMapping(
    OpPassManager &pm, const TargetInfo &chip, unsigned threads,
    function_ref<void(OpPassManager &)> lowerMatrixOps = nullptr);

} // namespace mlir::lowp

#endif // LOWP_LIB_PIPELINES_GPUMAPPING_H
