//===- Passes.td - lowp conversion passes ------------------*- tablegen -*-===//

#ifndef LOWP_CONVERSION_PASSES_TD
#define LOWP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLowpToLinalg : Pass<"convert-lowp-to-linalg"> {
  let summary = "Lower every lowp op to arith, math, linalg, tensor and scf";
  let description = [{
    Makes the decisions of fp-opt's passes executable by upstream pipelines:

    - `lowp.cast` becomes `arith.extf` / `arith.truncf` (elementwise
      `linalg.generic` on tensors), with saturation as an explicit NaN-
      preserving clamp to the destination's largest finite value, toward-zero
      rounding as a correction step on the nearest-even result, and
      stochastic rounding as integer arithmetic on the f32 bit pattern with a
      per-element hash of the seed and the element's index;
    - `lowp.island` is inlined, with explicit casts of its operands to the
      island precision on entry and of its results back on exit.

    ```mlir
    %0 = lowp.cast %x saturate : tensor<4xf32> to tensor<4xf8E4M3FN>
    // becomes
    %0 = linalg.generic ... {
      %c = arith.minimumf (arith.maximumf %in, -448), 448
      %t = arith.truncf %c : f32 to f8E4M3FN
      linalg.yield %t
    } -> tensor<4xf8E4M3FN>
    ```

    Runs on any op; lowp ops it cannot lower are reported with their
    location and the pass fails.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LowpExpandFloatConversions : Pass<"lowp-expand-float-conversions"> {
  let summary = "Expand f32 <-> bf16/FP8 conversions into exact integer ops";
  let description = [{
    Rewrites `arith.truncf` from f32 (round to nearest-even) and `arith.extf`
    to f32 into shifts, masks, adds and selects on i32 lanes, for every
    narrow format the target has no conversion instruction for. The result
    is bit-exact with APFloat (subnormals, ties, overflow to inf or NaN,
    NaN payloads), vectorizes like any integer code and calls no library:
    upstream lowers a vector f32->bf16 truncation on AVX2 to one
    `__truncsfbf2` call per element and an FP8 one not at all.

    The target is the `target` option, else the module's `lowp.target`
    attribute; with neither, bf16 and every FP8 format are expanded.

    ```mlir
    %b = arith.truncf %x : vector<8xf32> to vector<8xbf16>
    // becomes (abridged)
    %u = arith.bitcast %x : vector<8xf32> to vector<8xi32>
    %l = arith.andi (arith.shrui %u, 16), 1
    %r = arith.shrui (arith.addi (arith.addi %u, 0x7fff), %l), 16
    %q = arith.ori (arith.shrui %u, 16), 0x40          // quiet NaN
    %m = arith.select %isnan, %q, %r
    %b = arith.bitcast (arith.trunci %m to vector<8xi16>) to vector<8xbf16>
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Chip name from the capability table (overrides lowp.target)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // LOWP_CONVERSION_PASSES_TD
