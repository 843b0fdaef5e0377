// RUN: fp-opt %s -split-input-file -lowp-gpu-fuse-parallel-loops | FileCheck %s

// Bufferization's allocations between loops move to the top of the block;
// the fill, the reduction it initializes (one thread per element) and the
// cast of the result become one loop; a loop over another space stays.

// CHECK-LABEL: func.func @fill_reduce_cast
// CHECK: memref.alloc
// CHECK: memref.alloc
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK:   memref.store %{{.*}}, %[[ACC:.*]][%[[I]]]
// CHECK:   scf.for
// CHECK:   arith.truncf
// CHECK-NOT: scf.parallel
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @fill_reduce_cast(%x: memref<8x16xf32>, %y: memref<8xbf16>, %z: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %zero, %acc[%i] : memref<8xf32>
    scf.reduce
  }
  %tmp = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %a = memref.load %acc[%i] : memref<8xf32>
      %v = memref.load %x[%i, %k] : memref<8x16xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %acc[%i] : memref<8xf32>
    }
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %a = memref.load %acc[%i] : memref<8xf32>
    %t = arith.truncf %a : f32 to bf16
    memref.store %t, %y[%i] : memref<8xbf16>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %z[%i] : memref<4xf32>
    scf.reduce
  }
  memref.dealloc %acc : memref<8xf32>
  memref.dealloc %tmp : memref<8xf32>
  return
}

// -----

// The second loop reads a neighbour's element of what the first wrote: not
// the same iteration, so the loops stay two kernels.

// CHECK-LABEL: func.func @shifted_read
// CHECK: scf.parallel
// CHECK: scf.parallel
func.func @shifted_read(%x: memref<9xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<9xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %zero, %t[%i] : memref<9xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %j = arith.addi %i, %c1 : index
    %v = memref.load %t[%j] : memref<9xf32>
    memref.store %v, %y[%i] : memref<8xf32>
    scf.reduce
  }
  memref.dealloc %t : memref<9xf32>
  return
}
