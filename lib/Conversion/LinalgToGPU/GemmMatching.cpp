//===- GemmMatching.cpp - what the GPU GEMM kernels take ------------------===//
//
// The matching half of the GPU GEMM layer (TiledGemm.h): a contraction or
// convolution on buffers as a GemmProblem (layouts, implicit GEMM geometry,
// a folded input padding), the chip and tiling from the capability table,
// and the located errors for FP8 operands a chip has no instruction for.
//
//===----------------------------------------------------------------------===//

#include "GemmLayer.h"
#include "lowp/IR/TargetResolution.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::gpu_gemm;

int64_t mlir::lowp::gpu_gemm::chunkElements(FloatType elem) {
  return 16 / std::max<int64_t>(1, elem.getWidth() / 8);
}

bool mlir::lowp::gpu_gemm::isIdentityStatic(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() && memref.getLayout().isIdentity() &&
         !memref.getMemorySpace();
}

namespace {
/// The body is acc + extf(a) * extf(b) (either operand order) and nothing
/// else: the exact product the tensor cores compute, summed in f32.
bool hasMulAddBody(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 3 || body.getOperations().size() != 5)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == acc) == (add.getRhs() == acc))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto widened = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return {};
  };
  Value x = widened(mul.getLhs()), y = widened(mul.getRhs());
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (x == a && y == b) || (x == b && y == a);
}

/// True when `map`'s results are exactly the loop dimensions `dims`.
bool resultsAre(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return false;
  for (auto [expr, dim] : llvm::zip(map.getResults(), dims)) {
    auto d = dyn_cast<AffineDimExpr>(expr);
    if (!d || d.getPosition() != dim)
      return false;
  }
  return true;
}

} // namespace

namespace {
std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return name;
}

/// The formats the chip's GEMM kernels of `backend` take, for messages
/// ("f16, bf16, f8E4M3FNUZ, f8E5M2FNUZ").
std::string matrixFormatList(const TargetInfo &chip,
                             const MatrixInstructionBackend &backend) {
  std::string list;
  for (unsigned i = 0; i < kNumFormats; ++i) {
    auto f = static_cast<Format>(i);
    if (!backend.tableTiling(chip, f))
      continue;
    list += (list.empty() ? "" : ", ") + stringifyFormat(f).str();
  }
  return list;
}
} // namespace

FailureOr<const TargetInfo *>
mlir::lowp::gpu_gemm::resolveGemmChip(Operation *root, StringRef targetOption,
                                      Vendor vendor) {
  FailureOr<const TargetInfo *> resolved = resolveTarget(root, targetOption);
  if (failed(resolved))
    return failure();
  bool nvidia = vendor == Vendor::NVIDIA;
  if (!*resolved) {
    root->emitError() << (nvidia ? "no NVIDIA chip: set target=sm_XX"
                                 : "no AMD chip: set target=gfx...")
                      << " or a lowp.target";
    return failure();
  }
  if ((*resolved)->vendor != vendor) {
    root->emitError() << "'" << (*resolved)->name << "' is not an "
                      << (nvidia ? "NVIDIA chip (NVVM targets: sm_XX)"
                                 : "AMD chip (ROCDL targets: gfx...)");
    return failure();
  }
  return *resolved;
}

