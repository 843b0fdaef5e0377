//===- ConvNhwcKernel.cpp - NHWC convolutions as GEMMs on A in place ------===//
//
// linalg.conv_2d_nhwc_hwcf and conv_2d_nhwc_fhwc as GEMMs whose A is the
// input read in place by segments, or blocks of im2col in the kernel's
// layout (KernelBuilder::emitKernel). The target-independent im2col +
// linalg.matmul of lib/Conversion/LinalgCommon/Im2col.cpp remains the
// fallback.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelEmitter.h"
#include "lowp/Conversion/LinalgCommon/Im2col.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {

/// linalg.conv_2d_nhwc_hwcf as GEMMs on blocks of output pixels:
/// out (N*OH*OW x F) = col (N*OH*OW x KH*KW*C) * filter (KH*KW*C x F), the
/// filter (packed once, like any B) and the output viewed as matrices in
/// place. col is built for a block of P pixels at a time, sized to stay in
/// L2 while every panel of the filter passes by, directly in the layout the
/// kernel reads as A (rows of KH*KW*C: f32, or bf16 read in pairs by the
/// dot): no full-size im2col buffer written to and read back from memory.
/// Runs of C channels are contiguous in the input and in col, copied a
/// vector at a time, at any stride and dilation. Takes priority over the
/// target-independent im2col + linalg.matmul rewrite (left for operands
/// matchConv rejects, which then get the matmul's remark).
///
/// linalg.conv_2d_nhwc_fhwc (TOSA's and IREE's filter layout, F x KH x KW
/// x C) is the same GEMM with the filter viewed as F x KH*KW*C: a
/// transposed B, packed once through register transposes like an
/// nn.Linear weight.
///
/// The shared setup (the blocking, the filter packed as B, the output as C
/// and the fused epilogue) is in the constructor; emit() then reads A in
/// one of three ways: in place from the input (emitDirect), in place as
/// AMX tile rows (emitTileRows), or as blocks of im2col (emitIm2col).
template <typename OpTy>
class ConvNhwcEmitter : public ConvKernelEmitter {
public:
  static LogicalResult match(OpTy op, const KernelConfig &cfg,
                             std::string &why) {
    return matchConv(op, cfg, why);
  }

  /// The filter's dimensions are F, KH, KW, C (else KH, KW, C, F).
  static constexpr bool kFilterFirst =
      std::is_same_v<OpTy, linalg::Conv2DNhwcFhwcOp>;

  ConvNhwcEmitter(OpTy op, PatternRewriter &rw, const KernelConfig &cfg);

  /// The kernel, before the op; the caller erases it and finishes the
  /// epilogue.
  void emit();

private:
  /// body(first pixel): once for all pixels, or per image of a dynamic
  /// batch.
  void forEachImage(function_ref<void(Value)> body);
  /// Filter tap `tap` of KH x KW as its offsets along the input's rows and
  /// columns (dilated).
  std::pair<Value, Value> tapOffsets(Value tap);
  /// The pixel p's image, output row and column.
  std::tuple<Value, Value, Value> pixelAt(Value p);

  void emitDirect();
  void emitDirectBlock(Value p0, int64_t count);
  void emitTileRows();
  void storeValidTileRows(Value rows, Value ni, Value q0, int64_t count,
                          int64_t iw, Value tailMask);
  void emitIm2col();

  Type elem;
  int64_t oh, ow, f, kh, kw, c;
  /// Pixels are blocked across images, or per image when the batch is
  /// dynamic (`forEachImage`).
  bool dynamicBatch;
  int64_t pixels, depth;
  bool dot;
  Type colElem;
  int64_t blockPixels;
  /// C: the output as a pixels x F matrix; the filter packed as B.
  Value cMat, packed;
  /// The dot's operands in AMX tiles.
  bool tiles;
  /// The f32 copy of a narrow input the f32 kernel reads in place.
  Value widenedInput;
};

