// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -canonicalize -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2" -canonicalize -split-input-file | FileCheck %s --check-prefix=AVX2

// NCHW at stride 1, f32: the kernel reads B in place from the input (no
// im2col buffer; the test that executes it:
// test/Integration/X86/conv-nchw-implicit.mlir). Row kk of B starts at
// tap kk's offset in the flat image (a table of 18 offsets: channel * 92 +
// row * 23 + column), and the GEMM runs over (2 - 1) * 23 + 21 = 44 kernel
// columns: the output at the input's row width, columns 21 and 22 of row 0
// dropped. The vector of kernel columns 16..31 crosses row 0's end: C's
// lanes 0..4 (columns 16..20 of row 0) at C column 16, lanes 7..15 (row 1)
// at C column 16 - 2.
// CHECK-LABEL: func @implicit
// CHECK-DAG: %[[IN:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<1x2x4x23xf32> into memref<1x184xf32>
// CHECK-DAG: %[[C:.*]] = memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<1x16x2x21xf32> into memref<1x16x42xf32>
// CHECK: %[[OFF:.*]] = memref.alloc() {{.*}} : memref<18xindex>
// CHECK-NOT: memref.alloc
// CHECK: arith.muli %{{.*}}, %c92
// CHECK: arith.muli %{{.*}}, %c23
// CHECK: memref.store %{{.*}}, %[[OFF]]
// CHECK: scf.for %[[KK:.*]] = %c0 to %c18 step %c1
// CHECK: %[[O:.*]] = memref.load %[[OFF]][%[[KK]]]
// CHECK: vector.load %[[IN]][%c0, %[[O]]] : memref<1x184xf32>, vector<16xf32>
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %[[C]][%c0, %{{.*}}, %c0]
// CHECK: %[[ROW0:.*]] = vector.constant_mask [5] : vector<16xi1>
// CHECK: vector.maskedstore %[[C]][%c0, %{{.*}}, %c16], %[[ROW0]]
// CHECK: %[[BEFORE:.*]] = vector.constant_mask [7] : vector<16xi1>
// CHECK: %[[ROW1:.*]] = arith.xori %[[BEFORE]]
// CHECK: vector.maskedstore %[[C]][%c0, %{{.*}}, %c14], %[[ROW1]]
// CHECK: memref.dealloc %[[OFF]]
func.func @implicit(%i: memref<1x2x4x23xf32>, %f: memref<16x2x3x3xf32>, %o: memref<1x16x2x21xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<1x16x2x21xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x2x4x23xf32>, memref<16x2x3x3xf32>) outs(%o : memref<1x16x2x21xf32>)
  return
}

// -----

// Panels not known at compile time (a dynamic batch, 3 rows: 66 kernel
// columns, two full panels in a loop): where a vector's columns fall is
// decided at run time, one unmasked store within a row, two masked runs
// across a row's end (vector.create_mask of the lanes before it, and the
// rest after the dropped columns).
// CHECK-LABEL: func @implicit_dynamic
// CHECK: memref.alloc() {{.*}} : memref<18xindex>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.divui %{{.*}}, %c23
// CHECK: scf.if
// CHECK: vector.store
// CHECK: } else {
// CHECK: vector.create_mask
// CHECK: vector.maskedstore
// CHECK: vector.create_mask
// CHECK: arith.xori
// CHECK: vector.maskedstore
func.func @implicit_dynamic(%i: memref<?x2x5x23xf32>, %f: memref<16x2x3x3xf32>, %o: memref<?x16x3x21xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<?x16x3x21xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<?x2x5x23xf32>, memref<16x2x3x3xf32>) outs(%o : memref<?x16x3x21xf32>)
  return
}

// -----

// bf16 without vdpbf16ps (AVX2): the input widened once into an f32 image,
// a channel at a time (the loop threads= shares out), read in place. With
// vdpbf16ps (znver4) the kernel reads B as VNNI pairs of rows: the im2col
// copy in that layout instead.
// AVX2-LABEL: func @implicit_bf16
// AVX2: %[[W:.*]] = memref.alloc() {{.*}} : memref<2x92xf32>
// AVX2: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// AVX2: vector.store %{{.*}}, %[[W]]
// AVX2: } {lowp.parallel}
// AVX2: %[[FLAT:.*]] = memref.collapse_shape %[[W]] {{\[}}[0, 1]] : memref<2x92xf32> into memref<184xf32>
// AVX2: %[[IMG:.*]] = memref.expand_shape %[[FLAT]] {{.*}} into memref<1x184xf32>
// AVX2: %[[OFF:.*]] = memref.alloc() {{.*}} : memref<18xindex>
// AVX2: memref.load %[[OFF]]
// AVX2: vector.load %[[IMG]][%c0, %{{.*}}] : memref<1x184xf32>, vector<8xf32>
// AVX2: memref.dealloc %[[OFF]]
// AVX2: memref.dealloc %[[W]]
// CHECK-LABEL: func @implicit_bf16
// CHECK-NOT: memref<18xindex>
// CHECK: memref.alloc() {{.*}} : memref<9x128xbf16>
// CHECK: x86vector.avx512.dot
func.func @implicit_bf16(%i: memref<1x2x4x23xbf16>, %f: memref<32x2x3x3xbf16>, %o: memref<1x32x2x21xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x2x4x23xbf16>, memref<32x2x3x3xbf16>) outs(%o : memref<1x32x2x21xf32>)
  return
}

// -----

// Not in place: stride 2 (every other input column), and rows too narrow
// for a vector to cross at most one row end (OW = 17 < 16 lanes + 2).
// CHECK-LABEL: func @not_implicit
// CHECK-NOT: xindex>
// CHECK: memref.alloc() {{.*}} : memref<72x32xf32>
// CHECK-NOT: xindex>
// CHECK: memref.alloc() {{.*}} : memref<18x32xf32>
// CHECK-NOT: xindex>
// CHECK: return
func.func @not_implicit(%i: memref<1x8x9x9xf32>, %f: memref<16x8x3x3xf32>, %o: memref<1x16x4x4xf32>,
                        %i2: memref<1x2x3x19xf32>, %f2: memref<16x2x3x3xf32>, %o2: memref<1x16x1x17xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %f : memref<1x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%o : memref<1x16x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i2, %f2 : memref<1x2x3x19xf32>, memref<16x2x3x3xf32>) outs(%o2 : memref<1x16x1x17xf32>)
  return
}
