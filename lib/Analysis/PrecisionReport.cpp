//===- PrecisionReport.cpp - why each op got its precision ----------------===//

#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/Analysis/StructuredOps.h"

#include "lowp/Analysis/FP8Candidates.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::lowp;

std::string mlir::lowp::printReportLocation(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getName().str();
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().getValue() + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

static StringRef getCategoryName(DecisionCategory category) {
  switch (category) {
  case DecisionCategory::Islands:
    return "lowp-insert-fp32-islands";
  case DecisionCategory::Precision:
    return "lowp-infer-precision";
  case DecisionCategory::LossScaling:
    return "lowp-materialize-loss-scaling";
  case DecisionCategory::FP8:
    return "lowp-select-fp8-formats";
  case DecisionCategory::FP8WeightOnly:
    return "lowp-fp8-weight-only";
  }
  llvm_unreachable("unknown decision category");
}

/// The remark-engine half of emitDecisionRemark.
static void emitAnalysisRemark(Location loc, DecisionCategory category,
                               StringRef name, StringRef function,
                               StringRef text) {
  auto remark = remark::analysis(loc, remark::RemarkOpts::name(name)
                                          .category(getCategoryName(category))
                                          .function(function));
  remark << text;
}

void mlir::lowp::emitDecisionRemark(Location loc, DecisionCategory category,
                                    StringRef name, StringRef function,
                                    const Twine &message, bool asDiagnostic) {
  std::string text = message.str();
  emitAnalysisRemark(loc, category, name, function, text);
  if (asDiagnostic)
    mlir::emitRemark(loc) << text;
}

void mlir::lowp::emitDecisionRemark(Operation *op, DecisionCategory category,
                                    StringRef name, const Twine &message,
                                    bool asDiagnostic) {
  std::string text = message.str();
  auto function = op->getParentOfType<FunctionOpInterface>();
  emitAnalysisRemark(op->getLoc(), category, name,
                     function ? function.getName() : StringRef(), text);
  if (asDiagnostic)
    op->emitRemark() << text;
}

LogicalResult mlir::lowp::writeReportFile(
    Operation *anchor, StringRef path, StringRef what,
    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError()
           << "cannot write the " << what << " to '" << path << "': " << error;
  write(file->os());
  file->keep();
  return success();
}

LogicalResult mlir::lowp::writeJsonReportFile(Operation *anchor,
                                              StringRef path, StringRef what,
                                              llvm::json::Value root) {
  return writeReportFile(anchor, path, what, [&](raw_ostream &os) {
    os << llvm::formatv("{0:2}", root) << "\n";
  });
}

LogicalResult PrecisionReport::writeTo(Operation *anchor,
                                       StringRef path) const {
  if (path.empty())
    return success();
  if (path == "-") {
    writeTable(llvm::errs());
    return success();
  }
  bool json = path.ends_with(".json");
  return writeReportFile(anchor, path, "report", [&](raw_ostream &os) {
    if (json)
      writeJson(os);
    else
      writeTable(os);
  });
}

/// Bytes of a statically shaped float tensor, 0 for anything else.
static int64_t getFloatTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<FloatType>(tensor.getElementType()))
    return 0;
  int64_t bits = tensor.getElementTypeBitWidth();
  return (tensor.getNumElements() * bits + 7) / 8;
}

bool mlir::lowp::isFloatConversion(Operation *op) {
  if (isa<CastOp, QuantizeOp, DequantizeOp>(op))
    return true;
  return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

/// An op whose loops visit each element once with no reduction: a linalg op
/// with parallel loops only (generic, map, transpose, broadcast) or an
/// elementwise op on whole tensors. Lowerings fuse a conversion into such an
/// op's loop (fp-opt's lowp-fuse-elementwise, upstream elementwise fusion).
static bool isElementwiseOp(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureTensorSemantics() &&
           linalgOp.getNumParallelLoops() == linalgOp.getNumLoops() &&
           !isa<linalg::FillOp>(op);
  return op->hasTrait<OpTrait::Elementwise>() || isFloatConversion(op);
}

/// Ops whose result is a view of their source after bufferization: no new
/// buffer.
static bool isTensorView(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
             tensor::ReshapeOp, tensor::BitcastOp, tensor::ExtractSliceOp>(op);
}

/// Can the op reading `use` convert the value as it loads it? A matrix op
/// converts its inputs while packing or loading tiles (its prologue); an
/// elementwise op converts each element as it reads it.
static bool canFuseIntoConsumer(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isMatrixOp(user))
    return isMatrixInput(use);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
    return isElementwiseOp(user) && linalgOp.isDpsInput(&use);
  return isElementwiseOp(user);
}

