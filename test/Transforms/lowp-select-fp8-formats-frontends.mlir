// Front ends put data movement between a value and the matrix op that reads
// it: torch-mlir transposes every nn.Linear weight and collapses every
// activation. FP8 selection quantizes before such moves (transposes,
// broadcasts, reshapes, copy-like generics: every element kept), so they move
// 8-bit elements: always when precision inference cast the value to bf16
// before them (one rounding, f32 -> fp8; the bf16 copies disappear), and on
// f32 moves when nothing but FP8 reads of the same format reads the moved
// tensor. A moved tensor with another reader is quantized where it is (no
// second copy of the move), and slices are not looked through (a view:
// quantizing the source would round elements nobody reads).
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
//       CHECK:   %[[AX:.+]] = lowp.amax %[[X]] : tensor<2x8x32xf32>
//       CHECK:   %[[QX:.+]] = lowp.quantize %[[X]], %{{.+}} : tensor<2x8x32xf32>, f32 to tensor<2x8x32xf8E4M3FN>
//       CHECK:   %[[AW:.+]] = lowp.amax %[[W]] : tensor<16x32xf32>
//       CHECK:   %[[QW:.+]] = lowp.quantize %[[W]], %{{.+}} : tensor<16x32xf32>, f32 to tensor<16x32xf8E4M3FN>
//       CHECK:   %[[XC:.+]] = tensor.collapse_shape %[[QX]] {{\[\[}}0, 1], [2]] : tensor<2x8x32xf8E4M3FN> into tensor<16x32xf8E4M3FN>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<32x16xf8E4M3FN>
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%[[QW]] : tensor<16x32xf8E4M3FN>) outs(%[[E]] : tensor<32x16xf8E4M3FN>) permutation = [1, 0]
//       CHECK:   linalg.matmul ins(%[[XC]], %[[WT]] : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>) outs(%{{.+}} : tensor<16x16xf32>)
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

// A dynamic head split shared by two products: %x quantized once, the split
// redone once on FP8 (its output_shape reads the same size); the bf16 split
// another op still reads stays.
// CHECK-LABEL: func.func @shared_dynamic_split
//       CHECK:   %[[Q:.+]] = lowp.quantize %arg0, %{{.+}} : tensor<?x8xf32>, f32 to tensor<?x8xf8E4M3FN>
//   CHECK-NOT:   lowp.quantize %arg0
//       CHECK:   %[[D:.+]] = tensor.dim
//       CHECK:   tensor.expand_shape %{{.+}} : tensor<?x8xbf16> into tensor<?x4x8xbf16>
//       CHECK:   %[[S:.+]] = tensor.expand_shape %[[Q]] {{\[\[}}0, 1], [2]] output_shape [%[[D]], 4, 8] : tensor<?x8xf8E4M3FN> into tensor<?x4x8xf8E4M3FN>
//   CHECK-NOT:   tensor.expand_shape
//       CHECK:   "test.use"(%{{.+}}) : (tensor<?x4x8xbf16>) -> ()
//       CHECK:   linalg.batch_matmul ins(%[[S]], %{{.+}} : tensor<?x4x8xf8E4M3FN>, tensor<?x8x4xf8E4M3FN>)
//       CHECK:   linalg.batch_matmul ins(%[[S]], %{{.+}} : tensor<?x4x8xf8E4M3FN>, tensor<?x8x4xf8E4M3FN>)
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

// -----

