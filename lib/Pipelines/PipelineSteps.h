//===- PipelineSteps.h - steps the pipelines share ---------------*- C++ -*-===//
//
// What lowp-pipeline-x86, -nvvm, -rocdl and -tpu do alike, written once.
// Upstream passes are added through their C++ factories.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_LIB_PIPELINES_PIPELINESTEPS_H
#define LOWP_LIB_PIPELINES_PIPELINESTEPS_H

#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Pass/PassManager.h"

namespace mlir::lowp {

/// The first step of every lowering: fp-opt's decisions become arith and
/// linalg (convert-lowp-to-linalg), arith/math on whole tensors (front ends
/// emit them) linalg.generic, and branches that carry tensors scf: neither
/// bufferizes (one-shot-bufferize gives cf block arguments buffer types
/// their predecessors do not pass).
void addLowpToBufferizableTensors(OpPassManager &pm);

/// Tensors to buffers, with plain row-major layouts at function boundaries
/// (so later steps see identity-layout memrefs). Loops may yield new
/// buffers: front ends carry freshly computed tensors through scf.for.
/// Buffers are freed (ownership-based deallocation); buffers a function
/// returns belong to its caller. With `updateInPlace`, a result marked
/// `lowp.updates = i` is written into argument i's buffer and returned as
/// that buffer (lowp-write-updates-in-place, lowp-return-updated-arguments).
void addBufferization(OpPassManager &pm, bool updateInPlace = false);

/// Arithmetic in the formats lowp decides (f16, bf16, the FP8 formats) for
/// which `isEmulated` holds runs in f32 between an extf and a truncf, and
/// math functions on narrow floats in f32, rounded after every op as the IR
/// states (lowp-emulate-narrow-arithmetic), on the ops `pm` runs on.
void addFloatEmulation(OpPassManager &pm,
                       function_ref<bool(Format)> isEmulated);

/// The end of the CPU pipelines (x86, TPU), after their own vector
/// lowering: math to LLVM intrinsics or libm, memrefs and everything left
/// to the LLVM dialect, and lowp's attributes dropped (mlir-translate does
/// not know them).
void addCPUToLLVMFinalization(OpPassManager &pm);

/// Buffers, loops and the LLVM dialect for this CPU, with no kernels: what
/// lowp-pipeline-reference is and lowp-pipeline-tpu ends with, from
/// bufferizable tensors (addLowpToBufferizableTensors). Narrow arithmetic is
/// rounded after every op and narrow conversions are exact integer code,
/// for every format, so the result does not depend on the host's or the
/// module's target.
void addReferenceLoopLowering(OpPassManager &pm);

/// The end of the GPU pipelines (NVVM, ROCDL), once the kernels are in the
/// target's dialect: host launches to LLVM, each gpu.module serialized to
/// assembly (`toolkitPath`: the CUDA toolkit whose libdevice is linked;
/// empty: MLIR's default), host math to LLVM, and lowp's attributes
/// dropped.
void addGPUToLLVMFinalization(OpPassManager &pm, StringRef toolkitPath);

/// The row of `vendor` named `chip`; otherwise reports, through
/// `errorHandler` (stderr when null), that `pipeline` needs one, listing
/// the vendor's rows.
FailureOr<const TargetInfo *> lookupPipelineTarget(
    StringRef pipeline, StringRef chip, Vendor vendor,
    PipelineErrorHandler errorHandler);

} // namespace mlir::lowp

#endif // LOWP_LIB_PIPELINES_PIPELINESTEPS_H
