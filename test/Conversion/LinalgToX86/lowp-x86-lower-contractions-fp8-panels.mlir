// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 prepack=true" -split-input-file | FileCheck %s --check-prefix=ZEN4
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2 prepack=true" -split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=sapphirerapids amx=true prepack=true" -split-input-file | FileCheck %s --check-prefix=AMX

// An f8E4M3FN weight argument widened exactly for its matmul (what
// lowp-fp8-weight-only leaves) and packed once: the panels stay bytes and
// the kernel widens them in registers: a sign extension, a shift and a
// mask put the byte's fields into a bf16 (vdpbf16ps on Zen 4) or an f32
// (FMAs on AVX2) that is the value times 2^-120. A is read as a copy
// scaled by 2^64 and the sums are scaled by 2^56 before they are stored.
// With AMX tiles, which read B from memory as it is, the panels are bf16.

// ZEN4-LABEL: func.func @gemv(
// ZEN4-SAME:    %{{.*}}: memref<1x64xbf16>, %[[P:[a-z0-9]+]]: memref<3x32x64xf8E4M3FN>)
// ZEN4:         %[[A:.*]] = memref.alloc() {{.*}} : memref<1x64xbf16>
// ZEN4:         arith.mulf %{{.*}}, %{{.*}} : f32
// ZEN4:         memref.store %{{.*}}, %[[A]]
// ZEN4:         %[[B:.*]] = vector.load %[[P]][{{.*}}] : memref<3x32x64xf8E4M3FN>, vector<32xf8E4M3FN>
// ZEN4:         %[[I8:.*]] = vector.bitcast %[[B]] : vector<32xf8E4M3FN> to vector<32xi8>
// ZEN4:         %[[I16:.*]] = arith.extsi %[[I8]] : vector<32xi8> to vector<32xi16>
// ZEN4:         %[[SH:.*]] = arith.shli %[[I16]], %{{.*}} : vector<32xi16>
// ZEN4:         %[[M:.*]] = arith.andi %[[SH]], %{{.*}} : vector<32xi16>
// ZEN4:         %[[W:.*]] = vector.bitcast %[[M]] : vector<32xi16> to vector<32xbf16>
// ZEN4:         vector.load %[[A]]
// ZEN4:         x86vector.avx512.dot %{{.*}}, %{{.*}}, %[[W]]
// ZEN4:         arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// ZEN4:         memref.dealloc %[[A]]
// ZEN4-LABEL: func.func @gemv_prepack(
// ZEN4-SAME:    memref<80x64xf8E4M3FN>) -> memref<3x32x64xf8E4M3FN>
// ZEN4-NOT:     arith.extf
// ZEN4:         arith.select
// AVX2-LABEL: func.func @gemv(
// AVX2-SAME:    memref<5x64x16xf8E4M3FN>
// AVX2:         arith.extsi %{{.*}} : vector<8xi8> to vector<8xi32>
// AVX2:         vector.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// AVX2:         vector.fma
// AMX-LABEL: func.func @gemv(
// AMX-SAME:    memref<{{.*}}xbf16>
// AMX-NOT:     f8E4M3FN
// AMX-LABEL: func.func @gemv_prepack(
func.func @gemv(%x: memref<1x64xbf16>, %w: memref<80x64xf8E4M3FN>) -> memref<1x80xf32> {
  %zero = arith.constant 0.0 : f32
  %wb = memref.alloc() {alignment = 64 : i64} : memref<80x64xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<80x64xf8E4M3FN>) outs(%wb : memref<80x64xbf16>) {
  ^bb0(%in: f8E4M3FN, %out: bf16):
    %t = arith.extf %in : f8E4M3FN to bf16
    linalg.yield %t : bf16
  }
  %y = memref.alloc() : memref<1x80xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x80xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wb : memref<1x64xbf16>, memref<80x64xbf16>) outs(%y : memref<1x80xf32>)
  return %y : memref<1x80xf32>
}

// -----

// Only an exact widening of f8E4M3FN is read as FP8 panels: an E5M2 weight
// is widened while packing, into bf16 panels.
// ZEN4-LABEL: func.func @e5m2(
// ZEN4-SAME:    memref<3x32x64xbf16>
func.func @e5m2(%x: memref<1x64xbf16>, %w: memref<80x64xf8E5M2>) -> memref<1x80xf32> {
  %zero = arith.constant 0.0 : f32
  %wb = memref.alloc() {alignment = 64 : i64} : memref<80x64xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<80x64xf8E5M2>) outs(%wb : memref<80x64xbf16>) {
  ^bb0(%in: f8E5M2, %out: bf16):
    %t = arith.extf %in : f8E5M2 to bf16
    linalg.yield %t : bf16
  }
  %y = memref.alloc() : memref<1x80xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x80xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wb : memref<1x64xbf16>, memref<80x64xbf16>) outs(%y : memref<1x80xf32>)
  return %y : memref<1x80xf32>
}
