//===- PrecisionColouring.cpp - which ops run low, and why ----------------===//
//
// The rules (docs/passes/infer-precision.md):
//   1. matrix ops are low, sensitive ops wide (seeds); overrides win;
//   2. wide is painted forward from sensitive ops through follow ops;
//  2a. (f32 streams) elementwise joins of a matrix branch into an f32
//      stream stay wide;
//   3. low is painted forward from low ops through follow ops;
//   4. transparent producers all of whose uses want low values are low;
//   5. demotions that cannot save a cast are undone;
//   6. everything left is wide.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/PrecisionColouring.h"

#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/StructuredOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::lowp;

StringRef mlir::lowp::describeColourReason(ColourReason reason) {
  switch (reason) {
  case ColourReason::Island:
    return "lowp.island: its body runs at its stated precision";
  case ColourReason::NoClass:
    return "no precision class (unknown op): left untouched";
  case ColourReason::Boundary:
    return "function or region boundary: types fixed by the signature";
  case ColourReason::ControlFlow:
    return "control flow: region-carried values keep their types";
  case ColourReason::ConstantOverflow:
    return "constant beyond the low format's range";
  case ColourReason::Complex:
    return "complex values: left untouched";
  case ColourReason::Unranked:
    return "unranked tensor: left untouched";
  case ColourReason::NonF32:
    return "holds non-f32 floats: already decided or f64";
  case ColourReason::PinnedWide:
    return "lowp.precision = f32 override";
  case ColourReason::PinnedLow:
    return "lowp.precision override";
  case ColourReason::PinnedOther:
    return "lowp.precision names another format";
  case ColourReason::KeepF32Option:
    return "keep-f32 option";
  case ColourReason::ForceLowOption:
    return "force-low option";
  case ColourReason::MatrixClass:
    return "matrix class";
  case ColourReason::SensitiveClass:
    return "sensitive class";
  case ColourReason::DownstreamOfSensitive:
    return "downstream of sensitive";
  case ColourReason::FollowsLow:
    return "follows low-precision";
  case ColourReason::TransparentForLowUsers:
    return "transparent, every use is low-precision";
  case ColourReason::NoLowUser:
    return "no low-precision user: demoting would not save a cast";
  case ColourReason::NoLowNeighbour:
    return "no low-precision neighbour";
  case ColourReason::StreamJoin:
    return "joins a matrix op's result into an f32 stream (residual): kept "
           "f32 at no matrix-unit cost (f32-streams=false trades it for "
           "16-bit bytes)";
  case ColourReason::NoLowFormat:
    return "the target has no fast 16-bit matrix arithmetic: nothing is "
           "demoted";
  }
  llvm_unreachable("unknown colour reason");
}

bool mlir::lowp::isRetypeableF32(Type type) {
  if (isa<UnrankedTensorType, BaseMemRefType>(type))
    return false;
  FloatType element = getFloatElementType(type);
  return element && element.isF32();
}

bool mlir::lowp::holdsFloats(Type type) {
  Type element = getElementTypeOrSelf(type);
  return isa<FloatType, ComplexType>(element);
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

bool PrecisionColouring::ownsItsRegions(Operation *op) {
  return isa<linalg::LinalgOp, tensor::PadOp, IslandOp>(op);
}

PrecisionColouring::PrecisionColouring(Operation *root,
                                       const ColouringOptions &options)
    : options(options) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), holdsFloats) ||
        llvm::any_of(op->getResultTypes(), holdsFloats))
      addNode(op);
    return ownsItsRegions(op) ? WalkResult::skip() : WalkResult::advance();
  });
  colour();
}

