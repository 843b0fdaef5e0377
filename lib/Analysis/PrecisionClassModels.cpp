//===- PrecisionClassModels.cpp - precision classes of upstream ops -------===//
//
// Classes come from what an op computes. Named elementwise and structured
// linalg ops share one body-based classifier with linalg.generic, so a
// user's generic that computes a matmul or an exp is classified like the
// named op that computes the same thing.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/StructuredOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::lowp;

bool mlir::lowp::hasF32ExponentRange(FloatType lowFormat) {
  return llvm::APFloat::semanticsMaxExponent(lowFormat.getFloatSemantics()) >=
         llvm::APFloat::semanticsMaxExponent(llvm::APFloat::IEEEsingle());
}

//===----------------------------------------------------------------------===//
// Fixed classes
//===----------------------------------------------------------------------===//

namespace {
/// A class that does not depend on the op's attributes or the format.
struct SensitiveMathKind {
  static constexpr PrecisionClass kClass = PrecisionClass::Sensitive;
  static constexpr llvm::StringLiteral kReason =
      "exp/log/pow/rsqrt: range- or accuracy-sensitive";
};
struct SoftmaxKind {
  static constexpr PrecisionClass kClass = PrecisionClass::Sensitive;
  static constexpr llvm::StringLiteral kReason =
      "softmax: exp and a sum over a reduction";
};
struct ArithmeticKind {
  static constexpr PrecisionClass kClass = PrecisionClass::Follow;
  static constexpr llvm::StringLiteral kReason = "elementwise arithmetic";
};
struct ValuePreservingKind {
  static constexpr PrecisionClass kClass = PrecisionClass::Transparent;
  static constexpr llvm::StringLiteral kReason =
      "exact in any format (compare, select, max/min, negate)";
};
struct DataMovementKind {
  static constexpr PrecisionClass kClass = PrecisionClass::Transparent;
  static constexpr llvm::StringLiteral kReason = "data movement";
};
struct BoundaryKind {
  static constexpr PrecisionClass kClass = PrecisionClass::Transparent;
  static constexpr llvm::StringLiteral kReason =
      "control flow or call boundary: carries values, computes nothing";
};

template <typename OpTy, typename Kind>
struct FixedClassModel
    : public PrecisionClassOpInterface::ExternalModel<
          FixedClassModel<OpTy, Kind>, OpTy> {
  PrecisionClass getPrecisionClass(Operation *, FloatType) const {
    return Kind::kClass;
  }
  StringRef getPrecisionClassReason(Operation *, FloatType) const {
    return Kind::kReason;
  }
};

template <typename Kind, typename... Ops>
void attachFixed(MLIRContext *context) {
  (Ops::template attachInterface<FixedClassModel<Ops, Kind>>(*context), ...);
}

/// Structured ops: classified by their body and iterators.
template <typename OpTy>
struct StructuredOpModel
    : public PrecisionClassOpInterface::ExternalModel<StructuredOpModel<OpTy>,
                                                      OpTy> {
  PrecisionClass getPrecisionClass(Operation *op, FloatType low) const {
    return classifyStructuredOp(cast<linalg::LinalgOp>(op), low)
        .precisionClass;
  }
  StringRef getPrecisionClassReason(Operation *op, FloatType low) const {
    return classifyStructuredOp(cast<linalg::LinalgOp>(op), low).reason;
  }
};

template <typename... Ops> void attachStructured(MLIRContext *context) {
  (Ops::template attachInterface<StructuredOpModel<Ops>>(*context), ...);
}
} // namespace

//===----------------------------------------------------------------------===//
// Body-based classification
//===----------------------------------------------------------------------===//

/// Ops that only reshape, slice or broadcast a value: looked through when
/// asking where a value was computed.
static bool isShapeOnly(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp, linalg::BroadcastOp,
             linalg::TransposeOp>(op);
}

/// True when `value`, a body value of `op`, is (a unary function of) an input
/// that a reduction computed, looking through shape-only producers.
static bool comesFromReduction(linalg::LinalgOp op, Value value) {
  // Inside the body: look through unary float ops (sqrt(sum), -sum, ...).
  while (Operation *def = value.getDefiningOp()) {
    if (def->getNumOperands() != 1)
      return false;
    value = def->getOperand(0);
  }
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBlock())
    return false;
  OpOperand *operand = op.getMatchingOpOperand(arg);
  if (!operand || isInit(op, *operand))
    return false;
  Value source = operand->get();
  // A short, bounded look through reshapes and broadcasts.
  for (int hops = 0; hops < 4; ++hops) {
    Operation *producer = source.getDefiningOp();
    if (!producer)
      return false;
    if (auto structured = dyn_cast<linalg::LinalgOp>(producer))
      if (!isShapeOnly(producer))
        return getNumReductionLoops(structured) > 0;
    if (!isShapeOnly(producer))
      return false;
    source = producer->getOperand(0);
  }
  return false;
}

