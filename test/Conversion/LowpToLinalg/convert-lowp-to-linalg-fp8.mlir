// RUN: fp-opt %s -convert-lowp-to-linalg -split-input-file | FileCheck %s

// quantize: the product in f32, then the saturating round-to-nearest-even
// cast of lowp.cast (clamp to +-448, truncf).
// CHECK-LABEL: func @quantize
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xbf16>, %[[S:.*]]: f32)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]], %[[S]] : tensor<4x8xbf16>, f32) outs(%{{.*}} : tensor<4x8xf8E4M3FN>)
// CHECK: ^bb0(%[[E:.*]]: bf16, %[[ES:.*]]: f32, %{{.*}}: f8E4M3FN):
// CHECK: %[[W:.*]] = arith.extf %[[E]] : bf16 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[W]], %[[ES]] : f32
// CHECK: %[[LO:.*]] = arith.maximumf %[[P]], %{{.*}} : f32
// CHECK: %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: arith.truncf %[[HI]] : f32 to f8E4M3FN
func.func @quantize(%x: tensor<4x8xbf16>, %s: f32) -> tensor<4x8xf8E4M3FN> {
  %q = lowp.quantize %x, %s : tensor<4x8xbf16>, f32 to tensor<4x8xf8E4M3FN>
  return %q : tensor<4x8xf8E4M3FN>
}

// -----

// dequantize: one reciprocal outside the loop, one multiply per element.
// CHECK-LABEL: func @dequantize
// CHECK-SAME: (%[[Q:.*]]: tensor<16xf8E5M2FNUZ>, %[[S:.*]]: f32)
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[Q]], %[[INV]] : tensor<16xf8E5M2FNUZ>, f32) outs(%{{.*}} : tensor<16xbf16>)
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f8E5M2FNUZ to f32
// CHECK: %[[P:.*]] = arith.mulf %[[W]], %{{.*}} : f32
// CHECK: arith.truncf %[[P]] : f32 to bf16
func.func @dequantize(%q: tensor<16xf8E5M2FNUZ>, %s: f32) -> tensor<16xbf16> {
  %x = lowp.dequantize %q, %s : tensor<16xf8E5M2FNUZ>, f32 to tensor<16xbf16>
  return %x : tensor<16xbf16>
}

// -----

// amax: a full reduction of the 1-D view into a zero-initialized 0-d tensor,
// NaN-propagating.
// CHECK-LABEL: func @amax
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<?x8xf16> into tensor<?xf16>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-SAME: ins(%[[FLAT]] : tensor<?xf16>) outs(%[[INIT]] : tensor<f32>)
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: %[[A:.*]] = tensor.extract %[[R]][] : tensor<f32>
// CHECK: return %[[A]]
func.func @amax(%x: tensor<?x8xf16>) -> f32 {
  %a = lowp.amax %x : tensor<?x8xf16>
  return %a : f32
}

// -----

// CHECK-LABEL: func @amax_vector
// CHECK: %[[A:.*]] = math.absf %{{.*}} : vector<8xf32>
// CHECK: vector.reduction <maximumf>, %[[A]] : vector<8xf32> into f32
func.func @amax_vector(%x: vector<8xf32>) -> f32 {
  %a = lowp.amax %x : vector<8xf32>
  return %a : f32
}

// -----

// compute_scale: 448 / 2^1 / amax, clamped to f32's normal range, 1 for a
// zero or non-finite amax; the history's max (default) or element 0.
// CHECK-LABEL: func @compute_scale
// CHECK-DAG: %[[TOP:.*]] = arith.constant 2.240000e+02 : f32
// CHECK: %[[D:.*]] = arith.divf %[[TOP]], %[[AMAX:.*]] : f32
// CHECK: %[[C1:.*]] = arith.minimumf %[[D]], %{{.*}} : f32
// CHECK: %[[C2:.*]] = arith.maximumf %[[C1]], %{{.*}} : f32
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[AMAX]], %{{.*}} : f32
// CHECK: %[[FIN:.*]] = arith.cmpf olt, %[[AMAX]], %{{.*}} : f32
// CHECK: %[[OK:.*]] = arith.andi %[[POS]], %[[FIN]] : i1
// CHECK: arith.select %[[OK]], %[[C2]], %{{.*}} : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: arith.maximumf
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: tensor.extract %{{.*}}[%[[C0]]] : tensor<16xf32>
func.func @compute_scale(%amax: f32, %h: tensor<16xf32>) -> (f32, f32, f32) {
  %0 = lowp.compute_scale %amax for f8E4M3FN margin = 1 : f32
  %1 = lowp.compute_scale %h for f8E5M2 : tensor<16xf32>
  %2 = lowp.compute_scale %h for f8E5M2 most_recent : tensor<16xf32>
  return %0, %1, %2 : f32, f32, f32
}

// -----

// push_amax: the 15 most recent entries move down one slot; the new amax
// goes to slot 0.
// CHECK-LABEL: func @push_amax
// CHECK-SAME: (%[[H:.*]]: tensor<16xf32>, %[[A:.*]]: f32)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16xf32>
// CHECK: %[[OLD:.*]] = tensor.extract_slice %[[H]][0] [15] [1] : tensor<16xf32> to tensor<15xf32>
// CHECK: %[[MOVED:.*]] = tensor.insert_slice %[[OLD]] into %[[E]][1] [15] [1] : tensor<15xf32> into tensor<16xf32>
// CHECK: %[[R:.*]] = tensor.insert %[[A]] into %[[MOVED]][%{{.*}}] : tensor<16xf32>
// CHECK: return %[[R]]
func.func @push_amax(%h: tensor<16xf32>, %a: f32) -> tensor<16xf32> {
  %0 = lowp.push_amax %h, %a : tensor<16xf32>
  return %0 : tensor<16xf32>
}
