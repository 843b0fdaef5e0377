//===- OrderConstantGlobals.cpp - lowp-order-constant-globals -------------===//
//
// One-Shot Bufferize turns each constant tensor into a private
// `memref.global` named `__constant_<type>` (`_N` appended on a clash) and
// inserts it at the top of the module. Which function it reaches first
// varies from run to run on multi-function modules, so two such globals can
// swap places, or names when they share a type: the same input gave
// different outputs. This pass names and orders them by their first use in
// the module's order, so the output depends on the input alone.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPORDERCONSTANTGLOBALS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

/// The name bufferization gives a constant of this global's type, without
/// the `_N` it appends on a clash.
static StringRef baseName(StringRef name) {
  size_t underscore = name.rfind('_');
  if (underscore != StringRef::npos && underscore + 1 < name.size() &&
      llvm::all_of(name.drop_front(underscore + 1), llvm::isDigit) &&
      name.take_front(underscore) != "__constant")
    return name.take_front(underscore);
  return name;
}

namespace {
struct LowpOrderConstantGlobalsPass
    : lowp::impl::LowpOrderConstantGlobalsBase<LowpOrderConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Bufferization's globals: private constants named __constant_*.
    llvm::StringMap<memref::GlobalOp> candidates;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (global.getConstant() && global.isPrivate() &&
          global.getSymName().starts_with("__constant_"))
        candidates[global.getSymName()] = global;
    if (candidates.empty())
      return;
    // First uses in the module's order; a global nothing reads comes last,
    // in name order (its name is the only stable thing about it).
    llvm::MapVector<Operation *, unsigned> order;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = candidates.find(get.getName());
      if (it != candidates.end())
        order.insert({it->second, order.size()});
    });
    SmallVector<memref::GlobalOp> unused;
    for (auto &entry : candidates)
      if (!order.count(entry.second))
        unused.push_back(entry.second);
    llvm::sort(unused, [](memref::GlobalOp a, memref::GlobalOp b) {
      return a.getSymName() < b.getSymName();
    });
    for (memref::GlobalOp global : unused)
      order.insert({global, order.size()});

    SymbolTable symbols(module);
    // Two steps, so that no new name is still held by another global.
    SmallVector<std::string> bases;
    for (auto [op, index] : order) {
      auto global = cast<memref::GlobalOp>(op);
      bases.push_back(baseName(global.getSymName()).str());
      if (failed(symbols.rename(op, "__lowp_constant_tmp_" +
                                        std::to_string(index))))
        return signalPassFailure();
    }
    llvm::StringMap<unsigned> taken;
    Operation *previous = nullptr;
    for (auto [entry, base] : llvm::zip(order, bases)) {
      Operation *op = entry.first;
      // The next free name of the base (a user's symbol may hold one).
      std::string name;
      do {
        unsigned n = taken[base]++;
        name = n ? base + "_" + std::to_string(n - 1) : base;
      } while (SymbolTable::lookupSymbolIn(module, name));
      if (failed(symbols.rename(op, name)))
        return signalPassFailure();
      if (previous)
        op->moveAfter(previous);
      else
        op->moveBefore(&module.getBody()->front());
      previous = op;
    }
  }
};
} // namespace
