/*===-- lowp-c/Translate.h - C API: LLVM dialect to LLVM bitcode --*- C -*-===*\
|*                                                                            *|
|* The last step before machine code, in the embedder's process: a module    *|
|* in the LLVM dialect (what lowp-pipeline-x86 leaves) as LLVM bitcode, for  *|
|* llc or an in-process LLVM backend. No module text is printed or parsed on *|
|* the way (mlir-translate --mlir-to-llvmir does the same from text).        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LOWP_C_TRANSLATE_H
#define LOWP_C_TRANSLATE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Translates `module` to an LLVM IR module (every upstream dialect's
/// translation to LLVM IR is registered in the module's context for it) and
/// hands the module's bitcode to `bitcodeCallback`, in one or more pieces in
/// order. A module with an op that has no translation (anything not yet
/// lowered to the LLVM dialect or one of its intrinsic dialects) is not
/// translated: the translation's diagnostics go to `diagnosticCallback` (may
/// be null), formatted as for mlirLowpRunPipeline, and failure is returned
/// without a call to `bitcodeCallback`.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirLowpTranslateModuleToLLVMBitcode(
    MlirModule module, MlirStringCallback bitcodeCallback, void *userData,
    MlirStringCallback diagnosticCallback, void *diagnosticUserData);

#ifdef __cplusplus
}
#endif

#endif // LOWP_C_TRANSLATE_H
