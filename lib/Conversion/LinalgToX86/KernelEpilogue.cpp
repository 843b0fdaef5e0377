//===- KernelEpilogue.cpp - fill and elementwise consumer into a GEMM -----===//
//
// Front ends write `fill C, 0; C += A * B; out = f(C, bias, residual...)`
// as three ops: a pass writing C with zeros, the contraction, and a pass
// reading C back (bias, activation, residual, the narrowing cast; one
// linalg.generic after lowp-fuse-elementwise). A kernel that keeps blocks of
// C in registers can do the first and the last itself: its first k block
// starts from the fill value, its last applies the consumer's payload to the
// accumulators and stores the consumer's output. C is then never zeroed,
// never read back, and not even allocated when K fits one k block.
//
// Matched on buffers (the kernels run after bufferization), so the
// conditions are about memory: C is a fresh allocation that only the fill,
// the contraction and the consumer touch; nothing between the contraction
// and the consumer writes what the consumer reads or touches its output;
// the output does not alias what the kernel reads. A C the function did not
// allocate (an argument) takes the fill alone, when nothing that touches
// memory comes between it and the contraction.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "lowp/Support/Buffers.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// Whether `v` is available before `pt` once the ops collected in `toMove`
/// (in order) move there: `v` is defined before `pt` (or in an enclosing
/// block), or by an allocation or a pure op after it whose operands are.
static bool availableBefore(Value v, Operation *pt,
                            SmallVectorImpl<Operation *> &toMove) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != pt->getBlock() || def->isBeforeInBlock(pt) ||
      llvm::is_contained(toMove, def))
    return true;
  if (def == pt || def->getNumRegions() ||
      !(isPure(def) || isa<memref::AllocOp>(def)))
    return false;
  for (Value operand : def->getOperands())
    if (!availableBefore(operand, pt, toMove))
      return false;
  toMove.push_back(def);
  return true;
}

bool mlir::lowp::x86::isVectorizablePayload(Block *body) {
  return llvm::all_of(body->without_terminator(), [](Operation &inner) {
    if (inner.getNumRegions())
      return false;
    if (inner.hasTrait<OpTrait::ConstantLike>())
      return true;
    return OpTrait::hasElementwiseMappableTraits(&inner) && isPure(&inner) &&
           llvm::all_of(inner.getResultTypes(), [](Type t) {
             return t.isIntOrIndexOrFloat();
           });
  });
}

