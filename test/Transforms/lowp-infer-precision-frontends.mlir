// Idioms of real front ends' linalg exports precision inference must handle
// (the whole models are in Inputs/frontends/, their pipeline tests in
// test/Pipelines/frontends/).
// RUN: fp-opt %s -split-input-file -verify-each --lowp-infer-precision="low=bf16" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s -split-input-file -verify-each --lowp-infer-precision="low=f16" | FileCheck %s --check-prefixes=CHECK,F16

#map = affine_map<(d0, d1) -> (d0, d1)>

// torch-mlir captures scalar operands from the function body. A low body
// reads a rounded copy of a captured constant (no extf/truncf around the
// ReLU); a body that yields a captured value it cannot round (a scalar
// argument) computes wide and truncates what it yields.
// CHECK-LABEL: func.func @captured_scalars
//       CHECK:   linalg.matmul
//  BF16-SAME:      outs(%{{.+}} : tensor<8x8xf32>)
//       CHECK:   linalg.generic
//  BF16-NEXT:    ^bb0(%{{.+}}: bf16, %{{.+}}: bf16):
//  BF16-NEXT:      %[[ZERO:.+]] = arith.constant 0.000000e+00 : bf16
//  BF16-NEXT:      arith.cmpf ugt, %{{.+}}, %[[ZERO]] : bf16
//  BF16-NEXT:      arith.select %{{.+}}, %{{.+}}, %[[ZERO]] : bf16
//       CHECK:   linalg.generic
//  BF16-NEXT:    ^bb0(%{{.+}}: bf16):
//  BF16-NEXT:      %[[ONE:.+]] = arith.constant 1.000000e+00 : bf16
//  BF16-NEXT:      linalg.yield %[[ONE]] : bf16
//       CHECK:   linalg.generic
//  BF16-NEXT:    ^bb0(%{{.+}}: bf16):
//  BF16-NEXT:      %[[S:.+]] = arith.truncf %arg2 : f32 to bf16
//  BF16-NEXT:      linalg.yield %[[S]] : bf16
//   CHECK-NOT:   arith.extf
//       CHECK:   return
func.func @captured_scalars(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %s: f32) -> tensor<8x8xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<8x8xf32>
  %ones = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%out: f32):
    linalg.yield %cst : f32
  } -> tensor<8x8xf32>
  %full = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%out: f32):
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%relu, %ones, %full : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.mulf %0, %z : f32
    linalg.yield %1 : f32
  } -> tensor<8x8xf32>
  %m2 = linalg.matmul ins(%sum, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m2 : tensor<8x8xf32>
}

// -----

// Parameters exported as dense_resource blobs (torch-mlir's fx_importer):
// a readable blob is rounded into a new blob; an elided one, and one with a
// value the format cannot hold (70000 in f16), stay f32 behind one cast
// each, however many users they have.
// CHECK-LABEL: func.func @resource_weights
//   BF16-DAG:   arith.constant dense_resource<w_bf16> : tensor<2x2xbf16>
//   BF16-DAG:   arith.constant dense_resource<big_bf16> : tensor<2x2xbf16>
//    F16-DAG:   arith.constant dense_resource<w_f16> : tensor<2x2xf16>
//    F16-DAG:   %[[BIG:.+]] = arith.constant dense_resource<big> : tensor<2x2xf32>
//    F16-DAG:   lowp.cast %[[BIG]] : tensor<2x2xf32> to tensor<2x2xf16>
//  CHECK-DAG:   %[[ELIDED:.+]] = arith.constant dense_resource<__elided__> : tensor<2x2xf32>
//      BF16:    lowp.cast %[[ELIDED]] : tensor<2x2xf32> to tensor<2x2xbf16>
//       F16:    lowp.cast %[[ELIDED]] : tensor<2x2xf32> to tensor<2x2xf16>
//  CHECK-NOT:   lowp.cast %[[ELIDED]]
// 0.1, 0.2, -0.3, 1/3 rounded to nearest even (numpy: float16 0x2E66 0x3266
// 0xB4CD 0x3555; bf16 from the f32 bits: 0x3DCD 0x3E4D 0xBE9A 0x3EAB).
//      BF16: w_bf16: "0x02000000CD3D4D3E9ABEAB3E"
//       F16: w_f16: "0x02000000662E6632CDB45535"
func.func @resource_weights(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = arith.constant dense_resource<w> : tensor<2x2xf32>
  %big = arith.constant dense_resource<big> : tensor<2x2xf32>
  %elided = arith.constant dense_resource<__elided__> : tensor<2x2xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = linalg.matmul ins(%x, %big : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = linalg.matmul ins(%x, %elided : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = linalg.matmul ins(%elided, %x : tensor<2x2xf32>, tensor<2x2xf32>) outs(%2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000CDCCCC3DCDCC4C3E9A9999BEABAAAA3E",
      big: "0x040000000000803FABAAAABE00B8884700002040"
    }
  }
#-}

// -----

// Older torch-mlir and TOSA transpose nn.Linear weights with a copy-like
// linalg.generic: the weight is cast before it, so the copy moves 16-bit
// elements.
// CHECK-LABEL: func.func @generic_transposed_weight
//  CHECK-SAME:   (%[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<16x8xf32>)
//       BF16:   %[[WL:.+]] = lowp.cast %[[W]] : tensor<16x8xf32> to tensor<16x8xbf16>
//       BF16:   %[[WT:.+]] = linalg.generic {{.+}} ins(%[[WL]] : tensor<16x8xbf16>) outs(%{{.+}} : tensor<8x16xbf16>)
//       BF16:   linalg.matmul ins(%{{.+}}, %[[WT]] : tensor<4x8xbf16>, tensor<8x16xbf16>)
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @generic_transposed_weight(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.generic {indexing_maps = [#tr, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// A transposed weight that an f32 op (exp) reads too: the transpose stays
// f32 for it (no second, 16-bit transpose) and its result is cast once for
// the matmul.
// CHECK-LABEL: func.func @transposed_weight_other_reader
//       BF16:   %[[WT:.+]] = linalg.transpose ins(%arg1 : tensor<16x8xf32>) outs(%{{.+}} : tensor<8x16xf32>)
//       BF16:   %[[WL:.+]] = lowp.cast %[[WT]] : tensor<8x16xf32> to tensor<8x16xbf16>
//   BF16-NOT:   linalg.transpose
//       BF16:   linalg.matmul ins(%{{.+}}, %[[WL]] : tensor<4x8xbf16>, tensor<8x16xbf16>)
//       BF16:   linalg.generic {{.+}} ins(%[[WT]] : tensor<8x16xf32>)
//  BF16-NEXT:   ^bb0(%{{.+}}: f32, %{{.+}}: f32):
//  BF16-NEXT:     math.exp %{{.+}} : f32
func.func @transposed_weight_other_reader(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> (tensor<4x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%wt : tensor<8x16xf32>) outs(%te : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %m, %ex : tensor<4x16xf32>, tensor<8x16xf32>
}
