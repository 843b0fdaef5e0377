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

def SelectFP8Formats : Pass<"lowp-select-fp8-formats", "::mlir::ModuleOp"> {
  let summary = "Run matrix ops on FP8 operands with per-tensor formats and "
                "scales";
  let description = [{
    Rewrites every matrix op (matmul, batch matmul, convolution: linalg
    contractions and convolutions, or ops whose PrecisionClassOpInterface
    says `matrix`) to take 8-bit float operands with per-tensor scales and an
    f32 accumulator. For each operand it chooses a format with
    `selectFP8Format` (lowp/Analysis/FP8Selection.h):

    - `hybrid` (default): E4M3 for activations and weights, E5M2 for
      gradients. Roles come from `lowp.role` (`#lowp.role<gradient>`) on the
      value's defining op or on a function argument; unmarked values are
      activations (constants: weights).
    - `e4m3`, `e5m2`: that format for every tensor.
    - `range`: from `#lowp.stats`, the binades the tensor needs
      (log2(amax / min)) against each format's binades after scaling, less
      `margin`: E4M3 when it fits, E5M2 when it does not, bf16 when neither.

    The flavour (OCP FN or AMD FNUZ) comes from the target's row of the
    capability table (`target` option, else the module's `#lowp.target`).
    A target without FP8 is an error unless `allow-bf16-fallback`.

    Operands are quantized once per tensor with `lowp.quantize` (looking
    through a narrowing `lowp.cast`, so an f32 value rounds once); the matrix
    op accumulates in f32 and its epilogue multiplies the accumulator once by
    `1 / (sa * sb)` and rounds to the original result type. Scales are:
    `static` constants `fp8_max / amax / 2^margin` from `#lowp.stats`;
    `current`, from `lowp.amax` of this step; or `delayed`, from an amax
    history of `amax-history` entries that becomes an extra argument and an
    extra result of the function (`amax-compute` = max or most-recent).

    Matrix ops pinned by `lowp.precision`, ops inside `lowp.island`, ops with
    a non-f32 accumulator, and (with `first-last-bf16`) the first and last
    matrix op of each function keep the precision inference gave them, and
    so do ops with an operand that gets bf16. Every decision and its reason
    goes to `report` (JSON) and to remarks (`--remarks-filter="lowp.*"`).

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<16x32xbf16>, tensor<32x8xbf16>)
                       outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
    // becomes (scaling=current)
    %ma = lowp.amax %a32 : tensor<16x32xf32>
    %sa = lowp.compute_scale %ma for f8E4M3FN : f32
    %qa = lowp.quantize %a32, %sa : tensor<16x32xf32>, f32
          to tensor<16x32xf8E4M3FN>
    ...
    %p = linalg.matmul ins(%qa, %qb : tensor<16x32xf8E4M3FN>, ...)
                       outs(%zero : tensor<16x8xf32>) -> tensor<16x8xf32>
    %c = linalg.generic ... ins(%p, %inv : tensor<16x8xf32>, f32) ... {
      %d = arith.mulf %in, %inv : f32   // 1 / (sa * sb)
    }
    ```
  }];
  let options = [
    Option<"recipe", "recipe", "::mlir::lowp::FP8Recipe",
           "::mlir::lowp::FP8Recipe::Hybrid", "How formats are chosen",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::FP8Recipe::Hybrid, "hybrid",
                        "E4M3 forward, E5M2 for gradients"),
             clEnumValN(::mlir::lowp::FP8Recipe::E4M3, "e4m3", "E4M3 always"),
             clEnumValN(::mlir::lowp::FP8Recipe::E5M2, "e5m2", "E5M2 always"),
             clEnumValN(::mlir::lowp::FP8Recipe::Range, "range",
                        "from #lowp.stats: E4M3 if it fits, else E5M2, "
                        "else bf16"))}]>,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Chip name (overrides and sets the module's #lowp.target)">,
    Option<"margin", "margin", "unsigned", /*default=*/"0",
           "Binades of headroom between the scaled amax and the format max">,
    Option<"allowBF16Fallback", "allow-bf16-fallback", "bool",
           /*default=*/"false",
           "On a target without FP8, keep bf16 instead of failing">,
    Option<"scaling", "scaling", "::mlir::lowp::FP8Scaling",
           "::mlir::lowp::FP8Scaling::Current", "Where scales come from",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::FP8Scaling::Static, "static",
                        "constants from #lowp.stats"),
             clEnumValN(::mlir::lowp::FP8Scaling::Delayed, "delayed",
                        "amax history carried as function state"),
             clEnumValN(::mlir::lowp::FP8Scaling::Current, "current",
                        "amax of this step, computed in the graph"))}]>,
    Option<"amaxHistory", "amax-history", "unsigned", /*default=*/"1024",
           "Length of the amax history (delayed scaling)">,
    Option<"amaxCompute", "amax-compute", "::mlir::lowp::AmaxCompute",
           "::mlir::lowp::AmaxCompute::Max",
           "How the history gives the amax (delayed scaling)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::AmaxCompute::Max, "max",
                        "largest amax of the window"),
             clEnumValN(::mlir::lowp::AmaxCompute::MostRecent, "most-recent",
                        "amax of the previous step"))}]>,
    Option<"firstLastBF16", "first-last-bf16", "bool", /*default=*/"false",
           "Keep the first and last matrix op of each function at 16 bits">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write every decision as JSON to this file ('-': stdout)">,
  ];
  let dependentDialects = [
    "::mlir::lowp::LowpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def InstrumentCalibration
    : Pass<"lowp-instrument-calibration", "::mlir::ModuleOp"> {
  let summary = "Record the amax and |x| histogram of FP8 candidates at run time";
  let description = [{
    Instruments every tensor that `lowp-select-fp8-formats` would quantize
    (the float operands of matrix ops, looking through narrowing casts) so
    that running the program prints, each time the tensor is computed,

    ```
    lowp-calibration @mlp 0 amax 3.25
    <printMemrefI64 of 256 counts: nonzero |x| per f32 binade>
    ```

    where `@mlp 0` names the function and the tensor's index in that
    function (the order `lowp-apply-calibration` uses), and bucket `e` counts
    the non-zero elements with f32 exponent field `e` (|x| in
    [2^(e-127), 2^(e-126)); bucket 0 holds subnormals). The amax and a low
    percentile of |x| come out of these numbers; `scripts/lowp-calibrate.py`
    computes them and writes them back as `#lowp.stats` through
    `lowp-apply-calibration`. The instrumented program needs the MLIR runner
    utilities (`printMemrefI64`).
  }];
  let dependentDialects = [
    "::mlir::lowp::LowpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ApplyCalibration : Pass<"lowp-apply-calibration", "::mlir::ModuleOp"> {
  let summary = "Attach measured statistics to FP8 candidates as #lowp.stats";
  let description = [{
    Reads the JSON that `scripts/lowp-calibrate.py` writes,

    ```json
    {"tensors": [{"function": "mlp", "index": 0, "amax": 3.25,
                  "min": 0.0078125, "samples": 4096} ] }
    ```

    and attaches `#lowp.stats<amax = 3.25, min = 0.0078125, samples = 4096>`
    to the tensor with that function and index (numbered as
    `lowp-instrument-calibration` numbers them): on its defining op, or as
    an argument attribute for function arguments. Entries that name no
    tensor are errors.
  }];
  let options = [
    Option<"statsFile", "stats", "std::string", /*default=*/"\"\"",
           "JSON file with the measured statistics">,
  ];
}

#endif // LOWP_TRANSFORMS_PASSES_TD
