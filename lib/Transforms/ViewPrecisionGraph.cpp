//===- ViewPrecisionGraph.cpp - lowp-view-precision-graph -----------------===//
//
// Draws the dataflow of every function as Graphviz DOT: one node per op,
// coloured by the precision it computes in, FP32 islands as clusters, casts
// and (de)quantizations as small nodes, and the reason for each precision
// as the node's tooltip. Runs of structurally identical blocks (the layers
// of a transformer) are drawn once. Optionally completes the JSON decision
// report with the same facts. See docs/passes/view-precision-graph.md.
//
//===----------------------------------------------------------------------===//

#include "lowp/Analysis/ConstantHazards.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/TargetResolution.h"
#include "lowp/Target/TargetInfo.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#include <deque>
#include <map>
#include <set>

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPVIEWPRECISIONGRAPH
#include "lowp/Transforms/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

//===----------------------------------------------------------------------===//
// The graph of one function
//===----------------------------------------------------------------------===//

enum class NodeKind { Argument, Compute, Conversion, Output };

/// One drawn op (or function argument, or the function's results).
struct GraphNode {
  NodeKind kind = NodeKind::Compute;
  Operation *op = nullptr;
  std::string label;
  /// Element types of the float values the op reads ("bf16",
  /// "f8E4M3FN x f8E5M2") and of the ones it writes.
  std::string precision, resultPrecision;
  /// The type that colours the node (the narrowest one it reads).
  std::string colourKey;
  std::string reason;
  std::string location;
  /// Index of the enclosing lowp.island in FunctionGraph::islands, or -1.
  int island = -1;
  /// Nodes whose values it reads, each once, in operand order.
  SmallVector<unsigned> inputs;
  /// Position in FunctionGraph::sequence (compute and conversion nodes).
  int position = -1;
};

struct IslandInfo {
  std::string reasons;
  std::string location;
  unsigned numOps = 0;
  /// First and last position of its ops in the sequence.
  int first = -1, last = -1;
};

/// `copies` consecutive copies of `length` ops starting at position `first`.
struct RepeatedBlock {
  unsigned first = 0, length = 0, copies = 0;
  bool contains(int position) const {
    return position >= (int)first && position < (int)(first + length * copies);
  }
};

struct FunctionGraph {
  std::string name;
  std::vector<GraphNode> nodes;
  std::vector<IslandInfo> islands;
  /// Compute and conversion nodes in program order.
  std::vector<unsigned> sequence;
  std::vector<RepeatedBlock> blocks;
};

/// The decisions of lowp-infer-precision read back from a report: for each
/// "op@location", the rules in the order the pass listed them.
using DecisionIndex = llvm::StringMap<std::deque<std::string>>;

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

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

