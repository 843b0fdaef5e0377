//===- RunPipeline.cpp - running a pipeline in an embedding ---------------===//

#include "lowp/Pipelines/RunPipeline.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"

using namespace mlir;

namespace {
/// Names the first pass that fails in a run with the verifier after every
/// pass: in a run that succeeded without it, that is the pass whose output
/// does not verify.
struct NameInvalidatingPass : PassInstrumentation {
  bool named = false;
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (named)
      return;
    named = true;
    StringRef name = pass->getArgument();
    mlir::emitError(op->getLoc())
        << "the IR does not verify after pass '"
        << (name.empty() ? pass->getName() : name) << "'";
  }
};
} // namespace

LogicalResult mlir::lowp::runVerifyingAtEnd(PassManager &pm,
                                            ModuleOp module) {
  OwningOpRef<ModuleOp> input = module.clone();
  pm.enableVerifier(false);
  if (failed(pm.run(module)))
    return failure();
  {
    // The run below reports the errors, with the pass.
    ScopedDiagnosticHandler quiet(module.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (succeeded(verify(module)))
      return success();
  }
  pm.enableVerifier(true);
  pm.addInstrumentation(std::make_unique<NameInvalidatingPass>());
  // The first run reported the warnings and remarks; this one adds errors.
  ScopedDiagnosticHandler onlyErrors(module.getContext(), [](Diagnostic &d) {
    return success(d.getSeverity() != DiagnosticSeverity::Error);
  });
  if (succeeded(pm.run(*input)))
    // Not reproduced (a pass that depends on more than its input): the
    // verifier's own errors, without the pass.
    return verify(module);
  return failure();
}
