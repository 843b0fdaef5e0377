//===- StructuredOps.cpp - cheap operand queries on linalg ops ------------===//

#include "lowp/Analysis/StructuredOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

int64_t lowp::getNumInits(linalg::LinalgOp op) {
  // Every linalg op on tensors has one tensor result per init, and one
  // without results is on buffers (or has no inits, which the interface
  // also answers).
  if (unsigned results = op->getNumResults())
    return results;
  return op.getNumDpsInits();
}

MutableArrayRef<OpOperand> lowp::getInputOperands(linalg::LinalgOp op) {
  MutableArrayRef<OpOperand> operands = op->getOpOperands();
  return operands.drop_back(getNumInits(op));
}

MutableArrayRef<OpOperand> lowp::getInitOperands(linalg::LinalgOp op) {
  MutableArrayRef<OpOperand> operands = op->getOpOperands();
  return operands.take_back(getNumInits(op));
}

bool lowp::isInit(linalg::LinalgOp op, OpOperand &operand) {
  return operand.getOperandNumber() >=
         op->getNumOperands() - static_cast<unsigned>(getNumInits(op));
}

Block::BlockArgListType lowp::getRegionInitArgs(linalg::LinalgOp op) {
  return op.getBlock()->getArguments().take_back(getNumInits(op));
}

OpOperand *lowp::getTiedInit(Operation *op, OpResult result) {
  if (auto structured = dyn_cast<linalg::LinalgOp>(op))
    return &getInitOperands(structured)[result.getResultNumber()];
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return dps.getTiedOpOperand(result);
  return nullptr;
}

unsigned lowp::getNumReductionLoops(linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return llvm::count_if(generic.getIteratorTypes(), [](Attribute a) {
      return cast<linalg::IteratorTypeAttr>(a).getValue() ==
             utils::IteratorType::reduction;
    });
  return op.getNumReductionLoops();
}

int64_t lowp::getStaticLoopSize(linalg::LinalgOp op, unsigned dim) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    if (!shaped || !shaped.hasRank())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(expr); d && d.getPosition() == dim)
        return shaped.getDimSize(position);
  }
  return op.getStaticLoopRanges()[dim];
}

bool lowp::convertsNarrowFloats(Block &payload) {
  auto narrow = [](Type t) {
    auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t));
    return f && f.getWidth() <= 8;
  };
  return llvm::any_of(payload.without_terminator(), [&](Operation &op) {
    return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
           (narrow(op.getOperand(0).getType()) ||
            narrow(op.getResult(0).getType()));
  });
}

bool lowp::isCheapToRecompute(Block &payload) {
  if (convertsNarrowFloats(payload))
    return false;
  unsigned arithmetic = 0;
  for (Operation &op : payload.without_terminator()) {
    if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::BitcastOp, arith::IndexCastOp,
            arith::ConstantOp, linalg::IndexOp>(op))
      continue;
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::CmpFOp, arith::SelectOp, arith::AddIOp,
             arith::SubIOp, arith::MulIOp, arith::CmpIOp>(op))
      return false;
    ++arithmetic;
  }
  return arithmetic <= 2;
}

bool mlir::lowp::yieldsFirstArgument(Block &payload) {
  auto yield = dyn_cast<linalg::YieldOp>(payload.getTerminator());
  if (!yield || yield.getNumOperands() != 1 || payload.getNumArguments() == 0)
    return false;
  Value yielded = yield.getOperand(0);
  if (auto trunc = yielded.getDefiningOp<arith::TruncFOp>())
    if (auto ext = trunc.getIn().getDefiningOp<arith::ExtFOp>())
      if (ext.getIn().getType() == trunc.getType())
        yielded = ext.getIn();
  return yielded == payload.getArgument(0);
}

arith::MulFOp mlir::lowp::getAccumulatedProduct(Block &payload) {
  auto yield = dyn_cast<linalg::YieldOp>(payload.getTerminator());
  auto add = yield && yield.getNumOperands() == 1
                 ? yield.getOperand(0).getDefiningOp<arith::AddFOp>()
                 : arith::AddFOp();
  if (!add || payload.getNumArguments() == 0)
    return nullptr;
  Value out = payload.getArguments().back();
  Value product = add.getLhs() == out   ? add.getRhs()
                  : add.getRhs() == out ? add.getLhs()
                                        : Value();
  return product ? product.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
}
