//===- ConvFilterGradKernel.cpp - NCHW filter gradients as GEMMs ----------===//
//
// The filter gradient of an NCHW convolution, a contraction generic over
// batch and output pixels, as GEMMs on blocks of the input's windows
// (NchwWindows.h) and the output gradient (KernelBuilder::emitKernel).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "NchwWindows.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/Conversion/LinalgCommon/Im2col.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// Parts of a batch whose filter-gradient sums are kept apart, so that
/// threads take whole parts.
constexpr int64_t kFilterGradientParts = 4;

/// Adds the terms of `e`, a sum of loops times positive constants, to
/// `terms` (loop -> coefficient); false for any other expression.
bool addLinearTerms(AffineExpr e, llvm::SmallDenseMap<unsigned, int64_t> &terms,
                    int64_t scale = 1) {
  if (auto dim = dyn_cast<AffineDimExpr>(e)) {
    terms[dim.getPosition()] += scale;
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return addLinearTerms(bin.getLHS(), terms, scale) &&
           addLinearTerms(bin.getRHS(), terms, scale);
  if (bin.getKind() != AffineExprKind::Mul)
    return false;
  auto lhsConst = dyn_cast<AffineConstantExpr>(bin.getLHS());
  auto rhsConst = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (rhsConst && rhsConst.getValue() > 0)
    return addLinearTerms(bin.getLHS(), terms, scale * rhsConst.getValue());
  if (lhsConst && lhsConst.getValue() > 0)
    return addLinearTerms(bin.getRHS(), terms, scale * lhsConst.getValue());
  return false;
}

/// The type body argument `arg` is multiplied in when `v` is it, maybe
/// rounded to a narrower type (arith.truncf) and maybe widened back
/// (arith.extf); null otherwise.
Type multipliedType(Value v, Block *body, unsigned arg) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    v = ext.getIn();
  Type type = v.getType();
  if (auto trunc = v.getDefiningOp<arith::TruncFOp>())
    v = trunc.getIn();
  return v == body->getArgument(arg) ? type : Type();
}

} // namespace

