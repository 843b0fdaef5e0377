//===- InsertFP32Islands.cpp - softmax, norms, losses in FP32 islands -----===//
//
// Wraps every computation lowp/Analysis/IslandPatterns.h recognizes in a
// lowp.island at f32. Recognized computations that share ops or exchange
// values merge into one island, together with existing islands they touch.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/Analysis/IslandPatterns.h"
#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/Formats/FloatFormats.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/IR/ResourceConstants.h"
#include "lowp/IR/TrainingStep.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINSERTFP32ISLANDS
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

//===----------------------------------------------------------------------===//
// Hazardous constants
//===----------------------------------------------------------------------===//

/// True when `op` or its payload reads a constant `low` cannot represent.
static bool readsHazardousConstant(Operation *op, FloatType low) {
  bool found = false;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (findConstantHazard(def, low))
          found = true;
  });
  return found;
}

//===----------------------------------------------------------------------===//
// Grouping
//===----------------------------------------------------------------------===//

namespace {
/// The ops of one island to be, with what they protect.
struct IslandGroup {
  llvm::SetVector<Operation *> ops;
  SmallVector<IslandReason> reasons;
  SmallVector<Attribute> inheritedReasons;
};
} // namespace

/// True when `op` carries a training-step op marker (the backward seed or
/// master gradients).
static bool isTrainingStepMarked(Operation *op) {
  return op->hasAttr(training::kGradientAttr) ||
         op->hasAttr(training::kLossSeedAttr);
}

/// True when the value of `op` can be recomputed inside an island instead
/// of becoming an operand: constants, elements of constants, empty tensors
/// (their dynamic sizes become operands) and constant fills of them. A
/// marked constant (the loss seed) stays where the marker is looked for.
static bool isRematerializable(Operation *op) {
  if (!op || isTrainingStepMarked(op))
    return false;
  if (isa<arith::ConstantOp, tensor::EmptyOp>(op))
    return true;
  // An element of a constant: the 0-d init of StableHLO's reductions.
  if (isa<tensor::ExtractOp>(op))
    return llvm::all_of(op->getOperands(), [](Value v) {
      return isRematerializable(v.getDefiningOp());
    });
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.hasPureTensorSemantics() &&
           llvm::all_of(fill->getOperands(), [](Value v) {
             return isRematerializable(v.getDefiningOp());
           });
  return false;
}

