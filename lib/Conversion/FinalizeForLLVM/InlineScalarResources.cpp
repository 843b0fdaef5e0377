//===- InlineScalarResources.cpp - lowp-inline-scalar-resources -----------===//
//
// MLIR 22's finalize-memref-to-llvm lowers a rank-0 memref.global to an LLVM
// global of the element type and reads its one value with
// ElementsAttr::getSplatValue<Attribute>, which aborts on a dense_resource
// initializer ("ElementsAttr does not provide iteration facilities"). Front
// ends emit dense_resource for every parameter, scalars included (torch-mlir's
// FX importer), so bufferized scalar parameters would crash the lowering.
// This pass reads those blobs into dense initializers first.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINLINESCALARRESOURCES
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct LowpInlineScalarResourcesPass
    : lowp::impl::LowpInlineScalarResourcesBase<LowpInlineScalarResourcesPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](memref::GlobalOp global) {
      auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(
          global.getInitialValueAttr());
      if (!resource || resource.getType().getRank() != 0)
        return WalkResult::advance();
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      ArrayRef<char> data = blob ? blob->getData() : ArrayRef<char>();
      bool splat = false;
      if (!blob || !DenseElementsAttr::isValidRawBuffer(resource.getType(),
                                                        data, splat)) {
        global.emitError() << "cannot read the initial value of scalar "
                              "global @"
                           << global.getSymName() << " from its resource "
                           << (blob ? "blob (wrong size)" : "(no blob)");
        return WalkResult::interrupt();
      }
      global.setInitialValueAttr(
          DenseElementsAttr::getFromRawBuffer(resource.getType(), data));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
