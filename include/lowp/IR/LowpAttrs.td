//===- LowpAttrs.td - lowp enums and attributes ------------*- tablegen -*-===//

#ifndef LOWP_IR_LOWPATTRS_TD
#define LOWP_IR_LOWPATTRS_TD

include "lowp/IR/LowpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Lowp_RoundingMode : I32EnumAttr<"RoundingMode",
    "rounding mode of a float-to-float cast", [
      I32EnumAttrCase<"NearestEven", 0, "nearest_even">,
      I32EnumAttrCase<"TowardZero", 1, "toward_zero">,
      I32EnumAttrCase<"Stochastic", 2, "stochastic">
    ]> {
  // A specialized attribute so op syntax spells it as a bare keyword:
  // `lowp.cast %x toward_zero : ...`.
  let cppNamespace = "::mlir::lowp";
}
def Lowp_LossScaleMode : I32EnumAttr<"LossScaleMode",
    "how a training step scales its loss", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Static", 1, "static">,
      I32EnumAttrCase<"Dynamic", 2, "dynamic">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::lowp";
}
def Lowp_LossScaleModeAttr
    : EnumAttr<Lowp_Dialect, Lowp_LossScaleMode, "loss_scale_mode">;

def Lowp_PrecisionClass : I32EnumAttr<"PrecisionClass",
    "how an op's numerics react to low precision", [
      // Dense contractions (matmul, conv): fast on matrix units, accumulate wide.
      I32EnumAttrCase<"Matrix", 0, "matrix">,
      // Range- or accuracy-sensitive math (exp, log, norms, long sums): keep wide.
      I32EnumAttrCase<"Sensitive", 1, "sensitive">,
      // Elementwise arithmetic: takes the precision of its neighbours.
      I32EnumAttrCase<"Follow", 2, "follow">,
      // Pure data movement: any precision, never a reason for a cast.
      I32EnumAttrCase<"Transparent", 3, "transparent">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::lowp";
}
def Lowp_PrecisionClassAttr
    : EnumAttr<Lowp_Dialect, Lowp_PrecisionClass, "class">;

def Lowp_ColourReason : I32EnumAttr<"ColourReason",
    "why precision inference gave an op its colour (the analysis's result; "
    "docs/passes/infer-precision.md lists the rules)", [
      // Not retypeable: the op keeps its types.
      I32EnumAttrCase<"Island", 0, "island">,
      I32EnumAttrCase<"NoClass", 1, "no_class">,
      I32EnumAttrCase<"Boundary", 2, "boundary">,
      I32EnumAttrCase<"ControlFlow", 3, "control_flow">,
      I32EnumAttrCase<"ConstantOverflow", 4, "constant_overflow">,
      I32EnumAttrCase<"Complex", 5, "complex">,
      I32EnumAttrCase<"Unranked", 6, "unranked">,
      I32EnumAttrCase<"NonF32", 7, "non_f32">,
      // User overrides.
      I32EnumAttrCase<"PinnedWide", 8, "pinned_wide">,
      I32EnumAttrCase<"PinnedLow", 9, "pinned_low">,
      I32EnumAttrCase<"PinnedOther", 10, "pinned_other">,
      I32EnumAttrCase<"KeepF32Option", 11, "keep_f32_option">,
      I32EnumAttrCase<"ForceLowOption", 12, "force_low_option">,
      // Rule 1: seeds by class.
      I32EnumAttrCase<"MatrixClass", 13, "matrix_class">,
      I32EnumAttrCase<"SensitiveClass", 14, "sensitive_class">,
      // Rules 2 and 3: painted forward.
      I32EnumAttrCase<"DownstreamOfSensitive", 15, "downstream_of_sensitive">,
      I32EnumAttrCase<"FollowsLow", 16, "follows_low">,
      // Rule 4: transparent producers of low users.
      I32EnumAttrCase<"TransparentForLowUsers", 17, "transparent_for_low_users">,
      // Rule 5: undone demotions.
      I32EnumAttrCase<"NoLowUser", 18, "no_low_user">,
      // Rule 6: nothing decided otherwise.
      I32EnumAttrCase<"NoLowNeighbour", 19, "no_low_neighbour">,
      // Rule 2a: an elementwise op joining a matrix op's branch into an f32
      // stream (a residual add) keeps the stream f32.
      I32EnumAttrCase<"StreamJoin", 20, "stream_join">,
      // low=auto on a target without a preferred 16-bit format: nothing is
      // demoted.
      I32EnumAttrCase<"NoLowFormat", 21, "no_low_format">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::lowp";
}

def Lowp_IslandReason : I32EnumAttr<"IslandReason",
    "what an FP32 island protects (spelled so in `lowp.island_reasons`; "
    "islands list their reasons in this order)", [
      I32EnumAttrCase<"Softmax", 0, "softmax">,
      I32EnumAttrCase<"LogSoftmax", 1, "log_softmax">,
      I32EnumAttrCase<"LogSumExp", 2, "logsumexp">,
      I32EnumAttrCase<"LayerNorm", 3, "layer_norm">,
      I32EnumAttrCase<"RMSNorm", 4, "rms_norm">,
      I32EnumAttrCase<"BatchNorm", 5, "batch_norm">,
      I32EnumAttrCase<"GroupNorm", 6, "group_norm">,
      I32EnumAttrCase<"Loss", 7, "loss">,
      I32EnumAttrCase<"LongReduction", 8, "long_reduction">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::lowp";
}

