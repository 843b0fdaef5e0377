//===- RowReductions.cpp - lowp-gpu-map-row-reductions --------------------===//
//
// Row reductions (softmax's max and sum, a norm's mean and variance) and the
// elementwise ops around them, bufferized, to one GPU kernel per group: a
// thread block per row, threads striding over the row, partials combined by
// gpu.subgroup_reduce and a shared-memory exchange between subgroups. The
// kernel is target-independent; the subgroup size comes from the capability
// table and lowp-gpu-lower-subgroup-reduce lowers the subgroup reductions
// for the chip (shuffles on NVIDIA, DPP on AMD).
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Support/Buffers.h"
#include "lowp/Support/Remarks.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPGPUMAPROWREDUCTIONS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// The gpu.subgroup_reduce kind of a combining op, if it has one.
std::optional<gpu::AllReduceOperation> getCombinerKind(Operation *op) {
  using K = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<K>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return K::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return K::MUL; })
      .Case<arith::MaximumFOp>([](auto) { return K::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return K::MINIMUMF; })
      .Case<arith::MaxNumFOp>([](auto) { return K::MAXNUMF; })
      .Case<arith::MinNumFOp>([](auto) { return K::MINNUMF; })
      .Case<arith::MaxSIOp>([](auto) { return K::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return K::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return K::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return K::MINUI; })
      .Case<arith::AndIOp>([](auto) { return K::AND; })
      .Case<arith::OrIOp>([](auto) { return K::OR; })
      .Case<arith::XOrIOp>([](auto) { return K::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

/// One output of a reduction: out = combiner(acc, contribution).
struct ReductionOutput {
  Operation *combiner;
  BlockArgument acc;
  gpu::AllReduceOperation kind;
  TypedAttr identity;
};

enum class MemberKind {
  RowScalar,      ///< all-parallel over the row dimensions only
  RowElementwise, ///< all-parallel over the row and more dimensions
  RowReduction,   ///< parallel row dimensions, then reduction dimensions
};

struct Member {
  linalg::LinalgOp op;
  MemberKind kind;
  SmallVector<ReductionOutput> outputs; ///< RowReduction only
};

/// Where `map` puts the row dimensions: the positions of its first `rows`
/// dimension results, which must be d0 .. d(rows-1) in order (constant
/// zeros, size-1 dimensions, may come between). None when they are not.
std::optional<SmallVector<unsigned>> getRowPositions(AffineMap map,
                                                     unsigned rows) {
  SmallVector<unsigned> positions;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    if (positions.size() == rows)
      break;
    if (isa<AffineConstantExpr>(e))
      continue;
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || d.getPosition() != positions.size())
      return std::nullopt;
    positions.push_back(i);
  }
  if (positions.size() != rows)
    return std::nullopt;
  return positions;
}

/// True when `map` reads one element per row: its results are d0 ..
/// d(rows-1) in order, with constant zeros between them (the size-1
/// dimensions of a keepdim reduction, as torch-mlir emits them).
bool isRowValueMap(AffineMap map, unsigned rows) {
  unsigned next = 0;
  for (AffineExpr e : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() != 0)
        return false;
      continue;
    }
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || d.getPosition() != next++)
      return false;
  }
  return next == rows;
}

/// What every member must be, whatever its kind: a bufferized linalg op with
/// static loop ranges, projected-permutation maps and a pure scalar body.
LogicalResult checkStructure(linalg::LinalgOp op, std::string &whyNot) {
  if (!op.hasPureBufferSemantics()) {
    whyNot = "not bufferized";
    return failure();
  }
  for (int64_t size : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(size)) {
      whyNot = "dynamic shapes";
      return failure();
    }
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true)) {
      whyNot = "an operand's indexing map is not a projected permutation";
      return failure();
    }
  for (Value v : op->getOperands())
    if (!isa<MemRefType>(v.getType()) && !v.getType().isIntOrIndexOrFloat()) {
      whyNot = "an operand is neither a buffer nor a scalar";
      return failure();
    }
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!isMemoryEffectFree(&inner) || inner.getNumRegions() != 0) {
      whyNot = "the body has memory effects or regions";
      return failure();
    }
  return success();
}

