// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 mr=2 winograd=false" -split-input-file | FileCheck %s --check-prefix=DOT
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2 mr=3 nr=8 winograd=false" -split-input-file | FileCheck %s --check-prefix=FMA
// The direct convolution kernels (winograd=false: the 3x3 stride-1 ones
// run as Winograd F(2x2, 3x3) by default, lowp-x86-lower-contractions-winograd.mlir).

// AVX512_BF16: B packed into VNNI pairs (k/2 x 2*nr) one k block of one
// panel at a time, inside the kernel's loops, into a buffer freed after the
// panel; a 2 x 32 block of C in
// four zmm accumulators carried by the k loop, one vdpbf16ps per
// accumulator and k pair.
// DOT-LABEL: func @matmul_bf16
// DOT: scf.for
// DOT: scf.for
// DOT: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xbf16>
// DOT: scf.for
// DOT: %[[E:.*]] = vector.load %{{.*}} : memref<8x32xbf16>, vector<16xbf16>
// DOT: %[[O:.*]] = vector.load %{{.*}} : memref<8x32xbf16>, vector<16xbf16>
// DOT: %[[I:.*]] = vector.interleave %[[E]], %[[O]] : vector<16xbf16> -> vector<32xbf16>
// DOT: vector.store %[[I]], %[[P]]
// DOT: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c2
// DOT-COUNT-4: vector.load %{{.*}} : memref<4x32xf32>, vector<16xf32>
// DOT: %{{.*}}:4 = scf.for %{{.*}} iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}, %[[A2:.*]] = %{{.*}}, %[[A3:.*]] = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// DOT: %[[B0:.*]] = vector.load %[[P]]{{.*}} : memref<4x64xbf16>, vector<32xbf16>
// DOT: %[[B1:.*]] = vector.load %[[P]]{{.*}} : memref<4x64xbf16>, vector<32xbf16>
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
// FMA: %[[WA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// FMA: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// FMA: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x8xf32>
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
// DOT: memref.alloc() {alignment = 64 : i64} : memref<8x32xf32>
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

// Left alone: tensors (the kernels run after bufferization).
// DOT-LABEL: func @untouched
// DOT: linalg.matmul ins(%{{.*}} : tensor<4x8xf32>, tensor<8x32xf32>)
func.func @untouched(%a: tensor<4x8xf32>, %b: tensor<8x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// B read transposed ([n][k], nn.Linear's weight): packing is a 32-bit
// transpose through registers. For the dot, a bf16 pair along k is one i32
// of a B^T row: 16 rows of 16 pairs loaded, bitcast to i32, transposed by 4
// stages of shuffles (64), stored as VNNI rows. N = 40: a zero-padded last
// panel and a masked last vector of C.
// DOT-LABEL: func @matmul_bt_bf16
// DOT: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x64xbf16>
// DOT-COUNT-16: vector.bitcast %{{.*}} : vector<32xbf16> to vector<16xi32>
// DOT-COUNT-64: vector.shuffle {{.*}} : vector<16xi32>, vector<16xi32>
// DOT-COUNT-16: vector.store %{{.*}}, %[[P]]{{.*}} : memref<32x64xbf16>, vector<32xbf16>
// DOT: x86vector.avx512.dot
// DOT: memref.dealloc %[[P]]
// DOT: %[[Q:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x64xbf16>
// DOT: vector.store %{{.*}}, %[[Q]][%{{.*}}, %c0] : memref<32x64xbf16>, vector<32xbf16>
// DOT: %[[M:.*]] = vector.constant_mask [8] : vector<16xi1>
// DOT: vector.maskedload %{{.*}}[%{{.*}}, %c32], %[[M]]
// DOT: x86vector.avx512.dot
// DOT: vector.maskedstore %{{.*}}[%{{.*}}, %c32], %[[M]]
// DOT: memref.dealloc %[[Q]]
// On AVX2 the f32 B^T is transposed in 8 x 8 blocks (24 shuffles each).
// FMA-LABEL: func @matmul_bt_bf16
// FMA: memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
// FMA-COUNT-8: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// FMA-COUNT-24: vector.shuffle {{.*}} : vector<8xi32>, vector<8xi32>
// FMA: vector.fma
func.func @matmul_bt_bf16(%a: memref<4x64xbf16>, %bt: memref<40x64xbf16>, %c: memref<4x40xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : memref<4x64xbf16>, memref<40x64xbf16>) outs(%c : memref<4x40xf32>)
  return
}

