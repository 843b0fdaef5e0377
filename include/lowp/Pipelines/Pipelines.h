//===- Pipelines.h - fp-opt's named pipelines --------------------*- C++ -*-===//

#ifndef LOWP_PIPELINES_PIPELINES_H
#define LOWP_PIPELINES_PIPELINES_H

namespace mlir::lowp {

/// Registers every named pipeline of fp-opt (lowp-auto-mixed-precision,
/// lowp-pipeline-x86, ...) with the global pass-pipeline registry.
void registerLowpPipelines();

/// Registers lowp-pipeline-x86{target=... mr=... nr=...}.
void registerX86Pipeline();

/// Registers lowp-pipeline-nvvm{target=... threads=...}.
void registerNVVMPipeline();

/// Registers lowp-pipeline-rocdl{target=... threads=...}.
void registerROCDLPipeline();

/// Registers lowp-pipeline-tpu{target=...}.
void registerTPUPipeline();

} // namespace mlir::lowp

#endif // LOWP_PIPELINES_PIPELINES_H
