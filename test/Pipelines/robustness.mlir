// IR the passes do not understand passes through every decision pass and the
// pipeline unchanged, never a crash: unregistered ops, linalg on buffers,
// unranked, complex, integer and f64 tensors, control flow.
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-insert-fp32-islands | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-infer-precision=low=f16 | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-infer-precision=low=bf16 | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-materialize-loss-scaling | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-select-fp8-formats=target=sm_90 | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-auto-mixed-precision=target=sm_90 | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-auto-mixed-precision="target=sm_90 policy=fp8" | FileCheck %s
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file -lowp-tile-for-mxu=target=tpu-v5e | FileCheck %s

// CHECK-LABEL: func @unregistered
// CHECK: %[[A:.*]]:2 = "test.two"() : () -> (f32, f32)
// CHECK: "test.sink"(%[[A]]#0, %arg0) : (f32, tensor<4xf32>) -> tensor<4xf32>
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "test.two"() : () -> (f32, f32)
  %1 = "test.sink"(%0#0, %x) : (f32, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @buffers
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
// CHECK-NEXT: return
func.func @buffers(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// CHECK-LABEL: func @odd_types
// CHECK: math.exp %arg0 : tensor<*xf32>
// CHECK: complex.exp %arg1 : complex<f32>
// CHECK: arith.addi %arg2, %arg2 : tensor<4xi32>
// CHECK: linalg.matmul ins(%arg3, %arg3 : tensor<4x4xf64>, tensor<4x4xf64>)
func.func @odd_types(%u: tensor<*xf32>, %c: complex<f32>, %i: tensor<4xi32>, %d: tensor<4x4xf64>)
    -> (tensor<*xf32>, complex<f32>, tensor<4xi32>, tensor<4x4xf64>) {
  %0 = math.exp %u : tensor<*xf32>
  %1 = complex.exp %c : complex<f32>
  %2 = arith.addi %i, %i : tensor<4xi32>
  %e = tensor.empty() : tensor<4x4xf64>
  %3 = linalg.matmul ins(%d, %d : tensor<4x4xf64>, tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) -> tensor<4x4xf64>
  return %0, %1, %2, %3 : tensor<*xf32>, complex<f32>, tensor<4xi32>, tensor<4x4xf64>
}

// -----

// Loop-carried tensors keep the loop's types (the loop is a boundary).
// CHECK-LABEL: func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0) -> (tensor<4xf32>)
// CHECK: "test.step"
func.func @loop(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %y = "test.step"(%acc) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