/// The operands the kernel reads, what the consumer reads and where it
/// writes, checked and recorded in `e` (kinds / dims / alongCols). Returns
/// the reason the consumer cannot be fused, or nothing.
static std::optional<std::string>
checkConsumer(KernelEpilogue &e, Operation *contraction,
              ArrayRef<Value> kernelReads,
              SmallVectorImpl<Operation *> &toMove) {
  linalg::GenericOp g = e.consumer;
  auto rootType = cast<MemRefType>(e.cRoot.getType());
  unsigned loops = g.getNumLoops();
  if (loops != unsigned(rootType.getRank()))
    return std::string("its iteration space is not the result's");
  if (g.getNumDpsInits() != 1)
    return std::string("it has several outputs");
  // The C view's dimension of every loop of the consumer, or -1 for loops
  // folded into the rows of a collapsed C (an NHWC convolution's pixels x
  // F); `inCols` marks loops folded into its columns (an NCHW
  // convolution's F x pixels), which only identity-map operands, read
  // through the same collapse, can follow.
  SmallVector<int64_t> viewDim(loops, -1);
  SmallVector<bool> inCols(loops, false);
  int64_t viewRank = loops;
  if (!e.collapse.empty()) {
    viewRank = e.collapse.size();
    for (auto [g, group] : llvm::enumerate(e.collapse)) {
      if (group.size() == 1)
        viewDim[group[0]] = g;
      else if (int64_t(g) + 1 == viewRank)
        for (int64_t d : group) {
          viewDim[d] = g;
          inCols[d] = true;
        }
    }
  } else {
    for (unsigned d = 0; d < loops; ++d)
      viewDim[d] = d;
  }
  Block *body = g.getBlock();
  Value out = g.getDpsInits()[0];
  Value outRoot = getRootBuffer(out);
  auto outType = getPlainMemRef(out, loops);
  if (!outType)
    return std::string("its output is not a static identity-layout buffer");
  // The output is written in C's order, or through a permutation that keeps
  // the columns innermost (attention's head merge: (b, i, j) -> (i, b, j)):
  // each accumulator vector is still one contiguous store.
  AffineMap outMap = g.getMatchingIndexingMap(g.getDpsInitOperand(0));
  e.outDims.clear();
  if (!outMap.isIdentity()) {
    if (!e.collapse.empty() || !outMap.isPermutation() ||
        outMap.getDimPosition(loops - 1) != loops - 1)
      return std::string("it writes its output through a map that moves the "
                         "columns or crosses the collapsed rows");
    for (unsigned r = 0; r < loops; ++r)
      e.outDims.push_back(viewDim[outMap.getDimPosition(r)]);
  }
  for (Value read : kernelReads)
    if (read && getRootBuffer(read) == outRoot)
      return std::string("its output aliases an operand of the contraction");
  SmallVector<Value> readRoots;
  for (OpOperand &operand : g->getOpOperands()) {
    AffineMap map = g.getMatchingIndexingMap(&operand);
    Value v = operand.get();
    bool isInit = g.isDpsInit(&operand);
    // C itself: the accumulators (as an output: written in place, its old
    // value is the contraction's result too).
    if (v == e.cRoot) {
      if (!map.isIdentity())
        return std::string("it reads the result through a non-identity map");
      e.kinds.push_back(KernelEpilogue::Kind::Acc);
      e.dims.emplace_back();
      e.alongCols.push_back(true);
      continue;
    }
    if (body->getArgument(operand.getOperandNumber()).use_empty()) {
      e.kinds.push_back(KernelEpilogue::Kind::Unused);
      e.dims.emplace_back();
      e.alongCols.push_back(false);
      continue;
    }
    if (!isa<MemRefType>(v.getType())) {
      e.kinds.push_back(KernelEpilogue::Kind::Scalar);
      e.dims.emplace_back();
      e.alongCols.push_back(false);
      continue;
    }
    auto type = getPlainMemRef(v, map.getNumResults());
    if (!type)
      return std::string("operand #") +
             std::to_string(operand.getOperandNumber()) +
             " is not a static identity-layout buffer";
    SmallVector<int64_t> dims;
    bool alongCols = false;
    if (map.isIdentity() && !e.collapse.empty()) {
      // Read through the same collapse as C.
      for (int64_t d = 0; d < viewRank; ++d)
        dims.push_back(d);
      alongCols = true;
    } else {
      for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
        if (auto c = dyn_cast<AffineConstantExpr>(expr);
            c && c.getValue() == 0) {
          dims.push_back(-1);
          continue;
        }
        auto d = dyn_cast<AffineDimExpr>(expr);
        if (d && inCols[d.getPosition()])
          return std::string("operand #") +
                 std::to_string(operand.getOperandNumber()) +
                 " is read along part of the collapsed columns";
        if (!d || viewDim[d.getPosition()] < 0)
          return std::string("operand #") +
                 std::to_string(operand.getOperandNumber()) +
                 " is read through a map the kernel's rows cannot follow";
        dims.push_back(viewDim[d.getPosition()]);
        if (d.getPosition() == loops - 1) {
          if (pos + 1 != map.getNumResults())
            return std::string("operand #") +
                   std::to_string(operand.getOperandNumber()) +
                   " is read along the columns with a stride";
          alongCols = true;
        }
      }
    }
    Value root = getRootBuffer(v);
    if (root == outRoot && !(map.isIdentity() && v == out))
      return std::string("operand #") +
             std::to_string(operand.getOperandNumber()) +
             " aliases the output";
    if (!isInit)
      readRoots.push_back(root);
    e.kinds.push_back(KernelEpilogue::Kind::Memory);
    e.dims.push_back(dims);
    e.alongCols.push_back(alongCols);
  }
  if (!isVectorizablePayload(body))
    return std::string("its payload is not elementwise arithmetic");
  // Nothing between the contraction and the consumer may write what the
  // consumer reads or touch what it writes: the epilogue runs earlier.
  for (Operation *it = contraction->getNextNode(); it != g.getOperation();
       it = it->getNextNode()) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(it);
    if (!effects)
      return std::string("'") + it->getName().getStringRef().str() +
             "' with unknown memory effects lies in between";
    for (const MemoryEffects::EffectInstance &effect : *effects) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      Value root = effect.getValue() ? getRootBuffer(effect.getValue()) : Value();
      bool touchesOut = !root || root == outRoot;
      bool writesInput = !root || llvm::is_contained(readRoots, root);
      if (touchesOut || (!isa<MemoryEffects::Read>(effect.getEffect()) &&
                         writesInput))
        return std::string("'") + it->getName().getStringRef().str() +
               "' in between accesses its operands";
    }
  }
  // Everything it uses must exist before the contraction.
  SmallVector<Value> used(g->getOperands());
  body->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (v.getParentBlock() != body)
        used.push_back(v);
  });
  for (Value v : used)
    if (!availableBefore(v, contraction, toMove))
      return std::string("a value it uses is defined after the contraction");
  return std::nullopt;
}

