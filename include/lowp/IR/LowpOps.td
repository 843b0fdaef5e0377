//===- LowpOps.td - lowp operations ------------------------*- tablegen -*-===//

#ifndef LOWP_IR_LOWPOPS_TD
#define LOWP_IR_LOWPOPS_TD

include "lowp/IR/LowpBase.td"
include "lowp/IR/LowpAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// A float scalar, or a vector or ranked tensor of floats.
def Lowp_FloatLike : AnyTypeOf<[AnyFloat, VectorOfAnyRankOf<[AnyFloat]>,
                                 RankedTensorOf<[AnyFloat]>],
    "float, or vector or ranked tensor of floats">;

// A value whose elements carry numbers: any float scalar, vector or tensor.
def Lowp_FloatTensorLike : AnyTypeOf<[AnyFloat, VectorOfAnyRankOf<[AnyFloat]>,
                                       TensorOf<[AnyFloat]>],
    "float, or vector or tensor of floats">;

// `lhs` and `rhs` are both scalars, or vectors/tensors of one shape.
class Lowp_SameShape<string lhs, string rhs> : PredOpTrait<
    "'" # lhs # "' and '" # rhs # "' have the same shape",
    CPred<"::mlir::lowp::detail::haveSameShape($" # lhs # ".getType(), $" #
          rhs # ".getType())">>;

def Lowp_ScaleType : AnyTypeOf<[AnyFloat], "float scalar">;

//===----------------------------------------------------------------------===//
// lowp.cast
//===----------------------------------------------------------------------===//

def Lowp_CastOp : Lowp_Op<"cast", [Pure,
    Lowp_SameShape<"input", "result">]> {
  let summary = "float-to-float conversion with explicit rounding and saturation";
  let description = [{
    Converts every element of a float scalar, vector or ranked tensor to
    another float type. Narrowing rounds as `rounding` says:

    - `nearest_even` (default): IEEE round-to-nearest, ties to even;
    - `toward_zero`: truncation of the magnitude;
    - `stochastic`: rounds up with probability equal to the discarded
      fraction; takes an `i32` (or vector/tensor of i32) `seed` operand.

    With `saturate`, values beyond the destination's range, infinities
    included, clamp to its largest finite magnitude (keeping the sign)
    instead of becoming inf (or NaN in formats without inf): the semantics
    FP8 training needs and PTX's `.satfinite` implements. NaN stays NaN.
    Widening casts are exact and ignore both.

    ```mlir
    %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    %1 = lowp.cast %x toward_zero : f32 to f16
    %2 = lowp.cast %x saturate : vector<8xf32> to vector<8xf8E4M3FN>
    %3 = lowp.cast %x stochastic seed(%s : i32) : tensor<4xf32> to tensor<4xbf16>
    ```
  }];
  let arguments = (ins
    Lowp_FloatLike:$input,
    Optional<AnyTypeOf<[I32, VectorOfAnyRankOf<[I32]>, RankedTensorOf<[I32]>]>>:$seed,
    DefaultValuedAttr<Lowp_RoundingMode,
                      "::mlir::lowp::RoundingMode::NearestEven">:$rounding,
    UnitAttr:$saturate);
  let results = (outs Lowp_FloatLike:$result);
  let assemblyFormat = [{
    $input ($rounding^)? (`seed` `(` $seed^ `:` type($seed) `)`)?
    (`saturate` $saturate^)? attr-dict `:` type($input) `to` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input), [{
      build($_builder, $_state, resultType, input, /*seed=*/::mlir::Value(),
            ::mlir::lowp::RoundingMode::NearestEven, /*saturate=*/false);
    }]>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The element types of the input and of the result.
    ::mlir::FloatType getInputElementType();
    ::mlir::FloatType getResultElementType();
    /// True when every input value is exactly representable in the result.
    bool isWidening();
  }];
}

//===----------------------------------------------------------------------===//
// lowp.island / lowp.yield
//===----------------------------------------------------------------------===//

