//===- PipelineSteps.cpp - steps the lowering pipelines share -------------===//

#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void lowp::addPipelineText(OpPassManager &pm, StringRef text) {
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("lowp pipeline: bad pipeline text");
}

void lowp::addLowpToBufferizableTensors(OpPassManager &pm) {
  // Unregistered ops: one clear error here rather than whichever later step
  // trips over them first.
  pm.addPass(createLowpPrepareLoweringInput());
  pm.addPass(createConvertLowpToLinalg());
  addPipelineText(pm, "func.func(convert-elementwise-to-linalg),"
                      "lift-cf-to-scf");
}

void lowp::addBufferization(OpPassManager &pm) {
  // Expands with two dynamic sizes in one group would reach upstream
  // expand-strided-metadata as memref.expand_shape, which crashes on them.
  pm.addPass(createLowpExpandShapeToReshape());
  addPipelineText(pm, "one-shot-bufferize{bufferize-function-boundaries "
                      "function-boundary-type-conversion=identity-layout-map "
                      "allow-return-allocs-from-loops}");
  // Every buffer bufferization allocated is freed: ownership-based
  // deallocation frees intermediates where their last use is and hands the
  // buffers a function returns to its caller (who frees them), so a
  // compiled function called in a loop keeps memory flat. Later steps that
  // allocate (the contraction kernels' packing buffers) free their own.
  bufferization::buildBufferDeallocationPipeline(pm);
  // The clones it needs where ownership is not statically known become
  // memref.alloc + memref.copy.
  addPipelineText(pm, "convert-bufferization-to-memref");
}
