//===- UpdateArgumentsInPlace.cpp - updated arguments written in place ----===//
//
// A training step returns the new value of each parameter and optimizer
// state it updates (a result marked `lowp.updates = i`, the new value of
// argument i). lowp-write-updates-in-place makes the op computing such a
// value write it into argument i's buffer; lowp-return-updated-arguments
// returns that buffer itself, not the copy ownership-based deallocation
// makes of an argument a public function returns.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TrainingStep.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPWRITEUPDATESINPLACE
#define GEN_PASS_DEF_LOWPRETURNUPDATEDARGUMENTS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

/// The argument result `index` of `func` is the new value of, or null.
static BlockArgument getUpdatedArgument(func::FuncOp func, unsigned index) {
  auto updates = func.getResultAttrOfType<IntegerAttr>(
      index, training::kUpdatesAttr);
  if (!updates || func.isExternal())
    return {};
  int64_t arg = updates.getInt();
  if (arg < 0 || arg >= func.getNumArguments() ||
      func.getArgumentTypes()[arg] != func.getResultTypes()[index])
    return {};
  return func.getArgument(arg);
}

namespace {
struct WriteUpdatesInPlacePass
    : lowp::impl::LowpWriteUpdatesInPlaceBase<WriteUpdatesInPlacePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    Builder builder(&getContext());
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
      BlockArgument arg = getUpdatedArgument(func, i);
      if (!arg || !isa<RankedTensorType>(arg.getType()))
        continue;
      // The op computing the new value starts from an empty tensor whose
      // contents it does not read: its result can go anywhere, the
      // argument's buffer included. One-shot bufferization checks that
      // nothing reads the argument after that write; where something does,
      // it writes a copy instead.
      // A new value that is not written in place costs a copy per call:
      // said where it is computed.
      auto result = dyn_cast<OpResult>(ret.getOperand(i));
      auto linalgOp =
          result ? dyn_cast<linalg::LinalgOp>(result.getOwner()) : nullptr;
      if (!linalgOp || !linalgOp.hasPureTensorSemantics()) {
        if (ret.getOperand(i) != arg)
          emitRemark(ret.getOperand(i).getLoc())
              << "result #" << i << " (the new value of argument #"
              << arg.getArgNumber()
              << ") is not written in place: not computed by a linalg op on "
                 "tensors";
        continue;
      }
      OpOperand *init = linalgOp.getDpsInitOperand(result.getResultNumber());
      if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
          linalgOp.payloadUsesValueFromOperand(init)) {
        emitRemarkAt(linalgOp)
            << "result #" << i << " (the new value of argument #"
            << arg.getArgNumber()
            << ") is not written in place: the op reads its init";
        continue;
      }
      init->set(arg);
      func.setArgAttr(arg.getArgNumber(),
                      bufferization::BufferizationDialect::kWritableAttrName,
                      builder.getBoolAttr(true));
    }
  }
};

struct ReturnUpdatedArgumentsPass
    : lowp::impl::LowpReturnUpdatedArgumentsBase<ReturnUpdatedArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    func.walk([&](func::ReturnOp ret) {
      for (unsigned i = 0, e = ret.getNumOperands(); i < e; ++i) {
        BlockArgument arg = getUpdatedArgument(func, i);
        auto clone = ret.getOperand(i).getDefiningOp<bufferization::CloneOp>();
        if (!arg || !clone || clone.getInput() != arg)
          continue;
        ret->setOperand(i, arg);
        if (clone->use_empty())
          clone->erase();
      }
    });
  }
};
} // namespace
