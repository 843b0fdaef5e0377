// The naive GPU mapping's tiling (lowp-gpu-tile-parallel-loops: blocks of
// `threads` along the innermost dimension, the last tile guarded), executed
// on the CPU before it becomes kernels (the mapping attributes are ignored
// there, every tile and thread runs in turn): every element is written once
// with what the untiled loop writes, for sizes that are not multiples of the
// tile (1-D 3000, 3-D 3 x 5 x 200 and 2 x 3 x 7 with 128 threads; 1-D 3000
// with 96). Outputs start as -1 (never written by the loops); the reference
// is the same loop untiled. Each case prints the number of elements that
// differ from the reference (0) and the number left unwritten (0).
//
// RUN: fp-opt %s -lowp-gpu-tile-parallel-loops=threads=128 -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %s -lowp-gpu-tile-parallel-loops=threads=96 -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// Negative control: the tiled loop one element short of the reference must
// show a differing and an unwritten element.
// RUN: sed 's/%n_tiled = arith.constant 3000/%n_tiled = arith.constant 2999/' %s \
// RUN: | fp-opt -lowp-gpu-tile-parallel-loops=threads=128 -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s --check-prefix=CONTROL

// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CONTROL: {{[1-9][0-9]*}}
// CONTROL-NEXT: {{[1-9][0-9]*}}

// The value written at an index: a function of every coordinate.
func.func private @value3(%i: index, %j: index, %k: index) -> f32 {
  %a = arith.index_cast %i : index to i32
  %b = arith.index_cast %j : index to i32
  %c = arith.index_cast %k : index to i32
  %c1000 = arith.constant 1000 : i32
  %c10 = arith.constant 10 : i32
  %ab = arith.muli %a, %c1000 : i32
  %bb = arith.muli %b, %c10 : i32
  %s = arith.addi %ab, %bb : i32
  %t = arith.addi %s, %c : i32
  %f = arith.sitofp %t : i32 to f32
  return %f : f32
}

// Elements where out and ref differ, and elements of out still -1.
func.func private @compare(%out: memref<?xf32>, %ref: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  %zero = arith.constant 0 : index
  %minus1 = arith.constant -1.0 : f32
  %d, %u = scf.for %i = %c0 to %n step %c1 iter_args(%dd = %zero, %uu = %zero) -> (index, index) {
    %o = memref.load %out[%i] : memref<?xf32>
    %r = memref.load %ref[%i] : memref<?xf32>
    %ne = arith.cmpf une, %o, %r : f32
    %neg = arith.cmpf oeq, %o, %minus1 : f32
    %d1 = arith.addi %dd, %c1 : index
    %u1 = arith.addi %uu, %c1 : index
    %dn = arith.select %ne, %d1, %dd : index
    %un = arith.select %neg, %u1, %uu : index
    scf.yield %dn, %un : index, index
  }
  vector.print %d : index
  vector.print %u : index
  return
}

func.func private @fill(%m: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %minus1 = arith.constant -1.0 : f32
  // 1-D, 3000 elements (23.4 tiles of 128, 31.25 of 96).
  %n = arith.constant 3000 : index
  %n_tiled = arith.constant 3000 : index
  %out1 = memref.alloc(%n) : memref<?xf32>
  %ref1 = memref.alloc(%n) : memref<?xf32>
  func.call @fill(%out1, %minus1) : (memref<?xf32>, f32) -> ()
  scf.parallel (%i) = (%c0) to (%n_tiled) step (%c1) {
    %v = func.call @value3(%c0, %c0, %i) : (index, index, index) -> f32
    memref.store %v, %out1[%i] : memref<?xf32>
    scf.reduce
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = func.call @value3(%c0, %c0, %i) : (index, index, index) -> f32
    memref.store %v, %ref1[%i] : memref<?xf32>
  }
  func.call @compare(%out1, %ref1) : (memref<?xf32>, memref<?xf32>) -> ()

  // 3-D, 3 x 5 x 200, row-major in a flat buffer.
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c200 = arith.constant 200 : index
  %c3000 = arith.constant 3000 : index
  %out3 = memref.alloc(%c3000) : memref<?xf32>
  %ref3 = memref.alloc(%c3000) : memref<?xf32>
  func.call @fill(%out3, %minus1) : (memref<?xf32>, f32) -> ()
  %view = memref.reinterpret_cast %out3 to offset: [0], sizes: [3, 5, 200], strides: [1000, 200, 1] : memref<?xf32> to memref<3x5x200xf32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c3, %c5, %c200) step (%c1, %c1, %c1) {
    %v = func.call @value3(%i, %j, %k) : (index, index, index) -> f32
    memref.store %v, %view[%i, %j, %k] : memref<3x5x200xf32>
    scf.reduce
  }
  %rview = memref.reinterpret_cast %ref3 to offset: [0], sizes: [3, 5, 200], strides: [1000, 200, 1] : memref<?xf32> to memref<3x5x200xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      scf.for %k = %c0 to %c200 step %c1 {
        %v = func.call @value3(%i, %j, %k) : (index, index, index) -> f32
        memref.store %v, %rview[%i, %j, %k] : memref<3x5x200xf32>
      }
    }
  }
  func.call @compare(%out3, %ref3) : (memref<?xf32>, memref<?xf32>) -> ()

  // 3-D, 2 x 3 x 7: a single partial tile per row.
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c42 = arith.constant 42 : index
  %outs = memref.alloc(%c42) : memref<?xf32>
  %refs = memref.alloc(%c42) : memref<?xf32>
  func.call @fill(%outs, %minus1) : (memref<?xf32>, f32) -> ()
  %sview = memref.reinterpret_cast %outs to offset: [0], sizes: [2, 3, 7], strides: [21, 7, 1] : memref<?xf32> to memref<2x3x7xf32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c2, %c3, %c7) step (%c1, %c1, %c1) {
    %v = func.call @value3(%i, %j, %k) : (index, index, index) -> f32
    memref.store %v, %sview[%i, %j, %k] : memref<2x3x7xf32>
    scf.reduce
  }
  %rsview = memref.reinterpret_cast %refs to offset: [0], sizes: [2, 3, 7], strides: [21, 7, 1] : memref<?xf32> to memref<2x3x7xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c7 step %c1 {
        %v = func.call @value3(%i, %j, %k) : (index, index, index) -> f32
        memref.store %v, %rsview[%i, %j, %k] : memref<2x3x7xf32>
      }
    }
  }
  func.call @compare(%outs, %refs) : (memref<?xf32>, memref<?xf32>) -> ()
  memref.dealloc %out1 : memref<?xf32>
  memref.dealloc %ref1 : memref<?xf32>
  memref.dealloc %out3 : memref<?xf32>
  memref.dealloc %ref3 : memref<?xf32>
  memref.dealloc %outs : memref<?xf32>
  memref.dealloc %refs : memref<?xf32>
  return
}
