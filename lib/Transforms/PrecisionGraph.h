//===- PrecisionGraph.h - the graph lowp-view-precision-graph draws -------===//
//
// Internal to lib/Transforms: the model of a function's dataflow that
// lowp-view-precision-graph builds (PrecisionGraphBuilder.cpp), collapses
// into repeated blocks (PrecisionGraphRepeats.cpp) and draws as DOT
// (PrecisionGraphDot.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TRANSFORMS_PRECISIONGRAPH_H
#define LIB_TRANSFORMS_PRECISIONGRAPH_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace mlir::lowp::precision_graph {

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

/// `type` as MLIR prints it.
std::string printType(Type type);

/// Where the scale of a quantization comes from, in words; the value of a
/// static scale in `staticScale`.
std::string describeScale(Value scale, std::optional<double> &staticScale);

/// The graph of `func`: its nodes, islands and sequence, each compute
/// node's reason from `decisions`, coloured against the `low` format.
void buildFunctionGraph(FunctionGraph &graph, DecisionIndex &decisions,
                        FloatType low, FunctionOpInterface func);

/// Finds runs of at least two structurally identical blocks of at least
/// `minBlockOps` ops in `graph`'s sequence (its `blocks`).
void findRepeatedBlocks(FunctionGraph &graph, unsigned minBlockOps);

/// The DOT graph of `functions`.
void writeDot(llvm::raw_ostream &os, ArrayRef<FunctionGraph> functions);

} // namespace mlir::lowp::precision_graph

#endif // LIB_TRANSFORMS_PRECISIONGRAPH_H