/// The uses that read `value`'s elements, with islands looked through (they
/// are inlined when lowered): a use as an island's input stands for the
/// uses of its block argument, a lowp.yield for the uses of the island's
/// result.
static SmallVector<OpOperand *> getReadsAcrossIslands(Value value) {
  SmallVector<OpOperand *> reads;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (auto island = dyn_cast<IslandOp>(user)) {
        worklist.push_back(
            island.getBody().front().getArgument(use.getOperandNumber()));
        continue;
      }
      if (isa<YieldOp>(user))
        if (auto island = dyn_cast<IslandOp>(user->getParentOp())) {
          worklist.push_back(island->getResult(use.getOperandNumber()));
          continue;
        }
      reads.push_back(&use);
    }
  }
  return reads;
}

/// Can the linalg op reading `use` compute the (elementwise) producer of
/// the value in its own loop? An input of a linalg.generic, or of a named
/// op with parallel loops only (lowp-fuse-elementwise generalizes those),
/// read through a permutation: not conversions (their own rules above),
/// not matrix ops, fills or other named ops with reductions.
static bool canComputeProducerInside(OpOperand &use) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      isa<linalg::FillOp>(use.getOwner()) || isMatrixOp(use.getOwner()) ||
      isFloatConversion(use.getOwner()) || !linalgOp.isDpsInput(&use))
    return false;
  if (!isa<linalg::GenericOp>(use.getOwner()) &&
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  return linalgOp.getMatchingIndexingMap(&use).isPermutation();
}

/// The value an island result stands for: what the island yields (islands
/// are inlined when lowered), else `value`.
static Value getComputedValue(Value value) {
  while (auto island = value.getDefiningOp<IslandOp>()) {
    auto yield = cast<YieldOp>(island.getBody().front().getTerminator());
    value = yield->getOperand(cast<OpResult>(value).getResultNumber());
  }
  return value;
}

/// Can the op that computes `value` write it in the converted format? The
/// single-use result of an elementwise op or of a matrix op (its epilogue
/// rounds the accumulator).
static bool canFuseIntoProducer(Value value) {
  if (!value.hasOneUse())
    return false;
  value = getComputedValue(value);
  Operation *producer = value.getDefiningOp();
  return producer && value.hasOneUse() &&
         (isElementwiseOp(producer) || isMatrixOp(producer));
}

/// Bits of the element type of a float tensor (0 for anything else).
static unsigned getElementBits(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType())
             ? tensor.getElementTypeBitWidth()
             : 0;
}

ConversionFusion mlir::lowp::getConversionFusion(Operation *conversion) {
  Value input = conversion->getOperand(0);
  Value result = conversion->getResult(0);
  bool intoConsumers = !result.use_empty() &&
                       llvm::all_of(result.getUses(), canFuseIntoConsumer);
  bool intoProducer = canFuseIntoProducer(input);
  // Where both can, the narrow side is the one stored: a narrowing is
  // written by its producer, a widening read by its consumers.
  bool narrowing =
      getElementBits(result.getType()) < getElementBits(input.getType());
  if (intoProducer && (narrowing || !intoConsumers))
    return ConversionFusion::IntoProducer;
  if (intoConsumers)
    return ConversionFusion::IntoConsumers;
  return ConversionFusion::Materialized;
}