template <typename OpTy>
ConvNhwcEmitter<OpTy>::ConvNhwcEmitter(OpTy op, PatternRewriter &rw,
                                       const KernelConfig &cfg)
    : ConvKernelEmitter(op, rw, cfg) {
  MemRefType fil = filterType(), out = outputType();
  elem = fil.getElementType();
  unsigned first = kFilterFirst ? 1 : 0;
  oh = out.getDimSize(1);
  ow = out.getDimSize(2);
  f = out.getDimSize(3);
  kh = fil.getDimSize(first);
  kw = fil.getDimSize(first + 1);
  c = fil.getDimSize(first + 2);
  dynamicBatch = out.isDynamicDim(0);
  pixels = (dynamicBatch ? 1 : out.getDimSize(0)) * oh * ow;
  depth = kh * kw * c;
  // The bf16 dot reads K in pairs; an odd KH*KW*C (a first layer on 3
  // colour channels) takes the f32 FMA kernel on col and filter widened
  // while they are copied: exact, and col is copied anyway.
  dot = cfg.dotFor(elem, depth);
  // Pixels per block: col within half the L2 (next to the packed filter;
  // a quarter measured no faster here), a multiple of the kernel's row
  // block (no tail rows but in the last block).
  int64_t nhwcBudget = cfg.l2Bytes ? cfg.l2Bytes / 2 : 512 * 1024;
  colElem = dot ? elem : f32;
  int64_t rowBytes = depth * colElem.getIntOrFloatBitWidth() / 8;
  int64_t quantum = kb.rowBlockQuantum(dot);
  blockPixels = std::max<int64_t>(
      quantum,
      nhwcBudget / std::max<int64_t>(1, rowBytes) / quantum * quantum);
  blockPixels = std::min(blockPixels, pixels);
  MatrixOperand b;
  b.mem = memref::CollapseShapeOp::create(
      rw, loc, filter,
      kFilterFirst ? ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}}
                   : ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  b.transposed = kFilterFirst;
  cMat = memref::CollapseShapeOp::create(
      rw, loc, output, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  // The fill and the elementwise consumer (batch norm, ReLU, residual)
  // run on the accumulators, per-channel operands along the columns.
  epilogue = matchEpilogueOrRemark(op, cMat, {input, filter});
  prepareEpilogue(epilogue, op, rw);
  packed = kb.packB(b, {}, f, depth, elem, dot);
  // The vector kernel reads A in place from the input, a filter tap's C
  // channels at a time (no im2col copy): every row of A is an output
  // pixel with its own address, so blocks of rows may cross output rows.
  // AMX tiles need evenly spaced rows (in place at stride 1, else an
  // im2col copy), and the f32 kernel reads f32 (a narrow input is widened
  // first, below, or by the im2col copy of a dynamic batch).
  tiles = dot && cfg.amxTile.valid();
  // Without the dot, a narrow input is widened once into an f32 copy of
  // the image (one pass over it: a ninth of a 3x3 im2col's copies), which
  // the f32 kernel then reads in place.
  auto inType = cast<MemRefType>(input.getType());
  if (!dot && !inType.getElementType().isF32() && !dynamicBatch &&
      inType.getLayout().isIdentity()) {
    int64_t images = inType.getDimSize(0);
    int64_t perImage = inType.getNumElements() / std::max<int64_t>(images, 1);
    Value flat = memref::CollapseShapeOp::create(
        rw, loc, input, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    widenedInput = kb.widenCopy(flat, {}, images, perImage);
    input = memref::ExpandShapeOp::create(
        rw, loc, MemRefType::get(inType.getShape(), f32), widenedInput,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  }
}

template <typename OpTy>
void ConvNhwcEmitter<OpTy>::emit() {
  bool direct =
      !tiles &&
      (dot ? c % 2 == 0 : getElementTypeOrSelf(input.getType()) == f32);
  if (direct) {
    emitDirect();
    kb.dealloc(packed);
    if (widenedInput)
      kb.dealloc(widenedInput);
    return;
  }
  // AMX tile rows need the fill (C is not read) and a tap's channels in
  // whole tiles.
  bool tileRows = tiles && strides[0] == 1 && strides[1] == 1 &&
                  c % cfg.amxTile.k == 0 && epilogue.fill;
  if (tileRows) {
    emitTileRows();
    kb.dealloc(packed);
    return;
  }
  emitIm2col();
  kb.dealloc(packed);
}

template <typename OpTy>
void ConvNhwcEmitter<OpTy>::forEachImage(function_ref<void(Value)> body) {
  if (!dynamicBatch) {
    body(kb.idx(0));
    return;
  }
  kb.loop(kb.idx(0), kb.dimSize(output, 0), 1,
          [&](Value ni) { body(kb.mulc(ni, oh * ow)); });
}

template <typename OpTy>
std::pair<Value, Value> ConvNhwcEmitter<OpTy>::tapOffsets(Value tap) {
  Value i = arith::DivUIOp::create(rw, loc, tap, kb.idx(kw));
  Value j = arith::RemUIOp::create(rw, loc, tap, kb.idx(kw));
  return {kb.mulc(i, dilations[0]), kb.mulc(j, dilations[1])};
}

template <typename OpTy>
std::tuple<Value, Value, Value> ConvNhwcEmitter<OpTy>::pixelAt(Value p) {
  Value ni = arith::DivUIOp::create(rw, loc, p, kb.idx(oh * ow));
  Value yx = arith::RemUIOp::create(rw, loc, p, kb.idx(oh * ow));
  Value y = arith::DivUIOp::create(rw, loc, yx, kb.idx(ow));
  Value x = arith::RemUIOp::create(rw, loc, yx, kb.idx(ow));
  return {ni, y, x};
}

/// Pixels [p0, p0 + count) as one GEMM reading A in place, a filter tap's
/// channels at a time.
template <typename OpTy>
void ConvNhwcEmitter<OpTy>::emitDirectBlock(Value p0, int64_t count) {
  KernelBuilder::SegmentedA segA;
  segA.source = input;
  segA.segmentSteps = dot ? c / 2 : c;
  segA.rowState = [&, p0](Value r) -> SmallVector<Value> {
    auto [ni, y, x] = pixelAt(kb.addIdx(p0, r));
    return {ni, kb.mulc(y, strides[0]), kb.mulc(x, strides[1])};
  };
  segA.start = [&](ArrayRef<Value> st, Value tap) -> SmallVector<Value> {
    auto [di, dj] = tapOffsets(tap);
    return {st[0], kb.addIdx(st[1], di), kb.addIdx(st[2], dj), kb.idx(0)};
  };
  KernelBuilder::GemmCall call(input, packed, cMat, count, f, depth, dot);
  call.segmentedA = &segA;
  call.cRowOffset = p0;
  call.epilogue = &epilogue;
  kb.emitKernel(call);
}

/// Blocks of about 128 pixels (parallel with threads=, enough of them to
/// share out evenly), each a GEMM of its own rows: nothing to keep in L2
/// but the filter.
template <typename OpTy>
void ConvNhwcEmitter<OpTy>::emitDirect() {
  int64_t quantum = kb.rowBlockQuantum(dot);
  int64_t chunk = std::min(pixels, ceilDiv(128, quantum) * quantum);
  int64_t fullChunks = pixels / chunk * chunk;
  forEachImage([&](Value base) {
    kb.loop(fullChunks, chunk,
            [&](Value p0) { emitDirectBlock(kb.addIdx(base, p0), chunk); },
            /*parallel=*/true);
    if (fullChunks < pixels)
      emitDirectBlock(kb.addc(base, fullChunks), pixels - fullChunks);
  });
}

/// AMX tiles read A in place too at stride 1, with the image taken as one
/// long row of pixels: output pixel (y, x) reads, for tap (i, j), input
/// pixel (y + i d0, x + j d1), row q + (i d0 IW + j d1) of the image
/// flattened to (IH*IW) x C, q = y IW + x. The GEMM runs on every q in
/// [0, (OH-1) IW + OW) - the IW - OW columns past each output row are
/// computed and dropped (2 of 58 for a padded 3x3 on 56 columns) - so 16
/// consecutive rows are 16 evenly spaced runs: one tile load per tap and
/// 32 channels. The GEMM writes blocks of q rows into an f32 buffer from
/// the fill value; the fused consumer (or a plain store) then takes the
/// valid rows into the output.
template <typename OpTy>
void ConvNhwcEmitter<OpTy>::emitTileRows() {
  auto in = cast<MemRefType>(input.getType());
  int64_t iw = in.getDimSize(2);
  int64_t imageRows = (oh - 1) * iw + ow;
  Value flat = memref::CollapseShapeOp::create(
      rw, loc, input, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}});
  // Blocks of 512 q rows (128 KiB of f32 rows for 64 filters).
  int64_t rangeRows = std::min(imageRows, 16 * kb.rowBlockQuantum(/*dot=*/true));
  KernelEpilogue fillOnly;
  fillOnly.fill = epilogue.fill;
  int64_t lanes = cfg.lanes;
  Value tailMask;
  if (f % lanes)
    tailMask = vector::ConstantMaskOp::create(
        rw, loc, VectorType::get({lanes}, rw.getI1Type()),
        ArrayRef<int64_t>{f % lanes});
  auto emitRange = [&](Value ni, Value q0, int64_t count) {
    Value rows = kb.alloc(MemRefType::get({count, f}, f32));
    KernelBuilder::SegmentedA segA;
    segA.source = flat;
    segA.segmentSteps = c / 2;
    segA.rowsEvenlySpaced = true;
    segA.rowState = [&, ni, q0](Value r) -> SmallVector<Value> {
      return {ni, kb.addIdx(q0, r)};
    };
    segA.start = [&](ArrayRef<Value> st, Value tap) -> SmallVector<Value> {
      auto [di, dj] = tapOffsets(tap);
      Value offset = kb.addIdx(kb.mulc(di, iw), dj);
      return {st[0], kb.addIdx(st[1], offset), kb.idx(0)};
    };
    KernelBuilder::GemmCall call(flat, packed, rows, count, f, depth, dot);
    call.segmentedA = &segA;
    call.epilogue = &fillOnly;
    kb.emitKernel(call);
    storeValidTileRows(rows, ni, q0, count, iw, tailMask);
    kb.dealloc(rows);
  };
  kb.loop(kb.idx(0), kb.dimSize(output, 0), 1, [&](Value ni) {
    int64_t fullRanges = imageRows / rangeRows * rangeRows;
    kb.loop(fullRanges, rangeRows,
            [&](Value q0) { emitRange(ni, q0, rangeRows); },
            /*parallel=*/true);
    if (fullRanges < imageRows)
      emitRange(ni, kb.idx(fullRanges), imageRows - fullRanges);
  });
}

