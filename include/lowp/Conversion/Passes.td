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
      island precision on entry and of its results back on exit;
    - `lowp.scale` / `lowp.unscale` become elementwise products (the
      reciprocal computed once), `lowp.all_finite` a `linalg.reduce` of
      `|x| < inf`, and `lowp.update_scale` GradScaler's rule in scalar arith.

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
    "::mlir::vector::VectorDialect",
  ];
}

#endif // LOWP_CONVERSION_PASSES_TD
