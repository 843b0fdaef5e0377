//===- Im2col.cpp - 2-D convolutions as im2col + linalg.matmul ------------===//

#include "lowp/Conversion/LinalgCommon/Im2col.h"
#include "lowp/Conversion/LinalgCommon/LoopBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::lowp;

LogicalResult mlir::lowp::checkConvBuffers(linalg::LinalgOp op,
                                           std::string &why,
                                           bool dynamicBatch) {
  if (!op.hasPureBufferSemantics()) {
    why = "operands are not buffers (the kernels run after bufferization)";
    return failure();
  }
  Value filter = op.getDpsInputs()[1];
  for (Value v : op->getOperands()) {
    auto type = cast<MemRefType>(v.getType());
    bool plain = dynamicBatch && v != filter
                     ? type.getLayout().isIdentity() &&
                           llvm::all_of(type.getShape().drop_front(),
                                        [](int64_t d) {
                                          return !ShapedType::isDynamic(d);
                                        })
                     : bool(getPlainMemRef(v, type.getRank()));
    if (!plain) {
      why = dynamicBatch ? "operands are not identity-layout memrefs with "
                           "static dimensions but for the batch"
                         : "operands are not static identity-layout memrefs";
      return failure();
    }
  }
  return success();
}

LogicalResult mlir::lowp::checkConvOperands(linalg::LinalgOp op,
                                            std::string &why,
                                            bool dynamicBatch) {
  if (failed(checkConvBuffers(op, why, dynamicBatch)))
    return failure();
  Type elem = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  if (elem != getElementTypeOrSelf(op.getDpsInputs()[1].getType()) ||
      !isa<FloatType>(elem) ||
      !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32()) {
    why = "needs float inputs of one type and an f32 output";
    return failure();
  }
  return success();
}

void mlir::lowp::emitNhwcIm2colRow(LoopBuilder &lb, Value input, Value col,
                                   Value image, Value y, Value x, Value row,
                                   ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> dilations,
                                   int64_t kernelH, int64_t kernelW,
                                   int64_t channels, unsigned lanes,
                                   function_ref<Value(Value)> convert) {
  OpBuilder &b = lb.builder();
  Location loc = lb.location();
  auto vec = VectorType::get({lanes}, getElementTypeOrSelf(input.getType()));
  auto converted = [&](Value v) { return convert ? convert(v) : v; };
  for (int64_t i = 0; i < kernelH; ++i)
    for (int64_t j = 0; j < kernelW; ++j) {
      Value iy = lb.addc(lb.mulc(y, strides[0]), i * dilations[0]);
      Value ix = lb.addc(lb.mulc(x, strides[1]), j * dilations[1]);
      int64_t base = (i * kernelW + j) * channels;
      // col is a fresh buffer: a last run overlapping the previous one
      // rewrites the same values.
      lb.emitVectorizedLoopOverlappingTail(
          channels, lanes,
          [&](Value ci) {
            Value v = vector::LoadOp::create(b, loc, vec, input,
                                             ValueRange{image, iy, ix, ci});
            vector::StoreOp::create(b, loc, converted(v), col,
                                    ValueRange{row, lb.addc(ci, base)});
          },
          [&](Value ci) {
            Value v = memref::LoadOp::create(b, loc, input,
                                             ValueRange{image, iy, ix, ci});
            memref::StoreOp::create(b, loc, converted(v), col,
                                    ValueRange{row, lb.addc(ci, base)});
          });
    }
}

namespace {

/// linalg.conv_2d_nhwc_hwcf -> im2col + linalg.matmul: col[(n, oh, ow),
/// (kh, kw, c)] is copied from the input once (O(output pixels x KH*KW*C),
/// in the input's type; runs of C channels are contiguous in both and
/// copied a vector at a time), the filter and the output are the same
/// buffers viewed as matrices.
struct ConvNhwcToIm2colMatmul : OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  ConvNhwcToIm2colMatmul(MLIRContext *ctx, unsigned lanes)
      : OpRewritePattern(ctx), lanes(lanes) {}
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rw) const override {
    std::string why;
    if (failed(checkConvOperands(op, why)))
      return rw.notifyMatchFailure(op, why);
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
          output = op.getDpsInits()[0];
    auto fil = cast<MemRefType>(filter.getType()),
         out = cast<MemRefType>(output.getType());
    Type elem = fil.getElementType();
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    int64_t n = out.getDimSize(0), oh = out.getDimSize(1),
            ow = out.getDimSize(2), kh = fil.getDimSize(0),
            kw = fil.getDimSize(1), c = fil.getDimSize(2);
    Location loc = op.getLoc();
    LoopBuilder lb(rw, loc);
    int64_t rows = n * oh * ow, depth = kh * kw * c;
    Value col = lb.alloc(MemRefType::get({rows, depth}, elem));
    lb.loop(n, 1, [&](Value ni) {
      lb.loop(oh, 1, [&](Value y) {
        lb.loop(ow, 1, [&](Value x) {
          // row = (ni * oh + y) * ow + x
          Value row = lb.addIdx(lb.mulc(lb.addIdx(lb.mulc(ni, oh), y), ow), x);
          emitNhwcIm2colRow(lb, input, col, ni, y, x, row, strides, dilations,
                            kh, kw, c, lanes);
        });
      });
    });
    Value filterMatrix = memref::CollapseShapeOp::create(
        rw, loc, filter, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    Value outputMatrix = memref::CollapseShapeOp::create(
        rw, loc, output, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    linalg::MatmulOp::create(rw, loc, ValueRange{col, filterMatrix},
                             ValueRange{outputMatrix});
    lb.dealloc(col);
    rw.eraseOp(op);
    return success();
  }
  unsigned lanes;
};

} // namespace

void mlir::lowp::populateConvToIm2colMatmulPatterns(RewritePatternSet &patterns,
                                                    unsigned vectorLanes) {
  patterns.add<ConvNhwcToIm2colMatmul>(patterns.getContext(), vectorLanes);
}