void PrecisionColouring::addNode(Operation *op) {
  index[op] = ops.size();
  OpColouring &node = ops.emplace_back();
  node.op = op;
  for (Value result : op->getResults())
    if (holdsFloats(result.getType()))
      node.floatUses += llvm::range_size(result.getUses());

  if (auto classified = dyn_cast<PrecisionClassOpInterface>(op)) {
    node.hasClass = true;
    node.precisionClass = classified.getPrecisionClass(options.low);
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
  if (std::optional<ColourReason> why = whyNotRetypeable(node)) {
    node.colour = Colour::Wide;
    node.reason = *why;
    return;
  }
  node.retypeable = true;
  applyOverrides(node);
}

std::optional<ColourReason>
PrecisionColouring::whyNotRetypeable(const OpColouring &node) const {
  Operation *op = node.op;
  if (isa<IslandOp>(op))
    return ColourReason::Island;
  if (!node.hasClass)
    return ColourReason::NoClass;
  if (isa<func::CallOp>(op) || op->hasTrait<OpTrait::IsTerminator>())
    return ColourReason::Boundary;
  if (op->getNumRegions() != 0 && !ownsItsRegions(op))
    return ColourReason::ControlFlow;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    if (!fitsFormatRange(constant.getValue(), options.low))
      return ColourReason::ConstantOverflow;
  SmallVector<Type> floatTypes;
  llvm::append_range(floatTypes, llvm::make_filter_range(
                                     op->getOperandTypes(), holdsFloats));
  llvm::append_range(floatTypes, llvm::make_filter_range(
                                     op->getResultTypes(), holdsFloats));
  if (llvm::all_of(floatTypes, isRetypeableF32))
    return std::nullopt;
  for (Type t : floatTypes) {
    if (isa<ComplexType>(getElementTypeOrSelf(t)))
      return ColourReason::Complex;
    if (isa<UnrankedTensorType>(t))
      return ColourReason::Unranked;
  }
  return ColourReason::NonF32;
}

void PrecisionColouring::applyOverrides(OpColouring &node) {
  Operation *op = node.op;
  auto force = [&](Colour colour, ColourReason reason) {
    node.colour = colour;
    node.forced = true;
    node.reason = reason;
  };
  if (FloatType pinned = getPinnedPrecision(op)) {
    if (pinned.isF32())
      return force(Colour::Wide, ColourReason::PinnedWide);
    if (!options.demote)
      return force(Colour::Wide, ColourReason::NoLowFormat);
    if (pinned == options.low)
      return force(Colour::Low, ColourReason::PinnedLow);
    node.pinned = pinned;
    return force(Colour::Wide, ColourReason::PinnedOther);
  }
  StringRef name = op->getName().getStringRef();
  if (options.keepWide.contains(name))
    return force(Colour::Wide, ColourReason::KeepF32Option);
  if (options.forceLow.contains(name) && options.demote)
    return force(Colour::Low, ColourReason::ForceLowOption);
}

OpColouring *PrecisionColouring::lookup(Operation *op) {
  auto it = index.find(op);
  return it == index.end() ? nullptr : &ops[it->second];
}

OpColouring *PrecisionColouring::lookupUser(Operation *user) {
  for (Operation *op = user; op; op = op->getParentOp())
    if (OpColouring *node = lookup(op))
      return node;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool PrecisionColouring::keepsWideAccumulator(const OpColouring &node,
                                              OpOperand &use) const {
  if (!options.wideAccumulator ||
      node.precisionClass != PrecisionClass::Matrix)
    return false;
  unsigned number = use.getOperandNumber();
  return number >= node.dpsInitBegin && number < node.dpsInitEnd;
}

Type PrecisionColouring::getWantedType(const OpColouring &node, OpOperand &use,
                                       Type originalType) {
  if (node.colour != Colour::Low || !isRetypeableF32(originalType) ||
      keepsWideAccumulator(node, use))
    return originalType;
  return toLow(originalType);
}

bool PrecisionColouring::wantsLow(const OpColouring &consumer,
                                  OpOperand &use) {
  return consumer.colour == Colour::Low && use.getOwner() == consumer.op &&
         getWantedType(consumer, use, use.get().getType()) !=
             use.get().getType();
}

Type PrecisionColouring::toLow(Type type) {
  auto [it, inserted] = lowTypes.try_emplace(type);
  if (inserted)
    it->second = withFloatElementType(type, options.low);
  return it->second;
}

std::string PrecisionColouring::describe(const OpColouring &node) const {
  if (node.reason == ColourReason::PinnedOther)
    return "lowp.precision names " + printType(node.pinned) +
           ", inference runs " + printType(options.low);
  std::string text = describeColourReason(node.reason).str();
  if (node.reasonSource)
    text += " " + node.reasonSource->getName().getStringRef().str();
  if (node.reason == ColourReason::MatrixClass ||
      node.reason == ColourReason::SensitiveClass)
    text += ": " + cast<PrecisionClassOpInterface>(node.op)
                       .getPrecisionClassReason(options.low)
                       .str();
  return text;
}

//===----------------------------------------------------------------------===//
// Colouring
//===----------------------------------------------------------------------===//

bool PrecisionColouring::isDemotable(const OpColouring &node) const {
  return node.retypeable && node.colour == Colour::Unset &&
         (node.precisionClass == PrecisionClass::Follow ||
          node.precisionClass == PrecisionClass::Transparent);
}

/// The number of elements of a statically shaped type, 1 for a scalar, -1
/// when dynamic.
static int64_t getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return 1;
  return shaped.hasStaticShape() ? shaped.getNumElements() : -1;
}

bool PrecisionColouring::isMoveOfWideValue(const OpColouring &node) const {
  if (!node.retypeable || node.forced || node.colour != Colour::Wide ||
      node.reason != ColourReason::DownstreamOfSensitive ||
      node.precisionClass != PrecisionClass::Transparent ||
      node.op->getNumResults() != 1)
    return false;
  SmallVector<Value> moved =
      llvm::filter_to_vector(node.op->getOperands(), [](Value v) {
        return holdsFloats(v.getType());
      });
  if (moved.size() != 1)
    return false;
  int64_t in = getNumElements(moved[0].getType()),
          out = getNumElements(node.op->getResult(0).getType());
  return in >= 0 && out >= in;
}

/// Paints `colour` forward from `worklist` through unset follow/transparent
/// ops (rules 2 and 3). Every node enters the worklist at most once.
void PrecisionColouring::paintForward(SmallVectorImpl<OpColouring *> &worklist,
                                      Colour colour, ColourReason reason) {
  while (!worklist.empty()) {
    OpColouring *from = worklist.pop_back_val();
    for (Value result : from->op->getResults())
      for (OpOperand &use : result.getUses()) {
        OpColouring *to = lookupUser(use.getOwner());
        if (!to || !isDemotable(*to))
          continue;
        to->colour = colour;
        to->reason = reason;
        to->reasonSource = from->op;
        worklist.push_back(to);
      }
  }
}

void PrecisionColouring::colour() {
  if (!options.demote) {
    for (OpColouring &node : ops)
      if (node.colour == Colour::Unset) {
        node.colour = Colour::Wide;
        node.reason = ColourReason::NoLowFormat;
      }
    return;
  }
  // Rule 1: seeds.
  SmallVector<OpColouring *> wide, low;
  for (OpColouring &node : ops) {
    if (!node.retypeable)
      continue;
    if (node.forced) {
      (node.colour == Colour::Low ? low : wide).push_back(&node);
      continue;
    }
    if (node.precisionClass == PrecisionClass::Matrix) {
      node.colour = Colour::Low;
      node.reason = ColourReason::MatrixClass;
      low.push_back(&node);
    } else if (node.precisionClass == PrecisionClass::Sensitive) {
      node.colour = Colour::Wide;
      node.reason = ColourReason::SensitiveClass;
      wide.push_back(&node);
    }
  }
  // Rules 2, 2a and 3.
  paintForward(wide, Colour::Wide, ColourReason::DownstreamOfSensitive);
  if (options.keepStreamsWide)
    markStreamJoins();
  SmallVector<OpColouring *> worklist;
  for (OpColouring &node : ops)
    if (node.colour == Colour::Low)
      worklist.push_back(&node);
  if (options.propagate)
    paintForward(worklist, Colour::Low, ColourReason::FollowsLow);

  // Rule 4: transparent producers all of whose uses want low values. A
  // move of one value that rule 2 made wide (a pad or a reshape of what an
  // exp or an island computed) goes too: rounding commutes with moving
  // values, so its operand is cast instead of its result - one cast as
  // before, on no more elements, and the move (a pad's copy) in 16 bits.
  worklist.clear();
  for (OpColouring &node : ops)
    if (node.colour == Colour::Low)
      worklist.push_back(&node);
  while (!worklist.empty()) {
    OpColouring *consumer = worklist.pop_back_val();
    for (OpOperand &use : consumer->op->getOpOperands()) {
      OpColouring *producer = lookup(use.get().getDefiningOp());
      if (!producer ||
          !(isDemotable(*producer) || isMoveOfWideValue(*producer)) ||
          producer->precisionClass != PrecisionClass::Transparent ||
          !wantsLow(*consumer, use))
        continue;
      if (++producer->lowUses != producer->floatUses)
        continue;
      producer->colour = Colour::Low;
      producer->demotedForUsers = true;
      producer->reason = ColourReason::TransparentForLowUsers;
      producer->reasonSource = nullptr;
      worklist.push_back(producer);
    }
  }

  // Rule 5: in reverse program order (users before producers), undo
  // demotions that cannot save a cast: an op with no low user is made wide
  // again when at most one of its operands arrives low (keeping it low
  // would cast its result back anyway). Transparent producers demoted by
  // rule 4 go with their users.
  for (OpColouring &node : llvm::reverse(ops)) {
    if (node.colour != Colour::Low || node.forced ||
        node.precisionClass == PrecisionClass::Matrix || hasLowUser(node))
      continue;
    if (!node.demotedForUsers && countLowProducers(node) > 1)
      continue;
    node.colour = Colour::Wide;
    node.reason = ColourReason::NoLowUser;
    node.reasonSource = nullptr;
  }

  // Rule 6.
  for (OpColouring &node : ops)
    if (node.colour == Colour::Unset) {
      node.colour = Colour::Wide;
      node.reason = ColourReason::NoLowNeighbour;
    }
}

/// Is `value` an f32 stream that an op producing `resultType` reads whole
/// (not a broadcast bias or a slice)? Streams are ranked f32 tensors that
/// enter from outside the low region: block arguments (function inputs,
/// values carried across loop iterations) and results of ops that stay
/// wide by themselves (islands, calls, sensitive ops, earlier joins),
/// seen through moves that keep every element.
bool PrecisionColouring::isStreamOperand(Value value, Type resultType) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || !isRetypeableF32(tensor))
    return false;
  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  if (!resultTensor || getNumElements(tensor) != getNumElements(resultTensor) ||
      getNumElements(tensor) < 0 ||
      tensor.getShape() != resultTensor.getShape())
    return false;
  if (isa<BlockArgument>(value))
    return true;
  OpColouring *producer = lookup(value.getDefiningOp());
  return producer && producer->stream;
}

