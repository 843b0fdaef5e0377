//===- PrecisionGraphRepeats.cpp - repeated blocks of a graph -------------===//
//
// The runs of structurally identical blocks (the layers of a transformer)
// lowp-view-precision-graph draws once.
//
//===----------------------------------------------------------------------===//

#include "PrecisionGraph.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/Hashing.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::precision_graph;

namespace {

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

} // namespace

void mlir::lowp::precision_graph::findRepeatedBlocks(FunctionGraph &graph,
                                                     unsigned minBlockOps) {
  RepeatFinder(graph, minBlockOps).run();
}
