// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -split-input-file | FileCheck %s

// The convolution kernels mark for lowp-parallelize-loops (threads= of
// lowp-pipeline-x86) every loop whose iterations write disjoint memory:
// besides the GEMM's panel loops, the im2col loop over col rows (a k pair
// each, NCHW), the NHWC kernel's loop over blocks of 128 output pixels
// (each a GEMM reading the input in place) and the depthwise kernel's loop
// over output rows (NHWC) or channels (NCHW). The image loop of every
// convolution kernel is marked too, each image with its own scratch
// buffers: lowp-parallelize-loops takes the outermost marked loop with at
// least as many iterations as threads, so a batch is shared out image by
// image and a batch of 1 leaves the threads to the loops inside. NCHW
// convolutions: the loop over blocks of output rows, which reuses the
// image's col buffer, stays sequential when there are fewer than 4 blocks;
// with more, each block has its own col and the blocks are the parallel
// loop.

// CHECK-LABEL: func.func @nchw
// CHECK:       scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK-NEXT:    %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<36x128xbf16>
// CHECK-NEXT:    scf.for %{{.*}} = %c0 to %c8 step %c8 {
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c36 step %c1 {
// CHECK:             memref.store %{{.*}}, %[[COL:.*]][
// CHECK:           } {lowp.parallel}
// CHECK:           scf.for %{{.*}} = %c0 to %c36 step %c36 {
// CHECK:           x86vector.avx512.dot
// CHECK:         } {lowp.parallel}
// CHECK:         memref.dealloc %[[COL]]
// CHECK-NEXT:  } {lowp.parallel}
// CHECK-NOT:   lowp.parallel
func.func @nchw(%x: memref<1x8x10x10xbf16>, %w: memref<16x8x3x3xbf16>, %y: memref<1x16x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x10x10xbf16>, memref<16x8x3x3xbf16>) outs(%y : memref<1x16x8x8xf32>)
  return
}

// -----

// 56 output rows in 14 blocks of 4 (col within a quarter of Zen 4's 1 MiB
// L2).
// CHECK-LABEL: func.func @nchw_blocks
// CHECK:       scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK-NEXT:    scf.for %{{.*}} = %c0 to %c56 step %c4 {
// CHECK-NEXT:      %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<288x448xbf16>
// CHECK:           x86vector.avx512.dot
// CHECK:           memref.dealloc %[[COL]]
// CHECK-NEXT:    } {lowp.parallel}
// CHECK-NEXT:  }
func.func @nchw_blocks(%x: memref<1x64x58x58xbf16>, %w: memref<64x64x3x3xbf16>, %y: memref<1x64x56x56xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x64x58x58xbf16>, memref<64x64x3x3xbf16>) outs(%y : memref<1x64x56x56xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @nhwc
// CHECK:       scf.for %{{.*}} = %c0 to %c256 step %c128 {
// CHECK-NOT:     memref.alloc
// CHECK:         vector.fma
// CHECK:       } {lowp.parallel}
// CHECK-NOT:   lowp.parallel
func.func @nhwc(%x: memref<1x18x18x8xf32>, %w: memref<3x3x8x16xf32>, %y: memref<1x16x16x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x18x18x8xf32>, memref<3x3x8x16xf32>) outs(%y : memref<1x16x16x16xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @depthwise
// CHECK:       scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK-NEXT:    scf.for %{{.*}} = %c0 to %c16 step %c1 {
// CHECK:         } {lowp.parallel}
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @depthwise(%x: memref<1x16x10x10xf32>, %w: memref<16x3x3xf32>, %y: memref<1x16x8x8xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x16x10x10xf32>, memref<16x3x3xf32>) outs(%y : memref<1x16x8x8xf32>)
  return
}
