/*===- embed-c.c - fp-opt from C ------------------------------------------===*\
|*                                                                            *|
|* Reads a module from a file, runs the pipeline given on the command line    *|
|* through the lowp C API and prints the result, or the diagnostics on        *|
|* failure (exit code 1). Usage: embed-c <input.mlir> <pipeline>               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "lowp-c/Dialect.h"
#include "lowp-c/Pipeline.h"

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *stream) {
  fwrite(text.data, 1, text.length, (FILE *)stream);
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc(size + 1);
  if (data && fread(data, 1, size, f) == (size_t)size)
    data[size] = '\0';
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <input.mlir> <pipeline>\n", argv[0]);
    return 2;
  }
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  // Once per process: every upstream pass and fp-opt's passes and pipelines.
  mlirRegisterAllPasses();
  mlirLowpRegisterPassesAndPipelines();

  // Every upstream dialect plus lowp (with its models on upstream ops).
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirLowpRegisterDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);

  int status = 1;
  MlirModule module = mlirLowpParseModule(
      ctx, mlirStringRefCreateFromCString(source),
      mlirStringRefCreateFromCString(argv[1]), print, stderr);
  if (!mlirModuleIsNull(module)) {
    if (mlirLogicalResultIsSuccess(mlirLowpRunPipeline(
            module, mlirStringRefCreateFromCString(argv[2]), print, stderr))) {
      mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
      printf("\n");
      status = 0;
    }
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  free(source);
  return status;
}
