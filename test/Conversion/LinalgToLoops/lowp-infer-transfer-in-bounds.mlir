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

// -----

// i1 lanes are bytes in a memref but bits in an LLVM vector in memory: an
// i1 transfer is never marked in bounds (it would become a plain vector
// store of the packed bits), it becomes one scalar store per lane. In
// bounds here (the loop's last vector ends at 16): unguarded.
// CHECK-LABEL: func.func @i1_write
// CHECK-NOT: in_bounds
// CHECK-NOT: vector.transfer_write
// CHECK: affine.for %[[J:.*]] = 0 to 16 step 8 {
// CHECK: %[[M:.*]] = arith.cmpi eq
// CHECK: %[[E0:.*]] = vector.extract %[[M]][0] : i1 from vector<8xi1>
// CHECK-NEXT: memref.store %[[E0]], %{{.*}}[%[[J]]] : memref<16xi1>
// CHECK: %[[J7:.*]] = arith.addi %[[J]], %c7 : index
// CHECK-NEXT: %[[E7:.*]] = vector.extract %[[M]][7] : i1 from vector<8xi1>
// CHECK-NEXT: memref.store %[[E7]], %{{.*}}[%[[J7]]] : memref<16xi1>
// CHECK-NOT: scf.if
// CHECK-NOT: vector.transfer_write
func.func @i1_write(%a: memref<16xi64>, %m: memref<16xi1>, %p: i64) {
  %pad = arith.constant 0 : i64
  %pv = vector.broadcast %p : i64 to vector<8xi64>
  affine.for %j = 0 to 16 step 8 {
    %v = vector.transfer_read %a[%j], %pad : memref<16xi64>, vector<8xi64>
    %c = arith.cmpi eq, %v, %pv : vector<8xi64>
    vector.transfer_write %c, %m[%j] : vector<8xi1>, memref<16xi1>
  }
  return
}

// -----

// Past the end (the loop's last vector reads 16..23 of 20) or along a
// dynamic dimension: each lane guarded by its index against the size, the
// padding where it is out of bounds; a masked lane by its mask bit too.
// CHECK-LABEL: func.func @i1_guarded
// CHECK-NOT: vector.transfer_read
// CHECK: affine.for %[[J:.*]] = 0 to 20 step 8 {
// CHECK: %[[C:.*]] = arith.cmpi ult, %[[J]], %c20 : index
// CHECK-NEXT: %[[L0:.*]] = scf.if %[[C]] -> (i1) {
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}, %[[J]]] : memref<4x20xi1>
// CHECK: } else {
// CHECK-NEXT: scf.yield %false : i1
// CHECK: %[[D:.*]] = memref.dim %{{.*}}, %c0 : memref<?xi1>
// CHECK-NEXT: %[[C2:.*]] = arith.cmpi ult, %[[J]], %[[D]] : index
// CHECK-NEXT: %[[B:.*]] = vector.extract %{{.*}}[0] : i1 from vector<8xi1>
// CHECK-NEXT: %[[G:.*]] = arith.andi %[[C2]], %[[B]] : i1
// CHECK-NEXT: scf.if %[[G]] {
// CHECK-NEXT: memref.store %[[L0]], %{{.*}}[%[[J]]] : memref<?xi1>
// CHECK-NOT: vector.transfer_write
func.func @i1_guarded(%m: memref<4x20xi1>, %d: memref<?xi1>, %i: index, %mask: vector<8xi1>) {
  %false = arith.constant false
  affine.for %j = 0 to 20 step 8 {
    %v = vector.transfer_read %m[%i, %j], %false : memref<4x20xi1>, vector<8xi1>
    vector.transfer_write %v, %d[%j], %mask : vector<8xi1>, memref<?xi1>
  }
  return
}

// -----

// Along a dimension followed by unit dimensions: stored along it in place
// (no collapsed view); a broadcast read of one i1 is one load.
// (The broadcast's lanes fold into the loaded value.)
// CHECK-LABEL: func.func @i1_maps
// CHECK-NOT: collapse_shape
// CHECK: affine.for %[[J:.*]] = 0 to 16 step 8 {
// CHECK-NEXT: %[[E:.*]] = memref.load %{{.*}}[%c0, %c0, %c0] : memref<1x16x1xi1>
// CHECK-NOT: memref.load
// CHECK-NEXT: memref.store %[[E]], %{{.*}}[%c0, %[[J]], %c0] : memref<1x16x1xi1>
// CHECK: %[[J7:.*]] = arith.addi %[[J]], %c7 : index
// CHECK-NEXT: memref.store %[[E]], %{{.*}}[%c0, %[[J7]], %c0] : memref<1x16x1xi1>
// CHECK-NOT: vector.transfer
func.func @i1_maps(%m: memref<1x16x1xi1>, %n: memref<1x16x1xi1>) {
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  affine.for %j = 0 to 16 step 8 {
    %v = vector.transfer_read %m[%c0, %c0, %c0], %false {permutation_map = affine_map<(d0, d1, d2) -> (0)>} : memref<1x16x1xi1>, vector<8xi1>
    vector.transfer_write %v, %n[%c0, %j, %c0] {permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : vector<8xi1>, memref<1x16x1xi1>
  }
  return
}

// -----

// Byte-sized integers keep the vector form and are marked in bounds; i1
// transfers on tensors (not memory yet) and 2-D ones (affine-super-vectorize
// makes none here) are left alone (the 2-D one's constant row index 0 is
// in bounds by upstream's fold, not by this pass).
// CHECK-LABEL: func.func @i1_left_alone
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : memref<16xi8>, vector<8xi8>
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : tensor<16xi1>, vector<8xi1>
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, false]} : memref<4x16xi1>, vector<2x8xi1>
// CHECK-NOT: memref.load
func.func private @use(vector<8xi8>, vector<8xi1>, vector<2x8xi1>)
func.func @i1_left_alone(%a: memref<16xi8>, %t: tensor<16xi1>, %m: memref<4x16xi1>) {
  %z = arith.constant 0 : i8
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  affine.for %j = 0 to 16 step 8 {
    %v = vector.transfer_read %a[%j], %z : memref<16xi8>, vector<8xi8>
    %w = vector.transfer_read %t[%j], %false : tensor<16xi1>, vector<8xi1>
    %u = vector.transfer_read %m[%c0, %j], %false : memref<4x16xi1>, vector<2x8xi1>
    func.call @use(%v, %w, %u) : (vector<8xi8>, vector<8xi1>, vector<2x8xi1>) -> ()
  }
  return
}
