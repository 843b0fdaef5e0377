// With policy=fp8, a function called in the module keeps FP8 weights out
// of its signature (its callers would have to quantize them): its weight
// arrives in bf16 (precision inference's demotion) and is quantized inside,
// with a remark saying why.
// RUN: fp-opt %s --verify-diagnostics \
// RUN:   --lowp-auto-mixed-precision="target=sm_90 policy=fp8 demote-weights=arguments" \
// RUN: | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func private @layer(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x4xbf16>)
// CHECK: lowp.quantize
// CHECK-LABEL: func.func @main(
// CHECK: lowp.cast %{{.*}} : tensor<8x4xf32> to tensor<8x4xbf16>
func.func private @layer(%x: tensor<4x8xf32>,
    // expected-remark-re @below {{{{^}}argument #1 of @layer stays tensor<8x4xbf16>: @layer is called in the module}}
    %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %xx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.matmul ins(%xx, %w : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %r = func.call @layer(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
