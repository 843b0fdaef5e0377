// RUN: fp-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @cast_shape_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'input' and 'result' have the same shape}}
  %0 = lowp.cast %x : tensor<4xf32> to tensor<8xbf16>
  return
}

// -----

func.func @cast_scalar_to_tensor(%x: f32) {
  // expected-error @+1 {{'input' and 'result' have the same shape}}
  %0 = lowp.cast %x : f32 to tensor<1xbf16>
  return
}

// -----

func.func @cast_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand #0 must be float, or vector or ranked tensor of floats}}
  %0 = lowp.cast %x : tensor<4xi32> to tensor<4xbf16>
  return
}

// -----

func.func @cast_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{operand #0 must be float, or vector or ranked tensor of floats}}
  %0 = lowp.cast %x : tensor<*xf32> to tensor<*xbf16>
  return
}

// -----

func.func @stochastic_without_seed(%x: f32) {
  // expected-error @+1 {{stochastic rounding requires a 'seed' operand}}
  %0 = lowp.cast %x stochastic : f32 to bf16
  return
}

// -----

func.func @seed_without_stochastic(%x: f32, %s: i32) {
  // expected-error @+1 {{a 'seed' operand is only meaningful with stochastic rounding}}
  %0 = lowp.cast %x seed(%s : i32) : f32 to bf16
  return
}

// -----

func.func @seed_shape(%x: tensor<4xf32>, %s: tensor<8xi32>) {
  // expected-error @+1 {{seed must be a scalar or have the input's shape}}
  %0 = lowp.cast %x stochastic seed(%s : tensor<8xi32>) : tensor<4xf32> to tensor<4xbf16>
  return
}

// -----

func.func @seed_type(%x: f32, %s: i64) {
  // expected-error @+1 {{operand #1 must be}}
  %0 = lowp.cast %x stochastic seed(%s : i64) : f32 to bf16
  return
}

// -----

func.func @bad_rounding(%x: f32) {
  // expected-error @+1 {{expected ':'}}
  %0 = lowp.cast %x upward : f32 to bf16
  return
}

// -----

func.func @island_arg_type(%x: tensor<4xbf16>) {
  // expected-error @+1 {{body argument #0 has type 'tensor<4xbf16>' but operand type 'tensor<4xbf16>' at 'f32' is 'tensor<4xf32>'}}
  %0 = lowp.island f32 (%x) : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xbf16>):
    lowp.yield %a : tensor<4xbf16>
  }
  return
}

// -----

func.func @island_arg_count(%x: tensor<4xbf16>) {
  // expected-error @+1 {{has 1 operands but its body takes 2 arguments}}
  %0 = lowp.island f32 (%x) : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    lowp.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @island_yield_type(%x: tensor<4xbf16>) {
  %0 = lowp.island f32 (%x) : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xf32>):
    %t = arith.truncf %a : tensor<4xf32> to tensor<4xbf16>
    // expected-error @+1 {{value #0 has type 'tensor<4xbf16>' but result type 'tensor<4xbf16>' at 'f32' is 'tensor<4xf32>'}}
    lowp.yield %t : tensor<4xbf16>
  }
  return
}

// -----

