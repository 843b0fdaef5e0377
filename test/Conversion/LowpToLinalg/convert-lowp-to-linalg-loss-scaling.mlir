// RUN: fp-opt %s -convert-lowp-to-linalg -split-input-file | FileCheck %s

// lowp.scale on an f16 tensor: the product is computed in f32 (the wider of
// the element and scale types) and rounded back once.

// CHECK-LABEL: func.func @scale_f16_tensor(
// CHECK-SAME:      %[[S:.*]]: f32, %[[X:.*]]: tensor<2x3xf16>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[X]], %[[S]] : tensor<2x3xf16>, f32)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %[[F:.*]]: f32, %{{.*}}: f16):
// CHECK:           %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[W]], %[[F]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
// CHECK:         return %[[R]]
func.func @scale_f16_tensor(%s: f32, %x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %r = lowp.scale %s, %x : f32, tensor<2x3xf16>
  return %r : tensor<2x3xf16>
}

// -----

// lowp.unscale: one reciprocal in the scale's type, then products; f32
// tensors need no conversion, vectors broadcast the factor, scalars multiply.

// CHECK-LABEL: func.func @unscale_mixed(
// CHECK-SAME:      %[[S:.*]]: f32, %[[A:.*]]: tensor<4xf32>, %[[V:.*]]: vector<2x2xf32>, %[[C:.*]]: f64)
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[RCP:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK-NOT:     arith.divf
// CHECK:         %[[RA:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[RCP]] : tensor<4xf32>, f32)
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:       arith.truncf
// CHECK:         %[[B:.*]] = vector.broadcast %[[RCP]] : f32 to vector<2x2xf32>
// CHECK-NEXT:    %[[RV:.*]] = arith.mulf %[[V]], %[[B]] : vector<2x2xf32>
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[RCP]] : f32 to f64
// CHECK-NEXT:    %[[RC:.*]] = arith.mulf %[[C]], %[[W]] : f64
// CHECK-NEXT:    return %[[RA]], %[[RV]], %[[RC]]
func.func @unscale_mixed(%s: f32, %a: tensor<4xf32>, %v: vector<2x2xf32>, %c: f64)
    -> (tensor<4xf32>, vector<2x2xf32>, f64) {
  %r:3 = lowp.unscale %s, %a, %v, %c : f32, tensor<4xf32>, vector<2x2xf32>, f64
  return %r#0, %r#1, %r#2 : tensor<4xf32>, vector<2x2xf32>, f64
}

// -----

// lowp.all_finite: `|x| < inf` (false for inf and NaN), reduced with `and`
// by linalg.reduce on tensors and vector.reduction on vectors.

// CHECK-LABEL: func.func @all_finite(
// CHECK-SAME:      %[[T:.*]]: tensor<4x8xf16>, %[[V:.*]]: vector<4xf32>, %[[Z:.*]]: tensor<f32>)
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[TRUE]] : i1)
// CHECK:         %[[RED:.*]] = linalg.reduce ins(%[[T]] : tensor<4x8xf16>) outs(%[[INIT]] : tensor<i1>) dimensions = [0, 1]
// CHECK-NEXT:      (%[[X:.*]]: f16, %[[ACC:.*]]: i1) {
// CHECK-NEXT:        %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-NEXT:        %[[ABS:.*]] = math.absf %[[X]] : f16
// CHECK-NEXT:        %[[FIN:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f16
// CHECK-NEXT:        %[[AND:.*]] = arith.andi %[[ACC]], %[[FIN]] : i1
// CHECK-NEXT:        linalg.yield %[[AND]] : i1
// CHECK:         %[[R0:.*]] = tensor.extract %[[RED]][] : tensor<i1>
// CHECK:         %[[LANES:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT:    %[[R1:.*]] = vector.reduction <and>, %[[LANES]] : vector<4xi1> into i1
// CHECK-NEXT:    %[[A01:.*]] = arith.andi %[[R0]], %[[R1]] : i1
// CHECK-NEXT:    %[[E:.*]] = tensor.extract %[[Z]][] : tensor<f32>
// CHECK:         %[[R2:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[ALL:.*]] = arith.andi %[[A01]], %[[R2]] : i1
// CHECK-NEXT:    return %[[ALL]] : i1
func.func @all_finite(%t: tensor<4x8xf16>, %v: vector<4xf32>, %z: tensor<f32>) -> i1 {
  %ok = lowp.all_finite %t, %v, %z : tensor<4x8xf16>, vector<4xf32>, tensor<f32>
  return %ok : i1
}

// -----

// lowp.update_scale: GradScaler's rule in scalar arith, then the clamp.

// CHECK-LABEL: func.func @update_scale(
// CHECK-SAME:      %[[S:.*]]: f32, %[[N:.*]]: i64, %[[OK:.*]]: i1)
// CHECK-NEXT:    %[[GROWTH:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[GROWN:.*]] = arith.mulf %[[S]], %[[GROWTH]] : f32
// CHECK-NEXT:    %[[BACKOFF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[BACKED:.*]] = arith.mulf %[[S]], %[[BACKOFF]] : f32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[N]], %[[C1]] : i64
// CHECK-NEXT:    %[[INTERVAL:.*]] = arith.constant 7 : i64
// CHECK-NEXT:    %[[AT:.*]] = arith.cmpi sge, %[[NEXT]], %[[INTERVAL]] : i64
// CHECK-NEXT:    %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT:    %[[ABS:.*]] = math.absf %[[GROWN]] : f32
// CHECK-NEXT:    %[[GFIN:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f32
// CHECK-NEXT:    %[[GROWS:.*]] = arith.andi %[[AT]], %[[GFIN]] : i1
// CHECK-NEXT:    %[[FS:.*]] = arith.select %[[GROWS]], %[[GROWN]], %[[S]] : f32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[FC:.*]] = arith.select %[[AT]], %[[C0]], %[[NEXT]] : i64
// CHECK-NEXT:    %[[NS:.*]] = arith.select %[[OK]], %[[FS]], %[[BACKED]] : f32
// CHECK-NEXT:    %[[C0B:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[NC:.*]] = arith.select %[[OK]], %[[FC]], %[[C0B]] : i64
// CHECK-NEXT:    %[[MIN:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[LO:.*]] = arith.maximumf %[[NS]], %[[MIN]] : f32
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant 1.638400e+04 : f32
// CHECK-NEXT:    %[[HI:.*]] = arith.minimumf %[[LO]], %[[MAX]] : f32
// CHECK-NEXT:    return %[[HI]], %[[NC]] : f32, i64
func.func @update_scale(%s: f32, %n: i64, %ok: i1) -> (f32, i64) {
  %s1, %n1 = lowp.update_scale %s, %n, %ok
      {growth_interval = 7 : i64, min_scale = 1.0 : f64, max_scale = 16384.0 : f64} : f32, i64
  return %s1, %n1 : f32, i64
}
