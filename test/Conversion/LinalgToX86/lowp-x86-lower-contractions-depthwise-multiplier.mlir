// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2" -split-input-file -verify-diagnostics | FileCheck %s

// linalg.depthwise_conv_2d_nhwc_hwcm (TOSA's depthwise_conv2d) with a
// channel multiplier of 1 is depthwise_conv_2d_nhwc_hwc on the filter and
// output without their unit dimension: the depthwise kernel takes it on
// collapsed views of the same buffers (the output's values are the
// accumulators' start: there is no fill).
// CHECK-LABEL: func.func @multiplier_one
// CHECK: %[[F:.*]] = memref.collapse_shape %arg1 {{\[\[}}0], [1], [2, 3]] : memref<3x3x32x1xf32> into memref<3x3x32xf32>
// CHECK: %[[O:.*]] = memref.collapse_shape %arg2 {{\[\[}}0], [1], [2], [3, 4]] : memref<1x8x8x32x1xf32> into memref<1x8x8x32xf32>
// CHECK: vector.load %[[O]]
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %[[O]]
// CHECK-NOT: linalg.
func.func @multiplier_one(%i: memref<1x10x10x32xf32>, %f: memref<3x3x32x1xf32>, %o: memref<1x8x8x32x1xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x10x32xf32>, memref<3x3x32x1xf32>) outs(%o : memref<1x8x8x32x1xf32>)
  return
}

// -----

// Two filters per channel: not a depthwise kernel's; left to the loops,
// with a remark that says why.
// CHECK-LABEL: func.func @multiplier_two
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
func.func @multiplier_two(%i: memref<1x10x10x32xf32>, %f: memref<3x3x32x2xf32>, %o: memref<1x8x8x32x2xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.depthwise_conv_2d_nhwc_hwcm': channel multiplier 2 (the depthwise kernel takes 1)}}
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x10x32xf32>, memref<3x3x32x2xf32>) outs(%o : memref<1x8x8x32x2xf32>)
  return
}
