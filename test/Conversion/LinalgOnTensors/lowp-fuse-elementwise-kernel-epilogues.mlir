// RUN: fp-opt %s -lowp-fuse-elementwise=kernel-epilogues=true -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-fuse-elementwise -split-input-file | FileCheck %s --check-prefix=OFF

// One zero tensor as the init of two convolutions (torch-mlir's form): the
// fill is cloned, with its tensor.empty, for the second; each convolution
// then has a fill of its own (bufferized: no copy of a filled buffer).
// Without the option the fill stays shared.
// CHECK-LABEL: func.func @shared_fill
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK-NEXT:    %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK-NEXT:    %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw {{.*}} outs(%[[F1]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw {{.*}} outs(%[[F0]] : tensor<1x8x8x8xf32>)
// OFF-LABEL: func.func @shared_fill
// OFF-COUNT-1: linalg.fill
// OFF-NOT:     linalg.fill
func.func @shared_fill(%x: tensor<1x4x8x8xf32>, %w1: tensor<8x4x1x1xf32>, %w2: tensor<8x8x1x1xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w1 : tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%fill : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%c1, %w2 : tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>) outs(%fill : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %c1, %c2 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}
