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

/// Whether the operands of a convolution or pooling are buffers a kernel
/// reads: static identity-layout memrefs (with `dynamicBatch`, the input's
/// and the output's first dimension may be dynamic). Fails with the reason
/// in `why`; element types are not looked at.
LogicalResult checkConvBuffers(linalg::LinalgOp op, std::string &why,
                               bool dynamicBatch = false);

/// Whether the operands of a convolution on buffers are what a kernel (or
/// im2col) reads: static identity-layout memrefs, float inputs of one type,
/// an f32 output. With `dynamicBatch`, the input's and the output's first
/// dimension (the batch) may be dynamic. Fails with the reason in `why`.
LogicalResult checkConvOperands(linalg::LinalgOp op, std::string &why,
                                bool dynamicBatch = false);

class LoopBuilder;

/// One row of an NHWC convolution's im2col matrix: the KH x KW x C window
/// of `input` ([N][H][W][C]) under output pixel (`image`, `y`, `x`) copied
/// into row `row` of `col` ([rows][KH*KW*C]), runs of C channels `lanes` at
/// a time (contiguous in both). `convert` maps each loaded value, a scalar
/// or a vector, to col's element type (null: col has the input's).
void emitNhwcIm2colRow(LoopBuilder &lb, Value input, Value col, Value image,
                       Value y, Value x, Value row,
                       ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                       int64_t kernelH, int64_t kernelW, int64_t channels,
                       unsigned lanes,
                       function_ref<Value(Value)> convert = nullptr);

/// linalg.conv_2d_nhwc_hwcf on buffers -> im2col + linalg.matmul: the input
/// patches are copied once into a pixels x (KH*KW*C) buffer in the input's
/// type (runs of C channels `vectorLanes` at a time), the filter and the
/// output are the same buffers viewed as matrices.
void populateConvToIm2colMatmulPatterns(RewritePatternSet &patterns,
                                        unsigned vectorLanes);

} // namespace mlir::lowp

#endif // LOWP_CONVERSION_LINALGCOMMON_IM2COL_H
