// RUN: fp-opt %s -lowp-x86-lower-contractions="target=sapphirerapids amx=true" -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=sapphirerapids amx=true" -split-input-file -verify-diagnostics -o /dev/null

// amx=true: the dot kernel's full 32 x 32 blocks of C on 2 x 2 AMX tiles,
// the M rest (here 6 rows) on vdpbf16ps. The function asks Linux for the
// tile registers once (a module flag guards arch_prctl).

// CHECK-DAG: memref.global "private" @__lowp_amx_requested : memref<i32> = dense<0>
// CHECK-DAG: func.func private @arch_prctl(i32, i64) -> i32
// CHECK-LABEL: func.func @tiles
// CHECK: memref.get_global @__lowp_amx_requested
// CHECK: scf.if
// CHECK: func.call @arch_prctl
// C's sums in 4 accumulator tiles, from zero: the fill of the argument C,
// right before the matmul, is the kernel's (C is written whole).
// CHECK-NOT: linalg.fill
// CHECK-COUNT-4: amx.tile_zero
// CHECK: scf.for {{.*}} -> (!amx.tile<16x16xf32>, !amx.tile<16x16xf32>, !amx.tile<16x16xf32>, !amx.tile<16x16xf32>)
// CHECK-COUNT-4: amx.tile_load
// CHECK-COUNT-4: amx.tile_mulf
// CHECK: scf.yield
// CHECK-COUNT-4: amx.tile_store
// CHECK: x86vector.avx512.dot
func.func @tiles(%a: memref<70x64xbf16>, %b: memref<64x64xbf16>, %c: memref<70x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<70x64xf32>)
  linalg.matmul ins(%a, %b : memref<70x64xbf16>, memref<64x64xbf16>) outs(%c : memref<70x64xf32>)
  return
}

// -----

// K = 24 is not a whole tile (32): the only k step multiplies tiles of
// copies padded with zeros, A's read by a masked load (never past K).
// CHECK-LABEL: func.func @k_tail
// CHECK: vector.maskedload
// CHECK: amx.tile_load
// CHECK: amx.tile_mulf
func.func @k_tail(%a: memref<32x24xbf16>, %b: memref<24x32xbf16>, %c: memref<32x32xf32>) {
  linalg.matmul ins(%a, %b : memref<32x24xbf16>, memref<24x32xbf16>) outs(%c : memref<32x32xf32>)
  return
}

// -----

// Fewer rows than one block of tiles: vdpbf16ps, and a remark says so.
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT: amx.
// CHECK: x86vector.avx512.dot
func.func @few_rows(%a: memref<16x64xbf16>, %b: memref<64x64xbf16>, %c: memref<16x64xf32>) {
  // expected-remark @below {{amx=true: a 16x64x64 GEMM runs on vdpbf16ps, not AMX tiles: M = 16 is below one block of 2 tile rows (32)}}
  linalg.matmul ins(%a, %b : memref<16x64xbf16>, memref<64x64xbf16>) outs(%c : memref<16x64xf32>)
  return
}

// -----

// An f32 matmul is not a dot kernel: no tiles, no remark, no permission.
// CHECK-LABEL: func.func @f32
// CHECK-NOT: amx.
// CHECK-NOT: arch_prctl
// CHECK: vector.fma
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// NHWC at stride 1 with a tap's channels in whole tiles (32): A tiles are
// read from the input in place, the image flattened to (IH*IW) x C and
// taken as one long row of (8 - 1) * 12 + 10 = 94 pixels; the GEMM writes
// f32 rows from the fill value (tile_zero) into a buffer, and the rows
// whose column is below OW = 10 are stored into the output. No im2col.
// CHECK-LABEL: func.func @nhwc_tile_rows
// CHECK: %[[O:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<1x8x10x40xf32> into memref<80x40xf32>
// CHECK-NOT: memref<{{[0-9]+}}x288xbf16>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1, 2], [3]] : memref<1x10x12x32xbf16> into memref<1x120x32xbf16>
// CHECK: %[[ROWS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<94x40xf32>
// CHECK: amx.tile_zero
// CHECK: amx.tile_load %[[FLAT]]
// CHECK: amx.tile_mulf
// CHECK: amx.tile_store %[[ROWS]]
// CHECK: %[[X:.*]] = arith.remui %{{.*}}, %c12{{.*}} : index
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[X]], %c10{{.*}} : index
// CHECK: scf.if %[[VALID]] {
// CHECK: vector.load %[[ROWS]]
// CHECK: vector.store %{{.*}}, %[[O]]
// CHECK: vector.maskedload %[[ROWS]]
// CHECK: vector.maskedstore %[[O]]
// CHECK: memref.dealloc %[[ROWS]]
// CHECK-NOT: linalg.
func.func @nhwc_tile_rows(%i: memref<1x10x12x32xbf16>, %f: memref<3x3x32x40xbf16>) -> memref<1x8x10x40xf32> {
  %z = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x8x10x40xf32>
  linalg.fill ins(%z : f32) outs(%o : memref<1x8x10x40xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x12x32xbf16>, memref<3x3x32x40xbf16>) outs(%o : memref<1x8x10x40xf32>)
  return %o : memref<1x8x10x40xf32>
}

// -----

// Stride 2 (rows of a tile would be two input pixels apart and the dropped
// columns half of them), 48 channels (a tile would straddle two taps), or
// no fill (the output's values are C's start): tiles on an im2col copy.
// CHECK-LABEL: func.func @nhwc_tiles_im2col
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}x288xbf16>
// CHECK: amx.tile_load
// CHECK-LABEL: func.func @nhwc_tiles_im2col_c48
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}x432xbf16>
// CHECK: amx.tile_load
// CHECK-LABEL: func.func @nhwc_tiles_im2col_no_fill
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}x288xbf16>
// CHECK: amx.tile_load
func.func @nhwc_tiles_im2col(%i: memref<1x17x21x32xbf16>, %f: memref<3x3x32x40xbf16>) -> memref<1x8x10x40xf32> {
  %z = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x8x10x40xf32>
  linalg.fill ins(%z : f32) outs(%o : memref<1x8x10x40xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %f : memref<1x17x21x32xbf16>, memref<3x3x32x40xbf16>) outs(%o : memref<1x8x10x40xf32>)
  return %o : memref<1x8x10x40xf32>
}
func.func @nhwc_tiles_im2col_c48(%i: memref<1x10x12x48xbf16>, %f: memref<3x3x48x40xbf16>) -> memref<1x8x10x40xf32> {
  %z = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<1x8x10x40xf32>
  linalg.fill ins(%z : f32) outs(%o : memref<1x8x10x40xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x12x48xbf16>, memref<3x3x48x40xbf16>) outs(%o : memref<1x8x10x40xf32>)
  return %o : memref<1x8x10x40xf32>
}
func.func @nhwc_tiles_im2col_no_fill(%i: memref<1x10x12x32xbf16>, %f: memref<3x3x32x40xbf16>, %o: memref<1x8x10x40xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x12x32xbf16>, memref<3x3x32x40xbf16>) outs(%o : memref<1x8x10x40xf32>)
  return
}