/// True when `op` is safe to move into an island and, when its types are
/// narrower than the island's, to recompute at the island precision: ops
/// without memory effects (linalg on tensors, not on buffers) whose ops,
/// payloads included, belong to dialects that are polymorphic in the float
/// type. A `cf.assert` in a payload (torch-mlir guards divisions with one)
/// moves with the op that holds it: it reads nothing but its condition.
static bool isIslandable(Operation *op) {
  // Training-step markers must stay at the top level of the function body
  // (docs/training-step.md): a marked op is never moved into an island.
  if (isTrainingStepMarked(op))
    return false;
  WalkResult result = op->walk([&](Operation *nested) {
    if (nested != op && isa<cf::AssertOp>(nested))
      return WalkResult::advance();
    if (isa<arith::BitcastOp>(nested) ||
        !(isFloatPolymorphicDialect(nested->getDialect()) ||
          isElementPolymorphicDialect(nested->getDialect())))
      return WalkResult::interrupt();
    // A linalg op has memory effects only on buffer operands (its payload
    // is visited by this walk); asking the interface would build the list
    // of its operands' effects.
    if (auto structured = dyn_cast<linalg::LinalgOp>(nested)) {
      if (!structured.hasPureTensorSemantics())
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (!isMemoryEffectFree(nested))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The op of `block` that is or contains `op`, or null.
static Operation *getAncestorIn(Block &block, Operation *op) {
  return block.findAncestorOpInBlock(*op);
}

/// True when `op` or an op nested in it reads a value defined by an op of
/// `block` other than `op` itself for which `isSource` holds.
static bool readsFromAny(Operation *op, Block &block,
                         function_ref<bool(Operation *)> isSource) {
  WalkResult result = op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (Operation *a = getAncestorIn(block, def);
            a && a != op && isSource(a))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The ops of `block` outside `group` on a path from a group op back into
/// the group: an island placed without them would form a cycle.
static SmallVector<Operation *> findOpsOnCycles(const IslandGroup &group,
                                                Block &block) {
  // Ops reachable from the group (forward) and reaching it (backward),
  // between its first and last op.
  Operation *first = nullptr, *last = nullptr;
  for (Operation *op : group.ops) {
    if (!first || op->isBeforeInBlock(first))
      first = op;
    if (!last || last->isBeforeInBlock(op))
      last = op;
  }
  DenseSet<Operation *> reached;
  for (Operation *op = first; op != last; op = op->getNextNode()) {
    if (group.ops.contains(op))
      continue;
    if (readsFromAny(op, block, [&](Operation *a) {
          return group.ops.contains(a) || reached.contains(a);
        }))
      reached.insert(op);
  }
  // Of those, the ones that reach back into the group.
  SmallVector<Operation *> onCycle;
  DenseSet<Operation *> feedsGroup;
  for (Operation *op = last; op != first; op = op->getPrevNode()) {
    if (group.ops.contains(op) || !reached.contains(op))
      continue;
    bool feeds = llvm::any_of(op->getUsers(), [&](Operation *user) {
      Operation *a = getAncestorIn(block, user);
      return a && (group.ops.contains(a) || feedsGroup.contains(a));
    });
    if (feeds) {
      feedsGroup.insert(op);
      onCycle.push_back(op);
    }
  }
  return onCycle;
}

/// Adds to `group` the ops of `block` on a path from a group op back into
/// the group, so the island can be placed without a cycle. Fails when such
/// an op cannot join an island.
static LogicalResult makeConvex(IslandGroup &group, Block &block) {
  SmallVector<Operation *> onCycle = findOpsOnCycles(group, block);
  for (Operation *op : onCycle) {
    if (!isIslandable(op))
      return failure();
    group.ops.insert(op);
  }
  return success();
}

/// Removes from `group` the ops at its edges that cannot move into an
/// island: a match reaches past the computation it names to a training-step
/// marker (a loss seed scaling a long sum as a mean's 1/n would, a
/// gradient's extension of it), which then stays outside, read by the
/// island or reading it, instead of keeping the island from being built.
static void dropUnmovableEdges(IslandGroup &group) {
  auto inGroup = [&](Operation *op) { return op && group.ops.contains(op); };
  bool dropped = true;
  while (dropped) {
    SmallVector<Operation *> edges;
    for (Operation *op : group.ops) {
      if (isIslandable(op))
        continue;
      bool source = llvm::none_of(op->getOperands(), [&](Value v) {
        return inGroup(v.getDefiningOp());
      });
      bool sink = llvm::none_of(op->getUsers(), inGroup);
      if (source || sink)
        edges.push_back(op);
    }
    for (Operation *op : edges)
      group.ops.remove(op);
    dropped = !edges.empty();
  }
}

static void appendGroup(IslandGroup &into, IslandGroup &from) {
  into.ops.insert_range(from.ops);
  llvm::append_range(into.reasons, from.reasons);
  llvm::append_range(into.inheritedReasons, from.inheritedReasons);
}

namespace {
/// Groups being merged: which group owns each op, and which are merged away.
class GroupMerger {
public:
  GroupMerger(SmallVector<IslandGroup> groups, Block &block)
      : groups(std::move(groups)), merged(this->groups.size(), false),
        block(block) {
    for (unsigned i = 0, e = this->groups.size(); i < e; ++i)
      for (Operation *op : this->groups[i].ops)
        owner.try_emplace(op, i);
  }

  /// The live group that owns `op` (or an op of `block` holding it).
  std::optional<unsigned> ownerOf(Operation *op) const {
    Operation *a = getAncestorIn(block, op);
    auto it = a ? owner.find(a) : owner.end();
    if (it == owner.end())
      return std::nullopt;
    return it->second;
  }

  /// Merges group `from` into `into`.
  void merge(unsigned into, unsigned from) {
    for (Operation *op : groups[from].ops)
      owner[op] = into;
    appendGroup(groups[into], groups[from]);
    groups[from] = IslandGroup();
    merged[from] = true;
  }

  /// Live groups other than `i` whose ops are in `ops`.
  SetVector<unsigned> ownersOf(ArrayRef<Operation *> ops, unsigned i) const {
    SetVector<unsigned> found;
    for (Operation *op : ops)
      if (std::optional<unsigned> j = ownerOf(op); j && *j != i)
        found.insert(*j);
    return found;
  }

  /// Live groups other than `i` that read a result of `i` or whose results
  /// `i` reads.
  SetVector<unsigned> neighboursOf(unsigned i) const {
    SetVector<unsigned> found;
    for (Operation *op : groups[i].ops) {
      for (Operation *user : op->getUsers())
        if (std::optional<unsigned> j = ownerOf(user); j && *j != i)
          found.insert(*j);
      op->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          if (Operation *def = v.getDefiningOp())
            if (std::optional<unsigned> j = ownerOf(def); j && *j != i)
              found.insert(*j);
      });
    }
    return found;
  }

  SmallVector<IslandGroup> takeLive() {
    SmallVector<IslandGroup> live;
    for (unsigned i = 0, e = groups.size(); i < e; ++i)
      if (!merged[i])
        live.push_back(std::move(groups[i]));
    return live;
  }

  SmallVector<IslandGroup> groups;
  SmallVector<bool> merged;

private:
  Block &block;
  DenseMap<Operation *, unsigned> owner;
};
} // namespace

/// Merges the groups of `block` into the islands to build. Groups that
/// share an op, or that lie on each other's paths (an island of either
/// alone would form a cycle), must be one island. Groups where one reads a
/// result of another merge too, which saves the casts between two islands,
/// unless the island would then have to take in a contraction on a path
/// between them: a residual connection from one layer norm to the next
/// would otherwise pull the feed-forward GEMMs between them into f32. A
/// merged group keeps the position of its first member.
static SmallVector<IslandGroup> mergeGroups(SmallVector<IslandGroup> groups,
                                            Block &block) {
  GroupMerger merger(std::move(groups), block);
  unsigned count = merger.groups.size();
  // Merges `i` with the groups it needs; with `optional` set, refuses (and
  // returns false) when that takes a contraction in.
  auto mergeWith = [&](unsigned i, unsigned j, bool optional) {
    IslandGroup candidate = merger.groups[i];
    SmallVector<unsigned> members = {i};
    SmallVector<unsigned> pending = {j};
    while (!pending.empty()) {
      for (unsigned k : pending) {
        appendGroup(candidate, merger.groups[k]);
        members.push_back(k);
      }
      pending.clear();
      SmallVector<Operation *> onCycle = findOpsOnCycles(candidate, block);
      if (optional && llvm::any_of(onCycle, [&](Operation *op) {
            return isMatrixOp(op);
          }))
        return false;
      for (unsigned k : merger.ownersOf(onCycle, i))
        if (!llvm::is_contained(members, k))
          pending.push_back(k);
    }
    llvm::sort(members);
    for (unsigned k : ArrayRef(members).drop_front())
      merger.merge(members.front(), k);
    return true;
  };
  // Groups that share an op.
  for (unsigned i = 0; i < count; ++i)
    for (Operation *op : SmallVector<Operation *>(merger.groups[i].ops.begin(),
                                                  merger.groups[i].ops.end()))
      if (std::optional<unsigned> j = merger.ownerOf(op);
          j && *j != i && !merger.merged[i])
        merger.merge(std::min(i, *j), std::max(i, *j));
  // A group whose own island would enclose another group's op.
  for (unsigned i = 0; i < count; ++i) {
    while (!merger.merged[i]) {
      SetVector<unsigned> others =
          merger.ownersOf(findOpsOnCycles(merger.groups[i], block), i);
      if (others.empty())
        break;
      mergeWith(i, others.front(), /*optional=*/false);
    }
  }
  // Groups that exchange values, each pair tried once.
  DenseSet<std::pair<unsigned, unsigned>> tried;
  SmallVector<unsigned> worklist;
  for (unsigned i = count; i-- > 0;)
    if (!merger.merged[i])
      worklist.push_back(i);
  while (!worklist.empty()) {
    unsigned i = worklist.pop_back_val();
    if (merger.merged[i])
      continue;
    for (unsigned j : merger.neighboursOf(i)) {
      if (!tried.insert({std::min(i, j), std::max(i, j)}).second)
        continue;
      if (mergeWith(i, j, /*optional=*/true)) {
        worklist.push_back(std::min(i, j));
        break;
      }
    }
  }
  return merger.takeLive();
}

/// True when `type` holds floats wider than `precision` (f64 at an f32
/// island).
static bool isWiderThan(Type type, FloatType precision) {
  FloatType element = getFloatElementType(type);
  return element && element.getWidth() > precision.getWidth();
}

/// An island converts every float it reads or yields to its precision, so a
/// wider value (the f64 statistics torch-mlir's var_mean decomposition
/// computes) must not cross its boundary. Pulls into `group` the producers
/// of such values that only the group reads and no other group holds; buildIsland leaves alone a
/// group that a wider value still enters or leaves.
static void absorbWiderProducers(IslandGroup &group, Block &block,
                                 FloatType precision,
                                 function_ref<bool(Operation *)> isTaken) {
  auto inGroup = [&](Operation *op) {
    Operation *a = getAncestorIn(block, op);
    return a && group.ops.contains(a);
  };
  SmallVector<Operation *> worklist(group.ops.begin(), group.ops.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != &block || group.ops.contains(def) ||
          !isWiderThan(v.getType(), precision) || isRematerializable(def) ||
          isa<IslandOp>(def) || isTaken(def) ||
          !llvm::all_of(def->getUsers(), inGroup) || !isIslandable(def))
        continue;
      group.ops.insert(def);
      worklist.push_back(def);
    }
  }
}

//===----------------------------------------------------------------------===//
// Building islands
//===----------------------------------------------------------------------===//

/// `type` with float element types narrower than `precision` widened to it.
static Type promoteType(Type type, FloatType precision) {
  FloatType element = getFloatElementType(type);
  if (!element || element.getWidth() >= precision.getWidth())
    return type;
  return withFloatElementType(type, precision);
}

/// `constant` recreated at the wider `type`: its value widened exactly, or,
/// when the pass cannot read the value (a `dense_resource` blob, possibly
/// elided), the constant as it is followed by an exact widening lowp.cast.
static Value createWidenedConstant(RewriterBase &rewriter,
                                   arith::ConstantOp constant, Type type) {
  Location loc = constant.getLoc();
  if (TypedAttr widened =
          convertFloatConstant(constant.getValue(), getFloatElementType(type)))
    return arith::ConstantOp::create(rewriter, loc, type, widened);
  Value narrow = arith::ConstantOp::create(rewriter, loc, constant.getValue());
  return CastOp::create(rewriter, loc, type, narrow);
}

/// Recomputes `op`, just moved or cloned into an island, at `precision`:
/// widens narrower float types of results, payload arguments and constants,
/// and drops the casts that become identities.
static void promoteToPrecision(Operation *op, FloatType precision,
                               RewriterBase &rewriter) {
  SmallVector<Operation *> nested;
  op->walk<WalkOrder::PreOrder>([&](Operation *o) { nested.push_back(o); });
  for (Operation *o : nested) {
    auto constant = dyn_cast<arith::ConstantOp>(o);
    if (constant && o != op) {
      Type type = promoteType(constant.getType(), precision);
      if (type == constant.getType())
        continue;
      rewriter.setInsertionPoint(constant);
      rewriter.replaceOp(constant,
                         createWidenedConstant(rewriter, constant, type));
      continue;
    }
    rewriter.modifyOpInPlace(o, [&] {
      for (OpResult result : o->getResults())
        result.setType(promoteType(result.getType(), precision));
      for (Region &region : o->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(promoteType(arg.getType(), precision));
    });
  }
  // Casts between a narrow type and the island precision are now identities.
  SmallVector<Operation *> identities;
  op->walk([&](Operation *o) {
    if (o != op && isa<arith::ExtFOp, arith::TruncFOp, lowp::CastOp>(o) &&
        o->getOperand(0).getType() == o->getResult(0).getType())
      identities.push_back(o);
  });
  for (Operation *o : identities)
    rewriter.replaceOp(o, o->getOperand(0));
}

/// The value a narrowing cast to `v` read at `precision`, or `v`: an island
/// takes the wide value and skips a rounding.
static Value getWideSource(Value v, FloatType precision) {
  Operation *def = v.getDefiningOp();
  if (!isa_and_nonnull<arith::TruncFOp, lowp::CastOp>(def))
    return v;
  if (auto cast = dyn_cast<lowp::CastOp>(def); cast && cast.getSeed())
    return v;
  Value source = def->getOperand(0);
  return getFloatElementType(source.getType()) == precision ? source : v;
}

/// Replaces the ops of `group` by one island. Existing islands in the group
/// are inlined into the new one.
static IslandOp buildIsland(IslandGroup &group, Block &block,
                            RewriterBase &rewriter) {
  FloatType precision = rewriter.getF32Type();
  SmallVector<Operation *> ops(group.ops.begin(), group.ops.end());
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  auto inGroup = [&](Operation *op) {
    Operation *a = getAncestorIn(block, op);
    return a && group.ops.contains(a);
  };

  // Boundary: values read from outside, and results used outside.
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> rematerialized;
  std::function<void(Operation *)> addRemat = [&](Operation *def) {
    for (Value v : def->getOperands()) {
      if (isRematerializable(v.getDefiningOp()))
        addRemat(v.getDefiningOp());
      else
        inputs.insert(v);
    }
    rematerialized.insert(def);
  };
  // Operands of group ops (payloads included) that read a value from
  // outside: they are redirected to the island arguments or the
  // rematerialized copies once the ops move in.
  SmallVector<OpOperand *> boundaryUses;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (OpOperand &use : nested->getOpOperands()) {
        Value v = use.get();
        Operation *def = v.getDefiningOp();
        bool inside = def ? (op->isAncestor(def) || inGroup(def))
                          : op->isAncestor(
                                cast<BlockArgument>(v).getOwner()->getParentOp());
        if (inside)
          continue;
        boundaryUses.push_back(&use);
        if (isRematerializable(def))
          addRemat(def);
        else
          inputs.insert(v);
      }
    });
  SmallVector<Value> results;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !inGroup(user); }))
        results.push_back(result);

  // Outside ops between the group's ops that read its results move after
  // the island.
  SmallVector<Operation *> toMove;
  DenseSet<Operation *> moved;
  for (Operation *op = ops.front(); op != ops.back(); op = op->getNextNode()) {
    if (group.ops.contains(op))
      continue;
    if (readsFromAny(op, block, [&](Operation *a) {
          return group.ops.contains(a) || moved.contains(a);
        })) {
      toMove.push_back(op);
      moved.insert(op);
    }
  }

  // Values wider than the island would be narrowed at its boundary.
  auto isWider = [&](Value v) { return isWiderThan(v.getType(), precision); };
  if (llvm::any_of(inputs, isWider) || llvm::any_of(results, isWider))
    return {};

  SmallVector<Value> operands;
  for (Value input : inputs)
    operands.push_back(getWideSource(input, precision));
  SmallVector<Type> resultTypes =
      llvm::map_to_vector(results, [](Value v) { return v.getType(); });

  rewriter.setInsertionPoint(ops.back());
  auto island = IslandOp::create(rewriter, ops.front()->getLoc(), resultTypes,
                                 operands, precision);
  Block *body = &island.getBody().front();
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, body->getArguments()))
    mapping.map(input, arg);

  // Results used outside now come from the island: done before any op
  // moves, while `inGroup` still sees the ops in `block`.
  for (auto [result, replacement] : llvm::zip(results, island.getResults()))
    rewriter.replaceUsesWithIf(result, replacement, [&](OpOperand &use) {
      return !inGroup(use.getOwner());
    });

  // A constant narrower than the island is recreated at its precision at
  // the insertion point; null when it already is wide enough.
  auto widenConstant = [&](arith::ConstantOp constant) -> Value {
    Type type = promoteType(constant.getType(), precision);
    if (type == constant.getType())
      return {};
    return createWidenedConstant(rewriter, constant, type);
  };

  // A rematerialized op that only the island reads (directly, or through
  // rematerialized ops that move too) moves in; one with users outside is
  // cloned. `rematerialized` lists producers before their users, so the
  // reverse walk sees every user's decision first.
  DenseSet<Operation *> movesIn;
  for (Operation *op : llvm::reverse(rematerialized))
    if (llvm::all_of(op->getUsers(), [&](Operation *user) {
          return inGroup(user) || movesIn.contains(user);
        }))
      movesIn.insert(op);
  // Every other op of the group moves into the body and is retyped in place.
  auto rematerialize = [&](Operation *op) {
    rewriter.setInsertionPointToEnd(body);
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (Value widened = widenConstant(constant)) {
        mapping.map(constant.getResult(), widened);
        return;
      }
    if (!movesIn.contains(op)) {
      Operation *clone = rewriter.clone(*op, mapping);
      promoteToPrecision(clone, precision, rewriter);
      return;
    }
    rewriter.moveOpBefore(op, body, body->end());
    rewriter.modifyOpInPlace(op, [&] {
      for (OpOperand &operand : op->getOpOperands())
        operand.set(mapping.lookupOrDefault(operand.get()));
    });
    for (Value result : op->getResults())
      mapping.map(result, result);
    promoteToPrecision(op, precision, rewriter);
  };
  for (Operation *op : rematerialized)
    rematerialize(op);
  for (OpOperand *use : boundaryUses) {
    Value replacement = mapping.lookup(use->get());
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(replacement); });
  }

  // A narrow constant is recreated wide and a cast that becomes an identity
  // is dropped; their remaining users (all inside) read the replacement.
  auto moveAndPromote = [&](Operation *op) {
    rewriter.setInsertionPointToEnd(body);
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (Value widened = widenConstant(constant)) {
        mapping.map(constant.getResult(), widened);
        rewriter.replaceOp(constant, widened);
        return;
      }
    if (isa<arith::ExtFOp, arith::TruncFOp, lowp::CastOp>(op)) {
      Value input = op->getOperand(0);
      if (input.getType() ==
          promoteType(op->getResult(0).getType(), precision)) {
        mapping.map(op->getResult(0), input);
        rewriter.replaceOp(op, input);
        return;
      }
    }
    rewriter.moveOpBefore(op, body, body->end());
    promoteToPrecision(op, precision, rewriter);
  };
  for (Operation *op : ops) {
    auto inner = dyn_cast<IslandOp>(op);
    if (!inner) {
      moveAndPromote(op);
      continue;
    }
    // An existing island: its body computes at (at least) f32 already.
    Block &innerBody = inner.getBody().front();
    for (auto [operand, arg] :
         llvm::zip(inner.getInputs(), innerBody.getArguments()))
      rewriter.replaceAllUsesWith(arg, operand);
    for (Operation &nested :
         llvm::make_early_inc_range(innerBody.without_terminator()))
      moveAndPromote(&nested);
    for (auto [result, yielded] :
         llvm::zip(inner.getResults(), inner.getYield().getValues())) {
      mapping.map(result, yielded);
      rewriter.replaceAllUsesWith(result, yielded);
    }
    rewriter.eraseOp(inner);
  }
  rewriter.setInsertionPointToEnd(body);
  SmallVector<Value> yielded = llvm::map_to_vector(
      results, [&](Value v) { return mapping.lookupOrDefault(v); });
  YieldOp::create(rewriter, island.getLoc(), yielded);

  SmallVector<Attribute> reasons(group.inheritedReasons);
  for (IslandReason reason : group.reasons)
    reasons.push_back(rewriter.getStringAttr(stringifyIslandReason(reason)));
  llvm::sort(reasons, [](Attribute a, Attribute b) {
    return cast<StringAttr>(a).getValue() < cast<StringAttr>(b).getValue();
  });
  reasons.erase(llvm::unique(reasons), reasons.end());
  rewriter.modifyOpInPlace(island, [&] {
    LowpDialect::IslandReasonsAttrHelper(island->getContext())
        .setAttr(island, rewriter.getArrayAttr(reasons));
  });

  Operation *after = island;
  for (Operation *op : toMove) {
    rewriter.moveOpAfter(op, after);
    after = op;
  }
  for (Operation *op : llvm::reverse(rematerialized))
    if (op->use_empty())
      rewriter.eraseOp(op);
  // Narrowing casts the island reads around are dead when nothing else
  // used them.
  for (Value input : inputs)
    if (Operation *def = input.getDefiningOp();
        def && getWideSource(input, precision) != input && def->use_empty())
      rewriter.eraseOp(def);
  return island;
}

