/*===- lowp-capi-threads-test.c - compiles on 8 threads at once ----------===*\
|*                                                                            *|
|* A host compiler compiles many modules at once, one MLIRContext per thread. *|
|* Compiles 16 different modules (4 pipelines, decision passes and the x86    *|
|* lowering) sequentially, then on 8 threads at once (twice), and checks that *|
|* every output is byte-for-byte the sequential one. Driven by                *|
|* test/CAPI/lowp-capi-threads.test.                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "lowp-c/Dialect.h"
#include "lowp-c/Pipeline.h"

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kModules = 16, kThreads = 8 };

static const char *const kPipelines[] = {
    "lowp-auto-mixed-precision{target=sm_90 policy=bf16}",
    "lowp-auto-mixed-precision{target=gfx942 policy=fp8},canonicalize,cse",
    "lowp-infer-precision{low=f16},lowp-insert-fp32-islands",
    "lowp-pipeline-x86{target=avx2}",
};

/// A growable text buffer the print and diagnostic callbacks append to.
typedef struct {
  char *data;
  size_t length, capacity;
} Text;

static void append(MlirStringRef piece, void *userData) {
  Text *text = (Text *)userData;
  if (text->length + piece.length + 1 > text->capacity) {
    text->capacity = 2 * (text->length + piece.length + 1);
    text->data = (char *)realloc(text->data, text->capacity);
  }
  memcpy(text->data + text->length, piece.data, piece.length);
  text->length += piece.length;
  text->data[text->length] = '\0';
}

/// Module `i`: a matmul and a tanh whose shapes depend on `i`.
static char *moduleText(int i) {
  int m = 4 + i, k = 8 * (1 + i % 3), n = 16;
  char *buffer = (char *)malloc(4096);
  snprintf(buffer, 4096,
           "func.func @layer(%%x: tensor<%dx%dxf32>, %%w: tensor<%dx%dxf32>) "
           "-> tensor<%dx%dxf32> {\n"
           "  %%z = arith.constant 0.0 : f32\n"
           "  %%e = tensor.empty() : tensor<%dx%dxf32>\n"
           "  %%acc = linalg.fill ins(%%z : f32) outs(%%e : tensor<%dx%dxf32>) "
           "-> tensor<%dx%dxf32>\n"
           "  %%y = linalg.matmul ins(%%x, %%w : tensor<%dx%dxf32>, "
           "tensor<%dx%dxf32>) outs(%%acc : tensor<%dx%dxf32>) -> "
           "tensor<%dx%dxf32>\n"
           "  %%r = math.tanh %%y : tensor<%dx%dxf32>\n"
           "  return %%r : tensor<%dx%dxf32>\n"
           "}\n",
           m, k, k, n, m, n, m, n, m, n, m, n, m, k, k, n, m, n, m, n, m, n,
           m, n);
  return buffer;
}

/// Parses and compiles module `i` in a context of its own; returns the
/// printed result (or the diagnostics, prefixed "FAILED").
static char *compile(int i) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirLowpRegisterDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, true);
  mlirDialectRegistryDestroy(registry);

  char *source = moduleText(i);
  Text out = {NULL, 0, 0}, diags = {NULL, 0, 0};
  append(mlirStringRefCreateFromCString(""), &out);
  MlirModule module = mlirLowpParseModule(
      ctx, mlirStringRefCreateFromCString(source),
      mlirStringRefCreateFromCString("module.mlir"), append, &diags);
  int ok = !mlirModuleIsNull(module);
  if (ok) {
    const char *pipeline = kPipelines[i % 4];
    ok = mlirLogicalResultIsSuccess(mlirLowpRunPipeline(
        module, mlirStringRefCreateFromCString(pipeline), append, &diags));
    if (ok)
      mlirOperationPrint(mlirModuleGetOperation(module), append, &out);
    mlirModuleDestroy(module);
  }
  if (!ok) {
    out.length = 0;
    append(mlirStringRefCreateFromCString("FAILED "), &out);
    if (diags.data)
      append(mlirStringRefCreateFromCString(diags.data), &out);
  }
  free(diags.data);
  free(source);
  mlirContextDestroy(ctx);
  return out.data;
}

static char *parallelResults[kModules];

/// Thread t compiles modules t, t + 8, ...
static void *worker(void *arg) {
  int t = (int)(size_t)arg;
  for (int i = t; i < kModules; i += kThreads)
    parallelResults[i] = compile(i);
  return NULL;
}

int main(void) {
  // Process-wide, once, before any thread starts.
  mlirRegisterAllPasses();
  mlirLowpRegisterPassesAndPipelines();
  char *sequential[kModules];
  int failures = 0;
  for (int i = 0; i < kModules; ++i) {
    sequential[i] = compile(i);
    if (strncmp(sequential[i], "FAILED", 6) == 0) {
      printf("module %d failed: %s\n", i, sequential[i]);
      ++failures;
    }
  }
  // Different modules give different outputs (the test compares something).
  int distinct = 0;
  for (int i = 0; i < kModules; ++i) {
    int seen = 0;
    for (int j = 0; j < i; ++j)
      seen |= strcmp(sequential[i], sequential[j]) == 0;
    distinct += !seen;
  }
  printf("sequential: %d modules, %d distinct outputs\n", kModules, distinct);

  for (int round = 0; round < 2; ++round) {
    pthread_t threads[kThreads];
    for (int t = 0; t < kThreads; ++t)
      pthread_create(&threads[t], NULL, worker, (void *)(size_t)t);
    for (int t = 0; t < kThreads; ++t)
      pthread_join(threads[t], NULL);
    int identical = 0;
    for (int i = 0; i < kModules; ++i) {
      identical += strcmp(parallelResults[i], sequential[i]) == 0;
      free(parallelResults[i]);
    }
    printf("round %d: %d threads, %d of %d outputs identical to sequential\n",
           round, kThreads, identical, kModules);
    failures += kModules - identical;
  }
  for (int i = 0; i < kModules; ++i)
    free(sequential[i]);
  printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