FailureOr<const GPUGemmTiling *>
mlir::lowp::gpu_gemm::selectTableTiling(
    const GemmProblem &p, const TargetInfo &chip,
    const MatrixInstructionBackend &backend, std::string &whyNot) {
  StringRef instruction = backend.instructionName();
  auto fail = [&](const Twine &reason) {
    whyNot = reason.str();
    return failure();
  };
  FloatType aType = p.aElem, bType = p.bElem;
  if (!aType || !bType)
    return fail("operands are not floating point");
  // FP8 operands may mix E4M3 and E5M2 (both vendors' instructions take
  // each pair); 16-bit operands must agree.
  bool fp8Pair = aType.getWidth() == 8 && bType.getWidth() == 8;
  if (aType != bType && !fp8Pair)
    return fail("A and B have different element types");
  if (!getElementTypeOrSelf(p.c.getType()).isF32())
    return fail("the accumulator is not f32");
  std::optional<Format> aFormat = getFormat(aType), bFormat = getFormat(bType);
  const GPUGemmTiling *aTiling =
      aFormat ? backend.tableTiling(chip, *aFormat) : nullptr;
  const GPUGemmTiling *bTiling =
      bFormat ? backend.tableTiling(chip, *bFormat) : nullptr;
  if (!aTiling || !bTiling || aTiling != bTiling) {
    std::string formats = matrixFormatList(chip, backend);
    return fail(Twine(chip.name) + " has no " + instruction + " for " +
                typeName(aType) + " x " + typeName(bType) +
                (formats.empty()
                     ? " (the capability table gives it no " + instruction +
                           " kernel)"
                     : " (its " + instruction + " takes " + formats + ")"));
  }
  int64_t chunk = chunkElements(aType);
  if (p.conv && p.conv->nchw() && p.conv->im2col) {
    // B is gathered element by element (any number of output pixels, in
    // pairs: the epilogue stores two adjacent columns); A, the filter, is
    // staged in 16-byte rows.
    if (p.k % chunk || p.n % 2)
      return fail("C*KH*KW (" + Twine(p.k) + ") must be a multiple of " +
                  Twine(chunk) + " (16-byte rows of the filter) and OH*OW (" +
                  Twine(p.n) + " output pixels) even");
  } else if (p.conv && (p.n % chunk || p.k % chunk)) {
    // The same rule, in the convolution's terms.
    const ConvGeometry &g = *p.conv;
    if (g.nchw())
      return fail("OH*OW (" + Twine(p.n) + " output pixels) and C*KH*KW (" +
                  Twine(p.k) + ") must be multiples of " + Twine(chunk) +
                  " (16-byte rows of the implicit GEMM)");
    return fail("F (" + Twine(p.n) + " filters) and KH*KW*C (" + Twine(p.k) +
                ") must be multiples of " + Twine(chunk) +
                " (16-byte rows of the implicit GEMM)");
  }
  if (!p.conv && (p.n % chunk || p.k % chunk))
    return fail("N (" + Twine(p.n) + ") and K (" + Twine(p.k) +
                ") must be multiples of " + Twine(chunk) + " (16-byte rows)");
  if (!backend.acceptsProblem(p, *aTiling, whyNot))
    return failure();
  if (unsigned limit = chip.gpu->staticSharedMemoryBytes) {
    const GPUGemmTiling &t = *aTiling;
    auto bytes = [&](StagedOperand which, int64_t rows, int64_t cols,
                     FloatType elem) {
      int64_t n = elem.getWidth() / 8;
      for (int64_t d :
           backend.stagedTileShape(t, which, rows, cols, chunkElements(elem)))
        n *= d;
      return n;
    };
    int64_t staged =
        bytes(StagedOperand::A, t.blockM, t.blockK, aType) +
        (p.bTransposed || backend.transposesBWhileStaging(p)
             ? bytes(StagedOperand::B, t.blockN, t.blockK, bType)
                       : bytes(StagedOperand::B, t.blockK, t.blockN, bType));
    if (staged > limit)
      return fail(Twine(t.stages) + " stages of A and B need " +
                  Twine(staged) + " bytes of shared memory, more than the " +
                  Twine(limit) + " a kernel declares statically on " +
                  chip.name);
  }
  return aTiling;
}

LogicalResult mlir::lowp::gpu_gemm::checkFP8MatrixOperands(
    Operation *root, const TargetInfo &chip, StringRef instruction) {
  bool failed = false;
  root->walk([&](linalg::LinalgOp op) {
    if (!hasLowPrecisionOperands(op))
      return;
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto type =
          dyn_cast<FloatType>(getElementTypeOrSelf(in->get().getType()));
      if (!type || type.getWidth() != 8)
        continue;
      std::optional<Format> f = getFormat(type);
      if (f && chip.hasMatrixUnit(*f))
        continue;
      InFlightDiagnostic diag = op->emitError()
                                << chip.name << " has no " << typeName(type)
                                << " " << instruction << ": its FP8 is ";
      if (chip.fp8Flavor == FP8Flavor::None)
        diag << "none (no FP8 matrix instructions; decide with policy=bf16 "
                "or f16)";
      else
        diag << stringifyFP8Flavor(chip.fp8Flavor) << " ("
             << stringifyFormat(*chip.getE4M3()) << ", "
             << stringifyFormat(*chip.getE5M2())
             << "; decide the FP8 formats for this chip)";
      std::string formats;
      for (unsigned i = 0; i < kNumFormats; ++i)
        if (chip.hasGemmKernel(static_cast<Format>(i)))
          formats += (formats.empty() ? "" : ", ") +
                     stringifyFormat(static_cast<Format>(i)).str();
      diag << "; its " << instruction << " takes "
           << (formats.empty() ? "nothing" : formats);
      failed = true;
      return;
    }
  });
  return failure(failed);
}

