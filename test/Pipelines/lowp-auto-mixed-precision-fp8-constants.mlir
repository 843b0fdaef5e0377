// RUN: fp-opt %s -split-input-file -lowp-auto-mixed-precision="target=sm_90 policy=fp8" | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-auto-mixed-precision="target=sm_90 policy=fp8 first-last-bf16=true" | FileCheck %s --check-prefix=KEPT
// RUN: fp-opt %s -split-input-file -lowp-auto-mixed-precision="target=sm_90 policy=bf16" | FileCheck %s --check-prefix=BF16

// Constant weights (torch-mlir's FX importer embeds parameters as
// constants) are quantized to FP8 from their f32 values: one rounding, the
// scale from the real amax. Inference leaves constants that only matrix
// ops read f32 under the FP8 policy (matrix-constants-wide) instead of
// rounding them to bf16 first (f32 -> bf16 -> FP8: two roundings).
// 0.10009765625 = 1 + 2^-10 (in units of 0.1 ~ 2^-3.32): halfway cases of
// bf16 are not FP8's.
// CHECK-LABEL: func.func @constant_weight
// CHECK:       %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<8x8xf32>
// CHECK:       %[[A:.*]] = lowp.amax %[[W]] : tensor<8x8xf32>
// CHECK:       lowp.quantize %[[W]], %{{.*}} : tensor<8x8xf32>, f32 to tensor<8x8xf8E4M3FN>
// CHECK-NOT:   tensor<8x8xbf16>
// CHECK:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x8xf8E4M3FN>)
// A matrix op FP8 selection leaves 16-bit (first-last-bf16 keeps the only
// one) reads the constant rounded to bf16 at compile time, as before: no
// cast left at run time.
// KEPT-LABEL: func.func @constant_weight
// KEPT-NOT:   lowp.cast %cst
// KEPT:       %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<8x8xbf16>
// KEPT-NOT:   tensor<8x8xf32>
// KEPT:       linalg.matmul ins(%{{.*}}, %[[W]] : tensor<4x8xbf16>, tensor<8x8xbf16>)
// The 16-bit policies round constants at compile time as always.
// BF16-LABEL: func.func @constant_weight
// BF16:       %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<8x8xbf16>
// BF16:       linalg.matmul ins(%{{.*}}, %[[W]] : tensor<4x8xbf16>, tensor<8x8xbf16>)
func.func @constant_weight(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w = arith.constant dense<0.10009765625> : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %h : tensor<4x8xf32>
}

// -----

// A constant that an elementwise op reads too keeps the old treatment: one
// bf16 copy, rounded at compile time, for every low use (its FP8
// quantization starts from bf16; docs/passes/select-fp8-formats.md).
// CHECK-LABEL: func.func @shared_constant
// CHECK:       %[[B:.*]] = arith.constant dense<3.007810e-01> : tensor<8x8xbf16>
// CHECK:       lowp.quantize %[[B]], %{{.*}} : tensor<8x8xbf16>, f32 to tensor<8x8xf8E4M3FN>
func.func @shared_constant(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8x8xf32>) {
  %w = arith.constant dense<0.3> : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.add ins(%w, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%y : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %h, %s : tensor<4x8xf32>, tensor<8x8xf32>
}