KernelEpilogue mlir::lowp::x86::matchEpilogue(Operation *contraction, Value c,
                                              ArrayRef<Value> kernelReads,
                                              std::string &whyNot) {
  KernelEpilogue e;
  Block *block = contraction->getBlock();
  Value root = c;
  memref::CollapseShapeOp view = c.getDefiningOp<memref::CollapseShapeOp>();
  if (view) {
    // Only the contraction reads C through the view (a convolution kernel
    // makes the view before replacing the op, which writes C itself).
    if (!view->hasOneUse() && !view->use_empty())
      return e;
    root = view.getSrc();
  }
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  auto rootType = dyn_cast<MemRefType>(root.getType());
  if (!rootType || !getPlainMemRef(root, rootType.getRank()) ||
      !rootType.getElementType().isF32())
    return e;
  if (!alloc || alloc->getBlock() != block) {
    // C a buffer the caller passed (a GEMM called as a library routine, C
    // = A * B): the fill alone, when it is the last op before the
    // contraction that touches memory. The kernel then writes all of C
    // (from the fill value), so the caller sees the same values; the
    // consumer is not taken (C must hold the product).
    for (Operation *prev = contraction->getPrevNode(); prev;
         prev = prev->getPrevNode()) {
      if (prev == view.getOperation())
        continue;
      auto f = dyn_cast<linalg::FillOp>(prev);
      if (f && f.hasPureBufferSemantics() && f.getDpsInits()[0] == root &&
          f.getInputs()[0].getType() == rootType.getElementType()) {
        e.fill = f;
        e.c = c;
        e.cRoot = root;
        if (view)
          e.collapse = view.getReassociationIndices();
        break;
      }
      if (!isMemoryEffectFree(prev))
        break;
    }
    return e;
  }
  linalg::FillOp fill;
  linalg::GenericOp consumer;
  bool otherBefore = false;
  Operation *otherAfter = nullptr;
  SmallVector<Operation *> others;
  for (OpOperand &use : root.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user) || user == contraction ||
        user == view.getOperation())
      continue;
    auto f = dyn_cast<linalg::FillOp>(user);
    if (f && !fill && f->getBlock() == block &&
        f->isBeforeInBlock(contraction) && f.hasPureBufferSemantics() &&
        f.getDpsInits()[0] == root &&
        f.getInputs()[0].getType() == rootType.getElementType()) {
      fill = f;
      continue;
    }
    // The consumer reads C; it may also write its result over C (in-place
    // bufferization of an elementwise op on the contraction's result).
    auto g = dyn_cast<linalg::GenericOp>(user);
    if (g && g->getBlock() == block && contraction->isBeforeInBlock(g) &&
        g.hasPureBufferSemantics() && (!consumer || consumer == g)) {
      consumer = g;
      continue;
    }
    others.push_back(user);
  }
  // Written in place, C holds the consumer's result after it: what comes
  // later reads that (the epilogue stores it there).
  bool inPlace = consumer && consumer.getDpsInits()[0] == root;
  for (Operation *user : others) {
    // A user in another block may run before or after the contraction.
    bool sameBlock = user->getBlock() == block;
    otherBefore |= !sameBlock || user->isBeforeInBlock(contraction);
    if (!otherAfter &&
        (!sameBlock || (contraction->isBeforeInBlock(user) &&
                        !(inPlace && consumer->isBeforeInBlock(user)))))
      otherAfter = user;
  }
  // The fill alone: nothing but it reads or writes C before the kernel.
  if (fill && !otherBefore)
    e.fill = fill;
  e.c = c;
  e.cRoot = root;
  if (view)
    e.collapse = view.getReassociationIndices();
  // Only elementwise consumers that read C are candidates worth a remark
  // (a reduction over C, softmax's or a norm's, is not one).
  if (!consumer || !llvm::is_contained(consumer.getDpsInputs(), root) ||
      consumer.getNumLoops() != consumer.getNumParallelLoops())
    return e;
  // What wrote C before the kernel is what its first k block loads; after
  // it, nothing but the consumer may see C (the last block does not write
  // it).
  if (otherAfter) {
    whyNot = std::string("'") + otherAfter->getName().getStringRef().str() +
             "' also accesses the result after the contraction";
    return e;
  }
  e.consumer = consumer;
  SmallVector<Operation *> toMove;
  if (std::optional<std::string> why =
          checkConsumer(e, contraction, kernelReads, toMove)) {
    whyNot = *why;
    e.consumer = nullptr;
    e.kinds.clear();
    e.dims.clear();
    e.alongCols.clear();
  }
  return e;
}

