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
#include "mlir/Interfaces/ViewLikeInterface.h"

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

namespace {
/// How a convolution's filter is computed from one weight argument: the ops
/// from the argument's reader on (reshape views; ops that write buffers: its
/// rounding, its transpose to the kernel's layout) up to the last one that
/// writes a buffer, `computed`. Reshapes of that buffer on the way to the
/// filter stay where they are.
struct FilterChain {
  BlockArgument arg;
  SmallVector<Operation *> ops;
  Value computed;
};
} // namespace

/// Whether `op` is a reshape view that only `reader` uses.
static bool isReshapeReadBy(Operation *op, Operation *reader) {
  return isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(op) &&
         op->hasOneUse() && *op->user_begin() == reader;
}

/// The one op other than deallocations and `reader` that uses `buffer`, an
/// allocation, as an init, when it is a copy, a transpose or an elementwise
/// op with one input and identity maps; null otherwise.
static linalg::LinalgOp findOnlyWriter(Value buffer, Operation *reader) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return nullptr;
  linalg::LinalgOp writer;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user) || user == reader)
      continue;
    auto l = dyn_cast<linalg::LinalgOp>(user);
    if (!l || writer || !l.isDpsInit(&use))
      return nullptr;
    writer = l;
  }
  if (!writer || !writer.hasPureBufferSemantics() ||
      writer.getNumDpsInputs() != 1 || writer.getNumDpsInits() != 1 ||
      writer->getBlock() != reader->getBlock() ||
      !writer->isBeforeInBlock(reader))
    return nullptr;
  bool copies = isa<linalg::TransposeOp, linalg::CopyOp>(writer) ||
                (isa<linalg::GenericOp>(writer) &&
                 isElementwiseConversion(writer));
  return copies ? writer : nullptr;
}

/// The chain computing the filter of `conv` from a weight argument of
/// `entry` that nothing else reads, or nothing.
static std::optional<FilterChain> findFilterChain(linalg::LinalgOp conv,
                                                  Block &entry) {
  Value v = conv.getDpsInputs()[1];
  Operation *reader = conv;
  FilterChain chain;
  while (true) {
    Operation *def = v.getDefiningOp();
    if (isReshapeReadBy(def, reader)) {
      chain.ops.push_back(def);
      v = cast<ViewLikeOpInterface>(def).getViewSource();
    } else if (linalg::LinalgOp writer = findOnlyWriter(v, reader)) {
      if (!chain.computed)
        chain.computed = v;
      // Reshapes between the last writer and the filter stay.
      if (chain.computed == v)
        chain.ops.clear();
      chain.ops.push_back(writer);
      v = writer.getDpsInputs()[0];
      def = writer;
    } else {
      break;
    }
    reader = def;
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!chain.computed || !arg || arg.getOwner() != &entry || !arg.hasOneUse())
    return std::nullopt;
  chain.arg = arg;
  std::reverse(chain.ops.begin(), chain.ops.end());
  return chain;
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
    /// A filter's: the ops computing it from `arg`.
    FilterChain chain;
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
      if (std::optional<FilterChain> chain = findFilterChain(l, entry))
        candidates.push_back({l, std::nullopt, chain->arg, nullptr, *chain});
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
      packedTypes.push_back(c.chain.computed.getType());
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
      // The filter's chain, on the argument, each op into a buffer of its
      // own.
      IRMapping map;
      map.map(c.arg, body->getArgument(i));
      for (Operation *op : c.chain.ops) {
        if (auto writer = dyn_cast<linalg::LinalgOp>(op)) {
          Value init = writer.getDpsInits()[0];
          map.map(init, kb.alloc(cast<MemRefType>(init.getType())));
        }
        b.clone(*op, map);
      }
      packed.push_back(map.lookup(c.chain.computed));
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
      // The convolution reads the computed filter (through the reshapes
      // that followed it); its kernel pattern takes it from there.
      SmallVector<Value> buffers;
      for (Operation *op : c.chain.ops)
        if (auto writer = dyn_cast<linalg::LinalgOp>(op))
          buffers.push_back(writer.getDpsInits()[0]);
      for (Value buffer : buffers)
        for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
          if (isa<memref::DeallocOp>(user))
            user->erase();
      c.chain.computed.replaceAllUsesExcept(c.arg, c.chain.ops.back());
      for (Operation *op : llvm::reverse(c.chain.ops))
        op->erase();
      for (Value buffer : buffers)
        buffer.getDefiningOp()->erase();
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
