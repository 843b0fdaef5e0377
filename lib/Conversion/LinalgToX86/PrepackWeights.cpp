//===- PrepackWeights.cpp - the `prepack` option: F_prepack + F ----------===//
//
// Weights read only as B by matmuls the kernels take are packed (and
// rounded) once, convolution filters rounded once, by a separate function
// the caller runs once.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// `<func>_prepacked_arguments() -> memref<N x i64>`: the numbers of the
/// arguments of `func` that take packed buffers, in the order of
/// `<func>_prepack`'s results, copied from a private constant global into a
/// buffer the caller owns (as it owns every buffer a function returns). Once
/// lowered to LLVM the signature no longer says which arguments those are,
/// so a caller of a prebuilt library asks the library itself.
static void createPrepackedArgumentsFunction(func::FuncOp func,
                                             ArrayRef<unsigned> packedArgs,
                                             OpBuilder &b) {
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  auto type = MemRefType::get({static_cast<int64_t>(packedArgs.size())},
                              b.getI64Type());
  SmallVector<int64_t> argNumbers(packedArgs.begin(), packedArgs.end());
  auto value = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), b.getI64Type()),
      ArrayRef<int64_t>(argNumbers));
  auto module = func->getParentOfType<ModuleOp>();
  std::string globalName =
      ("__lowp_" + func.getName() + "_prepacked_arguments").str();
  auto global = memref::GlobalOp::create(
      b, loc, globalName, b.getStringAttr("private"), type, value,
      /*constant=*/true, /*alignment=*/nullptr);
  if (module)
    SymbolTable(module).insert(global);
  auto query = func::FuncOp::create(
      b, loc, (func.getName() + "_prepacked_arguments").str(),
      FunctionType::get(ctx, {}, {type}));
  query.setVisibility(func.getVisibility());
  if (Attribute ci = func->getAttr("llvm.emit_c_interface"))
    query->setAttr("llvm.emit_c_interface", ci);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(query.addEntryBlock());
  Value constantNumbers =
      memref::GetGlobalOp::create(b, loc, type, global.getSymName());
  Value numbers = memref::AllocOp::create(b, loc, type);
  memref::CopyOp::create(b, loc, constantNumbers, numbers);
  func::ReturnOp::create(b, loc, numbers);
}

