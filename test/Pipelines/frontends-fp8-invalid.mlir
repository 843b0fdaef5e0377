// FP8 asked of a target without FP8 (sm_70, Volta) on torch-mlir exports: a
// located error on the first matrix op of each function, never a crash.
// RUN: fp-opt %s -split-input-file -verify-diagnostics --lowp-auto-mixed-precision="target=sm_70 policy=fp8"
// With the fallback allowed, the 16-bit decision stays.
// RUN: fp-opt %s -split-input-file -verify-each --lowp-auto-mixed-precision="target=sm_70 policy=fp8 allow-bf16-fallback=true" | FileCheck %s

// CHECK-LABEL: func.func @linear
//       CHECK:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.+}} : tensor<4x16xf32>)
func.func @linear(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<8x16xf32>
  %transposed = linalg.transpose ins(%arg1 : tensor<16x8xf32>) outs(%0 : tensor<8x16xf32>) permutation = [1, 0]
  %1 = tensor.empty() : tensor<4x16xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-error @+1 {{target 'sm_70' has no FP8 support (FP8 targets: sm_89, sm_90, sm_90a, sm_100, sm_120, gfx942, gfx950); choose one of them or allow the bf16 fallback}}
  %3 = linalg.matmul ins(%arg0, %transposed : tensor<4x8xf32>, tensor<8x16xf32>) outs(%2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @conv
//       CHECK:   linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x3x10x10xf16>, tensor<4x3x3x3xf16>) outs(%{{.+}} : tensor<?x4x8x8xf32>)
func.func @conv(%arg0: tensor<?x3x8x8xf32>, %arg1: tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
    tensor.yield %cst : f32
  } : tensor<?x3x8x8xf32> to tensor<?x3x10x10xf32>
  %dim = tensor.dim %arg0, %c0 : tensor<?x3x8x8xf32>
  %0 = tensor.empty(%dim) : tensor<?x4x8x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  // expected-error @+1 {{target 'sm_70' has no FP8 support}}
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg1 : tensor<?x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%1 : tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  return %2 : tensor<?x4x8x8xf32>
}
