//===- FoldPadIntoProducer.cpp - lowp-fold-pad-into-producer --------------===//
//
// Front ends pad every convolution input (torch-mlir: tensor.pad with a zero
// yield). One-shot-bufferize makes a tensor.pad an allocation, a linalg.map
// writing the pad value over all of it and a memref.copy of the source into
// its interior, and the source is usually a buffer computed only for that
// copy. In destination-passing style the border is filled slab by slab and
// the source's producer computes straight into the interior slice (a subview
// once bufferized in place), so every element of the padded buffer is
// written once and nothing is copied. Pads without such a producer stay.
//
// Upstream's linalg::rewriteInDestinationPassingStyle(tensor::PadOp) fills
// the whole padded tensor at the pad, after the producer; empty-tensor
// elimination then cannot hand the producer a slice of it (the destination
// does not dominate the producer's tensor.empty). Here the destination is
// built before the producer instead.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPFOLDPADINTOPRODUCER
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// Whether `op` reads the only use of a result of a linalg op with
/// reduction loops (a matmul, a convolution): the consumer the x86 kernels
/// fuse into their epilogue, which stores to a contiguous buffer.
static bool readsContractionResult(linalg::LinalgOp op) {
  return llvm::any_of(op.getDpsInputs(), [](Value v) {
    auto producer = v.getDefiningOp<linalg::LinalgOp>();
    return producer && producer.getNumReductionLoops() > 0 && v.hasOneUse();
  });
}

/// tensor.pad with a pad value that does not depend on the position and
/// static shapes, whose source is computed by a linalg op into a
/// tensor.empty and read by nothing else -> a tensor.empty of the padded
/// shape built before that op, its border written by linalg.fill on slices,
/// the op writing the interior slice, the result inserted there (in place
/// once bufferized).
struct PadInDestinationStyle : OpRewritePattern<tensor::PadOp> {
  PadInDestinationStyle(MLIRContext *ctx, bool keepContractionEpilogues)
      : OpRewritePattern(ctx),
        keepContractionEpilogues(keepContractionEpilogues) {}

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rw) const override {
    if (pad.getNofold())
      return rw.notifyMatchFailure(pad, "marked nofold");
    RankedTensorType srcType = pad.getSourceType(),
                     resType = pad.getResultType();
    if (!srcType.hasStaticShape() || !resType.hasStaticShape() ||
        !pad.getLow().empty() || !pad.getHigh().empty())
      return rw.notifyMatchFailure(pad, "dynamic shape or padding");
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue)
      return rw.notifyMatchFailure(pad, "pad value depends on the position");
    // A constant yielded from inside the pad's region is re-created where
    // the destination is built.
    Operation *padConstant = nullptr;
    if (pad.getRegion().isAncestor(padValue.getParentRegion()))
      padConstant = padValue.getDefiningOp();

    linalg::LinalgOp producer;
    OpOperand *producerInit = nullptr;
    if (auto result = dyn_cast<OpResult>(pad.getSource())) {
      auto op = dyn_cast<linalg::LinalgOp>(result.getOwner());
      if (op && op.hasPureTensorSemantics() && result.hasOneUse() &&
          op->getBlock() == pad->getBlock() &&
          !(keepContractionEpilogues && readsContractionResult(op))) {
        OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
        bool valueAvailable =
            padConstant ||
            DominanceInfo(op->getParentOp()).properlyDominates(padValue, op);
        if (init->get().getDefiningOp<tensor::EmptyOp>() && valueAvailable) {
          producer = op;
          producerInit = init;
        }
      }
    }

    // Without a producer to write the interior the pad stays as
    // bufferization makes it (a fill and a copy): the copy would remain,
    // and a border-only fill next to it showed no gain that the benchmark
    // could tell from its noise.
    if (!producer)
      return rw.notifyMatchFailure(pad, "no linalg op on tensors writing the "
                                        "source into a tensor.empty only "
                                        "the pad reads");
    Location loc = pad.getLoc();
    rw.setInsertionPoint(producer);
    Value fillValue =
        padConstant ? rw.clone(*padConstant)->getResult(0) : padValue;
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    ArrayRef<int64_t> srcShape = srcType.getShape(),
                      resShape = resType.getShape();
    int64_t rank = resType.getRank();
    SmallVector<OpFoldResult> unitStrides(rank, rw.getIndexAttr(1));
    auto attrs = [&](ArrayRef<int64_t> values) {
      return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
        return rw.getIndexAttr(v);
      });
    };
    Value dest = tensor::EmptyOp::create(rw, loc, resShape,
                                         resType.getElementType());
    // The border as disjoint slabs: along dimension d, before and after the
    // source, within the source in dimensions < d, whole in dimensions > d.
    for (int64_t d = 0; d < rank; ++d) {
      for (bool after : {false, true}) {
        int64_t width = after ? high[d] : low[d];
        if (width == 0)
          continue;
        SmallVector<int64_t> offsets, sizes;
        for (int64_t e = 0; e < rank; ++e) {
          if (e < d) {
            offsets.push_back(low[e]);
            sizes.push_back(srcShape[e]);
          } else if (e == d) {
            offsets.push_back(after ? low[d] + srcShape[d] : 0);
            sizes.push_back(width);
          } else {
            offsets.push_back(0);
            sizes.push_back(resShape[e]);
          }
        }
        Value slab = tensor::ExtractSliceOp::create(
            rw, loc, dest, attrs(offsets), attrs(sizes), unitStrides);
        Value filled =
            linalg::FillOp::create(rw, loc, fillValue, slab).getResult(0);
        dest = tensor::InsertSliceOp::create(rw, loc, filled, dest,
                                             attrs(offsets), attrs(sizes),
                                             unitStrides);
      }
    }
    SmallVector<OpFoldResult> interiorOffsets = attrs(low),
                              interiorSizes = attrs(srcShape);
    Value interior = tensor::ExtractSliceOp::create(
        rw, loc, dest, interiorOffsets, interiorSizes, unitStrides);
    rw.modifyOpInPlace(producer, [&] { producerInit->set(interior); });
    rw.setInsertionPoint(pad);
    rw.replaceOpWithNewOp<tensor::InsertSliceOp>(pad, pad.getSource(), dest,
                                                 interiorOffsets,
                                                 interiorSizes, unitStrides);
    return success();
  }

  bool keepContractionEpilogues;
};

struct LowpFoldPadIntoProducerPass
    : lowp::impl::LowpFoldPadIntoProducerBase<LowpFoldPadIntoProducerPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PadInDestinationStyle>(&getContext(),
                                        keepContractionEpilogues);
    // No folding: slices of a tensor.empty would fold into smaller empties
    // and break the chain that bufferizes in place.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