bool mlir::lowp::gpu_gemm::hasLowPrecisionOperands(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return false;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<FloatType>(getElementTypeOrSelf(in->get().getType()));
    if (type && type.getWidth() < 32)
      return true;
  }
  return false;
}

/// The implicit GEMM of a 2-D convolution (ConvGeometry), or why it has
/// none: the layouts the staging can address, static row-major buffers, an
/// exact f32 product sum, and channel / filter counts in whole 16-byte
/// chunks where a chunk must be contiguous.
static FailureOr<GemmProblem> matchConvStructure(linalg::LinalgOp op,
                                                 std::string &whyNot) {
  auto fail = [&](const Twine &reason) {
    whyNot = reason.str();
    return failure();
  };
  // Pooling windows are convolutions to linalg, not products.
  if (!hasMulAddBody(op))
    return fail("not a multiply-accumulate convolution (acc + extf(a) * "
                "extf(b))");
  using Layout = ConvGeometry::Layout;
  ConvGeometry g;
  DenseIntElementsAttr strides, dilations;
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
    g.layout = Layout::NhwcHwcf;
    strides = conv.getStrides();
    dilations = conv.getDilations();
  } else if (auto conv = dyn_cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation())) {
    g.layout = Layout::NhwcFhwc;
    strides = conv.getStrides();
    dilations = conv.getDilations();
  } else if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
    g.layout = Layout::NchwFchw;
    strides = conv.getStrides();
    dilations = conv.getDilations();
  } else {
    return fail("the implicit GEMM takes linalg.conv_2d_nhwc_hwcf, "
                "conv_2d_nhwc_fhwc and conv_2d_nchw_fchw (not depthwise, "
                "grouped, quantized, 1-D or 3-D convolutions, nor generic "
                "ones)");
  }
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value output = op.getDpsInitOperand(0)->get();
  for (Value v : {input, filter, output})
    if (!isIdentityStatic(v.getType()))
      return fail("an operand is not a statically shaped, row-major buffer");
  ArrayRef<int64_t> in = cast<MemRefType>(input.getType()).getShape();
  ArrayRef<int64_t> fil = cast<MemRefType>(filter.getType()).getShape();
  ArrayRef<int64_t> out = cast<MemRefType>(output.getType()).getShape();
  auto strideValues = llvm::to_vector(strides.getValues<int64_t>());
  auto dilationValues = llvm::to_vector(dilations.getValues<int64_t>());
  g.strideH = strideValues[0];
  g.strideW = strideValues[1];
  g.dilationH = dilationValues[0];
  g.dilationW = dilationValues[1];
  g.images = in[0];
  if (g.nchw()) {
    g.channels = in[1], g.inH = in[2], g.inW = in[3];
    g.filters = fil[0], g.kernelH = fil[2], g.kernelW = fil[3];
    g.outH = out[2], g.outW = out[3];
  } else {
    g.inH = in[1], g.inW = in[2], g.channels = in[3];
    g.outH = out[1], g.outW = out[2];
    if (g.layout == Layout::NhwcHwcf)
      g.kernelH = fil[0], g.kernelW = fil[1], g.filters = fil[3];
    else
      g.filters = fil[0], g.kernelH = fil[1], g.kernelW = fil[2];
  }
  // The last window must lie inside the input (the staging reads no
  // padding: a tensor.pad before the convolution is its own buffer).
  if ((g.outH - 1) * g.strideH + (g.kernelH - 1) * g.dilationH >= g.inH ||
      (g.outW - 1) * g.strideW + (g.kernelW - 1) * g.dilationW >= g.inW)
    return fail("the output's windows reach past the input");
  g.sourceH = g.inH;
  g.sourceW = g.inW;
  g.im2col = !(g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 &&
               g.strideW == 1 && g.outH == g.inH && g.outW == g.inW);

  GemmProblem p;
  p.c = output;
  int64_t window = g.kernelH * g.kernelW * g.channels;
  if (g.nchw()) {
    p.a = filter;
    p.b = input;
    p.batch = g.images;
    p.m = g.filters;
    p.n = g.outH * g.outW;
    p.k = window;
    p.bBatched = p.cBatched = true;
  } else {
    p.a = input;
    p.b = filter;
    p.m = g.images * g.outH * g.outW;
    p.n = g.filters;
    p.k = window;
    p.bTransposed = g.layout == Layout::NhwcFhwc;
  }
  p.aElem = dyn_cast<FloatType>(getElementTypeOrSelf(p.a.getType()));
  p.bElem = dyn_cast<FloatType>(getElementTypeOrSelf(p.b.getType()));
  // A 1x1 NCHW convolution whose images are not whole 16-byte rows (7 x 7)
  // is gathered like the others.
  if (g.nchw() && !g.im2col && p.bElem &&
      (g.outH * g.outW) % chunkElements(p.bElem))
    g.im2col = true;
  // NHWC: a staged chunk of A is one run of channels at one input pixel.
  if (!g.nchw() && g.im2col && p.aElem &&
      g.channels % chunkElements(p.aElem))
    return fail("C (" + Twine(g.channels) + " channels) must be a multiple of " +
                Twine(chunkElements(p.aElem)) +
                " (the implicit GEMM stages 16-byte runs of channels)");
  p.conv = g;
  return p;
}

