//===- ConvKernelEmitter.h - what the convolution kernels share -*- C++ -*-===//
//
// The convolution and window kernels are each an emitter class: the setup
// they share (operands, window attributes, builder, fused epilogue) in
// ConvKernelEmitter, their own plan in the constructor, the loops in
// emit(). KernelEmitterPattern rewrites an op with one.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOX86_CONVKERNELEMITTER_H
#define LIB_CONVERSION_LINALGTOX86_CONVKERNELEMITTER_H

#include "ExplicitPad.h"
#include "KernelBuilder.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::lowp::x86 {

/// The operands (input, filter or window, output buffers), strides and
/// dilations of a convolution or pooling op, and what emitting its kernel
/// needs: the rewriter, the kernel configuration, a KernelBuilder and the
/// fused epilogue (set by the derived emitter, finished by the pattern).
class ConvKernelEmitter {
public:
  KernelEpilogue epilogue;
  /// The explicit pad the kernel reads through (its input's source
  /// instead of the padded buffer), erased after the op.
  std::optional<ExplicitPad> readThroughPad;

protected:
  template <typename OpTy>
  ConvKernelEmitter(OpTy op, PatternRewriter &rw, const KernelConfig &cfg)
      : rw(rw), cfg(cfg), loc(op.getLoc()), kb(rw, op.getLoc(), cfg),
        input(op.getDpsInputs()[0]), filter(op.getDpsInputs()[1]),
        output(op.getDpsInits()[0]),
        strides(op.getStrides().template getValues<int64_t>()),
        dilations(op.getDilations().template getValues<int64_t>()),
        f32(rw.getF32Type()) {}

  MemRefType filterType() const { return cast<MemRefType>(filter.getType()); }
  MemRefType outputType() const { return cast<MemRefType>(output.getType()); }

  PatternRewriter &rw;
  const KernelConfig &cfg;
  Location loc;
  KernelBuilder kb;
  Value input, filter, output;
  SmallVector<int64_t> strides, dilations;
  Type f32;
};

/// Rewrites an OpTy on buffers with `Emitter`: `Emitter::match(op, cfg,
/// why)` says whether it takes the op, `Emitter(op, rw, cfg).emit()` writes
/// the kernel before it; the op is then erased and the epilogue's fused
/// ops with it, and the explicit pad the kernel read through.
template <typename OpTy, typename Emitter>
struct KernelEmitterPattern : OpRewritePattern<OpTy> {
  KernelEmitterPattern(MLIRContext *ctx, KernelConfig cfg,
                       PatternBenefit benefit = 1)
      : OpRewritePattern<OpTy>(ctx, benefit), cfg(cfg) {}
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    std::string why;
    if (failed(Emitter::match(op, cfg, why)))
      return rw.notifyMatchFailure(op, why);
    Emitter emitter(op, rw, cfg);
    emitter.emit();
    rw.eraseOp(op);
    finishEpilogue(emitter.epilogue, rw);
    if (emitter.readThroughPad)
      eraseExplicitPad(*emitter.readThroughPad, rw);
    return success();
  }
  KernelConfig cfg;
};

} // namespace mlir::lowp::x86

#endif // LIB_CONVERSION_LINALGTOX86_CONVKERNELEMITTER_H