namespace {
/// Forgets the ops a rewrite erases in the groups still to be built.
struct ErasedOpsListener : RewriterBase::Listener {
  explicit ErasedOpsListener(MutableArrayRef<IslandGroup> groups)
      : groups(groups) {}
  void notifyOperationErased(Operation *op) override {
    for (IslandGroup &group : groups)
      group.ops.remove(op);
  }
  MutableArrayRef<IslandGroup> groups;
};
} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct InsertFP32IslandsPass
    : lowp::impl::LowpInsertFP32IslandsBase<InsertFP32IslandsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  FailureOr<FloatType> getPreferredLowFormat();
  void processBlock(Block &block, FloatType low, int64_t threshold);
  void reportHazards(FloatType low);
};
} // namespace

/// Groups the matches of `block`, adds the existing islands and hazardous
/// producers they touch, and builds one island per group.
void InsertFP32IslandsPass::processBlock(Block &block, FloatType low,
                                         int64_t threshold) {
  IslandPatternOptions options;
  options.longReductionThreshold = threshold;
  SmallVector<IslandGroup> groups;
  for (IslandMatch &match : findIslandMatches(block, options)) {
    IslandGroup &group = groups.emplace_back();
    group.ops = std::move(match.ops);
    group.reasons.push_back(match.reason);
    dropUnmovableEdges(group);
  }
  if (groups.empty())
    return;
  // Existing f32 islands join the groups they exchange values with; an
  // island at another precision stays as it is (its body computes at that
  // precision, which inlining into an f32 island would break).
  for (IslandOp island : block.getOps<IslandOp>()) {
    if (!island.getPrecisionType().isF32())
      continue;
    IslandGroup &group = groups.emplace_back();
    group.ops.insert(island);
    if (ArrayAttr reasons =
            LowpDialect::IslandReasonsAttrHelper(island->getContext())
                .getAttr(island))
      llvm::append_range(group.inheritedReasons, reasons.getValue());
  }
  groups = mergeGroups(std::move(groups), block);
  llvm::erase_if(groups, [](const IslandGroup &g) {
    return g.reasons.empty(); // an existing island nothing new touches
  });

  // Building an island erases ops it makes dead (narrowing casts it reads
  // around, rematerialized constants); a group built later forgets them.
  IRRewriter rewriter(&getContext());
  ErasedOpsListener listener(groups);
  rewriter.setListener(&listener);
  // Ops of groups other than the one being built, which it must not take.
  DenseMap<Operation *, IslandGroup *> claimed;
  for (IslandGroup &group : groups)
    for (Operation *op : group.ops)
      claimed[op] = &group;
  auto takenByOther = [&](Operation *op, IslandGroup &group) {
    auto it = claimed.find(op);
    return it != claimed.end() && it->second != &group;
  };
  for (IslandGroup &group : groups) {
    if (group.ops.empty())
      continue;
    // Elementwise producers that read a constant `low` cannot represent and
    // feed only this group join it, so the constant stays f32.
    bool grew = true;
    while (grew) {
      grew = false;
      for (Operation *op : SmallVector<Operation *>(group.ops.begin(),
                                                    group.ops.end()))
        for (Value operand : op->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (!def || def->getBlock() != &block || group.ops.contains(def) ||
              takenByOther(def, group) || !readsHazardousConstant(def, low) ||
              !isIslandable(def) || isa<IslandOp>(def))
            continue;
          if (!llvm::all_of(def->getUsers(), [&](Operation *user) {
                Operation *a = getAncestorIn(block, user);
                return a && group.ops.contains(a);
              }))
            continue;
          group.ops.insert(def);
          grew = true;
        }
    }
    absorbWiderProducers(group, block, rewriter.getF32Type(),
                         [&](Operation *op) { return takenByOther(op, group); });
    if (failed(makeConvex(group, block)))
      continue;
    if (!llvm::all_of(group.ops, [&](Operation *op) {
          return (isa<IslandOp>(op) || isIslandable(op)) &&
                 !takenByOther(op, group);
        }))
      continue;
    buildIsland(group, block, rewriter);
  }
}

