// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 winograd=false" -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2" -split-input-file | FileCheck %s --check-prefix=AVX2

// f32 3x3 stride-1 NCHW convolutions run as Winograd F(2x2, 3x3): the
// filter transformed once into U[16][F][C] (a tap of 16 channels gathered,
// 9 elements apart), then per block of tile rows V[16][C][tiles] (input
// tiles' columns split into even and odd by shuffles), 16 GEMMs M[xi] =
// U[xi] * V[xi] and the output transform (the two columns of each tile
// interleaved back) through the fill into the output.
// 2 images of 5 tile rows of 5 tiles (25, the fewest per image the kernel
// takes): one block each (nr = 32 on Zen 4: 32 / 5 = 6 rows at most), its
// 25 tiles padded to 32 columns.

// CHECK-LABEL: func.func @winograd
// CHECK:       %[[U:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x32x16xf32>
// CHECK:       scf.for %[[F:.*]] = %c0 to %c32 step %c1 {
// CHECK-COUNT-9: vector.gather
// CHECK:         vector.store %{{.*}}, %[[U]][%c15, %[[F]], %c0]
// CHECK:       } {lowp.parallel}
// CHECK:       %[[V:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16x32xf32>
// CHECK:       %[[M:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x32x32xf32>
// CHECK:       vector.shuffle %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:       vector.shuffle %{{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK:       vector.maskedstore %[[V]][%c15
// CHECK:       scf.for %[[XI:.*]] = %c0 to %c16 step %c1 {
// CHECK:         %[[B:.*]] = memref.subview %[[V]][%[[XI]], 0, 0] [1, 16, 32] [1, 1, 1]
// CHECK:         vector.fma
// CHECK:         vector.{{(masked)?}}store {{.*}}%[[M]][%[[XI]]
// CHECK:       }
// CHECK:       vector.shuffle %{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// CHECK:       vector.maskedstore %arg2
// CHECK:       memref.dealloc %[[U]]
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// OFF-LABEL:   func.func @winograd
// OFF-NOT:     vector.gather
// OFF:         memref.alloc() {alignment = 64 : i64} : memref<144x128xf32>
func.func @winograd(%x: memref<2x16x12x12xf32>, %w: memref<32x16x3x3xf32>, %y: memref<2x32x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<2x32x10x10xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x16x12x12xf32>, memref<32x16x3x3xf32>) outs(%y : memref<2x32x10x10xf32>)
  return
}

// -----

// An odd output (9x9, 2 images): 5 x 5 tiles each, the last tile row and
// column with one output row and column. Tile rows 0-3 are one block, the
// last its own (ragged) one: its input row 3 is not read (zeros) and its
// output row 1 not written.
// CHECK-LABEL: func.func @winograd_odd
// CHECK:       vector.gather
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<16x16x32xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c4 step %c4 {
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
func.func @winograd_odd(%x: memref<2x16x11x11xf32>, %w: memref<16x16x3x3xf32>, %y: memref<2x16x9x9xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x16x11x11xf32>, memref<16x16x3x3xf32>) outs(%y : memref<2x16x9x9xf32>)
  return
}

// -----

// 7x7 outputs (16 tiles per image) stay on the im2col kernel at any batch:
// every image's GEMMs would read the whole transformed filter for 16 tiles.
// CHECK-LABEL: func.func @not_winograd_small_images
// CHECK-NOT:   vector.gather
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<144x64xf32>
func.func @not_winograd_small_images(%x: memref<32x16x9x9xf32>, %w: memref<16x16x3x3xf32>, %y: memref<32x16x7x7xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<32x16x9x9xf32>, memref<16x16x3x3xf32>) outs(%y : memref<32x16x7x7xf32>)
  return
}

// -----

// 56x56 outputs: blocks of one tile row (28 tiles, padded to 32), 28
// blocks, each its own V and M (the loop threads= shares out).
// CHECK-LABEL: func.func @winograd_blocks
// CHECK:       scf.for %{{.*}} = %c0 to %c28 step %c1 {
// CHECK-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<16x64x32xf32>
// CHECK-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<16x64x32xf32>
// CHECK:       } {lowp.parallel}
func.func @winograd_blocks(%x: memref<1x64x58x58xf32>, %w: memref<64x64x3x3xf32>, %y: memref<1x64x56x56xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x64x58x58xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x56x56xf32>)
  return
}

// -----

// 512 channels and filters at 14x14: V and M of one row of 7 tiles already
// fill half the L2, so blocks would hold 7 tiles and each would read the
// whole 16 MB transformed filter: the im2col kernel. 256 at 14x14 (blocks
// of 14 tiles) stays Winograd.
// CHECK-LABEL: func.func @not_winograd_few_tiles_per_block
// CHECK-NOT:   vector.gather
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<512x128xf32>
// CHECK:       vector.gather
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
func.func @not_winograd_few_tiles_per_block(%x: memref<1x512x16x16xf32>, %w: memref<512x512x3x3xf32>, %y: memref<1x512x14x14xf32>,
                                            %x2: memref<1x256x16x16xf32>, %w2: memref<256x256x3x3xf32>, %y2: memref<1x256x14x14xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x512x16x16xf32>, memref<512x512x3x3xf32>) outs(%y : memref<1x512x14x14xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x2, %w2 : memref<1x256x16x16xf32>, memref<256x256x3x3xf32>) outs(%y2 : memref<1x256x14x14xf32>)
  return
}

// -----

