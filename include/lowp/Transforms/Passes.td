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

def LowpInferPrecision : Pass<"lowp-infer-precision", "::mlir::ModuleOp"> {
  let summary = "Decide which ops run in a 16-bit float format and retype them";
  let description = [{
    Colours every op that computes on f32 values low (f16 or bf16) or wide
    (f32) from its precision class (`lowp::PrecisionClassOpInterface`), then
    rewrites the types of the low ops: tensor types, structured-op bodies and
    block arguments, fill values and constants (rounded to nearest even with
    APFloat). `lowp.cast` appears only where a value crosses colours, once
    per value and type however many users it has.

    Colouring (linear in the number of ops and uses):
    1. matrix ops are low; sensitive ops and `lowp.precision = f32` are wide;
    2. wide spreads forward from sensitive ops through follow/transparent ops;
    3. low spreads forward from low ops through follow/transparent ops;
    4. a transparent op whose every use is a low operand becomes low;
    5. a low follow/transparent op with no low user and at most one low
       operand is made wide again (demoting it cannot save a cast);
    6. what is left stays wide.
    Matrix ops keep an f32 accumulator (low inputs, f32 `outs`) unless
    `accumulate=low`. Function signatures, `lowp.island` bodies, unknown ops,
    f64/integer/complex values and region-carrying control flow keep their
    types (`demote-signatures` lets entry functions take and return 16-bit
    tensors instead). With `low=auto` the format is the target's preferred 16-bit format
    (`target=` or the module's `lowp.target`); on targets without one nothing
    changes and a remark says why. Running the pass twice changes nothing.

    ```mlir
    // fp-opt --lowp-infer-precision="low=bf16"
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                       outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
    // becomes
    %a16 = lowp.cast %a : tensor<4x8xf32> to tensor<4x8xbf16>
    %b16 = lowp.cast %b : tensor<8x16xf32> to tensor<8x16xbf16>
    %0 = linalg.matmul ins(%a16, %b16 : tensor<4x8xbf16>, tensor<8x16xbf16>)
                       outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let options = [
    Option<"lowFormat", "low", "std::string", /*default=*/"\"auto\"",
           "Low-precision format: f16, bf16, or auto (the target's preferred "
           "16-bit format)">,
    Option<"targetChip", "target", "std::string", /*default=*/"\"\"",
           "Chip of the capability table (sets the module's lowp.target); "
           "empty: read the module's lowp.target">,
    Option<"accumulate", "accumulate", "std::string", /*default=*/"\"f32\"",
           "Accumulator of matrix ops: f32, or low (the low format)">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write the decision report to this file: JSON when it ends in "
           ".json, a table otherwise; '-' prints the table to stderr">,
    Option<"demoteSignatures", "demote-signatures", "bool",
           /*default=*/"false",
           "Let functions without callers in the module take and return "
           "16-bit tensors where their boundary values are low anyway (the "
           "casts move to their callers)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit one remark per op with its precision and the reason">,
    ListOption<"keepWideOps", "keep-f32", "std::string",
               "Op names (e.g. linalg.matmul) always kept at f32">,
    ListOption<"forceLowOps", "force-low", "std::string",
               "Op names always demoted, whatever their class">
  ];
  let dependentDialects = ["::mlir::lowp::LowpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // LOWP_TRANSFORMS_PASSES_TD