/// Can the matrix op whose result `use` reads compute its reader in the
/// epilogue? An elementwise reader that reads no other matrix op's result
/// (a kernel has one epilogue: SwiGLU's product of two projections is no
/// epilogue), stored itself or computed inside its one elementwise reader,
/// which then is the epilogue (a dequantization scale inside the bias add
/// that follows it).
static bool isEpilogue(OpOperand &use) {
  Operation *reader = use.getOwner();
  if (isFloatConversion(reader) || !isElementwiseOp(reader) ||
      !canFuseIntoConsumer(use) ||
      llvm::any_of(reader->getOpOperands(), [&](OpOperand &other) {
        Operation *def = other.get().getDefiningOp();
        return &other != &use && def && isMatrixOp(def);
      }))
    return false;
  if (llvm::none_of(reader->getResults(), isFusedIntoConsumer))
    return true;
  if (reader->getNumResults() != 1)
    return false;
  SmallVector<OpOperand *> reads = getReadsAcrossIslands(reader->getResult(0));
  return reads.size() == 1 && isEpilogue(*reads.front());
}

bool mlir::lowp::isFusedIntoConsumer(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer)
    return false;
  // A transpose or broadcast read only by matrix ops is read in place while
  // their operands are packed or loaded (the kernels' prologue).
  if (getMovedTensor(producer) && !isFloatConversion(producer) &&
      !isTensorView(producer) && !value.use_empty() &&
      llvm::all_of(value.getUses(), isMatrixInput))
    return true;
  if (isFloatConversion(producer) || value.use_empty())
    return false;
  // An elementwise producer is computed inside the linalg ops that read it
  // (lowp-fuse-elementwise's rule, upstream elementwise fusion): into each
  // of them when its payload is cheap to recompute, else into its only
  // reader. Reductions read fused producers too (x - mean and its square
  // in a norm's sums).
  SmallVector<OpOperand *> reads = getReadsAcrossIslands(value);
  if (isElementwiseOp(producer) && isa<linalg::LinalgOp>(producer) &&
      (reads.size() == 1 ||
       isCheapToRecompute(*cast<linalg::LinalgOp>(producer).getBlock())))
    return llvm::all_of(reads, [](OpOperand *use) {
      return canComputeProducerInside(*use);
    });
  if (!value.hasOneUse() ||
      !(isElementwiseOp(producer) || isMatrixOp(producer)))
    return false;
  // A matrix op's result read by one elementwise op: its epilogue.
  return isEpilogue(*value.use_begin());
}

TensorBytes mlir::lowp::measureTensorBytes(Operation *root) {
  TensorBytes bytes;
  root->walk([&](func::FuncOp func) {
    for (Type type : func.getArgumentTypes())
      bytes.arguments += getFloatTensorBytes(type);
    for (Type type : func.getResultTypes())
      bytes.results += getFloatTensorBytes(type);
    // How each conversion is lowered, and the values whose producer writes
    // them converted (no tensor of their own).
    DenseMap<Operation *, ConversionFusion> fusion;
    llvm::SmallPtrSet<Value, 16> writtenConverted;
    func.getBody().walk([&](Operation *op) {
      if (!isFloatConversion(op) ||
          !getFloatTensorBytes(op->getResult(0).getType()))
        return;
      ConversionFusion how = getConversionFusion(op);
      fusion[op] = how;
      if (how == ConversionFusion::Materialized)
        ++bytes.materializedConversions;
      else
        ++bytes.fusedConversions;
      if (how == ConversionFusion::IntoProducer)
        writtenConverted.insert(getComputedValue(op->getOperand(0)));
    });
    func.getBody().walk([&](Operation *op) {
      // No data of their own: the shape of an output, a view, the values
      // an island yields (counted where they are computed).
      if (isa<tensor::EmptyOp, IslandOp>(op) || isTensorView(op))
        return;
      auto how = fusion.find(op);
      // A conversion its consumers fuse is no tensor.
      if (how != fusion.end() && how->second == ConversionFusion::IntoConsumers)
        return;
      for (Value result : op->getResults()) {
        int64_t size = getFloatTensorBytes(result.getType());
        // A value an island yields in another format: its producer writes
        // it converted (the exit conversion, once the island is inlined).
        if (size && result.hasOneUse() &&
            isa<YieldOp>(*result.getUsers().begin()) && canFuseIntoProducer(result))
          if (auto island = dyn_cast<IslandOp>(
                  result.getUsers().begin()->getParentOp()))
            size = getFloatTensorBytes(
                island->getResult(result.use_begin()->getOperandNumber())
                    .getType());
        if (!size || writtenConverted.contains(result) ||
            isFusedIntoConsumer(result))
          continue;
        // A returned value is the function's result buffer, counted under
        // results.
        if (llvm::any_of(result.getUsers(), [](Operation *user) {
              return isa<func::ReturnOp>(user);
            }))
          continue;
        // The init of one destination-style op shares its result's buffer
        // (a fill of an accumulator).
        if (result.hasOneUse()) {
          OpOperand &use = *result.use_begin();
          auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
          if (dps && dps.isDpsInit(&use))
            continue;
        }
        // A conversion its producer fuses is the producer's result, in the
        // converted format.
        if (how != fusion.end() && how->second == ConversionFusion::Materialized)
          bytes.conversions += size;
        else
          bytes.intermediates += size;
      }
    });
  });
  return bytes;
}

