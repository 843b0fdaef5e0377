//===- WinogradConv.cpp - 3x3 convolutions as Winograd F(2x2, 3x3) -------===//
//
// 3x3 stride-1 convolutions (f32, or bf16 where the direct GEMM would run
// on f32 FMAs too) as Winograd's minimal filtering F(2x2, 3x3) (Lavin and
// Gray, "Fast Algorithms for Convolutional Neural Networks", 2016): each
// 2x2 output tile from a 4x4 input tile, 16 multiplies per channel pair
// instead of 36. They are 16 GEMMs, one per point xi of the 4x4 transform
// domain, with U = G g G^T the transformed filter (once per call),
// V = B^T d B the transformed input tiles and the output tiles
// Y = A^T M A. V and M exist for one block of tile rows at a time, sized
// to stay in L2, in the layouts the GEMM kernel reads (no packing pass);
// the output transform stores through the output's fill and elementwise
// consumer (batch norm, ReLU, residual) like the direct kernels.
//
//  * NCHW (conv_2d_nchw_fchw): M[xi] (F x tiles) = U[xi] (F x C) *
//    V[xi] (C x tiles), V's rows padded to nr tiles. The transforms run
//    along a row of tiles: a tile's columns are every other input column
//    (even/odd shuffles of two loads), and the two output columns of each
//    tile are interleaved back before the store.
//  * NHWC (conv_2d_nhwc_hwcf, _fhwc): M[xi] (tiles x F) = V[xi] (tiles x
//    C) * U[xi] (C x F), everything along channels (contiguous): no
//    shuffles.
//
// Against im2col + GEMM, V holds 16 values per 2x2 tile and channel (4 per
// output pixel, col 9) and the GEMMs do 16 / 36 of the multiplies. In f32
// the transforms add a few roundings per output (their coefficients are
// 0, +-1 and 1/2): checked against an f64 reference in
// test/Integration/X86/conv-winograd*.mlir with the direct kernels'
// tolerance.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

