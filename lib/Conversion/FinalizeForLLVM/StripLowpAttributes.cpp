//===- StripLowpAttributes.cpp - lowp-strip-attributes --------------------===//
//
// The end of a lowering pipeline: mlir-translate and mlir-runner do not know
// the lowp dialect, so its discardable attributes (lowp.target, decision
// reports, ...) must not reach them.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPSTRIPATTRIBUTES
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct LowpStripAttributesPass
    : lowp::impl::LowpStripAttributesBase<LowpStripAttributesPass> {
  void runOnOperation() override {
    lowp::stripLowpAttributes(getOperation());
  }
};
} // namespace
