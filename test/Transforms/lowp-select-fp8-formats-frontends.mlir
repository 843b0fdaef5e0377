// Front ends put data movement between a value and the matrix op that reads
// it: torch-mlir transposes every nn.Linear weight and collapses every
// activation. When precision inference cast the value to bf16 before those
// moves, FP8 selection redoes them on the f32 value and quantizes that (one
// rounding, f32 -> fp8), and the bf16 copies disappear.
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -verify-each -lowp-select-fp8-formats=target=sm_90 | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-select-fp8-formats=target=sm_90 | FileCheck %s --check-prefix=NOBF16

// The FP8 matmul's body extends its FP8 operands straight to f32, the body
// linalg.matmul builds for these types when its IR is printed and parsed
// (a chain FP8 -> bf16 -> f32 would be lost on a round trip, and left the
// in-memory IR with conversions the x86 lowering does not expect).
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-select-fp8-formats=target=sm_90 -mlir-print-op-generic | FileCheck %s --check-prefix=BODY
// BODY-LABEL: sym_name = "linear"
//       BODY:   "linalg.matmul"
//  BODY-NEXT:   ^bb0(%{{.+}}: f8E4M3FN, %{{.+}}: f8E4M3FN, %{{.+}}: f32):
//  BODY-NEXT:     "arith.extf"(%{{.+}}) : (f8E4M3FN) -> f32
//  BODY-NEXT:     "arith.extf"(%{{.+}}) : (f8E4M3FN) -> f32
//  BODY-NEXT:     "arith.mulf"
//  BODY-NEXT:     "arith.addf"

// Nothing of the bf16 copies is left in @linear.
// NOBF16-LABEL: func.func @linear
//   NOBF16-NOT:   bf16
// NOBF16-LABEL: func.func @shared_dynamic_split

// CHECK-LABEL: func.func @linear
//  CHECK-SAME:   (%[[X:.+]]: tensor<2x8x32xf32>, %[[W:.+]]: tensor<16x32xf32>)
//       CHECK:   %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
//       CHECK:   lowp.quantize %[[XC]], %{{.+}} : tensor<16x32xf32>, f32 to tensor<16x32xf8E4M3FN>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<32x16xf32>
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<16x32xf32>) outs(%[[E]] : tensor<32x16xf32>) permutation = [1, 0]
//       CHECK:   lowp.quantize %[[WT]], %{{.+}} : tensor<32x16xf32>, f32 to tensor<32x16xf8E4M3FN>
//       CHECK:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>) outs(%{{.+}} : tensor<16x16xf32>)
func.func @linear(%x: tensor<2x8x32xf32>, %w: tensor<16x32xf32>) -> tensor<16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %x16 = lowp.cast %x : tensor<2x8x32xf32> to tensor<2x8x32xbf16>
  %w16 = lowp.cast %w : tensor<16x32xf32> to tensor<16x32xbf16>
  %collapsed = tensor.collapse_shape %x16 [[0, 1], [2]] : tensor<2x8x32xbf16> into tensor<16x32xbf16>
  %0 = tensor.empty() : tensor<32x16xbf16>
  %transposed = linalg.transpose ins(%w16 : tensor<16x32xbf16>) outs(%0 : tensor<32x16xbf16>) permutation = [1, 0]
  %1 = tensor.empty() : tensor<16x16xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = linalg.matmul ins(%collapsed, %transposed : tensor<16x32xbf16>, tensor<32x16xbf16>) outs(%2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// -----

// A dynamic head split shared by two products: redone once in f32 (its
// output_shape reads the same size), quantized once; the bf16 value another
// op still reads stays.
// CHECK-LABEL: func.func @shared_dynamic_split
//       CHECK:   %[[D:.+]] = tensor.dim
//       CHECK:   %[[S:.+]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%[[D]], 4, 8] : tensor<?x8xf32> into tensor<?x4x8xf32>
//       CHECK:   %[[Q:.+]] = lowp.quantize %[[S]], %{{.+}} : tensor<?x4x8xf32>, f32 to tensor<?x4x8xf8E4M3FN>
//   CHECK-NOT:   lowp.quantize %[[S]]
//       CHECK:   "test.use"(%{{.+}}) : (tensor<?x4x8xbf16>) -> ()
//       CHECK:   linalg.batch_matmul ins(%[[Q]], %{{.+}} : tensor<?x4x8xf8E4M3FN>, tensor<?x8x4xf8E4M3FN>)
//       CHECK:   linalg.batch_matmul ins(%[[Q]], %{{.+}} : tensor<?x4x8xf8E4M3FN>, tensor<?x8x4xf8E4M3FN>)
func.func @shared_dynamic_split(%x: tensor<?x8xf32>, %w: tensor<?x8x4xf32>, %v: tensor<?x8x4xf32>) -> (tensor<?x4x4xf32>, tensor<?x4x4xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %d = tensor.dim %x, %c0 : tensor<?x8xf32>
  %x16 = lowp.cast %x : tensor<?x8xf32> to tensor<?x8xbf16>
  %split = tensor.expand_shape %x16 [[0, 1], [2]] output_shape [%d, 4, 8] : tensor<?x8xbf16> into tensor<?x4x8xbf16>
  "test.use"(%split) : (tensor<?x4x8xbf16>) -> ()
  %0 = tensor.empty(%d) : tensor<?x4x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  %2 = linalg.batch_matmul ins(%split, %w : tensor<?x4x8xbf16>, tensor<?x8x4xf32>) outs(%1 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  %3 = linalg.batch_matmul ins(%split, %v : tensor<?x4x8xbf16>, tensor<?x8x4xf32>) outs(%1 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  return %2, %3 : tensor<?x4x4xf32>, tensor<?x4x4xf32>
}