KernelEpilogue
mlir::lowp::x86::matchEpilogueOrRemark(Operation *contraction, Value c,
                                       ArrayRef<Value> kernelReads) {
  std::string whyNot;
  KernelEpilogue e = matchEpilogue(contraction, c, kernelReads, whyNot);
  if (!whyNot.empty())
    emitRemarkAt(contraction) << "elementwise consumer not fused into '"
                              << contraction->getName() << "': " << whyNot;
  return e;
}

void mlir::lowp::x86::prepareEpilogue(KernelEpilogue &e,
                                      Operation *contraction,
                                      RewriterBase &rw) {
  if (!e.consumer)
    return;
  linalg::GenericOp g = e.consumer;
  SmallVector<Operation *> toMove;
  SmallVector<Value> used(g->getOperands());
  g.getBlock()->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (v.getParentBlock() != g.getBlock())
        used.push_back(v);
  });
  for (Value v : used)
    (void)availableBefore(v, contraction, toMove);
  for (Operation *op : toMove)
    rw.moveOpBefore(op, contraction);
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(contraction);
  auto collapsed = [&](Value v) -> Value {
    if (e.collapse.empty())
      return v;
    return memref::CollapseShapeOp::create(rw, g.getLoc(), v, e.collapse);
  };
  for (OpOperand &operand : g->getOpOperands()) {
    unsigned i = operand.getOperandNumber();
    Value v = operand.get();
    bool identity = g.getMatchingIndexingMap(&operand).isIdentity();
    e.mems.push_back(e.kinds[i] == KernelEpilogue::Kind::Memory && identity
                         ? collapsed(v)
                         : v);
  }
  e.out = e.outDims.empty() ? collapsed(g.getDpsInits()[0])
                            : g.getDpsInits()[0];
}

void mlir::lowp::x86::finishEpilogue(KernelEpilogue &e, RewriterBase &rw) {
  if (e.fill)
    rw.eraseOp(e.fill);
  if (!e.consumer)
    return;
  rw.eraseOp(e.consumer);
  // C written only while K needed more than one k block: otherwise only its
  // deallocation is left.
  if (e.c != e.cRoot && e.c.use_empty())
    rw.eraseOp(e.c.getDefiningOp());
  if (!llvm::all_of(e.cRoot.getUsers(),
                    [](Operation *u) { return isa<memref::DeallocOp>(u); }))
    return;
  for (Operation *u : llvm::make_early_inc_range(e.cRoot.getUsers()))
    rw.eraseOp(u);
  rw.eraseOp(e.cRoot.getDefiningOp());
}

