// RUN: fp-opt %s -lowp-x86-lower-contractions=target=znver4 -split-input-file -verify-diagnostics -o /dev/null

// Contractions and convolutions the kernels cannot take stay on the generic
// loop path, which is slow: a remark names the op and the reason.

func.func @tensors(%a: tensor<4x8xf32>, %b: tensor<8x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-remark @below {{generic loop path for 'linalg.matmul': operands are not buffers (the kernels run after bufferization)}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// A dynamic K (a dynamic M alone is taken: emitDynamicRowsMatmul).
func.func @dynamic(%a: memref<4x?xf32>, %b: memref<?x32xf32>, %c: memref<4x32xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.matmul': operands are not static identity-layout memrefs}}
  linalg.matmul ins(%a, %b : memref<4x?xf32>, memref<?x32xf32>) outs(%c : memref<4x32xf32>)
  return
}

// -----

func.func @f64(%a: memref<2x4x8xf64>, %b: memref<2x8x32xf64>, %c: memref<2x4x32xf64>) {
  // expected-remark @below {{generic loop path for 'linalg.batch_matmul': needs float inputs of at most 32 bits of one type and an f32 output}}
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf64>, memref<2x8x32xf64>) outs(%c : memref<2x4x32xf64>)
  return
}

// -----

// An odd K in bf16 takes the f32 FMA kernel on widened operands (not the
// loop path): slower than the dot kernel, so a remark says so.
func.func @odd_k_bf16(%a: memref<4x7xbf16>, %b: memref<7x32xbf16>, %c: memref<4x32xf32>) {
  // expected-remark @below {{odd K (7): a bf16 GEMM on the f32 FMA kernel (operands widened), not the bf16 dot kernel, which reads K in pairs}}
  linalg.matmul ins(%a, %b : memref<4x7xbf16>, memref<7x32xbf16>) outs(%c : memref<4x32xf32>)
  return
}

// -----

// No remark: an NCHW convolution with an odd C*KH*KW (a stem on 3 colours)
// takes the kernel, K padded to pairs (a zero col row, a zero filter column).
func.func @odd_depth_nchw(%i: memref<1x3x6x6xbf16>, %f: memref<16x3x3x3xbf16>, %o: memref<1x16x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x3x6x6xbf16>, memref<16x3x3x3xbf16>) outs(%o : memref<1x16x4x4xf32>)
  return
}

// -----

// NHWC convolutions the blocked kernel cannot take (dynamic shapes other
// than the batch, f64) stay on the generic path with a remark; an odd
// KH*KW*C in bf16 does not (the f32 kernel on widened operands), nor a
// dynamic batch, so no remark there.
func.func @dynamic_nhwc(%i: memref<1x?x6x8xf32>, %f: memref<3x3x8x16xf32>, %o: memref<1x?x4x16xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.conv_2d_nhwc_hwcf': operands are not identity-layout memrefs with static dimensions but for the batch}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x?x6x8xf32>, memref<3x3x8x16xf32>) outs(%o : memref<1x?x4x16xf32>)
  return
}

// -----

func.func @f64_nhwc(%i: memref<1x6x6x8xf64>, %f: memref<3x3x8x16xf64>, %o: memref<1x4x4x16xf64>) {
  // expected-remark @below {{generic loop path for 'linalg.conv_2d_nhwc_hwcf': needs float inputs of one type and an f32 output}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x8xf64>, memref<3x3x8x16xf64>) outs(%o : memref<1x4x4x16xf64>)
  return
}

// -----

func.func @odd_depth_nhwc(%i: memref<1x6x6x3xbf16>, %f: memref<3x3x3x16xbf16>, %o: memref<1x4x4x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x3xbf16>, memref<3x3x3x16xbf16>) outs(%o : memref<1x4x4x16xf32>)
  return
}

// -----

