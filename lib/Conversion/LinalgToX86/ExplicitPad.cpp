//===- ExplicitPad.cpp - a pad the NCHW kernels read through -------------===//

#include "ExplicitPad.h"

#include "lowp/Support/Buffers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

/// The value `op` writes over all of `buffer`, when it is a fill: a
/// linalg.fill, or a linalg op without inputs (linalg.map, as
/// bufferization writes a tensor.pad's border) yielding a value from
/// outside its body.
static Value fillValueOf(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInits()[0] == buffer ? fill.getInputs()[0] : Value();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 0 ||
      linalgOp.getNumDpsInits() != 1 || linalgOp.getDpsInits()[0] != buffer ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
      !linalgOp.getIndexingMapsArray()[0].isIdentity())
    return Value();
  Block &body = op->getRegion(0).front();
  if (!llvm::hasSingleElement(body))
    return Value();
  Value yielded = body.getTerminator()->getOperand(0);
  return op->getRegion(0).isAncestor(yielded.getParentRegion()) ? Value()
                                                                : yielded;
}

/// Whether `a` and `b` may be views of one buffer: not when one of them is
/// a fresh allocation the other does not view.
static bool mayAlias(Value a, Value b) {
  Value ra = getRootBuffer(a), rb = getRootBuffer(b);
  if (ra == rb)
    return true;
  auto fresh = [](Value v) {
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
        v.getDefiningOp());
  };
  return !fresh(ra) && !fresh(rb);
}

std::optional<ExplicitPad>
mlir::lowp::x86::matchExplicitPad(Value input, Operation *reader,
                                  ArrayRef<unsigned> spatialDims) {
  auto alloc = input.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != reader->getBlock())
    return std::nullopt;
  MemRefType padded = alloc.getType();
  Operation *fill = nullptr;
  memref::SubViewOp interior;
  Operation *copy = nullptr;
  Value value, source;
  SmallVector<Operation *> deallocs;
  for (OpOperand &use : input.getUses()) {
    Operation *user = use.getOwner();
    if (user == reader) {
      // Read as the input only (not also written, not read twice).
      if (!isa<linalg::LinalgOp>(reader) || use.getOperandNumber() != 0 ||
          llvm::count(reader->getOperands(), input) != 1)
        return std::nullopt;
    } else if (isa<memref::DeallocOp>(user)) {
      deallocs.push_back(user);
    } else if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      if (interior || !view->hasOneUse())
        return std::nullopt;
      interior = view;
      Operation *copier = *view->user_begin();
      if (auto c = dyn_cast<memref::CopyOp>(copier);
          c && c.getTarget() == view.getResult())
        source = c.getSource();
      else if (auto c = dyn_cast<linalg::CopyOp>(copier);
               c && c.getDpsInits()[0] == view.getResult())
        source = c.getDpsInputs()[0];
      else
        return std::nullopt;
      copy = copier;
    } else if (Value v = fillValueOf(user, input); v && !fill) {
      fill = user;
      value = v;
    } else {
      return std::nullopt;
    }
  }
  if (!fill || !copy || fill->getBlock() != reader->getBlock() ||
      copy->getBlock() != reader->getBlock() || !fill->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(reader))
    return std::nullopt;

  // The source: the padded buffer's interior, plain.
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  if (!sourceType || !sourceType.getLayout().isIdentity() ||
      sourceType.getRank() != padded.getRank() ||
      getRootBuffer(source) == input)
    return std::nullopt;
  if (!llvm::all_of(interior.getStaticStrides(),
                    [](int64_t s) { return s == 1; }))
    return std::nullopt;
  ExplicitPad pad;
  pad.source = source;
  pad.value = value;
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  SmallVector<OpFoldResult> sizes = interior.getMixedSizes();
  for (unsigned d = 0; d < padded.getRank(); ++d) {
    const unsigned *spatial = llvm::find(spatialDims, d);
    if (spatial != spatialDims.end()) {
      std::optional<int64_t> size = getConstantIntValue(sizes[d]);
      if (ShapedType::isDynamic(offsets[d]) || !size || padded.isDynamicDim(d))
        return std::nullopt;
      unsigned k = spatial - spatialDims.begin();
      pad.low[k] = offsets[d];
      pad.high[k] = padded.getDimSize(d) - offsets[d] - *size;
      continue;
    }
    // Not padded: the whole dimension, static or the allocation's size.
    if (offsets[d] != 0)
      return std::nullopt;
    if (!padded.isDynamicDim(d)) {
      if (getConstantIntValue(sizes[d]) != padded.getDimSize(d))
        return std::nullopt;
    } else if (dyn_cast<Value>(sizes[d]) !=
               alloc.getDynamicSizes()[padded.getDynamicDimIndex(d)]) {
      return std::nullopt;
    }
  }

  // The reader's outputs must not alias the source (the padded buffer kept
  // them apart); then nothing between the copy and the reader may write
  // or free the source but writes to those outputs (their fills).
  auto outputs = cast<DestinationStyleOpInterface>(reader).getDpsInits();
  if (llvm::any_of(outputs, [&](Value v) { return mayAlias(v, source); }))
    return std::nullopt;
  for (Operation *op = copy->getNextNode(); op != reader;
       op = op->getNextNode()) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return std::nullopt;
    for (const MemoryEffects::EffectInstance &e : *effects) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
        continue;
      if (!e.getValue() || (!llvm::is_contained(outputs, e.getValue()) &&
                            mayAlias(e.getValue(), source)))
        return std::nullopt;
    }
  }
  pad.ops = {copy, interior, fill};
  llvm::append_range(pad.ops, deallocs);
  pad.ops.push_back(alloc);
  return pad;
}

void mlir::lowp::x86::eraseExplicitPad(const ExplicitPad &pad,
                                       RewriterBase &rw) {
  for (Operation *op : pad.ops)
    rw.eraseOp(op);
}
