// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -canonicalize -split-input-file | FileCheck %s

// Copies into fresh buffers (im2col rows, padded copies) whose length is not
// a multiple of the 16 lanes but at least 16: the remainder is one more
// vector run ending at the last element (columns 5..20 of 21, rewriting
// 5..15 with the same values), no element-by-element loop. (The
// convolutions have 4 input channels: with 32 taps or fewer they would take
// the direct kernel, no im2col.)

// NCHW, stride 1, f32: each col row is input columns j..j+15, then
// j+5..j+20.
// CHECK-LABEL: func @nchw_tail
// CHECK: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<36x32xf32>
// CHECK: scf.for
// CHECK: arith.remui
// CHECK: arith.divui
// CHECK: %[[J:[0-9]+]] = arith.remui
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J]]] : memref<1x4x3x23xf32>, vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[COL]][%{{.*}}, %c0]
// CHECK: %[[J5:.*]] = arith.addi %[[J]], %c5
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J5]]] : memref<1x4x3x23xf32>, vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[COL]][%{{.*}}, %c5]
// CHECK-NOT: memref.load %arg0
// CHECK: vector.fma
func.func @nchw_tail(%i: memref<1x4x3x23xf32>, %f: memref<16x4x3x3xf32>, %o: memref<1x16x1x21xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x4x3x23xf32>, memref<16x4x3x3xf32>) outs(%o : memref<1x16x1x21xf32>)
  return
}

// -----

// bf16 VNNI col: the last run of both rows of a pair interleaved too,
// stored at pair column 2 * 5.
// CHECK-LABEL: func @nchw_tail_bf16
// CHECK: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<18x64xbf16>
// CHECK: vector.interleave
// CHECK: vector.store %{{.*}}, %[[COL]][%{{.*}}, %c0] : memref<18x64xbf16>, vector<32xbf16>
// CHECK: arith.addi %{{.*}}, %c5
// CHECK: vector.interleave
// CHECK: vector.store %{{.*}}, %[[COL]][%{{.*}}, %c10] : memref<18x64xbf16>, vector<32xbf16>
// CHECK-NOT: memref.load %arg0
// CHECK: x86vector.avx512.dot
func.func @nchw_tail_bf16(%i: memref<1x4x3x23xbf16>, %f: memref<32x4x3x3xbf16>, %o: memref<1x32x1x21xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x4x3x23xbf16>, memref<32x4x3x3xbf16>) outs(%o : memref<1x32x1x21xf32>)
  return
}

// -----

// Stride 2 on an input exactly as wide as the output needs (2 * 20 + 3 =
// 43): the second load of a run starts one element early (x0 + 15) and
// ends on the last element used, so runs at 0 and 5 stay inside the row;
// the even elements come from the first load's even lanes and the second's
// odd ones.
// CHECK-LABEL: func @nchw_tail_stride2
// CHECK: arith.remui
// CHECK: arith.divui
// CHECK: %[[J:[0-9]+]] = arith.remui
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J]]] : memref<1x4x3x43xf32>, vector<16xf32>
// CHECK: %[[J15:.*]] = arith.addi %[[J]], %c15
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J15]]] : memref<1x4x3x43xf32>, vector<16xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0]
// CHECK: %[[J10:.*]] = arith.addi %[[J]], %c10
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J10]]] : memref<1x4x3x43xf32>, vector<16xf32>
// CHECK: %[[J25:.*]] = arith.addi %[[J]], %c25
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[J25]]] : memref<1x4x3x43xf32>, vector<16xf32>
// CHECK: vector.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c5]
// CHECK-NOT: memref.load %arg0
func.func @nchw_tail_stride2(%i: memref<1x4x3x43xf32>, %f: memref<16x4x3x3xf32>, %o: memref<1x16x1x21xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %f : memref<1x4x3x43xf32>, memref<16x4x3x3xf32>) outs(%o : memref<1x16x1x21xf32>)
  return
}

// -----

// Rows narrower than a vector (OW = 5) have no full run to overlap: element
// by element.
// CHECK-LABEL: func @nchw_narrow
// CHECK-NOT: vector.load %arg0
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c1
// CHECK: memref.load %arg0
func.func @nchw_narrow(%i: memref<1x4x3x7xf32>, %f: memref<16x4x3x3xf32>, %o: memref<1x16x1x5xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x4x3x7xf32>, memref<16x4x3x3xf32>) outs(%o : memref<1x16x1x5xf32>)
  return
}

// -----

// Stride 3: no vector runs, element by element.
// CHECK-LABEL: func @nchw_stride3
// CHECK-NOT: vector.load %arg0
// CHECK: scf.for %{{.*}} = %c0 to %c21 step %c1
// CHECK: memref.load %arg0
func.func @nchw_stride3(%i: memref<1x1x3x63xf32>, %f: memref<16x1x3x3xf32>, %o: memref<1x16x1x21xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
    ins(%i, %f : memref<1x1x3x63xf32>, memref<16x1x3x3xf32>) outs(%o : memref<1x16x1x21xf32>)
  return
}