def Lowp_IslandOp : Lowp_Op<"island", [
    IsolatedFromAbove,
    SingleBlockImplicitTerminator<"::mlir::lowp::YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a region computed at a stated precision (an FP32 island)";
  let description = [{
    Runs its body at `precision` (f32 unless stated) whatever the precision of
    the surrounding code. Each operand is converted on entry to the island
    precision version of its type (its float element type replaced by
    `precision`; non-float operands pass unchanged) and becomes the matching
    block argument; each yielded value is converted on exit to the matching
    result type. The body is isolated from above: everything it reads comes
    in as an operand, so the island is a self-contained unit that precision
    inference never demotes.

    ```mlir
    %y = lowp.island f32 (%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> {
    ^bb0(%a: tensor<4x8xf32>):
      ...
      lowp.yield %r : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins TypeAttrOf<AnyFloat>:$precision,
                       Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $precision ` ` `(` $inputs `)` `:` functional-type($inputs, $results)
    attr-dict-with-keyword $body
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs,
                   CArg<"::mlir::FloatType", "{}">:$precision)>
  ];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::FloatType getPrecisionType() {
      return ::llvm::cast<::mlir::FloatType>(getPrecision());
    }
    /// `type` with its float element type replaced by this island's precision.
    ::mlir::Type getIslandType(::mlir::Type type);
    ::mlir::lowp::YieldOp getYield();
  }];
}

def Lowp_YieldOp : Lowp_Op<"yield", [Pure, ReturnLike, Terminator,
                                     HasParent<"IslandOp">]> {
  let summary = "terminates an island, yielding its results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Loss scaling
//===----------------------------------------------------------------------===//

class Lowp_ScalingOp<string mnemonic> : Lowp_Op<mnemonic, [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let arguments = (ins Lowp_ScaleType:$scale,
                       Variadic<Lowp_FloatTensorLike>:$inputs);
  let results = (outs Variadic<Lowp_FloatTensorLike>:$results);
  let assemblyFormat = [{
    $scale `,` $inputs attr-dict `:` type($scale) `,` type($inputs)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Lowp_ScaleOp : Lowp_ScalingOp<"scale"> {
  let summary = "multiplies tensors by a loss scale";
  let description = [{
    Multiplies every element of every input by the scalar `scale`, computed
    in the wider of the element type and the scale type and rounded back to
    the element type. Results have the inputs' types. A constant scale of 1
    folds away.

    ```mlir
    %l = lowp.scale %s, %loss : f32, tensor<f16>
    ```
  }];
}

def Lowp_UnscaleOp : Lowp_ScalingOp<"unscale"> {
  let summary = "divides tensors by a loss scale";
  let description = [{
    Multiplies every element of every input by `1 / scale`, with the
    reciprocal computed once in the scale's type (exact for the power-of-two
    scales dynamic loss scaling produces) and the product in the wider of the
    element type and the scale type. Gradients unscale into f32 master
    gradients by casting first. A constant scale of 1 folds away.

    ```mlir
    %g0, %g1 = lowp.unscale %s, %a, %b : f32, tensor<4xf32>, tensor<8xf32>
    ```
  }];
}

def Lowp_AllFiniteOp : Lowp_Op<"all_finite", [Pure]> {
  let summary = "true when no element of any input is inf or NaN";
  let description = [{
    One `i1` over any number of float scalars, vectors or tensors.

    ```mlir
    %ok = lowp.all_finite %g0, %g1 : tensor<4xf32>, tensor<8xf16>
    ```
  }];
  let arguments = (ins Variadic<Lowp_FloatTensorLike>:$inputs);
  let results = (outs I1:$finite);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Lowp_UpdateScaleOp : Lowp_Op<"update_scale", [Pure,
    AllTypesMatch<["scale", "newScale"]>,
    AllTypesMatch<["goodSteps", "newGoodSteps"]>]> {
  let summary = "the dynamic loss-scale update rule";
  let description = [{
    Given the current scale, the number of consecutive finite steps and
    whether this step's gradients were all finite, returns the next scale and
    counter, exactly as torch.amp.GradScaler does:

    - not finite: `scale * backoff_factor`, counter reset to 0;
    - finite: counter + 1; when it reaches `growth_interval`, the scale grows
      to `scale * growth_factor` (only if that is finite) and the counter
      resets to 0.

    The new scale is then clamped to `[min_scale, max_scale]`. Defaults are
    GradScaler's: growth 2.0, backoff 0.5, interval 2000.

    ```mlir
    %s1, %n1 = lowp.update_scale %s0, %n0, %ok
        {growth_interval = 100 : i64, min_scale = 1.0 : f64} : f32, i64
    ```
  }];
  let arguments = (ins Lowp_ScaleType:$scale, AnySignlessInteger:$goodSteps,
                       I1:$finite,
                       DefaultValuedAttr<F64Attr, "2.0">:$growth_factor,
                       DefaultValuedAttr<F64Attr, "0.5">:$backoff_factor,
                       DefaultValuedAttr<I64Attr, "2000">:$growth_interval,
                       OptionalAttr<F64Attr>:$min_scale,
                       OptionalAttr<F64Attr>:$max_scale);
  let results = (outs Lowp_ScaleType:$newScale,
                      AnySignlessInteger:$newGoodSteps);
  let assemblyFormat = [{
    $scale `,` $goodSteps `,` $finite attr-dict `:` type($scale) `,` type($goodSteps)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// FP8 scaling
//===----------------------------------------------------------------------===//

def Lowp_AmaxOp : Lowp_Op<"amax", [Pure]> {
  let summary = "largest magnitude of a tensor";
  let description = [{
    `max |x|` over every element, as an f32 scalar. NaN elements propagate.
    An empty tensor gives 0.

    ```mlir
    %m = lowp.amax %x : tensor<64x64xbf16>
    ```
  }];
  let arguments = (ins Lowp_FloatTensorLike:$input);
  let results = (outs F32:$amax);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Lowp_QuantizeOp : Lowp_Op<"quantize", [Pure,
    Lowp_SameShape<"input", "result">]> {
  let summary = "scale and saturating cast to an 8-bit float";
  let description = [{
    `result = saturate_cast(x * scale)` to the 8-bit float element type of the
    result, rounding to nearest even; values beyond the format's largest
    finite magnitude clamp to it. `scale` is a positive f32 scalar, typically
    `fp8_max / amax / 2^margin`.

    ```mlir
    %q = lowp.quantize %x, %s : tensor<16xf32>, f32 to tensor<16xf8E4M3FN>
    ```
  }];
  let arguments = (ins Lowp_FloatLike:$input, F32:$scale);
  let results = (outs Lowp_FloatLike:$result);
  let assemblyFormat = [{
    $input `,` $scale attr-dict `:` type($input) `,` type($scale) `to` type($result)
  }];
  let hasVerifier = 1;
}

def Lowp_DequantizeOp : Lowp_Op<"dequantize", [Pure,
    Lowp_SameShape<"input", "result">]> {
  let summary = "widen an 8-bit float and undo its scale";
  let description = [{
    `result = extend(q) * (1 / scale)`, the inverse of `lowp.quantize` with
    the same `scale`. The result element type must be wider than 8 bits.

    ```mlir
    %x = lowp.dequantize %q, %s : tensor<16xf8E4M3FN>, f32 to tensor<16xf32>
    ```
  }];
  let arguments = (ins Lowp_FloatLike:$input, F32:$scale);
  let results = (outs Lowp_FloatLike:$result);
  let assemblyFormat = [{
    $input `,` $scale attr-dict `:` type($input) `,` type($scale) `to` type($result)
  }];
  let hasVerifier = 1;
}

def Lowp_ComputeScaleOp : Lowp_Op<"compute_scale", [Pure]> {
  let summary = "per-tensor FP8 scale from an amax or an amax history";
  let description = [{
    The scale that maps a tensor's largest magnitude onto the largest finite
    value of the 8-bit float `format`, less `margin` binades, as Transformer
    Engine computes it: `scale = max_finite(format) / amax / 2^margin`.

    `amax` is an f32 (current scaling: the amax of this step) or a 1-D f32
    tensor holding an amax history, most recent first (delayed scaling); the
    history is reduced with `max` (default) or `most_recent` (element 0).
    An amax that is zero, NaN or infinite gives the scale 1; a scale beyond
    f32's range (a tiny amax) is clamped to f32's largest power of two.

    ```mlir
    %s = lowp.compute_scale %amax for f8E4M3FN : f32
    %t = lowp.compute_scale %history for f8E5M2 margin = 1 most_recent
        : tensor<1024xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[F32, 1DTensorOf<[F32]>]>:$amax,
                       TypeAttrOf<AnyFloat>:$format,
                       DefaultValuedAttr<I64Attr, "0">:$margin,
                       DefaultValuedAttr<Lowp_AmaxCompute,
                           "::mlir::lowp::AmaxCompute::Max">:$algo);
  let results = (outs F32:$scale);
  let assemblyFormat = [{
    $amax `for` $format (`margin` `=` $margin^)? ($algo^)? attr-dict
    `:` type($amax)
  }];
  let hasVerifier = 1;
}

def Lowp_PushAmaxOp : Lowp_Op<"push_amax", [Pure,
    AllTypesMatch<["history", "result"]>]> {
  let summary = "records this step's amax in a delayed-scaling history";
  let description = [{
    Returns the history shifted by one, oldest entry dropped, with `amax` as
    the new most recent entry (element 0). The history is explicit function
    state: an argument of the step function and one of its results.

    ```mlir
    %h1 = lowp.push_amax %h0, %amax : tensor<1024xf32>
    ```
  }];
  let arguments = (ins 1DTensorOf<[F32]>:$history, F32:$amax);
  let results = (outs 1DTensorOf<[F32]>:$result);
  let assemblyFormat = "$history `,` $amax attr-dict `:` type($history)";
  let hasVerifier = 1;
}

#endif // LOWP_IR_LOWPOPS_TD
