// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8" | FileCheck %s
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=gfx942 policy=fp8" | FileCheck %s --check-prefix=FNUZ

// policy=fp8: the 16-bit decisions of precision inference, then the matrix
// op's inputs narrowed to FP8 (hybrid recipe, current scaling) with an f32
// accumulator; the elementwise op after it follows the 16-bit rules.
// CHECK-LABEL: func @layer
// CHECK-DAG: lowp.quantize %{{.*}} : tensor<16x32xf32>, f32 to tensor<16x32xf8E4M3FN>
// CHECK-DAG: lowp.quantize %{{.*}} : tensor<32x8xf32>, f32 to tensor<32x8xf8E4M3FN>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>) outs(%{{.*}} : tensor<16x8xf32>)

// FNUZ-LABEL: func @layer
// FNUZ: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FNUZ>, tensor<32x8xf8E4M3FNUZ>) outs(%{{.*}} : tensor<16x8xf32>)
func.func @layer(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%m, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
