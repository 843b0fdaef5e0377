//===- LoopBuilder.h - scf/vector loop nests for hand-written kernels -----===//
//
// The target-independent vocabulary of fp-opt's kernels on buffers: index
// arithmetic, counted loops (optionally marked for lowp-parallelize-loops),
// a loop that goes a vector at a time and then one element at a time, and
// square blocks transposed in registers. The x86 kernels
// (lib/Conversion/LinalgToX86) and the im2col rewrite build on it.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_CONVERSION_LINALGCOMMON_LOOPBUILDER_H
#define LOWP_CONVERSION_LINALGCOMMON_LOOPBUILDER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::lowp {

/// A statically shaped, identity-layout memref of rank `rank`, or null.
MemRefType getPlainMemRef(Value v, unsigned rank);

/// A statically shaped memref of rank `rank` whose innermost dimension is
/// contiguous (identity layout, or a strided view such as one slice of a
/// fused projection's columns), or null: vector loads and stores along
/// that dimension are plain ones.
MemRefType getRowMajorView(Value v, unsigned rank);

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Builds loop nests and vector code at an insertion point of `b`.
class LoopBuilder {
public:
  LoopBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value idx(int64_t v);
  /// Dimension `d` of the memref `v`: a constant when static, memref.dim
  /// otherwise (a front end's dynamic batch).
  Value dimSize(Value v, unsigned d);
  Value addc(Value x, int64_t c);
  Value mulc(Value x, int64_t c);
  Value addIdx(Value x, Value y);
  /// A 64-byte aligned buffer (a vector row never straddles a cache line).
  Value alloc(MemRefType type);
  void dealloc(Value v);
  /// `prefix` followed by `rest`: the indices of a maybe-batched operand.
  static SmallVector<Value> at(ValueRange prefix,
                               std::initializer_list<Value> rest);

  /// for (i = lo; i < hi; i += step) body(i). `parallel`: the iterations
  /// write disjoint memory and read nothing another one writes; the loop
  /// carries `lowp.parallel`, which lowp-parallelize-loops (threads= of
  /// lowp-pipeline-x86) turns into an scf.parallel.
  void loop(Value lo, Value hi, int64_t step, function_ref<void(Value)> body,
            bool parallel = false);
  /// The same with constant bounds; nothing when lo >= hi.
  void loop(int64_t lo, int64_t hi, int64_t step,
            function_ref<void(Value)> body, bool parallel = false);
  void loop(int64_t n, int64_t step, function_ref<void(Value)> body,
            bool parallel = false);

  /// The rows of a square block of vectors, transposed in registers:
  /// log2(L) butterfly stages of two-input shuffles (unpack / shuffle /
  /// permute instructions; no memory traffic, no scalar code). Shuffles are
  /// done on integers of the element's width: LLVM handles those for every
  /// width, while some targets scalarize shuffles of bf16 vectors.
  SmallVector<Value> transposeBlock(ArrayRef<Value> rows);

  /// dst[c][r] = src[r][c] for r < rows, c < cols, through `lanes` x `lanes`
  /// blocks transposed in registers; the edges element by element.
  /// loadRow(r, c): `lanes` source elements of row r from column c (already
  /// converted to what is stored); storeRow(c, r, v): the same number of
  /// destination elements of row c from column r; copyOne(r, c): one.
  void emitTransposeCopy(int64_t rows, int64_t cols, int64_t lanes,
                         function_ref<Value(Value, Value)> loadRow,
                         function_ref<void(Value, Value, Value)> storeRow,
                         function_ref<void(Value, Value)> copyOne);

  /// for c in [0, n): `lanes` elements at a time while they fit, then one
  /// at a time: vec(c) / one(c).
  void emitVectorizedLoop(int64_t n, int64_t lanes,
                          function_ref<void(Value)> vec,
                          function_ref<void(Value)> one);

  /// for c in [0, n): `lanes` elements at a time, the remainder (when n is
  /// at least `lanes`) as one more vector ending at n, which redoes up to
  /// lanes - 1 elements; one at a time only when n < lanes. For copies whose
  /// stores never change what `vec` reads (the rewritten elements get the
  /// same values again): no scalar tail. Up to kMaxStraightVectors full
  /// vectors are emitted one after the other, without a loop.
  static constexpr int64_t kMaxStraightVectors = 4;
  void emitVectorizedLoopOverlappingTail(int64_t n, int64_t lanes,
                                         function_ref<void(Value)> vec,
                                         function_ref<void(Value)> one);

  /// The payload of an elementwise op with one input applied to `x`, a
  /// scalar or a vector: the payload's ops are cloned with vector results,
  /// scalars they use broadcast.
  Value applyBody(linalg::LinalgOp op, Value x);

  /// The payload `body` of an elementwise op applied to `args` (one per
  /// block argument, null where the payload does not read it), scalars or
  /// vectors of one shape: the payload's ops are cloned with vector
  /// results, scalars they use (arguments, constants, values defined
  /// outside the payload) broadcast.
  /// With `hoisted` (hoistPayload's result), the ops it computed are not
  /// cloned again; `vt`: the vector type when no argument is a vector.
  Value applyPayload(Block *body, ArrayRef<Value> args,
                     const IRMapping *hoisted = nullptr,
                     VectorType vt = nullptr);

  /// The ops of the payload `body` that depend on nothing but the `args`
  /// set here (the others null) and values from outside, cloned at the
  /// insertion point as applyPayload would (vectors of `vt` where set):
  /// the loop-invariant part of a payload applied in a loop, computed once
  /// before it. Pure ops only.
  IRMapping hoistPayload(Block *body, ArrayRef<Value> args, VectorType vt);

  OpBuilder &builder() const { return b; }
  Location location() const { return loc; }

protected:
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::lowp

#endif // LOWP_CONVERSION_LINALGCOMMON_LOOPBUILDER_H
