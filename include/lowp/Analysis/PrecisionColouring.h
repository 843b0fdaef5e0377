//===- PrecisionColouring.h - which ops run low, and why ---------*- C++ -*-===//
//
// The colouring behind precision inference: every op that holds float values
// gets one result, its colour (low: its float values take the 16-bit format;
// wide: they keep their types) and the reason (an ODS enum, ColourReason).
// The analysis reads only IR and attributes and changes nothing; the
// inference pass retypes from it, the FP8 pass and the report read it.
// The rules, in order, are documented in docs/passes/infer-precision.md.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_ANALYSIS_PRECISIONCOLOURING_H
#define LOWP_ANALYSIS_PRECISIONCOLOURING_H

#include "lowp/IR/LowpDialect.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace mlir::lowp {

enum class Colour : uint8_t { Unset, Low, Wide };

/// What the colouring is asked to decide.
struct ColouringOptions {
  /// The 16-bit format low ops take.
  FloatType low;
  /// Matrix ops keep their accumulators (DPS inits) wide.
  bool wideAccumulator = true;
  /// Op names always kept wide / always made low (`keep-f32`, `force-low`).
  llvm::StringSet<> keepWide, forceLow;
  /// Rules 2 and 3: low values carried forward through follow ops. Off,
  /// matrix inputs are rounded and everything else stays f32 (autocast).
  bool propagate = true;
  /// Rule 2a: an elementwise op that combines a value computed from a
  /// matrix op with an f32 stream flowing past it (a residual add, a
  /// value carried across blocks or loop iterations) stays f32, and with it
  /// the branch's epilogue before it (rule 5). Matrix inputs are still
  /// rounded once; only elementwise work stays wide, which costs no
  /// matrix-unit time.
  bool keepStreamsWide = false;
  /// Off (low=auto on a target without a preferred 16-bit format): every
  /// op stays as it is, pins and force-low included; `low` only
  /// classifies.
  bool demote = true;
};

/// The colouring result for one op.
struct OpColouring {
  Operation *op = nullptr;
  /// The float types of this op may change (it has a class, holds only f32
  /// floats, and is not a boundary such as a call or control flow).
  bool retypeable = false;
  /// A user override decided the colour.
  bool forced = false;
  bool hasClass = false;
  PrecisionClass precisionClass = PrecisionClass::Follow;
  /// Operand numbers [begin, end) of a matrix op's DPS inits, read once:
  /// asking the op rebuilds its operand segment attribute on every call.
  unsigned dpsInitBegin = 0, dpsInitEnd = 0;
  Colour colour = Colour::Unset;
  /// Why the colour was chosen, and the op that propagated it, if any.
  ColourReason reason = ColourReason::NoLowNeighbour;
  Operation *reasonSource = nullptr;
  /// For ColourReason::PinnedOther: the type lowp.precision names.
  Type pinned;
  /// Uses of this op's float results, and how many of them want low values
  /// (rule 4).
  unsigned floatUses = 0;
  unsigned lowUses = 0;
  /// Made low by rule 4 only because its users are low.
  bool demotedForUsers = false;
  /// Rule 2a: computed from a matrix op's result through follow and
  /// transparent ops.
  bool fromMatrix = false;
  /// Rule 2a: its result is an f32 stream (a join, or a wide value).
  bool stream = false;

  bool isLow() const { return colour == Colour::Low; }
  /// Retypeable, but kept at its original precision.
  bool isKeptWide() const { return retypeable && colour == Colour::Wide; }
};

/// The text the report and remarks print for `reason` (without the op that
/// propagated it or the class reason).
StringRef describeColourReason(ColourReason reason);

/// True for types whose float elements are f32 in a shape the colouring can
/// retype: scalars, vectors and ranked tensors. Buffers are not: retyping a
/// memref changes what other code reads from the same memory.
bool isRetypeableF32(Type type);

/// True for types that carry float (or complex) numbers.
bool holdsFloats(Type type);

/// Colours every op under `root` that holds float values.
class PrecisionColouring {
public:
  PrecisionColouring(Operation *root, const ColouringOptions &options);

  const ColouringOptions &getOptions() const { return options; }

  /// Every coloured op, in pre-order (program order).
  MutableArrayRef<OpColouring> getOps() { return ops; }
  ArrayRef<OpColouring> getOps() const { return ops; }

  /// The result for `op`, or null when `op` holds no floats (or is nested
  /// in an op that owns its regions).
  OpColouring *lookup(Operation *op);
  const OpColouring *lookup(Operation *op) const {
    return const_cast<PrecisionColouring *>(this)->lookup(op);
  }
  /// The result a use by `user` belongs to: the user itself, or the
  /// structured op whose body captured the value.
  OpColouring *lookupUser(Operation *user);

  /// Does a matrix op keep `use` (one of its inits) wide?
  bool keepsWideAccumulator(const OpColouring &node, OpOperand &use) const;
  /// The type a (low) node wants for `use`, whose value had `originalType`.
  Type getWantedType(const OpColouring &node, OpOperand &use,
                     Type originalType);
  /// Does the (low) node `consumer` want `use`'s value in the low format?
  bool wantsLow(const OpColouring &consumer, OpOperand &use);

  /// `type` with float elements in the low format (memoized: uniquing a
  /// tensor type hashes its shape under the context's lock, and a model
  /// retypes a few shapes many times).
  Type toLow(Type type);

  /// The full reason the report prints: the reason's text, the op that
  /// propagated it, and the class's own reason where the class decided.
  std::string describe(const OpColouring &node) const;

  /// Ops whose regions belong to them (bodies retyped with the op, or never
  /// touched): the colouring does not enter them.
  static bool ownsItsRegions(Operation *op);

private:
  void addNode(Operation *op);
  std::optional<ColourReason> whyNotRetypeable(const OpColouring &node) const;
  void applyOverrides(OpColouring &node);
  bool isDemotable(const OpColouring &node) const;
  /// Rule 4 on a wide op: a move of one value (a pad, a reshape) painted
  /// wide by rule 2 alone, whose result holds at least as many elements.
  bool isMoveOfWideValue(const OpColouring &node) const;
  void paintForward(SmallVectorImpl<OpColouring *> &worklist, Colour colour,
                    ColourReason reason);
  void markStreamJoins();
  bool isStreamOperand(Value value, Type resultType);
  void colour();
  bool hasLowUser(OpColouring &node);
  unsigned countLowProducers(OpColouring &node);

  ColouringOptions options;
  std::vector<OpColouring> ops;
  DenseMap<Operation *, unsigned> index;
  DenseMap<Type, Type> lowTypes;
};

} // namespace mlir::lowp

#endif // LOWP_ANALYSIS_PRECISIONCOLOURING_H