/// Reports every float constant `low` cannot represent, with where it is.
void InsertFP32IslandsPass::reportHazards(FloatType low) {
  // Built at the first hazard: naming the format prints the type, which
  // sets up an AsmState, a fixed cost most runs have no use for.
  std::optional<FloatFormatInfo> info;
  getOperation()->walk([&](arith::ConstantOp constant) {
    std::optional<ConstantHazard> hazard = findConstantHazard(constant, low);
    if (!hazard)
      return;
    if (!info)
      info = getFloatFormatInfo(low);
    SmallString<16> text;
    hazard->value.toString(text);
    bool inIsland = constant->getParentOfType<IslandOp>() != nullptr;
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "constant " << text << " is "
       << (hazard->overflows ? (hazard->value.isNegative() ? "-inf" : "inf")
                             : "0")
       << " in " << info->name << " ("
       << (hazard->overflows ? "largest finite " : "smallest subnormal ")
       << (hazard->overflows ? info->maxFinite : info->minSubnormal) << "); "
       << (inIsland ? "kept at f32 inside an fp32 island"
                    : "it is outside any fp32 island");
    // Inside an island the island handles it (a decision, explained);
    // outside, the user has to.
    if (inIsland)
      emitDecisionRemark(constant, DecisionCategory::Islands, "ConstantHazard",
                         message, /*asDiagnostic=*/true);
    else
      constant.emitWarning() << message;
  });
}

