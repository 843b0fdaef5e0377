// RUN: fp-opt %s -lowp-promote-reduction-accumulators -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-promote-reduction-accumulators -split-input-file \
// RUN:   | fp-opt -affine-super-vectorize="virtual-vector-size=8 vectorize-reductions=true" -split-input-file \
// RUN:   | FileCheck %s --check-prefix=VEC

// A row sum as convert-linalg-to-affine-loops writes it: the accumulator
// is loaded before the loop, carried, stored after it.
// CHECK-LABEL: func @row_sum
// CHECK: affine.for %[[I:.*]] = 0 to 128 {
// CHECK-NEXT: %[[INIT:.*]] = affine.load %[[Y:.*]][%[[I]]] : memref<128xf32>
// CHECK-NEXT: %[[R:.*]] = affine.for %[[J:.*]] = 0 to 768 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT: %[[A:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[ACC]] : f32
// CHECK-NEXT: affine.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: affine.store %[[R]], %[[Y]][%[[I]]] : memref<128xf32>
// Then the affine vectorizer makes it a vector accumulator and one
// horizontal reduction per row.
// VEC-LABEL: func @row_sum
// VEC: affine.for %{{.*}} = 0 to 768 step 8 iter_args(%{{.*}} = %{{.*}}) -> (vector<8xf32>)
// VEC: arith.addf {{.*}} : vector<8xf32>
// VEC: vector.reduction <add>, %{{.*}} : vector<8xf32> into f32
func.func @row_sum(%x: memref<128x768xf32>) -> memref<128xf32> {
  %y = memref.alloc() : memref<128xf32>
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 768 {
      %a = affine.load %x[%i, %j] : memref<128x768xf32>
      %acc = affine.load %y[%i] : memref<128xf32>
      %s = arith.addf %a, %acc : f32
      affine.store %s, %y[%i] : memref<128xf32>
    }
  }
  return %y : memref<128xf32>
}

// -----

// Two accumulators of one loop (a var_mean generic): both are carried. The
// row length (100) is no multiple of 8: the vectorizer masks the tail with
// the reduction's neutral element.
// CHECK-LABEL: func @two_results
// CHECK: affine.for %{{.*}} = 0 to 100 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
// CHECK-NOT: affine.store
// CHECK: affine.yield
// CHECK: affine.store
// CHECK: affine.store
// VEC-LABEL: func @two_results
// VEC: vector.create_mask
// VEC: vector.reduction <maximumf>
// VEC: vector.reduction <add>
func.func @two_results(%x: memref<64x100xf32>) -> (memref<64xf32>, memref<64xf32>) {
  %m = memref.alloc() : memref<64xf32>
  %s = memref.alloc() : memref<64xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 100 {
      %a = affine.load %x[%i, %j] : memref<64x100xf32>
      %m0 = affine.load %m[%i] : memref<64xf32>
      %s0 = affine.load %s[%i] : memref<64xf32>
      %m1 = arith.maximumf %a, %m0 : f32
      %s1 = arith.addf %a, %s0 : f32
      affine.store %m1, %m[%i] : memref<64xf32>
      affine.store %s1, %s[%i] : memref<64xf32>
    }
  }
  return %m, %s : memref<64xf32>, memref<64xf32>
}

// -----

// Reduction over the two inner dimensions: the innermost loop carries the
// accumulator, then the middle one does.
// CHECK-LABEL: func @two_reduction_dims
// CHECK: affine.for %{{.*}} = 0 to 16 iter_args
// CHECK: affine.for %{{.*}} = 0 to 32 iter_args
func.func @two_reduction_dims(%x: memref<8x16x32xf32>) -> memref<8xf32> {
  %y = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 32 {
        %a = affine.load %x[%i, %j, %k] : memref<8x16x32xf32>
        %acc = affine.load %y[%i] : memref<8xf32>
        %s = arith.addf %a, %acc : f32
        affine.store %s, %y[%i] : memref<8xf32>
      }
    }
  }
  return %y : memref<8xf32>
}

// -----

// Not promoted: the input may alias the accumulator (two function
// arguments), so a store might be read back in a later iteration.
// CHECK-LABEL: func @may_alias
// CHECK-NOT: iter_args
func.func @may_alias(%x: memref<128x768xf32>, %y: memref<128xf32>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 768 {
      %a = affine.load %x[%i, %j] : memref<128x768xf32>
      %acc = affine.load %y[%i] : memref<128xf32>
      %s = arith.addf %a, %acc : f32
      affine.store %s, %y[%i] : memref<128xf32>
    }
  }
  return
}

// -----

// Not promoted: another write in the loop, an index that moves with the
// loop, a load after the store, and a bf16 accumulator (its rounding
// order would change once vectorized).
// CHECK-LABEL: func @not_accumulators
// CHECK-NOT: iter_args
func.func @not_accumulators(%x: memref<16x32xf32>, %xb: memref<16x32xbf16>) {
  %y = memref.alloc() : memref<16xf32>
  %z = memref.alloc() : memref<16x32xf32>
  %w = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xbf16>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %a = affine.load %x[%i, %j] : memref<16x32xf32>
      %acc = affine.load %y[%i] : memref<16xf32>
      %s = arith.addf %a, %acc : f32
      affine.store %s, %y[%i] : memref<16xf32>
      affine.store %s, %z[%i, %j] : memref<16x32xf32>
    }
    affine.for %j = 0 to 16 {
      %acc = affine.load %w[%j] : memref<16xf32>
      %s = arith.addf %acc, %acc : f32
      affine.store %s, %w[%j] : memref<16xf32>
    }
    affine.for %j = 0 to 32 {
      %a = affine.load %x[%i, %j] : memref<16x32xf32>
      affine.store %a, %w[%i] : memref<16xf32>
      %acc = affine.load %w[%i] : memref<16xf32>
      %s = arith.addf %a, %acc : f32
      memref.store %s, %y[%i] : memref<16xf32>
    }
    affine.for %j = 0 to 32 {
      %a = affine.load %xb[%i, %j] : memref<16x32xbf16>
      %acc = affine.load %b[%i] : memref<16xbf16>
      %s = arith.addf %a, %acc : bf16
      affine.store %s, %b[%i] : memref<16xbf16>
    }
  }
  return
}

// -----

// A causal mask's `j <= i` inside a row reduction (an attention softmax's
// max): the induction variable is used as a value. The accumulator stays
// in memory: MLIR 22's affine-super-vectorize crashes on such a reduction
// loop once it is carried (utils/check_no_error_on_success.py found it),
// and could not vectorize it.
// CHECK-LABEL: func @causal_max
//       CHECK:   affine.for %[[I:.*]] = 0 to 8 {
//   CHECK-NOT:     iter_args
//       CHECK:     affine.load %arg1[%[[I]]]
//       CHECK:     arith.cmpi sge, %[[I]], %{{.*}} : index
//       CHECK:     affine.store %{{.*}}, %arg1[%[[I]]]
// VEC-LABEL: func @causal_max
//       VEC:   arith.cmpi sge
func.func @causal_max(%x: memref<8x8xf32>, %m: memref<8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %x[%i, %j] : memref<8x8xf32>
      %acc = affine.load %m[%i] : memref<8xf32>
      %keep = arith.cmpi sge, %i, %j : index
      %v = arith.select %keep, %a, %ninf : f32
      %r = arith.maximumf %v, %acc : f32
      affine.store %r, %m[%i] : memref<8xf32>
    }
  }
  return
}
