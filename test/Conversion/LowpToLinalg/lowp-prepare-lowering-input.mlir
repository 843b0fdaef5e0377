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

// -----

// A cast chain whose ends contradict each other fails on every execution
// (generated program 7156 of the sanitizer campaign: upstream's cast folding
// turned it into a memref.cast that does not verify). A located error.
func.func @impossible_cast(%a: tensor<1xf32>) -> tensor<4xf32> {
  // expected-note @below {{the value is defined here}}
  %v = arith.negf %a : tensor<1xf32>
  %d = tensor.cast %v : tensor<1xf32> to tensor<?xf32>
  // expected-error @below {{casts a value of type 'tensor<1xf32>' to 'tensor<4xf32>': dimension 0 is 1, not 4, on every execution}}
  %r = tensor.cast %d : tensor<?xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The same on memrefs, two dimensions, the second contradicted; the value
// is the function's argument.
// expected-note @below {{the value is defined here}}
func.func @impossible_memref_cast(%m: memref<2x3xf32>) -> memref<2x5xf32> {
  %d = memref.cast %m : memref<2x3xf32> to memref<?x?xf32>
  // expected-error @below {{casts a value of type 'memref<2x3xf32>' to 'memref<2x5xf32>': dimension 1 is 3, not 5, on every execution}}
  %r = memref.cast %d : memref<?x?xf32> to memref<2x5xf32>
  return %r : memref<2x5xf32>
}

// -----

// Casts that can hold are left alone: to a dynamic shape and back to the
// same static one, and a dynamic source refined to a static shape (checked
// at run time, not here).
// CHECK-LABEL: func.func @possible_casts
// CHECK: tensor.cast %{{.*}} : tensor<3xf32> to tensor<?xf32>
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<3xf32>
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<7xf32>
func.func @possible_casts(%a: tensor<3xf32>, %b: tensor<?xf32>) -> (tensor<3xf32>, tensor<7xf32>) {
  %d = tensor.cast %a : tensor<3xf32> to tensor<?xf32>
  %s = tensor.cast %d : tensor<?xf32> to tensor<3xf32>
  %t = tensor.cast %b : tensor<?xf32> to tensor<7xf32>
  return %s, %t : tensor<3xf32>, tensor<7xf32>
}
