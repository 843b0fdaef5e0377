//===- TrainingStep.h - the training-step convention ------------*- C++ -*-===//
//
// Names of the discardable attributes that mark a training step's loss,
// backward seed, gradients, parameter updates and loss-scaler state
// (docs/training-step.md). The dialect verifies the op attributes; the
// loss-scaling pass checks the marking as a whole.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_IR_TRAININGSTEP_H
#define LOWP_IR_TRAININGSTEP_H

#include "lowp/IR/LowpDialect.h"

#include "llvm/ADT/StringRef.h"

// The names are the dialect's discardable attributes (LowpBase.td): short
// names for the convention's vocabulary.
namespace mlir::lowp::training {

/// Unit attribute on the function result that is the loss.
inline constexpr llvm::StringLiteral kLossAttr =
    LowpDialect::LossAttrHelper::getNameStr();
/// Unit attribute on the single-result op producing the backward seed (the
/// cotangent of the loss, 1.0 before loss scaling).
inline constexpr llvm::StringLiteral kLossSeedAttr =
    LowpDialect::LossSeedAttrHelper::getNameStr();
/// On an op whose results are master gradients: a unit attribute, or a
/// string naming the gradient in run-time reports.
inline constexpr llvm::StringLiteral kGradientAttr =
    LowpDialect::GradientAttrHelper::getNameStr();
/// Integer attribute on a function result: the index of the argument (a
/// parameter or optimizer state) this result is the updated value of.
inline constexpr llvm::StringLiteral kUpdatesAttr =
    LowpDialect::UpdatesAttrHelper::getNameStr();
/// On the argument/result pairs carrying the scaler state; the scale
/// argument's value is the initial scale a caller starts from.
inline constexpr llvm::StringLiteral kLossScaleAttr =
    LowpDialect::LossScaleAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kGoodStepsAttr =
    LowpDialect::GoodStepsAttrHelper::getNameStr();
/// `"static"` or `"dynamic"` on a function whose loss scaling has been
/// materialized. Every marker is a builtin attribute, so marked IR goes
/// through tools that do not load the lowp dialect (e.g. mlir-runner).
inline constexpr llvm::StringLiteral kLossScalingAttr =
    LowpDialect::LossScalingAttrHelper::getNameStr();
/// Unit attribute on a function whose run-time numerics checks are in place.
inline constexpr llvm::StringLiteral kNumericsCheckedAttr =
    LowpDialect::NumericsCheckedAttrHelper::getNameStr();

} // namespace mlir::lowp::training

#endif // LOWP_IR_TRAININGSTEP_H
