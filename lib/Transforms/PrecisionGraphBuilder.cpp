//===- PrecisionGraphBuilder.cpp - a function as a precision graph --------===//
//
// The nodes, islands and sequence of one function for
// lowp-view-precision-graph: each op's precision, colour and reason.
//
//===----------------------------------------------------------------------===//

#include "PrecisionGraph.h"

#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::precision_graph;

std::string mlir::lowp::precision_graph::printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

namespace {

/// Element types of the float values in `types`, each once, in order.
SmallVector<Type> getFloatElementTypes(TypeRange types) {
  SmallVector<Type> elements;
  for (Type type : types) {
    Type element = getElementTypeOrSelf(type);
    if (isa<FloatType>(element) && !llvm::is_contained(elements, element))
      elements.push_back(element);
  }
  return elements;
}

std::string joinTypes(ArrayRef<Type> types, StringRef separator) {
  std::string text;
  for (Type type : types) {
    if (!text.empty())
      text += separator.str();
    text += printType(type);
  }
  return text;
}

/// "8x128xbf16" for tensor<8x128xbf16>, the type itself otherwise.
std::string printShortType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type); shaped && shaped.hasRank()) {
    std::string text;
    for (int64_t size : shaped.getShape())
      text += (ShapedType::isDynamic(size) ? std::string("?")
                                           : std::to_string(size)) +
              "x";
    return text + printType(shaped.getElementType());
  }
  return printType(type);
}

/// The values an op computes from: DPS inits are only where the result
/// goes, except for matrix ops, whose init is the accumulator (shown as the
/// result precision).
SmallVector<Value> getComputedOperands(Operation *op) {
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return llvm::to_vector(dps.getDpsInputs());
  return llvm::to_vector(op->getOperands());
}

/// "generic: mulf, tanh, addf" for ops with a payload, so that the many
/// linalg.generic nodes of a model tell themselves apart.
std::string describeOp(Operation *op) {
  std::string name = op->getName().getStringRef().str();
  // Named ops (linalg.matmul) say what they compute; their bodies are
  // implied.
  if (!isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp>(op))
    return name;
  SmallVector<StringRef> payload;
  op->getRegion(0).walk([&](Operation *nested) {
    if (nested->hasTrait<OpTrait::IsTerminator>() ||
        isa<arith::ConstantOp>(nested) || nested->getNumRegions() != 0)
      return;
    StringRef kind = nested->getName().stripDialect();
    if (!llvm::is_contained(payload, kind))
      payload.push_back(kind);
  });
  if (payload.empty())
    return name;
  std::string text = name + ": ";
  for (auto [i, kind] : llvm::enumerate(payload)) {
    if (i == 3) {
      text += ", ...";
      break;
    }
    text += (i ? ", " : "") + kind.str();
  }
  return text;
}
} // namespace

std::string
mlir::lowp::precision_graph::describeScale(Value scale,
                                           std::optional<double> &staticScale) {
  if (auto constant = scale.getDefiningOp<arith::ConstantOp>()) {
    if (auto value = dyn_cast<FloatAttr>(constant.getValue())) {
      staticScale = value.getValueAsDouble();
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "static scale " << llvm::format("%g", *staticScale);
      return text;
    }
  }
  if (auto compute = scale.getDefiningOp<ComputeScaleOp>()) {
    if (auto history = dyn_cast<RankedTensorType>(compute.getAmax().getType()))
      return "delayed scaling: from an amax history of " +
             std::to_string(history.getNumElements()) + " steps";
    return "current scaling: from the amax of this step";
  }
  if (isa<BlockArgument>(scale))
    return "scale passed in as an argument";
  if (Operation *def = scale.getDefiningOp())
    return "scale computed by " + def->getName().getStringRef().str();
  return "scale of unknown origin";
}

namespace {

/// Builds the FunctionGraph of one function.
class GraphBuilder {
public:
  GraphBuilder(FunctionGraph &graph, DecisionIndex &decisions, FloatType low)
      : graph(graph), decisions(decisions), low(low) {}

