//===- AmxKernel.cpp - AMX-BF16 register blocks of the GEMM kernel --------===//
//
// With `amx=true`, the dot kernel of GemmMicroKernel.cpp (emitKernel) computes
// its full 32 x 32 blocks of C on AMX-BF16: 2 x 2 f32 accumulator tiles,
// tdpbf16ps on 2 A tiles (16 rows x 32 bf16, read in place) and 2 B tiles (16 k
// pairs x 16 columns of VNNI pairs: packed B's layout as it is, read with the
// panel's row stride). Everything around the block is the vector kernel's: B
// packed (and cast) the same way, k blocks, threads, partial sums in C between
// k blocks; the fill and the fused epilogue go through a 32 x 32 f32 scratch
// block; a K that is not whole tiles ends in a tile of zero-padded copies. Rows
// and columns a block does not cover run on vdpbf16ps. No software prefetches
// in the tile loop: the vector kernel's per-k-step prefetches of the next panel
// cost about 7% of a convolution block's samples here and measured no gain on
// the large weights.
//
// Linux hands out the tile registers per process on request
// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)); before it, the first
// tile instruction faults. requestAmxPermission makes each function that
// uses tiles ask once per process, and say why and abort if refused. The
// request cannot sit in the function with the tiles: LLVM's tile
// configuration pass puts an ldtilecfg at that function's entry, before the
// request, and on a CPU without AMX (a Zen, a VM hiding it) ldtilecfg alone
// is SIGILL. So the tile code moves to a private noinline function the
// original one calls once the permission is granted.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

std::optional<std::string>
KernelBuilder::whyNoAmxBlocks(int64_t m, int64_t kSteps, int64_t kcSteps,
                              Type aElem, Type cElem,
                              const SegmentedA *segA) const {
  const TileShape &t = cfg.amxTile;
  int64_t pairsPerTile = t.k / 2;
  if (!aElem.isBF16())
    return std::string("A is not bf16");
  if (segA && !segA->rowsEvenlySpaced)
    return std::string("A's rows are not evenly spaced in memory");
  // A tile's k pairs within one segment (a filter tap's channels).
  if (segA && segA->segmentSteps % pairsPerTile != 0)
    return "A's runs of " + std::to_string(2 * segA->segmentSteps) +
           " are not whole tiles of " + std::to_string(t.k);
  if (!cElem.isF32())
    return std::string("C is not f32");
  if (cfg.nr != 2 * t.n)
    return "nr=" + std::to_string(cfg.nr) + " is not 2 tile columns (" +
           std::to_string(2 * t.n) + ")";
  if (m < int64_t(2 * t.m))
    return "M = " + std::to_string(m) + " is below one block of 2 tile rows (" +
           std::to_string(2 * t.m) + ")";
  // K in whole tiles per k block, or a single k block whose last tile is
  // partial (amxKTail).
  if (kSteps <= 0 || (kcSteps != kSteps && (kSteps % pairsPerTile != 0 ||
                                            kcSteps % pairsPerTile != 0)))
    return "K = " + std::to_string(2 * kSteps) +
           " is not whole tiles of " + std::to_string(t.k) +
           " in k blocks of kc=" + std::to_string(kcSteps);
  return std::nullopt;
}

int64_t KernelBuilder::amxKTail(int64_t kSteps) const {
  return kSteps % (cfg.amxTile.k / 2);
}