FailureOr<FilterGradient>
mlir::lowp::x86::matchFilterGradient(linalg::GenericOp op, std::string &why) {
  why.clear();
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 7)
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap xMap = maps[0], gMap = maps[1], oMap = maps[2];
  if (xMap.getNumResults() != 4 || gMap.getNumResults() != 4 ||
      oMap.getNumResults() != 4 || !oMap.isProjectedPermutation() ||
      !gMap.isProjectedPermutation())
    return failure();
  auto dimOf = [](AffineMap map, unsigned result) {
    return cast<AffineDimExpr>(map.getResult(result)).getPosition();
  };
  // Loops by role: out (c, kh, kw, f), grad (n, f, oh, ow), input (n, c,
  // oh * s0 + kh * d0, ow * s1 + kw * d1).
  FilterGradient fg;
  unsigned c = dimOf(oMap, 0), kh = dimOf(oMap, 1), kw = dimOf(oMap, 2),
           f = dimOf(oMap, 3), n = dimOf(gMap, 0), oh = dimOf(gMap, 2),
           ow = dimOf(gMap, 3);
  auto xDim = [&](unsigned result) -> std::optional<unsigned> {
    if (auto d = dyn_cast<AffineDimExpr>(xMap.getResult(result)))
      return d.getPosition();
    return std::nullopt;
  };
  if (llvm::SmallDenseSet<unsigned>({c, kh, kw, f, n, oh, ow}).size() != 7 ||
      dimOf(gMap, 1) != f || xDim(0) != n || xDim(1) != c)
    return failure();
  // The window rows and columns: output pixel times stride plus tap times
  // dilation.
  for (unsigned axis = 0; axis < 2; ++axis) {
    llvm::SmallDenseMap<unsigned, int64_t> terms;
    unsigned pixel = axis ? ow : oh, tap = axis ? kw : kh;
    if (!addLinearTerms(xMap.getResult(2 + axis), terms) || terms.size() != 2 ||
        !terms.count(pixel) || !terms.count(tap))
      return failure();
    fg.strides[axis] = terms[pixel];
    fg.dilations[axis] = terms[tap];
  }
  // o += x * g, the operands maybe rounded and widened.
  Block *body = op.getBlock();
  arith::MulFOp mul = getAccumulatedProduct(*body);
  if (!mul)
    return failure();
  Type lhs0 = multipliedType(mul.getLhs(), body, 0),
       rhs1 = multipliedType(mul.getRhs(), body, 1),
       lhs1 = multipliedType(mul.getLhs(), body, 1),
       rhs0 = multipliedType(mul.getRhs(), body, 0);
  Type types[2] = {lhs0 ? lhs0 : rhs0, lhs0 ? rhs1 : lhs1};
  if (!types[0] || !types[1])
    return failure();
  // A filter gradient from here on: what the kernel cannot take is said.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned loop : {n, oh, ow})
    if (iterators[loop] != utils::IteratorType::reduction) {
      why = "the batch and output pixel loops are not reductions";
      return failure();
    }
  if (failed(checkConvBuffers(op, why)))
    return failure();
  // Both operands multiplied in one float type (the element types, or what
  // the body rounds them to), into an f32 output.
  fg.elem = types[0];
  for (unsigned i = 0; i < 2; ++i)
    fg.rounded[i] = types[i] != getElementTypeOrSelf(op.getDpsInputs()[i]);
  if (types[0] != types[1] || !isa<FloatType>(fg.elem) ||
      fg.elem.getIntOrFloatBitWidth() > 32 ||
      !getElementTypeOrSelf(op.getDpsInits()[0]).isF32()) {
    why = "needs both operands multiplied in one float type of 32 bits or "
          "fewer and an f32 output";
    return failure();
  }
  ArrayRef<int64_t>
      x = cast<MemRefType>(op.getDpsInputs()[0].getType()).getShape(),
      g = cast<MemRefType>(op.getDpsInputs()[1].getType()).getShape(),
      o = cast<MemRefType>(op.getDpsInits()[0].getType()).getShape();
  if (x[0] != g[0] || x[1] != o[0] || g[1] != o[3] ||
      x[2] < (g[2] - 1) * fg.strides[0] + (o[1] - 1) * fg.dilations[0] + 1 ||
      x[3] < (g[3] - 1) * fg.strides[1] + (o[2] - 1) * fg.dilations[1] + 1) {
    why = "the input does not cover the windows the output gradient reads";
    return failure();
  }
  return fg;
}

