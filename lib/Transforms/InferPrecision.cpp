//===- InferPrecision.cpp - lowp-infer-precision --------------------------===//
//
// Colours the ops of a module low (f16/bf16) or wide (f32) from their
// precision class, then retypes the low ops, with lowp.cast only where a
// value crosses colours. See docs/passes/infer-precision.md.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/IR/ResourceConstants.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINFERPRECISION
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

enum class Colour : uint8_t { Unset, Low, Wide };

/// What colouring knows about one op that holds float values.
struct Node {
  Operation *op = nullptr;
  /// The pass may change this op's float types (it has a class, holds only
  /// f32 floats, and is not a boundary such as a call or control flow).
  bool retypeable = false;
  /// A user override decided the colour.
  bool forced = false;
  bool hasClass = false;
  PrecisionClass precisionClass = PrecisionClass::Follow;
  /// Operand numbers [begin, end) of a matrix op's DPS inits, read once:
  /// asking the op rebuilds its operand segment attribute on every call.
  unsigned dpsInitBegin = 0, dpsInitEnd = 0;
  Colour colour = Colour::Unset;
  /// Why the colour was chosen: `rule`, then the op that propagated it, then
  /// the class reason (strings are built only for the report).
  StringRef rule;
  Operation *ruleSource = nullptr;
  bool ruleCitesClass = false;
  std::string ownedRule;
  /// Uses of this op's float results, and how many of them want low values
  /// (rule 4).
  unsigned floatUses = 0;
  unsigned lowUses = 0;
  /// Made low by rule 4 only because its users are low.
  bool demotedForUsers = false;
};

/// The options of one run, validated.
struct InferenceConfig {
  FloatType low;
  bool wideAccumulator = true;
  llvm::StringSet<> keepWide, forceLow;
  bool emitRemarks = false;
  /// Let entry functions (not called in the module) take and return the
  /// low format where their arguments and results are low anyway.
  bool demoteSignatures = false;
  /// Build the per-op decisions (a report or remarks were asked for).
  bool recordDecisions = false;
  /// The target computes elementwise arithmetic in the low format. When it
  /// does not (TPU v2-v5p, AVX512_BF16 CPUs, CDNA3 for bf16), low payloads
  /// still read and write the low format but compute in f32 between one
  /// extension and one rounding, as XLA's BF16 normalization does for such
  /// chips: the same storage and matrix inputs, no emulated 16-bit
  /// arithmetic, and one rounding per payload instead of one per op.
  bool lowArithmetic = true;
  /// Rules 2 and 3 (low values carried forward through follow ops); off,
  /// matrix inputs are rounded and everything else stays f32 (autocast).
  bool propagate = true;
};

/// True for types whose float elements are f32 in a shape the pass can
/// retype: scalars, vectors and ranked tensors. Buffers are not: retyping a
/// memref changes what other code reads from the same memory.
static bool isRetypeableF32(Type type) {
  if (isa<UnrankedTensorType, BaseMemRefType>(type))
    return false;
  FloatType element = getFloatElementType(type);
  return element && element.isF32();
}

/// True for types that carry float (or complex) numbers.
static bool holdsFloats(Type type) {
  Type element = getElementTypeOrSelf(type);
  return isa<FloatType, ComplexType>(element);
}

