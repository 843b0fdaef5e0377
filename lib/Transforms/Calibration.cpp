//===- Calibration.cpp - measure FP8 candidates, attach #lowp.stats -------===//
//
// `lowp-instrument-calibration` makes a program print, for every FP8
// candidate tensor, its amax and a histogram of |x| per f32 binade;
// `lowp-apply-calibration` attaches the numbers (reduced by
// scripts/lowp-calibrate.py) back to the same tensors as #lowp.stats. Both
// name tensors by (function, index in getFP8CandidateTensors).
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPINSTRUMENTCALIBRATION
#define GEN_PASS_DEF_LOWPAPPLYCALIBRATION
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

/// Buckets of the histogram: one per value of f32's 8-bit exponent field.
constexpr int64_t kNumBuckets = 256;
constexpr StringLiteral kPrintI64 = "printMemrefI64";

/// Counts the non-zero elements of `tensor` per f32 exponent field: a
/// generic whose element dimensions reduce and whose last dimension walks
/// the buckets.
Value buildBinadeHistogram(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Value empty = tensor::EmptyOp::create(b, loc, {kNumBuckets}, i64);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value counts = linalg::FillOp::create(b, loc, zero, empty).getResult(0);

  SmallVector<AffineExpr> elementDims;
  for (int64_t d = 0; d < rank; ++d)
    elementDims.push_back(getAffineDimExpr(d, ctx));
  AffineMap inputMap = AffineMap::get(rank + 1, 0, elementDims, ctx);
  AffineMap countMap =
      AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  iterators.push_back(utils::IteratorType::parallel);

  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{counts.getType()}, ValueRange{tensor},
      ValueRange{counts}, ArrayRef<AffineMap>{inputMap, countMap}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        auto cst = [&](Type t, int64_t v) -> Value {
          return arith::ConstantOp::create(nb, nloc,
                                           nb.getIntegerAttr(t, v));
        };
        Value x = args[0];
        Type f32 = nb.getF32Type();
        if (x.getType().getIntOrFloatBitWidth() < 32)
          x = arith::ExtFOp::create(nb, nloc, f32, x);
        else if (x.getType() != f32)
          x = arith::TruncFOp::create(nb, nloc, f32, x);
        Value bits = arith::BitcastOp::create(nb, nloc, i32, x);
        Value magnitude =
            arith::AndIOp::create(nb, nloc, bits, cst(i32, 0x7FFFFFFF));
        Value exponent = arith::ShRUIOp::create(nb, nloc, magnitude,
                                                cst(i32, 23));
        Value bucket = arith::IndexCastOp::create(
            nb, nloc, i32, linalg::IndexOp::create(nb, nloc, rank));
        Value inBucket = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::eq, exponent, bucket);
        Value nonZero = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::ne, magnitude, cst(i32, 0));
        Value hit = arith::AndIOp::create(nb, nloc, inBucket, nonZero);
        Value one = arith::ExtUIOp::create(nb, nloc, i64, hit);
        Value sum = arith::AddIOp::create(nb, nloc, args[1], one);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic.getResult(0);
}

struct InstrumentCalibrationPass
    : lowp::impl::LowpInstrumentCalibrationBase<InstrumentCalibrationPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    Location moduleLoc = module.getLoc();
    auto unrankedI64 = UnrankedTensorType::get(rewriter.getI64Type());
    bool instrumented = false;

    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      for (auto [index, tensor] :
           llvm::enumerate(getFP8CandidateTensors(func))) {
        instrumented = true;
        Location loc = tensor.getLoc();
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointAfterValue(tensor);
        Value amax = AmaxOp::create(rewriter, loc, tensor);
        Value counts = buildBinadeHistogram(rewriter, loc, tensor);
        std::string tag = ("lowp-calibration @" + func.getSymName() + " " +
                           Twine(index) + " amax ")
                              .str();
        vector::PrintOp::create(rewriter, loc, StringRef(tag));
        vector::PrintOp::create(rewriter, loc, amax);
        Value unranked =
            tensor::CastOp::create(rewriter, loc, unrankedI64, counts);
        func::CallOp::create(rewriter, loc, kPrintI64, TypeRange{},
                             ValueRange{unranked});
      }
    }

    if (!instrumented || module.lookupSymbol(kPrintI64))
      return;
    // The runtime's printer, declared once.
    rewriter.setInsertionPointToEnd(module.getBody());
    auto decl = func::FuncOp::create(
        rewriter, moduleLoc, kPrintI64,
        rewriter.getFunctionType({unrankedI64}, {}));
    decl.setPrivate();
  }
};

