//===- ViewPrecisionGraph.cpp - lowp-view-precision-graph -----------------===//
//
// Draws the dataflow of every function as Graphviz DOT: one node per op,
// coloured by the precision it computes in, FP32 islands as clusters, casts
// and (de)quantizations as small nodes, and the reason for each precision
// as the node's tooltip. Runs of structurally identical blocks (the layers
// of a transformer) are drawn once. Optionally completes the JSON decision
// report with the same facts. See docs/passes/view-precision-graph.md.
// The graph model is PrecisionGraph.h; this file reads the report, writes
// the files and runs Graphviz.
//
//===----------------------------------------------------------------------===//

#include "PrecisionGraph.h"

#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPVIEWPRECISIONGRAPH
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::precision_graph;

namespace {

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ViewPrecisionGraphPass
    : public lowp::impl::LowpViewPrecisionGraphBase<ViewPrecisionGraphPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (output.empty() && report.empty()) {
      module.emitError() << "lowp-view-precision-graph: give output= (a .dot "
                            "or .svg file, '-' for stdout) or report=";
      return signalPassFailure();
    }
    // The report to complete, when there is one.
    llvm::json::Object reportRoot;
    if (!report.empty() && failed(readReport(reportRoot)))
      return signalPassFailure();
    DecisionIndex decisions;
    if (llvm::json::Array *list = reportRoot.getArray("decisions"))
      for (const llvm::json::Value &entry : *list)
        if (const llvm::json::Object *decision = entry.getAsObject()) {
          auto op = decision->getString("op");
          auto loc = decision->getString("loc");
          auto rule = decision->getString("rule");
          auto opClass = decision->getString("class");
          if (!op || !loc || !rule)
            continue;
          std::string text = rule->str();
          if (opClass && !rule->contains((*opClass + " class").str()))
            text += " (" + opClass->str() + " op)";
          decisions[(*op + "@" + *loc).str()].push_back(std::move(text));
        }
    FloatType low = getLowFormat(reportRoot);

    std::vector<FunctionGraph> functions;
    // func.func, and the function ops of other front ends (util.func,
    // llvm.func, gpu.func).
    module.walk([&](FunctionOpInterface func) {
      if (func.isExternal())
        return;
      functions.emplace_back();
      buildFunctionGraph(functions.back(), decisions, low, func);
      if (collapseThreshold >= 0 &&
          (int64_t)functions.back().sequence.size() > collapseThreshold)
        findRepeatedBlocks(functions.back(), minBlockOps);
    });