/// The number of leading parallel loops of a row reduction and its outputs'
/// combiners, or the reason it is not one.
FailureOr<unsigned> matchRowReduction(linalg::LinalgOp op,
                                      SmallVectorImpl<ReductionOutput> &outs,
                                      std::string &whyNot) {
  if (failed(checkStructure(op, whyNot)))
    return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned rows = 0;
  while (rows < iterators.size() &&
         iterators[rows] == utils::IteratorType::parallel)
    ++rows;
  for (unsigned i = rows; i < iterators.size(); ++i)
    if (iterators[i] != utils::IteratorType::reduction) {
      whyNot = "its reduction loops are not the innermost ones";
      return failure();
    }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!isRowValueMap(map, rows)) {
      whyNot = "an output is not indexed by the leading parallel loops";
      return failure();
    }
  }
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  for (OpOperand &init : op.getDpsInitsMutable()) {
    BlockArgument acc = op.getMatchingBlockArgument(&init);
    Value yielded = yield.getOperand(init.getOperandNumber() -
                                     op.getNumDpsInputs());
    Operation *combiner = yielded.getDefiningOp();
    std::optional<gpu::AllReduceOperation> kind =
        combiner ? getCombinerKind(combiner) : std::nullopt;
    if (!kind || combiner->getBlock() != body || !acc.hasOneUse() ||
        !yielded.hasOneUse() ||
        (combiner->getOperand(0) == acc) == (combiner->getOperand(1) == acc)) {
      whyNot = "its body is not an associative combine (add, mul, min, max, "
               "and, or, xor) of the accumulator with a value computed "
               "without it";
      return failure();
    }
    Type type = acc.getType();
    if (type.getIntOrFloatBitWidth() > 32) {
      whyNot = "its accumulator is wider than 32 bits";
      return failure();
    }
    std::optional<TypedAttr> identity = arith::getNeutralElement(combiner);
    if (!identity) {
      whyNot = "its combiner has no neutral element";
      return failure();
    }
    outs.push_back({combiner, acc, *kind, *identity});
  }
  return rows;
}

/// How `op` runs in a row kernel whose row dimensions have `rowShape`, or
/// failure when it cannot.
std::optional<Member> classifyMember(linalg::LinalgOp op,
                                     ArrayRef<int64_t> rowShape) {
  std::string ignored;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (linalg::isaContractionOpInterface(op) ||
      linalg::isaConvolutionOpInterface(op))
    return std::nullopt;
  if (op.getNumReductionLoops() != 0) {
    Member m{op, MemberKind::RowReduction, {}};
    FailureOr<unsigned> rows = matchRowReduction(op, m.outputs, ignored);
    if (failed(rows) || *rows != rowShape.size() ||
        ArrayRef<int64_t>(ranges).take_front(*rows) != rowShape)
      return std::nullopt;
    return m;
  }
  if (failed(checkStructure(op, ignored)) || ranges.size() < rowShape.size() ||
      ArrayRef<int64_t>(ranges).take_front(rowShape.size()) != rowShape)
    return std::nullopt;
  // Every element is written once: outputs index every loop.
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isPermutation())
      return std::nullopt;
  return Member{op,
                ranges.size() == rowShape.size() ? MemberKind::RowScalar
                                                 : MemberKind::RowElementwise,
                {}};
}

/// Reductions this pass is about: not contractions or convolutions (the
/// matrix kernels' business).
bool isRowReductionCandidate(linalg::LinalgOp op) {
  return op.getNumReductionLoops() != 0 &&
         !linalg::isaContractionOpInterface(op) &&
         !linalg::isaConvolutionOpInterface(op);
}

/// Ops a group may step over: they touch no buffer a member could see.
bool isTransparent(Operation *op) {
  return isa<memref::AllocOp, memref::AllocaOp>(op) ||
         (isMemoryEffectFree(op) && op->getNumRegions() == 0);
}

/// Roots of the buffers `op` reads and writes.
void collectAccesses(linalg::LinalgOp op, SmallPtrSetImpl<Value> &reads,
                     SmallPtrSetImpl<Value> &writes) {
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()))
      reads.insert(getRootBuffer(in->get()));
  for (OpOperand &init : op.getDpsInitsMutable()) {
    writes.insert(getRootBuffer(init.get()));
    if (op.payloadUsesValueFromOperand(&init))
      reads.insert(getRootBuffer(init.get()));
  }
}

struct RowGroup {
  SmallVector<int64_t> rowShape;
  SmallVector<Member> members; ///< in block order
};