  void build(FunctionOpInterface func) {
    function = func;
    graph.name = SymbolTable::getSymbolName(func).str();
    for (BlockArgument arg : func.getArguments()) {
      GraphNode node;
      node.kind = NodeKind::Argument;
      node.label = "%arg" + std::to_string(arg.getArgNumber()) + "\n" +
                   printShortType(arg.getType());
      SmallVector<Type> element = getFloatElementTypes(arg.getType());
      node.precision = node.resultPrecision = node.colourKey =
          element.empty() ? "none" : printType(element.front());
      node.reason = "function argument: its type is the caller's";
      source[arg] = addNode(std::move(node));
    }
    for (Block &block : func.getFunctionBody())
      visitBlock(block, /*island=*/-1);
  }

private:
  unsigned addNode(GraphNode node) {
    graph.nodes.push_back(std::move(node));
    return graph.nodes.size() - 1;
  }

  /// The drawn nodes `values` come from, each once.
  SmallVector<unsigned> getInputs(ValueRange values) {
    SmallVector<unsigned> inputs;
    for (Value value : values) {
      auto it = source.find(value);
      if (it != source.end() && !llvm::is_contained(inputs, it->second))
        inputs.push_back(it->second);
    }
    return inputs;
  }

  void visitBlock(Block &block, int island) {
    for (Operation &op : block) {
      if (auto islandOp = dyn_cast<IslandOp>(op)) {
        visitIsland(islandOp);
        continue;
      }
      if (isa<YieldOp>(op))
        continue;
      SmallVector<unsigned> inputs = getInputs(op.getOperands());
      if (op.hasTrait<OpTrait::ReturnLike>() && op.getParentOp() == function) {
        GraphNode node;
        node.kind = NodeKind::Output;
        node.label = "return";
        node.precision = node.resultPrecision = node.colourKey =
            joinTypes(getFloatElementTypes(op.getOperandTypes()), ", ");
        node.reason = "function results: their types are the signature's";
        node.inputs = std::move(inputs);
        addNode(std::move(node));
        continue;
      }
      // Constants, empty tensors and fills of them are not the function's
      // dataflow; ops with effects are drawn even without inputs.
      if (inputs.empty() && isMemoryEffectFree(&op))
        continue;
      unsigned index = addNode(describe(op, island, std::move(inputs)));
      graph.nodes[index].position = graph.sequence.size();
      graph.sequence.push_back(index);
      if (island >= 0) {
        IslandInfo &info = graph.islands[island];
        ++info.numOps;
        if (info.first < 0)
          info.first = graph.nodes[index].position;
        info.last = graph.nodes[index].position;
      }
      for (Value result : op.getResults())
        source[result] = index;
    }
  }

  void visitIsland(IslandOp islandOp) {
    IslandInfo info;
    info.location = printReportLocation(islandOp.getLoc());
    if (ArrayAttr reasons =
            LowpDialect::IslandReasonsAttrHelper(islandOp->getContext())
                .getAttr(islandOp)) {
      for (Attribute reason : reasons)
        if (auto text = dyn_cast<StringAttr>(reason))
          info.reasons += (info.reasons.empty() ? "" : ", ") + text.str();
    }
    if (info.reasons.empty())
      info.reasons = "island";
    int island = graph.islands.size();
    graph.islands.push_back(std::move(info));
    Block &body = islandOp.getBody().front();
    for (auto [argument, input] :
         llvm::zip(body.getArguments(), islandOp.getInputs()))
      if (auto it = source.find(input); it != source.end())
        source[argument] = it->second;
    visitBlock(body, island);
    for (auto [result, yielded] :
         llvm::zip(islandOp.getResults(), islandOp.getYield()->getOperands()))
      if (auto it = source.find(yielded); it != source.end())
        source[result] = it->second;
  }

