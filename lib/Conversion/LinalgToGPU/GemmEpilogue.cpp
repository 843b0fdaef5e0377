//===- GemmEpilogue.cpp - ops the GPU GEMM kernels fuse -------------------===//
//
// The epilogue half of the GPU GEMM layer (TiledGemm.h): the zero fill and
// the chain of elementwise ops a kernel computes in registers, found before
// the kernel is built and erased after it.
//
//===----------------------------------------------------------------------===//

#include "GemmLayer.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::gpu_gemm;

namespace {
/// The op after `op` in its block, skipping allocations and constants (the
/// bufferized IR puts a result's alloc between producer and consumer).
Operation *nextRelevantOp(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && (isa<memref::AllocOp>(next) ||
                  next->hasTrait<OpTrait::ConstantLike>()))
    next = next->getNextNode();
  return next;
}

/// Whether `buffer`, a temporary (memref.alloc), is used only by `users`
/// and deallocations.
bool onlyUsedBy(Value buffer, ArrayRef<Operation *> users) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return isa<memref::DeallocOp>(user) || llvm::is_contained(users, user);
  });
}

/// Whether `g` writes every element of `c` from other buffers (indexed by
/// projections of its loops) and scalars, without reading `c` or values
/// from outside but constants: an initializer the kernel can evaluate per
/// accumulator.
bool initializesAllOf(linalg::GenericOp g, Value c) {
  auto cType = cast<MemRefType>(c.getType());
  if (!g.hasPureBufferSemantics() || g.getNumDpsInits() != 1 ||
      g.getDpsInitOperand(0)->get() != c || g.getNumReductionLoops() != 0 ||
      g.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
      g.getStaticLoopRanges() != SmallVector<int64_t>(cType.getShape()) ||
      !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity() ||
      !g.getRegionOutputArgs()[0].use_empty())
    return false;
  for (OpOperand *in : g.getDpsInputOperands()) {
    Type type = in->get().getType();
    AffineMap map = g.getMatchingIndexingMap(in);
    if (in->get() == c || !map.isProjectedPermutation() ||
        !(isa<MemRefType>(type) ||
          (map.getNumResults() == 0 && type.isIntOrIndexOrFloat())))
      return false;
  }
  bool ok = true;
  g.getRegion().walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (!g.getRegion().isAncestor(v.getParentRegion()) &&
          !matchPattern(v, m_Constant()))
        ok = false;
  });
  return ok;
}

/// Fills p.zeroFill, p.epilogue, p.epilogueInputs and p.out: the zero fill
/// of C right before `op`, and the chain of elementwise linalg.generic ops
/// right after it that each consume the previous value (C, then their own
/// output) through an identity map while that buffer is a temporary nobody
/// else reads. Their other operands may be any buffer indexed by a
/// projection of C's dimensions (a bias row), their payload may use
/// constants from outside. The kernel then stores only the last value.
} // namespace

