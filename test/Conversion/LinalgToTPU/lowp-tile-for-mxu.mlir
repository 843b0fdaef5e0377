// RUN: fp-opt %s -split-input-file -lowp-tile-for-mxu=target=tpu-v5e | FileCheck %s --check-prefixes=CHECK,V5E
// RUN: fp-opt %s -split-input-file -lowp-tile-for-mxu=target=tpu-v6e | FileCheck %s --check-prefixes=CHECK,V6E
// Idempotent: a second run finds every matrix op in MXU form already.
// RUN: fp-opt %s -split-input-file -lowp-tile-for-mxu=target=tpu-v5e -lowp-tile-for-mxu=target=tpu-v5e | FileCheck %s --check-prefixes=CHECK,V5E

// 200x300 @ 300x70: M, K, N padded to whole tiles (128 on tpu-v5e, 256 on
// tpu-v6e), one MXU tile per inner matmul, the result cut back.
// CHECK-LABEL: func.func @matmul_unaligned(
// CHECK-SAME:      %[[A:.*]]: tensor<200x300xbf16>, %[[B:.*]]: tensor<300x70xbf16>, %[[C:.*]]: tensor<200x70xf32>)
// CHECK:         %[[ZB:.*]] = arith.constant 0.000000e+00 : bf16
// V5E:           %[[PA:.*]] = tensor.pad %[[A]] low[0, 0] high[56, 84]
// V5E:             tensor.yield %[[ZB]] : bf16
// V5E:           } : tensor<200x300xbf16> to tensor<256x384xbf16>
// V5E:           %[[PB:.*]] = tensor.pad %[[B]] low[0, 0] high[84, 58]
// V5E:             tensor.yield %[[ZB]] : bf16
// V5E:           } : tensor<300x70xbf16> to tensor<384x128xbf16>
// V5E:           %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// V5E:           %[[PC:.*]] = tensor.pad %[[C]] low[0, 0] high[56, 58]
// V5E:             tensor.yield %[[ZF]] : f32
// V5E:           } : tensor<200x70xf32> to tensor<256x128xf32>
// V5E-DAG:       %[[C0:.*]] = arith.constant 0 : index
// V5E-DAG:       %[[C128:.*]] = arith.constant 128 : index
// V5E-DAG:       %[[C256:.*]] = arith.constant 256 : index
// V5E-DAG:       %[[C384:.*]] = arith.constant 384 : index
// V5E:           %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C256]] step %[[C128]] iter_args(%[[ACC:.*]] = %[[PC]]) -> (tensor<256x128xf32>) {
// V5E:             scf.for %[[K:.*]] = %{{.*}} to %[[C384]] step %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (tensor<256x128xf32>) {
// V5E:               %[[TA:.*]] = tensor.extract_slice %[[PA]][%[[I]], %[[K]]] [128, 128] [1, 1] : tensor<256x384xbf16> to tensor<128x128xbf16>
// V5E:               %[[TB:.*]] = tensor.extract_slice %[[PB]][%[[K]], 0] [128, 128] [1, 1] : tensor<384x128xbf16> to tensor<128x128xbf16>
// V5E:               %[[TC:.*]] = tensor.extract_slice %[[ACC2]][%[[I]], 0] [128, 128] [1, 1] : tensor<256x128xf32> to tensor<128x128xf32>
// V5E:               %[[T:.*]] = linalg.matmul ins(%[[TA]], %[[TB]] : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%[[TC]] : tensor<128x128xf32>) -> tensor<128x128xf32>
// V5E:               tensor.insert_slice %[[T]] into %[[ACC2]][%[[I]], 0] [128, 128] [1, 1] : tensor<128x128xf32> into tensor<256x128xf32>
// V5E:           %[[OUT:.*]] = tensor.extract_slice %[[R]][0, 0] [200, 70] [1, 1] : tensor<256x128xf32> to tensor<200x70xf32>
// V5E:           return %[[OUT]] : tensor<200x70xf32>
// V6E:           %[[PA:.*]] = tensor.pad %[[A]] low[0, 0] high[56, 212]
// V6E:           } : tensor<200x300xbf16> to tensor<256x512xbf16>
// V6E:           %[[PB:.*]] = tensor.pad %[[B]] low[0, 0] high[212, 186]
// V6E:           } : tensor<300x70xbf16> to tensor<512x256xbf16>
// V6E:           %[[PC:.*]] = tensor.pad %[[C]] low[0, 0] high[56, 186]
// V6E:           } : tensor<200x70xf32> to tensor<256x256xf32>
// V6E-DAG:       %[[C0:.*]] = arith.constant 0 : index
// V6E-DAG:       %[[C256:.*]] = arith.constant 256 : index
// V6E-DAG:       %[[C512:.*]] = arith.constant 512 : index
// V6E:           %[[R:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C512]] step %[[C256]] iter_args(%[[ACC:.*]] = %[[PC]]) -> (tensor<256x256xf32>) {
// V6E-NOT:         scf.for
// V6E:             %[[TA:.*]] = tensor.extract_slice %[[PA]][0, %[[K]]] [256, 256] [1, 1] : tensor<256x512xbf16> to tensor<256x256xbf16>
// V6E:             %[[TB:.*]] = tensor.extract_slice %[[PB]][%[[K]], 0] [256, 256] [1, 1] : tensor<512x256xbf16> to tensor<256x256xbf16>
// V6E:             linalg.matmul ins(%[[TA]], %[[TB]] : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>) -> tensor<256x256xf32>
// V6E:           %[[OUT:.*]] = tensor.extract_slice %[[R]][0, 0] [200, 70] [1, 1] : tensor<256x256xf32> to tensor<200x70xf32>
// V6E:           return %[[OUT]] : tensor<200x70xf32>
func.func @matmul_unaligned(%a: tensor<200x300xbf16>, %b: tensor<300x70xbf16>,
                            %c: tensor<200x70xf32>) -> tensor<200x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<200x300xbf16>, tensor<300x70xbf16>)
                     outs(%c : tensor<200x70xf32>) -> tensor<200x70xf32>
  return %r : tensor<200x70xf32>
}