func.func @dynamic_batch(%i: memref<?x6x6x8xf32>, %f: memref<3x3x8x16xf32>, %o: memref<?x4x4x16xf32>,
                         %x: memref<?x8x6x6xf32>, %w: memref<16x8x3x3xf32>, %y: memref<?x16x4x4xf32>,
                         %d: memref<?x6x6x8xf32>, %dw: memref<3x3x8xf32>, %dy: memref<?x4x4x8xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<?x6x6x8xf32>, memref<3x3x8x16xf32>) outs(%o : memref<?x4x4x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x8x6x6xf32>, memref<16x8x3x3xf32>) outs(%y : memref<?x16x4x4xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%d, %dw : memref<?x6x6x8xf32>, memref<3x3x8xf32>) outs(%dy : memref<?x4x4x8xf32>)
  return
}

// -----

func.func @other_contraction(%a: memref<4x8xf32>, %x: memref<8xf32>, %y: memref<4xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.matvec': no x86 kernel for this contraction}}
  linalg.matvec ins(%a, %x : memref<4x8xf32>, memref<8xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

func.func @other_convolution(%i: memref<1x6x8xf32>, %f: memref<3x8x4xf32>, %o: memref<1x4x4xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.conv_1d_nwc_wcf': no x86 kernel for this convolution}}
  linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
    ins(%i, %f : memref<1x6x8xf32>, memref<3x8x4xf32>) outs(%o : memref<1x4x4xf32>)
  return
}

// -----

func.func @depthwise_multiplier(%i: memref<1x6x6x8xf32>, %f: memref<3x3x8x2xf32>, %o: memref<1x4x4x8x2xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.depthwise_conv_2d_nhwc_hwcm': channel multiplier 2 (the depthwise kernel takes 1)}}
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x8xf32>, memref<3x3x8x2xf32>) outs(%o : memref<1x4x4x8x2xf32>)
  return
}

// -----

func.func @depthwise_nchw_strided(%i: memref<1x8x9x9xf32>, %f: memref<8x3x3xf32>, %o: memref<1x8x3x3xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.depthwise_conv_2d_nchw_chw': stride along W above 2: the NCHW depthwise kernel vectorizes output rows}}
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
    ins(%i, %f : memref<1x8x9x9xf32>, memref<8x3x3xf32>) outs(%o : memref<1x8x3x3xf32>)
  return
}

// -----

// No remark: the pooling takes the window kernel; elementwise ops are not
// contractions.
func.func @pooling(%i: memref<1x6x6x8xf32>, %w: memref<3x3xf32>, %o: memref<1x4x4x8xf32>, %e: memref<8xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %w : memref<1x6x6x8xf32>, memref<3x3xf32>) outs(%o : memref<1x4x4x8xf32>)
  linalg.add ins(%e, %e : memref<8xf32>, memref<8xf32>) outs(%e : memref<8xf32>)
  return
}

// -----

// Poolings the window kernel cannot take stay on the generic path with a
// remark: a bf16 sum written in bf16 (each partial sum rounded), an NCHW
// window strided by 3 along W.
func.func @pooling_refused(%i: memref<1x4x8x8xbf16>, %w: memref<2x2xf32>, %o: memref<1x4x7x7xbf16>,
                           %i2: memref<1x4x9x9xf32>, %w2: memref<3x3xf32>, %o2: memref<1x4x3x3xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.pooling_nchw_sum': needs float inputs of at most 32 bits and an f32 output}}
  linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%i, %w : memref<1x4x8x8xbf16>, memref<2x2xf32>) outs(%o : memref<1x4x7x7xbf16>)
  // expected-remark @below {{generic loop path for 'linalg.pooling_nchw_max': stride along W above 2: the NCHW window kernel vectorizes output rows}}
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<3> : vector<2xi64>}
    ins(%i2, %w2 : memref<1x4x9x9xf32>, memref<3x3xf32>) outs(%o2 : memref<1x4x3x3xf32>)
  return
}