// -----

// A read transposed ([k][m]): the f32 kernel broadcasts A^T[k][row] in
// place; N = 20 on AVX2 (nr = 8): a last panel of 4 columns, masked.
// FMA-LABEL: func @matmul_at_f32
// FMA-NOT: memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// FMA: memref.load %arg0[%{{.*}}, %{{.*}}] : memref<16x4xf32>
// FMA: vector.fma
// FMA: vector.constant_mask [4] : vector<8xi1>
func.func @matmul_at_f32(%at: memref<16x4xf32>, %b: memref<16x20xf32>, %c: memref<4x20xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%at, %b : memref<16x4xf32>, memref<16x20xf32>) outs(%c : memref<4x20xf32>)
  return
}

// -----

// A batch_matmul whose B is shared by every batch: packed once, outside
// the batch loop.
// DOT-LABEL: func @batch_matmul_shared_b
// DOT: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x8x32xf32>
// DOT: scf.for %[[BATCH:.*]] = %c0 to %c3
// DOT-NOT: memref.alloc
// DOT: vector.fma
// DOT: }
// DOT: memref.dealloc %[[P]]
func.func @batch_matmul_shared_b(%a: memref<3x2x8xf32>, %b: memref<8x32xf32>, %c: memref<3x2x32xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<3x2x8xf32>, memref<8x32xf32>) outs(%c : memref<3x2x32xf32>)
  return
}

// -----

// A dynamic M (a front end's dynamic batch flattened into a linear
// layer's rows): B packed once; blocks of 2 mr rows (6 on avx2 with mr=3)
// read in place from A's row r0 on, then the rest below 6 rows as kernels
// of 4, 2 and 1 rows, each under the scf.if of its bit.
// FMA-LABEL: func @dynamic_m
// FMA: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64x8xf32>
// FMA: %[[M:.*]] = memref.dim %arg2, %c0
// FMA: arith.divui %[[M]], %c6
// FMA: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c6 {
// FMA: memref.load %arg0[
// FMA: vector.fma
// FMA: arith.andi %{{.*}}, %c4
// FMA: scf.if
// FMA: vector.fma
// FMA: arith.andi %{{.*}}, %c2
// FMA: scf.if
// FMA: arith.andi %{{.*}}, %c1
// FMA: scf.if
// FMA: memref.dealloc %[[P]]
// FMA-NOT: linalg.matmul
// DOT-LABEL: func @dynamic_m
// DOT: memref.dim %arg2
// DOT: vector.fma
// DOT-NOT: linalg.matmul
func.func @dynamic_m(%a: memref<?x64xf32>, %b: memref<64x32xf32>, %c: memref<?x32xf32>) {
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x32xf32>) outs(%c : memref<?x32xf32>)
  return
}

// -----

