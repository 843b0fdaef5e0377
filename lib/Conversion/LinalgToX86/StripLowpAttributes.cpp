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
    StringRef prefix = lowp::LowpDialect::getDialectNamespace();
    SmallVector<std::pair<Operation *, StringAttr>> doomed;
    getOperation()->walk([&](Operation *op) {
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getName().getValue().starts_with((prefix + ".").str()))
          doomed.emplace_back(op, attr.getName());
    });
    for (auto [op, name] : doomed)
      op->removeDiscardableAttr(name);
  }
};
} // namespace