void mlir::lowp::gpu_gemm::collectEpilogue(linalg::LinalgOp op,
                                           GemmProblem &p) {
  p.out = p.c;
  auto cType = cast<MemRefType>(p.c.getType());
  // A zero fill right before the contraction.
  Operation *prev = op->getPrevNode();
  while (prev && (isa<memref::AllocOp>(prev) ||
                  prev->hasTrait<OpTrait::ConstantLike>()))
    prev = prev->getPrevNode();
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(prev)) {
    FloatAttr value;
    if (fill.getOutputs()[0] == p.c &&
        matchPattern(fill.getInputs()[0], m_Constant(&value)) &&
        value.getValue().isZero())
      p.zeroFill = fill;
  } else if (auto init = dyn_cast_or_null<linalg::GenericOp>(prev)) {
    if (initializesAllOf(init, p.c))
      p.initOp = init;
  }

  SmallVector<Operation *> chain{op};
  if (p.zeroFill)
    chain.push_back(p.zeroFill);
  if (p.initOp)
    chain.push_back(p.initOp);
  // Buffers the chain writes: the kernel reads none of them, and writes
  // none of the buffers it reads (threads would race).
  SmallVector<Value> written{p.c};
  Value current = p.c;
  Operation *last = op;
  while (auto g = dyn_cast_or_null<linalg::GenericOp>(nextRelevantOp(last))) {
    if (!g.hasPureBufferSemantics() || g.getNumDpsInits() != 1 ||
        g.getNumReductionLoops() != 0 ||
        g.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
        g.getStaticLoopRanges() != SmallVector<int64_t>(cType.getShape()))
      break;
    Value out = g.getDpsInitOperand(0)->get();
    auto outType = dyn_cast<MemRefType>(out.getType());
    if (!outType || !isIdentityStatic(outType) ||
        !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
      break;
    bool readsCurrent = false, ok = true;
    for (OpOperand &operand : g->getOpOperands()) {
      AffineMap map = g.getMatchingIndexingMap(&operand);
      if (operand.get() == current) {
        readsCurrent = true;
        ok &= map.isIdentity();
        continue;
      }
      // Other operands: not a buffer the chain writes, a plain projection;
      // or a scalar (the FP8 dequantization's 1 / (sa * sb) as
      // lowp-select-fp8-formats computes it), passed to the kernel as is.
      Type type = operand.get().getType();
      ok &= !llvm::is_contained(written, operand.get()) &&
            map.isProjectedPermutation() &&
            (isa<MemRefType>(type) ||
             (map.getNumResults() == 0 && type.isIntOrIndexOrFloat()));
    }
    // The payload: no value from outside but constants.
    g.getRegion().walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (!g.getRegion().isAncestor(v.getParentRegion()) &&
            !matchPattern(v, m_Constant()))
          ok = false;
    });
    // A payload that reads its output's old value (other than the value
    // so far, in place) would read what the kernel writes.
    if (out != current && !g.getRegionOutputArgs()[0].use_empty())
      ok = false;
    bool outIsOwnInput = llvm::any_of(g.getDpsInputOperands(), [&](OpOperand *in) {
      return in->get() == out && out != current;
    });
    if (!readsCurrent || !ok || outIsOwnInput ||
        llvm::is_contained(p.epilogueInputs, out))
      break;
    // The value so far must not be needed by anyone but this op (an
    // in-place op writes it again).
    SmallVector<Operation *> users(chain);
    users.push_back(g);
    if (out != current && !onlyUsedBy(current, users))
      break;
    if (out == current && current == p.c && !onlyUsedBy(current, users))
      break;
    for (OpOperand *in : g.getDpsInputOperands())
      if (in->get() != current &&
          !llvm::is_contained(p.epilogueInputs, in->get()))
        p.epilogueInputs.push_back(in->get());
    p.epilogue.push_back(g);
    chain.push_back(g);
    written.push_back(out);
    current = out;
    last = g;
  }
  p.out = current;
  // C's initializer reads none of what the kernel writes; its buffers are
  // kernel operands like the epilogue's.
  if (p.initOp) {
    bool readsWritten = llvm::any_of(p.initOp.getDpsInputs(), [&](Value in) {
      return llvm::is_contained(written, in);
    });
    if (readsWritten)
      p.initOp = {};
    else
      for (Value in : p.initOp.getDpsInputs())
        if (!llvm::is_contained(p.epilogueInputs, in))
          p.epilogueInputs.push_back(in);
  }
  // C itself must be dead after the chain unless it is what is stored.
  if (!p.epilogue.empty() && p.out != p.c) {
    SmallVector<Operation *> users(chain);
    if (!onlyUsedBy(p.c, users)) {
      p.epilogue.clear();
      p.epilogueInputs.clear();
      p.out = p.c;
    }
  }
}

/// Erases the contraction, its zero fill and epilogue ops (the kernel
/// computes them), then the temporaries only deallocations still use.
void mlir::lowp::gpu_gemm::eraseFusedOps(linalg::LinalgOp op,
                                         const GemmProblem &p) {
  SmallVector<Value> buffers{p.c};
  for (linalg::GenericOp g : llvm::reverse(p.epilogue)) {
    // In-place ops write the buffer their producer wrote: once each.
    if (!llvm::is_contained(buffers, g.getDpsInitOperand(0)->get()))
      buffers.push_back(g.getDpsInitOperand(0)->get());
    g->erase();
  }
  op->erase();
  if (p.zeroFill)
    p.zeroFill->erase();
  if (p.initOp)
    p.initOp->erase();
  for (Value buffer : buffers) {
    if (buffer == p.out || !buffer.getDefiningOp<memref::AllocOp>() ||
        !llvm::all_of(buffer.getUsers(),
                      [](Operation *u) { return isa<memref::DeallocOp>(u); }))
      continue;
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      user->erase();
    buffer.getDefiningOp()->erase();
  }
}
