//===- OutlineRepeatedLoops.cpp - lowp-outline-repeated-loops -------------===//
//
// Loop nests a module repeats (the layers of a model, lowered) moved into one
// private function each, called where every copy stood: LLVM converts,
// translates and compiles each of them once.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <deque>

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPOUTLINEREPEATEDLOOPS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// One outermost loop nest and the values it reads from outside.
struct Nest {
  Operation *root;
  /// Every operand defined outside the nest, in pre-order of the ops.
  SmallVector<Value> outside;
  /// Outlined even without a copy: the nest of a function that runs once.
  bool outlineAlone = false;
};

/// Nests that are the same but for the outside values they read, and
/// `arguments[i]`: the values nest i passes, in the order of the first
/// nest's first uses (constants excluded: they are cloned).
struct NestClass {
  SmallVector<Nest *> members;
  SmallVector<SmallVector<Value>> arguments;
};
} // namespace

static bool isOutside(Value value, Operation *root) {
  Operation *owner = isa<BlockArgument>(value)
                         ? cast<BlockArgument>(value).getOwner()->getParentOp()
                         : value.getDefiningOp();
  return !root->isAncestor(owner);
}

/// A constant the outlined function clones rather than takes as argument.
static Operation *constantDef(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && matchPattern(value, m_Constant())
             ? def
             : nullptr;
}

using NestShape = std::pair<llvm::hash_code, unsigned>;

/// The nest's ops counted and hashed without its values: equal for nests
/// that can be the same.
static NestShape shapeOf(Operation *root) {
  llvm::hash_code hash(0);
  unsigned ops = 0;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    ++ops;
    hash = llvm::hash_combine(
        hash,
        OperationEquivalence::computeHash(
            op, OperationEquivalence::ignoreHashValue,
            OperationEquivalence::ignoreHashValue,
            OperationEquivalence::IgnoreLocations),
        op->getNumRegions(), op->getNumOperands());
  });
  return {hash, ops};
}

/// A function that runs once (F_prepack) keeps no loop nest of its own, so
/// that it can be compiled without optimization
/// (lowp-unoptimized-run-once-wrappers) while its loops are not.
static bool runsOnce(func::FuncOp func) {
  return func->hasAttr(lowp::LowpDialect::RunsOnceAttrHelper::getNameStr());
}

static Nest collectNest(Operation *root) {
  Nest nest{root, {}, runsOnce(root->getParentOfType<func::FuncOp>())};
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isOutside(operand, root))
        nest.outside.push_back(operand);
  });
  return nest;
}

/// Whether `other` is `first` over other outside values; if so, the values
/// `other` passes for `first`'s arguments `firstArgs`.
static std::optional<SmallVector<Value>>
matchNest(const Nest &first, ArrayRef<Value> firstArgs, const Nest &other) {
  if (first.outside.size() != other.outside.size())
    return std::nullopt;
  // Values inside the two nests correspond where the walk pairs them; the
  // outside ones are checked below, where every use is seen.
  DenseMap<Value, Value> inside;
  auto check = [&](Value lhs, Value rhs) -> LogicalResult {
    auto it = inside.find(lhs);
    if (it != inside.end())
      return success(it->second == rhs);
    return success(isOutside(lhs, first.root) &&
                   isOutside(rhs, other.root) &&
                   lhs.getType() == rhs.getType());
  };
  auto mark = [&](Value lhs, Value rhs) { inside[lhs] = rhs; };
  if (!OperationEquivalence::isEquivalentTo(
          first.root, other.root, check, mark,
          OperationEquivalence::IgnoreLocations))
    return std::nullopt;
  // Outside values: the same constants, or a one-to-one correspondence.
  DenseMap<Value, Value> forward, backward;
  for (auto [lhs, rhs] : llvm::zip_equal(first.outside, other.outside)) {
    Operation *lhsConstant = constantDef(lhs);
    Operation *rhsConstant = constantDef(rhs);
    if (lhsConstant || rhsConstant) {
      if (!lhsConstant || !rhsConstant ||
          !OperationEquivalence::isEquivalentTo(
              lhsConstant, rhsConstant, OperationEquivalence::IgnoreLocations))
        return std::nullopt;
      continue;
    }
    auto [fwd, newFwd] = forward.try_emplace(lhs, rhs);
    auto [bwd, newBwd] = backward.try_emplace(rhs, lhs);
    if (fwd->second != rhs || bwd->second != lhs)
      return std::nullopt;
  }
  SmallVector<Value> args;
  for (Value arg : firstArgs)
    args.push_back(forward.lookup(arg));
  return args;
}

