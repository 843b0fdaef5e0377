// RUN: fp-opt %s -lowp-x86-lower-contractions=target=znver4 -canonicalize -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions=target=avx2 -canonicalize -split-input-file | FileCheck %s --check-prefix=AVX2

// NCHW convolutions of at most 32 taps per output take the direct kernel:
// blocks of output channels x vectors of a row in registers, each input
// vector loaded once for the block's channels, each filter tap broadcast;
// no im2col buffer. The tests that execute it:
// test/Integration/X86/conv-nchw-direct.mlir.

// A stem (3 colours x 3 x 3 = 27 taps), 8 channels, rows of 38 columns:
// blocks of 8 channels x 2 vectors, then x 1 vector masked to 6 columns.
// CHECK-LABEL: func @stem
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK: scf.for
// CHECK: vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: %[[A:.*]] = vector.load %arg0[{{.*}}] : memref<1x3x9x40xf32>, vector<16xf32>
// CHECK-COUNT-8: vector.fma %[[A]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: vector.maskedstore %{{.*}} : memref<1x8x7x38xf32>, vector<16xi1>, vector<16xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// AVX2-LABEL: func @stem
// AVX2-NOT: linalg.conv_2d_nchw_fchw
// AVX2: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
func.func @stem(%in: memref<1x3x9x40xf32>, %f: memref<8x3x3x3xf32>) -> memref<1x8x7x38xf32> {
  %zero = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x8x7x38xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x8x7x38xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %f : memref<1x3x9x40xf32>, memref<8x3x3x3xf32>) outs(%o : memref<1x8x7x38xf32>)
  return %o : memref<1x8x7x38xf32>
}

// -----

// 4 channels x 3 x 3 = 36 taps: the im2col kernel's (a col buffer of K
// rows).
// CHECK-LABEL: func @more_taps
// CHECK: memref.alloc() {{.*}} : memref<36x{{[0-9]+}}xf32>
func.func @more_taps(%in: memref<1x4x9x40xf32>, %f: memref<8x4x3x3xf32>) -> memref<1x8x7x38xf32> {
  %zero = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x8x7x38xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x8x7x38xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %f : memref<1x4x9x40xf32>, memref<8x4x3x3xf32>) outs(%o : memref<1x8x7x38xf32>)
  return %o : memref<1x8x7x38xf32>
}

// -----

// bf16 inputs: widened as loaded on AVX-512 (masked loads at the rows'
// ends); AVX2 cannot mask bf16 loads, so there it is the im2col kernel's.
// CHECK-LABEL: func @stem_bf16
// CHECK: vector.maskedload %arg0{{.*}} : memref<1x3x9x40xbf16>, vector<16xi1>, vector<16xbf16>
// CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// AVX2-LABEL: func @stem_bf16
// AVX2: memref.alloc() {{.*}} : memref<27x{{[0-9]+}}xf32>
func.func @stem_bf16(%in: memref<1x3x9x40xbf16>, %f: memref<8x3x3x3xbf16>) -> memref<1x8x7x38xf32> {
  %zero = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x8x7x38xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x8x7x38xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %f : memref<1x3x9x40xbf16>, memref<8x3x3x3xbf16>) outs(%o : memref<1x8x7x38xf32>)
  return %o : memref<1x8x7x38xf32>
}
