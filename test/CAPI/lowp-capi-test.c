/*===- lowp-capi-test.c - exercises the lowp C API ------------------------===*\
|*                                                                            *|
|* Driven by test/CAPI/lowp-capi.test: prints what every C entry point returns *|
|* so FileCheck can compare it against the C++ tables and the lowp syntax.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "lowp-c/Attributes.h"
#include "lowp-c/Dialect.h"
#include "lowp-c/FP8Selection.h"
#include "lowp-c/Pipeline.h"
#include "lowp-c/Tables.h"
#include "lowp-c/Translate.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/// Collects diagnostics text, prefixed so FileCheck can tell it apart.
static void printDiagnostic(MlirStringRef text, void *userData) {
  int *count = (int *)userData;
  ++*count;
  printf("diag: %.*s", (int)text.length, text.data);
}

/// Context-level handler: builders report invalid parameters here.
static MlirLogicalResult contextDiagnostic(MlirDiagnostic diag, void *data) {
  (void)data;
  printf("context diag: ");
  mlirDiagnosticPrint(diag, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirContext createContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirLowpRegisterDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  return ctx;
}

static void testDialect(void) {
  printf("== dialect\n");
  MlirDialectHandle handle = mlirGetDialectHandle__lowp__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  printf("namespace: %.*s\n", (int)ns.length, ns.data);
  MlirStringRef version = mlirLowpGetVersion();
  printf("version: %.*s\n", (int)version.length, version.data);

  // The handle alone is enough to load the dialect into a bare context.
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(handle, ctx);
  MlirDialect dialect = mlirDialectHandleLoadDialect(handle, ctx);
  printf("loaded: %d\n", !mlirDialectIsNull(dialect));
  mlirContextDestroy(ctx);
  // CHECK-LABEL: == dialect
  // CHECK-NEXT: namespace: lowp
  // CHECK-NEXT: version: 0.
  // CHECK-NEXT: loaded: 1
}

static void printAttr(const char *what, MlirAttribute attr) {
  printf("%s: ", what);
  if (mlirAttributeIsNull(attr))
    printf("<null>");
  else
    mlirAttributePrint(attr, printToStdout, NULL);
  printf("\n");
}

static void testAttributes(MlirContext ctx) {
  printf("== attributes\n");
  MlirAttribute target =
      mlirLowpTargetAttrGet(ctx, mlirStringRefCreateFromCString("sm_90"));
  printAttr("target", target);
  MlirStringRef chip = mlirLowpTargetAttrGetChip(target);
  printf("chip: %.*s isa=%d/%d\n", (int)chip.length, chip.data,
         mlirAttributeIsALowpTarget(target), mlirAttributeIsALowpStats(target));
  printAttr("bad target", mlirLowpTargetAttrGet(
                              ctx, mlirStringRefCreateFromCString("sm_1")));

  MlirAttribute policy = mlirLowpPolicyAttrGet(
      ctx, mlirBF16TypeGet(ctx), mlirF32TypeGet(ctx), mlirF32TypeGet(ctx),
      MlirLowpLossScaleDynamic);
  printAttr("policy", policy);
  printf("policy isa=%d compute=", mlirAttributeIsALowpPolicy(policy));
  mlirTypePrint(mlirLowpPolicyAttrGetCompute(policy), printToStdout, NULL);
  printf(" accumulate=");
  mlirTypePrint(mlirLowpPolicyAttrGetAccumulate(policy), printToStdout, NULL);
  printf(" storage=");
  mlirTypePrint(mlirLowpPolicyAttrGetStorage(policy), printToStdout, NULL);
  printf(" loss_scale=%d\n", (int)mlirLowpPolicyAttrGetLossScale(policy));
  printAttr("bad policy",
            mlirLowpPolicyAttrGet(ctx, mlirBF16TypeGet(ctx),
                                  mlirIntegerTypeGet(ctx, 32),
                                  mlirF32TypeGet(ctx), MlirLowpLossScaleNone));

  MlirAttribute stats = mlirLowpStatsAttrGet(ctx, 448.0, 0.015625, 4096);
  printAttr("stats", stats);
  printf("stats isa=%d amax=%g min=%g samples=%lld\n",
         mlirAttributeIsALowpStats(stats), mlirLowpStatsAttrGetAmax(stats),
         mlirLowpStatsAttrGetMin(stats),
         (long long)mlirLowpStatsAttrGetSamples(stats));
  MlirAttribute noSamples = mlirLowpStatsAttrGet(ctx, 1.0, 0.5, -1);
  printAttr("stats without samples", noSamples);
  printf("samples=%lld\n", (long long)mlirLowpStatsAttrGetSamples(noSamples));
  printAttr("bad stats", mlirLowpStatsAttrGet(ctx, -1.0, 0.5, -1));

  // Attributes built in C round-trip through the parser.
  MlirAttribute parsed = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#lowp.stats<amax = 448.0, min = "
                                          "0.015625, samples = 4096>"));
  printf("parsed equals built: %d\n", mlirAttributeEqual(parsed, stats));
  // CHECK-LABEL: == attributes
  // CHECK-NEXT: target: #lowp.target<"sm_90">
  // CHECK-NEXT: chip: sm_90 isa=1/0
  // CHECK-NEXT: context diag: unknown target 'sm_1'
  // CHECK-NEXT: bad target: <null>
  // CHECK-NEXT: policy: #lowp.policy<compute = bf16, accumulate = f32, storage = f32, loss_scale = dynamic>
  // CHECK-NEXT: policy isa=1 compute=bf16 accumulate=f32 storage=f32 loss_scale=2
  // CHECK-NEXT: context diag: #lowp.policy accumulate must be a float type, got 'i32'
  // CHECK-NEXT: bad policy: <null>
  // CHECK-NEXT: stats: #lowp.stats<amax = 4.480000e+02, min = 1.562500e-02, samples = 4096>
  // CHECK-NEXT: stats isa=1 amax=448 min=0.015625 samples=4096
  // CHECK-NEXT: stats without samples: #lowp.stats<amax = 1.000000e+00, min = 5.000000e-01>
  // CHECK-NEXT: samples=-1
  // CHECK-NEXT: context diag: amax must be finite and non-negative
  // CHECK-NEXT: bad stats: <null>
  // CHECK-NEXT: parsed equals built: 1
}

static void testFormatTable(MlirContext ctx) {
  printf("== formats\n");
  intptr_t n = mlirLowpGetNumFloatFormats(ctx);
  printf("rows: %ld\n", (long)n);
  for (intptr_t i = 0; i < n; ++i) {
    MlirLowpFloatFormatInfo info;
    if (!mlirLowpGetFloatFormatInfo(mlirLowpGetFloatFormatType(ctx, i),
                                    &info)) {
      printf("row %ld: not a float type\n", (long)i);
      continue;
    }
    printf("%.*s bits=%u exp=%u man=%u max=%.17g min_normal=%.17g "
           "min_subnormal=%.17g eps=%.17g inf=%d nan=%d negzero=%d\n",
           (int)info.name.length, info.name.data, info.bits, info.exponentBits,
           info.mantissaBits, info.maxFinite, info.minNormal,
           info.minSubnormal, info.epsilon, info.hasInf, info.hasNaN,
           info.hasNegativeZero);
  }
  // APFloat rounding, the reference of the Python package's numpy helpers.
  printf("round 0.1 to bf16: %.17g\n",
         mlirLowpRoundToFloatType(mlirBF16TypeGet(ctx), 0.1));
  MlirType e4m3 = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("f8E4M3FN"));
  printf("round 464 to f8E4M3FN: %g, 465: %g\n",
         mlirLowpRoundToFloatType(e4m3, 464.0),
         mlirLowpRoundToFloatType(e4m3, 465.0));
  printf("round to i32: %g\n",
         mlirLowpRoundToFloatType(mlirIntegerTypeGet(ctx, 32), 1.0));
  MlirLowpFloatFormatInfo unused;
  printf("i32 is a format: %d\n",
         mlirLowpGetFloatFormatInfo(mlirIntegerTypeGet(ctx, 32), &unused));
  // Values from the OCP FP8 and IEEE 754 specifications.
  // CHECK-LABEL: == formats
  // CHECK-NEXT: rows: 16
  // CHECK: f16 bits=16 exp=5 man=10 max=65504 min_normal=6.103515625e-05 min_subnormal=5.9604644775390625e-08 eps=0.0009765625 inf=1 nan=1 negzero=1
  // CHECK-NEXT: bf16 bits=16 exp=8 man=7 max=3.3895313892515355e+38 min_normal=1.1754943508222875e-38 {{.*}} eps=0.0078125 inf=1 nan=1 negzero=1
  // CHECK-NEXT: f8E4M3FN bits=8 exp=4 man=3 max=448 min_normal=0.015625 min_subnormal=0.001953125 eps=0.125 inf=0 nan=1 negzero=1
  // CHECK-NEXT: f8E5M2 bits=8 exp=5 man=2 max=57344 min_normal=6.103515625e-05 min_subnormal=1.52587890625e-05 eps=0.25 inf=1 nan=1 negzero=1
  // CHECK-NEXT: f8E4M3FNUZ bits=8 exp=4 man=3 max=240 {{.*}} inf=0 nan=1 negzero=0
  // CHECK: round 0.1 to bf16: 0.10009765625
  // CHECK-NEXT: round 464 to f8E4M3FN: 448, 465: nan
  // CHECK-NEXT: round to i32: nan
  // CHECK-NEXT: i32 is a format: 0
}

static void printFormatSet(const char *what, uint32_t set) {
  printf(" %s=[", what);
  const char *sep = "";
  for (int f = 0; f < MlirLowpFormatCount; ++f) {
    if (!(set & (1u << f)))
      continue;
    MlirStringRef name = mlirLowpFormatGetName((MlirLowpFormat)f);
    printf("%s%.*s", sep, (int)name.length, name.data);
    sep = ",";
  }
  printf("]");
}

static void printTarget(const MlirLowpTargetInfo *t) {
  printf("%.*s vendor=%.*s", (int)t->name.length, t->name.data,
         (int)t->vendor.length, t->vendor.data);
  printFormatSet("matrix", t->matrixFormats);
  printFormatSet("elementwise", t->elementwiseFormats);
  MlirStringRef preferred = t->preferred16 < 0
                                ? mlirStringRefCreateFromCString("none")
                                : mlirLowpFormatGetName(t->preferred16);
  printf(" preferred16=%.*s fp8=%.*s tile16=%ux%ux%u tile8=%ux%ux%u "
         "vector_tile=%ux%u cpu=%.*s\n",
         (int)preferred.length, preferred.data, (int)t->fp8Flavor.length,
         t->fp8Flavor.data, t->tile16.m, t->tile16.n, t->tile16.k, t->tile8.m,
         t->tile8.n, t->tile8.k, t->vectorTileRows, t->vectorTileCols,
         (int)t->llvmCpu.length, t->llvmCpu.data);
}

static void testTargetTable(MlirContext ctx) {
  printf("== targets\n");
  intptr_t n = mlirLowpGetNumTargets();
  printf("rows: %ld\n", (long)n);
  for (intptr_t i = 0; i < n; ++i) {
    MlirLowpTargetInfo info = mlirLowpGetTarget(i);
    printTarget(&info);
  }
  MlirLowpTargetInfo info;
  printf("lookup gfx942: %d\n",
         mlirLowpLookupTarget(mlirStringRefCreateFromCString("gfx942"), &info));
  printTarget(&info);
  printf("lookup sm_1: %d\n",
         mlirLowpLookupTarget(mlirStringRefCreateFromCString("sm_1"), &info));
  printf("bf16 type: ");
  mlirTypePrint(mlirLowpFormatGetType(ctx, MlirLowpFormatBF16), printToStdout,
                NULL);
  printf("\n");
  // CHECK-LABEL: == targets
  // CHECK: sm_70 vendor=nvidia matrix=[f16] elementwise=[f32,f16] preferred16=f16 fp8=none tile16=16x16x16 tile8=0x0x0
  // CHECK: sm_90 vendor=nvidia matrix=[tf32,f16,bf16,f8E4M3FN,f8E5M2] {{.*}} preferred16=bf16 fp8=FN tile16=64x256x16 tile8=64x256x32
  // CHECK: lookup gfx942: 1
  // CHECK-NEXT: gfx942 vendor=amd {{.*}}f8E4M3FNUZ,f8E5M2FNUZ{{.*}} fp8=FNUZ
  // CHECK-NEXT: lookup sm_1: 0
  // CHECK-NEXT: bf16 type: bf16
}

static const char *kModule =
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {\n"
    "  %dead = lowp.cast %x : tensor<4xf32> to tensor<4xf16>\n"
    "  %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>\n"
    "  return %0 : tensor<4xbf16>\n"
    "}\n";

static const char *kMatmul =
    "func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,\n"
    "              %c: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
    "  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)\n"
    "                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>\n"
    "  return %0 : tensor<4x4xf32>\n"
    "}\n";

static void runAndPrint(MlirContext ctx, const char *ir, const char *pipeline) {
  int diagnostics = 0;
  MlirModule module = mlirLowpParseModule(
      ctx, mlirStringRefCreateFromCString(ir),
      mlirStringRefCreateFromCString("input.mlir"), printDiagnostic,
      &diagnostics);
  if (mlirModuleIsNull(module)) {
    printf("parse failed, %d diagnostics\n", diagnostics);
    return;
  }
  MlirLogicalResult result =
      mlirLowpRunPipeline(module, mlirStringRefCreateFromCString(pipeline),
                          printDiagnostic, &diagnostics);
  printf("'%s': %s, %d diagnostics\n", pipeline,
         mlirLogicalResultIsSuccess(result) ? "success" : "failure",
         diagnostics);
  if (mlirLogicalResultIsSuccess(result)) {
    mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
    printf("\n");
  }
  mlirModuleDestroy(module);
}

static void testPipelines(MlirContext ctx) {
  printf("== pipelines\n");
  runAndPrint(ctx, kModule, "canonicalize");
  // CHECK-LABEL: == pipelines
  // CHECK: 'canonicalize': success, 0 diagnostics
  // CHECK: func.func @f(%[[X:.*]]: tensor<4xf32>) -> tensor<4xbf16>
  // CHECK-NOT: xf16>
  // CHECK-NEXT: %[[C:.*]] = lowp.cast %[[X]] : tensor<4xf32> to tensor<4xbf16>
  // CHECK-NEXT: return %[[C]]
  runAndPrint(ctx, kModule, "builtin.module(func.func(canonicalize),cse)");
  // CHECK: 'builtin.module(func.func(canonicalize),cse)': success, 0 diagnostics
  // CHECK-NOT: xf16>
  // CHECK: return
  // fp-opt's own pipeline, with options, through the C API.
  runAndPrint(ctx, kMatmul, "lowp-auto-mixed-precision{target=sm_90}");
  // CHECK: 'lowp-auto-mixed-precision{target=sm_90}': success, 0 diagnostics
  // CHECK: module attributes {lowp.target = #lowp.target<"sm_90">}
  // CHECK-DAG: lowp.cast %{{.*}} : tensor<4x8xf32> to tensor<4x8xbf16>
  // CHECK-DAG: lowp.cast %{{.*}} : tensor<8x4xf32> to tensor<8x4xbf16>
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%{{.*}} : tensor<4x4xf32>)
  // A successful run still reports its remarks.
  runAndPrint(ctx, kMatmul,
              "builtin.module(lowp-auto-mixed-precision{target=avx2})");
  // CHECK: diag: {{.*}}: remark: target 'avx2' has no fast 16-bit matrix arithmetic
  // CHECK: 'builtin.module(lowp-auto-mixed-precision{target=avx2})': success, 1 diagnostics
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
  runAndPrint(ctx, kModule, "lowp-no-such-pass");
  // CHECK: diag: <pipeline>: error: invalid pass pipeline 'lowp-no-such-pass': {{.*}}'lowp-no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: 'lowp-no-such-pass': failure, 1 diagnostics
  runAndPrint(ctx, kModule, "canonicalize{no-such-option=1}");
  // CHECK: diag: <pipeline>: error: invalid pass pipeline {{.*}}no-such-option
  // CHECK: 'canonicalize{no-such-option=1}': failure, 1 diagnostics
  // A pass that fails reports a located error with its notes, as one
  // diagnostic (lowp.cast on tensors is lowered, never bufferized directly).
  runAndPrint(ctx,
              "func.func @g(%x: tensor<4xf32>) -> tensor<4xbf16> {\n"
              "  %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>\n"
              "  return %0 : tensor<4xbf16>\n"
              "}\n",
              "one-shot-bufferize");
  // CHECK: diag: input.mlir:2:8: error: op was not bufferized
  // CHECK-NEXT: input.mlir:2:8: note: see current operation
  // CHECK-NEXT: 'one-shot-bufferize': failure, 1 diagnostics
  runAndPrint(ctx, "func.func @h() {\n  lowp.bogus\n}\n", "canonicalize");
  // CHECK: diag: input.mlir:2:3: error: custom op 'lowp.bogus' is unknown
  // CHECK: parse failed, 1 diagnostics
}

static void printFP8(const char *chip, MlirLowpTensorRole role, bool hasStats,
                     double amax, double min, MlirLowpFP8Recipe recipe,
                     unsigned margin, bool fallback) {
  MlirLowpFP8Decision d;
  printf("%s role=%d: ", chip, (int)role);
  MlirLogicalResult ok = mlirLowpSelectFP8Format(
      mlirStringRefCreateFromCString(chip), role, hasStats, amax, min, recipe,
      margin, fallback, &d, printToStdout, NULL);
  if (mlirLogicalResultIsFailure(ok)) {
    printf(" -> failure\n");
    return;
  }
  MlirStringRef name = mlirLowpFormatGetName(d.format);
  printf(" -> %.*s", (int)name.length, name.data);
  if (d.hasScale)
    printf(" scale=%.17g", d.scale);
  printf(" needs=%.3f e4m3=%.3f e5m2=%.3f\n", d.binadesNeeded, d.binadesE4M3,
         d.binadesE5M2);
}

static void testFP8Selection(void) {
  printf("== fp8 selection\n");
  printFP8("sm_90", MlirLowpTensorRoleActivation, false, 0, 0,
           MlirLowpFP8RecipeHybrid, 0, false);
  printFP8("sm_90", MlirLowpTensorRoleGradient, false, 0, 0,
           MlirLowpFP8RecipeHybrid, 0, false);
  printFP8("gfx942", MlirLowpTensorRoleWeight, true, 448.0, 1.0,
           MlirLowpFP8RecipeHybrid, 0, false);
  // 2^-20 below amax: more than E4M3 holds (16.8 binades), E5M2 does.
  printFP8("sm_90", MlirLowpTensorRoleActivation, true, 1.0, 0x1p-20,
           MlirLowpFP8RecipeRange, 0, false);
  printFP8("sm_80", MlirLowpTensorRoleActivation, false, 0, 0,
           MlirLowpFP8RecipeHybrid, 0, false);
  printFP8("sm_80", MlirLowpTensorRoleActivation, false, 0, 0,
           MlirLowpFP8RecipeHybrid, 0, true);
  printFP8("sm_90", MlirLowpTensorRoleActivation, true, -1.0, 0.5,
           MlirLowpFP8RecipeHybrid, 0, false);
  // CHECK-LABEL: == fp8 selection
  // CHECK-NEXT: sm_90 role=0: recipe hybrid: activation -> E4M3 (precision) -> f8E4M3FN needs=0.000 e4m3=16.807 e5m2=30.807
  // CHECK-NEXT: sm_90 role=2: recipe hybrid: gradient -> E5M2 (range) -> f8E5M2 needs=0.000
  // 240 / 448 = 0.5357...: the FNUZ maximum.
  // CHECK-NEXT: gfx942 role=1: {{.*}} -> f8E4M3FNUZ scale=0.5357142857142857{{[0-9]*}} needs=8.807
  // CHECK-NEXT: sm_90 role=0: needs 20.0 binades > E4M3's 16.8, E5M2 holds 30.8 -> f8E5M2 scale=57344 needs=20.000
  // CHECK-NEXT: sm_80 role=0: target 'sm_80' has no FP8 support {{.*}} -> failure
  // CHECK-NEXT: sm_80 role=0: target 'sm_80' has no FP8: bf16 fallback -> bf16 needs=0.000
  // CHECK-NEXT: sm_90 role=0: invalid statistics{{.*}} -> failure
}

/// An embedder's own, minimal dialect set (as IREE or torch-mlir have),
/// built from dialect handles, with lowp and its models added.
static void testMinimalContext(void) {
  printf("== minimal context\n");
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  MlirDialectHandle handles[] = {
      mlirGetDialectHandle__func__(), mlirGetDialectHandle__arith__(),
      mlirGetDialectHandle__linalg__(), mlirGetDialectHandle__tensor__()};
  for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); ++i)
    mlirDialectHandleInsertDialect(handles[i], registry);
  mlirLowpRegisterDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  printf("scf registered: %d\n",
         !mlirDialectIsNull(mlirContextGetOrLoadDialect(
             ctx, mlirStringRefCreateFromCString("scf"))));
  runAndPrint(ctx, kMatmul, "lowp-auto-mixed-precision{target=gfx942}");
  mlirContextDestroy(ctx);
  // CHECK-LABEL: == minimal context
  // CHECK-NEXT: scf registered: 0
  // CHECK-NEXT: 'lowp-auto-mixed-precision{target=gfx942}': success, 0 diagnostics
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>)
}

/// demote-weights=arguments changes the entry function's signature; the
/// embedder reads the new argument types back.
static void testSignature(void) {
  printf("== signature\n");
  MlirContext ctx = createContext();
  int diagnostics = 0;
  MlirModule module = mlirLowpParseModule(
      ctx, mlirStringRefCreateFromCString(kMatmul),
      mlirStringRefCreateFromCString("input.mlir"), printDiagnostic,
      &diagnostics);
  MlirLogicalResult ran = mlirLowpRunPipeline(
      module,
      mlirStringRefCreateFromCString(
          "lowp-auto-mixed-precision{target=sm_90 demote-weights=arguments}"),
      printDiagnostic, &diagnostics);
  printf("pipeline: %s\n", mlirLogicalResultIsSuccess(ran) ? "success"
                                                            : "failure");
  // The entry function (empty name), then the same by name.
  MlirLogicalResult described = mlirLowpDescribeFunctionSignature(
      module, mlirStringRefCreateFromCString(""), printToStdout, NULL,
      printToStdout, NULL);
  printf("\nentry: %s\n",
         mlirLogicalResultIsSuccess(described) ? "success" : "failure");
  described = mlirLowpDescribeFunctionSignature(
      module, mlirStringRefCreateFromCString("nope"), printToStdout, NULL,
      printToStdout, NULL);
  printf("\nnope: %s\n",
         mlirLogicalResultIsSuccess(described) ? "success" : "failure");
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  // CHECK-LABEL: == signature
  // CHECK-NEXT: pipeline: success
  // The inputs of the matmul arrive in bf16; the accumulator does not.
  // CHECK-NEXT: {"arguments":[{"attributes":{},"type":"tensor<4x8xbf16>"},{"attributes":{},"type":"tensor<8x4xbf16>"},{"attributes":{},"type":"tensor<4x4xf32>"}],"function":"mm","results":["tensor<4x4xf32>"]}
  // CHECK-NEXT: entry: success
  // CHECK-NEXT: the module has no func.func @nope
  // CHECK-NEXT: nope: failure
}

/// Appends bitcode pieces to a FILE.
static void writeBytes(MlirStringRef bytes, void *file) {
  fwrite(bytes.data, 1, bytes.length, (FILE *)file);
}

/// Counts the bytes handed over and keeps the first four.
typedef struct {
  size_t length;
  unsigned char magic[4];
} BitcodeSummary;

static void summarizeBytes(MlirStringRef bytes, void *data) {
  BitcodeSummary *s = (BitcodeSummary *)data;
  for (size_t i = 0; i < bytes.length && s->length + i < 4; ++i)
    s->magic[s->length + i] = (unsigned char)bytes.data[i];
  s->length += bytes.length;
}

static const char *kLLVMModule =
    "llvm.func @scale(%x: f32, %y: f32) -> f32 {\n"
    "  %0 = llvm.fmul %x, %y : f32\n"
    "  llvm.return %0 : f32\n"
    "}\n";

/// Translates an LLVM-dialect module to bitcode (written to `bitcodePath`
/// when given, for llvm-dis), then one that is not lowered yet.
static void testTranslate(MlirContext ctx, const char *bitcodePath) {
  printf("== translate\n");
  int diagnostics = 0;
  MlirModule module = mlirLowpParseModule(
      ctx, mlirStringRefCreateFromCString(kLLVMModule),
      mlirStringRefCreateFromCString("llvm.mlir"), printDiagnostic,
      &diagnostics);
  BitcodeSummary summary = {0, {0, 0, 0, 0}};
  MlirLogicalResult result = mlirLowpTranslateModuleToLLVMBitcode(
      module, summarizeBytes, &summary, printDiagnostic, &diagnostics);
  printf("llvm dialect: %s, %d diagnostics, magic %02x%02x%02x%02x, %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure",
         diagnostics, summary.magic[0], summary.magic[1], summary.magic[2],
         summary.magic[3], summary.length > 4 ? "non-empty" : "empty");
  // CHECK-LABEL: == translate
  // CHECK-NEXT: llvm dialect: success, 0 diagnostics, magic 4243c0de, non-empty
  if (bitcodePath) {
    FILE *file = fopen(bitcodePath, "wb");
    if (file) {
      mlirLowpTranslateModuleToLLVMBitcode(module, writeBytes, file, NULL,
                                           NULL);
      fclose(file);
    }
  }
  mlirModuleDestroy(module);

  // Not lowered: a located error, no bitcode.
  diagnostics = 0;
  summary.length = 0;
  module = mlirLowpParseModule(ctx, mlirStringRefCreateFromCString(kModule),
                               mlirStringRefCreateFromCString("input.mlir"),
                               printDiagnostic, &diagnostics);
  result = mlirLowpTranslateModuleToLLVMBitcode(
      module, summarizeBytes, &summary, printDiagnostic, &diagnostics);
  printf("func dialect: %s, %d diagnostics, %zu bytes\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure",
         diagnostics, summary.length);
  // CHECK-NEXT: diag: input.mlir:1:1: error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: func.func
  // CHECK: func dialect: failure, 1 diagnostics, 0 bytes
  mlirModuleDestroy(module);
}

int main(int argc, char **argv) {
  mlirRegisterAllPasses();
  mlirLowpRegisterPassesAndPipelines();
  mlirLowpRegisterPassesAndPipelines(); // idempotent

  testDialect();
  MlirContext ctx = createContext();
  mlirContextAttachDiagnosticHandler(ctx, contextDiagnostic, NULL, NULL);
  testAttributes(ctx);
  testFormatTable(ctx);
  testTargetTable(ctx);
  testPipelines(ctx);
  mlirContextDestroy(ctx);
  testFP8Selection();
  testMinimalContext();
  testSignature();
  MlirContext translateCtx = createContext();
  testTranslate(translateCtx, argc > 1 ? argv[1] : NULL);
  mlirContextDestroy(translateCtx);
  printf("== done\n");
  // CHECK-LABEL: == done
  return 0;
}
