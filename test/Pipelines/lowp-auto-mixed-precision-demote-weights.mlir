// lowp-auto-mixed-precision{demote-weights=arguments}: weights passed as
// arguments arrive in their decided format. bf16: the weight arguments
// become bf16. fp8 (hybrid, current scaling): they become E4M3 with an f32
// scale argument each (lowp.fp8_scale names it, lowp.fp8_scale_of names the
// weight); the product of two activations keeps bf16.
// RUN: fp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --lowp-auto-mixed-precision="target=sm_90 policy=bf16 demote-weights=arguments" \
// RUN: | FileCheck %s --check-prefix=BF16
// RUN: fp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --lowp-auto-mixed-precision="target=sm_90 policy=fp8 demote-weights=arguments" \
// RUN: | FileCheck %s --check-prefix=FP8
// A value outside the option's choices is an error naming them.
// RUN: not fp-opt %s --lowp-auto-mixed-precision="target=sm_90 demote-weights=all" 2>&1 \
// RUN: | FileCheck %s --check-prefix=BAD
// RUN: not fp-opt %s --lowp-infer-precision="low=bf16 demote-weights=weights" 2>&1 \
// RUN: | FileCheck %s --check-prefix=BAD-INFER
// BAD: for the --demote-weights option: 'all' is not one of: none, arguments
// BAD-INFER: for the --demote-weights option: 'weights' is not one of: none, arguments

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// BF16-LABEL: func.func @linear2(
// BF16-SAME: %{{.*}}: tensor<8x16xbf16>, %{{.*}}: tensor<32x16xbf16>, %{{.*}}: tensor<32xf32>, %{{.*}}: tensor<4x32xbf16>) -> tensor<8x4xf32>
// FP8-LABEL: func.func @linear2(
// FP8-SAME: %{{.*}}: tensor<8x16xf8E4M3FN> {lowp.fp8_scale = 4 : i64}, %{{.*}}: tensor<32x16xf8E4M3FN> {lowp.fp8_scale = 5 : i64}, %{{.*}}: tensor<32xf32>, %{{.*}}: tensor<4x32xf8E4M3FN> {lowp.fp8_scale = 6 : i64},
// FP8-SAME: %{{.*}}: f32 {lowp.fp8_scale_of = 0 : i64}, %{{.*}}: f32 {lowp.fp8_scale_of = 1 : i64}, %{{.*}}: f32 {lowp.fp8_scale_of = 3 : i64}) -> tensor<8x4xf32>
// FP8-NOT: lowp.quantize
// FP8-NOT: lowp.amax
// FP8: linalg.transpose ins(%{{.*}} : tensor<32x16xf8E4M3FN>)
// FP8: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf8E4M3FN>, tensor<16x32xf8E4M3FN>)
func.func @linear2(%x: tensor<8x16xf32>, %w1: tensor<32x16xf32>, %b1: tensor<32xf32>,
                   %w2: tensor<4x32xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %t1e = tensor.empty() : tensor<16x32xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<32x16xf32>) outs(%t1e : tensor<16x32xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m1 = linalg.matmul ins(%x, %w1t : tensor<8x16xf32>, tensor<16x32xf32>)
                      outs(%f1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %t2e = tensor.empty() : tensor<32x4xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<4x32xf32>) outs(%t2e : tensor<32x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m2 = linalg.matmul ins(%h, %w2t : tensor<8x32xf32>, tensor<32x4xf32>)
                      outs(%f2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m2 : tensor<8x4xf32>
}