struct ApplyCalibrationPass
    : lowp::impl::LowpApplyCalibrationBase<ApplyCalibrationPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(statsFile, &error);
    if (!file) {
      module.emitError() << "cannot read calibration statistics: " << error;
      return signalPassFailure();
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse(file->getBuffer());
    if (!json) {
      module.emitError() << "malformed calibration statistics in '"
                         << statsFile
                         << "': " << llvm::toString(json.takeError());
      return signalPassFailure();
    }
    const llvm::json::Array *tensors =
        json->getAsObject() ? json->getAsObject()->getArray("tensors")
                            : nullptr;
    if (!tensors) {
      module.emitError() << "calibration statistics in '" << statsFile
                         << "' have no \"tensors\" array";
      return signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    llvm::StringMap<SmallVector<Value>> candidates;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        candidates[func.getSymName()] = getFP8CandidateTensors(func);

    for (const llvm::json::Value &entry : *tensors) {
      const llvm::json::Object *object = entry.getAsObject();
      std::optional<StringRef> function =
          object ? object->getString("function") : std::nullopt;
      std::optional<int64_t> index =
          object ? object->getInteger("index") : std::nullopt;
      std::optional<double> amax =
          object ? object->getNumber("amax") : std::nullopt;
      std::optional<double> min =
          object ? object->getNumber("min") : std::nullopt;
      if (!function || !index || !amax || !min) {
        module.emitError() << "calibration entry needs \"function\", "
                              "\"index\", \"amax\" and \"min\"";
        return signalPassFailure();
      }
      auto it = candidates.find(*function);
      if (it == candidates.end() || *index < 0 ||
          *index >= (int64_t)it->second.size()) {
        module.emitError() << "calibration entry @" << *function << " "
                           << *index << " names no FP8 candidate tensor";
        return signalPassFailure();
      }
      std::optional<uint64_t> samples;
      if (std::optional<int64_t> n = object->getInteger("samples"))
        samples = *n;
      // Optional: the |x| histogram per binade, from `lowest_binade` up.
      DenseI64ArrayAttr histogram;
      std::optional<int64_t> lowestBinade = object->getInteger("lowest_binade");
      if (const llvm::json::Array *counts = object->getArray("histogram")) {
        SmallVector<int64_t> values;
        for (const llvm::json::Value &count : *counts) {
          std::optional<int64_t> n = count.getAsInteger();
          if (!n) {
            module.emitError() << "calibration entry @" << *function << " "
                               << *index
                               << ": \"histogram\" holds a non-integer";
            return signalPassFailure();
          }
          values.push_back(*n);
        }
        histogram = DenseI64ArrayAttr::get(ctx, values);
      }
      auto stats = StatsAttr::getChecked(
          [&] { return module.emitError(); }, ctx, llvm::APFloat(*amax),
          llvm::APFloat(*min), samples, histogram, lowestBinade);
      if (!stats)
        return signalPassFailure();
      if (failed(attach(it->second[*index], stats)))
        return signalPassFailure();
    }
  }

private:
  /// Puts `stats` where lowp-select-fp8-formats reads it.
  LogicalResult attach(Value tensor, StatsAttr stats) {
    StringRef name = LowpDialect::StatsAttrHelper::getNameStr();
    if (auto arg = dyn_cast<BlockArgument>(tensor)) {
      auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
      if (!func || arg.getOwner() != &func.getFunctionBody().front())
        return emitError(tensor.getLoc())
               << "cannot attach statistics to a non-entry block argument";
      func.setArgAttr(arg.getArgNumber(), name, stats);
      return success();
    }
    Operation *op = tensor.getDefiningOp();
    if (op->getNumResults() == 1) {
      op->setAttr(name, stats);
      return success();
    }
    return op->emitError() << "cannot attach statistics to one result of a "
                              "multi-result op";
  }
};

} // namespace
