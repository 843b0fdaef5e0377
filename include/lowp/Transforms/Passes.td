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

// `target`: a row of the capability table (lowp/Target/TargetInfo.h), the
// same name in every pass and pipeline.
defvar TargetOption = Option<"target", "target", "std::string",
    /*default=*/"\"\"",
    "Chip of the capability table (fp-opt --print-target-table; "
    "low=auto takes its preferred format); "
    "empty: the module's lowp.target">;

// `demote-weights`: the same choice in the inference and FP8 passes and in
// lowp-auto-mixed-precision.
defvar DemoteWeightsOption = Option<"demoteWeights", "demote-weights",
    "::mlir::lowp::WeightDemotion",
    /*default=*/"::mlir::lowp::WeightDemotion::None",
    "Function arguments whose type the decision may narrow: none (default, "
    "signatures keep their types) or arguments (an argument read only as "
    "matrix op inputs, through layout moves, arrives in the format its "
    "matrix ops read; callers in the module convert once, external callers "
    "must too: docs/embedding.md)",
    [{::llvm::cl::values(
      clEnumValN(::mlir::lowp::WeightDemotion::None, "none",
                 "signatures keep their types"),
      clEnumValN(::mlir::lowp::WeightDemotion::Arguments, "arguments",
                 "weights arrive in their decided format"))}]>;

// Every float type narrower than f32, and auto.
defvar LowFormatValues = [{::llvm::cl::values(
    clEnumValN(::mlir::lowp::LowFormat::Auto, "auto",
               "the target's preferred 16-bit format"),
    clEnumValN(::mlir::lowp::LowFormat::F16, "f16", ""),
    clEnumValN(::mlir::lowp::LowFormat::BF16, "bf16", ""),
    clEnumValN(::mlir::lowp::LowFormat::TF32, "tf32", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E5M2, "f8E5M2", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E4M3, "f8E4M3", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E4M3FN, "f8E4M3FN", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E5M2FNUZ, "f8E5M2FNUZ", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E4M3FNUZ, "f8E4M3FNUZ", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E4M3B11FNUZ, "f8E4M3B11FNUZ", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E3M4, "f8E3M4", ""),
    clEnumValN(::mlir::lowp::LowFormat::F8E8M0FNU, "f8E8M0FNU", ""),
    clEnumValN(::mlir::lowp::LowFormat::F6E2M3FN, "f6E2M3FN", ""),
    clEnumValN(::mlir::lowp::LowFormat::F6E3M2FN, "f6E3M2FN", ""),
    clEnumValN(::mlir::lowp::LowFormat::F4E2M1FN, "f4E2M1FN", ""))}];