void PrecisionColouring::markStreamJoins() {
  // Program order: producers before users.
  for (OpColouring &node : ops) {
    Operation *op = node.op;
    if (node.precisionClass == PrecisionClass::Matrix) {
      node.fromMatrix = node.colour == Colour::Low;
      continue;
    }
    if (!node.retypeable) {
      node.stream = !isa<arith::ConstantOp>(op);
      continue;
    }
    if (node.colour == Colour::Wide) {
      node.stream = true;
      continue;
    }
    if (node.colour != Colour::Unset || op->getNumResults() != 1)
      continue;
    Type resultType = op->getResult(0).getType();
    SmallVector<Value> inputs;
    if (auto structured = dyn_cast<linalg::LinalgOp>(op)) {
      for (OpOperand &input : getInputOperands(structured))
        inputs.push_back(input.get());
    } else {
      llvm::append_range(inputs, op->getOperands());
    }
    bool fromMatrix = false, stream = false;
    unsigned floatInputs = 0;
    for (Value input : inputs) {
      if (!holdsFloats(input.getType()))
        continue;
      ++floatInputs;
      OpColouring *producer = lookup(input.getDefiningOp());
      bool branch = producer && producer->fromMatrix;
      fromMatrix |= branch;
      stream |= !branch && isStreamOperand(input, resultType);
    }
    if (node.precisionClass == PrecisionClass::Transparent) {
      // A move of one stream is the stream; of a branch, the branch.
      node.stream = stream && floatInputs == 1;
      node.fromMatrix = fromMatrix && floatInputs == 1;
      continue;
    }
    node.fromMatrix = fromMatrix;
    if (fromMatrix && stream) {
      node.colour = Colour::Wide;
      node.reason = ColourReason::StreamJoin;
      node.stream = true;
      node.fromMatrix = false;
    }
  }
}

bool PrecisionColouring::hasLowUser(OpColouring &node) {
  for (Value result : node.op->getResults())
    for (OpOperand &use : result.getUses())
      if (OpColouring *user = lookupUser(use.getOwner());
          user && wantsLow(*user, use))
        return true;
  return false;
}

/// How many distinct operands of `node` come out of a low op as low values
/// (a matrix op with a wide accumulator yields wide values; transparent
/// producers that are low only for their users do not count).
unsigned PrecisionColouring::countLowProducers(OpColouring &node) {
  llvm::SmallPtrSet<Operation *, 4> seen;
  unsigned count = 0;
  for (Value operand : node.op->getOperands()) {
    OpColouring *producer = lookup(operand.getDefiningOp());
    if (!producer || producer->colour != Colour::Low ||
        producer->demotedForUsers)
      continue;
    if (producer->precisionClass == PrecisionClass::Matrix &&
        options.wideAccumulator)
      continue;
    if (seen.insert(producer->op).second)
      ++count;
  }
  return count;
}