// NHWC convolutions: the GEMM out (pixels x F) = A (pixels x KH*KW*C) *
// filter (KH*KW*C x F). The filter (viewed as a matrix in place) is packed
// once (VNNI pairs for the dot). The vector kernel reads A in place from
// the input, no im2col copy, a block of 128 pixels (here all 16) at a
// time: each row (output pixel) decodes its image,
// row and column once per block, each filter tap its input row and column
// once per row, and the tap's C channels (pairs) are the innermost k loop.
// The kernel writes the output viewed as a matrix.
// DOT-LABEL: func @conv_bf16
// DOT: %[[O:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<1x4x4x32xf32> into memref<16x32xf32>
// DOT: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x72x64xbf16>
// DOT: vector.interleave
// DOT-NOT: memref.alloc
// DOT: scf.for %[[ROW0:.*]] = %{{.*}} to %{{.*}} step %c2 {
// DOT: %[[PIX:.*]] = arith.addi %{{.*}}, %[[ROW0]] : index
// DOT-NEXT: arith.divui %[[PIX]], %c16
// DOT: scf.for %[[TAP:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args
// DOT: %[[I:.*]] = arith.divui %[[TAP]], %c3
// DOT: %[[J:.*]] = arith.remui %[[TAP]], %c3
// DOT: %[[IY:.*]] = arith.addi %{{.*}}, %[[I]]
// DOT: %[[IX:.*]] = arith.addi %{{.*}}, %[[J]]
// DOT: scf.for %[[C:.*]] = %c0{{.*}} to %c8{{.*}} step %c4{{.*}} iter_args
// DOT: vector.load %[[P]]
// DOT: %[[C2:.*]] = arith.muli %[[C]], %c2
// DOT: vector.load %arg0[%{{.*}}, %[[IY]], %[[IX]], %[[C2]]] : memref<1x6x6x16xbf16>, vector<2xbf16>
// DOT: x86vector.avx512.dot
// DOT: vector.store %{{.*}}, %[[O]]
// DOT: memref.dealloc %[[P]]
// DOT-NOT: linalg.
// A bf16 input for the f32 FMA kernel (no vdpbf16ps) is widened once
// into an f32 copy of the image, which the kernel then reads in place, a
// filter tap's channels at a time: no widening per broadcast, no im2col.
// FMA-LABEL: func @conv_bf16
// FMA: memref.alloc() {alignment = 64 : i64} : memref<4x144x8xf32>
// FMA: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1, 2, 3]] : memref<1x6x6x16xbf16> into memref<1x576xbf16>
// FMA: %[[IMG:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x576xf32>
// FMA: %[[V:.*]] = vector.load %[[FLAT]]{{.*}} : memref<1x576xbf16>, vector<8xbf16>
// FMA: %[[W:.*]] = arith.extf %[[V]] : vector<8xbf16> to vector<8xf32>
// FMA: vector.store %[[W]], %[[IMG]]
// FMA: %[[IN:.*]] = memref.expand_shape %[[IMG]]
// FMA-NOT: memref.alloc() {alignment = 64 : i64} : memref<16x144xf32>
// FMA: memref.load %[[IN]]
// FMA: vector.fma
// FMA: memref.dealloc %[[IMG]]
// FMA-NOT: linalg.
func.func @conv_bf16(%i: memref<1x6x6x16xbf16>, %f: memref<3x3x16x32xbf16>, %o: memref<1x4x4x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x16xbf16>, memref<3x3x16x32xbf16>) outs(%o : memref<1x4x4x32xf32>)
  return
}

// -----

// Blocks of pixels sized for L2 (col of a bf16 input widened for the
// FMA kernel where the image is not widened whole first: a dynamic batch,
// blocked per image): on avx2 (256 KiB of L2), 1024 pixels with
// 576-deep f32 rows are 18 blocks of 54 pixels (a multiple of mr = 3 within
// half the L2) and a last block of 52, whose kernel writes C from row 972. Stride 2 and dilation 2
// along H, stride 1 and dilation 1 along W: input row 2 y + 2 i, column x + j.
// FMA-LABEL: func @conv_blocks
// FMA: %[[O:.*]] = memref.collapse_shape %{{.*}} : memref<?x32x32x16xf32> into memref<?x16xf32>
// FMA: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<54x576xf32>
// FMA: scf.for %[[IMG:.*]] = %c0 to %{{.*}} step %c1
// FMA: %[[BASE:.*]] = arith.muli %[[IMG]], %c1024 : index
// FMA: scf.for %[[Q0:.*]] = %c0 to %c972 step %c54
// FMA: %[[P0:.*]] = arith.addi %[[BASE]], %[[Q0]] : index
// FMA: %[[P:.*]] = arith.addi %[[P0]], %{{.*}} : index
// FMA: %[[YX:.*]] = arith.remui %[[P]], %c1024 : index
// FMA: %[[Y:.*]] = arith.divui %[[YX]], %c32 : index
// FMA: %[[X:.*]] = arith.remui %[[YX]], %c32 : index
// FMA: %[[IY:.*]] = arith.muli %[[Y]], %c2 : index
// FMA: vector.load %{{.*}}[%{{.*}}, %[[IY]], %[[X]], %{{.*}}] : memref<?x68x34x64xbf16>, vector<8xbf16>
// FMA: %[[ROW:.*]] = arith.addi %{{.*}}, %[[P0]] : index
// FMA: vector.store %{{.*}}, %[[O]][%[[ROW]], %{{.*}}] : memref<?x16xf32>, vector<8xf32>
// FMA: arith.addi %[[BASE]], %c972 : index
// FMA: memref.dealloc %[[COL]]
func.func @conv_blocks(%i: memref<?x68x34x64xbf16>, %f: memref<3x3x64x16xbf16>, %o: memref<?x32x32x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
    ins(%i, %f : memref<?x68x34x64xbf16>, memref<3x3x64x16xbf16>) outs(%o : memref<?x32x32x16xf32>)
  return
}