/// The consumer's operand `i` read for C's indices `cIx` (`mask`: the
/// valid lanes, null for all).
static Value loadEpilogueOperand(KernelBuilder &kb, const KernelEpilogue &e,
                                 unsigned i, ArrayRef<Value> cIx, Value mask,
                                 unsigned lanes) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  SmallVector<Value> ix;
  for (int64_t d : e.dims[i])
    ix.push_back(d < 0 ? kb.idx(0) : cIx[d]);
  if (!e.alongCols[i])
    return memref::LoadOp::create(b, loc, e.mems[i], ix);
  Type elem = getElementTypeOrSelf(e.mems[i].getType());
  auto vec = VectorType::get({lanes}, elem);
  if (!mask)
    return vector::LoadOp::create(b, loc, vec, e.mems[i], ix);
  Value pass = arith::ConstantOp::create(
      b, loc, vec, DenseElementsAttr::get(vec, b.getZeroAttr(elem)));
  return vector::MaskedLoadOp::create(b, loc, vec, e.mems[i], ix, mask, pass);
}

bool KernelBuilder::epilogueHasRowOperands(const KernelEpilogue &e,
                                           unsigned rowPos) {
  for (unsigned i = 0, n = e.kinds.size(); i < n; ++i)
    if (e.kinds[i] == KernelEpilogue::Kind::Memory &&
        llvm::is_contained(e.dims[i], int64_t(rowPos)) &&
        !llvm::is_contained(e.dims[i], int64_t(rowPos + 1)))
      return true;
  return false;
}

IRMapping KernelBuilder::hoistEpilogue(const KernelEpilogue &e,
                                       ArrayRef<Value> cIx,
                                       EpilogueHoist which, Value mask) {
  linalg::GenericOp g = e.consumer;
  Block *body = g.getBlock();
  int64_t rowPos = cIx.size() - 2, colPos = cIx.size() - 1;
  auto varies = [&](ArrayRef<int64_t> dims) {
    return (which != EpilogueHoist::SameForEveryColumn &&
            llvm::is_contained(dims, rowPos)) ||
           (which != EpilogueHoist::SameForEveryRow &&
            llvm::is_contained(dims, colPos));
  };
  SmallVector<Value> args(body->getNumArguments());
  for (unsigned i = 0, n = g->getNumOperands(); i < n; ++i) {
    if (e.kinds[i] == KernelEpilogue::Kind::Scalar)
      args[i] = g->getOperand(i);
    else if (e.kinds[i] == KernelEpilogue::Kind::Memory && !varies(e.dims[i]))
      args[i] = loadEpilogueOperand(*this, e, i, cIx, mask, cfg.lanes);
  }
  // The same for a whole row: scalars, broadcast where the payload meets
  // the accumulator.
  return hoistPayload(body, args,
                      which == EpilogueHoist::SameForEveryColumn
                          ? VectorType()
                          : VectorType::get({cfg.lanes}, b.getF32Type()));
}

void KernelBuilder::storeThroughEpilogue(const KernelEpilogue &e, Value acc,
                                         ArrayRef<Value> cIx, Value mask,
                                         const IRMapping *hoisted) {
  linalg::GenericOp g = e.consumer;
  Block *body = g.getBlock();
  unsigned lanes = cfg.lanes;
  SmallVector<Value> args(body->getNumArguments());
  for (unsigned i = 0, n = g->getNumOperands(); i < n; ++i) {
    if (hoisted && hoisted->contains(body->getArgument(i)))
      continue; // read once, by hoistEpilogue
    switch (e.kinds[i]) {
    case KernelEpilogue::Kind::Unused:
      break;
    case KernelEpilogue::Kind::Acc:
      args[i] = acc;
      break;
    case KernelEpilogue::Kind::Scalar:
      args[i] = g->getOperand(i);
      break;
    case KernelEpilogue::Kind::Memory:
      args[i] = loadEpilogueOperand(*this, e, i, cIx, mask, lanes);
      break;
    }
  }
  Value result = applyPayload(body, args, hoisted);
  if (!isa<VectorType>(result.getType())) // a payload ignoring every vector
    result = vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, result.getType()), result);
  SmallVector<Value> outIx(cIx);
  if (!e.outDims.empty()) {
    outIx.clear();
    for (int64_t d : e.outDims)
      outIx.push_back(cIx[d]);
  }
  if (mask)
    vector::MaskedStoreOp::create(b, loc, e.out, outIx, mask, result);
  else
    vector::StoreOp::create(b, loc, result, e.out, outIx);
}
