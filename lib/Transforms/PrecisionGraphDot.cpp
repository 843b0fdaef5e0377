//===- PrecisionGraphDot.cpp - a precision graph as Graphviz DOT ----------===//
//
// Nodes coloured by the precision they compute in, FP32 islands as
// clusters, repeated blocks drawn once, a legend.
//
//===----------------------------------------------------------------------===//

#include "PrecisionGraph.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::precision_graph;

namespace {

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

} // namespace

void mlir::lowp::precision_graph::writeDot(llvm::raw_ostream &os,
                                           ArrayRef<FunctionGraph> functions) {
  DotWriter(os).write(functions);
}