/// The valid rows of `rows` (q rows [q0, q0 + count) of image ni) into the
/// output, through the consumer. What does not depend on the pixel is
/// computed once per block.
template <typename OpTy>
void ConvNhwcEmitter<OpTy>::storeValidTileRows(Value rows, Value ni, Value q0,
                                               int64_t count, int64_t iw,
                                               Value tailMask) {
  int64_t lanes = cfg.lanes;
  auto rowVec = VectorType::get({lanes}, f32);
  int64_t vectors = ceilDiv(f, lanes);
  bool perRow = epilogue.consumer &&
                KernelBuilder::epilogueHasRowOperands(epilogue, 0);
  SmallVector<IRMapping> perColumns;
  if (epilogue.consumer && !perRow)
    for (int64_t v = 0; v < vectors; ++v)
      perColumns.push_back(kb.hoistEpilogue(
          epilogue, {kb.idx(0), kb.idx(v * lanes)},
          KernelBuilder::EpilogueHoist::SameForEveryRow,
          v + 1 == vectors ? tailMask : Value()));
  kb.loop(count, 1, [&](Value r) {
    Value q = kb.addIdx(q0, r);
    Value y = arith::DivUIOp::create(rw, loc, q, kb.idx(iw));
    Value x = arith::RemUIOp::create(rw, loc, q, kb.idx(iw));
    Value valid = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult, x,
                                        kb.idx(ow));
    scf::IfOp::create(rw, loc, valid, [&](OpBuilder &nb, Location) {
      OpBuilder::InsertionGuard g(rw);
      rw.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      Value p =
          kb.addIdx(kb.mulc(ni, oh * ow), kb.addIdx(kb.mulc(y, ow), x));
      IRMapping sameInRow;
      if (perRow)
        sameInRow = kb.hoistEpilogue(
            epilogue, {p, kb.idx(0)},
            KernelBuilder::EpilogueHoist::SameForEveryColumn, Value());
      Value zero = arith::ConstantOp::create(
          rw, loc, rowVec, DenseElementsAttr::get(rowVec, rw.getZeroAttr(f32)));
      for (int64_t v = 0; v < vectors; ++v) {
        Value mask = v + 1 == vectors ? tailMask : Value();
        Value col = kb.idx(v * lanes);
        Value acc = mask ? vector::MaskedLoadOp::create(
                               rw, loc, rowVec, rows, ValueRange{r, col}, mask,
                               zero)
                               .getResult()
                         : vector::LoadOp::create(rw, loc, rowVec, rows,
                                                  ValueRange{r, col})
                               .getResult();
        if (!epilogue.consumer) {
          if (mask)
            vector::MaskedStoreOp::create(rw, loc, cMat, ValueRange{p, col},
                                          mask, acc);
          else
            vector::StoreOp::create(rw, loc, acc, cMat, ValueRange{p, col});
          continue;
        }
        kb.storeThroughEpilogue(epilogue, acc, {p, col}, mask,
                                perRow ? &sameInRow : &perColumns[v]);
      }
      scf::YieldOp::create(rw, loc);
    });
  });
}

