//===- Im2col.h - 2-D convolutions as im2col + linalg.matmul --------------===//
//
// Target-independent: a convolution becomes a copy of its input patches and
// a named matmul, which whatever matmul lowering follows (the x86 kernels,
// a GPU mapping, the loop path) then takes.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_CONVERSION_LINALGCOMMON_IM2COL_H
#define LOWP_CONVERSION_LINALGCOMMON_IM2COL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::lowp {

/// Whether the operands of a convolution on buffers are what a kernel (or
/// im2col) reads: static identity-layout memrefs, float inputs of one type,
/// an f32 output. Fails with the reason in `why`.
LogicalResult checkConvOperands(linalg::LinalgOp op, std::string &why);

/// linalg.conv_2d_nhwc_hwcf on buffers -> im2col + linalg.matmul: the input
/// patches are copied once into a pixels x (KH*KW*C) buffer in the input's
/// type (runs of C channels `vectorLanes` at a time), the filter and the
/// output are the same buffers viewed as matrices.
void populateConvToIm2colMatmulPatterns(RewritePatternSet &patterns,
                                        unsigned vectorLanes);

} // namespace mlir::lowp

#endif // LOWP_CONVERSION_LINALGCOMMON_IM2COL_H