void KernelBuilder::emitAmxBlock(const AmxBlock &blk) {
  const TileShape &t = cfg.amxTile;
  Type f32 = b.getF32Type();
  Type bf16 = getElementTypeOrSelf(blk.a.getType());
  int64_t rows = 2 * t.m, cols = 2 * t.n;
  auto accType = amx::TileType::get({int64_t(t.m), int64_t(t.n)}, f32);
  auto inType = amx::TileType::get({int64_t(t.m), int64_t(2 * t.n)}, bf16);
  auto rowVec = VectorType::get({int64_t(t.n)}, f32);
  auto cAt = [&](int64_t r, int64_t col) {
    return at(blk.cBatch, {addc(blk.cRow0, r), addc(blk.col0, col)});
  };
  // The fill and the epilogue go through memory: tiles only load and store.
  Value scratch = blk.scratch;
  bool zeroFill = blk.fill && matchPattern(blk.fill, m_AnyZeroFloat());
  bool ownScratch = !scratch && ((blk.fill && !zeroFill) || blk.epilogue);
  if (ownScratch)
    scratch = alloc(MemRefType::get({rows, cols}, f32));
  SmallVector<Value> init;
  if (blk.fill && !zeroFill) {
    Value splat = vector::BroadcastOp::create(b, loc, rowVec, blk.fill);
    loop(rows, 1, [&](Value r) {
      for (int64_t h = 0; h < 2; ++h)
        vector::StoreOp::create(b, loc, splat, scratch,
                                ValueRange{r, idx(h * t.n)});
    });
  }
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t h = 0; h < 2; ++h) {
      if (zeroFill)
        init.push_back(amx::TileZeroOp::create(b, loc, accType));
      else if (blk.fill)
        init.push_back(amx::TileLoadOp::create(
            b, loc, accType, scratch, ValueRange{idx(r * t.m), idx(h * t.n)}));
      else
        init.push_back(amx::TileLoadOp::create(b, loc, accType, blk.c,
                                               cAt(r * t.m, h * t.n)));
    }
  Value kMainEnd = blk.kTail ? addc(blk.kEnd, -blk.kTail) : blk.kEnd;
  // A by segments: each tile row's run is decoded once per block; a k step
  // (whole tiles of one segment) adds its segment's start.
  SmallVector<SmallVector<Value>, 2> aRowStates;
  if (blk.segA)
    for (int64_t r = 0; r < 2; ++r)
      aRowStates.push_back(blk.segA->rowState(addc(blk.aRow0, r * t.m)));
  auto aTileAt = [&](int64_t r, Value kk) -> SmallVector<Value> {
    if (!blk.segA)
      return at(blk.aBatch, {addc(blk.aRow0, r * t.m), mulc(kk, 2)});
    int64_t segSteps = blk.segA->segmentSteps;
    Value seg = arith::DivUIOp::create(b, loc, kk, idx(segSteps));
    Value step = arith::RemUIOp::create(b, loc, kk, idx(segSteps));
    SmallVector<Value> ix = blk.segA->start(aRowStates[r], seg);
    ix.back() = addIdx(ix.back(), mulc(step, 2));
    return ix;
  };
  Value aMem = blk.segA ? blk.segA->source : blk.a;
  auto kLoop = scf::ForOp::create(
      b, loc, blk.kBegin, kMainEnd, idx(t.k / 2), init,
      [&](OpBuilder &nb, Location, Value kk, ValueRange accs) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value ta[2], tb[2];
        for (int64_t h = 0; h < 2; ++h)
          tb[h] = amx::TileLoadOp::create(b, loc, inType, blk.bMem,
                                          blk.bAt(kk, 2 * h * t.n));
        for (int64_t r = 0; r < 2; ++r)
          ta[r] = amx::TileLoadOp::create(b, loc, inType, aMem,
                                          aTileAt(r, kk));
        SmallVector<Value> next;
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t h = 0; h < 2; ++h)
            next.push_back(amx::TileMulFOp::create(b, loc, accType, ta[r],
                                                   tb[h], accs[r * 2 + h]));
        scf::YieldOp::create(b, loc, next);
      });
  SmallVector<Value> accs(kLoop.getResults());
  if (blk.kTail) {
    // The last kTail pairs (K = 24: all 12) as whole tiles of copies padded
    // with zeros: a tile of another shape would need tile registers
    // configured for it next to the eight the loop uses (LLVM configures
    // each function once), and reading A or B past K is reading another
    // row (maybe NaN: NaN * 0 is NaN) or past the buffer.
    auto aPadType = MemRefType::get({rows, int64_t(t.k)}, bf16);
    auto bPadType = MemRefType::get({int64_t(t.k / 2), 2 * cols}, bf16);
    Value aPad = alloc(aPadType), bPad = alloc(bPadType);
    auto zeros = [&](int64_t width) {
      auto vt = VectorType::get({width}, bf16);
      return arith::ConstantOp::create(
          b, loc, vt, DenseElementsAttr::get(vt, b.getZeroAttr(bf16)));
    };
    auto aRow = VectorType::get({int64_t(t.k)}, bf16);
    auto aMask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({int64_t(t.k)}, b.getI1Type()),
        ArrayRef<int64_t>{2 * blk.kTail});
    Value aZero = zeros(t.k);
    loop(rows, 1, [&](Value r) {
      // Only the 2 * kTail elements of K are read.
      Value v = vector::MaskedLoadOp::create(
          b, loc, aRow, blk.a,
          at(blk.aBatch, {addIdx(blk.aRow0, r), mulc(kMainEnd, 2)}), aMask,
          aZero);
      vector::StoreOp::create(b, loc, v, aPad, ValueRange{r, idx(0)});
    });
    auto bRow = VectorType::get({2 * cols}, bf16);
    Value bZero = zeros(2 * cols);
    for (int64_t p = 0; p < int64_t(t.k / 2); ++p) {
      Value v = p < blk.kTail
                    ? vector::LoadOp::create(b, loc, bRow, blk.bMem,
                                             blk.bAt(addc(kMainEnd, p), 0))
                          .getResult()
                    : bZero;
      vector::StoreOp::create(b, loc, v, bPad, ValueRange{idx(p), idx(0)});
    }
    Value tb[2];
    for (int64_t h = 0; h < 2; ++h)
      tb[h] = amx::TileLoadOp::create(b, loc, inType, bPad,
                                      ValueRange{idx(0), idx(2 * h * t.n)});
    for (int64_t r = 0; r < 2; ++r) {
      Value ta = amx::TileLoadOp::create(b, loc, inType, aPad,
                                         ValueRange{idx(r * t.m), idx(0)});
      for (int64_t h = 0; h < 2; ++h)
        accs[r * 2 + h] = amx::TileMulFOp::create(b, loc, accType, ta, tb[h],
                                                  accs[r * 2 + h]);
    }
    dealloc(aPad);
    dealloc(bPad);
  }
  if (!blk.epilogue) {
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t h = 0; h < 2; ++h)
        amx::TileStoreOp::create(b, loc, blk.c, cAt(r * t.m, h * t.n),
                                 accs[r * 2 + h]);
  } else {
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t h = 0; h < 2; ++h)
        amx::TileStoreOp::create(b, loc, scratch,
                                 ValueRange{idx(r * t.m), idx(h * t.n)},
                                 accs[r * 2 + h]);
    // Row by row, a vector of 16 columns at a time, as the vector kernel
    // stores its accumulators. What does not depend on the row (a bias,
    // an NHWC batch norm's rsqrt(var + eps)) is computed once per block;
    // with operands per row (an NCHW batch norm), once per row.
    bool perRow = epilogueHasRowOperands(*blk.epilogue, blk.cBatch.size());
    SmallVector<IRMapping, 2> perColumns;
    if (!perRow)
      for (int64_t h = 0; h < 2; ++h)
        perColumns.push_back(hoistEpilogue(
            *blk.epilogue,
            at(blk.cBatch, {blk.cRow0, addc(blk.col0, h * t.n)}),
            EpilogueHoist::SameForEveryRow, /*mask=*/nullptr));
    loop(rows, 1, [&](Value r) {
      Value cRow = addIdx(blk.cRow0, r);
      IRMapping sameInRow;
      if (perRow)
        sameInRow = hoistEpilogue(*blk.epilogue,
                                  at(blk.cBatch, {cRow, blk.col0}),
                                  EpilogueHoist::SameForEveryColumn, nullptr);
      for (int64_t h = 0; h < 2; ++h) {
        Value acc = vector::LoadOp::create(b, loc, rowVec, scratch,
                                           ValueRange{r, idx(h * t.n)});
        storeThroughEpilogue(*blk.epilogue, acc,
                             at(blk.cBatch, {cRow, addc(blk.col0, h * t.n)}),
                             /*mask=*/nullptr,
                             perRow ? &sameInRow : &perColumns[h]);
      }
    });
  }
  if (ownScratch)
    dealloc(scratch);
}

