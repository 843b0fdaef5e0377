//===- FuseParallelLoops.cpp - lowp-gpu-fuse-parallel-loops ---------------===//
//
// The naive mapping turns every linalg op left into an scf.parallel and
// every scf.parallel into a kernel. Adjacent loops over the same iteration
// space (a fill and the reduction it initializes, a matmul and the cast of
// its result, the conversions of several same-shaped weights) can be one
// loop, so one kernel. Bufferization puts an allocation before each op,
// which keeps upstream's scf-parallel-loop-fusion from seeing the loops as
// adjacent: static allocations go to the top of their block first.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPGPUFUSEPARALLELLOOPS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
struct LowpGPUFuseParallelLoopsPass
    : lowp::impl::LowpGPUFuseParallelLoopsBase<LowpGPUFuseParallelLoopsPass> {
  void runOnOperation() override {
    // Allocations without operands can live anywhere in their block; at
    // its top they stand between no two loops. Their deallocations stay
    // where they are.
    SmallVector<Block *> blocks;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!llvm::is_contained(blocks, loop->getBlock()))
        blocks.push_back(loop->getBlock());
    });
    for (Block *block : blocks) {
      Operation *insertBefore = &block->front();
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        auto alloc = dyn_cast<memref::AllocOp>(&op);
        if (!alloc || alloc->getNumOperands() != 0)
          continue;
        if (&op == insertBefore) {
          insertBefore = op.getNextNode();
          continue;
        }
        op.moveBefore(insertBefore);
      }
    }

    AliasAnalysis &aliases = getAnalysis<AliasAnalysis>();
    auto mayAlias = [&](Value a, Value b) {
      return !aliases.alias(a, b).isNo();
    };
    getOperation()->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        scf::naivelyFuseParallelOps(region, mayAlias);
    });
  }
};
} // namespace