void PrecisionReport::measureFinal(Operation *root) {
  bytesAfter = measureTensorBytes(root);
  // Demoted arguments as the signatures are now: FP8 selection narrows
  // some of them again and adds their scales.
  root->walk([&](func::FuncOp func) {
    for (BlockArgument arg : func.getArguments()) {
      std::string type;
      llvm::raw_string_ostream os(type);
      arg.getType().print(os);
      auto it = llvm::find_if(demotedArguments, [&](const DemotedArgument &d) {
        return d.function == func.getName() && d.index == arg.getArgNumber();
      });
      if (it != demotedArguments.end()) {
        it->type = type;
        continue;
      }
      Attribute scale =
          func.getArgAttr(arg.getArgNumber(), LowpDialect::Fp8ScaleAttrHelper::getNameStr());
      if (!scale)
        continue;
      DemotedArgument demoted;
      demoted.function = func.getName().str();
      demoted.index = arg.getArgNumber();
      demoted.type = type;
      demoted.reason = "FP8 weight (lowp-select-fp8-formats)";
      demotedArguments.push_back(std::move(demoted));
    }
  });
  matrixInputs.clear();
  root->walk([&](Operation *op) {
    if (!isMatrixOp(op))
      return;
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps)
      return;
    Type seen;
    bool mixed = false;
    for (Value input : dps.getDpsInputs()) {
      Type element = getElementTypeOrSelf(input.getType());
      if (!isa<FloatType>(element))
        continue;
      mixed |= seen && seen != element;
      seen = element;
    }
    if (!seen)
      return;
    std::string name;
    llvm::raw_string_ostream os(name);
    seen.print(os);
    ++matrixInputs[mixed ? "mixed" : name];
  });
}

std::map<std::string, std::map<std::string, unsigned>>
PrecisionReport::countByKind() const {
  std::map<std::string, std::map<std::string, unsigned>> counts;
  for (const PrecisionDecision &d : decisions)
    ++counts[d.opName][d.precision];
  return counts;
}

static llvm::json::Object toJson(const TensorBytes &bytes) {
  return llvm::json::Object{{"arguments", bytes.arguments},
                            {"results", bytes.results},
                            {"intermediates", bytes.intermediates},
                            {"conversions", bytes.conversions},
                            {"conversions_fused", bytes.fusedConversions},
                            {"conversions_materialized",
                             bytes.materializedConversions},
                            {"total", bytes.total()}};
}