LogicalResult mlir::lowp::x86::requestAmxPermission(func::FuncOp f) {
  auto module = f->getParentOfType<ModuleOp>();
  if (!module)
    return f.emitError("amx=true needs a module around '")
           << f.getName() << "' (it declares arch_prctl and a flag there)";
  Location loc = f.getLoc();
  OpBuilder b(f.getContext());
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  // int arch_prctl(int code, unsigned long addr), glibc.
  StringRef prctl = "arch_prctl";
  if (!SymbolTable::lookupSymbolIn(module, prctl)) {
    b.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(b, loc, prctl,
                                     b.getFunctionType({i32, i64}, {i32}));
    decl.setPrivate();
  }
  // Refused (a CPU or a kernel without AMX): the first tile instruction
  // would kill the process with SIGILL and no word why. Say it, then abort:
  // perror(message) and abort(), glibc. The message is a constant global
  // whose address goes to perror as an integer (a pointer in the same
  // register on x86-64).
  StringRef perror = "perror", abortFn = "abort";
  StringRef message = "__lowp_amx_refused_message";
  std::string text = "amx=true code (fp-opt): Linux refused the AMX tile "
                     "registers, arch_prctl(ARCH_REQ_XCOMP_PERM, "
                     "XFEATURE_XTILEDATA)";
  auto messageType =
      MemRefType::get({int64_t(text.size() + 1)}, b.getI8Type());
  if (!SymbolTable::lookupSymbolIn(module, perror)) {
    b.setInsertionPointToStart(module.getBody());
    func::FuncOp::create(b, loc, perror,
                         b.getFunctionType({b.getIndexType()}, {}))
        .setPrivate();
  }
  if (!SymbolTable::lookupSymbolIn(module, abortFn)) {
    b.setInsertionPointToStart(module.getBody());
    func::FuncOp::create(b, loc, abortFn, b.getFunctionType({}, {}))
        .setPrivate();
  }
  if (!SymbolTable::lookupSymbolIn(module, message)) {
    b.setInsertionPointToStart(module.getBody());
    SmallVector<int8_t> bytes(text.begin(), text.end());
    bytes.push_back(0);
    auto tensorType = RankedTensorType::get(messageType.getShape(),
                                            b.getI8Type());
    memref::GlobalOp::create(
        b, loc, b.getStringAttr(message), b.getStringAttr("private"),
        TypeAttr::get(messageType),
        DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(bytes)),
        /*constant=*/b.getUnitAttr(), /*alignment=*/IntegerAttr());
  }
  // One flag per module: set once the permission was asked for.
  StringRef flagName = "__lowp_amx_requested";
  auto flagType = MemRefType::get({}, i32);
  if (!SymbolTable::lookupSymbolIn(module, flagName)) {
    b.setInsertionPointToStart(module.getBody());
    auto scalar = RankedTensorType::get({}, i32);
    memref::GlobalOp::create(
        b, loc, b.getStringAttr(flagName), b.getStringAttr("private"),
        TypeAttr::get(flagType),
        DenseElementsAttr::get(scalar, b.getI32IntegerAttr(0)),
        /*constant=*/UnitAttr(), /*alignment=*/IntegerAttr());
  }
  // The tile code: f's body, in a private function LLVM must not inline
  // back (its ldtilecfg would then come before the request again).
  std::string bodyName = ("__lowp_amx_" + f.getName()).str();
  for (unsigned n = 1; SymbolTable::lookupSymbolIn(module, bodyName); ++n)
    bodyName = ("__lowp_amx_" + f.getName() + "_" + Twine(n)).str();
  b.setInsertionPointAfter(f);
  auto body = func::FuncOp::create(b, loc, bodyName, f.getFunctionType());
  body.setPrivate();
  if (ArrayAttr argAttrs = f.getAllArgAttrs())
    body.setAllArgAttrs(argAttrs);
  body->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  body.getBody().takeBody(f.getBody());
  Block *entry = f.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto call = func::CallOp::create(b, loc, body, entry->getArguments());
  func::ReturnOp::create(b, loc, call.getResults());

  b.setInsertionPointToStart(entry);
  Value flag = memref::GetGlobalOp::create(b, loc, flagType, flagName);
  Value asked = memref::LoadOp::create(b, loc, flag, ValueRange{});
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value notYet = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       asked, zero);
  scf::IfOp::create(b, loc, notYet, [&](OpBuilder &nb, Location l) {
    // ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA (asm/prctl.h, the kernel's
    // xfeature numbers): idempotent, so a race between threads is harmless.
    Value code = arith::ConstantIntOp::create(nb, l, i32, 0x1023);
    Value feature = arith::ConstantIntOp::create(nb, l, i64, 18);
    Value rc = func::CallOp::create(nb, l, prctl, TypeRange{i32},
                                    ValueRange{code, feature})
                   .getResult(0);
    Value refused = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne,
                                          rc, zero);
    scf::IfOp::create(nb, l, refused, [&](OpBuilder &eb, Location el) {
      Value text = memref::GetGlobalOp::create(eb, el, messageType, message);
      Value address =
          memref::ExtractAlignedPointerAsIndexOp::create(eb, el, text);
      func::CallOp::create(eb, el, perror, TypeRange{}, ValueRange{address});
      func::CallOp::create(eb, el, abortFn, TypeRange{}, ValueRange{});
      scf::YieldOp::create(eb, el);
    });
    Value one = arith::ConstantIntOp::create(nb, l, i32, 1);
    memref::StoreOp::create(nb, l, one, flag, ValueRange{});
    scf::YieldOp::create(nb, l);
  });
  return success();
}