/// Groups the row reductions of `block` with the ops they share rows with.
/// Reductions left out are reported in `rejected` with the reason.
SmallVector<RowGroup>
findRowGroups(Block &block,
              SmallVectorImpl<std::pair<Operation *, std::string>> &rejected) {
  SmallVector<RowGroup> groups;
  // Runs of ops a kernel could span: eligible linalg ops and transparent
  // ops; anything else (a launch, a call, a copy) ends a run.
  SmallVector<SmallVector<Operation *>> runs(1);
  for (Operation &op : block) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
    std::string whyNot;
    if (linalgOp && succeeded(checkStructure(linalgOp, whyNot))) {
      runs.back().push_back(&op);
      continue;
    }
    if (linalgOp && isRowReductionCandidate(linalgOp))
      rejected.push_back({&op, whyNot});
    if (!isTransparent(&op) && !runs.back().empty())
      runs.emplace_back();
  }

  DenseSet<Operation *> assigned;
  for (ArrayRef<Operation *> run : runs) {
    DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(run))
      position[op] = i;
    for (Operation *seedOp : run) {
      auto seed = cast<linalg::LinalgOp>(seedOp);
      if (assigned.contains(seedOp) || !isRowReductionCandidate(seed))
        continue;
      SmallVector<ReductionOutput> outs;
      std::string whyNot;
      FailureOr<unsigned> rows = matchRowReduction(seed, outs, whyNot);
      if (failed(rows)) {
        rejected.push_back({seedOp, whyNot});
        continue;
      }
      SmallVector<int64_t> rowShape(
          ArrayRef<int64_t>(seed.getStaticLoopRanges()).take_front(*rows));
      int64_t rowCount = 1;
      for (int64_t size : rowShape)
        rowCount *= size;
      if (rowCount > std::numeric_limits<int32_t>::max()) {
        rejected.push_back({seedOp, "more rows than a grid has blocks"});
        continue;
      }

      // Grow the group by every op of the run that shares a written buffer
      // with it (a fill of an accumulator, a producer, a consumer).
      llvm::SetVector<Operation *> members;
      members.insert(seedOp);
      SmallPtrSet<Value, 8> reads, writes;
      collectAccesses(seed, reads, writes);
      for (bool grown = true; grown;) {
        grown = false;
        for (Operation *candidate : run) {
          if (members.contains(candidate) || assigned.contains(candidate))
            continue;
          auto op = cast<linalg::LinalgOp>(candidate);
          SmallPtrSet<Value, 8> r, w;
          collectAccesses(op, r, w);
          bool connected =
              llvm::any_of(r, [&](Value v) { return writes.contains(v); }) ||
              llvm::any_of(w, [&](Value v) {
                return writes.contains(v) || reads.contains(v);
              });
          if (!connected || !classifyMember(op, rowShape))
            continue;
          members.insert(candidate);
          reads.insert(r.begin(), r.end());
          writes.insert(w.begin(), w.end());
          grown = true;
        }
      }
      SmallVector<Operation *> ordered(members.begin(), members.end());
      llvm::sort(ordered, [&](Operation *a, Operation *b) {
        return position[a] < position[b];
      });

      // The kernel runs where the last member was: every op of the run
      // between two members must be independent of the members before it.
      // An op that is not splits the group: before the seed, the members
      // so far are dropped (a fill of a buffer the op then writes); after
      // it, the group ends there.
      auto keepInOrder = [&](ArrayRef<Operation *> ordered) {
        SmallPtrSet<Value, 8> doneReads, doneWrites;
        SmallVector<Operation *> kept;
        bool seedKept = false;
        unsigned next = 0;
        for (unsigned i = position[ordered.front()];
             i < run.size() && next < ordered.size(); ++i) {
          auto op = cast<linalg::LinalgOp>(run[i]);
          SmallPtrSet<Value, 8> r, w;
          collectAccesses(op, r, w);
          if (run[i] == ordered[next]) {
            seedKept |= run[i] == seedOp;
            kept.push_back(run[i]);
            doneReads.insert(r.begin(), r.end());
            doneWrites.insert(w.begin(), w.end());
            ++next;
            continue;
          }
          bool conflicts =
              llvm::any_of(r,
                           [&](Value v) { return doneWrites.contains(v); }) ||
              llvm::any_of(w, [&](Value v) {
                return doneWrites.contains(v) || doneReads.contains(v);
              });
          if (conflicts && seedKept)
            break;
          if (conflicts) {
            kept.clear();
            doneReads.clear();
            doneWrites.clear();
          }
        }
        return kept;
      };
      // Buffers written in the kernel are accessed only within the row and
      // through one view each (no aliasing through another view): the first
      // member that does otherwise leaves the group (the seed: no kernel).
      auto firstNonLocal = [&](ArrayRef<Operation *> kept) -> Operation * {
        SmallPtrSet<Value, 8> written;
        for (Operation *op : kept)
          for (Value v : cast<linalg::LinalgOp>(op).getDpsInits())
            written.insert(getRootBuffer(v));
        // Every access to such a buffer puts the row dimensions at the
        // same positions, so an element belongs to one row for all.
        DenseMap<Value, std::pair<Value, SmallVector<unsigned>>> viewOf;
        for (Operation *op : kept) {
          auto linalgOp = cast<linalg::LinalgOp>(op);
          for (OpOperand &operand : op->getOpOperands()) {
            if (!isa<MemRefType>(operand.get().getType()))
              continue;
            Value root = getRootBuffer(operand.get());
            if (!written.contains(root))
              continue;
            std::optional<SmallVector<unsigned>> positions = getRowPositions(
                linalgOp.getMatchingIndexingMap(&operand), rowShape.size());
            if (!positions)
              return op;
            auto [it, inserted] =
                viewOf.try_emplace(root, operand.get(), *positions);
            if (it->second.first != operand.get() ||
                it->second.second != *positions)
              return op;
          }
        }
        return nullptr;
      };
      SmallVector<Operation *> kept = keepInOrder(ordered);
      std::string failure;
      while (failure.empty()) {
        if (!llvm::is_contained(kept, seedOp)) {
          failure = "an op between it and the ops it shares buffers with "
                    "depends on them";
          break;
        }
        Operation *offender = firstNonLocal(kept);
        if (!offender)
          break;
        if (offender == seedOp) {
          failure = "the ops around it read or write its rows' buffers "
                    "outside the row or through another view";
          break;
        }
        llvm::erase(kept, offender);
        kept = keepInOrder(kept);
      }
      if (!failure.empty()) {
        rejected.push_back({seedOp, failure});
        continue;
      }

      RowGroup group{rowShape, {}};
      for (Operation *op : kept) {
        group.members.push_back(
            *classifyMember(cast<linalg::LinalgOp>(op), rowShape));
        assigned.insert(op);
      }
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

/// Emits one group as a gpu.launch with a thread block per row.
class RowKernelEmitter {
public:
  RowKernelEmitter(RowGroup &group, unsigned subgroupSize,
                   unsigned maxThreads, bool emulate)
      : group(group), subgroupSize(subgroupSize), emulate(emulate) {
    int64_t widest = 1;
    for (Member &m : group.members)
      widest = std::max(widest, rowElements(m.op));
    int64_t limit = std::max<int64_t>(subgroupSize, maxThreads / subgroupSize *
                                                        subgroupSize);
    // The second level reduces one value per subgroup in one subgroup.
    limit = std::min<int64_t>(limit, int64_t(subgroupSize) * subgroupSize);
    threads = std::min<int64_t>(
        limit, llvm::divideCeil(widest, subgroupSize) * subgroupSize);
  }

  /// The kernel: a gpu.launch, or with `emulate` the same kernel as host
  /// loops over rows and threads (see emitEmulated).
  Operation *emit(OpBuilder &b, StringRef kernelName);

private:
  /// Elements of one row of `op` (1 for ops over the rows alone).
  int64_t rowElements(linalg::LinalgOp op) const {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t n = 1;
    for (int64_t size : ArrayRef(ranges).drop_front(group.rowShape.size()))
      n *= size;
    return n;
  }
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// Multi-index of `linear` in `shape` (row-major).
  SmallVector<Value> delinearize(OpBuilder &b, Value linear,
                                 ArrayRef<int64_t> shape);
  /// Maps a member's body arguments to loaded, forwarded or scalar values.
  void mapOperands(OpBuilder &b, linalg::LinalgOp op, ValueRange ivs,
                   IRMapping &mapping);
  /// Clones a member's body (but its terminator and `skip`) at `b`, its
  /// `linalg.index` ops replaced by the kernel's loop indices `ivs`: the
  /// body no longer sits in a linalg op that could answer them.
  void cloneBody(OpBuilder &b, linalg::LinalgOp op, ValueRange ivs,
                 IRMapping &mapping,
                 const SmallPtrSetImpl<Operation *> *skip = nullptr);
  /// A member's operands mapped and its body cloned at the loop indices
  /// `ivs`: the values it yields, one per init.
  SmallVector<Value> emitPayload(OpBuilder &b, linalg::LinalgOp op,
                                 ValueRange ivs);
  Value load(OpBuilder &b, Value buffer, AffineMap map, ValueRange ivs);
  void store(OpBuilder &b, Value value, Value buffer, AffineMap map,
             ValueRange ivs);
  /// A barrier when `op` reads what the kernel wrote since the last one, or
  /// writes what it read or wrote.
  void syncBefore(OpBuilder &b, linalg::LinalgOp op);
  /// Records `op`'s accesses again (after a barrier inside it).
  void recordAccesses(linalg::LinalgOp op);
  void accesses(linalg::LinalgOp op, SmallPtrSetImpl<Value> &reads,
                SmallPtrSetImpl<Value> &writes);
  /// Stores of a per-row value (thread 0), unless nothing outside the
  /// kernel reads the buffer.
  void storeRowValue(OpBuilder &b, Value value, OpOperand &init);
  Value blockReduce(OpBuilder &b, Value partial, const ReductionOutput &out);
  /// The same two-level tree on the threads' partials in `lanes`
  /// (emulation): the butterfly of the shuffle lowering in each subgroup,
  /// lane 0's values exchanged, the butterfly again.
  Value emulatedBlockReduce(OpBuilder &b, Value lanes,
                            const ReductionOutput &out);
  /// Emits `perThread` once on the GPU (for the thread `tid`), or in a loop
  /// over all threads when emulating.
  void forEachThread(OpBuilder &b, function_ref<void(OpBuilder &)> perThread);
  void emitMembers(OpBuilder &b);

  void emitRowScalar(OpBuilder &b, Member &m);
  void emitRowElementwise(OpBuilder &b, Member &m);
  void emitRowReduction(OpBuilder &b, Member &m);

  RowGroup &group;
  unsigned subgroupSize;
  bool emulate;
  int64_t threads = 0;
  /// Emulation: per reduction output, a buffer of one partial per thread,
  /// and scratch for the butterfly (allocated before the row loop).
  SmallVector<std::pair<Value, Value>> laneBuffers;
  unsigned nextLanes = 0;
  Location loc = UnknownLoc();
  Value tid;
  SmallVector<Value> rowIvs;
  /// Per-row values by the buffer they would be read from.
  DenseMap<Value, Value> rowValues;
  /// Buffers that only the kernel reads through rowValues: never stored.
  DenseSet<Value> privateRowBuffers;
  SmallPtrSet<Value, 8> readSinceBarrier, writtenSinceBarrier;
  ArrayRef<BlockArgument> sharedBuffers;
  unsigned nextShared = 0;
};

SmallVector<Value> RowKernelEmitter::delinearize(OpBuilder &b, Value linear,
                                                 ArrayRef<int64_t> shape) {
  SmallVector<Value> ivs(shape.size());
  for (int i = int(shape.size()) - 1; i >= 0; --i) {
    if (i == 0) {
      ivs[i] = linear;
      break;
    }
    Value size = index(b, shape[i]);
    ivs[i] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return ivs;
}

Value RowKernelEmitter::load(OpBuilder &b, Value buffer, AffineMap map,
                             ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(isa<AffineDimExpr>(e)
                          ? ivs[cast<AffineDimExpr>(e).getPosition()]
                          : index(b, 0));
  return memref::LoadOp::create(b, loc, buffer, indices);
}

void RowKernelEmitter::store(OpBuilder &b, Value value, Value buffer,
                             AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(isa<AffineDimExpr>(e)
                          ? ivs[cast<AffineDimExpr>(e).getPosition()]
                          : index(b, 0));
  memref::StoreOp::create(b, loc, value, buffer, indices);
}

/// True when the per-row value of `operand` can be taken from a register.
static bool isRowValueAccess(linalg::LinalgOp op, OpOperand &operand,
                             unsigned rows) {
  return isRowValueMap(op.getMatchingIndexingMap(&operand), rows);
}

void RowKernelEmitter::mapOperands(OpBuilder &b, linalg::LinalgOp op,
                                   ValueRange ivs, IRMapping &mapping) {
  unsigned rows = group.rowShape.size();
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    Value v = operand.get();
    if (!isa<MemRefType>(v.getType())) {
      mapping.map(arg, v);
      continue;
    }
    auto known = rowValues.find(v);
    if (known != rowValues.end() && isRowValueAccess(op, operand, rows)) {
      mapping.map(arg, known->second);
      continue;
    }
    mapping.map(arg, load(b, v, op.getMatchingIndexingMap(&operand), ivs));
  }
}

void RowKernelEmitter::cloneBody(OpBuilder &b, linalg::LinalgOp op,
                                 ValueRange ivs, IRMapping &mapping,
                                 const SmallPtrSetImpl<Operation *> *skip) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (skip && skip->contains(&inner))
      continue;
    if (auto indexOp = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(indexOp.getResult(), ivs[indexOp.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
}

SmallVector<Value> RowKernelEmitter::emitPayload(OpBuilder &b,
                                                 linalg::LinalgOp op,
                                                 ValueRange ivs) {
  IRMapping mapping;
  mapOperands(b, op, ivs, mapping);
  cloneBody(b, op, ivs, mapping);
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  return llvm::map_to_vector(yield.getOperands(), [&](Value v) {
    return mapping.lookupOrDefault(v);
  });
}

void RowKernelEmitter::accesses(linalg::LinalgOp op,
                                SmallPtrSetImpl<Value> &reads,
                                SmallPtrSetImpl<Value> &writes) {
  unsigned rows = group.rowShape.size();
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (!isa<MemRefType>(v.getType()))
      continue;
    bool isInit = op.isDpsInit(&operand);
    bool readsMemory =
        (!isInit || op.payloadUsesValueFromOperand(&operand)) &&
        !(rowValues.count(v) && isRowValueAccess(op, operand, rows));
    if (readsMemory)
      reads.insert(getRootBuffer(v));
    if (isInit && !privateRowBuffers.contains(v))
      writes.insert(getRootBuffer(v));
  }
}

void RowKernelEmitter::recordAccesses(linalg::LinalgOp op) {
  SmallPtrSet<Value, 8> reads, writes;
  accesses(op, reads, writes);
  readSinceBarrier.insert(reads.begin(), reads.end());
  writtenSinceBarrier.insert(writes.begin(), writes.end());
}

void RowKernelEmitter::syncBefore(OpBuilder &b, linalg::LinalgOp op) {
  SmallPtrSet<Value, 8> reads, writes;
  accesses(op, reads, writes);
  bool hazard =
      llvm::any_of(reads,
                   [&](Value v) { return writtenSinceBarrier.contains(v); }) ||
      llvm::any_of(writes, [&](Value v) {
        return writtenSinceBarrier.contains(v) || readSinceBarrier.contains(v);
      });
  if (hazard) {
    if (!emulate)
      gpu::BarrierOp::create(b, loc);
    readSinceBarrier.clear();
    writtenSinceBarrier.clear();
  }
  readSinceBarrier.insert(reads.begin(), reads.end());
  writtenSinceBarrier.insert(writes.begin(), writes.end());
}

void RowKernelEmitter::storeRowValue(OpBuilder &b, Value value,
                                     OpOperand &init) {
  auto op = cast<linalg::LinalgOp>(init.getOwner());
  Value buffer = init.get();
  if (isRowValueAccess(op, init, group.rowShape.size()))
    rowValues[buffer] = value;
  if (privateRowBuffers.contains(buffer))
    return;
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                        index(b, 0));
  auto ifOp = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  store(b, value, buffer, op.getMatchingIndexingMap(&init), rowIvs);
}

Value RowKernelEmitter::blockReduce(OpBuilder &b, Value partial,
                                    const ReductionOutput &out) {
  Value total = gpu::SubgroupReduceOp::create(b, loc, partial, out.kind,
                                              /*uniform=*/true);
  int64_t subgroups = threads / subgroupSize;
  if (subgroups == 1)
    return total;
  // Lane 0 of each subgroup leaves its subgroup's value in shared memory;
  // after the barrier every subgroup reduces those values again, so every
  // thread holds the row's value (no broadcast needed). Each reduction has
  // its own buffer, so no second barrier guards its reuse.
  Value shared = sharedBuffers[nextShared++];
  Value size = index(b, subgroupSize);
  Value lane = arith::RemUIOp::create(b, loc, tid, size);
  Value subgroup = arith::DivUIOp::create(b, loc, tid, size);
  Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        index(b, 0));
  auto ifOp = scf::IfOp::create(b, loc, isLane0, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, total, shared, subgroup);
  }
  gpu::BarrierOp::create(b, loc);
  readSinceBarrier.clear();
  writtenSinceBarrier.clear();
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        lane, index(b, subgroups));
  Value clamped = arith::MinUIOp::create(b, loc, lane, index(b, subgroups - 1));
  Value mine = memref::LoadOp::create(b, loc, shared, clamped);
  Value identity = arith::ConstantOp::create(b, loc, out.identity);
  Value value = arith::SelectOp::create(b, loc, inRange, mine, identity);
  return gpu::SubgroupReduceOp::create(b, loc, value, out.kind,
                                       /*uniform=*/true);
}

