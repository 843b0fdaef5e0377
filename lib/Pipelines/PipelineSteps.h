//===- PipelineSteps.h - steps the lowering pipelines share ------*- C++ -*-===//
//
// What lowp-pipeline-x86, -nvvm, -rocdl and -tpu do alike.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_LIB_PIPELINES_PIPELINESTEPS_H
#define LOWP_LIB_PIPELINES_PIPELINESTEPS_H

#include "mlir/Pass/PassManager.h"

namespace mlir::lowp {

/// Appends a textual pipeline; the pieces are fixed strings, so a parse
/// failure is a bug in the calling pipeline.
void addPipelineText(OpPassManager &pm, StringRef text);

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
/// returns belong to its caller.
void addBufferization(OpPassManager &pm);

} // namespace mlir::lowp

#endif // LOWP_LIB_PIPELINES_PIPELINESTEPS_H
