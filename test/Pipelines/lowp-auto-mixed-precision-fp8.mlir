// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8" | FileCheck %s
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=gfx942 policy=fp8" | FileCheck %s --check-prefix=FNUZ
//
// The FP8 options pass through to lowp-select-fp8-formats:
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8 fp8-recipe=e5m2" \
// RUN:   | FileCheck %s --check-prefix=E5M2
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8 fp8-recipe=range fp8-scaling=static" \
// RUN:   | FileCheck %s --check-prefix=RANGE
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8 fp8-scaling=delayed fp8-amax-history=8" \
// RUN:   | FileCheck %s --check-prefix=DELAYED
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8 fp8-margin=2" \
// RUN:   | FileCheck %s --check-prefix=MARGIN
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=fp8 first-last-bf16" \
// RUN:   | FileCheck %s --check-prefix=FIRSTLAST
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_80 policy=fp8" \
// RUN:   -verify-diagnostics -o /dev/null
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_80 policy=fp8 allow-bf16-fallback" \
// RUN:   | FileCheck %s --check-prefix=FALLBACK

// policy=fp8: the 16-bit decisions of precision inference, then the matrix
// op's inputs narrowed to FP8 (by default the hybrid recipe with current
// scaling: the amax computed in the graph, whatever #lowp.stats says) with an
// f32 accumulator; the elementwise op after it follows the 16-bit rules.
// CHECK-LABEL: func @layer
// CHECK-DAG: lowp.compute_scale %{{.*}} for f8E4M3FN : f32
// CHECK-DAG: lowp.quantize %{{.*}} : tensor<16x32xf32>, f32 to tensor<16x32xf8E4M3FN>
// CHECK-DAG: lowp.quantize %{{.*}} : tensor<32x8xf32>, f32 to tensor<32x8xf8E4M3FN>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>) outs(%{{.*}} : tensor<16x8xf32>)

// FNUZ-LABEL: func @layer
// FNUZ: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FNUZ>, tensor<32x8xf8E4M3FNUZ>) outs(%{{.*}} : tensor<16x8xf32>)

// E5M2-LABEL: func @layer
// E5M2: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E5M2>, tensor<32x8xf8E5M2>) outs(%{{.*}} : tensor<16x8xf32>)

// Range recipe from the statistics: x spans 8.6 binades (E4M3, scale
// 448 / 4 = 112), w 19.9 (more than E4M3's 17.8: E5M2, scale 57344 / 1);
// static scaling makes the scales constants.
// RANGE-LABEL: func @layer
// RANGE-NOT: lowp.amax
// RANGE: %[[SX:.*]] = arith.constant 1.120000e+02 : f32
// RANGE: lowp.quantize %{{.*}}, %[[SX]] : tensor<16x32xf32>, f32 to tensor<16x32xf8E4M3FN>
// RANGE: %[[SW:.*]] = arith.constant 5.734400e+04 : f32
// RANGE: lowp.quantize %{{.*}}, %[[SW]] : tensor<32x8xf32>, f32 to tensor<32x8xf8E5M2>
// RANGE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E5M2>) outs(%{{.*}} : tensor<16x8xf32>)

// Delayed scaling: one amax history of the requested length per operand,
// threaded through the function.
// DELAYED-LABEL: func @layer
// DELAYED-SAME: %{{.*}}: tensor<8xf32> {lowp.amax_history = f8E4M3FN}, %{{.*}}: tensor<8xf32> {lowp.amax_history = f8E4M3FN})
// DELAYED-SAME: -> (tensor<16x8xf32>, tensor<8xf32>, tensor<8xf32>)
// DELAYED: lowp.compute_scale %{{.*}} for f8E4M3FN : tensor<8xf32>
// DELAYED: lowp.push_amax

// MARGIN-LABEL: func @layer
// MARGIN: lowp.compute_scale %{{.*}} for f8E4M3FN margin = 2 : f32

// The only matrix op is both the first and the last: it stays bf16.
// FIRSTLAST-LABEL: func @layer
// FIRSTLAST-NOT: lowp.quantize
// FIRSTLAST: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xbf16>, tensor<32x8xbf16>) outs(%{{.*}} : tensor<16x8xf32>)

// FALLBACK-LABEL: func @layer
// FALLBACK-NOT: lowp.quantize
// FALLBACK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xbf16>, tensor<32x8xbf16>) outs(%{{.*}} : tensor<16x8xf32>)
func.func @layer(%x: tensor<16x32xf32> {lowp.stats = #lowp.stats<amax = 4.0, min = 0.01>},
                 %w: tensor<32x8xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 1.0e-6>},
                 %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Without the fallback, a target without FP8 is an error.
  // expected-error @+1 {{target 'sm_80' has no FP8 support (FP8 targets: sm_89, sm_90, sm_90a, sm_100, sm_120, gfx942, gfx950); choose one of them or allow the bf16 fallback}}
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