PrecisionClassification
mlir::lowp::classifyStructuredOp(linalg::LinalgOp op, FloatType low) {
  using PC = PrecisionClass;
  // Contractions and convolutions reduce; elementwise ops skip the
  // (costlier) structural matching.
  bool hasReduction = getNumReductionLoops(op) > 0;
  if (hasReduction && linalg::isaContractionOpInterface(op))
    return {PC::Matrix, "contraction body (mul-add over a reduction)"};
  // Pooling shares the convolution structure; only a multiply-accumulate
  // body is a matrix op.
  if (hasReduction && linalg::isaConvolutionOpInterface(op) &&
      llvm::any_of(op.getBlock()->getOperations(),
                   llvm::IsaPred<arith::MulFOp>))
    return {PC::Matrix, "convolution body"};

  bool allTransparent = true;
  bool sums = false;
  for (Operation &bodyOp : op.getBlock()->without_terminator()) {
    // Index and integer arithmetic do not touch float values.
    if (isa<linalg::IndexOp>(bodyOp) ||
        (llvm::none_of(bodyOp.getResultTypes(), llvm::IsaPred<FloatType>) &&
         llvm::none_of(bodyOp.getOperandTypes(), llvm::IsaPred<FloatType>)))
      continue;
    if (auto divf = dyn_cast<arith::DivFOp>(bodyOp))
      if (comesFromReduction(op, divf.getRhs()))
        return {PC::Sensitive, "division by the result of a reduction"};
    if (isa<arith::AddFOp, arith::SubFOp>(bodyOp))
      sums = true;
    auto classified = dyn_cast<PrecisionClassOpInterface>(&bodyOp);
    if (!classified)
      return {PC::Sensitive, "body op without a precision class"};
    PC bodyClass = classified.getPrecisionClass(low);
    if (bodyClass == PC::Sensitive)
      return {PC::Sensitive, "range-sensitive math (exp/log/pow/rsqrt) in body"};
    if (bodyClass != PC::Transparent)
      allTransparent = false;
  }
  if (hasReduction && sums) {
    if (!hasF32ExponentRange(low))
      return {PC::Sensitive,
              "sum over a reduction dimension (overflows the format's range)"};
    return {PC::Follow,
            "sum over a reduction dimension (safe in f32's exponent range)"};
  }
  if (allTransparent)
    return {PC::Transparent, hasReduction
                                 ? "max/min reduction: exact in any format"
                                 : "data movement or value-preserving body"};
  return {PC::Follow, "elementwise arithmetic body"};
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

bool mlir::lowp::isFloatPolymorphicDialect(Dialect *dialect) {
  return isa_and_present<arith::ArithDialect, math::MathDialect>(dialect);
}

bool mlir::lowp::isElementPolymorphicDialect(Dialect *dialect) {
  return isa_and_present<linalg::LinalgDialect, tensor::TensorDialect,
                         LowpDialect>(dialect);
}

void mlir::lowp::registerPrecisionClassModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    // Every structured op (generic and all named ops: matmul, batch_matmul,
    // conv_*, depthwise, pooling, fill, transpose, broadcast, reduce, map,
    // elementwise) by its body.
    attachStructured<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(context);
    attachFixed<SoftmaxKind, linalg::SoftmaxOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    attachFixed<ArithmeticKind, arith::AddFOp, arith::SubFOp, arith::MulFOp,
                arith::DivFOp, arith::RemFOp, arith::SIToFPOp,
                arith::UIToFPOp>(context);
    attachFixed<ValuePreservingKind, arith::NegFOp, arith::MaximumFOp,
                arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
                arith::CmpFOp, arith::SelectOp, arith::FPToSIOp,
                arith::FPToUIOp>(context);
    attachFixed<DataMovementKind, arith::ConstantOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, math::MathDialect *) {
    attachFixed<SensitiveMathKind, math::ExpOp, math::Exp2Op, math::ExpM1Op,
                math::LogOp, math::Log2Op, math::Log10Op, math::Log1pOp,
                math::PowFOp, math::FPowIOp, math::RsqrtOp>(context);
    attachFixed<ArithmeticKind, math::SqrtOp, math::TanhOp, math::ErfOp,
                math::ErfcOp, math::SinOp, math::CosOp, math::TanOp,
                math::AtanOp, math::Atan2Op, math::CbrtOp, math::FmaOp,
                math::FloorOp, math::CeilOp, math::RoundOp,
                math::RoundEvenOp, math::TruncOp>(context);
    attachFixed<ValuePreservingKind, math::AbsFOp, math::CopySignOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    attachFixed<DataMovementKind, tensor::ExtractSliceOp,
                tensor::InsertSliceOp, tensor::ExpandShapeOp,
                tensor::CollapseShapeOp, tensor::PadOp, tensor::ConcatOp,
                tensor::EmptyOp, tensor::CastOp, tensor::ExtractOp,
                tensor::InsertOp, tensor::FromElementsOp, tensor::SplatOp,
                tensor::ReshapeOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    attachFixed<BoundaryKind, func::CallOp, func::ReturnOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, scf::SCFDialect *) {
    attachFixed<BoundaryKind, scf::ForOp, scf::IfOp, scf::WhileOp,
                scf::YieldOp, scf::ConditionOp>(context);
  });
}