/// The outermost loops of `func` worth outlining (no loop around them, no
/// results, at least `minOps` ops), with their shapes.
static void
collectCandidates(func::FuncOp func, unsigned minOps,
                  SmallVectorImpl<std::pair<Operation *, NestShape>> &roots) {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<LoopLikeOpInterface>(op))
      return WalkResult::advance();
    if (op->getNumResults() == 0)
      if (NestShape shape = shapeOf(op); shape.second >= minOps)
        roots.push_back({op, shape});
    return WalkResult::skip();
  });
}

namespace {
struct OutlineRepeatedLoopsPass
    : lowp::impl::LowpOutlineRepeatedLoopsBase<OutlineRepeatedLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<Operation *, NestShape>> roots;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        collectCandidates(func, runsOnce(func) ? 1 : minOps, roots);

    // Nests grouped by shape (in program order), then split into classes of
    // nests that really are the same.
    std::deque<Nest> nests;
    llvm::MapVector<NestShape, SmallVector<Nest *>> byShape;
    for (auto [root, shape] : roots) {
      nests.push_back(collectNest(root));
      byShape[shape].push_back(&nests.back());
    }
    SmallVector<NestClass> classes;
    for (auto &[shape, group] : byShape) {
      if (group.size() < 2 && !group.front()->outlineAlone)
        continue;
      size_t firstClass = classes.size();
      for (Nest *nest : group) {
        bool placed = false;
        for (NestClass &cls : llvm::drop_begin(classes, firstClass)) {
          std::optional<SmallVector<Value>> args =
              matchNest(*cls.members.front(), cls.arguments.front(), *nest);
          if (!args)
            continue;
          cls.members.push_back(nest);
          cls.arguments.push_back(std::move(*args));
          placed = true;
          break;
        }
        if (placed)
          continue;
        llvm::SetVector<Value> args;
        for (Value value : nest->outside)
          if (!constantDef(value))
            args.insert(value);
        classes.push_back({{nest}, {args.takeVector()}});
      }
    }

    SymbolTable symbols(module);
    unsigned count = 0;
    for (NestClass &cls : classes)
      if (cls.members.size() >= 2 || cls.members.front()->outlineAlone)
        outline(cls, symbols, count);
  }

  /// Outlines `cls` as `<function>_loops<N>`, N from `number` on, the first
  /// that names nothing yet (a second run of the pass, as lowp-pipeline-x86
  /// makes, goes on from the first's functions).
  void outline(NestClass &cls, SymbolTable &symbols, unsigned &number) {
    Nest &first = *cls.members.front();
    Location loc = first.root->getLoc();
    auto holder = first.root->getParentOfType<func::FuncOp>();
    SmallVector<Type> argTypes;
    for (Value arg : cls.arguments.front())
      argTypes.push_back(arg.getType());
    std::string name;
    do
      name = (holder.getSymName() + "_loops" + Twine(number++)).str();
    while (symbols.lookup(name));
    OpBuilder builder(holder->getContext());
    auto func = func::FuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
    // Private, and internal to the object LLVM writes: no exported symbol.
    func.setPrivate();
    func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                      func.getContext(), LLVM::Linkage::Internal));
    symbols.insert(func, std::next(Block::iterator(holder)));

    Block *entry = func.addEntryBlock();
    IRMapping mapping;
    mapping.map(cls.arguments.front(), entry->getArguments());
    builder.setInsertionPointToStart(entry);
    for (Value value : first.outside)
      if (Operation *constant = constantDef(value);
          constant && !mapping.contains(value))
        builder.clone(*constant, mapping);
    builder.clone(*first.root, mapping);
    func::ReturnOp::create(builder, loc);

    for (auto [nest, args] : llvm::zip_equal(cls.members, cls.arguments)) {
      builder.setInsertionPoint(nest->root);
      func::CallOp::create(builder, callLocation(nest->root), func, args);
      nest->root->erase();
    }
  }

  /// The nest's location for the call that replaces it, anchored at its
  /// function's file location when it has none of its own (a front end's
  /// `loc("layer1.conv")` keeps its name; anything else takes the
  /// function's): LLVM requires a line on every call between functions
  /// with debug info (ensure-debug-info-scope-on-llvm-func).
  static Location callLocation(Operation *root) {
    Location loc = root->getLoc();
    if (loc->findInstanceOf<FileLineColLoc>())
      return loc;
    Location anchor = root->getParentOfType<func::FuncOp>().getLoc();
    if (!anchor->findInstanceOf<FileLineColLoc>())
      return loc;
    if (auto name = dyn_cast<NameLoc>(loc))
      return NameLoc::get(name.getName(), anchor);
    return anchor;
  }
};
} // namespace
