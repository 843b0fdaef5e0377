//===- RunPipeline.h - running a pipeline in an embedding -------*- C++ -*-===//
//
// How the C API and the Python package run a pipeline on a whole model:
// verified once at the end, not after every pass.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_PIPELINES_RUNPIPELINE_H
#define LOWP_PIPELINES_RUNPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::lowp {

/// Runs `pm` on `module` and verifies the result once. The verifier after
/// every pass (PassManager's default, and fp-opt's) walks the whole module
/// some fifty times in lowp-pipeline-x86: on a whole model's lowered
/// function that is a third of the lowering. When the result does not
/// verify, the pipeline runs again on a copy of the input with the
/// verifier after every pass, and the error names the first pass whose
/// output is invalid. A pass that fails, or crashes, on its predecessor's
/// invalid output is not told apart from it here: fp-opt, which verifies
/// after every pass, names the predecessor. `pm` serves this one run.
LogicalResult runVerifyingAtEnd(PassManager &pm, ModuleOp module);

} // namespace mlir::lowp

#endif // LOWP_PIPELINES_RUNPIPELINE_H