func.func @island_yield_count(%x: tensor<4xbf16>) {
  %0 = lowp.island f32 (%x) : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{yields 2 values but the island has 1 results}}
    lowp.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @island_not_isolated(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = lowp.island f32 () : () -> tensor<4xf32> {
    // expected-error @+1 {{using value defined outside the region}}
    lowp.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @island_precision_not_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{attribute 'precision' failed to satisfy constraint: type attribute of floating-point}}
  %0 = lowp.island i32 (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    lowp.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside_island(%x: f32) {
  // expected-error @+1 {{expects parent op 'lowp.island'}}
  lowp.yield %x : f32
}

// -----

func.func @scale_no_inputs(%s: f32) {
  // expected-error @+1 {{requires at least one input}}
  "lowp.scale"(%s) : (f32) -> ()
  return
}

// -----

func.func @scale_negative(%x: tensor<4xf16>) {
  %s = arith.constant -2.0 : f32
  // expected-error @+1 {{requires a positive finite scale, got -2}}
  %0 = lowp.scale %s, %x : f32, tensor<4xf16>
  return
}

// -----

func.func @unscale_zero(%x: tensor<4xf32>) {
  %s = arith.constant 0.0 : f32
  // expected-error @+1 {{requires a positive finite scale, got 0}}
  %0 = lowp.unscale %s, %x : f32, tensor<4xf32>
  return
}

// -----

func.func @unscale_result_types(%s: f32, %x: tensor<4xf32>) {
  // expected-error @+2 {{'lowp.unscale' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'lowp.unscale' op failed to infer returned types}}
  %0 = "lowp.unscale"(%s, %x) : (f32, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @scale_integer(%s: f32, %x: tensor<4xi32>) {
  // expected-error @+1 {{operand #1 must be variadic of float, or vector or tensor of floats}}
  %0 = lowp.scale %s, %x : f32, tensor<4xi32>
  return
}

// -----

func.func @all_finite_empty() {
  // expected-error @+1 {{requires at least one input}}
  %0 = "lowp.all_finite"() : () -> i1
  return
}

// -----

func.func @update_growth(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{growth_factor must be a finite number > 1, got 1}}
  %0:2 = lowp.update_scale %s, %n, %ok {growth_factor = 1.0 : f64} : f32, i64
  return
}

// -----

func.func @update_backoff(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{backoff_factor must be in (0, 1), got 1.5}}
  %0:2 = lowp.update_scale %s, %n, %ok {backoff_factor = 1.5 : f64} : f32, i64
  return
}

// -----

func.func @update_interval(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{growth_interval must be at least 1, got 0}}
  %0:2 = lowp.update_scale %s, %n, %ok {growth_interval = 0 : i64} : f32, i64
  return
}

// -----

func.func @update_min_scale(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{min_scale must be positive, got -1}}
  %0:2 = lowp.update_scale %s, %n, %ok {min_scale = -1.0 : f64} : f32, i64
  return
}

// -----

func.func @update_max_scale(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{max_scale must be positive, got 0}}
  %0:2 = lowp.update_scale %s, %n, %ok {max_scale = 0.0 : f64} : f32, i64
  return
}

// -----

func.func @update_min_above_max(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{min_scale (1024) exceeds max_scale (2)}}
  %0:2 = lowp.update_scale %s, %n, %ok {min_scale = 1024.0 : f64, max_scale = 2.0 : f64} : f32, i64
  return
}

// -----

func.func @update_result_types(%s: f32, %n: i64, %ok: i1) {
  // expected-error @+1 {{all of {scale, newScale} have same type}}
  %0:2 = "lowp.update_scale"(%s, %n, %ok) : (f32, i64, i1) -> (f64, i64)
  return
}

// -----

func.func @update_negative_scale(%n: i64, %ok: i1) {
  %s = arith.constant -1.0 : f32
  // expected-error @+1 {{requires a positive finite scale, got -1}}
  %0:2 = lowp.update_scale %s, %n, %ok : f32, i64
  return
}

// -----

func.func @quantize_not_fp8(%x: tensor<4xf32>, %s: f32) {
  // expected-error @+1 {{result element type must be an 8-bit float, got 'bf16'}}
  %0 = lowp.quantize %x, %s : tensor<4xf32>, f32 to tensor<4xbf16>
  return
}

// -----

func.func @quantize_fp8_input(%x: tensor<4xf8E5M2>, %s: f32) {
  // expected-error @+1 {{input is already an 8-bit float ('f8E5M2')}}
  %0 = lowp.quantize %x, %s : tensor<4xf8E5M2>, f32 to tensor<4xf8E4M3FN>
  return
}

// -----

