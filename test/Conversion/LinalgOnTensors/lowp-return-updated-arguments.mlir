// RUN: fp-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(lowp-return-updated-arguments))' | FileCheck %s

// The clone ownership-based deallocation returns for an argument updated in
// place becomes the argument itself.
// CHECK-LABEL: func.func @updated_in_place
//  CHECK-SAME:   (%[[W:[^:]+]]: memref<64xf32>, %[[M:[^:]+]]: memref<64xf32>)
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return %[[W]], %[[M]]
func.func @updated_in_place(%w: memref<64xf32>, %m: memref<64xf32>)
    -> (memref<64xf32> {lowp.updates = 0 : i64}, memref<64xf32> {lowp.updates = 1 : i64}) {
  %0 = bufferization.clone %w : memref<64xf32> to memref<64xf32>
  %1 = bufferization.clone %m : memref<64xf32> to memref<64xf32>
  return %0, %1 : memref<64xf32>, memref<64xf32>
}

// -----

// Kept: a clone of an argument the result does not update, and one for a
// result without the marker (the caller owns and frees what they return).
// CHECK-LABEL: func.func @other_clones_kept
//       CHECK:   %[[A:.+]] = bufferization.clone %arg1
//       CHECK:   %[[B:.+]] = bufferization.clone %arg0
//       CHECK:   return %[[A]], %[[B]]
func.func @other_clones_kept(%w: memref<64xf32>, %m: memref<64xf32>)
    -> (memref<64xf32> {lowp.updates = 0 : i64}, memref<64xf32>) {
  %0 = bufferization.clone %m : memref<64xf32> to memref<64xf32>
  %1 = bufferization.clone %w : memref<64xf32> to memref<64xf32>
  return %0, %1 : memref<64xf32>, memref<64xf32>
}