/// The target's preferred 16-bit format (`target` option, else the nearest
/// module's lowp.target); f16, the narrowest range, without a target.
FailureOr<FloatType> InsertFP32IslandsPass::getPreferredLowFormat() {
  MLIRContext *context = &getContext();
  FailureOr<const TargetInfo *> target =
      resolveTarget(getOperation(), this->target);
  if (failed(target))
    return failure();
  if (!*target || !(*target)->preferred16)
    return FloatType(Float16Type::get(context));
  return getFloatType(context, *(*target)->preferred16);
}

void InsertFP32IslandsPass::runOnOperation() {
  // `low` is an enum option: the pipeline parser has rejected any other
  // spelling, so every non-auto value names a float type narrower than f32.
  FloatType low;
  if (this->low == LowFormat::Auto) {
    FailureOr<FloatType> preferred = getPreferredLowFormat();
    if (failed(preferred))
      return signalPassFailure();
    low = *preferred;
  } else {
    low = cast<FloatType>(parseType(stringifyLowFormat(this->low), &getContext()));
  }
  if (longReductionThreshold < -1) {
    getOperation()->emitError()
        << "lowp-insert-fp32-islands: invalid option "
           "long-reduction-threshold="
        << static_cast<int64_t>(longReductionThreshold)
        << ": not -1 (off), 0 (derived from low) or a positive count";
    return signalPassFailure();
  }
  int64_t threshold = longReductionThreshold;
  if (threshold == 0)
    threshold = static_cast<int64_t>(1.0 / getEpsilon(low.getFloatSemantics()));

  // Blocks that hold computations: not payloads, not island bodies.
  SmallVector<Block *> blocks;
  getOperation()->walk([&](Block *block) {
    Operation *parent = block->getParentOp();
    if (isa<linalg::LinalgOp, linalg::SoftmaxOp>(parent) ||
        isa<IslandOp>(parent) || parent->getParentOfType<IslandOp>())
      return;
    blocks.push_back(block);
  });
  for (Block *block : blocks)
    processBlock(*block, low, threshold);
  reportHazards(low);
}
