//===- Elementwise.cpp - elementwise application over tensors -------------===//

#include "lowp/Conversion/LowpToLinalg/LowpToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::lowp;

Value mlir::lowp::buildElementwise(OpBuilder &b, Location loc, Type resultType,
                                   ValueRange operands,
                                   const ElementwiseBodyFn &body) {
  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  if (!resultTensor)
    return body(b, loc, operands, Value());

  // The first tensor operand gives the iteration space.
  Value shapeSource;
  for (Value v : operands)
    if (isa<RankedTensorType>(v.getType())) {
      shapeSource = v;
      break;
    }
  assert(shapeSource && "tensor result needs a tensor operand");
  auto sourceType = cast<RankedTensorType>(shapeSource.getType());
  int64_t rank = sourceType.getRank();

  SmallVector<Value> dynamicSizes;
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    Value size;
    if (sourceType.isDynamicDim(d)) {
      size = tensor::DimOp::create(b, loc, shapeSource, d);
      dynamicSizes.push_back(size);
    } else {
      size = arith::ConstantIndexOp::create(b, loc, sourceType.getDimSize(d));
    }
    sizes.push_back(size);
  }
  Value init = tensor::EmptyOp::create(b, loc, resultTensor.getShape(),
                                       resultTensor.getElementType(),
                                       dynamicSizes);

  MLIRContext *ctx = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap scalarMap = AffineMap::get(rank, 0, ctx);
  SmallVector<AffineMap> maps;
  for (Value v : operands)
    maps.push_back(isa<RankedTensorType>(v.getType()) ? identity : scalarMap);
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);

  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultTensor}, operands, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // Row-major linear index of the element (used for random streams).
        Value linear = arith::ConstantIndexOp::create(nb, nloc, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value idx = linalg::IndexOp::create(nb, nloc, d);
          linear = arith::MulIOp::create(nb, nloc, linear, sizes[d]);
          linear = arith::AddIOp::create(nb, nloc, linear, idx);
        }
        Value result = body(nb, nloc, args.drop_back(), linear);
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}
