/*===-- lowp-c/Dialect.h - C API: lowp dialect and registration ---*- C -*-===*\
|*                                                                            *|
|* The entry points an embedder calls once: the lowp dialect handle, the      *|
|* full registration (dialect plus the precision-class models fp-opt attaches *|
|* to upstream ops) and the registration of every lowp pass and pipeline.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LOWP_C_DIALECT_H
#define LOWP_C_DIALECT_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The lowp dialect handle: `mlirGetDialectHandle__lowp__()`. Inserting it
/// only adds the dialect; use mlirLowpRegisterDialects to also get the
/// precision-class models on upstream ops that the decision passes need.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Lowp, lowp);

/// Adds the lowp dialect and the external models fp-opt attaches to upstream
/// ops (linalg, arith, math, tensor, ...) to `registry`. Call it next to
/// mlirRegisterAllDialects (or your compiler's own dialect registration),
/// then mlirContextAppendDialectRegistry.
MLIR_CAPI_EXPORTED void mlirLowpRegisterDialects(MlirDialectRegistry registry);

/// Registers every lowp pass (`lowp-infer-precision`, ...) and every named
/// pipeline (`lowp-auto-mixed-precision`, `lowp-pipeline-nvvm`, ...) with
/// MLIR's global pass registry, so that textual pipelines can name them.
/// Idempotent: calling it again does nothing.
MLIR_CAPI_EXPORTED void mlirLowpRegisterPassesAndPipelines(void);

/// Returns the fp-opt version string ("0.1.0"); the storage is static.
MLIR_CAPI_EXPORTED MlirStringRef mlirLowpGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif // LOWP_C_DIALECT_H
