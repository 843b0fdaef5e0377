// RUN: fp-opt %s -allow-unregistered-dialect | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: fp-opt %s -allow-unregistered-dialect | fp-opt -allow-unregistered-dialect | FileCheck %s
// Generic form round trip.
// RUN: fp-opt %s -allow-unregistered-dialect -mlir-print-op-generic | fp-opt -allow-unregistered-dialect | FileCheck %s

// CHECK: module attributes {lowp.policy = #lowp.policy<compute = bf16, accumulate = f32, storage = f32, loss_scale = none>, lowp.target = #lowp.target<"sm_90">}
module attributes {
  lowp.target = #lowp.target<"sm_90">,
  lowp.policy = #lowp.policy<compute = bf16, accumulate = f32, storage = f32, loss_scale = none>
} {

// CHECK-LABEL: func @casts
func.func @casts(%x: tensor<4xf32>, %v: vector<8xf32>, %s: f32, %seed: i32,
                 %seeds: tensor<4xi32>, %d: tensor<?x4xf16>) {
  // CHECK: lowp.cast %{{.*}} : tensor<4xf32> to tensor<4xbf16>
  %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
  // CHECK: lowp.cast %{{.*}} toward_zero : f32 to f16
  %1 = lowp.cast %s toward_zero : f32 to f16
  // CHECK: lowp.cast %{{.*}} saturate : vector<8xf32> to vector<8xf8E4M3FN>
  %2 = lowp.cast %v saturate : vector<8xf32> to vector<8xf8E4M3FN>
  // CHECK: lowp.cast %{{.*}} stochastic seed(%{{.*}} : i32) : tensor<4xf32> to tensor<4xbf16>
  %3 = lowp.cast %x stochastic seed(%seed : i32) : tensor<4xf32> to tensor<4xbf16>
  // CHECK: lowp.cast %{{.*}} stochastic seed(%{{.*}} : tensor<4xi32>) saturate : tensor<4xf32> to tensor<4xbf16>
  %4 = lowp.cast %x stochastic seed(%seeds : tensor<4xi32>) saturate : tensor<4xf32> to tensor<4xbf16>
  // CHECK: lowp.cast %{{.*}} : tensor<?x4xf16> to tensor<?x4xf32>
  %5 = lowp.cast %d : tensor<?x4xf16> to tensor<?x4xf32>
  // Nearest-even is the default and is not printed.
  // CHECK: lowp.cast %{{.*}} : f32 to bf16
  %6 = lowp.cast %s nearest_even : f32 to bf16
  return
}

// CHECK-LABEL: func @island
func.func @island(%x: tensor<4x8xbf16>, %n: index) -> (tensor<4x8xbf16>, index) {
  // CHECK: %{{.*}}:2 = lowp.island f32 (%{{.*}}, %{{.*}}) : (tensor<4x8xbf16>, index) -> (tensor<4x8xbf16>, index) {
  // CHECK: ^bb0(%{{.*}}: tensor<4x8xf32>, %{{.*}}: index):
  // CHECK: lowp.yield %{{.*}}, %{{.*}} : tensor<4x8xf32>, index
  %0:2 = lowp.island f32 (%x, %n) : (tensor<4x8xbf16>, index) -> (tensor<4x8xbf16>, index) {
  ^bb0(%a: tensor<4x8xf32>, %i: index):
    %e = math.exp %a : tensor<4x8xf32>
    lowp.yield %e, %i : tensor<4x8xf32>, index
  }
  // Islands at other precisions and with attributes.
  // CHECK: lowp.island f64 (%{{.*}}) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> attributes {reason = "softmax"}
  %1 = lowp.island f64 (%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> attributes {reason = "softmax"} {
  ^bb0(%a: tensor<4x8xf64>):
    lowp.yield %a : tensor<4x8xf64>
  }
  return %0#0, %0#1 : tensor<4x8xbf16>, index
}

// CHECK-LABEL: func @loss_scaling
func.func @loss_scaling(%scale: f32, %steps: i64, %loss: tensor<f16>,
                        %g0: tensor<4xf32>, %g1: tensor<8xf16>) {
  // CHECK: lowp.scale %{{.*}}, %{{.*}} : f32, tensor<f16>
  %0 = lowp.scale %scale, %loss : f32, tensor<f16>
  // CHECK: %{{.*}}:2 = lowp.unscale %{{.*}}, %{{.*}}, %{{.*}} : f32, tensor<4xf32>, tensor<8xf16>
  %1:2 = lowp.unscale %scale, %g0, %g1 : f32, tensor<4xf32>, tensor<8xf16>
  // CHECK: lowp.all_finite %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<8xf16>
  %ok = lowp.all_finite %1#0, %1#1 : tensor<4xf32>, tensor<8xf16>
  // CHECK: lowp.update_scale %{{.*}}, %{{.*}}, %{{.*}} : f32, i64
  %2:2 = lowp.update_scale %scale, %steps, %ok : f32, i64
  // CHECK: lowp.update_scale %{{.*}}, %{{.*}}, %{{.*}} {growth_interval = 100 : i64, max_scale = {{.*}} : f64, min_scale = 1.000000e+00 : f64} : f32, i64
  %3:2 = lowp.update_scale %scale, %steps, %ok {growth_interval = 100 : i64, min_scale = 1.0 : f64, max_scale = 16777216.0 : f64} : f32, i64
  return
}

// CHECK-LABEL: func @fp8_scaling
func.func @fp8_scaling(%x: tensor<16x16xf32>, %s: f32) -> tensor<16x16xbf16> {
  // CHECK: lowp.amax %{{.*}} : tensor<16x16xf32>
  %m = lowp.amax %x : tensor<16x16xf32>
  // CHECK: lowp.quantize %{{.*}}, %{{.*}} : tensor<16x16xf32>, f32 to tensor<16x16xf8E4M3FN>
  %q = lowp.quantize %x, %s : tensor<16x16xf32>, f32 to tensor<16x16xf8E4M3FN>
  // CHECK: lowp.quantize %{{.*}}, %{{.*}} : tensor<16x16xf32>, f32 to tensor<16x16xf8E5M2FNUZ>
  %q2 = lowp.quantize %x, %s : tensor<16x16xf32>, f32 to tensor<16x16xf8E5M2FNUZ>
  // CHECK: lowp.dequantize %{{.*}}, %{{.*}} : tensor<16x16xf8E4M3FN>, f32 to tensor<16x16xbf16>
  %d = lowp.dequantize %q, %s : tensor<16x16xf8E4M3FN>, f32 to tensor<16x16xbf16>
  return %d : tensor<16x16xbf16>
}

// CHECK-LABEL: func @attributes
// CHECK-SAME: lowp.stats = #lowp.stats<amax = 3.500000e+02, min = 1.000000e-03>
func.func @attributes(%x: tensor<4xf32> {lowp.stats = #lowp.stats<amax = 350.0, min = 0.001>}) -> tensor<4xf32> {
  // CHECK: lowp.precision = f32
  %0 = math.exp %x {lowp.precision = f32} : tensor<4xf32>
  // CHECK: lowp.stats = #lowp.stats<amax = 1.000000e+00, min = 9.9999999999999995E-7, samples = 4096>
  %1 = math.tanh %0 {lowp.stats = #lowp.stats<amax = 1.0, min = 1.0e-6, samples = 4096>} : tensor<4xf32>
  // CHECK: lowp.stats = #lowp.stats<amax = 1.000000e+00, min = 5.000000e-01, samples = 7, histogram = [3, 0, 4], lowest_binade = -3>
  %h = math.tanh %1 {lowp.stats = #lowp.stats<amax = 1.0, min = 0.5, samples = 7, histogram = [3, 0, 4], lowest_binade = -3>} : tensor<4xf32>
  // CHECK: lowp.stats = [#lowp.stats<amax = 2.000000e+00, min = 0.000000e+00>, #lowp.stats<amax = 1.000000e+00, min = 5.000000e-01>]
  %2:2 = "test.two"() {lowp.stats = [#lowp.stats<amax = 2.0, min = 0.0>, #lowp.stats<amax = 1.0, min = 0.5>]} : () -> (f32, f32)
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: func @policies
func.func @policies() attributes {
    // CHECK: #lowp.policy<compute = f16, accumulate = f32, storage = f32, loss_scale = dynamic>
    p1 = #lowp.policy<compute = f16, accumulate = f32, storage = f32, loss_scale = dynamic>,
    // CHECK: #lowp.policy<compute = f8E4M3FN, accumulate = f32, storage = bf16, loss_scale = static>
    p2 = #lowp.policy<compute = f8E4M3FN, accumulate = f32, storage = bf16, loss_scale = static>,
    // CHECK: #lowp.target<"gfx942">
    t1 = #lowp.target<"gfx942">,
    // CHECK: #lowp.target<"tpu-v6e">
    t2 = #lowp.target<"tpu-v6e">} {
  return
}


// An FP8 weight argument with one scale per index of its dimension 0
// (policy=fp8-weights), and that scale argument.
// CHECK-LABEL: func.func @fp8_channel_scaled_weight(
// CHECK-SAME:    tensor<4x8xf8E4M3FN> {lowp.fp8_axis = 0 : i64, lowp.fp8_scale = 1 : i64}
// CHECK-SAME:    tensor<4xf32> {lowp.fp8_scale_of = 0 : i64}
func.func @fp8_channel_scaled_weight(%w: tensor<4x8xf8E4M3FN> {lowp.fp8_axis = 0 : i64, lowp.fp8_scale = 1 : i64},
                                     %s: tensor<4xf32> {lowp.fp8_scale_of = 0 : i64}) {
  return
}

}
