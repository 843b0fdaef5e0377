//===- LayoutCopies.cpp - vectorized transposes and strided copies --------===//
//
// Layout changes left on buffers after the kernels took what they could:
// a transpose of the innermost dimension as register transposes, a copy
// into or out of a strided view (tensor.pad) as vector loops.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <functional>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// A linalg.transpose on buffers that moves the innermost dimension (the
/// affine vectorizer would read one of the two sides with a stride, element
/// by element) -> `lanes` x `lanes` blocks transposed in registers.
struct TransposeToBlockedCopy : OpRewritePattern<linalg::TransposeOp> {
  TransposeToBlockedCopy(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "needs buffers");
    ArrayRef<int64_t> perm = op.getPermutation();
    int64_t rank = perm.size();
    MemRefType in = getPlainMemRef(op.getInput(), rank),
               out = getPlainMemRef(op.getInit(), rank);
    if (!in || !out || rank < 2 || perm[rank - 1] == rank - 1)
      return rw.notifyMatchFailure(op, "needs static identity-layout "
                                       "memrefs and a moved last dimension");
    unsigned width = in.getElementType().getIntOrFloatBitWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return rw.notifyMatchFailure(op, "element width");
    // out[o] = in[i] with i[perm[d]] = o[d]. The input dimension that
    // becomes the output's innermost (rowDim) and the input's innermost form
    // the 2-D transposes; every other dimension is a loop.
    int64_t rowDim = perm[rank - 1];
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    unsigned lanes = cfg.lanes;
    auto vec = VectorType::get({lanes}, in.getElementType());
    SmallVector<Value> outer(rank);
    std::function<void(int64_t)> nest = [&](int64_t d) {
      if (d == rank) {
        auto inIx = [&](Value r, Value c) {
          SmallVector<Value> ix(outer);
          ix[rowDim] = r;
          ix[rank - 1] = c;
          return ix;
        };
        // out index: o[d] = i[perm[d]].
        auto outIx = [&](Value c, Value r) {
          SmallVector<Value> i(outer);
          i[rowDim] = r;
          i[rank - 1] = c;
          SmallVector<Value> o(rank);
          for (int64_t e = 0; e < rank; ++e)
            o[e] = i[perm[e]];
          return o;
        };
        kb.emitTransposeCopy(
            in.getDimSize(rowDim), in.getDimSize(rank - 1), lanes,
            [&](Value r, Value c) -> Value {
              return vector::LoadOp::create(rw, loc, vec, op.getInput(),
                                            inIx(r, c));
            },
            [&](Value c, Value r, Value v) {
              vector::StoreOp::create(rw, loc, v, op.getInit(), outIx(c, r));
            },
            [&](Value r, Value c) {
              Value x = memref::LoadOp::create(rw, loc, op.getInput(),
                                               inIx(r, c));
              memref::StoreOp::create(rw, loc, x, op.getInit(), outIx(c, r));
            });
        return;
      }
      if (d == rowDim || d == rank - 1)
        return nest(d + 1);
      kb.loop(in.getDimSize(d), 1, [&](Value iv) {
        outer[d] = iv;
        nest(d + 1);
      });
    };
    nest(0);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// memref.copy between static buffers where one side is strided (tensor.pad
/// bufferizes to a copy into a subview of the padded buffer; im2col-style
/// slices do the same): finalize-memref-to-llvm calls the runtime's generic
/// element-by-element `memrefCopy` for those. As loops instead, the
/// contiguous innermost dimension a vector at a time.
struct StridedCopyToVectorLoops : OpRewritePattern<memref::CopyOp> {
  StridedCopyToVectorLoops(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rw) const override {
    auto src = dyn_cast<MemRefType>(op.getSource().getType());
    auto dst = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!src || !dst || !src.hasStaticShape() || src.getRank() == 0 ||
        (src.getLayout().isIdentity() && dst.getLayout().isIdentity()))
      return rw.notifyMatchFailure(op, "contiguous or dynamic copy");
    auto innerStride = [](MemRefType t) {
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(t.getStridesAndOffset(strides, offset)))
        return int64_t(0);
      return strides.back();
    };
    if (innerStride(src) != 1 || innerStride(dst) != 1 ||
        !src.getElementType().isIntOrFloat())
      return rw.notifyMatchFailure(op, "innermost dimension not contiguous");
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    int64_t rank = src.getRank();
    auto vec = VectorType::get({cfg.lanes}, src.getElementType());
    SmallVector<Value> ivs;
    std::function<void(int64_t)> nest = [&](int64_t d) {
      if (d + 1 == rank) {
        auto ix = [&](Value i) {
          SmallVector<Value> all(ivs);
          all.push_back(i);
          return all;
        };
        kb.emitVectorizedLoop(
            src.getDimSize(d), cfg.lanes,
            [&](Value i) {
              Value v = vector::LoadOp::create(rw, loc, vec, op.getSource(),
                                               ix(i));
              vector::StoreOp::create(rw, loc, v, op.getTarget(), ix(i));
            },
            [&](Value i) {
              Value v = memref::LoadOp::create(rw, loc, op.getSource(), ix(i));
              memref::StoreOp::create(rw, loc, v, op.getTarget(), ix(i));
            });
        return;
      }
      kb.loop(src.getDimSize(d), 1, [&](Value iv) {
        ivs.push_back(iv);
        nest(d + 1);
        ivs.pop_back();
      });
    };
    nest(0);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

} // namespace

void mlir::lowp::x86::populateLayoutCopyPatterns(RewritePatternSet &patterns,
                                                 const KernelConfig &cfg) {
  patterns.add<TransposeToBlockedCopy, StridedCopyToVectorLoops>(
      patterns.getContext(), cfg);
}
