// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -split-input-file -verify-diagnostics -o /dev/null

// An NCHW convolution's filter gradient (a contraction generic over batch
// and output pixels: o[c][kh][kw][f] += x[n][c][window] * g[n][f][oh][ow])
// runs as GEMMs per image and block of output rows: col (the input's
// windows, C*KH*KW rows of the block's pixels, within a quarter of the L2)
// times g's block packed as B, accumulated into o viewed as [C*KH*KW][F].
// 576 x 56 f32 col: 2 rows per block. 8 images in 4 parts (the loop
// threads= shares out), each part's sums in a zeroed buffer, added to o
// at the end.

#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>

// CHECK-LABEL: func.func @filter_grad
// CHECK:       %[[C:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : memref<64x3x3x64xf32> into memref<576x64xf32>
// CHECK:       %[[PARTS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x576x64xf32>
// CHECK:       scf.for %[[PART:.*]] = %c0 to %c4 step %c1 {
// CHECK:         memref.store %{{.*}}, %[[PARTS]][%[[PART]], %{{.*}}, %{{.*}}]
// CHECK:         %[[END:.*]] = arith.minui %{{.*}}, %c8 : index
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %[[END]] step %c1 {
// CHECK-NEXT:      scf.for %[[Y0:.*]] = %c0 to %c56 step %c2 {
// CHECK-NEXT:        %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<576x112xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c576 step %c1 {
// CHECK:               vector.load %{{.*}}[%[[N]], {{.*}}] : memref<8x64x58x58xf32>, vector<16xf32>
// CHECK:               vector.store %{{.*}}, %[[COL]]
// CHECK:             } {lowp.parallel}
// CHECK:             memref.subview %{{.*}}[%[[N]], 0, %{{.*}}] [1, 64, 112] [1, 1, 1] : memref<8x64x3136xf32> to memref<64x112xf32, strided<[3136, 1], offset: ?>>
// CHECK:             vector.fma
// CHECK:             vector.store %{{.*}}, %[[PARTS]][%[[PART]], %{{.*}}, %{{.*}}]
// CHECK:             memref.dealloc %[[COL]]
// CHECK:       } {lowp.parallel}
// CHECK:       scf.for
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.load %[[C]]
// CHECK-COUNT-4:   memref.load %[[PARTS]]
// CHECK:           memref.store %{{.*}}, %[[C]]
// CHECK:       memref.dealloc %[[PARTS]]
// CHECK-NOT:   linalg.generic
func.func @filter_grad(%x: memref<8x64x58x58xf32>, %g: memref<8x64x56x56xf32>, %o: memref<64x3x3x64xf32>) {
  linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<8x64x58x58xf32>, memref<8x64x56x56xf32>) outs(%o : memref<64x3x3x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 operands on vdpbf16ps: col in bf16 (pixel pairs along its rows).
// 7 columns per output row: blocks of an even number of rows (6), and the
// last row an odd block of 7 pixels, whose col rows end with a zero pixel
// and whose g block is a zero-padded copy.
#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>

// CHECK-LABEL: func.func @filter_grad_bf16_odd
// CHECK:       scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK:         scf.for %{{.*}} = %c0 to %c6 step %c6 {
// CHECK:           memref.alloc() {alignment = 64 : i64} : memref<144x42xbf16>
// CHECK:           x86vector.avx512.dot
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<144x8xbf16>
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}, %c7] : memref<144x8xbf16>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<32x8xbf16>
// CHECK:         x86vector.avx512.dot
// CHECK-NOT:   linalg.generic
func.func @filter_grad_bf16_odd(%x: memref<2x16x9x9xbf16>, %g: memref<2x32x7x7xbf16>, %o: memref<16x3x3x32xf32>) {
  linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<2x16x9x9xbf16>, memref<2x32x7x7xbf16>) outs(%o : memref<16x3x3x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %be, %ae : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A narrowing cast fused into the body (f32 buffers multiplied in bf16):
// col rounds the input as it copies it, g's block is rounded into a bf16
// copy. Loops in another order, stride 2, dilation 2.
#x = affine_map<(n, f, c, y, x, i, j) -> (n, c, y * 2 + i * 2, x * 2 + j * 2)>
#g = affine_map<(n, f, c, y, x, i, j) -> (n, f, y, x)>
#o = affine_map<(n, f, c, y, x, i, j) -> (c, i, j, f)>

// CHECK-LABEL: func.func @filter_grad_rounded
// CHECK:       vector.shuffle
// CHECK:       arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK:       arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK:       x86vector.avx512.dot
// CHECK-NOT:   linalg.generic
func.func @filter_grad_rounded(%x: memref<1x8x41x41xf32>, %g: memref<1x16x18x18xf32>, %o: memref<8x3x3x16xf32>) {
  linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["reduction", "parallel", "parallel", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %g : memref<1x8x41x41xf32>, memref<1x16x18x18xf32>) outs(%o : memref<8x3x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %at = arith.truncf %a : f32 to bf16
    %bt = arith.truncf %b : f32 to bf16
    %ae = arith.extf %at : bf16 to f32
    %be = arith.extf %bt : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not taken: an f16 output (the kernel accumulates in f32), with the reason.
#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>

// CHECK-LABEL: func.func @f16_output
// CHECK:       linalg.generic
func.func @f16_output(%x: memref<1x4x6x6xf16>, %g: memref<1x8x4x4xf16>, %o: memref<4x3x3x8xf16>) {
  // expected-remark @below {{generic loop path for 'linalg.generic': a convolution's filter gradient the kernel cannot take: needs both operands multiplied in one float type of 32 bits or fewer and an f32 output}}
  linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<1x4x6x6xf16>, memref<1x8x4x4xf16>) outs(%o : memref<4x3x3x8xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// Not taken: tensors (the kernels run after bufferization).
#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>

// CHECK-LABEL: func.func @tensors
// CHECK:       linalg.generic
func.func @tensors(%x: tensor<1x4x6x6xf32>, %g: tensor<1x8x4x4xf32>, %o: tensor<4x3x3x8xf32>) -> tensor<4x3x3x8xf32> {
  // expected-remark @below {{generic loop path for 'linalg.generic': a convolution's filter gradient the kernel cannot take: operands are not buffers (the kernels run after bufferization)}}
  %r = linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<1x4x6x6xf32>, tensor<1x8x4x4xf32>) outs(%o : tensor<4x3x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3x8xf32>
  return %r : tensor<4x3x3x8xf32>
}

// -----

// Not a filter gradient, left alone: a window row that reads both taps.
// Still a multiply-accumulate over a window on the loop path: remarked.
#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i + j, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>

// CHECK-LABEL: func.func @not_a_window
// CHECK:       linalg.generic
// CHECK-NOT:   vector.fma
func.func @not_a_window(%x: memref<1x4x8x6xf32>, %g: memref<1x8x4x4xf32>, %o: memref<4x3x3x8xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.generic': no x86 kernel for this windowed contraction}}
  linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<1x4x8x6xf32>, memref<1x8x4x4xf32>) outs(%o : memref<4x3x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not a filter gradient: o -= x * g (left to the generic path, as any
// convolution-like generic no kernel takes).
#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>

// CHECK-LABEL: func.func @subtracts
// CHECK:       linalg.generic
func.func @subtracts(%x: memref<1x4x6x6xf32>, %g: memref<1x8x4x4xf32>, %o: memref<4x3x3x8xf32>) {
  // expected-remark @below {{generic loop path for 'linalg.generic': no x86 kernel for this convolution}}
  linalg.generic {indexing_maps = [#x, #g, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<1x4x6x6xf32>, memref<1x8x4x4xf32>) outs(%o : memref<4x3x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