// -----

// f32 operands (the decision left them f32): rounded to bf16 for the MXU,
// then padded; the accumulator stays f32.
// CHECK-LABEL: func.func @matmul_f32_operands(
// CHECK-SAME:      %[[A:.*]]: tensor<8x64xf32>, %[[B:.*]]: tensor<64x128xf32>, %[[C:.*]]: tensor<8x128xf32>)
// CHECK:         %[[RA:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8x64xf32>) outs(%{{.*}} : tensor<8x64xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// V5E:           %[[PA:.*]] = tensor.pad %[[RA]] low[0, 0] high[120, 64]
// V5E:           } : tensor<8x64xbf16> to tensor<128x128xbf16>
// CHECK:         %[[RB:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<64x128xf32>) outs(%{{.*}} : tensor<64x128xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// V5E:           %[[PB:.*]] = tensor.pad %[[RB]] low[0, 0] high[64, 0]
// V5E:           } : tensor<64x128xbf16> to tensor<128x128xbf16>
// V5E:           %[[PC:.*]] = tensor.pad %[[C]] low[0, 0] high[120, 0]
// V5E:           } : tensor<8x128xf32> to tensor<128x128xf32>
// V5E-NOT:       scf.for
// V5E:           %[[M:.*]] = linalg.matmul ins(%[[PA]], %[[PB]] : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%[[PC]] : tensor<128x128xf32>) -> tensor<128x128xf32>
// V5E:           %[[OUT:.*]] = tensor.extract_slice %[[M]][0, 0] [8, 128] [1, 1] : tensor<128x128xf32> to tensor<8x128xf32>
// V6E:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>) -> tensor<256x256xf32>
// V6E:           %[[OUT:.*]] = tensor.extract_slice %{{.*}}[0, 0] [8, 128] [1, 1] : tensor<256x256xf32> to tensor<8x128xf32>
// CHECK:         return %[[OUT]] : tensor<8x128xf32>
func.func @matmul_f32_operands(%a: tensor<8x64xf32>, %b: tensor<64x128xf32>,
                               %c: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x128xf32>)
                     outs(%c : tensor<8x128xf32>) -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

