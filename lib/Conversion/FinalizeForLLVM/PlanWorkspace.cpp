//===- PlanWorkspace.cpp - lowp-plan-workspace ----------------------------===//
//
// A function's fixed-size intermediates as views of one workspace at planned
// offsets, kept in a module global across calls: no malloc, free or fresh
// page per call or per loop iteration. Inside a parallel loop, an
// iteration's small buffers are views of one stack arena of that iteration.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPPLANWORKSPACE
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// Alignment of every buffer in the workspace (a cache line, the widest
/// vector): the kernels' allocations ask for it.
constexpr int64_t kMinAlignment = 64;
/// The largest stack arena of one parallel-loop iteration: well inside an
/// OpenMP worker's stack (libomp's default is 4 MiB on x86-64).
constexpr int64_t kMaxIterationArenaBytes = 256 << 10;

/// One buffer placed in the workspace. Its lifetime is [begin, end], the
/// positions in the function body of the ops holding its alloc and dealloc.
struct PlannedBuffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t bytes;
  int64_t alignment;
  unsigned begin, end;
  int64_t offset = -1;

  bool livesWith(const PlannedBuffer &other) const {
    return begin <= other.end && other.begin <= end;
  }
};
} // namespace

/// Ops whose regions run one at a time, on the calling thread, while the op
/// runs: a buffer allocated and freed inside them is dead whenever the op
/// holding it in the function body is not running.
static bool runsRegionsSequentially(Operation *op) {
  return isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp, affine::AffineForOp, affine::AffineIfOp,
             memref::AllocaScopeOp>(op);
}

/// Size in bytes of a buffer the workspace can hold, or nullopt.
static std::optional<int64_t> plannableBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  Type elem = type.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return type.getNumElements() * (elem.getIntOrFloatBitWidth() / 8);
}

/// The dealloc that frees `alloc` in its own block, when it is the only one
/// and the alloc sits in `body` or in regions of ops that run them
/// sequentially.
static memref::DeallocOp plannableDealloc(memref::AllocOp alloc, Block *body) {
  memref::DeallocOp dealloc;
  for (Operation *user : alloc->getUsers()) {
    auto d = dyn_cast<memref::DeallocOp>(user);
    if (!d)
      continue;
    if (dealloc || d->getBlock() != alloc->getBlock())
      return {};
    dealloc = d;
  }
  if (!dealloc)
    return {};
  if (alloc->getBlock() == body)
    return dealloc;
  for (Operation *parent = alloc->getParentOp();;
       parent = parent->getParentOp()) {
    if (!runsRegionsSequentially(parent))
      return {};
    if (parent->getBlock() == body)
      return dealloc;
  }
}