  GraphNode describe(Operation &op, int island,
                     SmallVector<unsigned> inputs) {
    GraphNode node;
    node.op = &op;
    node.island = island;
    node.inputs = std::move(inputs);
    node.location = printReportLocation(op.getLoc());
    SmallVector<Type> read =
        getFloatElementTypes(ValueRange(getComputedOperands(&op)).getTypes());
    SmallVector<Type> written = getFloatElementTypes(op.getResultTypes());
    if (read.empty())
      read = written;
    // Several types read or written are listed ("f8E4M3FN x f8E5M2").
    node.precision = read.empty() ? "none" : joinTypes(read, " x ");
    node.resultPrecision =
        written.empty() ? node.precision : joinTypes(written, " x ");
    // Colour by the narrowest type read: that is the decision.
    Type narrowest;
    for (Type type : read)
      if (!narrowest ||
          type.getIntOrFloatBitWidth() < narrowest.getIntOrFloatBitWidth())
        narrowest = type;
    node.colourKey = narrowest ? printType(narrowest) : "none";

    std::string precisionLine =
        node.resultPrecision == node.precision
            ? node.precision
            : node.precision + " -> " + node.resultPrecision;
    bool isConversion = isa<CastOp, QuantizeOp, DequantizeOp>(op);
    node.kind = isConversion ? NodeKind::Conversion : NodeKind::Compute;
    if (isConversion) {
      node.label = op.getName().stripDialect().str() + " " +
                   node.precision + "->" + node.resultPrecision;
      node.colourKey = node.resultPrecision;
    } else {
      node.label = describeOp(&op) + "\n" + precisionLine;
    }
    node.reason = explain(op, island, read);
    return node;
  }

  /// Why `op` has its precision, from what the IR says.
  std::string explain(Operation &op, int island, ArrayRef<Type> read) {
    std::string key = op.getName().getStringRef().str() + "@" +
                      printReportLocation(op.getLoc());
    // Pop the inference rule in any case, so that later ops with the same
    // key keep their own.
    std::optional<std::string> rule;
    if (auto it = decisions.find(key);
        it != decisions.end() && !it->second.empty()) {
      rule = it->second.front();
      it->second.pop_front();
    }
    if (auto cast = dyn_cast<CastOp>(op)) {
      FloatType from = getFloatElementType(cast.getInput().getType());
      FloatType to = getFloatElementType(cast.getResult().getType());
      StringRef why = "the value changes format";
      if (from && to && to.getWidth() < from.getWidth())
        why = "the value enters ops decided low";
      else if (from && to && to.getWidth() > from.getWidth())
        why = "the value returns to wider ops";
      return std::string("cast ") + (from ? printType(from) : "?") + " -> " +
             (to ? printType(to) : "?") + ": " + why.str();
    }
    if (auto quantize = dyn_cast<QuantizeOp>(op)) {
      std::optional<double> scale;
      return "FP8 quantization to " +
             printType(getElementTypeOrSelf(quantize.getType())) + " (" +
             describeScale(quantize.getScale(), scale) + ")";
    }
    if (auto dequantize = dyn_cast<DequantizeOp>(op)) {
      std::optional<double> scale;
      return "FP8 dequantization (" +
             describeScale(dequantize.getScale(), scale) + ")";
    }
    if (island >= 0)
      return "in an FP32 island (" + graph.islands[island].reasons +
             "): runs at the island's precision whatever surrounds it";
    if (llvm::any_of(read, [](Type type) {
          return cast<FloatType>(type).getWidth() == 8;
        }))
      return "8-bit operands (" + joinTypes(read, " x ") +
             "; lowp-select-fp8-formats chooses them for matrix ops), "
             "accumulated in the result type";
    if (TypeAttr pinned =
            LowpDialect::PrecisionAttrHelper(op.getContext()).getAttr(&op))
      return "pinned by lowp.precision = " + [&] {
        std::string text;
        llvm::raw_string_ostream os(text);
        pinned.print(os);
        return text;
      }();
    if (rule)
      return *rule;
    if (auto classified = dyn_cast<PrecisionClassOpInterface>(op)) {
      FloatType format = low;
      if (!read.empty() && cast<FloatType>(read.front()).getWidth() < 32)
        format = cast<FloatType>(read.front());
      if (!format)
        return "precision class of the op (no low format to judge it "
               "against)";
      return stringifyPrecisionClass(classified.getPrecisionClass(format))
                 .str() +
             " op (" + classified.getPrecisionClassReason(format).str() +
             ")";
    }
    return "no precision class: fp-opt leaves ops it does not understand "
           "as they are";
  }

  FunctionGraph &graph;
  DecisionIndex &decisions;
  FloatType low;
  Operation *function = nullptr;
  DenseMap<Value, unsigned> source;
};

} // namespace

void mlir::lowp::precision_graph::buildFunctionGraph(
    FunctionGraph &graph, DecisionIndex &decisions, FloatType low,
    FunctionOpInterface func) {
  GraphBuilder(graph, decisions, low).build(func);
}