// Not Winograd: stride 2, a 5x5 filter, bf16 operands on Zen 4 (the
// vdpbf16ps kernel), fewer than 16 channels, 16 tiles (one 8x8 image:
// below 25, the filter transform would cost more than it saves). Each
// takes the im2col kernel (its col buffer).
// CHECK-LABEL: func.func @not_winograd
// CHECK-NOT:   vector.gather
// CHECK-COUNT-5: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}x{{[0-9]+}}x{{bf16|f32}}>
// CHECK-NOT:   vector.gather
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
func.func @not_winograd(%x: memref<1x16x10x10xf32>, %w: memref<16x16x3x3xf32>, %y2: memref<1x16x4x4xf32>,
                        %w5: memref<16x16x5x5xf32>, %y5: memref<1x16x6x6xf32>,
                        %xb: memref<1x16x10x10xbf16>, %wb: memref<16x16x3x3xbf16>, %y8: memref<1x16x8x8xf32>,
                        %x8: memref<1x8x10x10xf32>, %w8: memref<16x8x3x3xf32>, %y8b: memref<1x16x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x16x10x10xf32>, memref<16x16x3x3xf32>) outs(%y2 : memref<1x16x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w5 : memref<1x16x10x10xf32>, memref<16x16x5x5xf32>) outs(%y5 : memref<1x16x6x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : memref<1x16x10x10xbf16>, memref<16x16x3x3xbf16>) outs(%y8 : memref<1x16x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x8, %w8 : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%y8b : memref<1x16x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x16x10x10xf32>, memref<16x16x3x3xf32>) outs(%y8 : memref<1x16x8x8xf32>)
  return
}

// -----

// bf16 operands: widened as read, transformed and multiplied in f32 where
// the direct GEMM would use f32 FMAs too (AVX2, 8 lanes); on Zen 4 the
// vdpbf16ps im2col kernel stays (@not_winograd above).
// AVX2-LABEL: func.func @winograd_bf16
// AVX2:       vector.gather %{{.*}} : memref<16x144xbf16>, vector<8xindex>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
// AVX2:       arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// 8 tiles per row, blocks of 2 rows (nr = 16): 16 tiles, 4 blocks.
// AVX2:       scf.for %{{.*}} = %c0 to %c8 step %c2 {
// AVX2-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<16x16x16xf32>
// AVX2:       vector.load %{{.*}} : memref<1x16x18x18xbf16>, vector<8xbf16>
// AVX2:       arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// AVX2-NOT:   linalg.conv_2d_nchw_fchw
func.func @winograd_bf16(%x: memref<1x16x18x18xbf16>, %w: memref<16x16x3x3xbf16>, %y: memref<1x16x16x16xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x16x18x18xbf16>, memref<16x16x3x3xbf16>) outs(%y : memref<1x16x16x16xf32>)
  return
}

// -----

// NHWC: the GEMMs take tiles as rows, M[xi] (tiles x F) = V[xi] (tiles x C)
// * U[xi] (C x F), vectorized along channels: U[16][C][F padded to 16]
// with its pad zeroed, V[16][tiles][C] read in place as A, the output
// through its pixels x F view. 20 filters: a masked last vector.
// CHECK-LABEL: func.func @winograd_nhwc
// CHECK:       %[[U:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16x32xf32>
// CHECK:       vector.load %{{.*}} : memref<2880xf32>, vector<16xf32>
// CHECK:       vector.maskedstore %[[U]][%{{.*}}, %{{.*}}, %c20]
// CHECK:       %[[V:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x32x16xf32>
// CHECK:       %[[M:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x32x32xf32>
// CHECK:       vector.load %arg0[%{{.*}}] : memref<1x18x18x16xf32>, vector<16xf32>
// CHECK:       scf.for %[[XI:.*]] = %c0 to %c16 step %c1 {
// CHECK:         memref.subview %[[U]][%[[XI]], 0, 0] [1, 16, 32] [1, 1, 1]
// CHECK:         vector.fma
// CHECK:       }
// CHECK:       vector.maskedstore %{{.*}} : memref<256x20xf32>, vector<16xi1>, vector<16xf32>
// CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
func.func @winograd_nhwc(%x: memref<1x18x18x16xf32>, %w: memref<3x3x16x20xf32>, %y: memref<1x16x16x20xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x18x18x16xf32>, memref<3x3x16x20xf32>) outs(%y : memref<1x16x16x20xf32>)
  return
}

// -----

// An FHWC filter (TOSA's): a tap of 16 filters gathered, 9 C apart.
// CHECK-LABEL: func.func @winograd_fhwc
// CHECK:       vector.gather %{{.*}} : memref<4608xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-NOT:   linalg.conv_2d_nhwc_fhwc
func.func @winograd_fhwc(%x: memref<1x18x18x16xf32>, %w: memref<32x3x3x16xf32>, %y: memref<1x16x16x32xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x18x18x16xf32>, memref<32x3x3x16xf32>) outs(%y : memref<1x16x16x32xf32>)
  return
}

// -----

// NHWC, not Winograd: stride 2 and 8 channels take the direct kernel
// (its filter packed, A read in place: no gather, no transform buffers).
// CHECK-LABEL: func.func @not_winograd_nhwc
// CHECK-NOT:   vector.gather
// CHECK-NOT:   memref<16x{{.*}}xf32>
// CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
func.func @not_winograd_nhwc(%x: memref<1x18x18x16xf32>, %w: memref<3x3x16x16xf32>, %y: memref<1x8x8x16xf32>,
                             %x8: memref<1x18x18x8xf32>, %w8: memref<3x3x8x16xf32>, %y8: memref<1x16x16x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x18x18x16xf32>, memref<3x3x16x16xf32>) outs(%y : memref<1x8x8x16xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x8, %w8 : memref<1x18x18x8xf32>, memref<3x3x8x16xf32>) outs(%y8 : memref<1x16x16x16xf32>)
  return
}