void RowKernelEmitter::emitRowScalar(OpBuilder &b, Member &m) {
  syncBefore(b, m.op);
  SmallVector<Value> results = emitPayload(b, m.op, rowIvs);
  for (OpOperand &init : m.op.getDpsInitsMutable())
    storeRowValue(
        b, results[init.getOperandNumber() - m.op.getNumDpsInputs()], init);
}

void RowKernelEmitter::emitRowElementwise(OpBuilder &b, Member &m) {
  syncBefore(b, m.op);
  for (OpOperand &init : m.op.getDpsInitsMutable())
    rowValues.erase(init.get());
  forEachThread(b, [&](OpBuilder &b) {
  SmallVector<int64_t> ranges = m.op.getStaticLoopRanges();
  auto loop = scf::ForOp::create(b, loc, tid, index(b, rowElements(m.op)),
                                 index(b, threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> ivs(rowIvs);
  llvm::append_range(ivs, delinearize(b, loop.getInductionVar(),
                                      ArrayRef(ranges).drop_front(rowIvs.size())));
  SmallVector<Value> results = emitPayload(b, m.op, ivs);
  for (OpOperand &init : m.op.getDpsInitsMutable())
    store(b, results[init.getOperandNumber() - m.op.getNumDpsInputs()],
          init.get(), m.op.getMatchingIndexingMap(&init), ivs);
  });
}

void RowKernelEmitter::emitRowReduction(OpBuilder &b, Member &m) {
  syncBefore(b, m.op);
  SmallVector<int64_t> ranges = m.op.getStaticLoopRanges();
  SmallVector<Value> identities;
  for (const ReductionOutput &out : m.outputs)
    identities.push_back(arith::ConstantOp::create(b, loc, out.identity));
  // Each thread folds its elements (r = tid, tid + threads, ...) into
  // partials that start at the combiners' identities.
  SmallVector<Value> partials;
  forEachThread(b, [&](OpBuilder &b) {
  auto loop = scf::ForOp::create(b, loc, tid, index(b, rowElements(m.op)),
                                 index(b, threads), identities);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> ivs(rowIvs);
    llvm::append_range(ivs, delinearize(b, loop.getInductionVar(),
                                        ArrayRef(ranges).drop_front(rowIvs.size())));
    IRMapping mapping;
    // Accumulators are used only by their combiners, mapped below.
    for (OpOperand *in : m.op.getDpsInputOperands()) {
      BlockArgument arg = m.op.getMatchingBlockArgument(in);
      if (arg.use_empty())
        continue;
      Value v = in->get();
      auto known = rowValues.find(v);
      if (!isa<MemRefType>(v.getType()))
        mapping.map(arg, v);
      else if (known != rowValues.end() &&
               isRowValueAccess(m.op, *in, rowIvs.size()))
        mapping.map(arg, known->second);
      else
        mapping.map(arg, load(b, v, m.op.getMatchingIndexingMap(in), ivs));
    }
    SmallPtrSet<Operation *, 4> combiners;
    for (auto [out, partial] :
         llvm::zip(m.outputs, loop.getRegionIterArgs())) {
      combiners.insert(out.combiner);
      mapping.map(out.acc, partial);
    }
    cloneBody(b, m.op, ivs, mapping, &combiners);
    SmallVector<Value> next;
    for (const ReductionOutput &out : m.outputs)
      next.push_back(b.clone(*out.combiner, mapping)->getResult(0));
    scf::YieldOp::create(b, loc, next);
  }
  if (!emulate) {
    partials.assign(loop.getResults().begin(), loop.getResults().end());
    return;
  }
  for (auto [i, result] : llvm::enumerate(loop.getResults()))
    memref::StoreOp::create(b, loc, result, laneBuffers[nextLanes + i].first,
                            tid);
  });
  for (auto [i, out] : llvm::enumerate(m.outputs)) {
    Value total =
        emulate ? emulatedBlockReduce(b, laneBuffers[nextLanes++].first, out)
                : blockReduce(b, partials[i], out);
    // The row's value folds into the accumulator's initial value, as the
    // sequential loop would (up to reassociation).
    OpOperand &init = m.op.getDpsInitsMutable()[i];
    Value initial;
    auto known = rowValues.find(init.get());
    if (known != rowValues.end())
      initial = known->second;
    else
      initial = load(b, init.get(), m.op.getMatchingIndexingMap(&init), rowIvs);
    IRMapping mapping;
    Value contribution = out.combiner->getOperand(0) == out.acc
                             ? out.combiner->getOperand(1)
                             : out.combiner->getOperand(0);
    mapping.map(out.acc, initial);
    mapping.map(contribution, total);
    storeRowValue(b, b.clone(*out.combiner, mapping)->getResult(0), init);
  }
  recordAccesses(m.op);
}

Operation *RowKernelEmitter::emit(OpBuilder &b, StringRef kernelName) {
  loc = group.members.back().op.getLoc();
  int64_t rows = 1;
  for (int64_t size : group.rowShape)
    rows *= size;

  // Per-row buffers written and read only in the kernel, through the row's
  // own element: kept in registers, never stored.
  DenseSet<Operation *> memberOps;
  for (Member &m : group.members)
    memberOps.insert(m.op);
  for (Member &m : group.members) {
    if (m.kind == MemberKind::RowElementwise)
      continue;
    for (OpOperand &init : m.op.getDpsInitsMutable()) {
      Value buffer = init.get();
      if (!buffer.getDefiningOp<memref::AllocOp>() ||
          !isRowValueAccess(m.op, init, group.rowShape.size()))
        continue;
      bool onlyRowReads = llvm::all_of(buffer.getUses(), [&](OpOperand &use) {
        if (isa<memref::DeallocOp>(use.getOwner()))
          return true;
        auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
        return user && memberOps.contains(use.getOwner()) &&
               isRowValueAccess(user, use, group.rowShape.size());
      });
      if (onlyRowReads)
        privateRowBuffers.insert(buffer);
    }
  }

  if (emulate) {
    // One thread's values of each reduction output, and butterfly scratch.
    SmallVector<Value> scratch;
    for (Member &m : group.members)
      for (const ReductionOutput &out : m.outputs) {
        auto type = MemRefType::get({threads}, out.acc.getType());
        laneBuffers.push_back({memref::AllocOp::create(b, loc, type),
                               memref::AllocOp::create(b, loc, type)});
      }
    auto rowLoop = scf::ForOp::create(b, loc, index(b, 0), index(b, rows),
                                      index(b, 1));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rowLoop.getBody());
      rowIvs = delinearize(b, rowLoop.getInductionVar(), group.rowShape);
      // Uniform code runs as thread 0 (its stores included).
      tid = index(b, 0);
      emitMembers(b);
    }
    for (auto [lanes, tmp] : laneBuffers) {
      memref::DeallocOp::create(b, loc, lanes);
      memref::DeallocOp::create(b, loc, tmp);
    }
    return rowLoop;
  }

  SmallVector<Type> sharedTypes;
  if (threads > subgroupSize) {
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    for (Member &m : group.members)
      for (const ReductionOutput &out : m.outputs)
        sharedTypes.push_back(MemRefType::get({threads / subgroupSize},
                                              out.acc.getType(),
                                              MemRefLayoutAttrInterface(),
                                              workgroup));
  }
  Value one = index(b, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, index(b, rows), one, one, index(b, threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, sharedTypes);
  launch.setModule(kernelName);
  launch.setFunction(kernelName);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  tid = launch.getThreadIds().x;
  sharedBuffers = launch.getWorkgroupAttributions();
  rowIvs = delinearize(b, launch.getBlockIds().x, group.rowShape);
  emitMembers(b);
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

void RowKernelEmitter::emitMembers(OpBuilder &b) {
  for (Member &m : group.members) {
    switch (m.kind) {
    case MemberKind::RowScalar:
      emitRowScalar(b, m);
      break;
    case MemberKind::RowElementwise:
      emitRowElementwise(b, m);
      break;
    case MemberKind::RowReduction:
      emitRowReduction(b, m);
      break;
    }
  }
}

void RowKernelEmitter::forEachThread(
    OpBuilder &b, function_ref<void(OpBuilder &)> perThread) {
  if (!emulate)
    return perThread(b);
  Value uniform = tid;
  auto threadLoop = scf::ForOp::create(b, loc, index(b, 0), index(b, threads),
                                       index(b, 1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(threadLoop.getBody());
    tid = threadLoop.getInductionVar();
    perThread(b);
  }
  tid = uniform;
}

Value RowKernelEmitter::emulatedBlockReduce(OpBuilder &b, Value lanes,
                                            const ReductionOutput &out) {
  Value tmp = laneBuffers[nextLanes - 1].second;
  Value contribution = out.combiner->getOperand(0) == out.acc
                           ? out.combiner->getOperand(1)
                           : out.combiner->getOperand(0);
  auto combine = [&](OpBuilder &b, Value mine, Value other) {
    IRMapping mapping;
    mapping.map(out.acc, mine);
    mapping.map(contribution, other);
    return b.clone(*out.combiner, mapping)->getResult(0);
  };
  // gpu.shuffle xor with offsets 1, 2, ..., subgroupSize / 2 over the
  // first `count` lanes of `values`, each lane combining its value with
  // the shuffled one (as the upstream lowering to shuffles does).
  auto butterfly = [&](OpBuilder &b, Value values, int64_t count) {
    for (int64_t offset = 1; offset < subgroupSize; offset *= 2) {
      auto loop = scf::ForOp::create(b, loc, index(b, 0), index(b, count),
                                     index(b, 1));
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value lane = loop.getInductionVar();
        Value partner = arith::XOrIOp::create(b, loc, lane, index(b, offset));
        Value mine = memref::LoadOp::create(b, loc, values, lane);
        Value other = memref::LoadOp::create(b, loc, values, partner);
        memref::StoreOp::create(b, loc, combine(b, mine, other), tmp, lane);
      }
      memref::CopyOp::create(b, loc, tmp, values);
    }
  };
  butterfly(b, lanes, threads);
  int64_t subgroups = threads / subgroupSize;
  if (subgroups == 1)
    return memref::LoadOp::create(b, loc, lanes, index(b, 0));
  // Lane 0 of subgroup w leaves its value in "shared memory" (slot w of
  // `lanes`' first subgroup, read before it is overwritten: slots are
  // copied to the scratch first); lanes past the subgroup count take the
  // identity.
  auto gather = scf::ForOp::create(b, loc, index(b, 0), index(b, subgroupSize),
                                   index(b, 1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(gather.getBody());
    Value lane = gather.getInductionVar();
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          lane, index(b, subgroups));
    Value clamped =
        arith::MinUIOp::create(b, loc, lane, index(b, subgroups - 1));
    Value slot = arith::MulIOp::create(b, loc, clamped, index(b, subgroupSize));
    Value value = memref::LoadOp::create(b, loc, lanes, slot);
    Value identity = arith::ConstantOp::create(b, loc, out.identity);
    memref::StoreOp::create(
        b, loc, arith::SelectOp::create(b, loc, inRange, value, identity), tmp,
        lane);
  }
  // The second butterfly runs in one subgroup: its lanes go back to the
  // first subgroup's slots of `lanes`.
  auto back = scf::ForOp::create(b, loc, index(b, 0), index(b, subgroupSize),
                                 index(b, 1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(back.getBody());
    Value lane = back.getInductionVar();
    memref::StoreOp::create(b, loc,
                            memref::LoadOp::create(b, loc, tmp, lane), lanes,
                            lane);
  }
  butterfly(b, lanes, subgroupSize);
  return memref::LoadOp::create(b, loc, lanes, index(b, 0));
}

struct LowpGPUMapRowReductionsPass
    : lowp::impl::LowpGPUMapRowReductionsBase<LowpGPUMapRowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    FailureOr<const TargetInfo *> resolved = resolveTarget(root, target);
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *info = *resolved;
    if (!info || !info->gpu) {
      root->emitError() << "lowp-gpu-map-row-reductions needs a GPU of the "
                           "capability table (target=sm_XX or gfxXXX, or a "
                           "lowp.target)"
                        << (info ? ("; '" + info->name + "' has no subgroups")
                                       .str()
                                 : std::string());
      return signalPassFailure();
    }

    SmallVector<Block *> blocks;
    root->walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<gpu::LaunchOp>() &&
          !isa<gpu::LaunchOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      SmallVector<std::pair<Operation *, std::string>> rejected;
      SmallVector<RowGroup> groups = findRowGroups(*block, rejected);
      for (auto &[op, why] : rejected)
        emitRemarkAt(op) << "no row kernel for '" << op->getName()
                         << "': " << why
                         << "; it runs on the naive mapping (one thread per "
                            "row)";
      for (RowGroup &group : groups) {
        Operation *last = group.members.back().op;
        // Named for lowp-gpu-report-kernels; outlining keeps the names
        // unique.
        std::string name = "row_reduction";
        if (auto func = last->getParentOfType<FunctionOpInterface>())
          name = (func.getName() + "_row_reduction").str();
        OpBuilder b(last);
        RowKernelEmitter(group, info->gpu->subgroupSize, threads, emulate)
            .emit(b, name);
        for (Member &m : llvm::reverse(group.members))
          m.op->erase();
      }
    }
  }
};

} // namespace