/// Offsets for `buffers`: largest first, each at the lowest aligned offset
/// that no placed buffer living at the same time overlaps. Returns the
/// workspace size.
static int64_t assignOffsets(MutableArrayRef<PlannedBuffer> buffers) {
  SmallVector<PlannedBuffer *> order;
  for (PlannedBuffer &b : buffers)
    order.push_back(&b);
  // Ties in program order (the pointers index one array).
  llvm::sort(order, [](PlannedBuffer *a, PlannedBuffer *b) {
    return a->bytes != b->bytes ? a->bytes > b->bytes : a < b;
  });
  int64_t size = 0;
  SmallVector<PlannedBuffer *> placed;
  for (PlannedBuffer *buffer : order) {
    SmallVector<PlannedBuffer *> neighbours;
    for (PlannedBuffer *other : placed)
      if (buffer->livesWith(*other))
        neighbours.push_back(other);
    llvm::sort(neighbours, [](PlannedBuffer *a, PlannedBuffer *b) {
      return a->offset < b->offset;
    });
    int64_t offset = 0;
    for (PlannedBuffer *other : neighbours) {
      if (offset + buffer->bytes <= other->offset)
        break;
      offset = std::max<int64_t>(
          offset, llvm::alignTo(other->offset + other->bytes,
                                buffer->alignment));
    }
    buffer->offset = offset;
    size = std::max(size, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return llvm::alignTo(size, kMinAlignment);
}

/// The buffers planned in `body` (a function's, or a parallel loop's) from
/// the allocs under `root`: freed in their own block, with only ops that
/// run their regions sequentially between them and `body`. A buffer that
/// is only freed is erased here.
static SmallVector<PlannedBuffer> collectBuffers(Operation *root,
                                                 Block *body) {
  DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(*body))
    position[&op] = i;
  SmallVector<PlannedBuffer> buffers;
  SmallVector<memref::AllocOp> deadAllocs;
  root->walk([&](memref::AllocOp alloc) {
    std::optional<int64_t> bytes = plannableBytes(alloc.getType());
    if (!bytes)
      return;
    memref::DeallocOp dealloc = plannableDealloc(alloc, body);
    if (!dealloc)
      return;
    if (alloc->hasOneUse()) {
      deadAllocs.push_back(alloc);
      return;
    }
    int64_t alignment =
        std::max<int64_t>(kMinAlignment, alloc.getAlignment().value_or(1));
    if (!llvm::isPowerOf2_64(alignment))
      return;
    buffers.push_back({alloc, dealloc, *bytes, alignment,
                       position[body->findAncestorOpInBlock(*alloc)],
                       position[body->findAncestorOpInBlock(*dealloc)]});
  });
  for (memref::AllocOp alloc : deadAllocs) {
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      user->erase();
    alloc->erase();
  }
  return buffers;
}

/// The alignment of storage holding `buffers`: the largest they ask for.
static int64_t storageAlignment(ArrayRef<PlannedBuffer> buffers) {
  int64_t alignment = kMinAlignment;
  for (const PlannedBuffer &b : buffers)
    alignment = std::max(alignment, b.alignment);
  return alignment;
}

/// Each planned buffer as a view of `storage` at its offset.
static void replaceByViews(MutableArrayRef<PlannedBuffer> buffers,
                           Value storage) {
  OpBuilder b(storage.getContext());
  for (PlannedBuffer &buffer : buffers) {
    b.setInsertionPoint(buffer.alloc);
    Location at = buffer.alloc.getLoc();
    Value offset = arith::ConstantIndexOp::create(b, at, buffer.offset);
    Value view = memref::ViewOp::create(b, at, buffer.alloc.getType(),
                                        storage, offset, ValueRange{});
    buffer.alloc.replaceAllUsesWith(view);
    buffer.dealloc->erase();
    buffer.alloc->erase();
  }
}

namespace {
struct LowpPlanWorkspacePass
    : lowp::impl::LowpPlanWorkspaceBase<LowpPlanWorkspacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      planFunction(func, symbols);
      func.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
        planIteration(loop);
        return WalkResult::skip();
      });
    }
  }

  /// One iteration of a parallel loop (threads=): its buffers as views of
  /// one stack arena, `memref.alloca` at the start of the body (scf-to-
  /// openmp scopes the body's allocas per iteration), instead of a malloc
  /// and free per buffer and iteration on every thread. The function's
  /// workspace cannot hold them: iterations run concurrently.
  void planIteration(scf::ParallelOp loop) {
    Block *body = loop.getBody();
    SmallVector<PlannedBuffer> buffers = collectBuffers(loop, body);
    // The largest stay allocations until the rest fits the arena.
    llvm::stable_sort(buffers, [](const PlannedBuffer &a,
                                  const PlannedBuffer &b) {
      return a.bytes < b.bytes;
    });
    int64_t size = 0;
    while (!buffers.empty() &&
           (size = assignOffsets(buffers)) > kMaxIterationArenaBytes)
      buffers.pop_back();
    if (buffers.empty())
      return;
    int64_t alignment = storageAlignment(buffers);
    OpBuilder b = OpBuilder::atBlockBegin(body);
    Value arena = memref::AllocaOp::create(
        b, loop.getLoc(), MemRefType::get({size}, b.getI8Type()),
        b.getI64IntegerAttr(alignment));
    replaceByViews(buffers, arena);
  }

  void planFunction(func::FuncOp func, SymbolTable &symbols) {
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block *body = &func.getBody().front();
    auto ret = dyn_cast<func::ReturnOp>(body->getTerminator());
    if (!ret)
      return;
    SmallVector<PlannedBuffer> buffers = collectBuffers(func, body);
    if (buffers.empty())
      return;

    int64_t size = assignOffsets(buffers);
    int64_t alignment = storageAlignment(buffers);
    Location loc = func.getLoc();
    OpBuilder b(func.getContext());
    auto wsType = MemRefType::get({size}, b.getI8Type());
    IntegerAttr alignAttr = b.getI64IntegerAttr(alignment);

    // The workspace: this call's own allocation, or the module's global
    // when no other call holds it.
    b.setInsertionPointToStart(body);
    Value workspace, taken, busy, zeroIndex, zero;
    if (staticStorage) {
      OpBuilder atModule(func);
      auto global = memref::GlobalOp::create(
          atModule, loc, ("__lowp_workspace_" + func.getSymName()).str(),
          atModule.getStringAttr("private"), wsType, atModule.getUnitAttr(),
          /*constant=*/false, alignAttr);
      symbols.insert(global);
      auto flagType = MemRefType::get({1}, b.getI32Type());
      auto flag = memref::GlobalOp::create(
          atModule, loc, (global.getSymName() + "_busy").str(),
          atModule.getStringAttr("private"), flagType,
          DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                                 b.getI32IntegerAttr(0)),
          /*constant=*/false, IntegerAttr());
      symbols.insert(flag);

      busy = memref::GetGlobalOp::create(b, loc, flagType, flag.getSymName());
      zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
      zero = arith::ConstantIntOp::create(b, loc, 0, 32);
      Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
      Value was = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign,
                                              one, busy, zeroIndex);
      taken = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, was,
                                    zero);
      auto select = scf::IfOp::create(
          b, loc, taken,
          [&](OpBuilder &then, Location l) {
            Value g = memref::GetGlobalOp::create(then, l, wsType,
                                                  global.getSymName());
            scf::YieldOp::create(then, l, g);
          },
          [&](OpBuilder &otherwise, Location l) {
            Value a = memref::AllocOp::create(otherwise, l, wsType,
                                              alignAttr);
            scf::YieldOp::create(otherwise, l, a);
          });
      workspace = select.getResult(0);
    } else {
      workspace = memref::AllocOp::create(b, loc, wsType, alignAttr);
    }

    replaceByViews(buffers, workspace);

    // Given back on return.
    b.setInsertionPoint(ret);
    if (staticStorage) {
      scf::IfOp::create(
          b, loc, taken,
          [&](OpBuilder &then, Location l) {
            memref::AtomicRMWOp::create(then, l, arith::AtomicRMWKind::assign,
                                        zero, busy, zeroIndex);
            scf::YieldOp::create(then, l);
          },
          [&](OpBuilder &otherwise, Location l) {
            memref::DeallocOp::create(otherwise, l, workspace);
            scf::YieldOp::create(otherwise, l);
          });
    } else {
      memref::DeallocOp::create(b, loc, workspace);
    }
  }
};
} // namespace
