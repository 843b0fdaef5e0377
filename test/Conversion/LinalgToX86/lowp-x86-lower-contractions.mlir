// RUN: fp-opt %s -lowp-x86-lower-contractions="cpu=sapphirerapids mr=2" -split-input-file | FileCheck %s --check-prefix=DOT
// RUN: fp-opt %s -lowp-x86-lower-contractions="cpu=avx2 mr=3 nr=8" -split-input-file | FileCheck %s --check-prefix=FMA

// AVX512_BF16: B packed into VNNI pairs (k/2 x 2*nr), a 2 x 32 block of C in
// four zmm accumulators carried by the k loop, one vdpbf16ps per
// accumulator and k pair.
// DOT-LABEL: func @matmul_bf16
// DOT: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x64xbf16>
// DOT: scf.for
// DOT: %[[E:.*]] = vector.load %{{.*}} : memref<8x32xbf16>, vector<16xbf16>
// DOT: %[[O:.*]] = vector.load %{{.*}} : memref<8x32xbf16>, vector<16xbf16>
// DOT: %[[I:.*]] = vector.interleave %[[E]], %[[O]] : vector<16xbf16> -> vector<32xbf16>
// DOT: vector.store %[[I]], %[[P]]
// DOT: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c2
// DOT-COUNT-4: vector.load %{{.*}} : memref<4x32xf32>, vector<16xf32>
// DOT: %{{.*}}:4 = scf.for %{{.*}} iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}, %[[A2:.*]] = %{{.*}}, %[[A3:.*]] = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// DOT: %[[B0:.*]] = vector.load %[[P]]{{.*}} : memref<1x4x64xbf16>, vector<32xbf16>
// DOT: %[[B1:.*]] = vector.load %[[P]]{{.*}} : memref<1x4x64xbf16>, vector<32xbf16>
// DOT: vector.load %{{.*}} : memref<4x8xbf16>, vector<2xbf16>
// DOT: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// DOT: %[[S:.*]] = vector.broadcast %{{.*}} : i32 to vector<16xi32>
// DOT: %[[PAIR:.*]] = vector.bitcast %[[S]] : vector<16xi32> to vector<32xbf16>
// DOT: x86vector.avx512.dot %[[A0]], %[[PAIR]], %[[B0]] : vector<32xbf16> -> vector<16xf32>
// DOT: x86vector.avx512.dot %[[A1]], %[[PAIR]], %[[B1]] : vector<32xbf16> -> vector<16xf32>
// DOT-COUNT-2: x86vector.avx512.dot
// DOT: scf.yield
// DOT-COUNT-4: vector.store %{{.*}} : memref<4x32xf32>, vector<16xf32>
// DOT: memref.dealloc %[[P]]
// DOT-NOT: linalg.matmul
// On AVX2 the bf16 operands are widened once (B while packing into panels
// of 8 columns, A into an f32 copy) and the kernel is f32 FMA on a 3 x 8
// block, k unrolled 4 times; M = 4 leaves a 1-row tail block.
// FMA-LABEL: func @matmul_bf16
// FMA: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x8x8xf32>
// FMA: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// FMA: %[[WA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// FMA: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// FMA: scf.for %{{.*}} = %c0 to %c3 step %c3
// FMA: scf.for {{.*}} step %c4 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>)
// FMA: memref.load %[[WA]]
// FMA-COUNT-12: vector.fma
// FMA: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>)
// FMA: memref.load %[[WA]]
// FMA: vector.fma
// FMA-NOT: linalg.matmul
func.func @matmul_bf16(%a: memref<4x8xbf16>, %b: memref<8x32xbf16>, %c: memref<4x32xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xbf16>, memref<8x32xbf16>) outs(%c : memref<4x32xf32>)
  return
}

// -----

// Batches loop around the same kernel.
// DOT-LABEL: func @batch_matmul_f32
// DOT: scf.for %[[BATCH:.*]] =
// DOT: memref.alloc() {alignment = 64 : i64} : memref<1x8x32xf32>
// DOT: vector.load %{{.*}}[%[[BATCH]], %{{.*}}, %{{.*}}] : memref<3x8x32xf32>, vector<16xf32>
// DOT: memref.load %{{.*}}[%[[BATCH]], %{{.*}}, %{{.*}}] : memref<3x2x8xf32>
// DOT: vector.fma
// FMA-LABEL: func @batch_matmul_f32
// FMA: vector.fma
func.func @batch_matmul_f32(%a: memref<3x2x8xf32>, %b: memref<3x8x32xf32>, %c: memref<3x2x32xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x2x8xf32>, memref<3x8x32xf32>) outs(%c : memref<3x2x32xf32>)
  return
}

// -----

// Left alone: tensors, transposed maps, N not divisible by nr.
// DOT-LABEL: func @untouched
// DOT: linalg.matmul ins(%{{.*}} : tensor<4x8xf32>, tensor<8x32xf32>)
// DOT: linalg.matmul indexing_maps
// DOT: linalg.matmul ins(%{{.*}} : memref<4x8xf32>, memref<8x20xf32>)
func.func @untouched(%a: tensor<4x8xf32>, %b: tensor<8x32xf32>, %c: tensor<4x32xf32>,
                     %bt: memref<32x8xf32>, %am: memref<4x8xf32>, %cm: memref<4x32xf32>,
                     %b20: memref<8x20xf32>, %c20: memref<4x20xf32>) -> tensor<4x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%am, %bt : memref<4x8xf32>, memref<32x8xf32>) outs(%cm : memref<4x32xf32>)
  linalg.matmul ins(%am, %b20 : memref<4x8xf32>, memref<8x20xf32>) outs(%c20 : memref<4x20xf32>)
  return %0 : tensor<4x32xf32>
}

// -----

// Convolutions become im2col + the matmul kernel: the input patches are
// copied once into a (pixels x KH*KW*C) buffer in the input's type, the
// filter and the output are viewed as matrices.
// DOT-LABEL: func @conv_bf16
// DOT: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x144xbf16>
// DOT: memref.load %{{.*}} : memref<1x6x6x16xbf16>
// DOT: memref.store %{{.*}}, %[[COL]]
// DOT: %[[F:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<3x3x16x32xbf16> into memref<144x32xbf16>
// DOT: %[[O:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<1x4x4x32xf32> into memref<16x32xf32>
// DOT: vector.interleave
// DOT: x86vector.avx512.dot
// DOT: memref.dealloc %[[COL]]
// DOT-NOT: linalg.conv_2d
// FMA-LABEL: func @conv_bf16
// FMA: vector.fma
// FMA-NOT: linalg.conv_2d
func.func @conv_bf16(%i: memref<1x6x6x16xbf16>, %f: memref<3x3x16x32xbf16>, %o: memref<1x4x4x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x16xbf16>, memref<3x3x16x32xbf16>) outs(%o : memref<1x4x4x32xf32>)
  return
}
