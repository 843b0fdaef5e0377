//===- FP8Candidates.cpp - which tensors FP8 applies to -------------------===//

#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
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
        op->hasAttr(LowpDialect::getPrecisionAttrName()))
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
