// RUN: fp-opt %s -split-input-file -lowp-infer-transfer-in-bounds | FileCheck %s

// The loop's last vector (j = 112) ends at 128, the dimension's size: in
// bounds.
// CHECK-LABEL: func.func @fits
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : memref<64x128xbf16>, vector<16xbf16>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<16xbf16>, memref<64x128xbf16>
func.func @fits(%m: memref<64x128xbf16>, %i: index) {
  %p = arith.constant 0.0 : bf16
  affine.for %j = 0 to 128 step 16 {
    %v = vector.transfer_read %m[%i, %j], %p : memref<64x128xbf16>, vector<16xbf16>
    vector.transfer_write %v, %m[%i, %j] : vector<16xbf16>, memref<64x128xbf16>
  }
  return
}

// -----

// A last vector that would run past the end (j = 120 reads 120..135 of
// 130) keeps its mask; so does a dynamic dimension.
// CHECK-LABEL: func.func @tail
// CHECK-NOT: in_bounds = [true]
func.func @tail(%m: memref<4x130xf32>, %d: memref<4x?xf32>, %i: index) {
  %p = arith.constant 0.0 : f32
  affine.for %j = 0 to 130 step 8 {
    %v = vector.transfer_read %m[%i, %j], %p : memref<4x130xf32>, vector<16xf32>
    %w = vector.transfer_read %d[%i, %j], %p : memref<4x?xf32>, vector<16xf32>
  }
  return
}