/// col rows for a block of pixels at a time, then the GEMM into C's rows.
template <typename OpTy>
void ConvNhwcEmitter<OpTy>::emitIm2col() {
  Value col = kb.alloc(MemRefType::get({blockPixels, depth}, colElem));
  auto colVec = VectorType::get({cfg.lanes}, colElem);
  // Channels copied a full vector register at a time: 16-bit ones copied
  // as they are (not widened) fill it at twice the f32 lanes.
  unsigned copyLanes = cfg.lanes;
  if (colElem == elem && elem.getIntOrFloatBitWidth() == 16 &&
      c >= int64_t(2 * cfg.lanes))
    copyLanes = 2 * cfg.lanes;
  auto widen = [&](Value v) -> Value {
    if (colElem == elem)
      return v;
    return arith::ExtFOp::create(
        rw, loc, isa<VectorType>(v.getType()) ? Type(colVec) : f32, v);
  };
  auto emitBlock = [&](Value p0, int64_t count) {
    // Each pixel fills its own col row (parallel with threads=).
    kb.loop(count, 1, [&](Value r) {
      auto [ni, y, x] = pixelAt(kb.addIdx(p0, r));
      emitNhwcIm2colRow(kb, input, col, ni, y, x, r, strides, dilations, kh,
                        kw, c, copyLanes, widen);
    }, /*parallel=*/true);
    KernelBuilder::GemmCall call(col, packed, cMat, count, f, depth, dot);
    call.cRowOffset = p0;
    call.epilogue = &epilogue;
    kb.emitKernel(call);
  };
  int64_t fullPixels = pixels / blockPixels * blockPixels;
  forEachImage([&](Value base) {
    kb.loop(fullPixels, blockPixels,
            [&](Value p0) { emitBlock(kb.addIdx(base, p0), blockPixels); });
    if (fullPixels < pixels)
      emitBlock(kb.addc(base, fullPixels), pixels - fullPixels);
  });
  kb.dealloc(col);
}

template <typename OpTy>
using ConvNhwcToKernel = KernelEmitterPattern<OpTy, ConvNhwcEmitter<OpTy>>;

} // namespace

void mlir::lowp::x86::populateConvNhwcKernelPatterns(
    RewritePatternSet &patterns, const KernelConfig &cfg) {
  // Before the target-independent im2col + linalg.matmul rewrite.
  patterns.add<ConvNhwcToKernel<linalg::Conv2DNhwcHwcfOp>,
               ConvNhwcToKernel<linalg::Conv2DNhwcFhwcOp>>(
      patterns.getContext(), cfg, /*benefit=*/2);
}
