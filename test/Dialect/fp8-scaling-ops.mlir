// RUN: fp-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @roundtrip
// CHECK: lowp.compute_scale %{{.*}} for f8E4M3FN : f32
// CHECK: lowp.compute_scale %{{.*}} for f8E5M2FNUZ margin = 2 most_recent : tensor<8xf32>
// CHECK: lowp.push_amax %{{.*}}, %{{.*}} : tensor<8xf32>
// CHECK: lowp.quantize {{.*}} {lowp.role = #lowp.role<weight>}
func.func @roundtrip(%a: f32, %h: tensor<8xf32>, %x: tensor<4xf32>) -> (f32, f32, tensor<8xf32>, tensor<4xf8E4M3FN>) {
  %0 = lowp.compute_scale %a for f8E4M3FN margin = 0 max : f32
  %1 = lowp.compute_scale %h for f8E5M2FNUZ margin = 2 most_recent : tensor<8xf32>
  %2 = lowp.push_amax %h, %a : tensor<8xf32>
  %3 = lowp.quantize %x, %0 {lowp.role = #lowp.role<weight>} : tensor<4xf32>, f32 to tensor<4xf8E4M3FN>
  return %0, %1, %2, %3 : f32, f32, tensor<8xf32>, tensor<4xf8E4M3FN>
}

// -----

func.func @not_fp8(%a: f32) -> f32 {
  // expected-error @+1 {{format must be an 8-bit float, got 'bf16'}}
  %0 = lowp.compute_scale %a for bf16 : f32
  return %0 : f32
}

// -----

func.func @empty_history(%h: tensor<0xf32>) -> f32 {
  // expected-error @+1 {{amax history must not be empty}}
  %0 = lowp.compute_scale %h for f8E5M2 : tensor<0xf32>
  return %0 : f32
}

// -----

func.func @role_per_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'lowp.role' must be a #lowp.role attribute or an array of one per result}}
  %0 = arith.negf %x {lowp.role = [#lowp.role<weight>, #lowp.role<gradient>]} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
