// RUN: fp-opt %s -split-input-file -lowp-gpu-tile-parallel-loops=threads=128 | FileCheck %s
// The mapped loops become kernels whose threads run along the innermost
// dimension:
// RUN: fp-opt %s -split-input-file -lowp-gpu-tile-parallel-loops=threads=128 -gpu-map-parallel-loops -convert-parallel-loops-to-gpu -canonicalize | FileCheck %s --check-prefix=LAUNCH
// Loops the pass leaves: lowp-gpu-tile-parallel-loops-nested-and-left.mlir.

// A 1-D loop (a bias vector's conversion): blocks of 128 threads, not 3072
// blocks of one.
// CHECK-LABEL: func @one_dim
// CHECK-NOT: arith.muli
// CHECK: scf.parallel (%[[B:.*]]) = (%c0) to (%c3072) step (%[[T128:c128.*]]) {
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[T128]]) step (%c1) {
// CHECK: %[[I:.*]] = arith.addi %[[T]], %[[B]]
// CHECK: memref.load %{{.*}}[%[[I]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// LAUNCH-LABEL: func @one_dim
// LAUNCH: gpu.launch blocks({{.*}}) in ({{.*}} = %c24, {{.*}} = %c1, {{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c128, {{.*}} = %c1, {{.*}} = %c1)
// LAUNCH: memref.load
func.func @one_dim(%x: memref<3072xf32>, %y: memref<3072xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3072 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<3072xf32>
    %t = arith.truncf %v : f32 to bf16
    memref.store %t, %y[%i] : memref<3072xbf16>
    scf.reduce
  }
  return
}

// -----

// An NCHW activation (64 x 56 x 56): the threads take W, consecutive in
// memory (the tail of 56 of 128 guarded), blocks take C and H.
// CHECK-LABEL: func @three_dims
// The tile sizes are constants, so the kernels' one-iteration loops fold.
// CHECK-NOT: arith.muli
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[W0:.*]]) = (%c0, %c0, %c0) to (%c64, %c56, %c56) step (%c1, %c1, %[[W128:c128.*]]) {
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[W1:.*]]) = {{.*}} to (%c1, %c1, %[[W128]])
// CHECK: %[[W:.*]] = arith.addi %[[W1]], %[[W0]]
// CHECK: arith.cmpi ult, %{{.*}}, %c56
// CHECK: scf.if
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %[[W]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = sequential, {{.*}}>, #gpu.loop_dim_map<processor = sequential, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>, #gpu.loop_dim_map<processor = block_y, {{.*}}>, #gpu.loop_dim_map<processor = block_z, {{.*}}>]}
// LAUNCH-LABEL: func @three_dims
// LAUNCH: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in ({{.*}} = %c64, {{.*}} = %c56, {{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c128, {{.*}} = %c1, {{.*}} = %c1)
// LAUNCH: memref.load %{{.*}}[%[[BX]], %[[BY]], %[[TX]]]
func.func @three_dims(%x: memref<64x56x56xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c56 = arith.constant 56 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%c, %h, %w) = (%c0, %c0, %c0) to (%c64, %c56, %c56) step (%c1, %c1, %c1) {
    %v = memref.load %x[%c, %h, %w] : memref<64x56x56xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %x[%c, %h, %w] : memref<64x56x56xf32>
    scf.reduce
  }
  return
}

