// RUN: fp-opt %s -lowp-x86-lower-contractions=target=znver4 -canonicalize -split-input-file | FileCheck %s

// Pooling on the depthwise convolution's window kernel (the tests that
// execute it: test/Integration/X86/pooling.mlir). A max pool 3x3 at stride
// 2 along NCHW rows: each tap's input vector is every other element of 32
// contiguous ones (one load, a shuffle of the even lanes), combined by
// arith.maximumf, the accumulators starting from the fill's -inf (the
// first maximum with it folded away); no window load (its operand gives
// the shape only) and no scalar loop.
// CHECK-LABEL: func @max_nchw_s2
// CHECK-NOT: memref.load %arg1
// CHECK: scf.for
// CHECK: vector.load %arg0{{.*}} : memref<1x4x35x35xf32>, vector<32xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: memref.load %arg0
// CHECK: return
func.func @max_nchw_s2(%i: memref<1x4x35x35xf32>, %w: memref<3x3xf32>, %o: memref<1x4x17x17xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%o : memref<1x4x17x17xf32>)
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%i, %w : memref<1x4x35x35xf32>, memref<3x3xf32>) outs(%o : memref<1x4x17x17xf32>)
  return
}

// -----

// bf16 in and out (max is exact): widened as loaded, computed in f32,
// narrowed as stored.
// CHECK-LABEL: func @max_nchw_bf16
// CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// CHECK: arith.maximumf %{{.*}} : vector<16xf32>
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK: vector.maskedstore %arg2
func.func @max_nchw_bf16(%i: memref<1x4x8x8xbf16>, %w: memref<2x2xf32>, %o: memref<1x4x7x7xbf16>) {
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%i, %w : memref<1x4x8x8xbf16>, memref<2x2xf32>) outs(%o : memref<1x4x7x7xbf16>)
  return
}

// -----

// NHWC sum of bf16 inputs into f32: channel vectors, added in f32.
// CHECK-LABEL: func @sum_nhwc
// CHECK: vector.load %arg0{{.*}} : memref<1x4x4x32xbf16>, vector<16xbf16>
// CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// CHECK: arith.addf %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}}, %arg2
func.func @sum_nhwc(%i: memref<1x4x4x32xbf16>, %w: memref<2x2xf32>, %o: memref<1x2x2x32xf32>) {
  linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%i, %w : memref<1x4x4x32xbf16>, memref<2x2xf32>) outs(%o : memref<1x2x2x32xf32>)
  return
}