// -----

// The same convolution in f32 reads A in place. Stride 2 and dilation 2
// along H, stride 1 and dilation 1 along W: for output pixel p (row y =
// p mod 1024 / 32, column x = p mod 32) and filter tap (i, j), input row
// 2 y + 2 i, column x + j, its 64 channels the inner k loop (unrolled by
// 4). No col buffer; k blocks of whole taps.
// FMA-LABEL: func @conv_direct_strided
// FMA: %[[O:.*]] = memref.collapse_shape %{{.*}} : memref<1x32x32x16xf32> into memref<1024x16xf32>
// FMA-NOT: memref.alloc() {{.*}} memref<{{[0-9]+}}x576xf32>
// FMA: scf.for %{{.*}} = %c0 to %c576 step %c320 {
// FMA: scf.for %[[ROW0:.*]] = %{{.*}} to %{{.*}} step %c3 {
// FMA: %[[P:.*]] = arith.addi %{{.*}}, %[[ROW0]] : index
// FMA: %[[YX:.*]] = arith.remui %[[P]], %c1024
// FMA: %[[Y:.*]] = arith.divui %[[YX]], %c32
// FMA: %[[X:.*]] = arith.remui %[[YX]], %c32
// FMA: %[[Y2:.*]] = arith.muli %[[Y]], %c2
// FMA: scf.for %[[TAP:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args
// FMA: %[[I:.*]] = arith.divui %[[TAP]], %c3
// FMA: %[[J:.*]] = arith.remui %[[TAP]], %c3
// FMA: %[[I2:.*]] = arith.muli %[[I]], %c2
// FMA: %[[IY:.*]] = arith.addi %[[Y2]], %[[I2]]
// FMA: %[[IX:.*]] = arith.addi %[[X]], %[[J]]
// FMA: scf.for %[[C:.*]] = %c0{{.*}} to %c64{{.*}} step %c4{{.*}} iter_args
// FMA: memref.load %arg0[%{{.*}}, %[[IY]], %[[IX]], %[[C]]] : memref<1x68x34x64xf32>
// FMA: vector.fma
// FMA: vector.store %{{.*}}, %[[O]]
// FMA-NOT: linalg.
func.func @conv_direct_strided(%i: memref<1x68x34x64xf32>, %f: memref<3x3x64x16xf32>, %o: memref<1x32x32x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
    ins(%i, %f : memref<1x68x34x64xf32>, memref<3x3x64x16xf32>) outs(%o : memref<1x32x32x16xf32>)
  return
}

// -----

// conv_2d_nhwc_fhwc (TOSA's and IREE's filter layout: F x KH x KW x C): the
// same GEMM with the filter viewed as F x KH*KW*C, a transposed B packed
// once through register transposes (8 rows of the filter read at a time),
// A read in place from the input.
// FMA-LABEL: func @conv_fhwc
// FMA: %[[F:.*]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2, 3]] : memref<32x3x3x16xf32> into memref<32x144xf32>
// FMA: %[[O:.*]] = memref.collapse_shape %arg2 {{\[\[}}0, 1, 2], [3]] : memref<1x4x4x32xf32> into memref<16x32xf32>
// FMA: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x144x8xf32>
// FMA-COUNT-8: vector.load %[[F]]
// FMA: vector.shuffle
// FMA: memref.load %arg0
// FMA: vector.fma
// FMA: vector.store %{{.*}}, %[[O]]
// FMA: memref.dealloc %[[P]]
// FMA-NOT: linalg.
// DOT-LABEL: func @conv_fhwc
// DOT: memref.collapse_shape %arg1 {{\[\[}}0], [1, 2, 3]] : memref<32x3x3x16xf32> into memref<32x144xf32>
// DOT: vector.fma
// DOT-NOT: linalg.
func.func @conv_fhwc(%i: memref<1x6x6x16xf32>, %f: memref<32x3x3x16xf32>, %o: memref<1x4x4x32xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x16xf32>, memref<32x3x3x16xf32>) outs(%o : memref<1x4x4x32xf32>)
  return
}

// -----

