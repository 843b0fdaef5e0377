// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-insert-fp32-islands | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands --remarks-filter=lowp-insert-fp32-islands -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands --remarks-filter=lowp-infer-precision -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER

// A hazard an island takes care of is a decision remark of the pass's
// category; one outside any island is a warning, not a decision.
// REMARK: [Analysis] ConstantHazard | Category:lowp-insert-fp32-islands | Function=masked_softmax | Remark="constant -3.40282347E+38 is -inf in f16 (largest finite 6.550400e+04); kept at f32 inside an fp32 island"
// REMARK: [Analysis] ConstantHazard | Category:lowp-insert-fp32-islands | Function=layer_norm_tiny_eps | Remark="constant 9.99999996E-13 is 0 in f16 (smallest subnormal 5.960464e-08); kept at f32 inside an fp32 island"
// REMARK-NOT: [Analysis]
// OTHER-NOT: [Analysis]

// Constants the low format cannot represent are reported where they are.

#id = affine_map<(d0, d1) -> (d0, d1)>

// A -3.4e38 attention mask is -inf in f16 and bf16. The select that reads
// it feeds only the softmax, so it joins the island and the mask stays f32.
// CHECK-LABEL: func.func @masked_softmax
//       CHECK:   lowp.island f32 (%{{.+}}, %{{.+}}) : (tensor<4x64xf32>, tensor<4x64xi1>) -> tensor<4x64xf32>
//       CHECK:     arith.constant -3.40282347E+38 : f32
//       CHECK:     arith.select
//       CHECK:     linalg.softmax
func.func @masked_softmax(%x: tensor<4x64xf32>, %mask: tensor<4x64xi1>) -> tensor<4x64xf32> {
  // expected-remark @below {{constant -3.40282347E+38 is -inf in f16 (largest finite 6.550400e+04); kept at f32 inside an fp32 island}}
  %big = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask : tensor<4x64xf32>, tensor<4x64xi1>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %s = arith.select %m, %a, %big : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %p : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// BERT's layer-norm eps 1e-12 is 0 in f16 (not in bf16), inside a payload.
// CHECK-LABEL: func.func @layer_norm_tiny_eps
//       CHECK:   lowp.island
func.func @layer_norm_tiny_eps(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %dev = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %n : f32
    %d = arith.subf %in, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %dev : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %o: f32):
    // expected-remark @below {{constant 9.99999996E-13 is 0 in f16 (smallest subnormal 5.960464e-08); kept at f32 inside an fp32 island}}
    %eps = arith.constant 1.0e-12 : f32
    %mu = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %c0 = arith.subf %v, %mu : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %y0 = arith.mulf %c0, %r : f32
    linalg.yield %y0 : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// Outside any island: a warning, the IR is unchanged.
// CHECK-LABEL: func.func @outside_any_island
//   CHECK-NOT:   lowp.island
func.func @outside_any_island(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @below {{constant 9.99999996E-13 is 0 in f16 (smallest subnormal 5.960464e-08); it is outside any fp32 island}}
  %eps = arith.constant dense<1.0e-12> : tensor<4xf32>
  %y = arith.addf %x, %eps : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Representable constants, and f16 constants (already rounded), say nothing.
// CHECK-LABEL: func.func @no_hazard
func.func @no_hazard(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %c = arith.constant dense<[1.0e-3, 6.0e4, -0.0, 0x7F800000]> : tensor<4xf32>
  %y = arith.addf %x, %c : tensor<4xf32>
  %c16 = arith.constant dense<0.0> : tensor<4xf16>
  %z = arith.addf %h, %c16 : tensor<4xf16>
  return %y, %z : tensor<4xf32>, tensor<4xf16>
}
