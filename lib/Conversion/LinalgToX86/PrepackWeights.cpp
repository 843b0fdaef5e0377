//===- PrepackWeights.cpp - the `prepack` option: F_prepack + F ----------===//
//
// Weights read only as B by matmuls the kernels take are packed (and
// rounded) once, by a separate function the caller runs once.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// Splits the packing of weights out of `func` (see the `prepack` option):
/// every matmul (or batch_matmul with one B for all batches) the kernels
/// take whose B is an argument of `func` used by nothing else, directly or
/// through a fusable cast, reads that argument as already packed; a new
/// function `<func>_prepack` takes those arguments (in order) and
/// returns the packed buffers (allocated; the caller owns them). Returns
/// the prepacking function, or null when no argument qualifies.
func::FuncOp
mlir::lowp::x86::splitPrepacking(func::FuncOp func, const KernelConfig &cfg,
                                 SmallVectorImpl<unsigned> &packedArgs) {
  if (func.isExternal())
    return nullptr;
  Block &entry = func.getBody().front();
  struct Candidate {
    linalg::LinalgOp op;
    ContractionShape shape;
    BlockArgument arg;
    linalg::LinalgOp cast;
  };
  SmallVector<Candidate> candidates;
  for (Operation &op : entry) {
    auto l = dyn_cast<linalg::LinalgOp>(&op);
    if (!l || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      continue;
    std::string why;
    FailureOr<ContractionShape> s = matchContraction(l, cfg, why);
    if (failed(s) || s->b.batched)
      continue;
    linalg::LinalgOp cast = findFusableCast(s->b.mem, &op);
    Value source = cast ? cast.getDpsInputs()[0] : s->b.mem;
    auto arg = dyn_cast<BlockArgument>(source);
    if (!arg || arg.getOwner() != &entry || !arg.hasOneUse())
      continue;
    candidates.push_back({l, *s, arg, cast});
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
  for (const Candidate &c : candidates) {
    weightTypes.push_back(c.arg.getType());
    packedTypes.push_back(
        probe.packedType(c.shape.n, c.shape.k, c.shape.elem));
  }
  auto prepack = func::FuncOp::create(
      b, loc, (func.getName() + "_prepack").str(),
      FunctionType::get(ctx, weightTypes, packedTypes));
  prepack.setVisibility(func.getVisibility());
  if (Attribute ci = func->getAttr("llvm.emit_c_interface"))
    prepack->setAttr("llvm.emit_c_interface", ci);
  Block *body = prepack.addEntryBlock();
  b.setInsertionPointToStart(body);
  SmallVector<Value> packed;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    KernelBuilder kb(b, c.op.getLoc(), cfg);
    MatrixOperand bOp = c.shape.b;
    bOp.mem = body->getArgument(i);
    bool dot = cfg.bf16Dot && c.shape.elem.isBF16();
    packed.push_back(kb.packB(bOp, {}, c.shape.n, c.shape.k, c.shape.elem,
                              dot, c.cast));
  }
  func::ReturnOp::create(b, loc, packed);

  // The function now reads the packed buffers in the weights' places.
  // Their fills and elementwise consumers run in the kernel as well.
  IRRewriter rw(ctx);
  for (auto [i, c] : llvm::enumerate(candidates)) {
    rw.setInsertionPoint(c.op);
    KernelBuilder kb(rw, c.op.getLoc(), cfg);
    if (c.cast)
      c.cast->erase();
    c.arg.setType(packedTypes[i]);
    KernelEpilogue epilogue =
        matchEpilogueOrRemark(c.op, c.shape.c, {c.shape.a.mem, c.arg});
    prepareEpilogue(epilogue, c.op, rw);
    kb.emitMatmul(c.shape.a, c.shape.b, c.shape.c, c.shape.batches, c.shape.m,
                  c.shape.n, c.shape.k, c.shape.elem, c.arg,
                  /*bCast=*/nullptr, &epilogue);
    rw.eraseOp(c.op);
    finishEpilogue(epilogue, rw);
  }
  func.setType(FunctionType::get(ctx, entry.getArgumentTypes(),
                                 func.getResultTypes()));
  return prepack;
}