// An odd KH*KW*C in bf16 (3 input channels): the dot kernel reads K in
// pairs, so the packed filter and the image are widened to f32 (the image
// once, into a copy the FMA kernel reads in place: no im2col) and the FMA
// kernel runs (no remark: not the generic path).
// DOT-LABEL: func @conv_bf16_odd_depth
// DOT: memref.alloc() {alignment = 64 : i64} : memref<1x27x32xf32>
// DOT: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1, 2, 3]] : memref<1x6x6x3xbf16> into memref<1x108xbf16>
// DOT: %[[IMG:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x108xf32>
// DOT: vector.load %[[FLAT]]
// DOT: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// DOT: %[[IN:.*]] = memref.expand_shape %[[IMG]] {{\[\[}}0], [1, 2, 3]] output_shape [1, 6, 6, 3] : memref<1x108xf32> into memref<1x6x6x3xf32>
// DOT-NOT: memref.alloc() {alignment = 64 : i64} : memref<16x27xf32>
// DOT: memref.load %[[IN]]
// DOT: vector.fma
// DOT: memref.dealloc %[[IMG]]
// DOT-NOT: x86vector.avx512.dot
// DOT-NOT: linalg.
func.func @conv_bf16_odd_depth(%i: memref<1x6x6x3xbf16>, %f: memref<3x3x3x32xbf16>, %o: memref<1x4x4x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x6x6x3xbf16>, memref<3x3x3x32xbf16>) outs(%o : memref<1x4x4x32xf32>)
  return
}

// -----

// NCHW convolutions: per image (each its own col) and block of output rows
// (sized for L2), im2col (C*KH*KW x pixels, rows of OW contiguous pixels a vector at a
// time) written in the layout the kernel reads, then the GEMM with the
// filter (F x C*KH*KW) as A into the output viewed as [N][F][OH*OW]: no
// packing pass.
// FMA-LABEL: func @conv_nchw
// FMA: %[[F:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : memref<16x8x3x3xf32> into memref<16x72xf32>
// FMA: %[[O:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<2x16x8x8xf32> into memref<2x16x64xf32>
// FMA: scf.for %[[N:.*]] = %c0 to %c2
// FMA: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<72x64xf32>
// FMA: vector.load %{{.*}} : memref<2x8x10x10xf32>, vector<8xf32>
// FMA: vector.store %{{.*}}, %[[COL]]
// FMA-NOT: memref.alloc
// FMA: vector.load %[[COL]]
// FMA: memref.load %[[F]]
// FMA: vector.fma
// FMA: vector.store %{{.*}}, %[[O]][%[[N]], %{{.*}}, %{{.*}}] : memref<2x16x64xf32>, vector<8xf32>
// FMA: memref.dealloc %[[COL]]
// FMA-NOT: linalg.conv_2d
func.func @conv_nchw(%i: memref<2x8x10x10xf32>, %f: memref<16x8x3x3xf32>, %o: memref<2x16x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<2x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%o : memref<2x16x8x8xf32>)
  return
}

// -----

// bf16 on AVX512_BF16: col holds VNNI pairs of taps (two input rows
// interleaved in registers), read by the dot kernel as packed B.
// DOT-LABEL: func @conv_nchw_bf16
// DOT: %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<36x512xbf16>
// DOT: vector.load %{{.*}} : memref<1x8x18x18xbf16>, vector<16xbf16>
// DOT: vector.load %{{.*}} : memref<1x8x18x18xbf16>, vector<16xbf16>
// DOT: vector.interleave %{{.*}}, %{{.*}} : vector<16xbf16> -> vector<32xbf16>
// DOT: vector.store %{{.*}}, %[[COL]]
// DOT: vector.load %[[COL]]{{.*}} : memref<36x512xbf16>, vector<32xbf16>
// DOT: x86vector.avx512.dot
// DOT: memref.dealloc %[[COL]]
func.func @conv_nchw_bf16(%i: memref<1x8x18x18xbf16>, %f: memref<32x8x3x3xbf16>, %o: memref<1x32x16x16xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x8x18x18xbf16>, memref<32x8x3x3xbf16>) outs(%o : memref<1x32x16x16xf32>)
  return
}

// -----

