// RUN: fp-opt %s -split-input-file -lowp-instrument-calibration | FileCheck %s

// Each float operand of a matrix op (what lowp-select-fp8-formats would
// quantize) is measured where it is computed: its amax and the histogram of
// its f32 exponents (bucket = the biased exponent field of |x|, non-zero
// elements only), printed with the function and the tensor's index.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x2xf32>)
// CHECK:         %[[AMAX_W:.*]] = lowp.amax %[[W]] : tensor<8x2xf32>
// CHECK:         %[[HIST_W:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<8x2xf32>) outs(%{{.*}} : tensor<256xi64>)
// CHECK:           arith.bitcast %{{.*}} : f32 to i32
// CHECK:           arith.andi %{{.*}}, %c2147483647_i32
// CHECK:           arith.shrui %{{.*}}, %c23_i32
// CHECK:         vector.print str "lowp-calibration @mlp 1 amax "
// CHECK:         vector.print %[[AMAX_W]] : f32
// CHECK:         call @printMemrefI64
// CHECK:         %[[AMAX_X:.*]] = lowp.amax %[[X]] : tensor<4x8xf32>
// CHECK:         vector.print str "lowp-calibration @mlp 0 amax "
// CHECK:         vector.print %[[AMAX_X]] : f32
// The matrix op itself is unchanged.
// CHECK:         linalg.matmul ins(%[[X]], %[[W]] : tensor<4x8xf32>, tensor<8x2xf32>)
// CHECK:       func.func private @printMemrefI64(tensor<*xi64>)
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// Functions without matrix ops are left alone.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT:   lowp.amax
// CHECK-NOT:   vector.print
func.func @elementwise(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