FailureOr<GemmProblem>
mlir::lowp::gpu_gemm::matchGemmStructure(linalg::LinalgOp op,
                                         std::string &whyNot) {
  auto fail = [&](const Twine &reason) {
    whyNot = reason.str();
    return failure();
  };
  if (!op.hasPureBufferSemantics())
    return fail("not bufferized");
  if (linalg::isaConvolutionOpInterface(op))
    return matchConvStructure(op, whyNot);
  if (!linalg::isaContractionOpInterface(op) || !hasMulAddBody(op))
    return fail("not a multiply-accumulate contraction (acc + extf(a) * "
                "extf(b))");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  // A batch dimension one operand lacks (broadcast weights) is classified
  // as an m (or n) dimension: the outer one is the batch (the maps are
  // checked below).
  if (succeeded(dims) && dims->batch.empty() && dims->k.size() == 1) {
    if (dims->m.size() == 2 && dims->n.size() == 1) {
      dims->batch.push_back(dims->m[0]);
      dims->m.erase(dims->m.begin());
    } else if (dims->n.size() == 2 && dims->m.size() == 1) {
      dims->batch.push_back(dims->n[0]);
      dims->n.erase(dims->n.begin());
    }
  }
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return fail("not one m, one n, one k and at most one batch dimension");

  GemmProblem p;
  p.a = op.getDpsInputOperand(0)->get();
  p.b = op.getDpsInputOperand(1)->get();
  p.c = op.getDpsInitOperand(0)->get();
  for (Value v : {p.a, p.b, p.c})
    if (!isIdentityStatic(v.getType()))
      return fail("an operand is not a statically shaped, row-major buffer");

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  auto withBatch = [&](std::initializer_list<unsigned> rest) {
    SmallVector<unsigned> d(batch);
    d.append(rest);
    return d;
  };
  auto plain = [&](std::initializer_list<unsigned> rest) {
    return SmallVector<unsigned>(rest);
  };
  // Operands without the batch dimension are broadcast (torch-mlir's
  // batched matmul with shared weights).
  if (resultsAre(maps[0], withBatch({m, k})))
    p.aBatched = !batch.empty();
  else if (batch.empty() || !resultsAre(maps[0], plain({m, k})))
    return fail("A is not indexed [batch][m][k] (a transposed A is not "
                "supported)");
  if (resultsAre(maps[1], withBatch({k, n}))) {
    p.bBatched = !batch.empty();
  } else if (resultsAre(maps[1], withBatch({n, k}))) {
    p.bBatched = !batch.empty();
    p.bTransposed = true;
  } else if (!batch.empty() && resultsAre(maps[1], plain({k, n}))) {
    p.bBatched = false;
  } else if (!batch.empty() && resultsAre(maps[1], plain({n, k}))) {
    p.bTransposed = true;
  } else {
    return fail("B is not indexed [batch][k][n] or [batch][n][k]");
  }
  if (!resultsAre(maps[2], withBatch({m, n})))
    return fail("C is not indexed [batch][m][n]");
  p.cBatched = !batch.empty();

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  p.m = ranges[m];
  p.n = ranges[n];
  p.k = ranges[k];
  p.batch = batch.empty() ? 1 : ranges[batch[0]];

  p.aElem = dyn_cast<FloatType>(getElementTypeOrSelf(p.a.getType()));
  p.bElem = dyn_cast<FloatType>(getElementTypeOrSelf(p.b.getType()));
  return p;
}

