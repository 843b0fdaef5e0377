//===- TileParallelLoops.cpp - lowp-gpu-tile-parallel-loops ---------------===//
//
// The naive GPU mapping gives each scf.parallel left (an elementwise op, a
// conversion) a grid of blocks of `threads` threads. Upstream's
// parallel-loop tiling takes a fixed list of tile sizes for the leading
// dimensions: `1 x threads` leaves a 1-D loop one thread per block and puts
// the threads of a 3-D or 4-D loop on its second dimension, a whole row
// apart in memory (uncoalesced). Here the threads take the innermost
// dimension, the one consecutive in memory, whatever the rank.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPGPUTILEPARALLELLOOPS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// A mapping of every dimension of `loop` to `processors` (Sequential
/// beyond them).
LogicalResult mapDims(scf::ParallelOp loop,
                      ArrayRef<gpu::Processor> processors) {
  MLIRContext *ctx = loop.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d)
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        ctx, d < processors.size() ? processors[d] : gpu::Processor::Sequential,
        id, id));
  return gpu::setMappingAttr(loop, mapping);
}

/// Folds the tile sizes tileParallelLoop computes (`step * tile`) into
/// constants: otherwise they reach the kernels as parameters and the
/// one-iteration loops of the sequential dimensions stay loops there.
void foldTileSizes(scf::ParallelOp outer, RewriterBase &rewriter) {
  for (Value step : outer.getStep()) {
    auto mul = step.getDefiningOp<arith::MulIOp>();
    if (!mul)
      continue;
    SmallVector<OpFoldResult> folded;
    if (failed(mul->fold(folded)) || folded.size() != 1)
      continue;
    // `1 * c` folds to the operand c itself, `c1 * c2` to an attribute.
    if (auto same = dyn_cast<Value>(folded.front())) {
      rewriter.replaceOp(mul, same);
      continue;
    }
    auto value = dyn_cast<IntegerAttr>(cast<Attribute>(folded.front()));
    if (!value)
      continue;
    rewriter.setInsertionPoint(mul);
    Value constant = arith::ConstantIndexOp::create(rewriter, mul.getLoc(),
                                                    value.getInt());
    rewriter.replaceOp(mul, constant);
  }
}

struct LowpGPUTileParallelLoopsPass
    : lowp::impl::LowpGPUTileParallelLoopsBase<LowpGPUTileParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Outermost loops that nothing has mapped yet. Loops with reductions
    // are left to upstream's greedy mapping, as before.
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>() &&
          !loop->hasAttr(gpu::getMappingAttrName()) &&
          loop.getNumReductions() == 0)
        loops.push_back(loop);
    });
    for (scf::ParallelOp loop : loops) {
      unsigned rank = loop.getNumLoops();
      SmallVector<int64_t> tiles(rank, 1);
      tiles.back() = threads;
      // Tiles of whole `threads`; the last one's surplus threads are
      // guarded by an scf.if (no min/max bounds: a static block size).
      auto [outer, inner] =
          scf::tileParallelLoop(loop, tiles, /*noMinMaxBounds=*/true);
      foldTileSizes(outer, rewriter);
      // Blocks as upstream's greedy mapping would have them (dimension 0
      // on x, whose limit is largest), threads on the innermost dimension
      // (x: consecutive threads of a warp touch consecutive elements).
      SmallVector<gpu::Processor> threadsOf(rank, gpu::Processor::Sequential);
      threadsOf.back() = gpu::Processor::ThreadX;
      if (failed(mapDims(outer, {gpu::Processor::BlockX, gpu::Processor::BlockY,
                                 gpu::Processor::BlockZ})) ||
          failed(mapDims(inner, threadsOf))) {
        outer.emitError("lowp-gpu-tile-parallel-loops: invalid mapping");
        return signalPassFailure();
      }
      // Parallel loops nested in the original one run in each thread.
      inner.getBody()->walk([&](scf::ParallelOp nested) {
        (void)mapDims(nested, {});
      });
    }
  }
};
} // namespace