// -----

// NHWC im2col (a bf16 input with an odd C: A's pairs would straddle two
// taps, so the dot kernel reads a copy): runs of C = 21 channels as
// channels 0..15 and 5..20.
// CHECK-LABEL: func @nhwc_tail
// CHECK: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x84xbf16>
// CHECK: vector.load %arg0[%c0, %c0, %c0, %c0] : memref<1x2x2x21xbf16>, vector<16xbf16>
// CHECK: vector.store %{{.*}}, %[[COL]][%c0, %c0]
// CHECK: vector.load %arg0[%c0, %c0, %c0, %c5] : memref<1x2x2x21xbf16>, vector<16xbf16>
// CHECK: vector.store %{{.*}}, %[[COL]][%c0, %c5]
// CHECK: vector.load %arg0[%c0, %c0, %c1, %c0] : memref<1x2x2x21xbf16>, vector<16xbf16>
// CHECK: vector.store %{{.*}}, %[[COL]][%c0, %c21]
// CHECK-NOT: memref.load %arg0
func.func @nhwc_tail(%i: memref<1x2x2x21xbf16>, %f: memref<2x2x21x16xbf16>, %o: memref<1x1x1x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x2x2x21xbf16>, memref<2x2x21x16xbf16>) outs(%o : memref<1x1x1x16xf32>)
  return
}

// -----

// A padded copy (tensor.pad bufferized): into a fresh buffer the source is
// no view of, rows of 21 as two overlapping runs.
// CHECK-LABEL: func @padded_copy
// CHECK: %[[V:.*]] = memref.subview
// CHECK: scf.for %[[R:.*]] = %c0 to %c3 step %c1
// CHECK: vector.load %arg0[%[[R]], %c0]
// CHECK: vector.store %{{.*}}, %[[V]][%[[R]], %c0]
// CHECK: vector.load %arg0[%[[R]], %c5]
// CHECK: vector.store %{{.*}}, %[[V]][%[[R]], %c5]
// CHECK-NOT: memref.load
func.func @padded_copy(%s: memref<3x21xf32>) -> memref<5x23xf32> {
  %a = memref.alloc() : memref<5x23xf32>
  %v = memref.subview %a[1, 1] [3, 21] [1, 1] : memref<5x23xf32> to memref<3x21xf32, strided<[23, 1], offset: 24>>
  memref.copy %s, %v : memref<3x21xf32> to memref<3x21xf32, strided<[23, 1], offset: 24>>
  return %a : memref<5x23xf32>
}

// -----

// A large copy into a fresh buffer (a batch's padded images, 8 x 16 x 56 x
// 56 points) marks its outermost loop that is not a unit dimension for
// threads=; a small one (above, 63 points) and one into a buffer the
// function does not own (below) mark none.
// CHECK-LABEL: func @padded_batch_copy
// CHECK: memref.subview
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: vector.store
// CHECK: } {lowp.parallel}
// CHECK-NEXT: return
// CHECK-NOT: lowp.parallel
func.func @padded_batch_copy(%s: memref<1x8x16x56x56xf32>) -> memref<1x8x16x58x58xf32> {
  %a = memref.alloc() : memref<1x8x16x58x58xf32>
  %v = memref.subview %a[0, 0, 0, 1, 1] [1, 8, 16, 56, 56] [1, 1, 1, 1, 1] : memref<1x8x16x58x58xf32> to memref<1x8x16x56x56xf32, strided<[430592, 53824, 3364, 58, 1], offset: 59>>
  memref.copy %s, %v : memref<1x8x16x56x56xf32> to memref<1x8x16x56x56xf32, strided<[430592, 53824, 3364, 58, 1], offset: 59>>
  return %a : memref<1x8x16x58x58xf32>
}

// -----

// Into a buffer the function does not own (it may be a view of the
// source): the remainder element by element, rewriting nothing.
// CHECK-LABEL: func @copy_into_argument
// CHECK: vector.load %arg0[%{{.*}}, %c0]
// CHECK-NOT: vector.load %arg0[%{{.*}}, %c5]
// CHECK: scf.for %{{.*}} = %c16 to %c21 step %c1
// CHECK: memref.load %arg0
// CHECK-NOT: lowp.parallel
func.func @copy_into_argument(%s: memref<3x21xf32>, %a: memref<5x23xf32>) {
  %v = memref.subview %a[1, 1] [3, 21] [1, 1] : memref<5x23xf32> to memref<3x21xf32, strided<[23, 1], offset: 24>>
  memref.copy %s, %v : memref<3x21xf32> to memref<3x21xf32, strided<[23, 1], offset: 24>>
  return
}
