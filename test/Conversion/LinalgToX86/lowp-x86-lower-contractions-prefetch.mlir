// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 prepack=true" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2 prepack=true" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=AVX2
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 prepack=true prefetch=false" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=OFF

// B packed ahead of the kernel (here a prepacked weight) and read by more
// than one block of rows: every k step of a register block also prefetches the same k step of the next column panel
// into L2 (locality 2), one prefetch per 64-byte line of the packed row:
// two for the 32 f32 columns of a znver4 panel (columns 0 and 16), one for
// AVX2's 16. The panel prefetched is min(jb + 1, last); the last panel
// (the zero-padded tail, 40 = 32 + 8 columns) prefetches nothing.
// CHECK-LABEL: func.func @linear_f32(
// CHECK-SAME: %[[P:[a-z0-9]+]]: memref<2x64x32xf32>
// CHECK: scf.for %[[JB:[a-z0-9]+]] = %c0 to %c1 step %c1
// CHECK: %[[NEXT0:.*]] = arith.addi %[[JB]], %c1 : index
// CHECK: %[[NEXT:.*]] = arith.minsi %[[NEXT0]], %c1 : index
// CHECK: scf.for %[[K:[a-z0-9]+]] = {{.*}} step %c4 iter_args
// CHECK: vector.load %[[P]][%[[JB]], %[[K]], %c0]
// CHECK: memref.prefetch %[[P]][%[[NEXT]], %[[K]], %c0], read, locality<2>, data : memref<2x64x32xf32>
// CHECK-NEXT: memref.prefetch %[[P]][%[[NEXT]], %[[K]], %c16], read, locality<2>, data : memref<2x64x32xf32>
// CHECK-COUNT-6: memref.prefetch %[[P]][%[[NEXT]]
// CHECK-NOT: memref.prefetch
// CHECK: return
// AVX2-LABEL: func.func @linear_f32(
// AVX2-SAME: %[[P:[a-z0-9]+]]: memref<3x64x16xf32>
// AVX2: scf.for %[[K:[a-z0-9]+]] = {{.*}} step %c4 iter_args
// AVX2: memref.prefetch %[[P]][%{{.*}}, %[[K]], %c0], read, locality<2>, data : memref<3x64x16xf32>
// AVX2-NOT: memref.prefetch %[[P]][%{{.*}}, %{{.*}}, %c8]
// AVX2: return
// OFF-LABEL: func.func @linear_f32(
// OFF-NOT: memref.prefetch
// OFF: return
// expected-remark @below {{weights of 'linear_f32' (argument 1) are packed once, by 'linear_f32_prepack'}}
func.func @linear_f32(%x: memref<16x64xf32>, %w: memref<40x64xf32>, %y: memref<16x40xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<16x64xf32>, memref<40x64xf32>) outs(%y : memref<16x40xf32>)
  return
}

// -----

// The VNNI-packed bf16 B of the dot kernel: a k pair of 32 columns is 64
// bf16 (128 bytes), two lines (columns 0 and 32).
// CHECK-LABEL: func.func @linear_bf16(
// CHECK-SAME: %[[P:[a-z0-9]+]]: memref<3x32x64xbf16>
// CHECK: scf.for %[[K:[a-z0-9]+]] = {{.*}} step %c4 iter_args
// CHECK: x86vector.avx512.dot
// CHECK: memref.prefetch %[[P]][%{{.*}}, %{{.*}}, %c0], read, locality<2>, data : memref<3x32x64xbf16>
// CHECK-NEXT: memref.prefetch %[[P]][%{{.*}}, %{{.*}}, %c32], read, locality<2>, data : memref<3x32x64xbf16>
// CHECK: return
// OFF-LABEL: func.func @linear_bf16(
// OFF-NOT: memref.prefetch
// OFF: return
// expected-remark @below {{weights of 'linear_bf16' (argument 1) are packed once, by 'linear_bf16_prepack'}}
func.func @linear_bf16(%x: memref<16x64xbf16>, %w: memref<96x64xbf16>, %y: memref<16x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<16x64xbf16>, memref<96x64xbf16>) outs(%y : memref<16x96xf32>)
  return
}

// -----

// A skinny GEMM (all rows in one register block, a decoding step's
// projection) streams each packed panel once, by its only block of rows:
// no prefetch of the next panel, which would be a second stream competing
// with the first.
// CHECK-LABEL: func.func @skinny_bf16(
// CHECK-NOT: memref.prefetch
// CHECK: return
// AVX2-LABEL: func.func @skinny_bf16(
// AVX2-NOT: memref.prefetch
// AVX2: return
// expected-remark @below {{weights of 'skinny_bf16' (argument 1) are packed once, by 'skinny_bf16_prepack'}}
func.func @skinny_bf16(%x: memref<1x64xbf16>, %w: memref<96x64xbf16>, %y: memref<1x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<1x64xbf16>, memref<96x64xbf16>) outs(%y : memref<1x96xf32>)
  return
}

// -----

