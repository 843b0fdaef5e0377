//===- LayoutCopies.cpp - vectorized transposes and strided copies --------===//
//
// Layout changes left on buffers after the kernels took what they could:
// a transpose of the innermost dimension as register transposes, a copy
// into or out of a strided view (tensor.pad) and elementwise ops on strided
// views (a padded buffer's interior and border) as vector loops.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/Support/Buffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <functional>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// A copy written as a linalg.generic on buffers whose input map permutes
/// the dimensions (what front ends and the decisions leave: a transpose
/// whose body went through f32 and back) -> the linalg.transpose it is, for
/// TransposeToBlockedCopy below (the affine vectorizer reads one side of
/// it element by element).
struct PermutingCopyToTranspose : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops())
      return rw.notifyMatchFailure(op, "not an elementwise copy on buffers");
    Value input = op.getDpsInputs()[0], init = op.getDpsInits()[0];
    auto inType = dyn_cast<MemRefType>(input.getType());
    auto outType = dyn_cast<MemRefType>(init.getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape())
      return rw.notifyMatchFailure(op, "needs static memrefs");
    if (inType.getElementType() != outType.getElementType())
      return rw.notifyMatchFailure(op, "converts its elements");
    if (!yieldsFirstArgument(op.getRegion().front()))
      return rw.notifyMatchFailure(op, "not a copy");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (!maps[1].isIdentity() || !maps[0].isPermutation() ||
        maps[0].isIdentity())
      return rw.notifyMatchFailure(op, "not a permutation of the input");
    // out[d] = in[map(d)]: input dimension k is loop maps[0](k); the
    // transpose takes, for each output dimension, the input's.
    AffineMap inverse = inversePermutation(maps[0]);
    SmallVector<int64_t> perm;
    for (AffineExpr e : inverse.getResults())
      perm.push_back(cast<AffineDimExpr>(e).getPosition());
    // linalg.transpose reads its input through the inverse of `perm`.
    if (AffineMap::getPermutationMap(invertPermutationVector(perm),
                                     op.getContext()) != maps[0])
      return rw.notifyMatchFailure(op, "permutation mismatch");
    linalg::TransposeOp::create(rw, op.getLoc(), input, init, perm);
    rw.eraseOp(op);
    return success();
  }
};

