// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -lowp-prepare-lowering-input | FileCheck %s

// ml_program.global_load_const (no bufferization model in MLIR 22) becomes
// ml_program.global_load of the same immutable global; loads and stores of
// mutable globals and everything else are left alone.
// CHECK-LABEL: func.func @globals
//       CHECK:   %[[S:.*]] = ml_program.global_load @step : tensor<i64>
//       CHECK:   ml_program.global_store @step = %[[S]] : tensor<i64>
//       CHECK:   %[[B:.*]] = ml_program.global_load @bias : tensor<16xf32>
//   CHECK-NOT:   global_load_const
//       CHECK:   %[[Y:.*]] = arith.addf %arg0, %[[B]] : tensor<16xf32>
//       CHECK:   return %[[Y]]
ml_program.global private mutable @step(dense<0> : tensor<i64>) : tensor<i64>
ml_program.global private @bias(dense<0.5> : tensor<16xf32>) : tensor<16xf32>
func.func @globals(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = ml_program.global_load @step : tensor<i64>
  ml_program.global_store @step = %s : tensor<i64>
  %b = ml_program.global_load_const @bias : tensor<16xf32>
  %y = arith.addf %x, %b : tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// A module without unregistered ops or globals is unchanged.
// CHECK-LABEL: func.func @plain
//  CHECK-NEXT:   math.exp %arg0 : tensor<4xf32>
//  CHECK-NEXT:   return
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = math.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// An unregistered op: one located error, nothing rewritten.
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'torch.aten.exp' is not a registered op: the lowering pipelines cannot compile it}}
  %y = "torch.aten.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A front end's free of a buffer its function allocated is erased (the
// pipelines' ownership-based deallocation frees it at its last use and
// rejects IR that already frees buffers); the allocation stays.
// CHECK-LABEL: func.func @own_buffer
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<16xf32>
//       CHECK:   linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<16xf32>)
//       CHECK:   memref.copy %[[A]], %arg0
//   CHECK-NOT:   memref.dealloc
//       CHECK:   return
func.func @own_buffer(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// A free of an argument cannot be taken over: one located error.
func.func @free_argument(%m: memref<16xf32>) {
  // expected-error @below {{frees a buffer its function did not allocate (memref.alloc): the lowering pipelines free buffers themselves (ownership-based deallocation) and cannot take a free of an argument or a callee's result}}
  memref.dealloc %m : memref<16xf32>
  return
}
