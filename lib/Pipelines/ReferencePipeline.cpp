//===- ReferencePipeline.cpp - lowp-pipeline-reference --------------------===//
//
// The lowering decisions are checked against: a decided module becomes
// plain loops on this CPU, every op in the format the IR gives it, rounded
// after every op, every narrow conversion exact (docs/design.md,
// "Lowering"). It is slow on purpose and shares no kernel with
// lowp-pipeline-x86, so a kernel bug cannot hide in both.
//
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"

#include "lowp/Pipelines/Pipelines.h"

using namespace mlir;
using namespace mlir::lowp;

LogicalResult
mlir::lowp::buildReferencePipeline(OpPassManager &pm,
                                   const ReferencePipelineOptions &,
                                   PipelineErrorHandler) {
  addLowpToBufferizableTensors(pm);
  addReferenceLoopLowering(pm);
  return success();
}