void PrecisionReport::writeJson(llvm::raw_ostream &os) const {
  llvm::json::Object counts;
  for (const auto &[kind, byPrecision] : countByKind()) {
    llvm::json::Object entry;
    for (const auto &[precision, n] : byPrecision)
      entry[precision] = n;
    counts[kind] = std::move(entry);
  }
  llvm::json::Array kept;
  for (const PrecisionDecision &d : decisions) {
    if (!d.keptWide)
      continue;
    kept.push_back(llvm::json::Object{{"op", d.opName},
                                      {"loc", d.location},
                                      {"precision", d.precision},
                                      {"class", d.opClass},
                                      {"reason", d.rule}});
  }
  llvm::json::Object matrix;
  for (const auto &[format, n] : matrixInputs)
    matrix[format] = n;
  llvm::json::Array demoted;
  for (const DemotedArgument &arg : demotedArguments)
    demoted.push_back(llvm::json::Object{{"function", arg.function},
                                         {"index", arg.index},
                                         {"type", arg.type},
                                         {"reason", arg.reason}});
  llvm::json::Array all;
  for (const PrecisionDecision &d : decisions)
    all.push_back(llvm::json::Object{{"op", d.opName},
                                     {"loc", d.location},
                                     {"precision", d.precision},
                                     {"class", d.opClass},
                                     {"rule", d.rule}});
  llvm::json::Object root{{"schema_version", kPrecisionReportSchemaVersion},
                          {"producer", "fp-opt"},
                          {"low", lowFormat},
                          {"accumulate", accumulate},
                          {"target", target},
                          {"note", note},
                          {"counts", std::move(counts)},
                          {"casts_inserted", castsInserted},
                          {"constants_rounded", constantsRounded},
                          {"bytes_before", toJson(bytesBefore)},
                          {"bytes_after", toJson(bytesAfter)},
                          {"matrix_inputs", std::move(matrix)},
                          {"demoted_arguments", std::move(demoted)},
                          {"kept_wide", std::move(kept)},
                          {"decisions", std::move(all)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

void PrecisionReport::writeTable(llvm::raw_ostream &os) const {
  os << "precision inference: low=" << lowFormat
     << " accumulate=" << accumulate
     << " target=" << (target.empty() ? "-" : target) << "\n";
  if (!note.empty())
    os << "note: " << note << "\n";
  os << llvm::format("%-32s %-10s %6s\n", "op kind", "precision", "count");
  for (const auto &[kind, byPrecision] : countByKind())
    for (const auto &[precision, n] : byPrecision)
      os << llvm::format("%-32s %-10s %6u\n", kind.c_str(), precision.c_str(),
                         n);
  os << "casts inserted: " << castsInserted
     << ", constants rounded: " << constantsRounded << "\n";
  os << llvm::format("%-14s %14s %14s\n", "tensor bytes", "before", "after");
  auto row = [&](const char *name, int64_t before, int64_t after) {
    os << llvm::format("%-14s %14lld %14lld\n", name, (long long)before,
                       (long long)after);
  };
  row("arguments", bytesBefore.arguments, bytesAfter.arguments);
  row("results", bytesBefore.results, bytesAfter.results);
  row("intermediates", bytesBefore.intermediates, bytesAfter.intermediates);
  row("conversions", bytesBefore.conversions, bytesAfter.conversions);
  row("total", bytesBefore.total(), bytesAfter.total());
  os << "conversions after: " << bytesAfter.fusedConversions
     << " fused into a producer or consumer, "
     << bytesAfter.materializedConversions << " materialized\n";
  if (!matrixInputs.empty()) {
    os << "matrix ops by input format:";
    for (const auto &[format, n] : matrixInputs)
      os << " " << format << "=" << n;
    os << "\n";
  }
  for (const DemotedArgument &arg : demotedArguments)
    os << "argument #" << arg.index << " of @" << arg.function << ": "
       << arg.type << " (" << arg.reason << ")\n";
  // Transparent ops kept with their neighbours are summarised; the JSON
  // lists each of them.
  os << "kept at original precision:\n";
  std::map<std::string, unsigned> quietlyKept;
  for (const PrecisionDecision &d : decisions) {
    if (!d.keptWide)
      continue;
    if (d.opClass == "transparent") {
      ++quietlyKept[d.opName];
      continue;
    }
    os << "  " << d.opName << " (" << d.opClass << ") at " << d.location
       << ": " << d.rule << "\n";
  }
  for (const auto &[kind, n] : quietlyKept)
    os << "  " << n << " x " << kind
       << " (transparent): kept with their neighbours\n";
}