/// Whether `op` writes the constant 0 to all of `buffer` (the fill of a
/// bufferized tensor.pad: linalg.fill, or a linalg.map / generic without
/// inputs yielding a zero constant).
static bool isZeroFillOf(Operation *op, Value buffer) {
  FloatAttr value;
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getOutputs()[0] == buffer &&
           matchPattern(fill.getInputs()[0], m_Constant(&value)) &&
           value.getValue().isZero();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isa<linalg::MapOp, linalg::GenericOp>(op) ||
      linalgOp.getNumDpsInputs() != 0 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInitOperand(0)->get() != buffer ||
      linalgOp.getNumReductionLoops() != 0 ||
      !linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
           .isIdentity())
    return false;
  Block &body = op->getRegion(0).front();
  if (body.getOperations().size() != 1)
    return false;
  Value yielded = body.getTerminator()->getOperand(0);
  return matchPattern(yielded, m_Constant(&value)) && value.getValue().isZero();
}

/// Folds the zero padding of `p`'s convolution input into the staging:
/// when the input is a temporary that a zero fill and the copy of a plain
/// buffer into its interior (a bufferized tensor.pad) wrote right before,
/// padding only the spatial dimensions, the kernel reads that buffer and
/// zero-fills what lies outside it. Nothing else may touch the temporary,
/// and nothing between the copy and the convolution may write memory other
/// than fresh allocations (the kernel reads the source later than the copy
/// did), nor may the kernel write the source.
void mlir::lowp::gpu_gemm::foldInputPadding(linalg::LinalgOp op,
                                            GemmProblem &p) {
  ConvGeometry &g = *p.conv;
  Value padded = g.nchw() ? p.b : p.a;
  auto alloc = padded.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != op->getBlock())
    return;
  Operation *fill = nullptr;
  memref::SubViewOp interior;
  memref::CopyOp copy;
  for (Operation *user : padded.getUsers()) {
    if (user == op.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      if (interior || !view->hasOneUse())
        return;
      interior = view;
      copy = dyn_cast<memref::CopyOp>(*view->getUsers().begin());
      if (!copy || copy.getTarget() != view.getResult())
        return;
      continue;
    }
    if (fill || !isZeroFillOf(user, padded))
      return;
    fill = user;
  }
  if (!fill || !interior || fill->getBlock() != op->getBlock() ||
      copy->getBlock() != op->getBlock() || !fill->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(op))
    return;
  Value source = copy.getSource();
  if (!isIdentityStatic(source.getType()) ||
      getElementTypeOrSelf(source.getType()) !=
          getElementTypeOrSelf(padded.getType()))
    return;
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  ArrayRef<int64_t> strides = interior.getStaticStrides();
  ArrayRef<int64_t> sizes = interior.getStaticSizes();
  ArrayRef<int64_t> full = cast<MemRefType>(padded.getType()).getShape();
  if (!interior.getOffsets().empty() || !interior.getSizes().empty() ||
      llvm::any_of(strides, [](int64_t s) { return s != 1; }) ||
      sizes != cast<MemRefType>(source.getType()).getShape())
    return;
  // Only H and W are padded.
  unsigned hDim = g.nchw() ? 2 : 1, wDim = hDim + 1;
  for (unsigned d = 0; d < 4; ++d)
    if (d != hDim && d != wDim && (offsets[d] != 0 || sizes[d] != full[d]))
      return;
  // Between the copy and the convolution: allocations, pure ops, C's zero
  // fill (the kernel's own) and linalg ops writing fresh allocations (a
  // bias broadcast into C).
  for (Operation *between = copy->getNextNode(); between != op.getOperation();
       between = between->getNextNode()) {
    if (isa<memref::AllocOp>(between) || isMemoryEffectFree(between) ||
        between == p.zeroFill.getOperation() ||
        between == p.initOp.getOperation())
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(between);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics())
      return;
    for (Value init : linalgOp.getDpsInits())
      if (!init.getDefiningOp<memref::AllocOp>() || init == source)
        return;
  }
  // The kernel must not write what it reads.
  if (source == p.c || source == p.out ||
      llvm::any_of(p.epilogue, [&](linalg::GenericOp e) {
        return e.getDpsInitOperand(0)->get() == source;
      }))
    return;
  // The NHWC staging reads runs of channels.
  if (!g.nchw() && g.channels % chunkElements(p.aElem))
    return;
  g.padTop = offsets[hDim];
  g.padLeft = offsets[wDim];
  g.sourceH = sizes[hDim];
  g.sourceW = sizes[wDim];
  g.im2col = true; // the interior is addressed, not viewed
  g.paddedBuffer = padded;
  g.paddingOps = {fill, copy, interior};
  (g.nchw() ? p.b : p.a) = source;
}
