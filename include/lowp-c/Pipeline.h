/*===-- lowp-c/Pipeline.h - C API: running fp-opt pipelines -------*- C -*-===*\
|*                                                                            *|
|* One call that runs a textual pass pipeline on a module and reports every  *|
|* diagnostic it produced, for compilers that drive fp-opt from C or from a  *|
|* scripting language.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LOWP_C_PIPELINE_H
#define LOWP_C_PIPELINE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parses `source` as a module in `context`, naming the buffer `sourceName`
/// in locations. Parse errors are handed to `diagnosticCallback` (may be
/// null) in the format described for mlirLowpRunPipeline, and a null module
/// is returned. The context must have the dialects of `source` registered.
MLIR_CAPI_EXPORTED MlirModule mlirLowpParseModule(
    MlirContext context, MlirStringRef source, MlirStringRef sourceName,
    MlirStringCallback diagnosticCallback, void *userData);

/// Runs `pipeline` on `module` in place.
///
/// `pipeline` uses mlir-opt's textual form, either a list of passes nested
/// implicitly under the module, e.g.
///   "lowp-auto-mixed-precision{target=sm_90},canonicalize"
///   "func.func(canonicalize),cse"
/// or a fully anchored pipeline, e.g.
///   "builtin.module(lowp-auto-mixed-precision{target=sm_90})".
/// The passes must be registered (mlirLowpRegisterPassesAndPipelines,
/// mlirRegisterAllPasses) and the dialects they create loadable in the
/// module's context.
///
/// Every diagnostic emitted while parsing the pipeline or running it (errors,
/// warnings and remarks, with their notes) is handed to `diagnosticCallback`
/// as text, one call per diagnostic, formatted as
///   "<location>: <severity>: <message>\n" (each note on its own line).
/// The callback may be null. While the pipeline runs these diagnostics are
/// not passed on to handlers attached to the context.
///
/// Returns failure when the pipeline does not parse, names an unknown pass,
/// a pass fails or reports an error without failing, or the result does not
/// verify; the module is then in whatever state the passes left it. The
/// result is verified once, after the last pass, not after every pass as
/// mlir-opt does (on a whole model, that is a third of the lowering's time);
/// when it does not verify, the pipeline runs again on a copy of the input
/// with the verifier after every pass, and an error names the first pass
/// whose output does not verify (lowp::runVerifyingAtEnd).
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirLowpRunPipeline(MlirModule module, MlirStringRef pipeline,
                    MlirStringCallback diagnosticCallback, void *userData);

/// Describes the signature of a function of `module` after a pipeline ran:
/// `callback` receives one JSON object
///   {"function": "mlp",
///    "arguments": [{"type": "tensor<8x16xf32>", "attributes": {}},
///                  {"type": "tensor<16x4xbf16>", "attributes": {}},
///                  {"type": "tensor<4x4xf8E4M3FN>",
///                   "attributes": {"lowp.fp8_scale": "3 : i64"}},
///                  {"type": "f32",
///                   "attributes": {"lowp.fp8_scale_of": "2 : i64"}}],
///    "results": ["tensor<8x4xf32>"]}
/// (attribute values as MLIR prints them). This is how an embedder learns
/// what `demote-weights=arguments` did to the types its caller passes
/// (docs/embedding.md). `function` names a func.func; empty: the entry
/// function, the one public function with a body that nothing in the module
/// calls. Returns failure (and does not call `callback`) when there is no
/// such function or more than one entry function; `errorCallback` (may be
/// null) then receives the reason.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirLowpDescribeFunctionSignature(
    MlirModule module, MlirStringRef function, MlirStringCallback callback,
    void *userData, MlirStringCallback errorCallback, void *errorUserData);

#ifdef __cplusplus
}
#endif

#endif // LOWP_C_PIPELINE_H
