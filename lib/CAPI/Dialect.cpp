//===- Dialect.cpp - C API: lowp dialect and registration -----------------===//

#include "lowp-c/Dialect.h"

#include "lowp/IR/LowpDialect.h"
#include "lowp/InitLowp.h"

#include "mlir/CAPI/Registration.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Lowp, lowp, lowp::LowpDialect)

void mlirLowpRegisterDialects(MlirDialectRegistry registry) {
  lowp::registerLowpDialects(*unwrap(registry));
}

void mlirLowpRegisterPassesAndPipelines(void) {
  // The global registries reject a second registration of a pipeline name;
  // embedders (and Python module reloads) may call this more than once.
  static std::once_flag once;
  std::call_once(once, [] { lowp::registerLowpPassesAndPipelines(); });
}

MlirStringRef mlirLowpGetVersion(void) {
  return mlirStringRefCreateFromCString(FPOPT_VERSION);
}
