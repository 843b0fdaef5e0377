//===- ConvNchwKernel.cpp - NCHW convolutions as blocked im2col GEMMs -----===//
//
// linalg.conv_2d_nchw_fchw as GEMMs on blocks of im2col built in the GEMM
// kernel's own layout (KernelBuilder::emitKernel).
//
//===----------------------------------------------------------------------===//

#include "ConvKernelEmitter.h"
#include "NchwWindows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// linalg.conv_2d_nchw_fchw (torch-mlir's default layout) as GEMMs:
/// out[n] (F x OH*OW) += filter (F x C*KH*KW) * col (C*KH*KW x OH*OW), the
/// filter and output viewed as matrices in place. col is built for a block
/// of R output rows and one k block at a time, sized to stay in L2 (the
/// GEMM accumulating into C across k blocks), directly in the layout
/// the kernel reads (f32 rows, or VNNI pairs of rows for the bf16 dot), so
/// it is written once and read from cache: no separate packing pass and no
/// full-size buffer. At stride 1 a row of OW pixels is a contiguous run of
/// the input, copied a vector at a time.
///
/// The plan (k blocks, rows per block), the filter as A, the output as C
/// and the fused epilogue are set up in the constructor; emit() then
/// builds, per block of output rows, col one k block at a time and its
/// GEMM.
class ConvNchwEmitter : public ConvKernelEmitter {
public:
  static LogicalResult match(linalg::Conv2DNchwFchwOp op,
                             const KernelConfig &cfg, std::string &why) {
    return matchConv(op, cfg, why);
  }

  ConvNchwEmitter(linalg::Conv2DNchwFchwOp op, PatternRewriter &rw,
                  const KernelConfig &cfg);

  /// The kernel, before the op; the caller erases it and finishes the
  /// epilogue.
  void emit();

private:
  Value widen(Value v);
  /// body(output row, its first column in col) for the block's rows.
  void forRows(Value y0, int64_t rows, function_ref<void(Value, Value)> body);
  /// col for rows [y0, y0 + rows) of image ni, then the GEMM on its pixels.
  void emitBlock(Value ni, Value y0, int64_t rows);
  /// col rows [0, steps) for the k steps (pairs) from k0.
  void fillCol(Value col, Value ni, Value y0, int64_t rows, Value k0,
               int64_t steps, bool oddPair);
  /// The VNNI row pair kk2 (rows 2kk2 and 2kk2+1 interleaved) as col row
  /// `row`; `onlyEven`: the odd row is zeros.
  void fillColPair(Value col, Value ni, Value y0, int64_t rows, Value kk2,
                   Value row, bool onlyEven);
  /// The GEMM of one k block, with the part of the epilogue it takes.
  void emitKBlock(Value col, Value ni, Value y0, int64_t rows, Value k0,
                  int64_t steps, bool last, const KernelEpilogue *part);

  Type elem;
  bool dot;
  int64_t f, oh, ow, c, kh, kw;
  /// K, and K padded to pairs for the dot.
  int64_t depth, kDepth;
  /// k steps (pairs for the dot) in all, per k block, and the k blocks.
  int64_t kSteps, kcSteps, kBlocks;
  int64_t rowsPerBlock;
  MemRefType colType;
  Value cMat;
  /// The filter as the kernel reads it (prepareA), and the copies to free.
  Value aMem, aCopy, paddedFilter;
  SmallVector<Value> aIx;
  bool aTransposed;
  VectorType vec, f32Vec;
  /// The input's windows as col rows, a vector of output columns at a time
  /// (NchwWindows.h).
  std::optional<NchwWindows> windows;
  /// The col every block of an image shares when the blocks are not the
  /// parallel loop.
  Value sharedCol;
};

