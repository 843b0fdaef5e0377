//===- FreeBuffersEarly.cpp - lowp-free-buffers-early ---------------------===//
//
// Ownership-based deallocation frees a block's buffers at its end; this pass
// frees each one after its last use instead, so a function body's
// intermediates reuse each other's memory (lower peak, fewer fresh pages per
// call).
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPFREEBUFFERSEARLY
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

/// The op of `block` after which `buffer` (allocated in `block`) and every
/// view of it are no longer used, other than by `dealloc`; null when an
/// alias may escape (a non-view op producing a memref from it, a call, a
/// terminator, its address taken as an integer), or the buffer itself when
/// nothing else uses it.
static Operation *lastUseInBlock(Value buffer, Operation *dealloc,
                                 Block *block) {
  Operation *last = buffer.getDefiningOp();
  SmallVector<Value> aliases{buffer};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (OpOperand &use : alias.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc)
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == alias) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            aliases.push_back(result);
      } else if (isa<CallOpInterface, memref::ExtractAlignedPointerAsIndexOp>(
                     user) ||
                 user->hasTrait<OpTrait::IsTerminator>() ||
                 llvm::any_of(user->getResultTypes(), [](Type t) {
                   return isa<BaseMemRefType>(t);
                 })) {
        return nullptr;
      }
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return nullptr;
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  return last;
}

namespace {
struct LowpFreeBuffersEarlyPass
    : lowp::impl::LowpFreeBuffersEarlyBase<LowpFreeBuffersEarlyPass> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation()->walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp dealloc : deallocs) {
      Value buffer = dealloc.getMemref();
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      Block *block = dealloc->getBlock();
      if (!alloc || alloc->getBlock() != block)
        continue;
      Operation *last = lastUseInBlock(buffer, dealloc, block);
      if (last && last->isBeforeInBlock(dealloc))
        dealloc->moveAfter(last);
    }
  }
};
} // namespace
