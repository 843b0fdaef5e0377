//===- ApproximateMath.cpp - lowp-approximate-math ------------------------===//
//
// LLVM has no vector exp/erf/tanh/log for x86: a vector math op becomes one
// libm call per element. Upstream MLIR's polynomial approximations are pure
// arith + math.fma on any vector shape, so running them after
// affine-super-vectorize keeps softmax, GELU and normalization loops vector.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/Support/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPAPPROXIMATEMATH
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;

namespace {
/// The functions whose approximation is measured against libm over the
/// ranges fp-opt's islands feed them (test/Integration/X86/approximate-math
/// .mlir); upstream has others (sin, cos, atan, ...) that are not.
constexpr StringLiteral kMeasuredFunctions[] = {"exp",   "expm1", "log",
                                                "log1p", "log2",  "tanh",
                                                "erf"};

struct LowpApproximateMathPass
    : lowp::impl::LowpApproximateMathBase<LowpApproximateMathPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    selected.clear();
    unknown.clear();
    if (functions.empty()) {
      for (StringRef name : kMeasuredFunctions)
        selected.insert(name);
    }
    for (const std::string &name : functions) {
      if (llvm::is_contained(kMeasuredFunctions, StringRef(name)))
        selected.insert(name);
      else if (unknown.empty())
        unknown = name;
    }
    RewritePatternSet patterns(context);
    // Upstream names the functions by mnemonic; f16/bf16 go through f32.
    auto isSelected = [this](StringRef name) {
      name.consume_front("math.");
      return selected.contains(name);
    };
    populateMathF32ExpansionPatterns(patterns, isSelected);
    populateMathPolynomialApproximationPatterns(patterns, isSelected);
    // Powers by a constant as multiplies, sqrt or rsqrt (torch-mlir's
    // x.pow(2) of a variance or an RMSNorm): LLVM keeps llvm.pow on
    // vectors a libm call per element, and llc alone does not strength-
    // reduce it.
    populateMathAlgebraicSimplificationPatterns(patterns);
    frozen = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    if (!unknown.empty()) {
      getOperation()->emitError()
          << "no measured approximation for '" << unknown
          << "' (functions: exp, expm1, log, log1p, log2, tanh, erf)";
      return signalPassFailure();
    }
    // Only the selected math ops and what their rewrites create: folding or
    // simplifying the rest of the module is not this pass's job.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (op->getDialect() &&
          isa<math::MathDialect>(op->getDialect()) &&
          (selected.contains(op->getName().stripDialect()) ||
           isa<math::PowFOp, math::FPowIOp>(op)))
        ops.push_back(op);
    });
    if (!ops.empty()) {
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      config.enableFolding(false);
      if (failed(applyOpPatternsGreedily(ops, frozen, config)))
        return signalPassFailure();
    }
    remarkScalarizedMath();
  }

  /// A math op left on vectors that LLVM has no vector instruction for
  /// (sin, cos, atan, pow, ...) becomes one libm call per element: the
  /// vectorized loop runs scalar there. A slow path, so a remark says so.
  void remarkScalarizedMath() {
    getOperation()->walk([](Operation *op) {
      if (!op->getDialect() || !isa<math::MathDialect>(op->getDialect()) ||
          op->getNumResults() != 1 ||
          !isa<VectorType>(op->getResult(0).getType()))
        return;
      // Lowered to vector instructions (or expanded into them).
      if (isa<math::SqrtOp, math::RsqrtOp, math::FmaOp, math::AbsFOp,
              math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
              math::TruncOp, math::CopySignOp, math::AbsIOp,
              math::CountLeadingZerosOp, math::CountTrailingZerosOp,
              math::CtPopOp, math::IsNaNOp, math::IsInfOp, math::IsFiniteOp,
              math::IsNormalOp>(op))
        return;
      lowp::emitRemarkAt(op)
          << "slow path: '" << op->getName()
          << "' on a vector is one libm call per element (no measured vector "
             "approximation)";
    });
  }

  llvm::StringSet<> selected;
  /// The first requested function without an approximation, reported on
  /// the root op.
  std::string unknown;
  FrozenRewritePatternSet frozen;
};
} // namespace
