// Diagnostics the decision pipeline gives on front-end exports: located,
// never a crash, the module left valid.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -verify-each --lowp-auto-mixed-precision="target=sm_70 policy=f16" | FileCheck %s

// HuggingFace's additive mask, (1 - m) * finfo(float32).min, fused into the
// scores before a softmax (as after elementwise fusion): the constant is
// -inf in f16, so the fused generic joins the softmax's island and the
// constant stays f32; the remark says so.
// CHECK-LABEL: func.func @masked_softmax
//       CHECK:   lowp.island f32 (%arg0, %arg1) : (tensor<8x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     arith.constant -3.40282347E+38 : f32
//   CHECK-NOT:   lowp.cast
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
func.func @masked_softmax(%scores: tensor<8x8xf32>, %mask: tensor<1x8xf32>) -> tensor<8x8xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  // expected-remark @below {{constant -3.40282347E+38 is -inf in f16 (largest finite 6.550400e+04); kept at f32 inside an fp32 island}}
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0xFF800000 : f32
  %cst_2 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%scores, %mask : tensor<8x8xf32>, tensor<1x8xf32>) outs(%0 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %8 = arith.subf %cst, %in_3 : f32
    %9 = arith.mulf %8, %cst_0 : f32
    %10 = arith.addf %in, %9 : f32
    linalg.yield %10 : f32
  } -> tensor<8x8xf32>
  %2 = tensor.empty() : tensor<8x1xf32>
  %3 = linalg.fill ins(%cst_1 : f32) outs(%2 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<8x8xf32>) outs(%3 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.maximumf %in, %out : f32
    linalg.yield %8 : f32
  } -> tensor<8x1xf32>
  %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %4 : tensor<8x8xf32>, tensor<8x1xf32>) outs(%0 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %8 = arith.subf %in, %in_3 : f32
    %9 = math.exp %8 : f32
    linalg.yield %9 : f32
  } -> tensor<8x8xf32>
  %6 = linalg.fill ins(%cst_2 : f32) outs(%2 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%5 : tensor<8x8xf32>) outs(%6 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.addf %in, %out : f32
    linalg.yield %8 : f32
  } -> tensor<8x1xf32>
  %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %7 : tensor<8x8xf32>, tensor<8x1xf32>) outs(%0 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %9 = arith.divf %in, %in_3 : f32
    linalg.yield %9 : f32
  } -> tensor<8x8xf32>
  return %8 : tensor<8x8xf32>
}