/// A linalg.transpose on buffers that moves the innermost dimension (the
/// affine vectorizer would read one of the two sides with a stride, element
/// by element) -> `lanes` x `lanes` blocks transposed in registers. Each
/// side's innermost dimension is contiguous; its rows may be any stride
/// apart.
struct TransposeToBlockedCopy : OpRewritePattern<linalg::TransposeOp> {
  TransposeToBlockedCopy(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "needs buffers");
    ArrayRef<int64_t> perm = op.getPermutation();
    int64_t rank = perm.size();
    // Either side may be a strided view with a contiguous innermost
    // dimension: GPT-2's fused QKV projection split by columns, then
    // transposed per head (it was scalar loops with a remark).
    MemRefType in = getRowMajorView(op.getInput(), rank),
               out = getRowMajorView(op.getInit(), rank);
    if (!in || !out || rank < 2 || perm[rank - 1] == rank - 1)
      return rw.notifyMatchFailure(op, "needs static memrefs with a "
                                       "contiguous innermost dimension and "
                                       "a moved last dimension");
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
    Value targetRoot = getRootBuffer(op.getTarget());
    bool disjoint = targetRoot.getDefiningOp<memref::AllocOp>() &&
                    getRootBuffer(op.getSource()) != targetRoot;
    auto vec = VectorType::get({cfg.lanes}, src.getElementType());
    // Into a fresh buffer, the outermost loop that is not a unit dimension
    // runs on threads (threads=) when the copy is large enough: each
    // iteration writes its own part (a batch's padded images).
    int64_t split = 0;
    while (split + 1 < rank && src.getDimSize(split) == 1)
      ++split;
    bool threads = disjoint && src.getNumElements() >= kMinPointsForThreads &&
                   split + 1 < rank;
    SmallVector<Value> ivs;
    std::function<void(int64_t)> nest = [&](int64_t d) {
      if (d + 1 == rank) {
        auto ix = [&](Value i) {
          SmallVector<Value> all(ivs);
          all.push_back(i);
          return all;
        };
        // Into a fresh buffer that the source is no view of (a padded
        // copy), the last run may overlap the one before: it rewrites the
        // same values. Otherwise the remainder goes element by element.
        auto emitRow = disjoint ? &LoopBuilder::emitVectorizedLoopOverlappingTail
                                : &LoopBuilder::emitVectorizedLoop;
        (kb.*emitRow)(
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
      kb.loop(
          src.getDimSize(d), 1,
          [&](Value iv) {
            ivs.push_back(iv);
            nest(d + 1);
            ivs.pop_back();
          },
          /*parallel=*/threads && d == split);
    };
    nest(0);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// An all-parallel linalg op on static buffers, some of them strided views
/// with a contiguous innermost dimension: a producer writing the interior of
/// a padded buffer and the fills of its border (lowp-fold-pad-into-producer).
/// affine-super-vectorize rejects non-identity layouts (the op would become
/// scalar loops), so as loops here: the innermost dimension a vector at a
/// time, the payload applied to vectors, operands that do not move along it
/// loaded once per row and broadcast.
struct StridedElementwiseToVectorLoops
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  StridedElementwiseToVectorLoops(MLIRContext *ctx, KernelConfig cfg)
      : OpInterfaceRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    unsigned loops = op.getNumLoops();
    if (!op.hasPureBufferSemantics() || loops == 0 ||
        loops != op.getNumParallelLoops() || op.getNumDpsInits() != 1 ||
        !op.getBlock())
      return rw.notifyMatchFailure(op, "needs an all-parallel op on buffers "
                                       "with one output");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ShapedType::isDynamicShape(ranges))
      return rw.notifyMatchFailure(op, "dynamic loop ranges");
    bool strided = false;
    unsigned inner = loops - 1;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      bool isInit = op.isDpsInit(&operand);
      if (!type) {
        if (isInit)
          return rw.notifyMatchFailure(op, "output is no buffer");
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(&operand);
      SmallVector<int64_t> strides;
      int64_t offset;
      if (!type.hasStaticShape() ||
          failed(type.getStridesAndOffset(strides, offset)) ||
          (!strides.empty() && strides.back() != 1) ||
          !map.isProjectedPermutation() || (isInit && !map.isIdentity()))
        return rw.notifyMatchFailure(
            op, "an operand is dynamic, not contiguous innermost, or read "
                "through a map that is no projected permutation");
      // Moving along the innermost loop only through the last dimension: a
      // contiguous vector.
      for (unsigned r = 0; r + 1 < map.getNumResults(); ++r)
        if (map.getDimPosition(r) == inner)
          return rw.notifyMatchFailure(op, "an operand is read with a "
                                           "stride along the innermost loop");
      strided |= !type.getLayout().isIdentity();
    }
    if (!strided)
      return rw.notifyMatchFailure(op, "identity layouts (the affine "
                                       "vectorizer's)");
    if (!isVectorizablePayload(op.getBlock()))
      return rw.notifyMatchFailure(op, "payload is not elementwise arithmetic");

    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    unsigned lanes = cfg.lanes;
    Value out = op.getDpsInits()[0];
    Block *body = op.getBlock();
    // Into a fresh buffer no input is a view of, the last vector of a row
    // may overlap the one before (it recomputes the same values).
    Value outRoot = getRootBuffer(out);
    bool disjoint =
        outRoot.getDefiningOp<memref::AllocOp>() &&
        llvm::none_of(op.getDpsInputs(),
                      [&](Value in) { return getRootBuffer(in) == outRoot; });
    SmallVector<Value> ivs(loops);
    // The payload at innermost position x: `vectorized` loads a vector of
    // every operand that moves along the innermost loop.
    auto apply = [&](bool vectorized) {
      SmallVector<Value> args;
      for (OpOperand &operand : op->getOpOperands()) {
        Value v = operand.get();
        if (body->getArgument(operand.getOperandNumber()).use_empty()) {
          args.push_back(Value());
          continue;
        }
        if (!isa<MemRefType>(v.getType())) {
          args.push_back(v);
          continue;
        }
        AffineMap map = op.getMatchingIndexingMap(&operand);
        SmallVector<Value> ix;
        for (unsigned r = 0; r < map.getNumResults(); ++r)
          ix.push_back(ivs[map.getDimPosition(r)]);
        Type elem = getElementTypeOrSelf(v.getType());
        if (vectorized && map.getNumResults() &&
            map.getDimPosition(map.getNumResults() - 1) == inner)
          args.push_back(vector::LoadOp::create(
              rw, loc, VectorType::get({lanes}, elem), v, ix));
        else
          args.push_back(memref::LoadOp::create(rw, loc, v, ix));
      }
      Value result = kb.applyPayload(body, args);
      if (vectorized && !isa<VectorType>(result.getType()))
        result = vector::BroadcastOp::create(
            rw, loc, VectorType::get({lanes}, result.getType()), result);
      if (vectorized)
        vector::StoreOp::create(rw, loc, result, out, ivs);
      else
        memref::StoreOp::create(rw, loc, result, out, ivs);
    };
    // The outermost loop that is not a unit dimension runs on threads
    // (threads=) when the op is large enough and writes a fresh buffer no
    // input views: each iteration writes its own part of the
    // identity-mapped output and reads nothing another one writes.
    int64_t points = 1;
    for (int64_t r : ranges)
      points *= r;
    unsigned split = 0;
    while (split < inner && ranges[split] == 1)
      ++split;
    bool threads = disjoint && points >= kMinPointsForThreads && split < inner;
    std::function<void(unsigned)> nest = [&](unsigned d) {
      if (d == inner) {
        auto emitRow = disjoint
                           ? &LoopBuilder::emitVectorizedLoopOverlappingTail
                           : &LoopBuilder::emitVectorizedLoop;
        (kb.*emitRow)(
            ranges[d], lanes,
            [&](Value x) {
              ivs[d] = x;
              apply(/*vectorized=*/true);
            },
            [&](Value x) {
              ivs[d] = x;
              apply(/*vectorized=*/false);
            });
        return;
      }
      kb.loop(
          ranges[d], 1,
          [&](Value iv) {
            ivs[d] = iv;
            nest(d + 1);
          },
          /*parallel=*/threads && d == split);
    };
    nest(0);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// An all-parallel linalg.generic with identity maps on static
/// identity-layout buffers of one shape whose innermost extent is not a
/// multiple of the lanes (a 64x64x3x3 filter's cast: 12288 masked vectors
/// of 3) -> the same generic on the buffers collapsed to two dimensions,
/// the outermost non-unit one and the rest, when the rest is whole vectors
/// (64 x 576: 2304 full vectors), else to one.
struct FlattenContiguousElementwise : OpRewritePattern<linalg::GenericOp> {
  FlattenContiguousElementwise(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    unsigned loops = op.getNumLoops();
    if (!op.hasPureBufferSemantics() || loops < 2 ||
        loops != op.getNumParallelLoops() ||
        !llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }))
      return rw.notifyMatchFailure(op, "needs identity maps on buffers");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ShapedType::isDynamicShape(ranges) ||
        ranges.back() % int64_t(cfg.lanes) == 0)
      return rw.notifyMatchFailure(op, "dynamic, or whole vectors per row");
    for (Value v : op->getOperands())
      if (isa<MemRefType>(v.getType()) && !getPlainMemRef(v, loops))
        return rw.notifyMatchFailure(op, "a buffer is not static and "
                                         "identity-layout");
    if (!isVectorizablePayload(op.getBlock()))
      return rw.notifyMatchFailure(op, "payload is not elementwise arithmetic");
    Location loc = op.getLoc();
    // The outermost dimension that is not a unit one stays a dimension of
    // its own (lowp-parallelize-loops splits it over threads; it never
    // splits a 1-D op) when the dimensions after it still make whole
    // vectors; otherwise everything becomes one dimension.
    unsigned outer = 0;
    while (outer + 1 < loops && ranges[outer] == 1)
      ++outer;
    int64_t rest = 1;
    for (unsigned d = outer + 1; d < loops; ++d)
      rest *= ranges[d];
    SmallVector<ReassociationIndices> groups;
    if (outer + 1 < loops && rest % int64_t(cfg.lanes) == 0)
      groups = {llvm::to_vector(llvm::seq<int64_t>(0, outer + 1)),
                llvm::to_vector(llvm::seq<int64_t>(outer + 1, loops))};
    else
      groups = {llvm::to_vector(llvm::seq<int64_t>(0, loops))};
    auto flat = [&](Value v) -> Value {
      if (!isa<MemRefType>(v.getType()))
        return v;
      return memref::CollapseShapeOp::create(rw, loc, v, groups);
    };
    SmallVector<Value> inputs = llvm::map_to_vector(op.getDpsInputs(), flat);
    SmallVector<Value> inits = llvm::map_to_vector(op.getDpsInits(), flat);
    AffineMap id = rw.getMultiDimIdentityMap(groups.size());
    SmallVector<AffineMap> maps(op->getNumOperands(), id);
    auto flatOp = linalg::GenericOp::create(
        rw, loc, TypeRange{}, inputs, inits, maps,
        SmallVector<utils::IteratorType>(groups.size(),
                                         utils::IteratorType::parallel));
    rw.inlineRegionBefore(op.getRegion(), flatOp.getRegion(),
                          flatOp.getRegion().begin());
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

/// linalg.fill, or a linalg.map with no inputs yielding a value from
/// outside it (tensor.pad's fill of its padded buffer), on a static
/// identity-layout buffer -> vector stores over the buffer flattened to one
/// run. The affine vectorizer masks every store of a row that is not whole
/// vectors (a 226-wide padded image: all 15 stores of each row masked, and
/// masked stores are slow on Zen 4), where one run needs no mask: its last
/// vector overlaps the one before (the same value again). From 16384
/// elements on, chunks of the run are the parallel loop (threads=).
struct ConstantFillToVectorLoop : OpInterfaceRewritePattern<linalg::LinalgOp> {
  ConstantFillToVectorLoop(MLIRContext *ctx, KernelConfig cfg)
      : OpInterfaceRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    Value value;
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      value = fill.value();
    } else if (auto map = dyn_cast<linalg::MapOp>(op.getOperation())) {
      if (!map.getInputs().empty())
        return rw.notifyMatchFailure(op, "a map with inputs");
      value = map.getBody()->getTerminator()->getOperand(0);
      if (map.getRegion().isAncestor(value.getParentRegion()))
        return rw.notifyMatchFailure(op, "the value is computed inside");
    } else {
      return rw.notifyMatchFailure(op, "not a fill");
    }
    if (!op.hasPureBufferSemantics())
      return rw.notifyMatchFailure(op, "not on buffers");
    Value out = op.getDpsInits()[0];
    auto type = cast<MemRefType>(out.getType());
    if (type.getRank() == 0 || !getPlainMemRef(out, type.getRank()) ||
        !type.getElementType().isIntOrFloat() ||
        type.getNumElements() < int64_t(cfg.lanes))
      return rw.notifyMatchFailure(op, "not a static identity-layout buffer "
                                       "of at least one vector");
    Location loc = op.getLoc();
    KernelBuilder kb(rw, loc, cfg);
    int64_t n = type.getNumElements(), lanes = cfg.lanes;
    Value flat = out;
    if (type.getRank() > 1)
      flat = memref::CollapseShapeOp::create(
          rw, loc, out,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))});
    Value splat = vector::BroadcastOp::create(
        rw, loc, VectorType::get({lanes}, type.getElementType()), value);
    auto store = [&](Value at) {
      vector::StoreOp::create(rw, loc, splat, flat, at);
    };
    constexpr int64_t kChunk = 4096;
    int64_t chunked = n >= kMinPointsForThreads ? n / kChunk * kChunk : 0;
    kb.loop(
        chunked, kChunk,
        [&](Value c0) {
          kb.loop(kChunk, lanes, [&](Value i) { store(kb.addIdx(c0, i)); });
        },
        /*parallel=*/true);
    kb.emitVectorizedLoopOverlappingTail(
        n - chunked, lanes, [&](Value i) { store(kb.addc(i, chunked)); },
        [&](Value i) {
          memref::StoreOp::create(rw, loc, value, flat, kb.addc(i, chunked));
        });
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

} // namespace

void mlir::lowp::x86::populateLeftoverElementwisePatterns(
    RewritePatternSet &patterns, const KernelConfig &cfg) {
  patterns.add<StridedElementwiseToVectorLoops, FlattenContiguousElementwise,
               ConstantFillToVectorLoop>(patterns.getContext(), cfg);
}

void mlir::lowp::x86::populateLayoutCopyPatterns(RewritePatternSet &patterns,
                                                 const KernelConfig &cfg) {
  patterns.add<TransposeToBlockedCopy, StridedCopyToVectorLoops>(
      patterns.getContext(), cfg);
  patterns.add<PermutingCopyToTranspose>(patterns.getContext());
}