// f32 IR (the pass alone): the transpose's only reader is the FP8 matmul, so
// the weight is quantized (amax and all) before it and the f32 transpose
// goes away.
// CHECK-LABEL: func.func @f32_transpose
//  CHECK-SAME:   (%[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<16x8xf32>)
//       CHECK:   %[[AW:.+]] = lowp.amax %[[W]] : tensor<16x8xf32>
//       CHECK:   %[[SW:.+]] = lowp.compute_scale %[[AW]]
//       CHECK:   %[[QW:.+]] = lowp.quantize %[[W]], %[[SW]] : tensor<16x8xf32>, f32 to tensor<16x8xf8E4M3FN>
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%[[QW]] : tensor<16x8xf8E4M3FN>) outs(%{{.+}} : tensor<8x16xf8E4M3FN>) permutation = [1, 0]
//   CHECK-NOT:   tensor<8x16xf32>
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[WT]] : tensor<4x8xf8E4M3FN>, tensor<8x16xf8E4M3FN>)
func.func @f32_transpose(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// Older torch-mlir and TOSA write the transpose as a copy-like generic, after
// the bf16 cast here: quantizing its result would round twice (f32 -> bf16
// -> fp8); the weight is quantized and the copy redone on FP8.
// CHECK-LABEL: func.func @generic_transpose_of_cast
//  CHECK-SAME:   (%[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<16x8xf32>)
//       CHECK:   %[[QW:.+]] = lowp.quantize %[[W]], %{{.+}} : tensor<16x8xf32>, f32 to tensor<16x8xf8E4M3FN>
//       CHECK:   %[[WT:.+]] = linalg.generic {{.+}} ins(%[[QW]] : tensor<16x8xf8E4M3FN>) outs(%{{.+}} : tensor<8x16xf8E4M3FN>)
//  CHECK-NEXT:   ^bb0(%[[IN:.+]]: f8E4M3FN, %{{.+}}: f8E4M3FN):
//  CHECK-NEXT:     linalg.yield %[[IN]] : f8E4M3FN
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[WT]] : tensor<4x8xf8E4M3FN>, tensor<8x16xf8E4M3FN>)
// NOBF16-LABEL: func.func @generic_transpose_of_cast
//   NOBF16-NOT:   bf16
//       NOBF16: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @generic_transpose_of_cast(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %x16 = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %w16 = lowp.cast %w : tensor<16x8xf32> to tensor<16x8xbf16>
  %te = tensor.empty() : tensor<8x16xbf16>
  %wt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%w16 : tensor<16x8xbf16>) outs(%te : tensor<8x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    linalg.yield %a : bf16
  } -> tensor<8x16xbf16>
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x16, %wt : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// Negative: the f32 transpose has another reader (exp). Quantizing before it
// would need a second, FP8 transpose; the transpose stays as it is, read by
// exp unchanged, and its result is quantized.
// CHECK-LABEL: func.func @transpose_other_reader
//  CHECK-SAME:   (%[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<16x8xf32>)
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<16x8xf32>) outs(%{{.+}} : tensor<8x16xf32>)
//       CHECK:   lowp.amax %[[WT]] : tensor<8x16xf32>
//       CHECK:   %[[QW:.+]] = lowp.quantize %[[WT]], %{{.+}} : tensor<8x16xf32>, f32 to tensor<8x16xf8E4M3FN>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[QW]] : tensor<4x8xf8E4M3FN>, tensor<8x16xf8E4M3FN>)
//       CHECK:   linalg.generic {{.+}} ins(%[[WT]] : tensor<8x16xf32>)
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     math.exp %{{.+}} : f32
func.func @transpose_other_reader(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> (tensor<4x16xf32>, tensor<8x16xf32>) {
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

// -----

// Negative: the transpose is read by a matrix op that stays at 16 bits
// (pinned by lowp.precision) and by an FP8 one: the f32 transpose stays and
// is quantized for the FP8 op; the pinned op still reads it unchanged.
// CHECK-LABEL: func.func @transpose_pinned_reader
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%arg1 : tensor<16x8xf32>)
//       CHECK:   %[[QW:.+]] = lowp.quantize %[[WT]]
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[QW]] : tensor<4x8xf8E4M3FN>, tensor<8x16xf8E4M3FN>)
//       CHECK:   linalg.matmul {lowp.precision = bf16} ins(%arg0, %[[WT]] : tensor<4x8xf32>, tensor<8x16xf32>)
func.func @transpose_pinned_reader(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul {lowp.precision = bf16} ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m, %p : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A transposed weight read by two FP8 matmuls: quantized once, before the
// transpose, and the FP8 transpose is shared.
// CHECK-LABEL: func.func @shared_transpose
//       CHECK:   %[[QW:.+]] = lowp.quantize %arg2
//   CHECK-NOT:   lowp.quantize %arg2
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%[[QW]] : tensor<16x8xf8E4M3FN>)
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[WT]] :
//       CHECK:   linalg.matmul ins(%{{.+}}, %[[WT]] :
func.func @shared_transpose(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul ins(%y, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m, %p : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Negative: a slice of the fused QKV weight is quantized after the slice
// (the slice is a view; quantizing the whole weight would round the rows
// other ops read, with another scale); the transpose after it moves FP8.
// CHECK-LABEL: func.func @sliced_weight
//       CHECK:   %[[S:.+]] = tensor.extract_slice %arg1[0, 0] [16, 8] [1, 1] : tensor<48x8xf32> to tensor<16x8xf32>
//       CHECK:   lowp.amax %[[S]] : tensor<16x8xf32>
//       CHECK:   %[[QS:.+]] = lowp.quantize %[[S]]
//       CHECK:   linalg.transpose ins(%[[QS]] : tensor<16x8xf8E4M3FN>)
func.func @sliced_weight(%x: tensor<4x8xf32>, %w: tensor<48x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %w[0, 0] [16, 8] [1, 1] : tensor<48x8xf32> to tensor<16x8xf32>
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%s : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// Negative: a generic that reads only part of its input (the first column
// broadcast) is no element-preserving move: the amax of its result is not
// the input's. Quantized after it.
// CHECK-LABEL: func.func @partial_copy
//       CHECK:   %[[B:.+]] = linalg.generic
//       CHECK:   lowp.amax %[[B]] : tensor<8x16xf32>
//       CHECK:   lowp.quantize %[[B]]
func.func @partial_copy(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x2xf32>) outs(%te : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