// B packed inside the kernel, a k block of one panel at a time: each k
// step prefetches what the packing of the next full panel will read, as
// many lines as a packed k step holds. Row-major B: the step's row, 32
// columns from the next panel's first (two lines).
// CHECK-LABEL: func.func @packed_per_call(
// CHECK: %[[B:.*]] = memref.alloc() : memref<64x96xf32>
// CHECK: %[[NEXT0:.*]] = arith.addi %[[JB:[a-z0-9]+]], %c1 : index
// CHECK: %[[NEXT:.*]] = arith.minsi %[[NEXT0]], %c2 : index
// CHECK: scf.for %[[K:[a-z0-9]+]] = {{.*}} step %c4 iter_args
// CHECK: %[[COL0:.*]] = arith.muli %[[NEXT]], %c32 : index
// CHECK: memref.prefetch %[[B]][%[[K]], %[[COL0]]], read, locality<2>, data : memref<64x96xf32>
// CHECK: %[[COL16:.*]] = arith.addi %[[COL0]], %c16 : index
// CHECK: memref.prefetch %[[B]][%[[K]], %[[COL16]]], read, locality<2>, data : memref<64x96xf32>
// CHECK: return
// AVX2-LABEL: func.func @packed_per_call(
// AVX2: memref.prefetch
// AVX2: return
// OFF-LABEL: func.func @packed_per_call(
// OFF-NOT: memref.prefetch
// OFF: return
func.func @packed_per_call(%x: memref<8x64xf32>, %y: memref<8x96xf32>) {
  %w = memref.alloc() : memref<64x96xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%w : memref<64x96xf32>)
  linalg.matmul ins(%x, %w : memref<8x64xf32>, memref<64x96xf32>) outs(%y : memref<8x96xf32>)
  memref.dealloc %w : memref<64x96xf32>
  return
}

// -----

// Transposed B ([n][k]: a 64-byte line is 16 k steps of one of the panel's
// 32 rows): line p of the block (two per k step, p = 2 step + l) is row
// p mod 32 of the next panel, k chunk p / 32 (16 elements from the
// block's first k).
// CHECK-LABEL: func.func @packed_per_call_transposed(
// CHECK: %[[B:.*]] = memref.alloc() : memref<96x64xf32>
// CHECK: scf.for %[[K:[a-z0-9]+]] = %[[KB:[a-z0-9]+]] to {{.*}} step %c4 iter_args
// CHECK: memref<64x32xf32>, vector<16xf32>
// CHECK: memref<64x32xf32>, vector<16xf32>
// CHECK: %[[STEP:.*]] = arith.subi %[[K]], %[[KB]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.muli %[[STEP]], %c2 : index
// CHECK-NEXT: %[[ROW:.*]] = arith.remui %[[P0]], %c32 : index
// CHECK: %[[CHUNK:.*]] = arith.divui %[[P0]], %c32 : index
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK: %[[C:.*]] = arith.muli %[[CHUNK]], %c16 : index
// CHECK: %[[COL:.*]] = arith.addi %[[KB]], %[[C]] : index
// CHECK: memref.prefetch %[[B]][%[[R]], %[[COL]]], read, locality<2>, data : memref<96x64xf32>
// CHECK: %[[P1:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK: arith.remui %[[P1]], %c32 : index
// CHECK: memref.prefetch %[[B]]
// CHECK: return
// OFF-LABEL: func.func @packed_per_call_transposed(
// OFF-NOT: memref.prefetch
// OFF: return
func.func @packed_per_call_transposed(%x: memref<8x64xf32>, %y: memref<8x96xf32>) {
  %w = memref.alloc() : memref<96x64xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%w : memref<96x64xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<8x64xf32>, memref<96x64xf32>) outs(%y : memref<8x96xf32>)
  memref.dealloc %w : memref<96x64xf32>
  return
}

// -----

// Nothing to prefetch: a prepacked B of a single panel, a B packed per
// call with one full panel and a tail.
// CHECK-LABEL: func.func @one_panel(
// CHECK-NOT: memref.prefetch
// CHECK: return
// CHECK-LABEL: func.func @one_full_panel(
// CHECK-NOT: memref.prefetch
// CHECK: return
// expected-remark @below {{weights of 'one_panel' (argument 1) are packed once, by 'one_panel_prepack'}}
func.func @one_panel(%x: memref<8x64xf32>, %w: memref<64x32xf32>, %y: memref<8x32xf32>) {
  linalg.matmul ins(%x, %w : memref<8x64xf32>, memref<64x32xf32>) outs(%y : memref<8x32xf32>)
  return
}
func.func @one_full_panel(%x: memref<8x64xf32>, %y: memref<8x40xf32>) {
  %w = memref.alloc() : memref<64x40xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%w : memref<64x40xf32>)
  linalg.matmul ins(%x, %w : memref<8x64xf32>, memref<64x40xf32>) outs(%y : memref<8x40xf32>)
  memref.dealloc %w : memref<64x40xf32>
  return
}
