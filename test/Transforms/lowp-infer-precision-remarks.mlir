// With remarks=true every op that holds f32 values gets one remark: its
// precision, its class and the rule that decided.
// RUN: fp-opt %s --lowp-infer-precision="low=bf16 remarks=true" -verify-diagnostics -mlir-print-op-on-diagnostic=false -o /dev/null

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @explained(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (matrix): matrix class: contraction body (mul-add over a reduction)}}
  %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (transparent): no low-precision neighbour}}
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{f32 (sensitive): sensitive class: range-sensitive math (exp/log/pow/rsqrt) in body}}
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // expected-remark @below {{f32 (follow): downstream of sensitive linalg.generic}}
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // expected-remark @below {{f32 (transparent): function or region boundary: types fixed by the signature}}
  return %y : tensor<4x8xf32>
}
