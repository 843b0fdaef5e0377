// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -split-input-file | FileCheck %s

// A copy written as a linalg.generic whose input map permutes the innermost
// dimension (a decision's transpose of bf16 computed through f32 and back,
// as attention's K^T after a grouped-query broadcast is) becomes the
// linalg.transpose it is, and so lanes x lanes blocks transposed in
// registers: contiguous 16-element loads of rows, no element-by-element
// gather.
// CHECK-LABEL: func.func @bf16_transpose_through_f32(
// CHECK-NOT:     linalg.generic
// CHECK:         vector.load %{{.*}} : memref<4x32x64xbf16>, vector<16xbf16>
// CHECK:         vector.shuffle
// CHECK:         vector.store %{{.*}} : memref<4x64x32xbf16>, vector<16xbf16>
#in = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @bf16_transpose_through_f32(%a: memref<4x32x64xbf16>, %b: memref<4x64x32xbf16>) {
  linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : memref<4x32x64xbf16>) outs(%b : memref<4x64x32xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %w = arith.extf %x : bf16 to f32
    %n = arith.truncf %w : f32 to bf16
    linalg.yield %n : bf16
  }
  return
}

// -----

// Not copies: a body that computes, a broadcast (not a permutation), a
// conversion to another type. They stay generics.
// CHECK-LABEL: func.func @not_copies(
// CHECK-COUNT-3: linalg.generic
#in2 = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d1)>
func.func @not_copies(%a: memref<32x64xf32>, %b: memref<64x32xf32>, %v: memref<32xf32>,
                      %h: memref<64x32xbf16>) {
  linalg.generic {indexing_maps = [#in2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<32x64xf32>) outs(%b : memref<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#bc, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<32xf32>) outs(%b : memref<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#in2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<32x64xf32>) outs(%h : memref<64x32xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}