    std::string dot;
    {
      llvm::raw_string_ostream os(dot);
      writeDot(os, functions);
    }
    if (!output.empty() && failed(writeGraph(dot)))
      return signalPassFailure();
    if (!report.empty() &&
        failed(writeReport(reportRoot, functions, dot, low)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  /// The format hazards are judged against: the report's, else the
  /// target's preferred 16-bit format.
  FloatType getLowFormat(const llvm::json::Object &reportRoot) {
    MLIRContext *context = &getContext();
    if (auto name = reportRoot.getString("low")) {
      if (*name == "bf16")
        return BFloat16Type::get(context);
      if (*name == "f16")
        return Float16Type::get(context);
    }
    FailureOr<const TargetInfo *> target = resolveTarget(getOperation(), "");
    if (succeeded(target) && *target && (*target)->preferred16)
      return getFloatType(context, *(*target)->preferred16);
    // Else the 16-bit format the module computes in, if any.
    FloatType found;
    getOperation()->walk([&](Operation *op) {
      for (Type type : op->getResultTypes()) {
        FloatType element = getFloatElementType(type);
        if (element && element.getWidth() == 16) {
          found = element;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return found;
  }

  LogicalResult readReport(llvm::json::Object &root) {
    ModuleOp module = getOperation();
    if (!llvm::sys::fs::exists(report)) {
      root["schema_version"] = kPrecisionReportSchemaVersion;
      root["producer"] = "fp-opt";
      return success();
    }
    auto buffer = llvm::MemoryBuffer::getFile(report);
    if (!buffer)
      return module.emitError() << "cannot read the report '" << report
                                << "': " << buffer.getError().message();
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse((*buffer)->getBuffer());
    if (!parsed)
      return module.emitError()
             << "the report '" << report << "' is not JSON: "
             << llvm::toString(parsed.takeError());
    llvm::json::Object *object = parsed->getAsObject();
    std::optional<int64_t> version =
        object ? object->getInteger("schema_version") : std::nullopt;
    if (!version || *version != kPrecisionReportSchemaVersion)
      return module.emitError()
             << "the report '" << report << "' has "
             << (version ? "schema version " + std::to_string(*version)
                         : std::string("no schema version"))
             << "; this fp-opt writes version "
             << kPrecisionReportSchemaVersion
             << ": write it again with this fp-opt";
    root = std::move(*object);
    return success();
  }

  LogicalResult writeGraph(StringRef dot) {
    ModuleOp module = getOperation();
    if (!StringRef(output).ends_with(".svg")) {
      return writeReportFile(module, output, "precision graph",
                             [&](raw_ostream &os) { os << dot; });
    }
    // SVG: Graphviz renders the DOT text from a temporary file.
    llvm::ErrorOr<std::string> dotProgram = llvm::sys::findProgramByName("dot");
    if (!dotProgram)
      return module.emitError()
             << "cannot render '" << output
             << "': Graphviz's 'dot' is not on PATH (Debian: apt-get install "
                "graphviz), or write a .dot file instead";
    SmallString<128> dotFile;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "lowp-precision", "dot", dotFile))
      return module.emitError() << "cannot create a temporary file: "
                                << ec.message();
    llvm::FileRemover removeDotFile(dotFile);
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(dotFile, ec);
      if (ec)
        return module.emitError() << "cannot write '" << dotFile
                                  << "': " << ec.message();
      os << dot;
    }
    std::string message;
    int rc = llvm::sys::ExecuteAndWait(
        *dotProgram, {*dotProgram, "-Tsvg", "-o", output, dotFile.str()},
        /*Env=*/std::nullopt, /*Redirects=*/{}, /*SecondsToWait=*/120,
        /*MemoryLimit=*/0, &message);
    if (rc != 0)
      return module.emitError()
             << "cannot render the precision graph to '" << output
             << "': dot failed (" << (message.empty() ? "exit code " +
                                                            std::to_string(rc)
                                                      : message)
             << ")";
    return success();
  }

  LogicalResult writeReport(llvm::json::Object &root,
                            ArrayRef<FunctionGraph> functions,
                            StringRef dot, FloatType low) {
    llvm::json::Array functionList, ops, islands, casts, fp8, hazards;
    for (const FunctionGraph &graph : functions) {
      llvm::json::Array blocks;
      for (const RepeatedBlock &block : graph.blocks)
        blocks.push_back(llvm::json::Object{
            {"ops_per_copy", block.length},
            {"copies", block.copies},
            {"first_op",
             graph.nodes[graph.sequence[block.first]].location}});
      functionList.push_back(
          llvm::json::Object{{"name", graph.name},
                             {"ops", (int64_t)graph.sequence.size()},
                             {"islands", (int64_t)graph.islands.size()},
                             {"repeated_blocks", std::move(blocks)}});
      for (const IslandInfo &info : graph.islands)
        islands.push_back(llvm::json::Object{{"function", graph.name},
                                             {"loc", info.location},
                                             {"reasons", info.reasons},
                                             {"ops", info.numOps}});
      for (unsigned index : graph.sequence) {
        const GraphNode &node = graph.nodes[index];
        ops.push_back(llvm::json::Object{
            {"function", graph.name},
            {"op", node.op->getName().getStringRef()},
            {"loc", node.location},
            {"precision", node.precision},
            {"result_precision", node.resultPrecision},
            {"reason", node.reason},
            {"island", node.island >= 0
                           ? llvm::json::Value(graph.islands[node.island].reasons)
                           : llvm::json::Value(nullptr)}});
        if (node.kind == NodeKind::Conversion)
          casts.push_back(llvm::json::Object{
              {"function", graph.name},
              {"op", node.op->getName().getStringRef()},
              {"loc", node.location},
              {"from", node.precision},
              {"to", node.resultPrecision},
              {"reason", node.reason}});
        if (auto quantize = dyn_cast<QuantizeOp>(node.op)) {
          std::optional<double> scale;
          std::string scaling = describeScale(quantize.getScale(), scale);
          std::string consumers;
          for (Operation *user : quantize->getUsers())
            if (!StringRef(consumers).contains(
                    user->getName().getStringRef()))
              consumers += (consumers.empty() ? "" : ", ") +
                           user->getName().getStringRef().str();
          fp8.push_back(llvm::json::Object{
              {"function", graph.name},
              {"loc", node.location},
              {"format", node.resultPrecision},
              {"scaling", scaling},
              {"scale", scale ? llvm::json::Value(*scale)
                              : llvm::json::Value(nullptr)},
              {"consumers", consumers}});
        }
      }
    }
    if (low) {
      getOperation()->walk([&](arith::ConstantOp constant) {
        std::optional<ConstantHazard> hazard = findConstantHazard(constant, low);
        if (!hazard)
          return;
        SmallString<16> value;
        hazard->value.toString(value);
        bool inIsland = constant->getParentOfType<IslandOp>() != nullptr;
        hazards.push_back(llvm::json::Object{
            {"loc", printReportLocation(constant.getLoc())},
            {"value", std::string(value)},
            {"format", printType(low)},
            {"becomes", hazard->overflows
                            ? (hazard->value.isNegative() ? "-inf" : "inf")
                            : "0"},
            {"in_island", inIsland}});
      });
    }
    TensorBytes bytes = measureTensorBytes(getOperation());
    root["graph"] = llvm::json::Object{
        {"functions", std::move(functionList)},
        {"ops", std::move(ops)},
        {"islands", std::move(islands)},
        {"casts", std::move(casts)},
        {"fp8", std::move(fp8)},
        {"hazards", std::move(hazards)},
        {"hazard_format", low ? llvm::json::Value(printType(low))
                              : llvm::json::Value(nullptr)},
        {"bytes_final",
         llvm::json::Object{{"arguments", bytes.arguments},
                            {"results", bytes.results},
                            {"intermediates", bytes.intermediates},
                            {"conversions", bytes.conversions},
                            {"total", bytes.total()}}},
        {"dot", dot}};
    return writeJsonReportFile(getOperation(), report, "report",
                               std::move(root));
  }
};
} // namespace