func.func @quantize_shape(%x: tensor<4xf32>, %s: f32) {
  // expected-error @+1 {{'input' and 'result' have the same shape}}
  %0 = lowp.quantize %x, %s : tensor<4xf32>, f32 to tensor<2x2xf8E4M3FN>
  return
}

// -----

func.func @quantize_negative_scale(%x: tensor<4xf32>) {
  %s = arith.constant -0.5 : f32
  // expected-error @+1 {{requires a positive finite scale, got -0.5}}
  %0 = lowp.quantize %x, %s : tensor<4xf32>, f32 to tensor<4xf8E4M3FN>
  return
}

// -----

func.func @quantize_inf_scale(%x: tensor<4xf32>) {
  %s = arith.constant 0x7F800000 : f32
  // expected-error @+1 {{requires a positive finite scale, got inf}}
  %0 = lowp.quantize %x, %s : tensor<4xf32>, f32 to tensor<4xf8E4M3FN>
  return
}

// -----

func.func @quantize_six_bit(%x: tensor<4xf32>, %s: f32) {
  // expected-error @+1 {{result element type must be an 8-bit float, got 'f6E3M2FN'}}
  %0 = lowp.quantize %x, %s : tensor<4xf32>, f32 to tensor<4xf6E3M2FN>
  return
}

// -----

func.func @dequantize_not_fp8(%x: tensor<4xf16>, %s: f32) {
  // expected-error @+1 {{input element type must be an 8-bit float, got 'f16'}}
  %0 = lowp.dequantize %x, %s : tensor<4xf16>, f32 to tensor<4xf32>
  return
}

// -----

func.func @dequantize_to_fp8(%x: tensor<4xf8E4M3FN>, %s: f32) {
  // expected-error @+1 {{result element type must be wider than 8 bits, got 'f8E5M2'}}
  %0 = lowp.dequantize %x, %s : tensor<4xf8E4M3FN>, f32 to tensor<4xf8E5M2>
  return
}

// -----

func.func @dequantize_zero_scale(%x: tensor<4xf8E4M3FN>) {
  %s = arith.constant 0.0 : f32
  // expected-error @+1 {{requires a positive finite scale, got 0}}
  %0 = lowp.dequantize %x, %s : tensor<4xf8E4M3FN>, f32 to tensor<4xf32>
  return
}

// -----

func.func @amax_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 must be 32-bit float}}
  %0 = "lowp.amax"(%x) : (tensor<4xf32>) -> f16
  return
}

// -----

// expected-error @+1 {{unknown target 'sm_999'; known targets: sm_60, sm_70}}
func.func @unknown_target() attributes {t = #lowp.target<"sm_999">} {
  return
}

// -----

// expected-error @+1 {{accumulate type 'bf16' is narrower than compute type 'f32'}}
func.func @policy_accumulate() attributes {p = #lowp.policy<compute = f32, accumulate = bf16, storage = f32, loss_scale = none>} {
  return
}

// -----

// expected-error @+1 {{storage type 'f8E4M3FN' is narrower than compute type 'f16'}}
func.func @policy_storage() attributes {p = #lowp.policy<compute = f16, accumulate = f32, storage = f8E4M3FN, loss_scale = none>} {
  return
}

// -----

// expected-error @+2 {{expected one of [none, static, dynamic] for how a training step scales its loss, got: sometimes}}
// expected-error @+1 {{failed to parse Lowp_PolicyAttr parameter 'lossScale'}}
func.func @policy_mode() attributes {p = #lowp.policy<compute = f16, accumulate = f32, storage = f32, loss_scale = sometimes>} {
  return
}

// -----

// expected-error @+1 {{amax must be finite and non-negative}}
func.func @stats_negative_amax() attributes {s = #lowp.stats<amax = -1.0, min = 0.0>} {
  return
}

// -----

// expected-error @+1 {{min must be finite and non-negative}}
func.func @stats_negative_min() attributes {s = #lowp.stats<amax = 1.0, min = -1.0>} {
  return
}

// -----