// A bf16 result: the MXU accumulates in f32, rounded to bf16 once at the
// end. Already one tpu-v5e tile: no padding, no loop.
// CHECK-LABEL: func.func @matmul_bf16_result(
// CHECK-SAME:      %[[A:.*]]: tensor<128x128xbf16>, %[[B:.*]]: tensor<128x128xbf16>, %[[C:.*]]: tensor<128x128xbf16>)
// CHECK:         %[[WC:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<128x128xbf16>) outs(%{{.*}} : tensor<128x128xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// V5E-NOT:       tensor.pad
// V5E-NOT:       scf.for
// V5E:           %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%[[WC]] : tensor<128x128xf32>) -> tensor<128x128xf32>
// V5E:           %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<128x128xf32>) outs(%{{.*}} : tensor<128x128xbf16>)
// V6E:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>)
// V6E:           %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 0] [128, 128] [1, 1] : tensor<256x256xf32> to tensor<128x128xf32>
// V6E:           %[[R:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<128x128xf32>) outs(%{{.*}} : tensor<128x128xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         return %[[R]] : tensor<128x128xbf16>
func.func @matmul_bf16_result(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>,
                              %c: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xbf16>, tensor<128x128xbf16>)
                     outs(%c : tensor<128x128xbf16>) -> tensor<128x128xbf16>
  return %r : tensor<128x128xbf16>
}

// -----

// Aligned to tpu-v5e's tile: no padding, only K is tiled (M and N are one
// tile each).
// CHECK-LABEL: func.func @matmul_aligned(
// CHECK-SAME:      %[[A:.*]]: tensor<128x256xbf16>, %[[B:.*]]: tensor<256x128xbf16>, %[[C:.*]]: tensor<128x128xf32>)
// V5E-NOT:       tensor.pad
// V5E:           %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[C]]) -> (tensor<128x128xf32>) {
// V5E-NOT:         scf.for
// V5E:             %[[TA:.*]] = tensor.extract_slice %[[A]][0, %[[K]]] [128, 128] [1, 1] : tensor<128x256xbf16> to tensor<128x128xbf16>
// V5E:             %[[TB:.*]] = tensor.extract_slice %[[B]][%[[K]], 0] [128, 128] [1, 1] : tensor<256x128xbf16> to tensor<128x128xbf16>
// V5E:             linalg.matmul ins(%[[TA]], %[[TB]] : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%{{.*}} : tensor<128x128xf32>) -> tensor<128x128xf32>
// V5E-NOT:       tensor.extract_slice %[[R]]
// V5E:           return %[[R]] : tensor<128x128xf32>
// V6E:           tensor.pad %[[A]] low[0, 0] high[128, 0]
// V6E:           } : tensor<128x256xbf16> to tensor<256x256xbf16>
// V6E-NOT:       scf.for
// V6E:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>)
func.func @matmul_aligned(%a: tensor<128x256xbf16>, %b: tensor<256x128xbf16>,
                          %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x128xbf16>)
                     outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Exactly one tile in MXU types: left as it is.
// V5E-LABEL: func.func @matmul_one_tile(
// V5E-NEXT:      %[[R:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%{{.*}} : tensor<128x128xf32>) -> tensor<128x128xf32>
// V5E-NEXT:      return %[[R]]
func.func @matmul_one_tile(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>,
                           %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xbf16>, tensor<128x128xbf16>)
                     outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Batch dimensions are tiled by 1, M, N and K padded.