/// Where the scale of a quantization comes from, in words; the value of a
/// static scale in `staticScale`.
std::string describeScale(Value scale, std::optional<double> &staticScale) {
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

/// Where each node stands with respect to the repeated blocks.
struct BlockLayout {
  /// The block a node is in (-1: none), which copy, and the node of the
  /// first copy that is drawn for it (itself outside blocks).
  std::vector<int> blockOf, copyOf, representative;
  /// Nodes outside the blocks that feed only later copies (each layer's
  /// weights and their casts): drawn for the first copy only, like the
  /// copies themselves.
  std::vector<bool> perCopyInput;

  explicit BlockLayout(const FunctionGraph &graph)
      : blockOf(graph.nodes.size(), -1), copyOf(graph.nodes.size(), 0),
        representative(graph.nodes.size()),
        perCopyInput(graph.nodes.size(), false) {
    for (unsigned n = 0; n < graph.nodes.size(); ++n) {
      representative[n] = n;
      int position = graph.nodes[n].position;
      for (auto [b, block] : llvm::enumerate(graph.blocks)) {
        if (!block.contains(position))
          continue;
        unsigned offset = position - block.first;
        blockOf[n] = b;
        copyOf[n] = offset / block.length;
        representative[n] =
            graph.sequence[block.first + offset % block.length];
      }
    }
    // Users come after producers, so one backward sweep decides.
    std::vector<SmallVector<unsigned>> users(graph.nodes.size());
    for (unsigned v = 0; v < graph.nodes.size(); ++v)
      for (unsigned u : graph.nodes[v].inputs)
        users[u].push_back(v);
    for (unsigned n = graph.nodes.size(); n-- > 0;) {
      if (blockOf[n] >= 0 || users[n].empty())
        continue;
      perCopyInput[n] = llvm::all_of(users[n], [&](unsigned user) {
        return (blockOf[user] >= 0 && copyOf[user] > 0) ||
               perCopyInput[user];
      });
    }
  }
};

//===----------------------------------------------------------------------===//
// Repeated blocks
//===----------------------------------------------------------------------===//

/// Finds runs of structurally identical blocks in the sequence of a
/// function: a candidate period comes from the op kinds alone (quadratic in
/// the worst case, bounded by kMaxPeriod), each copy is then checked against
/// the first with its internal dataflow and islands.
class RepeatFinder {
public:
  RepeatFinder(FunctionGraph &graph, unsigned minBlockOps)
      : graph(graph), minBlockOps(std::max(1u, minBlockOps)) {
    for (unsigned index : graph.sequence) {
      const GraphNode &node = graph.nodes[index];
      kinds.push_back(llvm::hash_combine(
          node.label, node.precision, node.resultPrecision,
          node.island >= 0 ? graph.islands[node.island].reasons : "",
          node.inputs.size()));
    }
  }

  void run() {
    findIn(0, graph.sequence.size());
    llvm::sort(graph.blocks, [](const RepeatedBlock &a,
                                const RepeatedBlock &b) {
      return a.first < b.first;
    });
  }

private:
  static constexpr unsigned kMaxPeriod = 4096;

  void findIn(unsigned lo, unsigned hi) {
    if (hi - lo < 2 * minBlockOps)
      return;
    // The period covering the most ops; the shorter one on ties.
    unsigned bestCover = 0, bestPeriod = 0, bestStart = 0, bestEnd = 0;
    unsigned maxPeriod = std::min((hi - lo) / 2, kMaxPeriod);
    for (unsigned period = minBlockOps; period <= maxPeriod; ++period) {
      unsigned run = 0;
      for (unsigned i = lo; i + period < hi; ++i) {
        run = kinds[i] == kinds[i + period] ? run + 1 : 0;
        bool runEnds = i + period + 1 >= hi ||
                       kinds[i + 1] != kinds[i + 1 + period];
        if (!runEnds || run + period < 2 * period)
          continue;
        unsigned start = i + 1 - run;
        unsigned cover = (run + period) / period * period;
        if (cover > bestCover) {
          bestCover = cover;
          bestPeriod = period;
          bestStart = start;
          bestEnd = i + 1 + period;
        }
      }
    }
    if (!bestPeriod)
      return;
    // The kinds may line up from any rotation of the block; take the first
    // start whose copies are structurally identical.
    for (unsigned shift = 0; shift < bestPeriod; ++shift) {
      unsigned start = bestStart + shift;
      if (!isConnected(start, bestPeriod))
        continue;
      unsigned copies = 1;
      while (start + (copies + 1) * bestPeriod <= bestEnd &&
             isSameBlock(start, start + copies * bestPeriod, bestPeriod) &&
             areLinked(start + (copies - 1) * bestPeriod,
                       start + copies * bestPeriod, bestPeriod))
        ++copies;
      if (copies < 2)
        continue;
      graph.blocks.push_back({start, bestPeriod, copies});
      // The inputs of later copies are drawn with them (not at all), so
      // they are no block of their own: give them kinds nothing matches.
      BlockLayout layout(graph);
      for (auto [n, isInput] : llvm::enumerate(layout.perCopyInput))
        if (isInput && graph.nodes[n].position >= 0)
          kinds[graph.nodes[n].position] =
              llvm::hash_combine(kinds[graph.nodes[n].position], n);
      findIn(lo, start);
      findIn(start + copies * bestPeriod, hi);
      return;
    }
  }

  /// The ops at [start, start + length) form one connected piece of
  /// dataflow: a layer, not a run of unrelated ops that happen to look alike
  /// (the casts of each weight at the top of a function).
  bool isConnected(unsigned start, unsigned length) {
    llvm::EquivalenceClasses<unsigned> pieces;
    for (unsigned i = start; i < start + length; ++i) {
      pieces.insert(i);
      for (unsigned input : graph.nodes[graph.sequence[i]].inputs) {
        int position = graph.nodes[input].position;
        if (position >= (int)start && position < (int)(start + length))
          pieces.unionSets(i, (unsigned)position);
      }
    }
    return pieces.getNumClasses() == 1;
  }

  /// The copy at `next` continues the one at `previous`: it reads it (the
  /// layers of a network) or reads the same value at the same place (the
  /// heads of an attention). Alike computations on unrelated values (the
  /// quantization of each weight) are not repetitions of one block.
  bool areLinked(unsigned previous, unsigned next, unsigned length) {
    for (unsigned j = 0; j < length; ++j) {
      const GraphNode &x = graph.nodes[graph.sequence[previous + j]];
      const GraphNode &y = graph.nodes[graph.sequence[next + j]];
      for (auto [u, v] : llvm::zip(x.inputs, y.inputs)) {
        int pv = graph.nodes[v].position;
        if (pv >= (int)previous && pv < (int)(previous + length))
          return true;
        if (u == v)
          return true;
      }
    }
    return false;
  }

  /// The ops at [a, a + length) and [b, b + length) are the same ops with
  /// the same precisions, read each other the same way, and hold whole
  /// islands.
  bool isSameBlock(unsigned a, unsigned b, unsigned length) {
    auto holdsWholeIslands = [&](unsigned start) {
      for (unsigned i = start; i < start + length; ++i) {
        int island = graph.nodes[graph.sequence[i]].island;
        if (island >= 0 && (graph.islands[island].first < (int)start ||
                            graph.islands[island].last >= (int)(start + length)))
          return false;
      }
      return true;
    };
    if (!holdsWholeIslands(a) || !holdsWholeIslands(b))
      return false;
    for (unsigned j = 0; j < length; ++j) {
      if (kinds[a + j] != kinds[b + j])
        return false;
      const GraphNode &x = graph.nodes[graph.sequence[a + j]];
      const GraphNode &y = graph.nodes[graph.sequence[b + j]];
      for (auto [u, v] : llvm::zip(x.inputs, y.inputs)) {
        int pu = graph.nodes[u].position, pv = graph.nodes[v].position;
        bool uInside = pu >= (int)a && pu < (int)(a + length);
        bool vInside = pv >= (int)b && pv < (int)(b + length);
        if (uInside != vInside || (uInside && pu - a != pv - b))
          return false;
      }
    }
    return true;
  }

  FunctionGraph &graph;
  unsigned minBlockOps;
  std::vector<llvm::hash_code> kinds;
};

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

/// Fill colours by element type; the FP8 flavours in two hues (E4M3 pink,
/// E5M2 purple), FNUZ a shade darker.
StringRef getFillColour(StringRef type) {
  return llvm::StringSwitch<StringRef>(type)
      .Case("f32", "#9ecae1")
      .Case("tf32", "#c6dbef")
      .Case("f64", "#bdbdbd")
      .Case("bf16", "#a1d99b")
      .Case("f16", "#fdd49e")
      .Case("f8E4M3FN", "#fbb4c9")
      .Case("f8E4M3FNUZ", "#f768a1")
      .Case("f8E4M3", "#fcc5c0")
      .Case("f8E4M3B11FNUZ", "#dd3497")
      .Case("f8E5M2", "#cbc9e2")
      .Case("f8E5M2FNUZ", "#9e9ac8")
      .Default("#ffffff");
}

/// A DOT string literal.
std::string quote(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

class DotWriter {
public:
  explicit DotWriter(llvm::raw_ostream &os) : os(os) {}

  void write(ArrayRef<FunctionGraph> functions) {
    os << "digraph \"fp-opt precision\" {\n"
       << "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, "
          "newrank=true, tooltip=\"fp-opt: precision of every op\"];\n"
       << "  node [shape=box, style=\"rounded,filled\", "
          "fontname=\"Helvetica\", fontsize=10, penwidth=0.6];\n"
       << "  edge [arrowsize=0.6, color=\"#555555\", fontname=\"Helvetica\", "
          "fontsize=9];\n";
    if (functions.empty())
      os << "  empty [shape=plaintext, style=\"\", label=\"the module has "
            "no functions\"];\n";
    for (auto [i, function] : llvm::enumerate(functions))
      writeFunction(function, "f" + std::to_string(i));
    writeLegend();
    os << "}\n";
  }

private:
  void writeFunction(const FunctionGraph &graph, const std::string &prefix) {
    os << "  subgraph cluster_" << prefix << " {\n"
       << "    label=" << quote("func @" + graph.name)
       << "; style=rounded; color=\"#888888\"; labeljust=l;\n";
    // Which nodes are drawn, and which drawn node stands for each one.
    BlockLayout layout(graph);
    const std::vector<int> &representative = layout.representative;
    const std::vector<int> &blockOf = layout.blockOf;
    const std::vector<int> &copyOf = layout.copyOf;
    const std::vector<bool> &perCopyInput = layout.perCopyInput;
    auto isDrawn = [&](unsigned n) {
      return representative[n] == (int)n && !perCopyInput[n];
    };

    // Edges, mapped to the drawn nodes and deduplicated.
    std::map<std::pair<unsigned, unsigned>, std::string> edges;
    std::vector<bool> used(graph.nodes.size(), false);
    for (unsigned v = 0; v < graph.nodes.size(); ++v) {
      for (unsigned u : graph.nodes[v].inputs) {
        std::string attributes;
        if (perCopyInput[u] || perCopyInput[v])
          continue;
        if (!isDrawn(v)) {
          // A later copy: only the edge from the copy before it is new.
          if (blockOf[u] != blockOf[v] || copyOf[u] != copyOf[v] - 1)
            continue;
          attributes = "style=dashed, constraint=false, color=\"#999999\", "
                       "tooltip=\"into the next copy\"";
        } else if (!isDrawn(u)) {
          // From a later copy: the last one (the block's result), or a
          // numbered one.
          unsigned copies = graph.blocks[blockOf[u]].copies;
          attributes =
              copyOf[u] == (int)copies - 1
                  ? "label=" + quote("x" + std::to_string(copies)) +
                        ", tooltip=\"from the last copy\""
                  : "label=" + quote("copy " + std::to_string(copyOf[u] + 1)) +
                        ", tooltip=\"from a later copy\"";
        }
        unsigned from = representative[u], to = representative[v];
        edges.emplace(std::make_pair(from, to), attributes);
        used[from] = used[to] = true;
      }
    }

    // Nodes, inside their block's and island's clusters.
    std::map<std::pair<int, int>, std::vector<unsigned>> groups;
    for (unsigned n = 0; n < graph.nodes.size(); ++n) {
      if (!isDrawn(n))
        continue;
      // Arguments are drawn when they feed a drawn node.
      if (graph.nodes[n].kind == NodeKind::Argument && !used[n])
        continue;
      groups[{blockOf[n], graph.nodes[n].island}].push_back(n);
    }
    int openBlock = -1;
    for (auto &[key, members] : groups) {
      auto [block, island] = key;
      if (block != openBlock) {
        if (openBlock >= 0)
          os << "    }\n";
        openBlock = block;
        if (block >= 0) {
          const RepeatedBlock &repeated = graph.blocks[block];
          os << "    subgraph cluster_" << prefix << "_b" << block << " {\n"
             << "      label=" << quote("x" + std::to_string(repeated.copies) +
                                        " identical blocks of " +
                                        std::to_string(repeated.length) +
                                        " ops (drawn once)")
             << "; style=\"dashed,rounded\"; color=\"#444444\";\n";
        }
      }
      if (island >= 0) {
        const IslandInfo &info = graph.islands[island];
        os << "      subgraph cluster_" << prefix << "_i" << island << " {\n"
           << "        label=" << quote("FP32 island: " + info.reasons)
           << "; style=\"filled,rounded\"; fillcolor=\"#eef5fb\"; "
              "color=\"#3182bd\"; tooltip="
           << quote("lowp.island at " + info.location + " (" + info.reasons +
                    ")")
           << ";\n";
      }
      for (unsigned n : members)
        writeNode(graph.nodes[n], prefix + "_n" + std::to_string(n));
      if (island >= 0)
        os << "      }\n";
    }
    if (openBlock >= 0)
      os << "    }\n";
    for (auto &[edge, attributes] : edges) {
      os << "    " << prefix << "_n" << edge.first << " -> " << prefix << "_n"
         << edge.second;
      if (!attributes.empty())
        os << " [" << attributes << "]";
      os << ";\n";
    }
    os << "  }\n";
  }

  void writeNode(const GraphNode &node, const std::string &id) {
    seenColours.insert(node.colourKey);
    std::string tooltip = node.reason;
    if (!node.location.empty())
      tooltip = node.location + ": " + tooltip;
    os << "      " << id << " [label=" << quote(node.label)
       << ", fillcolor=" << quote(getFillColour(node.colourKey))
       << ", tooltip=" << quote(tooltip);
    switch (node.kind) {
    case NodeKind::Argument:
      os << ", shape=ellipse, style=filled";
      break;
    case NodeKind::Output:
      os << ", shape=house, style=filled";
      break;
    case NodeKind::Conversion:
      os << ", shape=box, height=0.2, fontsize=7, margin=\"0.04,0.02\"";
      break;
    case NodeKind::Compute:
      break;
    }
    os << "];\n";
  }

  void writeLegend() {
    os << "  subgraph cluster_legend {\n"
       << "    label=\"precision\"; style=rounded; color=\"#bbbbbb\";\n";
    unsigned i = 0;
    for (StringRef type : seenColours) {
      if (type == "none" || type.empty())
        continue;
      os << "    legend_" << i++ << " [label=" << quote(type)
         << ", fillcolor=" << quote(getFillColour(type))
         << ", tooltip=" << quote("ops that compute on " + type.str())
         << "];\n";
    }
    os << "  }\n";
  }

  llvm::raw_ostream &os;
  std::set<std::string> seenColours;
};

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
      GraphBuilder(functions.back(), decisions, low).build(func);
      if (collapseThreshold >= 0 &&
          (int64_t)functions.back().sequence.size() > collapseThreshold)
        RepeatFinder(functions.back(), minBlockOps).run();
    });

    std::string dot;
    {
      llvm::raw_string_ostream os(dot);
      DotWriter(os).write(functions);
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
    return writeReportFile(getOperation(), report, "report",
                           [&](raw_ostream &os) {
                             os << llvm::formatv(
                                       "{0:2}",
                                       llvm::json::Value(std::move(root)))
                                << "\n";
                           });
  }
};
} // namespace
