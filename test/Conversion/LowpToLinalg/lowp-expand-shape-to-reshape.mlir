// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-expand-shape-to-reshape | FileCheck %s

// A dynamic dim split into two dynamic dims (a dynamic sequence into
// heads x head_dim, both unknown): bufferized as memref.expand_shape it
// crashed MLIR 22's expand-strided-metadata in every lowering pipeline.
// It becomes a tensor.reshape to the same sizes.
// CHECK-LABEL: func.func @two_dynamic_sizes
//  CHECK-SAME: (%[[T:.+]]: tensor<?xf32>, %[[A:.+]]: index, %[[B:.+]]: index)
//       CHECK:   %[[S:.+]] = tensor.from_elements %[[A]], %[[B]] : tensor<2xindex>
//       CHECK:   %[[R:.+]] = tensor.reshape %[[T]](%[[S]]) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
//       CHECK:   return %[[R]]
func.func @two_dynamic_sizes(%t: tensor<?xf32>, %a: index, %b: index) -> tensor<?x?xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%a, %b] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

// Static sizes in the same group become constants of the shape operand.
// CHECK-LABEL: func.func @mixed_group
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//       CHECK:   %[[S:.+]] = tensor.from_elements %[[C2]], %{{.+}}, %[[C4]], %{{.+}} : tensor<4xindex>
//       CHECK:   tensor.reshape %{{.+}}(%[[S]]) : (tensor<2x?xf32>, tensor<4xindex>) -> tensor<2x?x4x?xf32>
func.func @mixed_group(%t: tensor<2x?xf32>, %a: index, %b: index) -> tensor<2x?x4x?xf32> {
  %e = tensor.expand_shape %t [[0], [1, 2, 3]] output_shape [2, %a, 4, %b] : tensor<2x?xf32> into tensor<2x?x4x?xf32>
  return %e : tensor<2x?x4x?xf32>
}

// -----

// At most one dynamic size per group: strided metadata handles these, the
// op stays.
// CHECK-LABEL: func.func @one_dynamic_size
//       CHECK:   tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [%{{.+}}, 64]
//   CHECK-NOT:   tensor.reshape
func.func @one_dynamic_size(%t: tensor<?xf32>, %a: index) -> tensor<?x64xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%a, 64] : tensor<?xf32> into tensor<?x64xf32>
  return %e : tensor<?x64xf32>
}

// -----

// A constant output_shape entry that contradicts the result type passes
// tensor.expand_shape's verifier but not memref.expand_shape's: reported
// here instead of leaving invalid IR after bufferization (found by
// utils/fuzz_mutate.py).
func.func @contradicting_output_shape(%t: tensor<8x4x4xf32>) -> tensor<8x2x2x2x2xf32> {
  // expected-error @+1 {{'tensor.expand_shape' op output_shape entry 0 is 3 but the result type has 8}}
  %e = tensor.expand_shape %t [[0], [1, 2], [3, 4]] output_shape [3, 2, 2, 2, 2] : tensor<8x4x4xf32> into tensor<8x2x2x2x2xf32>
  return %e : tensor<8x2x2x2x2xf32>
}