// expected-error @+1 {{min (2) exceeds amax (1)}}
func.func @stats_min_above_amax() attributes {s = #lowp.stats<amax = 1.0, min = 2.0>} {
  return
}

// -----

func.func @precision_not_float(%x: f32) {
  // expected-error @+1 {{'lowp.precision' must name a float type, got i32}}
  %0 = math.exp %x {lowp.precision = i32} : f32
  return
}

// -----

func.func @target_wrong_kind(%x: f32) {
  // expected-error @+1 {{'lowp.target' must be a #lowp.target attribute}}
  %0 = math.exp %x {lowp.target = "sm_90"} : f32
  return
}

// -----

// expected-error @+1 {{'lowp.policy' must be a #lowp.policy attribute}}
module attributes {lowp.policy = 1 : i32} {
}

// -----

func.func @stats_per_result() {
  // expected-error @+1 {{'lowp.stats' on an op with 2 results needs an array of one #lowp.stats per result}}
  %0:2 = "test.two"() {lowp.stats = #lowp.stats<amax = 1.0, min = 0.0>} : () -> (f32, f32)
  return
}

// -----

func.func @stats_count() {
  // expected-error @+1 {{'lowp.stats' has 1 entries for 2 results}}
  %0:2 = "test.two"() {lowp.stats = [#lowp.stats<amax = 1.0, min = 0.0>]} : () -> (f32, f32)
  return
}

// -----

func.func @stats_kind() {
  // expected-error @+1 {{'lowp.stats' must be a #lowp.stats attribute or an array of them}}
  %0 = "test.one"() {lowp.stats = 3.0 : f32} : () -> f32
  return
}

// -----

// expected-error @+1 {{argument #0 of region #0: 'lowp.stats' must be a #lowp.stats attribute or an array of them}}
func.func @stats_on_argument(%x: f32 {lowp.stats = 1}) {
  return
}

// -----

// expected-error @+1 {{result #0 of region #0: 'lowp.precision' must name a float type}}
func.func @precision_on_result(%x: f32) -> (f32 {lowp.precision = "f32"}) {
  return %x : f32
}

// -----

func.func @unknown_attribute(%x: f32) {
  // expected-error @+1 {{unknown lowp attribute 'lowp.colour'}}
  %0 = math.exp %x {lowp.colour = "red"} : f32
  return
}

// -----

// expected-error @+1 {{histogram and lowest_binade go together}}
func.func @stats_histogram_alone() attributes {s = #lowp.stats<amax = 1.0, min = 0.0, histogram = [1, 2]>} {
  return
}

// -----

// expected-error @+1 {{histogram binades [126, 128] lie outside f32's [-127, 127]}}
func.func @stats_histogram_range() attributes {s = #lowp.stats<amax = 1.0, min = 0.0, histogram = [1, 2, 3], lowest_binade = 126>} {
  return
}

// -----

// expected-error @+1 {{histogram counts must be non-negative}}
func.func @stats_histogram_negative() attributes {s = #lowp.stats<amax = 1.0, min = 0.0, histogram = [1, -2], lowest_binade = 0>} {
  return
}

// -----

// The channel dimension of an FP8 weight argument (policy=fp8-weights) is
// one of the argument's dimensions.
// expected-error @+1 {{argument #0 of region #0: 'lowp.fp8_axis' = 2 is not a dimension of 'tensor<4x8xf8E4M3FN>'}}
func.func @fp8_axis_out_of_rank(%w: tensor<4x8xf8E4M3FN> {lowp.fp8_axis = 2 : i64, lowp.fp8_scale = 1 : i64},
                                %s: tensor<8xf32> {lowp.fp8_scale_of = 0 : i64}) {
  return
}

// -----

// expected-error @+1 {{'lowp.fp8_axis' must be a dimension (a non-negative integer)}}
func.func @fp8_axis_negative(%w: tensor<4x8xf8E4M3FN> {lowp.fp8_axis = -1 : i64}) {
  return
}
