//===- Passes.td - lowp transformation passes --------------*- tablegen -*-===//
//
// The decision passes of fp-opt's mixed-precision flow, in the order the
// `lowp-auto-mixed-precision` pipeline runs them. Options every pass shares
// are `defvar`s below.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_TRANSFORMS_PASSES_TD
#define LOWP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def InsertFP32Islands : Pass<"lowp-insert-fp32-islands"> {
  let summary = "runs softmax, normalizations, losses and long sums in FP32 islands";
  let description = [{
    Recognizes, by dataflow and payload semantics (never by op names or
    attributes), the computations that fail in 16-bit floats and wraps each
    in a `lowp.island` at f32:

    - softmax (`linalg.softmax`, or exp / sum / divide with or without the
      max subtraction), log-softmax and logsumexp;
    - layer norm, RMSNorm, batch norm (inference and training) and group
      norm, with rsqrt or sqrt + divide and an optional affine transform;
    - cross-entropy / NLL losses (a sum to one value of log-probabilities);
    - sums and means over more than `long-reduction-threshold` elements.

    The island's operands are the values the computation reads from outside
    (constants and empty tensors are cloned inside) and its results the
    values used outside. Islands that share or exchange values merge; ops
    already in an island are left alone, so the pass is idempotent. Bodies
    of computations already in a low format are promoted to f32. Float
    constants the `low` format cannot represent (an eps that underflows to
    0, a -3.4e38 mask that becomes -inf) are reported; elementwise producers
    that read them join the island they feed, where they stay f32.

    ```mlir
    // Before: %p = exp(%x - max(%x)) / sum(...) as linalg.generic ops.
    %p = lowp.island f32 (%x) : (tensor<4x128xf16>) -> tensor<4x128xf16> {
    ^bb0(%a: tensor<4x128xf32>):
      ... the same generics on f32 ...
      lowp.yield %r : tensor<4x128xf32>
    } {lowp.island_reasons = ["softmax"]}
    ```
  }];
  let dependentDialects = ["::mlir::lowp::LowpDialect"];
  let options = [
    Option<"low", "low", "std::string", /*default=*/"\"f16\"",
           "the low-precision format the rest of the program will use "
           "(f16, bf16 or an f8 type); hazards are judged against it">,
    Option<"longReductionThreshold", "long-reduction-threshold", "int64_t",
           /*default=*/"0",
           "sums over more elements than this get an island; 0 derives it "
           "as 1 / epsilon of `low` (1024 for f16, 128 for bf16), -1 "
           "disables">,
  ];
}

#endif // LOWP_TRANSFORMS_PASSES_TD