/// Splits the packing of weights out of `func` (see the `prepack` option):
/// every matmul (or batch_matmul with one B for all batches) the kernels
/// take whose B is an argument of `func` used by nothing else, directly or
/// through a fusable cast, reads that argument as already packed; every
/// convolution whose filter is such an argument's cast (the precision
/// decision's rounding) reads the rounded filter, in the filter's own
/// layout, in the argument's place. A new function `<func>_prepack` takes
/// those arguments (in order) and returns the packed or rounded buffers
/// (allocated; the caller owns them), and `<func>_prepacked_arguments`
/// returns the numbers of those arguments. Returns the prepacking
/// function, or null when no argument qualifies.
func::FuncOp
mlir::lowp::x86::splitPrepacking(func::FuncOp func, const KernelConfig &cfg,
                                 SmallVectorImpl<unsigned> &packedArgs) {
  if (func.isExternal())
    return nullptr;
  Block &entry = func.getBody().front();
  // A matmul's B (packed), or a convolution's filter (rounded: no
  // `shape`).
  struct Candidate {
    linalg::LinalgOp op;
    std::optional<ContractionShape> shape;
    BlockArgument arg;
    linalg::LinalgOp cast;
  };
  SmallVector<Candidate> candidates;
  auto isWeightArgument = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &entry && arg.hasOneUse();
  };
  for (Operation &op : entry) {
    auto l = dyn_cast<linalg::LinalgOp>(&op);
    if (l && linalg::isaConvolutionOpInterface(l) &&
        l.getNumDpsInputs() == 2) {
      linalg::LinalgOp rounding = findFusableCast(l.getDpsInputs()[1], &op);
      if (rounding && isWeightArgument(rounding.getDpsInputs()[0]))
        candidates.push_back(
            {l, std::nullopt,
             llvm::cast<BlockArgument>(rounding.getDpsInputs()[0]), rounding});
      continue;
    }
    if (!l || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      continue;
    std::string why;
    FailureOr<ContractionShape> s = matchContraction(l, cfg, why);
    if (failed(s) || s->b.batched)
      continue;
    linalg::LinalgOp cast = findFusableCast(s->b.mem, &op);
    Value source = cast ? cast.getDpsInputs()[0] : s->b.mem;
    if (!isWeightArgument(source))
      continue;
    candidates.push_back({l, *s, llvm::cast<BlockArgument>(source), cast});
  }
  if (candidates.empty())
    return nullptr;
  llvm::sort(candidates, [](const Candidate &x, const Candidate &y) {
    return x.arg.getArgNumber() < y.arg.getArgNumber();
  });

  for (const Candidate &c : candidates)
    packedArgs.push_back(c.arg.getArgNumber());

  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(func);
  SmallVector<Type> weightTypes, packedTypes;
  KernelBuilder probe(b, loc, cfg);
  for (Candidate &c : candidates) {
    weightTypes.push_back(c.arg.getType());
    if (!c.shape) {
      packedTypes.push_back(c.cast.getDpsInits()[0].getType());
      continue;
    }
    MemRefType packed =
        probe.packedType(c.shape->n, c.shape->k, c.shape->elem);
    // FP8 weights stay bytes, widened by the kernel in registers.
    if (probe.readsFP8Panels(c.cast))
      packed = MemRefType::get(packed.getShape(),
                               getElementTypeOrSelf(c.arg.getType()));
    packedTypes.push_back(packed);
  }
  auto prepack = func::FuncOp::create(
      b, loc, (func.getName() + "_prepack").str(),
      FunctionType::get(ctx, weightTypes, packedTypes));
  prepack.setVisibility(func.getVisibility());
  if (Attribute ci = func->getAttr("llvm.emit_c_interface"))
    prepack->setAttr("llvm.emit_c_interface", ci);
  // Called once per set of weights: but for its packing loops, it and its C
  // wrapper need no optimization.
  LowpDialect::RunsOnceAttrHelper(ctx).setAttr(prepack, b.getUnitAttr());
  Block *body = prepack.addEntryBlock();
  b.setInsertionPointToStart(body);
  SmallVector<Value> packed;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    KernelBuilder kb(b, c.op.getLoc(), cfg);
    if (!c.shape) {
      // The filter's cast, on the argument, into a buffer of its own.
      Value rounded = kb.alloc(cast<MemRefType>(packedTypes[i]));
      IRMapping map;
      map.map(c.cast.getDpsInputs()[0], body->getArgument(i));
      map.map(c.cast.getDpsInits()[0], rounded);
      b.clone(*c.cast, map);
      packed.push_back(rounded);
      continue;
    }
    MatrixOperand bOp = c.shape->b;
    bOp.mem = body->getArgument(i);
    bool dot = cfg.dotFor(c.shape->elem, c.shape->k);
    packed.push_back(kb.readsFP8Panels(c.cast)
                         ? kb.packFP8B(bOp, c.shape->n, c.shape->k, dot)
                         : kb.packB(bOp, {}, c.shape->n, c.shape->k,
                                    c.shape->elem, dot, c.cast));
  }
  func::ReturnOp::create(b, loc, packed);
  b.setInsertionPointAfter(prepack);
  createPrepackedArgumentsFunction(func, packedArgs, b);

  // The function now reads the packed buffers in the weights' places.
  // Their fills and elementwise consumers run in the kernel as well.
  IRRewriter rw(ctx);
  for (auto [i, c] : llvm::enumerate(candidates)) {
    c.arg.setType(packedTypes[i]);
    if (!c.shape) {
      // The convolution reads the rounded filter; its kernel pattern takes
      // it from there.
      Value filterCopy = c.cast.getDpsInits()[0];
      c.cast->erase();
      for (Operation *user : llvm::make_early_inc_range(filterCopy.getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      filterCopy.replaceAllUsesWith(c.arg);
      filterCopy.getDefiningOp()->erase();
      continue;
    }
    rw.setInsertionPoint(c.op);
    KernelBuilder kb(rw, c.op.getLoc(), cfg);
    if (c.cast)
      c.cast->erase();
    const ContractionShape &shape = *c.shape;
    KernelEpilogue epilogue =
        matchEpilogueOrRemark(c.op, shape.c, {shape.a.mem, c.arg});
    prepareEpilogue(epilogue, c.op, rw);
    kb.emitMatmul(shape.a, shape.b, shape.c, shape.batches, shape.m, shape.n,
                  shape.k, shape.elem, c.arg, /*bCast=*/nullptr, &epilogue);
    rw.eraseOp(c.op);
    finishEpilogue(epilogue, rw);
  }
  func.setType(FunctionType::get(ctx, entry.getArgumentTypes(),
                                 func.getResultTypes()));
  return prepack;
}
