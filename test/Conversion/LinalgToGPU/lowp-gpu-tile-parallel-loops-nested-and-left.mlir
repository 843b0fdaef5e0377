// RUN: fp-opt %s -split-input-file -lowp-gpu-tile-parallel-loops=threads=128 | FileCheck %s

// Left to upstream's mapping: a loop with a reduction, and a loop already
// mapped. A parallel loop nested in a tiled one runs in each thread.
// CHECK-LABEL: func @left_alone
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c64) step (%c1) init
// CHECK-NOT: mapping
// CHECK: scf.reduce
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c64) step (%c1) {
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_y, {{.*}}>]}
// CHECK-LABEL: func @nested
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = sequential, {{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
func.func @left_alone(%x: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<64xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %x[%i] : memref<64xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return %s : f32
}
func.func @nested(%x: memref<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
      memref.store %zero, %x[%i, %j] : memref<64x8xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