def Lowp_TensorRole : I32EnumAttr<"TensorRole",
    "what a tensor is in a training step (FP8 format selection reads it)", [
      // Forward values: layer inputs and outputs.
      I32EnumAttrCase<"Activation", 0, "activation">,
      // Parameters (and their master copies).
      I32EnumAttrCase<"Weight", 1, "weight">,
      // Backward values: gradients of the loss.
      I32EnumAttrCase<"Gradient", 2, "gradient">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::lowp";
}
def Lowp_TensorRoleAttr
    : EnumAttr<Lowp_Dialect, Lowp_TensorRole, "role"> {
  // `#lowp.role<gradient>` (on a value's defining op or a function argument).
  let assemblyFormat = "`<` $value `>`";
}

def Lowp_AmaxCompute : I32EnumAttr<"AmaxCompute",
    "how a delayed-scaling amax is taken from its history", [
      // The largest amax of the window (Transformer Engine's "max").
      I32EnumAttrCase<"Max", 0, "max">,
      // The amax of the latest step ("most_recent").
      I32EnumAttrCase<"MostRecent", 1, "most_recent">
    ]> {
  // A specialized attribute so op syntax spells it as a bare keyword.
  let cppNamespace = "::mlir::lowp";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// A real number stored as an f64 APFloat and spelled as a plain float literal.
class Lowp_F64Parameter<string desc> : APFloatParameter<desc> {
  let parser = [{ ::mlir::lowp::detail::parseF64Parameter($_parser) }];
  let printer = [{ $_printer.printFloat($_self) }];
}

def Lowp_PolicyAttr : Lowp_Attr<"Policy", "policy"> {
  let summary = "A mixed-precision policy";
  let description = [{
    Says which float types a program uses: `compute` for the low-precision
    arithmetic (f16, bf16 or an 8-bit float), `accumulate` for the
    accumulators of matrix ops, `storage` for master copies (parameters and
    gradients of a training step), and how the loss is scaled.

    ```mlir
    #lowp.policy<compute = bf16, accumulate = f32, storage = f32, loss_scale = none>
    ```
  }];
  let parameters = (ins
    "::mlir::FloatType":$compute,
    "::mlir::FloatType":$accumulate,
    "::mlir::FloatType":$storage,
    "::mlir::lowp::LossScaleMode":$lossScale);
  let assemblyFormat = [{
    `<` `compute` `=` $compute `,` `accumulate` `=` $accumulate `,`
        `storage` `=` $storage `,` `loss_scale` `=` $lossScale `>`
  }];
  let genVerifyDecl = 1;
}

def Lowp_TargetAttr : Lowp_Attr<"Target", "target"> {
  let summary = "The hardware target a module is compiled for";
  let description = [{
    Names a chip by its vendor's name (`sm_90`, `gfx942`, `tpu-v5e`,
    `sapphirerapids`, ...). The name must be a row of fp-opt's capability
    table; every pass asks that table, through this attribute, what the
    hardware can do.

    ```mlir
    module attributes {lowp.target = #lowp.target<"sm_90">} {}
    ```
  }];
  let parameters = (ins StringRefParameter<"vendor chip name">:$chip);
  let assemblyFormat = "`<` $chip `>`";
  let genVerifyDecl = 1;
}

def Lowp_StatsAttr : Lowp_Attr<"Stats", "stats"> {
  let summary = "Calibration statistics of a tensor";
  let description = [{
    What a calibration run measured of one tensor: the largest magnitude
    (`amax`), the smallest magnitude that still matters (`min` — e.g. a low
    percentile of |x| over the non-zero entries), and optionally how many
    samples the numbers summarize and a histogram of the non-zero |x| per
    binade: `histogram[i]` counts the |x| in `[2^(e+i), 2^(e+i+1))` where
    `e = lowest_binade` (f32's subnormals count in the binade -127). FP8
    format selection reads the dynamic range `amax / min` from it, and, with
    a histogram, predicts each format's error from it.

    ```mlir
    #lowp.stats<amax = 3.5e+02, min = 1.0e-03>
    #lowp.stats<amax = 1.0, min = 1.0e-06, samples = 4096>
    #lowp.stats<amax = 6.0, min = 0.038, samples = 32,
                histogram = [1, 0, 0, 3, 9, 12, 5, 2], lowest_binade = -10>
    ```
  }];
  let parameters = (ins
    Lowp_F64Parameter<"largest magnitude">:$amax,
    Lowp_F64Parameter<"smallest significant magnitude">:$min,
    OptionalParameter<"std::optional<uint64_t>">:$samples,
    OptionalParameter<"::mlir::DenseI64ArrayAttr",
                      "non-zero |x| per binade">:$histogram,
    OptionalParameter<"std::optional<int64_t>",
                      "binade of histogram[0]">:$lowest_binade);
  // `key = value` pairs; optional ones may be left out.
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    AttrBuilder<(ins "::llvm::APFloat":$amax, "::llvm::APFloat":$min,
                     CArg<"std::optional<uint64_t>", "std::nullopt">:$samples), [{
      return $_get($_ctxt, amax, min, samples, ::mlir::DenseI64ArrayAttr(),
                   std::nullopt);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    double getAmaxValue() const { return getAmax().convertToDouble(); }
    double getMinValue() const { return getMin().convertToDouble(); }
  }];
}

#endif // LOWP_IR_LOWPATTRS_TD
