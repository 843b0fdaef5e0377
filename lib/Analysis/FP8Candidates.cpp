//===- FP8Candidates.cpp - which tensors FP8 applies to -------------------===//

#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/Analysis/StructuredOps.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::lowp;

bool mlir::lowp::isMatrixOp(Operation *op) {
  if (auto classified = dyn_cast<PrecisionClassOpInterface>(op))
    return classified.getPrecisionClass(
               BFloat16Type::get(op->getContext())) == PrecisionClass::Matrix;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && (linalg::isaContractionOpInterface(linalgOp) ||
                      linalg::isaConvolutionOpInterface(linalgOp));
}

Value mlir::lowp::getMovedTensor(Operation *op) {
  if (isa<CastOp, tensor::CastOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp, tensor::ExtractSliceOp, tensor::ReshapeOp>(
          op))
    return op->getOperand(0);
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.getInput();
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op))
    return broadcast.getInput();
  // A generic whose body yields its one input element: a transpose or
  // broadcast written out (older torch-mlir, TOSA).
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1)
      return nullptr;
    if (yieldsFirstArgument(generic.getRegion().front()))
      return generic.getDpsInputs()[0];
  }
  return nullptr;
}

Value mlir::lowp::getElementPreservingMoveSource(Operation *op) {
  if (!op || op->getNumResults() != 1)
    return nullptr;
  if (isa<linalg::TransposeOp, linalg::BroadcastOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp, tensor::ReshapeOp, tensor::CastOp>(op)) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        linalgOp && !linalgOp.hasPureTensorSemantics())
      return nullptr;
    return op->getOperand(0);
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  Value input = generic ? getMovedTensor(generic) : Value();
  if (!input || !generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return nullptr;
  // Every input element is read: the input map is a projected permutation
  // whose loops span the input's (static) dimensions.
  AffineMap inputMap = generic.getIndexingMapsArray()[0];
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  if (!inputType || !inputType.hasStaticShape() ||
      !inputMap.isProjectedPermutation(/*allowZeroInResults=*/false))
    return nullptr;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  for (auto [dim, expr] : llvm::enumerate(inputMap.getResults()))
    if (ranges[cast<AffineDimExpr>(expr).getPosition()] !=
        inputType.getDimSize(dim))
      return nullptr;
  return input;
}


Value mlir::lowp::redoMoveOn(RewriterBase &rewriter, Operation *move,
                             Value source) {
  if (isa<CastOp>(move))
    return source;
  FloatType element = getFloatElementType(source.getType());
  Location loc = move->getLoc();
  Type type = withFloatElementType(move->getResult(0).getType(), element);
  auto newInit = [&](Value init) -> Value {
    return tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), element);
  };
  if (auto transpose = dyn_cast<linalg::TransposeOp>(move))
    return linalg::TransposeOp::create(rewriter, loc, source,
                                       newInit(transpose.getInit()),
                                       transpose.getPermutation())
        ->getResult(0);
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(move))
    return linalg::BroadcastOp::create(rewriter, loc, source,
                                       newInit(broadcast.getInit()),
                                       broadcast.getDimensions())
        ->getResult(0);
  if (auto generic = dyn_cast<linalg::GenericOp>(move)) {
    // A copy: the body yields the input element (a widening and narrowing
    // back in the original's body are dropped with the type).
    Value init = newInit(generic.getDpsInits()[0]);
    return linalg::GenericOp::create(
               rewriter, loc, TypeRange{type}, ValueRange{source},
               ValueRange{init}, generic.getIndexingMapsArray(),
               generic.getIteratorTypesArray(),
               [](OpBuilder &b, Location nloc, ValueRange args) {
                 linalg::YieldOp::create(b, nloc, args[0]);
               })
        ->getResult(0);
  }
  IRMapping mapping;
  mapping.map(move->getOperand(0), source);
  Operation *clone = rewriter.clone(*move, mapping);
  rewriter.modifyOpInPlace(clone, [&] { clone->getResult(0).setType(type); });
  return clone->getResult(0);
}


bool mlir::lowp::isParameterLike(Value value) {
  while (true) {
    if (auto role = getValueMark<TensorRoleAttr>(
            value, LowpDialect::RoleAttrHelper::getNameStr()))
      return role.getValue() == TensorRole::Weight;
    if (auto arg = dyn_cast<BlockArgument>(value))
      return isa_and_nonnull<FunctionOpInterface>(
                 arg.getOwner()->getParentOp()) &&
             arg.getOwner()->isEntryBlock();
    Operation *def = value.getDefiningOp();
    if (matchPattern(value, m_Constant()))
      return true;
    Value moved = getMovedTensor(def);
    if (!moved)
      return false;
    value = moved;
  }
}

void mlir::lowp::forEachReadThroughMoves(
    Value value, function_ref<void(OpOperand &)> read) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Value, 8> seen{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (user->getNumResults() == 1 && getMovedTensor(user) == current) {
        if (seen.insert(user->getResult(0)).second)
          worklist.push_back(user->getResult(0));
        continue;
      }
      read(use);
    }
  }
}

bool mlir::lowp::isMatrixInput(OpOperand &use) {
  if (!isMatrixOp(use.getOwner()))
    return false;
  auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
  return dps && dps.isDpsInput(&use);
}

Value mlir::lowp::lookThroughNarrowingCast(Value value) {
  if (auto cast = value.getDefiningOp<CastOp>())
    if (!cast.isWidening())
      return cast.getInput();
  return value;
}

SmallVector<Value> mlir::lowp::getFP8CandidateTensors(FunctionOpInterface func) {
  llvm::SetVector<Value> tensors;
  func.walk([&](Operation *op) {
    // Islands and pinned ops keep their precision: never FP8.
    if (op->getParentOfType<IslandOp>() || !isMatrixOp(op) ||
        getPinnedPrecision(op))
      return;
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps)
      return;
    for (Value input : dps.getDpsInputs())
      if (isa<RankedTensorType>(input.getType()) &&
          getFloatElementType(input.getType()))
        tensors.insert(lookThroughNarrowingCast(input));
  });
  return tensors.takeVector();
}
