//===- ConvKernels.cpp - convolution kernels: shared checks ---------------===//
//
// What the convolution kernels share: matchConv and the NCHW window
// stride check, and populateConvKernelPatterns, which gathers the kernels,
// one per file: ConvNchwKernel.cpp (NCHW blocked im2col + GEMM),
// ConvFilterGradKernel.cpp (NCHW filter gradients, the same blocks),
// ConvNhwcKernel.cpp (NHWC, A read in place), WindowKernel.cpp (depthwise
// and pooling), WinogradConv.cpp (3x3 stride 1 on f32).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Conversion/LinalgCommon/Im2col.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// Why a convolution cannot take its kernel (im2col + GEMM, the NCHW GEMM
/// or the depthwise kernel), or success.
/// The NCHW window kernel (depthwise, pooling) vectorizes along the output
/// row, whose input is read contiguously (stride 1) or as every other
/// element (stride 2); `kernel` names it in the reason.
LogicalResult mlir::lowp::x86::checkNchwWindowStride(linalg::LinalgOp op,
                                                    StringRef kernel,
                                                    std::string &why) {
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  if (strides && *std::next(strides.getValues<int64_t>().begin()) > 2) {
    why = ("stride along W above 2: the NCHW " + kernel +
           " kernel vectorizes output rows")
              .str();
    return failure();
  }
  return success();
}

LogicalResult mlir::lowp::x86::matchConv(linalg::LinalgOp op,
                                         const KernelConfig &cfg,
                                         std::string &why) {
  if (failed(checkConvOperands(op, why, /*dynamicBatch=*/true)))
    return failure();
  if (isa<linalg::DepthwiseConv2DNchwChwOp>(op))
    return checkNchwWindowStride(op, "depthwise", why);
  return success();
}

void mlir::lowp::x86::populateConvKernelPatterns(RewritePatternSet &patterns,
                                                 const KernelConfig &cfg) {
  populateConvNchwKernelPatterns(patterns, cfg);
  populateConvNchwDirectKernelPatterns(patterns, cfg);
  populateConvFilterGradKernelPatterns(patterns, cfg);
  populateConvNhwcKernelPatterns(patterns, cfg);
  populateWindowKernelPatterns(patterns, cfg);
  if (cfg.winograd)
    populateWinogradConvPatterns(patterns, cfg);
}
