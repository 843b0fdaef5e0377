//===- ReadOnlyArguments.cpp - public tensor arguments stay unchanged -----===//
//
// lowp-read-only-arguments: the tensor arguments of public functions are not
// writable for one-shot bufferization unless a pass said otherwise, so the
// compiled code never writes into a caller's arrays behind its back.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPREADONLYARGUMENTS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {
struct ReadOnlyArgumentsPass
    : lowp::impl::LowpReadOnlyArgumentsBase<ReadOnlyArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.isPublic())
      return;
    StringRef writable = bufferization::BufferizationDialect::kWritableAttrName;
    BoolAttr no = BoolAttr::get(&getContext(), false);
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (isa<TensorType>(func.getArgumentTypes()[i]) &&
          !func.getArgAttr(i, writable))
        func.setArgAttr(i, writable, no);
  }
};
} // namespace