// CHECK-LABEL: func.func @batch_matmul(
// V5E:           tensor.pad %{{.*}} low[0, 0, 0] high[0, 28, 28]
// V5E:           } : tensor<2x100x100xbf16> to tensor<2x128x128xbf16>
// V5E:           tensor.pad %{{.*}} low[0, 0, 0] high[0, 28, 28]
// V5E:           } : tensor<2x100x100xbf16> to tensor<2x128x128xbf16>
// V5E:           tensor.pad %{{.*}} low[0, 0, 0] high[0, 28, 28]
// V5E:           } : tensor<2x100x100xf32> to tensor<2x128x128xf32>
// V5E-DAG:       %[[C1:.*]] = arith.constant 1 : index
// V5E-DAG:       %[[C2:.*]] = arith.constant 2 : index
// V5E:           %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C2]] step %[[C1]]
// V5E-NOT:         scf.for
// V5E:             linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x128x128xbf16>, tensor<1x128x128xbf16>) outs(%{{.*}} : tensor<1x128x128xf32>) -> tensor<1x128x128xf32>
// V5E:           tensor.extract_slice %[[R]][0, 0, 0] [2, 100, 100] [1, 1, 1] : tensor<2x128x128xf32> to tensor<2x100x100xf32>
// V6E:             linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x256x256xbf16>, tensor<1x256x256xbf16>) outs(%{{.*}} : tensor<1x256x256xf32>) -> tensor<1x256x256xf32>
func.func @batch_matmul(%a: tensor<2x100x100xbf16>, %b: tensor<2x100x100xbf16>,
                        %c: tensor<2x100x100xf32>) -> tensor<2x100x100xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x100x100xbf16>, tensor<2x100x100xbf16>)
                           outs(%c : tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
  return %r : tensor<2x100x100xf32>
}

// -----

// A matmul with transposed B (aten.linear): the maps decide which operand
// dimension is padded to which tile; they are kept.
// CHECK-DAG: #[[MA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MB:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transposed_b(
// V5E:           tensor.pad %{{.*}} low[0, 0] high[120, 64]
// V5E:           } : tensor<8x64xbf16> to tensor<128x128xbf16>
// V5E:           tensor.pad %{{.*}} low[0, 0] high[118, 64]
// V5E:           } : tensor<10x64xbf16> to tensor<128x128xbf16>
// V5E:           tensor.pad %{{.*}} low[0, 0] high[120, 118]
// V5E:           } : tensor<8x10xf32> to tensor<128x128xf32>
// CHECK:         %[[M:.*]] = linalg.matmul indexing_maps = [#[[MA]], #[[MB]], #[[MC]]]
// CHECK:         tensor.extract_slice %[[M]][0, 0] [8, 10] [1, 1]
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_transposed_b(%a: tensor<8x64xbf16>, %b: tensor<10x64xbf16>,
                               %c: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %r = linalg.matmul indexing_maps = [#mA, #mBt, #mC]
      ins(%a, %b : tensor<8x64xbf16>, tensor<10x64xbf16>)
      outs(%c : tensor<8x10xf32>) -> tensor<8x10xf32>
  return %r : tensor<8x10xf32>
}

// -----

// A contraction written as a generic: rebuilt with the MXU's body (bf16
// operands widened exactly, f32 products and sums).
// CHECK-LABEL: func.func @contraction_generic(
// V5E:           %[[PA:.*]] = tensor.pad
// V5E:           } : tensor<8x64xbf16> to tensor<128x128xbf16>
// V5E:           %[[PB:.*]] = tensor.pad
// V5E:           } : tensor<64x10xbf16> to tensor<128x128xbf16>
// V5E:           %[[PC:.*]] = tensor.pad
// V5E:           } : tensor<8x10xf32> to tensor<128x128xf32>
// V5E:           %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[PA]], %[[PB]] : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%[[PC]] : tensor<128x128xf32>) {
// V5E-NEXT:      ^bb0(%[[X:.*]]: bf16, %[[Y:.*]]: bf16, %[[ACC:.*]]: f32):
// V5E-NEXT:        %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// V5E-NEXT:        %[[YW:.*]] = arith.extf %[[Y]] : bf16 to f32
// V5E-NEXT:        %[[P:.*]] = arith.mulf %[[XW]], %[[YW]] : f32
// V5E-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// V5E-NEXT:        linalg.yield %[[S]] : f32
// V5E:           tensor.extract_slice %[[M]][0, 0] [8, 10] [1, 1] : tensor<128x128xf32> to tensor<8x10xf32>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @contraction_generic(%a: tensor<8x64xf32>, %b: tensor<64x10xf32>,
                               %c: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<64x10xf32>) outs(%c : tensor<8x10xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  return %r : tensor<8x10xf32>
}