// A linalg.transpose left on buffers that moves the innermost dimension:
// 8 x 8 blocks through registers, the 3-row edge element by element.
// FMA-LABEL: func @transpose
// FMA-COUNT-8: vector.load %{{.*}} : memref<19x16xf32>, vector<8xf32>
// FMA-COUNT-24: vector.shuffle
// FMA-COUNT-8: vector.store %{{.*}} : memref<16x19xf32>, vector<8xf32>
// FMA: memref.load %{{.*}} : memref<19x16xf32>
// FMA-NOT: linalg.transpose
func.func @transpose(%x: memref<19x16xf32>, %y: memref<16x19xf32>) {
  linalg.transpose ins(%x : memref<19x16xf32>) outs(%y : memref<16x19xf32>) permutation = [1, 0]
  return
}

// -----

// The same from a strided view with a contiguous innermost dimension (a
// head of K split out of GPT-2's fused QKV projection: columns 32..63 of
// an 8 x 96 buffer, 2 heads of 16): its rows are read 96 elements apart.
// FMA-LABEL: func @transpose_strided_view
// FMA: memref.subview
// FMA-COUNT-8: vector.load %{{.*}} : memref<8x2x16xf32, strided<[96, 16, 1], offset: 32>>, vector<8xf32>
// FMA-COUNT-24: vector.shuffle
// FMA-COUNT-8: vector.store %{{.*}} : memref<2x16x8xf32>, vector<8xf32>
// FMA-NOT: linalg.transpose
func.func @transpose_strided_view(%qkv: memref<8x96xf32>, %y: memref<2x16x8xf32>) {
  %k = memref.subview %qkv[0, 32] [8, 32] [1, 1] : memref<8x96xf32> to memref<8x32xf32, strided<[96, 1], offset: 32>>
  %k3 = memref.expand_shape %k [[0], [1, 2]] output_shape [8, 2, 16] : memref<8x32xf32, strided<[96, 1], offset: 32>> into memref<8x2x16xf32, strided<[96, 16, 1], offset: 32>>
  linalg.transpose ins(%k3 : memref<8x2x16xf32, strided<[96, 16, 1], offset: 32>>) outs(%y : memref<2x16x8xf32>) permutation = [1, 2, 0]
  return
}

// -----

// Not taken: the innermost dimension of the input is strided (every other
// column), so a row is not one vector load.
// FMA-LABEL: func @transpose_strided_innermost
// FMA: linalg.transpose
func.func @transpose_strided_innermost(%x: memref<8x32xf32>, %y: memref<16x8xf32>) {
  %e = memref.subview %x[0, 0] [8, 16] [1, 2] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 2]>>
  linalg.transpose ins(%e : memref<8x16xf32, strided<[32, 2]>>) outs(%y : memref<16x8xf32>) permutation = [1, 0]
  return
}

// -----

// A narrowing cast that produced B (the precision decision's rounding of a
// weight) runs inside the packing, a vector at a time: no bf16 copy of the
// weight is written and read back.
// DOT-LABEL: func.func @cast_into_packing(
// DOT-SAME: %{{[a-z0-9]+}}: memref<4x64xbf16>, %[[W:[a-z0-9]+]]: memref<40x64xf32>
// DOT-NOT: linalg.generic
// DOT: vector.load %[[W]]{{.*}} : memref<40x64xf32>, vector<32xf32>
// DOT: arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
// DOT: x86vector.avx512.dot
// FMA-LABEL: func.func @cast_into_packing(
// FMA-NOT: linalg.generic
// FMA: vector.load %{{.*}} : memref<40x64xf32>, vector<8xf32>
// FMA: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// FMA: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// FMA: vector.fma
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cast_into_packing(%x: memref<4x64xbf16>, %w: memref<40x64xf32>, %y: memref<4x40xf32>) {
  %wb = memref.alloc() {alignment = 64 : i64} : memref<40x64xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<40x64xf32>) outs(%wb : memref<40x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wb : memref<4x64xbf16>, memref<40x64xbf16>) outs(%y : memref<4x40xf32>)
  memref.dealloc %wb : memref<40x64xbf16>
  return
}

// -----

