//===- LowerContractions.cpp - lowp-x86-lower-contractions ----------------===//
//
// The pass: the target's kernel configuration (KernelConfig.cpp), the
// optional prepacking split, then the kernel patterns of MatmulKernels.cpp,
// ConvKernels.cpp (and the kernel files it gathers) and LayoutCopies.cpp
// (plus the target-independent im2col of NHWC convolutions), and a remark
// for every contraction or convolution left to the generic loops.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/Conversion/LinalgCommon/Im2col.h"
#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPX86LOWERCONTRACTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// The reason a contraction or convolution left on the generic loop path
/// was not taken by a kernel, or nothing for ops that are neither.
std::optional<std::string>
mlir::lowp::x86::whyGenericPath(linalg::LinalgOp op, const KernelConfig &cfg) {
  std::string why;
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
    (void)matchContraction(op, cfg, why);
    return why;
  }
  if (isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp,
          linalg::Conv2DNchwFchwOp,
          linalg::DepthwiseConv2DNhwcHwcOp, linalg::DepthwiseConv2DNchwChwOp>(
          op)) {
    if (failed(matchConv(op, cfg, why)))
      return why;
    return std::nullopt;
  }
  if (isKernelPooling(op)) {
    if (failed(matchPooling(op, why)))
      return why;
    return std::nullopt;
  }
  // Left by DepthwiseUnitMultiplierToHwc.
  if (auto dw = dyn_cast<linalg::DepthwiseConv2DNhwcHwcmOp>(op.getOperation()))
    if (auto fil = dyn_cast<ShapedType>(dw.getDpsInputs()[1].getType()))
      if (!fil.isDynamicDim(3) && fil.getDimSize(3) != 1)
        return "channel multiplier " + std::to_string(fil.getDimSize(3)) +
               " (the depthwise kernel takes 1)";
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    if (failed(matchFilterGradient(generic, why)) && !why.empty())
      return "a convolution's filter gradient the kernel cannot take: " + why;
  }
  if (linalg::isaContractionOpInterface(op))
    return std::string("no x86 kernel for this contraction");
  // Convolutions (not pooling: a multiply-accumulate body).
  if (linalg::isaConvolutionOpInterface(op) &&
      llvm::any_of(op.getBlock()->getOperations(),
                   [](Operation &inner) { return isa<arith::MulFOp>(inner); }))
    return std::string("no x86 kernel for this convolution");
  // Other multiply-accumulate reductions over a window (a grouped
  // convolution's filter gradient): the same slow path.
  if (op.getNumReductionLoops() > 0 && getAccumulatedProduct(*op.getBlock()) &&
      llvm::any_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return !map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return std::string("no x86 kernel for this windowed contraction");
  return std::nullopt;
}

namespace {

struct LowpX86LowerContractionsPass
    : lowp::impl::LowpX86LowerContractionsBase<LowpX86LowerContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(
        root, selectTargetOption(getArgument(), target, "cpu", deprecatedCpu));
    if (failed(resolved))
      return signalPassFailure();
    // Without a target, the baseline every x86-64 machine here has.
    const TargetInfo *info = *resolved ? *resolved : lookupTarget("avx2");
    KernelOptions options;
    options.mr = mr;
    options.nr = nr;
    options.kc = kc;
    options.mc = mc;
    options.amx = amx;
    options.prefetch = prefetch;
    options.winograd = winograd;
    options.fuseAttention = fuseAttention;
    FailureOr<KernelConfig> config = getKernelConfig(
        *info, options, [&] { return root->emitError(); });
    if (failed(config))
      return signalPassFailure();
    const KernelConfig &cfg = *config;
    if (prepack) {
      SmallVector<func::FuncOp> funcs;
      root->walk([&](func::FuncOp f) { funcs.push_back(f); });
      for (func::FuncOp f : funcs) {
        SmallVector<unsigned> packedArgs;
        // The argument numbers tell a caller which arguments to prepack
        // (the signature alone does not, once lowered to LLVM).
        if (func::FuncOp p = splitPrepacking(f, cfg, packedArgs)) {
          InFlightDiagnostic remark = mlir::emitRemark(f.getLoc());
          remark << "weights of '" << f.getName() << "' (argument"
                 << (packedArgs.size() > 1 ? "s " : " ");
          llvm::interleaveComma(packedArgs, remark);
          remark << ") are packed once, by '" << p.getName() << "'";
        }
      }
    }
    // The kernels are structured loops: no block for region simplification
    // to merge or erase, and a walk over the whole module per iteration.
    GreedyRewriteConfig greedy;
    greedy.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // Attention first: the kernel patterns below would take its two
    // contractions one by one. Only the contractions are visited.
    if (cfg.fuseAttention) {
      SmallVector<Operation *> contractions;
      root->walk([&](Operation *op) {
        if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
          contractions.push_back(op);
      });
      RewritePatternSet attention(&getContext());
      populateAttentionKernelPatterns(attention, cfg);
      GreedyRewriteConfig onlyThese = greedy;
      onlyThese.setStrictness(GreedyRewriteStrictness::ExistingOps);
      onlyThese.enableFolding(false);
      (void)applyOpPatternsGreedily(contractions, std::move(attention),
                                    onlyThese);
    }
    RewritePatternSet patterns(&getContext());
    populateMatmulKernelPatterns(patterns, cfg);
    // NHWC convolutions become matmuls the kernel patterns then take.
    populateConvToIm2colMatmulPatterns(patterns, cfg.lanes);
    populateConvKernelPatterns(patterns, cfg);
    populateLayoutCopyPatterns(patterns, cfg);
    if (failed(applyPatternsGreedily(root, std::move(patterns), greedy)))
      return signalPassFailure();
    // Then the elementwise ops no kernel took as its epilogue (rewritten
    // earlier, a consumer would no longer match one).
    RewritePatternSet leftovers(&getContext());
    populateLeftoverElementwisePatterns(leftovers, cfg);
    if (failed(applyPatternsGreedily(root, std::move(leftovers), greedy)))
      return signalPassFailure();
    // Tile registers are the process's only once asked for.
    if (cfg.amxTile.valid()) {
      SmallVector<func::FuncOp> tileUsers;
      root->walk([&](func::FuncOp f) {
        if (!f.isExternal() &&
            f.walk([](amx::TileMulFOp) { return WalkResult::interrupt(); })
                .wasInterrupted())
          tileUsers.push_back(f);
      });
      for (func::FuncOp f : tileUsers)
        if (failed(requestAmxPermission(f)))
          return signalPassFailure();
    }
    // A contraction left to the generic loops is slow: say so, and why.
    root->walk([&](linalg::LinalgOp op) {
      if (std::optional<std::string> why = whyGenericPath(op, cfg))
        emitRemarkAt(op) << "generic loop path for '" << op->getName()
                         << "': " << *why;
    });
  }
};

} // namespace
