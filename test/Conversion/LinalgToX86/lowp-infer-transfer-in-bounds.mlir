// RUN: fp-opt %s -lowp-infer-transfer-in-bounds -split-input-file | FileCheck %s

// The last vector of the loop still fits: in bounds.
// CHECK-LABEL: func.func @fits
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : memref<4x128xbf16>, vector<16xbf16>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<16xbf16>, memref<4x128xbf16>
func.func @fits(%m: memref<4x128xbf16>, %i: index) {
  %p = arith.constant 0.0 : bf16
  affine.for %j = 0 to 128 step 16 {
    %v = vector.transfer_read %m[%i, %j], %p : memref<4x128xbf16>, vector<16xbf16>
    vector.transfer_write %v, %m[%i, %j] : vector<16xbf16>, memref<4x128xbf16>
  }
  return
}

// -----

// A row of 3 read 8 lanes at a time runs past it: left masked.
// CHECK-LABEL: func.func @runs_past
// CHECK-NOT: in_bounds
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<4x3xbf16>, vector<8xbf16>
func.func @runs_past(%m: memref<4x3xbf16>, %i: index) -> vector<8xbf16> {
  %p = arith.constant 0.0 : bf16
  %c0 = arith.constant 0 : index
  %v = affine.for %j = 0 to 3 step 8 iter_args(%a = %p) -> (bf16) {
    affine.yield %a : bf16
  }
  %r = vector.transfer_read %m[%i, %c0], %p : memref<4x3xbf16>, vector<8xbf16>
  return %r : vector<8xbf16>
}

// -----

// Along a dimension followed only by unit dimensions (a keep-dim reduction
// result): contiguous, read and written through a collapsed view as minor
// identities, then in bounds.
// CHECK-LABEL: func.func @keep_dim
// CHECK: %[[V:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<1x128x1xbf16> into memref<1x128xbf16>
// CHECK: vector.transfer_read %[[V]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<1x128xbf16>, vector<8xbf16>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<8xbf16>, memref<1x128xbf16>
// CHECK-NOT: permutation_map
func.func @keep_dim(%m: memref<1x128x1xbf16>) {
  %p = arith.constant 0.0 : bf16
  %c0 = arith.constant 0 : index
  affine.for %j = 0 to 128 step 8 {
    %v = vector.transfer_read %m[%c0, %j, %c0], %p {permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<1x128x1xbf16>, vector<8xbf16>
    vector.transfer_write %v, %m[%c0, %j, %c0] {permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : vector<8xbf16>, memref<1x128x1xbf16>
  }
  return
}

// -----

// Not contiguous (the dimension after the vector's is not a unit one, or a
// unit dimension indexed by a non-constant): left alone.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: collapse_shape
// CHECK: permutation_map
// CHECK: permutation_map
func.func @strided(%m: memref<1x128x2xbf16>, %n: memref<1x128x1xbf16>, %k: index) -> (vector<8xbf16>, vector<8xbf16>) {
  %p = arith.constant 0.0 : bf16
  %c0 = arith.constant 0 : index
  %a = vector.transfer_read %m[%c0, %c0, %c0], %p {permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<1x128x2xbf16>, vector<8xbf16>
  %b = vector.transfer_read %n[%c0, %c0, %k], %p {permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<1x128x1xbf16>, vector<8xbf16>
  return %a, %b : vector<8xbf16>, vector<8xbf16>
}

// -----

// Broadcasts and dynamic or strided memrefs are left alone.
// CHECK-LABEL: func.func @other_maps
// CHECK-NOT: collapse_shape
func.func @other_maps(%m: memref<1x128x1xbf16>, %d: memref<1x?x1xbf16>) -> (vector<8xbf16>, vector<8xbf16>) {
  %p = arith.constant 0.0 : bf16
  %c0 = arith.constant 0 : index
  %a = vector.transfer_read %m[%c0, %c0, %c0], %p {permutation_map = affine_map<(d0, d1, d2) -> (0)>} : memref<1x128x1xbf16>, vector<8xbf16>
  %b = vector.transfer_read %d[%c0, %c0, %c0], %p {permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<1x?x1xbf16>, vector<8xbf16>
  return %a, %b : vector<8xbf16>, vector<8xbf16>
}
