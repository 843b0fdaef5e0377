//===- InitLowp.h - register everything fp-opt provides ----------*- C++ -*-===//
//
// One call for embedders: the lowp dialect and its external interface
// models, every lowp pass and every named pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_INITLOWP_H
#define LOWP_INITLOWP_H

namespace mlir {
class DialectRegistry;
namespace lowp {

/// Adds the lowp dialect and the external models fp-opt attaches to upstream
/// ops (precision classes) to `registry`.
void registerLowpDialects(DialectRegistry &registry);

/// Registers every lowp pass and named pipeline with the global registries.
void registerLowpPassesAndPipelines();

} // namespace lowp
} // namespace mlir

#endif // LOWP_INITLOWP_H