/// The float (or complex) typed operand and result types of `op`.
static SmallVector<Type> getFloatTypes(Operation *op) {
  SmallVector<Type> types;
  llvm::append_range(types, llvm::make_filter_range(op->getOperandTypes(),
                                                    holdsFloats));
  llvm::append_range(types, llvm::make_filter_range(op->getResultTypes(),
                                                    holdsFloats));
  return types;
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Rounds every element of a float constant to `elementType` (nearest even).
static TypedAttr roundConstant(TypedAttr value, FloatType elementType) {
  const llvm::fltSemantics &semantics = elementType.getFloatSemantics();
  auto round = [&](APFloat x) {
    bool losesInfo = false;
    x.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    return x;
  };
  if (auto scalar = dyn_cast<FloatAttr>(value))
    return FloatAttr::get(elementType, round(scalar.getValue()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
    return dense.mapValues(elementType, [&](const APFloat &x) {
      return round(x).bitcastToAPInt();
    });
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return convertResourceFloats(resource, elementType);
  return {};
}

/// False when some finite element of a float constant would round to an
/// infinity (or NaN) in `elementType`.
static bool fitsFormat(Attribute value, FloatType elementType) {
  auto fits = [&](APFloat x) {
    if (!x.isFinite())
      return true;
    bool losesInfo = false;
    APFloat::opStatus status = x.convert(elementType.getFloatSemantics(),
                                         APFloat::rmNearestTiesToEven,
                                         &losesInfo);
    return !(status & APFloat::opOverflow) && x.isFinite();
  };
  if (auto scalar = dyn_cast<FloatAttr>(value))
    return fits(scalar.getValue());
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
    if (dense.isSplat())
      return fits(dense.getSplatValue<APFloat>());
    return llvm::all_of(dense.getValues<APFloat>(), fits);
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (std::optional<SmallVector<APFloat>> values =
            readResourceFloats(resource))
      return llvm::all_of(*values, fits);
  return true;
}

//===----------------------------------------------------------------------===//
// The colouring
//===----------------------------------------------------------------------===//

class PrecisionInference {
public:
  PrecisionInference(ModuleOp module, const InferenceConfig &config,
                     PrecisionReport &report)
      : module(module), config(config), report(report),
        rewriter(module.getContext()) {}

  void run() {
    collectNodes();
    colour();
    recordDecisions();
    rewrite();
    if (config.demoteSignatures)
      demoteEntrySignatures();
  }

private:
  //===--- Nodes ---------------------------------------------------------===//

  /// Ops whose regions belong to them (bodies retyped with the op, or never
  /// touched): the walk does not enter them.
  static bool ownsItsRegions(Operation *op) {
    return isa<linalg::LinalgOp, tensor::PadOp, IslandOp>(op);
  }

  void collectNodes() {
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (llvm::any_of(op->getOperandTypes(), holdsFloats) ||
          llvm::any_of(op->getResultTypes(), holdsFloats))
        addNode(op);
      return ownsItsRegions(op) ? WalkResult::skip() : WalkResult::advance();
    });
  }

  void addNode(Operation *op) {
    index[op] = nodes.size();
    nodes.emplace_back();
    Node &node = nodes.back();
    node.op = op;
    for (Value result : op->getResults())
      if (holdsFloats(result.getType()))
        node.floatUses += llvm::range_size(result.getUses());

    if (auto classified = dyn_cast<PrecisionClassOpInterface>(op)) {
      node.hasClass = true;
      node.precisionClass = classified.getPrecisionClass(config.low);
    }
    if (node.precisionClass == PrecisionClass::Matrix) {
      if (auto structured = dyn_cast<linalg::LinalgOp>(op)) {
        MutableArrayRef<OpOperand> inits = getInitOperands(structured);
        if (!inits.empty()) {
          node.dpsInitBegin = inits.front().getOperandNumber();
          node.dpsInitEnd = node.dpsInitBegin + inits.size();
        }
      } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
        if (OperandRange inits = dps.getDpsInits(); !inits.empty()) {
          node.dpsInitBegin = inits.getBeginOperandIndex();
          node.dpsInitEnd = node.dpsInitBegin + inits.size();
        }
      }
    }
    if (StringRef why = whyNotRetypeable(node); !why.empty()) {
      node.colour = Colour::Wide;
      node.rule = why;
      return;
    }
    node.retypeable = true;
    applyOverrides(node);
  }

  /// Empty when the pass may retype `node`, else the reason it may not.
  StringRef whyNotRetypeable(const Node &node) {
    Operation *op = node.op;
    if (isa<IslandOp>(op))
      return "lowp.island: its body runs at its stated precision";
    if (!node.hasClass)
      return "no precision class (unknown op): left untouched";
    if (isa<func::CallOp>(op) || op->hasTrait<OpTrait::IsTerminator>())
      return "function or region boundary: types fixed by the signature";
    if (op->getNumRegions() != 0 && !ownsItsRegions(op))
      return "control flow: region-carried values keep their types";
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (!fitsFormat(constant.getValue(), config.low))
        return "constant beyond the low format's range";
    SmallVector<Type> floatTypes = getFloatTypes(op);
    if (llvm::any_of(floatTypes, [](Type t) { return !isRetypeableF32(t); })) {
      for (Type t : floatTypes) {
        if (isa<ComplexType>(getElementTypeOrSelf(t)))
          return "complex values: left untouched";
        if (isa<UnrankedTensorType>(t))
          return "unranked tensor: left untouched";
      }
      return "holds non-f32 floats: already decided or f64";
    }
    return "";
  }

  void applyOverrides(Node &node) {
    Operation *op = node.op;
    auto force = [&](Colour colour, StringRef rule) {
      node.colour = colour;
      node.forced = true;
      node.rule = rule;
    };
    if (auto attr = dyn_cast_or_null<TypeAttr>(
            op->getDiscardableAttr(LowpDialect::getPrecisionAttrName()))) {
      Type pinned = attr.getValue();
      if (pinned.isF32())
        return force(Colour::Wide, "lowp.precision = f32 override");
      if (pinned == config.low)
        return force(Colour::Low, "lowp.precision override");
      node.ownedRule = "lowp.precision names " + printType(pinned) +
                       ", inference runs " + printType(config.low);
      return force(Colour::Wide, "");
    }
    StringRef name = op->getName().getStringRef();
    if (config.keepWide.contains(name))
      return force(Colour::Wide, "keep-f32 option");
    if (config.forceLow.contains(name))
      return force(Colour::Low, "force-low option");
  }

  Node *lookupNode(Operation *op) {
    auto it = index.find(op);
    return it == index.end() ? nullptr : &nodes[it->second];
  }

  /// The node that a use by `user` belongs to: the user itself, or the
  /// structured op whose body captured the value.
  Node *nodeOfUser(Operation *user) {
    for (Operation *op = user; op; op = op->getParentOp())
      if (Node *node = lookupNode(op))
        return node;
    return nullptr;
  }

  /// Does `use` read the value directly as an operand of its node's op?
  static bool isDirect(OpOperand &use, Node *node) {
    return use.getOwner() == node->op;
  }

  //===--- Colouring -----------------------------------------------------===//

  bool isDemotable(const Node &node) const {
    return node.retypeable && node.colour == Colour::Unset &&
           (node.precisionClass == PrecisionClass::Follow ||
            node.precisionClass == PrecisionClass::Transparent);
  }

  /// Paints `colour` forward from `seeds` through unset follow/transparent
  /// ops (rules 2 and 3). Every node enters the worklist at most once.
  void paintForward(SmallVectorImpl<Node *> &worklist, Colour colour,
                    StringRef verb) {
    while (!worklist.empty()) {
      Node *from = worklist.pop_back_val();
      for (Value result : from->op->getResults())
        for (OpOperand &use : result.getUses()) {
          Node *to = nodeOfUser(use.getOwner());
          if (!to || !isDemotable(*to))
            continue;
          to->colour = colour;
          to->rule = verb;
          to->ruleSource = from->op;
          worklist.push_back(to);
        }
    }
  }

  /// Does the (low) node `consumer` want `use`'s value in the low format?
  bool wantsLow(Node *consumer, OpOperand &use) {
    return consumer->colour == Colour::Low && isDirect(use, consumer) &&
           getWantedType(*consumer, use, use.get().getType()) !=
               use.get().getType();
  }

  void colour() {
    // Rule 1: seeds.
    SmallVector<Node *> wide, low;
    for (Node &node : nodes) {
      if (!node.retypeable)
        continue;
      if (node.forced) {
        (node.colour == Colour::Low ? low : wide).push_back(&node);
        continue;
      }
      if (node.precisionClass == PrecisionClass::Matrix) {
        node.colour = Colour::Low;
        node.rule = "matrix class";
        node.ruleCitesClass = true;
        low.push_back(&node);
      } else if (node.precisionClass == PrecisionClass::Sensitive) {
        node.colour = Colour::Wide;
        node.rule = "sensitive class";
        node.ruleCitesClass = true;
        wide.push_back(&node);
      }
    }
    // Rules 2 and 3.
    paintForward(wide, Colour::Wide, "downstream of sensitive");
    SmallVector<Node *> lowNodes;
    for (Node &node : nodes)
      if (node.colour == Colour::Low)
        lowNodes.push_back(&node);
    SmallVector<Node *> worklist(lowNodes);
    if (config.propagate)
      paintForward(worklist, Colour::Low, "follows low-precision");

    // Rule 4: transparent producers all of whose uses want low values.
    worklist.clear();
    for (Node &node : nodes)
      if (node.colour == Colour::Low)
        worklist.push_back(&node);
    while (!worklist.empty()) {
      Node *consumer = worklist.pop_back_val();
      for (OpOperand &use : consumer->op->getOpOperands()) {
        Node *producer = lookupNode(use.get().getDefiningOp());
        if (!producer || !isDemotable(*producer) ||
            producer->precisionClass != PrecisionClass::Transparent ||
            !wantsLow(consumer, use))
          continue;
        if (++producer->lowUses != producer->floatUses)
          continue;
        producer->colour = Colour::Low;
        producer->demotedForUsers = true;
        producer->rule = "transparent, every use is low-precision";
        producer->ruleSource = nullptr;
        worklist.push_back(producer);
      }
    }

    // Rule 5: in reverse program order (users before producers), undo
    // demotions that cannot save a cast: an op with no low user is made wide
    // again when at most one of its operands arrives low (keeping it low
    // would cast its result back anyway). Transparent producers demoted by
    // rule 4 go with their users.
    for (Node &node : llvm::reverse(nodes)) {
      if (node.colour != Colour::Low || node.forced ||
          node.precisionClass == PrecisionClass::Matrix || hasLowUser(node))
        continue;
      if (!node.demotedForUsers && countLowProducers(node) > 1)
        continue;
      node.colour = Colour::Wide;
      node.rule = "no low-precision user: demoting would not save a cast";
      node.ruleSource = nullptr;
    }

    // Rule 6.
    for (Node &node : nodes)
      if (node.colour == Colour::Unset) {
        node.colour = Colour::Wide;
        node.rule = "no low-precision neighbour";
      }
  }

  bool hasLowUser(Node &node) {
    for (Value result : node.op->getResults())
      for (OpOperand &use : result.getUses())
        if (Node *user = nodeOfUser(use.getOwner()); user && wantsLow(user, use))
          return true;
    return false;
  }

  /// How many distinct operands of `node` come out of a low op as low values
  /// (a matrix op with a wide accumulator yields wide values; transparent
  /// producers that are low only for their users do not count).
  unsigned countLowProducers(Node &node) {
    llvm::SmallPtrSet<Operation *, 4> seen;
    unsigned count = 0;
    for (Value operand : node.op->getOperands()) {
      Node *producer = lookupNode(operand.getDefiningOp());
      if (!producer || producer->colour != Colour::Low ||
          producer->demotedForUsers)
        continue;
      if (producer->precisionClass == PrecisionClass::Matrix &&
          config.wideAccumulator)
        continue;
      if (seen.insert(producer->op).second)
        ++count;
    }
    return count;
  }

  //===--- Types ---------------------------------------------------------===//

  bool keepsWideAccumulator(const Node &node, OpOperand &use) const {
    if (!config.wideAccumulator ||
        node.precisionClass != PrecisionClass::Matrix)
      return false;
    unsigned number = use.getOperandNumber();
    return number >= node.dpsInitBegin && number < node.dpsInitEnd;
  }

  /// The type a (low) node wants for `use`, whose value had `originalType`.
  Type getWantedType(const Node &node, OpOperand &use, Type originalType) {
    if (node.colour != Colour::Low || !isRetypeableF32(originalType) ||
        keepsWideAccumulator(node, use))
      return originalType;
    return toLow(originalType);
  }

  /// `type` with float elements in the low format. Memoized: uniquing a
  /// tensor type hashes its shape under the context's lock, and a model
  /// retypes a few shapes many times.
  Type toLow(Type type) {
    auto [it, inserted] = lowTypes.try_emplace(type);
    if (inserted)
      it->second = withFloatElementType(type, config.low);
    return it->second;
  }

  Type getOriginalType(Value value) {
    auto it = originalTypes.find(value);
    return it == originalTypes.end() ? value.getType() : it->second;
  }

  //===--- Rewriting -----------------------------------------------------===//

  std::string describeRule(const Node &node) {
    if (!node.ownedRule.empty())
      return node.ownedRule;
    std::string text = node.rule.str();
    if (node.ruleSource)
      text += " " + node.ruleSource->getName().getStringRef().str();
    if (node.ruleCitesClass)
      text += ": " + cast<PrecisionClassOpInterface>(node.op)
                         .getPrecisionClassReason(config.low)
                         .str();
    return text;
  }

  void recordDecisions() {
    if (!config.recordDecisions)
      return;
    for (Node &node : nodes) {
      PrecisionDecision decision;
      decision.opName = node.op->getName().getStringRef().str();
      decision.location = printReportLocation(node.op->getLoc());
      decision.opClass = node.hasClass
                             ? stringifyPrecisionClass(node.precisionClass).str()
                             : "none";
      decision.rule = describeRule(node);
      decision.keptWide = node.retypeable && node.colour == Colour::Wide;
      decision.precision = decision.keptWide || !node.retypeable
                               ? describePrecision(node.op)
                               : printType(config.low);
      if (config.emitRemarks)
        mlir::emitRemark(node.op->getLoc()) << decision.precision << " ("
                              << decision.opClass << "): " << decision.rule;
      report.decisions.push_back(std::move(decision));
    }
  }

  /// The element type of `op`'s float values ("f32", "bf16", "mixed").
  static std::string describePrecision(Operation *op) {
    Type seen;
    for (Type type : getFloatTypes(op)) {
      Type element = getElementTypeOrSelf(type);
      if (seen && seen != element)
        return "mixed";
      seen = element;
    }
    return seen ? printType(seen) : "none";
  }

  /// A cast this run inserted, read by nothing but `user`.
  CastOp getOwnCastUsedOnlyBy(Value value, Operation *user) {
    auto cast = value.getDefiningOp<CastOp>();
    if (!cast || !insertedCasts.contains(cast) || !cast->hasOneUse() ||
        *cast->user_begin() != user)
      return {};
    return cast;
  }

  /// Moves the boundary casts of entry functions (no caller in the module)
  /// to their callers: an argument read only through one cast to the low
  /// format becomes a low argument, a result returned through one cast from
  /// the low format becomes a low result.
  void demoteEntrySignatures() {
    module.walk([&](func::FuncOp func) {
      if (func.isExternal() ||
          !SymbolTable::symbolKnownUseEmpty(func, module))
        return;
      Block &entry = func.getBody().front();
      SmallVector<Type> inputs(func.getArgumentTypes());
      SmallVector<Type> results(func.getResultTypes());
      for (BlockArgument arg : entry.getArguments()) {
        if (!arg.hasOneUse())
          continue;
        auto cast = arg.use_begin()->getOwner();
        auto own = dyn_cast<CastOp>(cast);
        if (!own || !insertedCasts.contains(own))
          continue;
        rewriter.modifyOpInPlace(func, [&] { arg.setType(own.getType()); });
        rewriter.replaceAllUsesWith(own.getResult(), arg);
        rewriter.eraseOp(own);
        insertedCasts.erase(own);
        --report.castsInserted;
        inputs[arg.getArgNumber()] = arg.getType();
      }
      func.walk([&](func::ReturnOp ret) {
        for (OpOperand &operand : ret->getOpOperands()) {
          CastOp own = getOwnCastUsedOnlyBy(operand.get(), ret);
          if (!own)
            continue;
          rewriter.modifyOpInPlace(ret, [&] { operand.set(own.getInput()); });
          rewriter.eraseOp(own);
          insertedCasts.erase(own);
          --report.castsInserted;
          results[operand.getOperandNumber()] = operand.get().getType();
        }
      });
      rewriter.modifyOpInPlace(func, [&] {
        func.setFunctionType(
            FunctionType::get(func.getContext(), inputs, results));
      });
    });
  }

  void rewrite() {
    // 1. Retype every low op (results, bodies) from the original types, and
    //    let islands hand low users low results: an island converts its
    //    results on exit, so no cast is needed after it.
    for (Node &node : nodes)
      if (node.colour == Colour::Low)
        retypeOp(node);
    for (Node &node : nodes)
      if (auto island = dyn_cast<IslandOp>(node.op))
        retypeIslandResults(island);
    // 2. Reconcile every use of a retyped value, then every operand of a low
    //    op that reads an unchanged value.
    for (Value value : retypedOrder) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : value.getUses())
        uses.push_back(&use);
      for (OpOperand *use : uses) {
        // An island converts its operands on entry: it reads any float type.
        if (isa<IslandOp>(use->getOwner()))
          continue;
        Node *user = nodeOfUser(use->getOwner());
        Type wanted = user && isDirect(*use, user)
                          ? getWantedType(*user, *use, originalTypes[value])
                          : originalTypes[value];
        reconcile(*use, wanted);
      }
    }
    for (Node &node : nodes) {
      if (node.colour != Colour::Low)
        continue;
      for (OpOperand &use : node.op->getOpOperands())
        if (!originalTypes.count(use.get()))
          reconcile(use, getWantedType(node, use, use.get().getType()));
    }
  }

  /// Gives an island result the low type when every use wants it low.
  void retypeIslandResults(IslandOp island) {
    for (OpResult result : island->getResults()) {
      if (!isRetypeableF32(result.getType()) || result.use_empty())
        continue;
      bool allLow = llvm::all_of(result.getUses(), [&](OpOperand &use) {
        Node *user = nodeOfUser(use.getOwner());
        return user && wantsLow(user, use);
      });
      if (!allLow)
        continue;
      rewriter.modifyOpInPlace(island, [&] {
        setResultType(result, toLow(result.getType()));
      });
    }
  }

  void reconcile(OpOperand &use, Type wanted) {
    if (use.get().getType() == wanted)
      return;
    Value converted = getConverted(use.get(), wanted);
    rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(converted); });
  }

  /// `value` as `type`: one lowp.cast per value and type, placed right after
  /// the definition; constants and empty tensors are re-created instead.
  Value getConverted(Value value, Type type) {
    auto [it, inserted] = conversions.try_emplace({value, type}, Value());
    if (!inserted)
      return it->second;
    OpBuilder::InsertionGuard guard(rewriter);
    // Casts of block arguments go to the block's start in argument order.
    Block *argBlock = nullptr;
    if (Operation *def = value.getDefiningOp()) {
      rewriter.setInsertionPointAfter(def);
    } else {
      argBlock = cast<BlockArgument>(value).getOwner();
      if (Operation *last = lastArgumentCast.lookup(argBlock))
        rewriter.setInsertionPointAfter(last);
      else
        rewriter.setInsertionPointToStart(argBlock);
    }
    Location loc = value.getLoc();
    FloatType element = getFloatElementType(type);
    Value converted;
    // A constant is re-created rounded, unless it overflows: then the cast
    // stays visible in the IR.
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    if (constant && fitsFormat(constant.getValue(), element)) {
      if (TypedAttr rounded = roundConstant(constant.getValue(), element)) {
        converted = arith::ConstantOp::create(rewriter, loc, rounded);
        ++report.constantsRounded;
      }
    } else if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) {
      converted = tensor::EmptyOp::create(rewriter, loc, type,
                                          empty.getDynamicSizes());
    }
    if (!converted) {
      auto cast = CastOp::create(rewriter, loc, type, value);
      insertedCasts.insert(cast);
      converted = cast;
      ++report.castsInserted;
    }
    if (argBlock)
      lastArgumentCast[argBlock] = converted.getDefiningOp();
    it->second = converted;
    return converted;
  }

  void setResultType(Value result, Type type) {
    if (result.getType() == type)
      return;
    originalTypes[result] = result.getType();
    retypedOrder.push_back(result);
    result.setType(type);
  }

  void retypeOp(Node &node) {
    Operation *op = node.op;
    // Constants are re-created with rounded values.
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      TypedAttr rounded = roundConstant(constant.getValue(), config.low);
      if (!rounded)
        return;
      rewriter.modifyOpInPlace(op, [&] {
        constant.setValueAttr(rounded);
        setResultType(constant.getResult(), rounded.getType());
      });
      ++report.constantsRounded;
      return;
    }
    rewriter.modifyOpInPlace(op, [&] {
      for (OpResult result : op->getResults()) {
        if (!isRetypeableF32(result.getType()))
          continue;
        // A wide accumulator keeps the result tied to it wide.
        if (OpOperand *tied = getTiedInit(op, result);
            tied && keepsWideAccumulator(node, *tied))
          continue;
        setResultType(result, toLow(result.getType()));
      }
    });
    if (auto structured = dyn_cast<linalg::LinalgOp>(op))
      retypeBody(node, structured);
    else if (auto pad = dyn_cast<tensor::PadOp>(op))
      retypePadValue(pad);
  }

  /// An f32 scalar constant defined outside the body of `region`'s op and
  /// read inside it (torch-mlir captures every scalar operand this way) that
  /// the low format holds: a low body reads a rounded copy instead.
  bool isCapturedLowConstant(Value value, Region *region) {
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    return constant && !region->isAncestor(value.getParentRegion()) &&
           constant.getType().isF32() &&
           fitsFormat(constant.getValue(), config.low);
  }

  /// Can every float op of the body compute in the low format directly?
  /// Floats it reads or yields from outside must be constants it can round.
  bool canComputeBodyInLow(linalg::LinalgOp op) {
    Region *body = op.getBlock()->getParent();
    auto readsOnlyLowFloats = [&](Operation &bodyOp) {
      return llvm::all_of(bodyOp.getOperands(), [&](Value operand) {
        return body->isAncestor(operand.getParentRegion()) ||
               !holdsFloats(operand.getType()) ||
               isCapturedLowConstant(operand, body);
      });
    };
    for (Operation &bodyOp : op.getBlock()->without_terminator()) {
      if (!isa_and_present<arith::ArithDialect, math::MathDialect>(
              bodyOp.getDialect()) &&
          !isa<linalg::IndexOp>(bodyOp))
        return false;
      if (isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp>(bodyOp))
        return false;
      if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp))
        if (!fitsFormat(constant.getValue(), config.low))
          return false;
      if (!readsOnlyLowFloats(bodyOp))
        return false;
    }
    return readsOnlyLowFloats(*op.getBlock()->getTerminator());
  }

  /// Makes the low body of `op` read rounded copies of the constants it
  /// captures, created once each at the start of the body.
  void roundCapturedConstants(linalg::LinalgOp op) {
    Block *block = op.getBlock();
    Region *body = block->getParent();
    DenseMap<Value, Value> rounded;
    for (Operation &bodyOp : *block)
      for (OpOperand &operand : bodyOp.getOpOperands()) {
        Value value = operand.get();
        if (!isCapturedLowConstant(value, body))
          continue;
        Value &copy = rounded[value];
        if (!copy) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(block);
          copy = arith::ConstantOp::create(
              rewriter, value.getLoc(),
              roundConstant(value.getDefiningOp<arith::ConstantOp>().getValue(),
                            config.low));
          ++report.constantsRounded;
        }
        operand.set(copy);
      }
  }

  /// Gives the body block arguments the element types of the new operand
  /// types. The body then computes in the low format when the op's inits are
  /// low and every body op allows it; otherwise it computes in f32 as before
  /// (arguments extended on entry, yielded values truncated on exit) - the
  /// usual mixed-precision contraction with a wide accumulator.
  void retypeBody(Node &node, linalg::LinalgOp op) {
    Block *block = op.getBlock();
    bool lowBody = config.lowArithmetic && canComputeBodyInLow(op) &&
                   llvm::all_of(getInitOperands(op), [&](OpOperand &init) {
                     return !isRetypeableF32(init.get().getType()) ||
                            !keepsWideAccumulator(node, init);
                   });
    rewriter.modifyOpInPlace(op, [&] {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(block);
      for (auto [use, arg] : llvm::zip(op.getOpOperandsMatchingBBargs(),
                                       block->getArguments())) {
        if (!arg.getType().isF32())
          continue;
        Type wanted = getElementTypeOrSelf(
            getWantedType(node, *use, getOriginalType(use->get())));
        if (wanted == arg.getType())
          continue;
        arg.setType(wanted);
        if (lowBody || arg.use_empty())
          continue;
        auto wide = arith::ExtFOp::create(rewriter, arg.getLoc(),
                                          rewriter.getF32Type(), arg);
        rewriter.replaceAllUsesExcept(arg, wide, wide);
      }
      if (lowBody) {
        for (Operation &bodyOp : block->without_terminator()) {
          if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp)) {
            if (TypedAttr rounded =
                    roundConstant(constant.getValue(), config.low)) {
              constant.setValueAttr(rounded);
              constant.getResult().setType(rounded.getType());
              ++report.constantsRounded;
            }
            continue;
          }
          for (Value result : bodyOp.getResults())
            if (result.getType().isF32())
              result.setType(config.low);
        }
        roundCapturedConstants(op);
        return;
      }
      // Wide body: truncate what is yielded into low inits.
      Operation *yield = block->getTerminator();
      rewriter.setInsertionPoint(yield);
      for (OpOperand &yielded : yield->getOpOperands()) {
        Type wanted = getElementTypeOrSelf(
            op->getResult(yielded.getOperandNumber()).getType());
        if (yielded.get().getType() == wanted || !isa<FloatType>(wanted))
          continue;
        auto narrow = arith::TruncFOp::create(rewriter, yield->getLoc(),
                                              wanted, yielded.get());
        yielded.set(narrow);
      }
    });
  }

  /// The padding value of a low tensor.pad is yielded in the low format.
  void retypePadValue(tensor::PadOp pad) {
    auto yield = cast<tensor::YieldOp>(pad.getBody()->getTerminator());
    Value value = yield.getValue();
    if (!value.getType().isF32())
      return;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    Value narrow;
    if (auto constant = value.getDefiningOp<arith::ConstantOp>())
      if (TypedAttr rounded = roundConstant(constant.getValue(), config.low))
        narrow = arith::ConstantOp::create(rewriter, yield.getLoc(), rounded);
    if (!narrow)
      narrow = arith::TruncFOp::create(rewriter, yield.getLoc(), config.low,
                                       value);
    rewriter.modifyOpInPlace(yield, [&] { yield.getValueMutable().set(narrow); });
  }

  ModuleOp module;
  const InferenceConfig &config;
  PrecisionReport &report;
  IRRewriter rewriter;

  std::vector<Node> nodes;
  DenseMap<Operation *, unsigned> index;
  DenseMap<Value, Type> originalTypes;
  DenseMap<Type, Type> lowTypes;
  /// Retyped values in the order they were retyped (deterministic output).
  SmallVector<Value> retypedOrder;
  DenseMap<std::pair<Value, Type>, Value> conversions;
  DenseMap<Block *, Operation *> lastArgumentCast;
  llvm::SmallPtrSet<Operation *, 16> insertedCasts;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowpInferPrecisionPass
    : public lowp::impl::LowpInferPrecisionBase<LowpInferPrecisionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    PrecisionReport report;

    // The target: the option (recorded on the module) or the module's.
    FailureOr<const TargetInfo *> resolved = resolveTarget(module, this->target);
    if (failed(resolved))
      return signalPassFailure();
    const TargetInfo *target = *resolved;
    // The option sets the target for every later pass too.
    if (!this->target.empty())
      module->setAttr(LowpDialect::getTargetAttrName(),
                      TargetAttr::get(context, this->target));
    if (target)
      report.target = target->name.str();

    InferenceConfig config;
    // `low` and `accumulate` are enum options: the pipeline parser has
    // rejected other spellings (low offers auto, f16 and bf16).
    if (lowFormat == LowFormat::F16) {
      config.low = Float16Type::get(context);
    } else if (lowFormat == LowFormat::BF16) {
      config.low = BFloat16Type::get(context);
    } else {
      if (!target) {
        module.emitError() << "low=auto needs a target: pass target=<chip> "
                              "or set the module's lowp.target";
        return signalPassFailure();
      }
      if (!target->preferred16) {
        report.lowFormat = "none";
        report.note = ("target '" + target->name +
                       "' has no fast 16-bit matrix arithmetic; precision "
                       "inference leaves the module unchanged")
                          .str();
        mlir::emitRemark(module.getLoc()) << report.note;
        report.bytesBefore = report.bytesAfter = measureTensorBytes(module);
        if (failed(writeReport(report)))
          return signalPassFailure();
        return markAllAnalysesPreserved();
      }
      config.low = getFloatType(context, *target->preferred16);
    }
    config.wideAccumulator = accumulate == Accumulator::F32;
    for (const std::string &name : keepWideOps)
      config.keepWide.insert(name);
    for (const std::string &name : forceLowOps)
      config.forceLow.insert(name);
    config.emitRemarks = emitRemarks;
    config.demoteSignatures = demoteSignatures;
    config.propagate = propagate;
    config.recordDecisions = emitRemarks || !reportPath.empty();

    // The report is read only when it is written (reportPath) or its
    // decisions are remarked; printing a type sets up an AsmState, a fixed
    // cost every other run would pay for nothing.
    if (config.recordDecisions) {
      report.lowFormat = printType(config.low);
      report.accumulate = config.wideAccumulator ? "f32" : report.lowFormat;
    }
    if (target) {
      std::optional<Format> format = getFormat(config.low);
      if (format && !target->hasMatrixUnit(*format))
        mlir::emitRemark(module.getLoc()) << "target '" << target->name << "' has no "
                            << printType(config.low)
                            << " matrix units; demoting as requested";
      config.lowArithmetic = format && target->hasNativeArithmetic(*format);
      if (!config.lowArithmetic && config.recordDecisions)
        report.note = ("target '" + target->name + "' has no " +
                       report.lowFormat +
                       " elementwise arithmetic; low payloads store " +
                       report.lowFormat + " and compute in f32")
                          .str();
      if (!config.lowArithmetic && config.emitRemarks)
        mlir::emitRemark(module.getLoc()) << report.note;
    }

    if (!reportPath.empty())
      report.bytesBefore = measureTensorBytes(module);
    PrecisionInference(module, config, report).run();
    if (!reportPath.empty())
      report.bytesAfter = measureTensorBytes(module);

    if (failed(writeReport(report)))
      return signalPassFailure();
  }

  LogicalResult writeReport(const PrecisionReport &report) {
    if (reportPath.empty())
      return success();
    if (reportPath == "-") {
      report.writeTable(llvm::errs());
      return success();
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(reportPath, &error);
    if (!file)
      return getOperation().emitError()
             << "cannot write the report to '" << reportPath << "': " << error;
    if (StringRef(reportPath).ends_with(".json"))
      report.writeJson(file->os());
    else
      report.writeTable(file->os());
    file->keep();
    return success();
  }
};
} // namespace
