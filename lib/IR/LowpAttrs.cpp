//===- LowpAttrs.cpp - lowp attributes ------------------------------------===//

#include "lowp/IR/LowpDialect.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallString.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::lowp;

#include "lowp/IR/LowpEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "lowp/IR/LowpAttrs.cpp.inc"

FailureOr<llvm::APFloat>
mlir::lowp::detail::parseF64Parameter(AsmParser &parser) {
  double value;
  if (parser.parseFloat(value))
    return failure();
  return llvm::APFloat(value);
}

void LowpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "lowp/IR/LowpAttrs.cpp.inc"
      >();
}

LogicalResult
PolicyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   FloatType compute, FloatType accumulate, FloatType storage,
                   LossScaleMode lossScale) {
  unsigned computeWidth = compute.getWidth();
  if (accumulate.getWidth() < computeWidth)
    return emitError() << "accumulate type " << accumulate
                       << " is narrower than compute type " << compute;
  if (storage.getWidth() < computeWidth)
    return emitError() << "storage type " << storage
                       << " is narrower than compute type " << compute;
  return success();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip) {
  if (!lookupTarget(chip))
    return emitError() << "unknown target '" << chip
                       << "'; known targets: " << getKnownTargetNames();
  return success();
}

LogicalResult StatsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                llvm::APFloat amax, llvm::APFloat min,
                                std::optional<uint64_t> samples,
                                DenseI64ArrayAttr histogram,
                                std::optional<int64_t> lowestBinade) {
  if (!amax.isFinite() || amax.isNegative())
    return emitError() << "amax must be finite and non-negative";
  if (!min.isFinite() || min.isNegative())
    return emitError() << "min must be finite and non-negative";
  if (min.compare(amax) == llvm::APFloat::cmpGreaterThan) {
    SmallString<32> minText, amaxText;
    min.toString(minText);
    amax.toString(amaxText);
    return emitError() << "min (" << minText << ") exceeds amax (" << amaxText
                       << ")";
  }
  if (bool(histogram) != lowestBinade.has_value())
    return emitError() << "histogram and lowest_binade go together";
  if (histogram) {
    // f32's binades: -127 (its subnormals) to 127.
    int64_t first = *lowestBinade;
    if (first < -127 || first + (int64_t)histogram.size() - 1 > 127)
      return emitError() << "histogram binades [" << first << ", "
                         << first + (int64_t)histogram.size() - 1
                         << "] lie outside f32's [-127, 127]";
    if (llvm::any_of(histogram.asArrayRef(),
                     [](int64_t count) { return count < 0; }))
      return emitError() << "histogram counts must be non-negative";
  }
  return success();
}