namespace {
/// F(2x2, 3x3): 4x4 input tiles (alpha), 2x2 output tiles, 3x3 filters.
constexpr int64_t kAlpha = 4, kOutTile = 2, kTaps = 3;
constexpr int64_t kPoints = kAlpha * kAlpha;
/// The transforms (Lavin and Gray, section 4.1): V = B^T d B,
/// U = G g G^T, Y = A^T M A.
constexpr double kBT[kAlpha][kAlpha] = {
    {1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
constexpr double kG[kAlpha][kTaps] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
constexpr double kAT[kOutTile][kAlpha] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

/// Below these, the GEMMs are too small for the transforms to pay off.
constexpr int64_t kMinChannels = 16, kMinFilters = 16;
/// Tiles per image below which the transformed filter (16 / 9 of the
/// filter, read whole by the GEMMs of every image: blocks of tiles never
/// span images) costs more than the multiplies saved: 512 channels, f32,
/// one thread, Sapphire Rapids target, against the im2col kernel: 7x7
/// outputs (16 tiles) 3.76 ms against 2.08, 10x10 (25 tiles) 3.92 against
/// 5.22, 12x12 (36) 5.23 against 6.25. A batch does not change it: 7x7 at
/// batch 32 (Zen 4) took 3.7 ms per image on Winograd against 2.2 direct.
constexpr int64_t kMinTiles = 25;
/// Tiles per block below which every block's GEMMs reading the whole
/// transformed filter cost more than the multiplies saved: 512 channels at
/// 14x14 (blocks of one row of 7 tiles: V and M for more rows exceed half the
/// L2) took 10.4 ms per image against 5.2 on the im2col kernel, at 10x10 (5
/// tiles) 8.0 against 2.7; 256 channels at 14x14 (blocks of 14 tiles) 1.17
/// against 1.46 at batch 8 (Zen 4, f32, one thread).
constexpr int64_t kMinTilesPerBlock = 12;

/// Tile rows per block: about nr tiles, V and M (`bytesPerTileRow` a row)
/// within half the L2, at least one row, at most the whole rows.
int64_t tileRowsPerBlock(const KernelConfig &cfg, int64_t wholeRows,
                         int64_t tileCols, int64_t bytesPerTileRow) {
  int64_t budget = cfg.l2Bytes ? cfg.l2Bytes / 2 : 512 * 1024;
  return std::clamp<int64_t>(
      std::min<int64_t>(cfg.nr / tileCols, budget / bytesPerTileRow), 1,
      std::max<int64_t>(wholeRows, 1));
}
} // namespace

namespace {
/// What the Winograd kernels need of a convolution, whatever its layout.
struct ConvDims {
  int64_t channels, filters, kh, kw, oh, ow;
};
ConvDims convDims(linalg::LinalgOp op) {
  auto fil = cast<MemRefType>(op.getDpsInputs()[1].getType()),
       out = cast<MemRefType>(op.getDpsInits()[0].getType());
  if (isa<linalg::Conv2DNchwFchwOp>(op))
    return {fil.getDimSize(1), fil.getDimSize(0), fil.getDimSize(2),
            fil.getDimSize(3), out.getDimSize(2), out.getDimSize(3)};
  if (isa<linalg::Conv2DNhwcFhwcOp>(op))
    return {fil.getDimSize(3), fil.getDimSize(0), fil.getDimSize(1),
            fil.getDimSize(2), out.getDimSize(1), out.getDimSize(2)};
  // linalg.conv_2d_nhwc_hwcf
  return {fil.getDimSize(2), fil.getDimSize(3), fil.getDimSize(0),
          fil.getDimSize(1), out.getDimSize(1), out.getDimSize(2)};
}
} // namespace

LogicalResult mlir::lowp::x86::matchWinograd(linalg::LinalgOp op,
                                             const KernelConfig &cfg,
                                             std::string &why) {
  if (!cfg.winograd) {
    why = "winograd=false";
    return failure();
  }
  if (failed(matchConv(op, cfg, why)))
    return failure();
  ConvDims dims = convDims(op);
  // bf16 operands are widened as they are read and transformed in f32
  // (the products of the direct kernel are exact in f32; the transforms'
  // sums round like f32 Winograd's), where the direct GEMM would run on
  // the f32 FMA kernel too; where it runs on vdpbf16ps or AMX tiles (twice
  // the f32 rate and more), the direct kernel stays.
  Type elem = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  int64_t depth = dims.channels * dims.kh * dims.kw;
  if (!(elem.isF32() || (elem.isBF16() && !cfg.dotFor(elem, depth)))) {
    why = elem.isBF16() ? "bf16 runs on the bf16 dot kernel here"
                        : "Winograd F(2x2, 3x3) takes f32 or bf16 inputs";
    return failure();
  }
  auto allOnes = [&](StringRef name) {
    auto attr = op->getAttrOfType<DenseIntElementsAttr>(name);
    return attr && llvm::all_of(attr.getValues<int64_t>(),
                                [](int64_t v) { return v == 1; });
  };
  if (dims.kh != kTaps || dims.kw != kTaps || !allOnes("strides") ||
      !allOnes("dilations")) {
    why = "Winograd F(2x2, 3x3) takes 3x3 filters at stride 1, dilation 1";
    return failure();
  }
  if (dims.channels < kMinChannels || dims.filters < kMinFilters) {
    why = "fewer than 16 channels or filters: the im2col GEMM is faster";
    return failure();
  }
  int64_t tiles = ((dims.oh + 1) / kOutTile) * ((dims.ow + 1) / kOutTile);
  if (tiles < kMinTiles) {
    why = "fewer than 25 output tiles per image: the transformed filter, "
          "read by every image's GEMMs, costs more than it saves";
    return failure();
  }
  int64_t tileCols = (dims.ow + 1) / kOutTile;
  int64_t wholeRows = dims.oh / kOutTile;
  int64_t blockTiles =
      tileRowsPerBlock(cfg, wholeRows, tileCols,
                       kPoints * (dims.channels + dims.filters) * tileCols *
                           4) *
      tileCols;
  if (blockTiles < kMinTilesPerBlock) {
    why = "fewer than 12 tiles per block (channels and filters too many for "
          "more in L2): every block's GEMMs read the whole transformed filter";
    return failure();
  }
  return success();
}

namespace {
/// sum_i coeffs[i] * xs[i] for small constant coefficients: +-1 as additions
/// and subtractions, 0 skipped, others multiplied (scalars or vectors).
Value combine(OpBuilder &b, Location loc, ArrayRef<double> coeffs,
              ArrayRef<Value> xs) {
  Value sum;
  for (auto [coeff, x] : llvm::zip_equal(coeffs, xs)) {
    if (coeff == 0)
      continue;
    Value term = x;
    bool negate = coeff < 0;
    if (std::abs(coeff) != 1) {
      Type t = x.getType();
      Attribute attr = b.getFloatAttr(getElementTypeOrSelf(t), std::abs(coeff));
      if (auto vt = dyn_cast<VectorType>(t))
        attr = DenseElementsAttr::get(vt, attr);
      Value c = arith::ConstantOp::create(b, loc, cast<TypedAttr>(attr));
      term = arith::MulFOp::create(b, loc, x, c);
    }
    if (!sum)
      sum = negate ? arith::NegFOp::create(b, loc, term).getResult() : term;
    else if (negate)
      sum = arith::SubFOp::create(b, loc, sum, term);
    else
      sum = arith::AddFOp::create(b, loc, sum, term);
  }
  return sum;
}

template <size_t Rows, size_t Cols>
ArrayRef<double> row(const double (&m)[Rows][Cols], int64_t r) {
  return ArrayRef<double>(m[r], Cols);
}

/// What both kernels share: f32 vectors of `lanes`, the operands (f32 or
/// bf16) widened as they are read, and the three tile transforms on arrays
/// of vectors (or scalars).
struct WinogradVectors {
  WinogradVectors(OpBuilder &b, Location loc, int64_t lanes, Type inElem)
      : b(b), loc(loc), lanes(lanes), f32(b.getF32Type()),
        vec(VectorType::get({lanes}, f32)),
        inVec(VectorType::get({lanes}, inElem)) {
    zeroVec = arith::ConstantOp::create(
        b, loc, vec, DenseElementsAttr::get(vec, b.getZeroAttr(f32)));
    inZero = arith::ConstantOp::create(
        b, loc, inVec, DenseElementsAttr::get(inVec, b.getZeroAttr(inElem)));
  }

  Value widen(Value v) const {
    if (getElementTypeOrSelf(v.getType()) == f32)
      return v;
    Type t = isa<VectorType>(v.getType()) ? Type(vec) : f32;
    return arith::ExtFOp::create(b, loc, t, v);
  }
  /// The mask of the first `valid` lanes; null for all of them.
  Value maskFor(int64_t valid) const {
    if (valid >= lanes)
      return Value();
    return vector::ConstantMaskOp::create(
        b, loc, VectorType::get({lanes}, b.getI1Type()),
        ArrayRef<int64_t>{valid});
  }
  /// `lanes` elements of `mem` from `ix`, the first `valid` of them read
  /// (none: zeros), widened to f32.
  Value load(Value mem, ArrayRef<Value> ix, int64_t valid) const {
    if (valid <= 0)
      return zeroVec;
    bool narrow = getElementTypeOrSelf(mem.getType()) != f32;
    VectorType t = narrow ? inVec : vec;
    Value zero = narrow ? inZero : zeroVec;
    if (Value mask = maskFor(valid))
      return widen(
          vector::MaskedLoadOp::create(b, loc, t, mem, ix, mask, zero));
    return widen(vector::LoadOp::create(b, loc, t, mem, ix));
  }
  void store(Value v, Value mem, ArrayRef<Value> ix, int64_t valid) const {
    if (Value mask = maskFor(valid))
      vector::MaskedStoreOp::create(b, loc, mem, ix, mask, v);
    else
      vector::StoreOp::create(b, loc, v, mem, ix);
  }

  /// V = B^T d B, point xi = 4 a + b of the transform domain at v[xi].
  void inputTile(Value (&d)[kAlpha][kAlpha], Value (&v)[kPoints]) const {
    for (int64_t a = 0; a < kAlpha; ++a) {
      Value t[kAlpha];
      for (int64_t j = 0; j < kAlpha; ++j)
        t[j] =
            combine(b, loc, row(kBT, a), {d[0][j], d[1][j], d[2][j], d[3][j]});
      for (int64_t bb = 0; bb < kAlpha; ++bb)
        v[a * kAlpha + bb] = combine(b, loc, row(kBT, bb), t);
    }
  }
  /// U = G g G^T.
  void filterTile(Value (&g)[kTaps][kTaps], Value (&u)[kPoints]) const {
    for (int64_t a = 0; a < kAlpha; ++a) {
      Value t[kTaps];
      for (int64_t s = 0; s < kTaps; ++s)
        t[s] = combine(b, loc, row(kG, a), {g[0][s], g[1][s], g[2][s]});
      for (int64_t bb = 0; bb < kAlpha; ++bb)
        u[a * kAlpha + bb] = combine(b, loc, row(kG, bb), t);
    }
  }
  /// U = G g G^T into u[xi][i][j] (vectors or scalars, as g holds).
  void storeFilterTile(Value (&g)[kTaps][kTaps], Value u, Value i,
                       Value j) const {
    Value uv[kPoints];
    filterTile(g, uv);
    for (int64_t xi = 0; xi < kPoints; ++xi) {
      SmallVector<Value> ix{arith::ConstantIndexOp::create(b, loc, xi), i, j};
      if (isa<VectorType>(uv[xi].getType()))
        vector::StoreOp::create(b, loc, uv[xi], u, ix);
      else
        memref::StoreOp::create(b, loc, uv[xi], u, ix);
    }
  }
  /// Y = A^T M A.
  void outputTile(Value (&m)[kAlpha][kAlpha],
                  Value (&y)[kOutTile][kOutTile]) const {
    for (int64_t r = 0; r < kOutTile; ++r) {
      Value t[kAlpha];
      for (int64_t bb = 0; bb < kAlpha; ++bb)
        t[bb] = combine(b, loc, row(kAT, r),
                        {m[0][bb], m[1][bb], m[2][bb], m[3][bb]});
      for (int64_t s = 0; s < kOutTile; ++s)
        y[r][s] = combine(b, loc, row(kAT, s), t);
    }
  }

  OpBuilder &b;
  Location loc;
  int64_t lanes;
  Type f32;
  VectorType vec, inVec;
  Value zeroVec, inZero;
};

/// Blocks of tile rows, each with its transformed tiles V and the GEMMs'
/// results M (both kernels). Blocks hold about nr tiles, V and M within
/// half the L2: small blocks measured best (the ResNet block, f32, one
/// thread, Sapphire Rapids target: 64 channels at 56x56, one row of 28
/// tiles per block, 0.92-0.95 ms per NCHW convolution against 1.0-1.1 ms
/// for 2-7 rows, 1.67 ms per NHWC block against 1.73-1.80 ms; 256 channels
/// at 14x14: 4 rows of 7 tiles, 1.38 ms against 2.89 ms for one row).
struct TileRowBlocks {
  /// With `raggedBottom` (an odd output height), the last tile row has one
  /// output row: it is a block of its own, after the others.
  TileRowBlocks(const KernelConfig &cfg, int64_t tileRows, int64_t tileCols,
                int64_t bytesPerTileRow, bool raggedBottom)
      : tileRows(tileRows), raggedBottom(raggedBottom) {
    int64_t wholeRows = tileRows - (raggedBottom ? 1 : 0);
    rowsPerBlock =
        tileRowsPerBlock(cfg, wholeRows, tileCols, bytesPerTileRow);
    fullRows = wholeRows / rowsPerBlock * rowsPerBlock;
    // With a few blocks or more, they are what threads= shares out (each
    // its own V and M); with fewer, a block's transforms and GEMM panels.
    parallel = fullRows / rowsPerBlock >= 4;
  }

  /// body(image, first tile row, rows, V, M, ragged) for every block of
  /// every image of `output`, V and M of these types; `ragged`: the block
  /// is the last tile row, of one output row.
  void
  forEach(KernelBuilder &kb, Value output, MemRefType vType, MemRefType mType,
          function_ref<void(Value, Value, int64_t, Value, Value, bool)> body)
      const {
    // Images come first: with at least as many images as threads, the
    // image loop is what threads= shares out, each image with its own V and
    // M (lowp-parallelize-loops takes the outermost marked loop with enough
    // iterations; the loops inside then stay sequential).
    Value sharedV, sharedM;
    auto block = [&](Value ni, Value ty0, int64_t rows, bool ragged) {
      Value v = sharedV ? sharedV : kb.alloc(vType);
      Value m = sharedM ? sharedM : kb.alloc(mType);
      body(ni, ty0, rows, v, m, ragged);
      if (!sharedV) {
        kb.dealloc(v);
        kb.dealloc(m);
      }
    };
    int64_t wholeRows = tileRows - (raggedBottom ? 1 : 0);
    kb.loop(
        kb.idx(0), kb.dimSize(output, 0), 1,
        [&](Value ni) {
          sharedV = parallel ? Value() : kb.alloc(vType);
          sharedM = parallel ? Value() : kb.alloc(mType);
          kb.loop(
              fullRows, rowsPerBlock,
              [&](Value ty0) { block(ni, ty0, rowsPerBlock, false); },
              /*parallel=*/parallel);
          if (fullRows < wholeRows)
            block(ni, kb.idx(fullRows), wholeRows - fullRows, false);
          if (raggedBottom)
            block(ni, kb.idx(wholeRows), 1, true);
          if (sharedV) {
            kb.dealloc(sharedV);
            kb.dealloc(sharedM);
          }
        },
        /*parallel=*/true);
  }

  int64_t tileRows, rowsPerBlock, fullRows;
  bool raggedBottom, parallel;
};

/// Matrix xi of `buf` ([points][rows][cols]) as a 2-D view.
Value pointMatrix(OpBuilder &b, Location loc, Value buf, Value xi) {
  auto type = cast<MemRefType>(buf.getType());
  int64_t rows = type.getDimSize(1), cols = type.getDimSize(2);
  auto view = MemRefType::get(
      {rows, cols}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {cols, 1}));
  return memref::SubViewOp::create(
      b, loc, view, buf,
      ArrayRef<OpFoldResult>{xi, b.getIndexAttr(0), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(rows),
                             b.getIndexAttr(cols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                             b.getIndexAttr(1)});
}

/// The GEMMs write M from zero (M is scratch: no fill op).
KernelEpilogue startAtZero(OpBuilder &b, Location loc) {
  KernelEpilogue e;
  e.initValue =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(b.getF32Type()));
  return e;
}

/// What the NCHW and NHWC Winograd kernels share: the match, f32 vectors
/// of `lanes` (WinogradVectors), the fused epilogue with the fill's value,
/// the transformed filter U, the 16 point GEMMs and the store of an output
/// vector. Each kernel sets U up in its constructor; emit() then runs the
/// blocks of tile rows.
class WinogradEmitter : public ConvKernelEmitter {
public:
  static LogicalResult match(linalg::LinalgOp op, const KernelConfig &cfg,
                             std::string &why) {
    return matchWinograd(op, cfg, why);
  }
  virtual ~WinogradEmitter() = default;

protected:
  template <typename OpTy>
  WinogradEmitter(OpTy op, PatternRewriter &rw, const KernelConfig &cfg)
      : ConvKernelEmitter(op, rw, cfg), dims(convDims(op)), lanes(cfg.lanes),
        wv(rw, loc, lanes, filterType().getElementType()) {
    // An odd output height or width: the last tile row or column has one
    // output row or column (its input row or column 3 is past the input:
    // zeros, which only the dropped outputs read).
    tileRows = (dims.oh + 1) / kOutTile;
    tileCols = (dims.ow + 1) / kOutTile;
  }

  /// The fused epilogue (a remark when the consumer is not fused) on C, and
  /// the fill's value.
  void setUpEpilogue(Operation *op, Value c) {
    epilogue = matchEpilogueOrRemark(op, c, {input, filter});
    prepareEpilogue(epilogue, op, rw);
    fillValue = epilogue.fill ? epilogue.fill->getOperand(0) : Value();
  }

  /// The blocks of tile rows of every image (emitBlock each, V and M of
  /// these types), then U freed.
  void emitBlocks(const TileRowBlocks &blocks, MemRefType vType,
                  MemRefType mType) {
    blocksParallel = blocks.parallel;
    fromZero = startAtZero(rw, loc);
    blocks.forEach(kb, output, vType, mType,
                   [&](Value ni, Value ty0, int64_t rows, Value v, Value m,
                       bool raggedRow) {
                     emitBlock(ni, ty0, rows, v, m, raggedRow);
                   });
    kb.dealloc(u);
  }
  /// Tile rows [ty0, ty0 + rows) of image ni with V and M (`raggedRow`: the
  /// last tile row, of one output row): V from the input tiles, M = U V
  /// per point, the output tiles from M.
  void emitBlock(Value ni, Value ty0, int64_t rows, Value v, Value m,
                 bool raggedRow) {
    transformInput(ni, ty0, rows, v, raggedRow);
    multiplyPoints(v, m, rows * tileCols);
    transformOutput(ni, ty0, rows, m, raggedRow);
  }
  virtual void transformInput(Value ni, Value ty0, int64_t rows, Value v,
                              bool raggedRow) = 0;
  virtual void multiplyPoints(Value v, Value m, int64_t tiles) = 0;
  virtual void transformOutput(Value ni, Value ty0, int64_t rows, Value m,
                               bool raggedRow) = 0;

  /// M[xi] = A[xi] * B[xi] for the 16 points, from zero: `a` batched by
  /// point, B the point matrices of `bPoints`.
  void emitPointGemms(Value a, Value bPoints, Value m, int64_t rows,
                      int64_t cols, int64_t depth) {
    kb.loop(kPoints, 1, [&](Value xi) {
      KernelBuilder::GemmCall call(a, pointMatrix(rw, loc, bPoints, xi), m,
                                   rows, cols, depth, /*dot=*/false);
      call.aBatch = {xi};
      call.bRowMajor = true;
      call.cBatch = {xi};
      call.epilogue = &fromZero;
      kb.emitKernel(call);
    });
  }

  /// Output vector `y` (`valid` lanes) added to the output's start value
  /// (the fill's, or what `mem` holds at `ix`), then stored through the
  /// fused consumer (with `mask`, else the mask of `valid`) or into `mem`.
  void storeOutput(Value y, Value mem, ArrayRef<Value> ix, int64_t valid,
                   Value mask, const IRMapping *hoisted) {
    Value init = fillValue
                     ? vector::BroadcastOp::create(rw, loc, wv.vec, fillValue)
                           .getResult()
                     : wv.load(mem, ix, valid);
    Value acc = arith::AddFOp::create(rw, loc, init, y);
    if (epilogue.consumer)
      kb.storeThroughEpilogue(epilogue, acc, ix,
                              mask ? mask : wv.maskFor(valid), hoisted);
    else
      wv.store(acc, mem, ix, valid);
  }

  ConvDims dims;
  int64_t lanes;
  WinogradVectors wv;
  int64_t tileRows, tileCols;
  Value fillValue;
  /// The transformed filter, [points][.][.].
  Value u;
  /// The GEMMs' epilogue: M is scratch, written from zero.
  KernelEpilogue fromZero;
  /// The blocks are the parallel loop (else a block's loops are).
  bool blocksParallel = false;
};

/// NCHW: M[xi] (F x tiles) = U[xi] (F x C) * V[xi] (C x tiles), V's rows
/// padded to nr tiles, the transforms along a row of tiles (a tile's
/// columns are every other input column).
class WinogradNchwEmitter : public WinogradEmitter {
public:
  WinogradNchwEmitter(linalg::Conv2DNchwFchwOp op, PatternRewriter &rw,
                      const KernelConfig &cfg);
  void emit();

private:
  /// body(first tile, tiles, static first tile or -1) for runs of `lanes`
  /// tiles along a row of tiles, the last one maybe shorter (masked) and
  /// static; with an odd width it holds the last tile, whose run's input
  /// and output columns stop at the row's end.
  void forEachRun(function_ref<void(Value, int64_t, int64_t)> body);
  /// forEachRun over tile rows [ty0, ty0 + rows): body(first input or
  /// output row, the row's first tile in V and M, then forEachRun's).
  void forEachRowRun(
      Value ty0, int64_t rows,
      function_ref<void(Value, Value, Value, int64_t, int64_t)> body);
  /// Elements of a run of `valid` tiles from column x0 = 2 tx0 + offset
  /// (static `first` tx0; -1: a run within the row).
  int64_t runElements(int64_t valid, int64_t first, int64_t offset,
                      int64_t width) const {
    int64_t n = 2 * valid;
    return first < 0 ? n : std::min<int64_t>(n, width - (2 * first + offset));
  }
  void transformInput(Value ni, Value ty0, int64_t rows, Value v,
                      bool raggedRow) override;
  void multiplyPoints(Value v, Value m, int64_t tiles) override;
  void transformOutput(Value ni, Value ty0, int64_t rows, Value m,
                       bool raggedRow) override;

  int64_t inputWidth;
  /// Lane shuffles: the even and odd elements of two vectors, and the two
  /// halves of a row of tiles' interleaved output columns.
  SmallVector<int64_t> evens, odds, lowHalf, highHalf;
};

WinogradNchwEmitter::WinogradNchwEmitter(linalg::Conv2DNchwFchwOp op,
                                         PatternRewriter &rw,
                                         const KernelConfig &cfg)
    : WinogradEmitter(op, rw, cfg) {
  int64_t f = dims.filters, c = dims.channels;
  inputWidth = cast<MemRefType>(input.getType()).getDimSize(3);
  auto laneIndices = VectorType::get({lanes}, rw.getIndexType());
  SmallVector<APInt> strideValues;
  for (int64_t l = 0; l < lanes; ++l)
    strideValues.push_back(APInt(64, l * kTaps * kTaps));
  Value channelStride = arith::ConstantOp::create(
      rw, loc, laneIndices, DenseElementsAttr::get(laneIndices, strideValues));
  Value allLanes = vector::ConstantMaskOp::create(
      rw, loc, VectorType::get({lanes}, rw.getI1Type()),
      ArrayRef<int64_t>{lanes});
  setUpEpilogue(op, output);

  // U[xi][f][c] = (G g[f][c] G^T)[xi], once per call, `lanes` channels at
  // a time: a filter's taps for consecutive channels are 9 elements apart
  // (gathers), U's rows contiguous. A last run overlapping the previous
  // one rewrites the same values.
  u = kb.alloc(MemRefType::get({kPoints, f, c}, f32));
  Value taps = memref::CollapseShapeOp::create(
      rw, loc, filter, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  auto transformFilter = [&](Value fi, Value c0, bool vector) {
    Value g[kTaps][kTaps];
    for (int64_t r = 0; r < kTaps; ++r)
      for (int64_t s = 0; s < kTaps; ++s) {
        Value k = kb.addc(kb.mulc(c0, kTaps * kTaps), r * kTaps + s);
        g[r][s] = wv.widen(
            vector ? vector::GatherOp::create(rw, loc, wv.inVec, taps,
                                              ValueRange{fi, k}, channelStride,
                                              allLanes, wv.inZero)
                         .getResult()
                   : memref::LoadOp::create(rw, loc, taps, ValueRange{fi, k})
                         .getResult());
      }
    wv.storeFilterTile(g, u, fi, c0);
  };
  kb.loop(
      f, 1,
      [&](Value fi) {
        kb.emitVectorizedLoopOverlappingTail(
            c, lanes, [&](Value c0) { transformFilter(fi, c0, true); },
            [&](Value ci) { transformFilter(fi, ci, false); });
      },
      /*parallel=*/true);
  for (int64_t l = 0; l < lanes; ++l) {
    evens.push_back(2 * l);
    odds.push_back(2 * l + 1);
    // Interleaving the two columns of each tile: lane l of `low` is column
    // l of the 2 * lanes (tile l / 2, column l % 2).
    int64_t lo = l, hi = l + lanes;
    lowHalf.push_back(lo % 2 ? lanes + lo / 2 : lo / 2);
    highHalf.push_back(hi % 2 ? lanes + hi / 2 : hi / 2);
  }
}

void WinogradNchwEmitter::emit() {
  int64_t f = dims.filters, c = dims.channels;
  // V's rows hold a block's tiles padded to nr columns (the kernel reads
  // B's rows so).
  TileRowBlocks blocks(cfg, tileRows, tileCols,
                       kPoints * (c + f) * tileCols * 4,
                       /*raggedBottom=*/dims.oh % kOutTile);
  int64_t blockTiles =
      (blocks.rowsPerBlock * tileCols + cfg.nr - 1) / cfg.nr * cfg.nr;
  emitBlocks(blocks, MemRefType::get({kPoints, c, blockTiles}, f32),
             MemRefType::get({kPoints, f, blockTiles}, f32));
}

void WinogradNchwEmitter::forEachRun(
    function_ref<void(Value, int64_t, int64_t)> body) {
  int64_t full = tileCols / lanes * lanes;
  if (dims.ow % kOutTile && full == tileCols)
    full -= lanes;
  kb.loop(full, lanes, [&](Value tx0) { body(tx0, lanes, -1); });
  if (full < tileCols)
    body(kb.idx(full), tileCols - full, full);
}

void WinogradNchwEmitter::forEachRowRun(
    Value ty0, int64_t rows,
    function_ref<void(Value, Value, Value, int64_t, int64_t)> body) {
  kb.loop(rows, 1, [&](Value r) {
    Value y = kb.mulc(kb.addIdx(ty0, r), kOutTile);
    Value col0 = kb.mulc(r, tileCols);
    forEachRun([&](Value tx0, int64_t valid, int64_t first) {
      body(y, col0, tx0, valid, first);
    });
  });
}

/// M[xi] (F x tiles) = U[xi] (F x C) * V[xi] (C x tiles), V's rows past
/// the block's tiles zeros.
void WinogradNchwEmitter::multiplyPoints(Value v, Value m, int64_t tiles) {
  kb.zeroRowTails(v, tiles);
  emitPointGemms(u, v, m, dims.filters, tiles, dims.channels);
}

/// V[xi][c][tile] = (B^T d B)[xi] for the tiles of rows ty0..
void WinogradNchwEmitter::transformInput(Value ni, Value ty0, int64_t rows,
                                         Value v, bool raggedRow) {
  kb.loop(
      dims.channels, 1,
      [&](Value ci) {
        forEachRowRun(ty0, rows, [&](Value iy, Value col0, Value tx0,
                                     int64_t valid, int64_t first) {
          // d[i][j]: input row iy + i, column 2 tx + j of each tile: the
          // even and odd elements of the 2 * lanes from column 2 tx0
          // (j = 0, 1) and 2 tx0 + 2 (j = 2, 3); 2 valid of them used.
          Value d[kAlpha][kAlpha];
          for (int64_t i = 0; i < kAlpha; ++i)
            for (int64_t j = 0; j < kAlpha; j += 2) {
              Value x0 = kb.addc(kb.mulc(tx0, kOutTile), j);
              Value iyi = kb.addc(iy, i);
              int64_t n = raggedRow && i == kAlpha - 1
                              ? 0
                              : runElements(valid, first, j, inputWidth);
              Value lo = wv.load(input, {ni, ci, iyi, x0}, n);
              Value hi = wv.load(input, {ni, ci, iyi, kb.addc(x0, lanes)},
                                 n - lanes);
              d[i][j] = vector::ShuffleOp::create(rw, loc, lo, hi, evens);
              d[i][j + 1] = vector::ShuffleOp::create(rw, loc, lo, hi, odds);
            }
          Value vt[kPoints];
          wv.inputTile(d, vt);
          for (int64_t xi = 0; xi < kPoints; ++xi)
            wv.store(vt[xi], v, {kb.idx(xi), ci, kb.addIdx(col0, tx0)},
                     valid);
        });
      },
      /*parallel=*/!blocksParallel);
}

/// Y = A^T M A per tile, into output rows 2 ty, 2 ty + 1.
void WinogradNchwEmitter::transformOutput(Value ni, Value ty0, int64_t rows,
                                          Value m, bool raggedRow) {
  kb.loop(
      dims.filters, 1,
      [&](Value fi) {
        IRMapping perChannel;
        if (epilogue.consumer)
          perChannel = kb.hoistEpilogue(
              epilogue, {ni, fi, kb.idx(0), kb.idx(0)},
              KernelBuilder::EpilogueHoist::SameForRowsAndColumns, Value());
        forEachRowRun(ty0, rows, [&](Value y0, Value col0, Value tx0,
                                     int64_t valid, int64_t first) {
          Value mv[kAlpha][kAlpha];
          for (int64_t a = 0; a < kAlpha; ++a)
            for (int64_t bb = 0; bb < kAlpha; ++bb)
              mv[a][bb] = wv.load(
                  m, {kb.idx(a * kAlpha + bb), fi, kb.addIdx(col0, tx0)},
                  valid);
          Value x0 = kb.mulc(tx0, kOutTile);
          Value yt[kOutTile][kOutTile];
          wv.outputTile(mv, yt);
          for (int64_t ro = 0; ro < (raggedRow ? 1 : kOutTile); ++ro) {
            Value even = yt[ro][0], odd = yt[ro][1];
            Value y = kb.addc(y0, ro);
            for (int64_t h = 0; h < 2; ++h) {
              int64_t cols = std::min<int64_t>(
                  lanes, runElements(valid, first, 0, dims.ow) - h * lanes);
              if (cols <= 0)
                continue;
              Value acc = vector::ShuffleOp::create(rw, loc, even, odd,
                                                    h ? highHalf : lowHalf);
              SmallVector<Value> ix{ni, fi, y, kb.addc(x0, h * lanes)};
              Value mask = wv.maskFor(cols);
              storeOutput(acc, output, ix, cols, mask, &perChannel);
            }
          }
        });
      },
      /*parallel=*/!blocksParallel);
}

/// NHWC (conv_2d_nhwc_hwcf, and _fhwc: TOSA's and IREE's filter layout) as
/// the same 16 GEMMs with tiles as rows: M[xi] (tiles x F) = V[xi] (tiles x
/// C) * U[xi] (C x F), everything vectorized along channels, which are
/// contiguous in the input, in V, U and M and in the output: no shuffles.
/// V is the kernel's A, read in place; U is B in rows padded with zeros to
/// whole vectors; the output is written through the fill and the consumer
/// viewed as a pixels x F matrix (per-channel operands along the columns,
/// like the im2col kernel's).
template <typename OpTy>
class WinogradNhwcEmitter : public WinogradEmitter {
public:
  static constexpr bool kFilterFirst =
      std::is_same_v<OpTy, linalg::Conv2DNhwcFhwcOp>;
  WinogradNhwcEmitter(OpTy op, PatternRewriter &rw, const KernelConfig &cfg);
  void emit();

private:
  /// body(tx, last) over the tile columns, the last one (`last`: ragged)
  /// on its own when the width is odd.
  void forEachTileCol(function_ref<void(Value, bool)> body);
  void transformInput(Value ni, Value ty0, int64_t rows, Value v,
                      bool raggedRow) override;
  void multiplyPoints(Value v, Value m, int64_t tiles) override;
  void transformOutput(Value ni, Value ty0, int64_t rows, Value m,
                       bool raggedRow) override;

  bool raggedRight;
  /// F padded to whole vectors.
  int64_t paddedF;
  /// The output as a pixels x F matrix.
  Value cMat;
};

template <typename OpTy>
WinogradNhwcEmitter<OpTy>::WinogradNhwcEmitter(OpTy op, PatternRewriter &rw,
                                               const KernelConfig &cfg)
    : WinogradEmitter(op, rw, cfg) {
  int64_t c = dims.channels, f = dims.filters;
  raggedRight = dims.ow % kOutTile;
  paddedF = (f + lanes - 1) / lanes * lanes;
  cMat = memref::CollapseShapeOp::create(
      rw, loc, output, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  setUpEpilogue(op, cMat);

  // U[xi][c][f] = (G g[c][f] G^T)[xi], once per call, `lanes` filters at a
  // time: contiguous in an HWCF filter, 9 C apart in an FHWC one (gathers).
  // Columns F.. of the last vector are zeros (the kernel reads B's rows a
  // whole vector at a time).
  u = kb.alloc(MemRefType::get({kPoints, c, paddedF}, f32));
  Value flat = memref::CollapseShapeOp::create(
      rw, loc, filter, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}});
  Value filterStride;
  if (kFilterFirst) {
    auto laneIndices = VectorType::get({lanes}, rw.getIndexType());
    SmallVector<APInt> offsets;
    for (int64_t l = 0; l < lanes; ++l)
      offsets.push_back(APInt(64, l * kTaps * kTaps * c));
    filterStride = arith::ConstantOp::create(
        rw, loc, laneIndices, DenseElementsAttr::get(laneIndices, offsets));
  }
  Value allLanes = vector::ConstantMaskOp::create(
      rw, loc, VectorType::get({lanes}, rw.getI1Type()),
      ArrayRef<int64_t>{lanes});
  // The element of tap (r, s), channel ci, filter fi in `flat`.
  auto tapAt = [&](int64_t r, int64_t s, Value ci, Value fi) {
    if (kFilterFirst)
      return kb.addIdx(kb.mulc(fi, kTaps * kTaps * c),
                       kb.addc(ci, (r * kTaps + s) * c));
    return kb.addIdx(kb.mulc(ci, f), kb.addc(fi, (r * kTaps + s) * c * f));
  };
  auto transformFilter = [&](Value ci, Value f0, bool vector) {
    Value g[kTaps][kTaps];
    for (int64_t r = 0; r < kTaps; ++r)
      for (int64_t s = 0; s < kTaps; ++s) {
        Value at = tapAt(r, s, ci, f0);
        Value tap;
        if (!vector)
          tap = memref::LoadOp::create(rw, loc, flat, ValueRange{at});
        else if (kFilterFirst)
          tap = vector::GatherOp::create(rw, loc, wv.inVec, flat,
                                         ValueRange{at}, filterStride,
                                         allLanes, wv.inZero);
        else
          tap = vector::LoadOp::create(rw, loc, wv.inVec, flat, ValueRange{at});
        g[r][s] = wv.widen(tap);
      }
    wv.storeFilterTile(g, u, ci, f0);
  };
  kb.loop(
      c, 1,
      [&](Value ci) {
        kb.emitVectorizedLoopOverlappingTail(
            f, lanes, [&](Value f0) { transformFilter(ci, f0, true); },
            [&](Value fi) { transformFilter(ci, fi, false); });
      },
      /*parallel=*/true);
  kb.zeroRowTails(u, f);
}

template <typename OpTy>
void WinogradNhwcEmitter<OpTy>::emit() {
  int64_t c = dims.channels;
  TileRowBlocks blocks(cfg, tileRows, tileCols,
                       kPoints * (c + paddedF) * tileCols * 4,
                       /*raggedBottom=*/dims.oh % kOutTile);
  int64_t blockTiles = blocks.rowsPerBlock * tileCols;
  emitBlocks(blocks, MemRefType::get({kPoints, blockTiles, c}, f32),
             MemRefType::get({kPoints, blockTiles, paddedF}, f32));
}

template <typename OpTy>
void WinogradNhwcEmitter<OpTy>::forEachTileCol(
    function_ref<void(Value, bool)> body) {
  int64_t whole = tileCols - (raggedRight ? 1 : 0);
  kb.loop(whole, 1, [&](Value tx) { body(tx, false); });
  if (raggedRight)
    body(kb.idx(whole), true);
}

/// M[xi] (tiles x F) = V[xi] (tiles x C) * U[xi] (C x F).
template <typename OpTy>
void WinogradNhwcEmitter<OpTy>::multiplyPoints(Value v, Value m,
                                               int64_t tiles) {
  emitPointGemms(v, u, m, tiles, dims.filters, dims.channels);
}

/// V[xi][tile][c] = (B^T d B)[xi] for the tiles of rows ty0..
template <typename OpTy>
void WinogradNhwcEmitter<OpTy>::transformInput(Value ni, Value ty0,
                                               int64_t rows, Value v,
                                               bool raggedRow) {
  kb.loop(
      rows, 1,
      [&](Value r) {
        Value iy = kb.mulc(kb.addIdx(ty0, r), kOutTile);
        forEachTileCol([&](Value tx, bool raggedCol) {
          Value tile = kb.addIdx(kb.mulc(r, tileCols), tx);
          Value ix = kb.mulc(tx, kOutTile);
          auto transform = [&](Value c0, bool vector) {
            Value d[kAlpha][kAlpha], vt[kPoints];
            Value zero = vector ? wv.zeroVec
                                : arith::ConstantOp::create(
                                      rw, loc, rw.getZeroAttr(f32));
            for (int64_t i = 0; i < kAlpha; ++i)
              for (int64_t j = 0; j < kAlpha; ++j) {
                if ((raggedRow && i == kAlpha - 1) ||
                    (raggedCol && j == kAlpha - 1)) {
                  d[i][j] = zero;
                  continue;
                }
                SmallVector<Value> at{ni, kb.addc(iy, i), kb.addc(ix, j), c0};
                d[i][j] = vector ? wv.load(input, at, lanes)
                                 : wv.widen(memref::LoadOp::create(
                                       rw, loc, input, at));
              }
            wv.inputTile(d, vt);
            for (int64_t xi = 0; xi < kPoints; ++xi) {
              SmallVector<Value> at{kb.idx(xi), tile, c0};
              if (vector)
                vector::StoreOp::create(rw, loc, vt[xi], v, at);
              else
                memref::StoreOp::create(rw, loc, vt[xi], v, at);
            }
          };
          kb.emitVectorizedLoopOverlappingTail(
              dims.channels, lanes, [&](Value c0) { transform(c0, true); },
              [&](Value ci) { transform(ci, false); });
        });
      },
      /*parallel=*/!blocksParallel);
}

/// Y = A^T M A per tile and vector of filters, into output pixels
/// (2 ty + r, 2 tx + s) of the pixels x F matrix.
template <typename OpTy>
void WinogradNhwcEmitter<OpTy>::transformOutput(Value ni, Value ty0,
                                                int64_t rows, Value m,
                                                bool raggedRow) {
  int64_t f = dims.filters, oh = dims.oh, ow = dims.ow;
  int64_t fVectors = paddedF / lanes;
  SmallVector<IRMapping> perColumns(fVectors);
  if (epilogue.consumer)
    for (int64_t fv = 0; fv < fVectors; ++fv)
      perColumns[fv] =
          kb.hoistEpilogue(epilogue, {kb.idx(0), kb.idx(fv * lanes)},
                           KernelBuilder::EpilogueHoist::SameForEveryRow,
                           wv.maskFor(f - fv * lanes));
  kb.loop(
      rows, 1,
      [&](Value r) {
        Value y0 = kb.mulc(kb.addIdx(ty0, r), kOutTile);
        Value rowPixel = kb.mulc(kb.addIdx(kb.mulc(ni, oh), y0), ow);
        forEachTileCol([&](Value tx, bool raggedCol) {
          Value tile = kb.addIdx(kb.mulc(r, tileCols), tx);
          Value x0 = kb.mulc(tx, kOutTile);
          for (int64_t fv = 0; fv < fVectors; ++fv) {
            int64_t valid = std::min(lanes, f - fv * lanes);
            Value f0 = kb.idx(fv * lanes);
            Value mv[kAlpha][kAlpha], yt[kOutTile][kOutTile];
            for (int64_t a = 0; a < kAlpha; ++a)
              for (int64_t bb = 0; bb < kAlpha; ++bb)
                mv[a][bb] =
                    wv.load(m, {kb.idx(a * kAlpha + bb), tile, f0}, lanes);
            wv.outputTile(mv, yt);
            for (int64_t ro = 0; ro < (raggedRow ? 1 : kOutTile); ++ro)
              for (int64_t so = 0; so < (raggedCol ? 1 : kOutTile); ++so) {
                Value pixel =
                    kb.addIdx(kb.addc(rowPixel, ro * ow), kb.addc(x0, so));
                storeOutput(yt[ro][so], cMat, {pixel, f0}, valid, Value(),
                            &perColumns[fv]);
              }
          }
        });
      },
      /*parallel=*/!blocksParallel);
}
} // namespace

void mlir::lowp::x86::populateWinogradConvPatterns(RewritePatternSet &patterns,
                                                   const KernelConfig &cfg) {
  // Ahead of the direct NCHW kernel and the NHWC im2col kernel (benefit 2).
  patterns.add<
      KernelEmitterPattern<linalg::Conv2DNchwFchwOp, WinogradNchwEmitter>>(
      patterns.getContext(), cfg, /*benefit=*/2);
  patterns.add<KernelEmitterPattern<linalg::Conv2DNhwcHwcfOp,
                                    WinogradNhwcEmitter<linalg::Conv2DNhwcHwcfOp>>,
               KernelEmitterPattern<linalg::Conv2DNhwcFhwcOp,
                                    WinogradNhwcEmitter<linalg::Conv2DNhwcFhwcOp>>>(
      patterns.getContext(), cfg, /*benefit=*/3);
}
