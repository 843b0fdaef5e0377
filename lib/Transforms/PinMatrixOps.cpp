//===- PinMatrixOps.cpp - pin numbered matrix ops to a precision ----------===//
//
// Implements `lowp-pin-matrix-ops`: the per-op overrides of a precision
// search (fpopt.tune) as a pass, so the ops are numbered by the same
// predicate the decision passes use, whatever syntax the front end wrote.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/IR/LowpDialect.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPPINMATRIXOPS
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

struct PinMatrixOpsPass : lowp::impl::LowpPinMatrixOpsBase<PinMatrixOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (ops.empty() && !list)
      return markAllAnalysesPreserved();
    MLIRContext *ctx = &getContext();
    auto type = dyn_cast_if_present<FloatType>(parseType(precision, ctx));
    if (!type) {
      module.emitError() << "lowp-pin-matrix-ops: precision '" << precision
                         << "' is not a float type";
      return signalPassFailure();
    }
    llvm::DenseSet<int64_t> wanted(ops.begin(), ops.end());
    int64_t index = 0;
    module.walk([&](Operation *op) {
      if (isa<IslandOp>(op))
        return WalkResult::skip();
      if (!isMatrixOp(op))
        return WalkResult::advance();
      if (list) {
        // The elements its float inputs carry (0 when a shape is dynamic),
        // and their types: what a search weighs when it keeps the op wide.
        int64_t elements = 0;
        SmallVector<std::pair<int64_t, Type>, 2> inputs;
        for (Value operand : op->getOperands()) {
          auto shaped = dyn_cast<ShapedType>(operand.getType());
          if (!shaped || !isa<FloatType>(shaped.getElementType()) ||
              inputs.size() == 2)
            continue;
          int64_t count =
              shaped.hasStaticShape() ? shaped.getNumElements() : 0;
          inputs.push_back({count, shaped.getElementType()});
          if (shaped.hasStaticShape() && elements >= 0)
            elements += count;
          else
            elements = -1;
        }
        InFlightDiagnostic remark = op->emitRemark();
        remark << "matrix op #" << index << ": " << op->getName() << ", "
               << std::max<int64_t>(elements, 0) << " input elements (";
        std::string types; // Unquoted: "32 x bf16, 64 x bf16".
        llvm::raw_string_ostream os(types);
        llvm::interleaveComma(inputs, os, [&](const auto &input) {
          os << input.first << " x " << input.second;
        });
        remark << types;
        remark << ")";
      }
      if (wanted.contains(index))
        LowpDialect::PrecisionAttrHelper(op->getContext())
            .setAttr(op, TypeAttr::get(type));
      ++index;
      return WalkResult::advance();
    });
    for (int64_t i : ops)
      if (i < 0 || i >= index) {
        module.emitError() << "lowp-pin-matrix-ops: no matrix op #" << i
                           << " (the module has " << index << ")";
        return signalPassFailure();
      }
  }
};

} // namespace