def LowpInsertFP32Islands : Pass<"lowp-insert-fp32-islands"> {
  let summary = "runs softmax, normalizations, losses and long sums in FP32 islands";
  let description = [{
    Recognizes, by dataflow and payload semantics (never by op names or
    attributes), the computations that fail in 16-bit floats and wraps each
    in a `lowp.island` at f32:

    - softmax (`linalg.softmax`, or exp / sum / divide with or without the
      max subtraction), log-softmax and logsumexp;
    - layer norm, RMSNorm, batch norm (inference and training) and group
      norm, with rsqrt or sqrt + divide and an optional affine transform;
    - losses: cross-entropy / NLL (a sum to one value of log-probabilities)
      and mean squared error (of squared differences);
    - sums and means over more than `long-reduction-threshold` elements.

    The island's operands are the values the computation reads from outside
    (constants and empty tensors are cloned inside) and its results the
    values used outside. Islands that share or exchange values merge, unless
    the merged island would hold a contraction on a path between them; ops
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
    Option<"low", "low", "::mlir::lowp::LowFormat",
           /*default=*/"::mlir::lowp::LowFormat::Auto",
           "the low-precision format the rest of the program will use "
           "(a float type narrower than f32); hazards and the default "
           "long-reduction threshold are judged against it. auto: the "
           "target's preferred 16-bit format, f16 (the narrowest range) "
           "without a target", LowFormatValues>,
    TargetOption,
    Option<"longReductionThreshold", "long-reduction-threshold", "int64_t",
           /*default=*/"0",
           "sums over more elements than this get an island; 0 derives it "
           "as 1 / epsilon of `low` (1024 for f16, 128 for bf16), -1 "
           "disables">,
  ];
}

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
    4. a transparent op whose every use is a low operand becomes low, also
       when rule 2 made it wide if it moves one value into at least as many
       elements (a pad, a reshape: the cast goes before it);
    5. a low follow/transparent op with no low user and at most one low
       operand is made wide again (demoting it cannot save a cast);
    6. what is left stays wide.
    Matrix ops keep an f32 accumulator (low inputs, f32 `outs`) unless
    `accumulate=low`; a matrix op that arrives with a 16-bit accumulator (a
    model converted to bf16 before export) gets an f32 one too, its result
    rounded once by a `lowp.cast` to the type its users read; a generic that
    arrives computing in a 16-bit format the target has no arithmetic for
    computes in f32 between one extension and one rounding, as the ops the
    pass demotes do there. Function signatures, `lowp.island` bodies, unknown ops,
    f64/integer/complex values and region-carrying control flow keep their
    types (`demote-signatures` lets entry functions take and return 16-bit
    tensors instead; `demote-state` only their state, an argument returned
    updated such as a decoder's KV cache; with `state-format`, such state is
    stored in an 8-bit float format instead, a KV cache in FP8). With
    `low=auto` the format is the target's preferred 16-bit format
    (`target=` or the module's `lowp.target`); on targets without one
    nothing is demoted and a remark says why (ops that arrive in 16 bits are
    still given an f32 accumulator or f32 arithmetic). Running the pass twice changes nothing.

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
    Option<"lowFormat", "low", "::mlir::lowp::LowFormat",
           /*default=*/"::mlir::lowp::LowFormat::Auto",
           "Low-precision format: f16, bf16, or auto (the target's preferred "
           "16-bit format)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::LowFormat::Auto, "auto",
                        "the target's preferred 16-bit format"),
             clEnumValN(::mlir::lowp::LowFormat::F16, "f16", "f16"),
             clEnumValN(::mlir::lowp::LowFormat::BF16, "bf16", "bf16"))}]>,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Chip of the capability table (sets the module's lowp.target); "
           "empty: read the module's lowp.target">,
    Option<"accumulate", "accumulate", "::mlir::lowp::Accumulator",
           /*default=*/"::mlir::lowp::Accumulator::F32",
           "Accumulator of matrix ops",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::Accumulator::F32, "f32", "f32"),
             clEnumValN(::mlir::lowp::Accumulator::Low, "low",
                        "the low format"))}]>,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write the decision report to this file: JSON when it ends in "
           ".json, a table otherwise; '-' prints the table to stderr">,
    Option<"demoteSignatures", "demote-signatures", "bool",
           /*default=*/"false",
           "Let functions without callers in the module take and return "
           "16-bit tensors where their boundary values are low anyway (the "
           "casts move to their callers)">,
    Option<"demoteState", "demote-state", "bool", /*default=*/"false",
           "The same for state only: an argument of a function without "
           "callers in the module that is returned updated (a result of its "
           "type computed from it without a matrix op in between: a "
           "decoder's KV cache), read only in the low format, is taken and "
           "returned in that format">,
    Option<"stateFormat", "state-format", "std::string", /*default=*/"\"\"",
           "With demote-state: store that state in this 8-bit float format "
           "instead (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ): widened to "
           "the low format where it is read, rounded to nearest even with "
           "saturation (no scale) where it is returned; empty: the low "
           "format">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit one remark per op with its precision and the reason">,
    Option<"propagate", "propagate", "bool", /*default=*/"true",
           "Carry the low format forward through follow ops (false: only "
           "matrix ops and the moves that feed them are low, everything "
           "else f32, as PyTorch autocast does)">,
    Option<"keepStreamsF32", "f32-streams", "bool", /*default=*/"true",
           "Keep f32 streams f32: an elementwise op that combines a matrix "
           "op's result with an f32 value flowing past it (residual adds, "
           "values carried across blocks) stays f32, with the epilogue "
           "feeding it; matrix inputs are still rounded once (false: such "
           "ops follow the low format, fewer bytes, more error; the report "
           "lists each join it keeps)">,
    DemoteWeightsOption,
    Option<"matrixConstantsWide", "matrix-constants-wide", "bool",
           /*default=*/"false",
           "Leave f32 constants that only matrix ops read f32 behind a "
           "lowp.cast instead of rounding them at compile time (what "
           "lowp-auto-mixed-precision's FP8 policy sets: "
           "lowp-select-fp8-formats quantizes them from f32, once, and "
           "rounds the rest)">,
    ListOption<"keepWideOps", "keep-f32", "std::string",
               "Op names (e.g. linalg.matmul) always kept at f32">,
    ListOption<"forceLowOps", "force-low", "std::string",
               "Op names always demoted, whatever their class">
  ];
  let dependentDialects = ["::mlir::lowp::LowpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowpMaterializeLossScaling
    : Pass<"lowp-materialize-loss-scaling", "::mlir::ModuleOp"> {
  let summary = "Make dynamic (or static) loss scaling part of FP16 training steps";
  let description = [{
    Rewrites every function that follows the training-step convention of
    docs/training-step.md (a `lowp.loss` result, one `lowp.loss_seed` op, the
    `lowp.gradient` ops and the `lowp.updates = <arg>` results) into a step
    that scales its loss the way torch.amp.GradScaler does, in the compiled
    code:

    - the backward seed (the 1.0 cotangent of the loss) becomes
      `lowp.scale %scale, %seed`;
    - every master gradient is unscaled in f32 with `lowp.unscale`
      (a reciprocal that is exact for power-of-two scales);
    - `lowp.all_finite` over the unscaled gradients guards every
      `lowp.updates` result: a non-finite step returns the parameters (and
      optimizer state) it received, bit for bit;
    - with `mode=dynamic` the scale and the good-step counter become
      function arguments and results (`lowp.loss_scale`, `lowp.good_steps`)
      updated by `lowp.update_scale`; `mode=static` uses the constant
      `init-scale` with the same skip logic.

    ```mlir
    func.func @step(%w: tensor<4xf32>, ...)
        -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
      %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
      ...
      %g = lowp.cast %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
      ...
    }
    // becomes
    func.func @step(%w: tensor<4xf32>, ..., %scale: f32 {lowp.loss_scale = 65536.0 : f32},
                    %good: i64 {lowp.good_steps})
        -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64},
            f32 {lowp.loss_scale}, i64 {lowp.good_steps})
        attributes {lowp.loss_scaling = "dynamic"} {
      %s = lowp.scale %scale, %seed {lowp.loss_seed} : f32, tensor<f16>
      ...
      %u = lowp.unscale %scale, %g {lowp.gradient} : f32, tensor<4xf32>
      %ok = lowp.all_finite %u : tensor<4xf32>
      %w1 = arith.select %ok, %new_w, %w : tensor<4xf32>
      %s1, %n1 = lowp.update_scale %scale, %good, %ok : f32, i64
      return %loss, %w1, %s1, %n1 : ...
    }
    ```

    The mode is `mode` when set, else the `loss_scale` of the function's or
    module's `#lowp.policy`, else dynamic. Loss scaling only applies to f16
    compute (`policy`, else the `#lowp.policy` compute type, else f16 if any
    value of the function has it): for bf16 and 8-bit floats the pass
    changes nothing and says why in a remark. A function already carrying `lowp.loss_scaling` is
    left as it is. With `check-numerics`, the step also reports at run time
    the first non-finite tensor among the loss and the gradients, by role
    and source location (`vector.print`).
  }];
  let options = [
    Option<"mode", "mode", "::mlir::lowp::LossScalingChoice",
           /*default=*/"::mlir::lowp::LossScalingChoice::Auto",
           "Loss scaling to apply",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::LossScalingChoice::Auto, "auto",
                        "from #lowp.policy, else dynamic"),
             clEnumValN(::mlir::lowp::LossScalingChoice::None, "none",
                        "no loss scaling"),
             clEnumValN(::mlir::lowp::LossScalingChoice::Static, "static",
                        "the constant init-scale"),
             clEnumValN(::mlir::lowp::LossScalingChoice::Dynamic, "dynamic",
                        "GradScaler's dynamic scale"))}]>,
    Option<"policy", "policy", "::mlir::lowp::PrecisionPolicy",
           /*default=*/"::mlir::lowp::PrecisionPolicy::Auto",
           "Compute format",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::PrecisionPolicy::Auto, "auto",
                        "from #lowp.policy, else the IR's types"),
             clEnumValN(::mlir::lowp::PrecisionPolicy::F16, "f16", "f16"),
             clEnumValN(::mlir::lowp::PrecisionPolicy::BF16, "bf16", "bf16"),
             clEnumValN(::mlir::lowp::PrecisionPolicy::FP8, "fp8",
                        "8-bit floats"))}]>,
    Option<"initScale", "init-scale", "double", /*default=*/"65536.0",
           "static: the fixed scale; dynamic: the initial scale, recorded on "
           "the scale argument">,
    Option<"growthFactor", "growth-factor", "double", /*default=*/"2.0",
           "scale growth after growth-interval finite steps">,
    Option<"backoffFactor", "backoff-factor", "double", /*default=*/"0.5",
           "scale factor after a non-finite step">,
    Option<"growthInterval", "growth-interval", "int64_t", /*default=*/"2000",
           "consecutive finite steps before the scale grows">,
    Option<"minScale", "min-scale", "double", /*default=*/"0.0",
           "smallest scale (0: unbounded)">,
    Option<"maxScale", "max-scale", "double", /*default=*/"0.0",
           "largest scale (0: unbounded)">,
    Option<"checkNumerics", "check-numerics", "bool", /*default=*/"false",
           "report the first non-finite loss or gradient at run time">,
  ];
  let dependentDialects = [
    "::mlir::lowp::LowpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowpSelectFP8Formats : Pass<"lowp-select-fp8-formats", "::mlir::ModuleOp"> {
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
      value's defining op or on a function argument, else from the
      training-step convention (docs/training-step.md): values computed from
      the `lowp.loss_seed` op, or marked `lowp.gradient`, are gradients;
      other values are activations (constants: weights).
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

    Which matrix ops take FP8 (as Transformer Engine does): with `hybrid`,
    those with a parameter operand (a weight: a constant or a function
    argument, `#lowp.role<weight>`, seen through casts, reshapes, slices,
    transposes and broadcasts) and the backward pass's GEMMs (an operand is
    a gradient); a product of two computed activations (attention's Q.K^T
    and P.V) keeps 16 bits unless `fp8-attention`. The explicit recipes
    (`e4m3`, `e5m2`, `range`) apply to every matrix op.

    Matrix ops pinned by `lowp.precision`, ops inside `lowp.island`, ops with
    a non-f32 accumulator, and (with `first-last-bf16`) the first and last
    matrix op of each function keep the precision inference gave them, and
    so do ops with an operand that gets bf16. The report gives each matrix
    op's choice and reason and the FP8 share of the matrix FLOPs. Every decision and its reason
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
                        "from #lowp.stats: the lower predicted error "
                        "(histogram) or E4M3 if the range fits, else E5M2, "
                        "else bf16"))}]>,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Chip of the capability table (overrides and sets the module's "
           "#lowp.target)">,
    Option<"margin", "margin", "unsigned", /*default=*/"0",
           "Binades of headroom between the scaled amax and the format max">,
    Option<"maxError", "max-error", "double", /*default=*/"0.0",
           "range with a histogram: bf16 when both FP8 formats' predicted "
           "relative RMS error exceeds this (0: twice E5M2's rounding "
           "error)">,
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
    Option<"fp8Attention", "fp8-attention", "bool", /*default=*/"false",
           "hybrid: FP8 also for products of two computed activations "
           "(attention's Q.K^T and P.V)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write every decision as JSON to this file ('-': stdout)">,
    DemoteWeightsOption,
  ];
  let dependentDialects = [
    "::mlir::lowp::LowpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LowpFP8WeightOnly : Pass<"lowp-fp8-weight-only", "::mlir::ModuleOp"> {
  let summary = "Weight arguments stored as FP8 with a scale per output channel";
  let description = [{
    Weight-only FP8 (`policy=fp8-weights`), for targets without FP8
    arithmetic where reading the weights is what a call costs (decoding at
    batch 1): the matrix ops keep the formats inference decided, and a
    weight argument they read arrives as E4M3 bytes (the target's flavour:
    `f8E4M3FN`, or `f8E4M3FNUZ` on FNUZ chips) with one f32 scale per
    output channel. With per-channel scales every channel's largest
    magnitude maps onto E4M3's largest value, and E4M3's 3 mantissa bits
    round weights more finely than E5M2's 2 (a relative error of at most
    2^-4 against 2^-3); the range below is E4M3's 17 binades.

    An argument of an entry function (no caller in the module) qualifies
    when every read of it, through layout moves (lowp.cast, transposes,
    broadcasts, reshapes that keep the channel, copy-like generics), is an
    input of a contraction (`linalg.matmul`, `linalg.batch_matmul`, or any
    contraction generic) in which exactly one parallel dimension of the
    output indexes the weight and no other input: its output channel.
    The argument becomes `tensor<...xf8E4M3FN>` with
    `lowp.fp8_scale = J : i64` and `lowp.fp8_axis = D : i64`, and a new
    last argument `J`, `tensor<Cxf32> {lowp.fp8_scale_of = I : i64}`,
    holds the scale `s[c]` its caller multiplied channel `c` (index `c` of
    dimension `D`) by before rounding: `q = saturate(round(w * s[c]))`.
    Each contraction then reads the FP8 weight widened exactly (lowp.cast
    to its operand's format) into a zero-filled accumulator, and a generic
    divides every output element by its channel's scale and adds the
    original accumulator (a bias) where that was not zero:

    ```mlir
    // before: %w : tensor<64x32xf32>, read as B^T
    %r = linalg.matmul ins(%x, %wt : tensor<8x32xbf16>, tensor<32x64xbf16>)
                       outs(%bias : tensor<8x64xf32>) -> tensor<8x64xf32>
    // after: %w : tensor<64x32xf8E4M3FN> {lowp.fp8_scale = 2 : i64,
    //        lowp.fp8_axis = 0 : i64}, %s : tensor<64xf32>
    %p = linalg.matmul ins(%x, %wt8 : ...) outs(%zeros) -> tensor<8x64xf32>
    %r = linalg.generic ... { %bias + %p / %s[j] }
    ```

    Arguments that do not qualify keep their types, with a remark saying
    why (read by another op, a move that splits the channel, no single
    output channel, a function called in the module). Pinned matrix ops
    (`lowp.precision`) and ops in FP32 islands are not taken. The pass is
    idempotent: FP8 arguments are not taken again.
  }];
  let options = [
    TargetOption,
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "A remark for each weight argument taken or kept, and why">,
  ];
  let dependentDialects = [
    "::mlir::lowp::LowpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LowpWritePrecisionReport
    : Pass<"lowp-write-precision-report", "::mlir::ModuleOp"> {
  let summary = "Write the tensor bytes of the module as it stands";
  let description = [{
    The last step of `lowp-auto-mixed-precision`: it writes the decision
    report that precision inference collected, with the tensor bytes, the
    matrix ops' input formats and the conversions measured on the module
    after every decision pass (FP8 selection and loss scaling included).

    Run on its own, it measures the module as it stands (both `bytes_before`
    and `bytes_after` are its bytes; there are no per-op decisions): the
    bytes of an f32 model and of a decided one, measured alike.

    Tensor bytes count what a lowering materializes: statically shaped
    float tensors that are function arguments, results or op results, but
    not `tensor.empty`, views (reshapes, slices), island results (counted
    inside), a value whose only use is a destination-style op's init (a
    fill of an accumulator shares its buffer), values a consumer fuses (the
    only use of an elementwise or matrix op's result read by an elementwise
    op; a transpose or broadcast read only by matrix ops), and conversions
    that a producer or consumer fuses: a conversion read only as matrix op inputs
    (converted while the kernel packs or loads them) or by elementwise ops
    (converted in their loop) is no tensor; one whose input is the only use
    of an elementwise or matrix op's result is that op's result, written in
    the converted format. The report gives the number of fused and
    materialized conversions.
  }];
  let options = [
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Where the report goes: JSON when it ends in .json, a table "
           "otherwise; '-' prints the table to stderr">,
  ];
}

def LowpInstrumentCalibration
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

def LowpApplyCalibration : Pass<"lowp-apply-calibration", "::mlir::ModuleOp"> {
  let summary = "Attach measured statistics to FP8 candidates as #lowp.stats";
  let description = [{
    Reads the JSON that `scripts/lowp-calibrate.py` writes,

    ```json
    {"tensors": [{"function": "mlp", "index": 0, "amax": 3.25,
                  "min": 0.0078125, "samples": 4096,
                  "histogram": [12, 0, 96, ...], "lowest_binade": -9} ] }
    ```

    and attaches `#lowp.stats<amax = 3.25, min = 0.0078125, samples = 4096,
    histogram = [12, 0, 96, ...], lowest_binade = -9>` (the histogram is
    optional) to the tensor with that function and index (numbered as
    `lowp-instrument-calibration` numbers them): on its defining op, or as
    an argument attribute for function arguments. Entries that name no
    tensor are errors.
  }];
  let options = [
    Option<"statsFile", "stats", "std::string", /*default=*/"\"\"",
           "JSON file with the measured statistics">,
  ];  // It creates #lowp.stats on modules that may hold no lowp op yet.
  let dependentDialects = ["::mlir::lowp::LowpDialect"];
}

def LowpPinMatrixOps : Pass<"lowp-pin-matrix-ops", "::mlir::ModuleOp"> {
  let summary = "Pin numbered matrix ops to a precision (lowp.precision)";
  let description = [{
    Numbers the matrix ops of the module (contractions and convolutions, as
    `isMatrixOp` and the FP8 passes see them; outside `lowp.island`s; in
    function order, then walk order, from 0) and sets
    `lowp.precision = <precision>` on those listed in `ops`, so that the
    decision passes keep them at that precision. With `list`, every matrix
    op gets a remark `matrix op #i: <name>, <n> input elements` (its first
    two float operands, 0 when a shape is dynamic) at its location (how a search
    such as `fpopt.tune` learns what it can pin). An index the module does
    not have is an error.

    ```
    fp-opt model.mlir --lowp-pin-matrix-ops="ops=0,3 precision=f32" \
      --lowp-auto-mixed-precision="target=sm_90"
    ```
  }];
  let options = [
    ListOption<"ops", "ops", "int64_t", "Indices of the matrix ops to pin">,
    Option<"precision", "precision", "std::string", /*default=*/"\"f32\"",
           "The float type to pin them to (f32, bf16, f16, ...)">,
    Option<"list", "list", "bool", /*default=*/"false",
           "Emit a remark naming each matrix op and its index">,
  ];
}

def LowpViewPrecisionGraph
    : Pass<"lowp-view-precision-graph", "::mlir::ModuleOp"> {
  let summary = "Draw each function's dataflow coloured by its precision "
                "(Graphviz DOT or SVG)";
  let description = [{
    Writes the dataflow of every function (any FunctionOpInterface op) as
    one Graphviz graph, for looking at what the decision passes did: where
    the casts went, which ops stayed f32, and why. The pass only reads the IR; it runs after any of the
    decision passes (or on IR that never saw them).

    - One node per op that computes on the function's data (constants,
      `tensor.empty` and fills of them are left out), coloured by the
      element type of its inputs: f32, f16, bf16, each FP8 flavour, f64;
      matrix ops show their inputs and their accumulator (`bf16 -> f32`).
    - `lowp.cast`, `lowp.quantize` and `lowp.dequantize` are small nodes.
    - Each `lowp.island` is a cluster labelled with what it protects.
    - The tooltip of every node says why it has its precision: the island,
      the FP8 format and where its scale comes from, `lowp.precision`, the
      rule of `lowp-infer-precision` when `report` holds its decisions, or
      else the op's precision class and its reason.
    - Functions with more than `collapse-threshold` drawn ops are searched
      for runs of structurally identical blocks (same ops, same precisions,
      same internal dataflow, whole islands), such as the layers of a
      transformer: a run of N copies is drawn once, in a cluster labelled
      with N, and the edges leaving it come from its last copy.

    With `output` ending in `.svg` the graph is rendered by Graphviz's `dot`
    (Debian package graphviz), otherwise written as DOT ('-': stdout).
    With `report`, the pass completes the JSON decision report that
    `lowp-infer-precision` (or `lowp-auto-mixed-precision{report=...}`)
    wrote there: it adds a `graph` section (every op with its final
    precision and reason, islands, casts, FP8 choices with their scales,
    hazardous constants, final tensor bytes, and the DOT text), from which
    `scripts/lowp-report-html.py` builds the report page. A report file
    that does not exist yet is created; one written by an fp-opt with
    another report schema is an error.

    ```
    fp-opt model.mlir --lowp-auto-mixed-precision="target=sm_90" \
      --lowp-view-precision-graph="output=model.svg"
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "Where the graph goes: a .svg file (rendered with Graphviz's dot), "
           "any other file (DOT), '-' (DOT on stdout), or empty (none)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "A JSON decision report to complete with the graph section "
           "(created when it does not exist)">,
    Option<"collapseThreshold", "collapse-threshold", "int64_t",
           /*default=*/"64",
           "Look for repeated blocks in functions with more drawn ops than "
           "this; -1: never collapse">,
    Option<"minBlockOps", "min-block-ops", "unsigned", /*default=*/"3",
           "Fewest ops in one copy of a collapsed repeated block">,
  ];
}

#endif // LOWP_TRANSFORMS_PASSES_TD