ConvNchwEmitter::ConvNchwEmitter(linalg::Conv2DNchwFchwOp op,
                                 PatternRewriter &rw, const KernelConfig &cfg)
    : ConvKernelEmitter(op, rw, cfg) {
  MemRefType fil = filterType(), out = outputType();
  elem = fil.getElementType();
  dot = cfg.bf16Dot && elem.isBF16();
  f = out.getDimSize(1);
  oh = out.getDimSize(2);
  ow = out.getDimSize(3);
  c = fil.getDimSize(1);
  kh = fil.getDimSize(2);
  kw = fil.getDimSize(3);
  depth = c * kh * kw;
  // The bf16 dot reads K in pairs: an odd K (a stem's 3 colours x 3 x 3)
  // gets a zero k row in col and a zero column in a copy of the filter.
  kDepth = dot ? depth + depth % 2 : depth;
  // k blocks: with K deeper than the kernel's k block, col holds one k
  // block of the block's pixels at a time and the GEMM accumulates into C
  // across them. A block of pixels then reads the filter once, however
  // deep K is; col within the budget for all of K would leave a few pixels
  // per block, each block reading the whole filter again (ResNet's
  // 512-channel 3x3 on 7x7: 14 pixels, a 9.4 MB filter read 4 times per
  // image). k blocks are even (K = 4608, kc = 512: 9 of 512; 576: 2 of
  // 288), in steps of 4 (the kernel's unrolling; pairs for the dot).
  kSteps = dot ? kDepth / 2 : kDepth;
  kBlocks = ceilDiv(kSteps, cfg.kcSteps(dot));
  kcSteps = kBlocks == 1 ? kSteps : ceilDiv(ceilDiv(kSteps, kBlocks), 4) * 4;
  kBlocks = ceilDiv(kSteps, kcSteps);
  int64_t kcDepth = dot ? 2 * kcSteps : kcSteps;
  // Rows per block: col within a quarter of the L2 (256 KiB on Zen 4: the
  // mixed ResNet block measured 6% faster than with half), preferring a
  // pixel count that is a multiple of nr (no masked last panel).
  Type colElem = dot ? elem : f32;
  int64_t bytes = colElem.getIntOrFloatBitWidth() / 8;
  int64_t budget = cfg.l2Bytes ? cfg.l2Bytes / 4 : 256 * 1024;
  rowsPerBlock = std::clamp<int64_t>(
      budget / std::max<int64_t>(1, kcDepth * ow * bytes), 1, oh);
  for (int64_t r = rowsPerBlock; r * 2 > rowsPerBlock; --r)
    if (r * ow % cfg.nr == 0) {
      rowsPerBlock = r;
      break;
    }
  MatrixOperand a;
  a.mem = memref::CollapseShapeOp::create(
      rw, loc, filter, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  cMat = memref::CollapseShapeOp::create(
      rw, loc, output, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  // The fill of the output and its elementwise consumer (batch norm, ReLU,
  // residual) run in the kernel, on the accumulators: the consumer reads
  // per-channel operands as broadcast scalars of the row (F) and full-size
  // ones through the same collapse as C.
  epilogue = matchEpilogueOrRemark(op, cMat, {input, filter});
  prepareEpilogue(epilogue, op, rw);
  int64_t blockCols = ceilDiv(rowsPerBlock * ow, cfg.nr) * cfg.nr;
  colType = dot ? MemRefType::get({kcSteps, 2 * blockCols}, elem)
                : MemRefType::get({kcSteps, blockCols}, f32);
  // The filter as the kernel's A (widened once for the f32 kernel; with an
  // odd K, copied with a zero last column).
  if (kDepth != depth) {
    paddedFilter = kb.alloc(MemRefType::get({f, kDepth}, elem));
    Value zero = arith::ConstantOp::create(rw, loc, rw.getZeroAttr(elem));
    kb.loop(f, 1, [&](Value row) {
      kb.loop(depth, 1, [&](Value k) {
        Value v = memref::LoadOp::create(rw, loc, a.mem, ValueRange{row, k});
        memref::StoreOp::create(rw, loc, v, paddedFilter, ValueRange{row, k});
      });
      memref::StoreOp::create(rw, loc, zero, paddedFilter,
                              ValueRange{row, kb.idx(depth)});
    });
    a.mem = paddedFilter;
  }
  aMem = kb.prepareA(a, {}, f, kDepth, dot, aCopy, aIx, aTransposed);
  vec = VectorType::get({cfg.lanes}, elem);
  f32Vec = VectorType::get({cfg.lanes}, f32);
  windows.emplace(kb, input, strides, dilations, kh, kw, ow, cfg.lanes);
}

Value ConvNchwEmitter::widen(Value v) {
  if (dot || elem == f32)
    return v;
  return arith::ExtFOp::create(
      rw, loc, isa<VectorType>(v.getType()) ? Type(f32Vec) : f32, v);
}

void ConvNchwEmitter::forRows(Value y0, int64_t rows,
                              function_ref<void(Value, Value)> body) {
  kb.loop(rows, 1, [&](Value r) { body(kb.addIdx(y0, r), kb.mulc(r, ow)); });
}

/// Each col row (or VNNI row pair) is written for all the block's rows in
/// turn: sequential stores, its taps decoded once. Each is its own col row
/// (parallel with threads=).
void ConvNchwEmitter::fillCol(Value col, Value ni, Value y0, int64_t rows,
                              Value k0, int64_t steps, bool oddPair) {
  if (!dot) {
    kb.loop(
        steps, 1,
        [&](Value row) {
          NchwWindows::TapOffsets offsets =
              windows->decode(kb.addIdx(k0, row));
          forRows(y0, rows, [&](Value y, Value p0) {
            windows->copyRow(
                ni, windows->at(offsets, y),
                [&](Value x, Value v) {
                  vector::StoreOp::create(rw, loc, widen(v), col,
                                          ValueRange{row, kb.addIdx(p0, x)});
                },
                [&](Value x, Value v) {
                  memref::StoreOp::create(rw, loc, widen(v), col,
                                          ValueRange{row, kb.addIdx(p0, x)});
                });
          });
        },
        /*parallel=*/true);
    return;
  }
  // The odd K's last pair (its second row zeros) ends the last block.
  int64_t fullPairs = oddPair ? steps - 1 : steps;
  kb.loop(
      fullPairs, 1,
      [&](Value row) {
        fillColPair(col, ni, y0, rows, kb.addIdx(k0, row), row, false);
      },
      /*parallel=*/true);
  if (oddPair)
    fillColPair(col, ni, y0, rows, kb.idx(depth / 2), kb.idx(fullPairs),
                true);
}

void ConvNchwEmitter::fillColPair(Value col, Value ni, Value y0, int64_t rows,
                                  Value kk2, Value row, bool onlyEven) {
  NchwWindows::TapOffsets evenTap = windows->decode(kb.mulc(kk2, 2));
  std::optional<NchwWindows::TapOffsets> oddTap;
  if (!onlyEven)
    oddTap = windows->decode(kb.addc(kb.mulc(kk2, 2), 1));
  forRows(y0, rows, [&](Value y, Value p0) {
    NchwWindows::Tap even = windows->at(evenTap, y);
    auto pairAt = [&](Value x) -> SmallVector<Value, 2> {
      return {row, kb.mulc(kb.addIdx(p0, x), 2)};
    };
    // Vector runs land in every other slot: strided stores would be
    // scalar, so the even and odd rows are interleaved in registers when
    // the run is full and stored pairwise otherwise. The odd row's pass
    // stores both (the even run loaded again); without an odd row, the
    // even pass stores it with zeros.
    if (onlyEven) {
      Value zeros = arith::ConstantOp::create(
          rw, loc, vec, DenseElementsAttr::get(vec, rw.getZeroAttr(elem)));
      Value zero = arith::ConstantOp::create(rw, loc, rw.getZeroAttr(elem));
      windows->copyRow(
          ni, even,
          [&](Value x, Value v) {
            Value pairs = vector::InterleaveOp::create(rw, loc, v, zeros);
            vector::StoreOp::create(rw, loc, pairs, col, pairAt(x));
          },
          [&](Value x, Value v) {
            Value at = kb.mulc(kb.addIdx(p0, x), 2);
            memref::StoreOp::create(rw, loc, v, col, ValueRange{row, at});
            memref::StoreOp::create(rw, loc, zero, col,
                                    ValueRange{row, kb.addc(at, 1)});
          });
      return;
    }
    for (int64_t e = 0; e < 2; ++e)
      windows->copyRow(
          ni, e ? windows->at(*oddTap, y) : even,
          [&](Value x, Value v) {
            if (e == 0)
              return;
            vector::StoreOp::create(
                rw, loc,
                vector::InterleaveOp::create(
                    rw, loc, windows->loadRun(ni, even, x), v),
                col, pairAt(x));
          },
          [&](Value x, Value v) {
            memref::StoreOp::create(
                rw, loc, v, col,
                ValueRange{row, kb.addc(kb.mulc(kb.addIdx(p0, x), 2), e)});
          });
  });
}

void ConvNchwEmitter::emitKBlock(Value col, Value ni, Value y0, int64_t rows,
                                 Value k0, int64_t steps, bool last,
                                 const KernelEpilogue *part) {
  fillCol(col, ni, y0, rows, k0, steps, last && kDepth != depth);
  int64_t k = dot ? 2 * steps : steps;
  Value kOffset = kb.mulc(k0, dot ? 2 : 1);
  Value aBlock = aMem;
  if (kBlocks > 1) {
    SmallVector<OpFoldResult> offsets{rw.getIndexAttr(0), kOffset},
        sizes{rw.getIndexAttr(f), rw.getIndexAttr(k)};
    if (aTransposed) {
      std::swap(offsets[0], offsets[1]);
      std::swap(sizes[0], sizes[1]);
    }
    aBlock = memref::SubViewOp::create(
        rw, loc, aMem, offsets, sizes,
        SmallVector<OpFoldResult>(2, rw.getIndexAttr(1)));
  }
  KernelBuilder::GemmCall call(aBlock, col, cMat, f, rows * ow, k, dot);
  call.aBatch.assign(aIx.begin(), aIx.end());
  call.aTransposed = aTransposed;
  call.bRowMajor = true;
  call.cBatch = {ni};
  call.cColOffset = kb.mulc(y0, ow);
  call.epilogue = part;
  kb.emitKernel(call);
}

void ConvNchwEmitter::emitBlock(Value ni, Value y0, int64_t rows) {
  Value col = sharedCol ? sharedCol : kb.alloc(colType);
  kb.zeroRowTails(col, rows * ow * (dot ? 2 : 1));
  // The fill (or the value C starts from) in the first k block, the
  // consumer in the last; C accumulates in between.
  int64_t lastBegin = (kBlocks - 1) * kcSteps;
  if (kBlocks == 1) {
    emitKBlock(col, ni, y0, rows, kb.idx(0), kSteps, true, &epilogue);
  } else {
    KernelEpilogue first = epilogue, last = epilogue;
    first.consumer = linalg::GenericOp();
    last.fill = linalg::FillOp();
    last.initValue = Value();
    emitKBlock(col, ni, y0, rows, kb.idx(0), kcSteps, false, &first);
    kb.loop(kcSteps, lastBegin, kcSteps, [&](Value k0) {
      emitKBlock(col, ni, y0, rows, k0, kcSteps, false, nullptr);
    });
    emitKBlock(col, ni, y0, rows, kb.idx(lastBegin), kSteps - lastBegin, true,
               &last);
  }
  if (!sharedCol)
    kb.dealloc(col);
}

void ConvNchwEmitter::emit() {
  // With a few blocks of rows or more, they are what threads= shares out
  // (each its own col: one per block, in the workspace with one thread);
  // the im2col copy and the panels of one block are then sequential. With
  // fewer, a block's copy and panels are the parallel loops (a block's
  // parallel regions alone are short). Images come first: with at least as
  // many images as threads, the image loop is what threads= shares out
  // (lowp-parallelize-loops takes the outermost marked loop with enough
  // iterations), each image with its own col, and the loops inside stay
  // sequential.
  int64_t fullRows = oh / rowsPerBlock * rowsPerBlock;
  bool blocksParallel = fullRows / rowsPerBlock >= 4;
  kb.loop(
      kb.idx(0), kb.dimSize(output, 0), 1,
      [&](Value ni) {
        sharedCol = blocksParallel ? Value() : kb.alloc(colType);
        kb.loop(
            fullRows, rowsPerBlock,
            [&](Value y0) { emitBlock(ni, y0, rowsPerBlock); },
            /*parallel=*/blocksParallel);
        if (fullRows < oh)
          emitBlock(ni, kb.idx(fullRows), oh - fullRows);
        if (sharedCol)
          kb.dealloc(sharedCol);
      },
      /*parallel=*/true);
  if (aCopy)
    kb.dealloc(aCopy);
  if (paddedFilter)
    kb.dealloc(paddedFilter);
}

using ConvNchwToKernel =
    KernelEmitterPattern<linalg::Conv2DNchwFchwOp, ConvNchwEmitter>;

} // namespace

void mlir::lowp::x86::populateConvNchwKernelPatterns(
    RewritePatternSet &patterns, const KernelConfig &cfg) {
  patterns.add<ConvNchwToKernel>(patterns.getContext(), cfg);
}