// A constant weight is packed at compile time, rounded as the cast that
// produced B would (APFloat, nearest-even: 1 + 2^-8 ties to 1.0, 1 + 3 *
// 2^-8 to 1.015625): VNNI pairs of B = W^T padded with zeros to nr = 32
// columns for the dot, f32 panels of 8 for AVX2. No packing code, no cast
// left.
// DOT-LABEL: memref.global "private" constant @__lowp_packed_weight : memref<1x1x64xbf16> = dense<
// DOT-SAME: [1.000000e+00, 4.000000e+00, 2.000000e+00, 5.000000e+00, 1.015630e+00, 6.000000e+00, 0.000000e+00
// DOT-SAME: {alignment = 64 : i64}
// DOT-LABEL: func.func @constant_weight(
// DOT-NOT: linalg.generic
// DOT-NOT: arith.truncf
// DOT: %[[P:.*]] = memref.get_global @__lowp_packed_weight : memref<1x1x64xbf16>
// DOT: vector.load %[[P]]
// DOT: x86vector.avx512.dot
// FMA-LABEL: memref.global "private" constant @__lowp_packed_weight : memref<1x2x8xf32> = dense<
// FMA-SAME: {{\[\[\[}}1.000000e+00, 2.000000e+00, 1.015625, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00, 0.000000e+00
// FMA-LABEL: func.func @constant_weight(
// FMA: memref.get_global @__lowp_packed_weight : memref<1x2x8xf32>
// FMA: vector.fma
memref.global "private" constant @w : memref<3x2xf32> = dense<[[1.00390625, 4.0], [2.0, 5.0], [1.01171875, 6.0]]>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @constant_weight(%x: memref<4x2xbf16>, %y: memref<4x3xf32>) {
  %w = memref.get_global @w : memref<3x2xf32>
  %wb = memref.alloc() {alignment = 64 : i64} : memref<3x2xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<3x2xf32>) outs(%wb : memref<3x2xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wb : memref<4x2xbf16>, memref<3x2xbf16>) outs(%y : memref<4x3xf32>)
  memref.dealloc %wb : memref<3x2xbf16>
  return
}

// -----

// NCHW depthwise at stride 2 along W: a tap's input vector is every other
// element of 2 x lanes contiguous ones (a shuffle of integers). AVX-512:
// the row's last vector (2 of 18 columns) masked, its input loads masked
// at the row's end (37 - 32 = 5 elements left for the first tap). AVX2
// (no masked bf16 loads): whole vectors while their loads stay in the row,
// the last 2 columns element by element.
// DOT-LABEL: func.func @depthwise_nchw_s2
// DOT:         scf.for %[[C:.*]] = %c0 to %c4 step %c1 {
// DOT:           vector.load %arg0[%{{.*}}, %[[C]], %{{.*}}, %c0] : memref<1x4x9x37xbf16>, vector<32xbf16>
// DOT:           vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xi16>, vector<32xi16>
// DOT:           %[[M:.*]] = vector.constant_mask [5] : vector<32xi1>
// DOT:           vector.maskedload %arg0[%{{.*}}, %[[C]], %{{.*}}, %c32], %[[M]]
// DOT:           vector.maskedstore %arg2[%{{.*}}, %[[C]], %{{.*}}, %c16]
// DOT:         } {lowp.parallel}
// FMA-LABEL: func.func @depthwise_nchw_s2
// FMA:         vector.load %arg0{{.*}} : memref<1x4x9x37xbf16>, vector<16xbf16>
// FMA:         vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xi16>, vector<16xi16>
// FMA-NOT:     vector.maskedload %arg0
// FMA:         scf.for %{{.*}} = %c16 to %c18 step %c1 {
// FMA:           memref.load %arg0
func.func @depthwise_nchw_s2(%x: memref<1x4x9x37xbf16>, %w: memref<4x3x3xbf16>, %y: memref<1x4x4x18xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<1x4x9x37xbf16>, memref<4x3x3xbf16>) outs(%y : memref<1x4x4x18xf32>)
  return
}

// -----

// A bf16 matmul with an odd K on a target with the bf16 dot kernel (which
// reads K in pairs): the f32 FMA kernel instead, A widened once and B's
// panel slices widened as they are packed (f32 slices of K x nr).
// DOT-LABEL: func @odd_k_bf16
// DOT: memref.alloc() {alignment = 64 : i64} : memref<4x7xf32>
// DOT: arith.extf %{{.*}} : bf16 to f32
// DOT: %[[SLICE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<7x32xf32>
// DOT: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
// DOT: vector.load %[[SLICE]]
// DOT: vector.fma
// DOT-NOT: x86vector.avx512.dot
// DOT: return
func.func @odd_k_bf16(%a: memref<4x7xbf16>, %b: memref<7x32xbf16>, %c: memref<4x32xf32>) {
  linalg.matmul ins(%a, %b : memref<4x7xbf16>, memref<7x32xbf16>) outs(%c : memref<4x32xf32>)
  return
}