// -----

// Not matrix ops for the MXU: elementwise code, convolutions, f64 and
// integer matmuls are left as they are.
// CHECK-LABEL: func.func @untouched(
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<8x10xf32>) outs(%{{.*}} : tensor<8x10xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xbf16>, tensor<3x3x3x8xbf16>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xf64>, tensor<64x10xf64>) outs(%{{.*}} : tensor<8x10xf64>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xi32>, tensor<64x10xi32>) outs(%{{.*}} : tensor<8x10xi32>)
// CHECK-NEXT:    return
func.func @untouched(%x: tensor<8x10xf32>, %img: tensor<1x10x10x3xbf16>,
                     %flt: tensor<3x3x3x8xbf16>, %o: tensor<1x8x8x8xf32>,
                     %a: tensor<8x64xf64>, %b: tensor<64x10xf64>, %c: tensor<8x10xf64>,
                     %ai: tensor<8x64xi32>, %bi: tensor<64x10xi32>, %ci: tensor<8x10xi32>)
    -> (tensor<8x10xf32>, tensor<1x8x8x8xf32>, tensor<8x10xf64>, tensor<8x10xi32>) {
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x10xf32>) outs(%x : tensor<8x10xf32>) {
  ^bb0(%v: f32, %w: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  %conv = linalg.conv_2d_nhwc_hwcf ins(%img, %flt : tensor<1x10x10x3xbf16>, tensor<3x3x3x8xbf16>)
                                   outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %d = linalg.matmul ins(%a, %b : tensor<8x64xf64>, tensor<64x10xf64>)
                     outs(%c : tensor<8x10xf64>) -> tensor<8x10xf64>
  %i = linalg.matmul ins(%ai, %bi : tensor<8x64xi32>, tensor<64x10xi32>)
                     outs(%ci : tensor<8x10xi32>) -> tensor<8x10xi32>
  return %e, %conv, %d, %i : tensor<8x10xf32>, tensor<1x8x8x8xf32>, tensor<8x10xf64>, tensor<8x10xi32>
}

// -----

// The option overrides the module's lowp.target (without the option the
// pass reads it: test/Pipelines/lowp-pipeline-tpu.mlir).
// CHECK-LABEL: func.func @from_module_target(
// V5E:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%{{.*}} : tensor<128x128xf32>)
// V5E:           tensor.extract_slice %{{.*}}[0, 0] [8, 10] [1, 1] : tensor<128x128xf32> to tensor<8x10xf32>
// V6E:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>)
// V6E:           tensor.extract_slice %{{.*}}[0, 0] [8, 10] [1, 1] : tensor<256x256xf32> to tensor<8x10xf32>
module attributes {lowp.target = #lowp.target<"tpu-v6e">} {
  func.func @from_module_target(%a: tensor<8x64xbf16>, %b: tensor<64x10xbf16>,
                                %c: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<8x64xbf16>, tensor<64x10xbf16>)
                       outs(%c : tensor<8x10xf32>) -> tensor<8x10xf32>
    return %r : tensor<8x10xf32>
  }
}