namespace {

/// o[c][kh][kw][f] += sum over n, oh, ow of x[n][c][window] * g[n][f][oh][ow]
/// (matchFilterGradient) as GEMMs, per image and block of output rows:
/// o as [C*KH*KW][F] += col (C*KH*KW x pixels) * g's block transposed
/// (pixels x F). col, the input's windows, is built for the block in the
/// kernel's A layout (row-major f32, or bf16 pixel pairs for the dot), within
/// a quarter of the L2, and read from cache by the GEMM; g's block is packed
/// as B ([F][pixels] is B^T, a Linear weight's layout). Im2col of the whole
/// batch first would write and read back KH*KW times the input (58 MB for
/// a 64-channel 3x3 over 8 images of 56x56).
struct FilterGradToKernel : OpRewritePattern<linalg::GenericOp> {
  FilterGradToKernel(MLIRContext *ctx, KernelConfig cfg)
      : OpRewritePattern(ctx), cfg(cfg) {}
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    std::string why;
    FailureOr<FilterGradient> fg = matchFilterGradient(op, why);
    if (failed(fg))
      return rw.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    Value input = op.getDpsInputs()[0], grad = op.getDpsInputs()[1],
          out = op.getDpsInits()[0];
    auto gType = cast<MemRefType>(grad.getType()),
         oType = cast<MemRefType>(out.getType());
    Type elem = fg->elem, f32 = rw.getF32Type();
    int64_t images = gType.getDimSize(0), f = gType.getDimSize(1),
            oh = gType.getDimSize(2), ow = gType.getDimSize(3),
            c = oType.getDimSize(0), kh = oType.getDimSize(1),
            kw = oType.getDimSize(2);
    int64_t depth = c * kh * kw;
    bool dot = cfg.bf16Dot && elem.isBF16();
    Type colElem = dot ? elem : f32;
    // Rows per block: col within a quarter of the L2; for the dot, an even
    // number of pixels where the rows allow (pairs of pixels; an odd block
    // gets a zero pixel).
    int64_t bytes = colElem.getIntOrFloatBitWidth() / 8;
    int64_t budget = cfg.l2Bytes ? cfg.l2Bytes / 4 : 256 * 1024;
    int64_t rowsPerBlock = std::clamp<int64_t>(
        budget / std::max<int64_t>(1, depth * ow * bytes), 1, oh);
    if (dot && ow % 2 && rowsPerBlock > 1)
      rowsPerBlock -= rowsPerBlock % 2;
    KernelBuilder kb(rw, loc, cfg);
    Value cMat = memref::CollapseShapeOp::create(
        rw, loc, out, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    Value gMat = memref::CollapseShapeOp::create(
        rw, loc, grad, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    auto gMatType = cast<MemRefType>(gMat.getType());
    NchwWindows windows(kb, input, fg->strides, fg->dilations, kh, kw, ow,
                        cfg.lanes);
    // A value read from x or g as col or B hold it: rounded to the type
    // the body multiplies in (`round`), widened to f32 for the f32 kernel.
    auto convert = [&](Value v, bool round) -> Value {
      auto typed = [&](Type t) -> Type {
        if (auto vec = dyn_cast<VectorType>(v.getType()))
          return VectorType::get(vec.getShape(), t);
        return t;
      };
      if (round)
        v = arith::TruncFOp::create(rw, loc, typed(elem), v);
      if (colElem != elem)
        v = arith::ExtFOp::create(rw, loc, typed(colElem), v);
      return v;
    };
    // The GEMMs' C: o, or (partials) part cPart of the images' sums.
    Value partials, cPart;
    auto emitBlock = [&](Value ni, Value y0, int64_t rows) {
      int64_t pixels = rows * ow, kPixels = dot ? pixels + pixels % 2 : pixels;
      Value col = kb.alloc(MemRefType::get({depth, kPixels}, colElem));
      Value zero = arith::ConstantOp::create(rw, loc, rw.getZeroAttr(elem));
      // col: each row a tap over the block's pixels (parallel with
      // threads=), the odd block's extra pixel zero.
      kb.loop(
          depth, 1,
          [&](Value row) {
            NchwWindows::TapOffsets tap = windows.decode(row);
            kb.loop(rows, 1, [&](Value r) {
              Value p0 = kb.mulc(r, ow);
              windows.copyRow(
                  ni, windows.at(tap, kb.addIdx(y0, r)),
                  [&](Value x, Value v) {
                    vector::StoreOp::create(rw, loc, convert(v, fg->rounded[0]),
                                            col,
                                            ValueRange{row, kb.addIdx(p0, x)});
                  },
                  [&](Value x, Value v) {
                    memref::StoreOp::create(rw, loc, convert(v, fg->rounded[0]),
                                            col,
                                            ValueRange{row, kb.addIdx(p0, x)});
                  });
            });
            if (kPixels != pixels)
              memref::StoreOp::create(rw, loc, zero, col,
                                      ValueRange{row, kb.idx(pixels)});
          },
          /*parallel=*/true);
      // The block of g, [F][pixels] in place; a copy in the multiplied type
      // where the body rounds g, zero-padded for an odd block on the dot.
      SmallVector<OpFoldResult> offsets{ni, rw.getIndexAttr(0),
                                        kb.mulc(y0, ow)},
          sizes{rw.getIndexAttr(1), rw.getIndexAttr(f),
                rw.getIndexAttr(pixels)},
          unit(3, rw.getIndexAttr(1));
      auto blockType = memref::SubViewOp::inferRankReducedResultType(
          {f, pixels}, gMatType, offsets, sizes, unit);
      MatrixOperand bOp;
      bOp.transposed = true;
      bOp.mem = memref::SubViewOp::create(rw, loc, cast<MemRefType>(blockType),
                                          gMat, offsets, sizes, unit);
      Value padded;
      if (kPixels != pixels || fg->rounded[1]) {
        padded = kb.alloc(MemRefType::get({f, kPixels}, elem));
        kb.loop(f, 1, [&](Value row) {
          auto gVec = VectorType::get({cfg.lanes}, gType.getElementType());
          kb.emitVectorizedLoopOverlappingTail(
              pixels, cfg.lanes,
              [&](Value p) {
                Value v = vector::LoadOp::create(rw, loc, gVec, bOp.mem,
                                                 ValueRange{row, p});
                if (fg->rounded[1])
                  v = arith::TruncFOp::create(
                      rw, loc, VectorType::get({cfg.lanes}, elem), v);
                vector::StoreOp::create(rw, loc, v, padded, ValueRange{row, p});
              },
              [&](Value p) {
                Value v = memref::LoadOp::create(rw, loc, bOp.mem,
                                                 ValueRange{row, p});
                if (fg->rounded[1])
                  v = arith::TruncFOp::create(rw, loc, elem, v);
                memref::StoreOp::create(rw, loc, v, padded, ValueRange{row, p});
              });
          if (kPixels != pixels)
            memref::StoreOp::create(rw, loc, zero, padded,
                                    ValueRange{row, kb.idx(pixels)});
        });
        bOp.mem = padded;
      }
      Value packed = kb.packB(bOp, {}, f, kPixels, elem, dot);
      KernelBuilder::GemmCall call(col, packed, partials ? partials : cMat,
                                   depth, f, kPixels, dot);
      if (partials)
        call.cBatch = {cPart};
      kb.emitKernel(call);
      kb.dealloc(packed);
      if (padded)
        kb.dealloc(padded);
      kb.dealloc(col);
    };
    // Images and blocks in turn, all accumulating into o; with several
    // images, in parts of the batch (the loop threads= shares out), each
    // part's sums in a zeroed buffer of its own, added to o at the end.
    // Threads inside one image would split short GEMMs (a 576 x 64 C over
    // 112 pixels) into parallel regions that cost more than they share.
    int64_t fullRows = oh / rowsPerBlock * rowsPerBlock;
    int64_t parts = std::min<int64_t>(images, kFilterGradientParts);
    int64_t imagesPerPart = ceilDiv(images, parts);
    parts = ceilDiv(images, imagesPerPart);
    auto emitImages = [&](Value first, Value end) {
      kb.loop(first, end, 1, [&](Value ni) {
        kb.loop(fullRows, rowsPerBlock,
                [&](Value y0) { emitBlock(ni, y0, rowsPerBlock); });
        if (fullRows < oh)
          emitBlock(ni, kb.idx(fullRows), oh - fullRows);
      });
    };
    if (parts == 1) {
      emitImages(kb.idx(0), kb.idx(images));
      rw.eraseOp(op);
      return success();
    }
    partials = kb.alloc(MemRefType::get({parts, depth, f}, f32));
    Value zeros = arith::ConstantOp::create(rw, loc, rw.getZeroAttr(f32));
    kb.loop(
        parts, 1,
        [&](Value part) {
          cPart = part;
          kb.loop(depth, 1, [&](Value row) {
            kb.loop(f, 1, [&](Value col) {
              memref::StoreOp::create(rw, loc, zeros, partials,
                                      ValueRange{part, row, col});
            });
          });
          Value first = kb.mulc(part, imagesPerPart);
          Value end = arith::MinUIOp::create(
              rw, loc, kb.addc(first, imagesPerPart), kb.idx(images));
          emitImages(first, end);
        },
        /*parallel=*/true);
    kb.loop(depth, 1, [&](Value row) {
      kb.loop(f, 1, [&](Value col) {
        Value sum = memref::LoadOp::create(rw, loc, cMat, ValueRange{row, col});
        for (int64_t part = 0; part < parts; ++part)
          sum = arith::AddFOp::create(
              rw, loc, sum,
              memref::LoadOp::create(rw, loc, partials,
                                     ValueRange{kb.idx(part), row, col}));
        memref::StoreOp::create(rw, loc, sum, cMat, ValueRange{row, col});
      });
    });
    kb.dealloc(partials);
    rw.eraseOp(op);
    return success();
  }
  KernelConfig cfg;
};

} // namespace

void mlir::lowp::x86::populateConvFilterGradKernelPatterns(
    RewritePatternSet &patterns, const KernelConfig &cfg) {
  patterns.add<FilterGradToKernel>(patterns.getContext(), cfg);
}
