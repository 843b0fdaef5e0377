// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=sm_70" | FileCheck %s --check-prefix=F16
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=sm_90" | FileCheck %s --check-prefix=BF16

// A matmul accumulating into a value whose producer a lowp.precision
// override made low keeps its wide (f32) accumulator: the init is widened
// and the body computes in f32. Before, the body was retyped low because
// the init already looked low, while the accumulator argument stayed f32:
// arith.addf (f32, f16) -> f16, IR that does not verify (generated program
// 7925 of the sanitizer campaign, decision pipeline for sm_70).
// F16-LABEL: func.func @low_producer_of_the_accumulator
// F16:       %[[C:.*]] = linalg.generic
// F16:       } -> tensor<8x2xf16>
// F16:       %[[W:.*]] = lowp.cast %[[C]] : tensor<8x2xf16> to tensor<8x2xf32>
// F16:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x1xf16>, tensor<1x2xf16>) outs(%[[W]] : tensor<8x2xf32>) -> tensor<8x2xf32>
func.func @low_producer_of_the_accumulator(%a: tensor<8x1xf32>, %b: tensor<1x2xf32>,
                                           %x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x2xf32>) outs(%x : tensor<8x2xf32>) attrs = {lowp.precision = f16} {
  ^bb0(%i: f32, %o: f32):
    %m = arith.mulf %i, %i : f32
    linalg.yield %m : f32
  } -> tensor<8x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x1xf32>, tensor<1x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %r : tensor<8x2xf32>
}

// -----

// The same with bf16 (sm_90: bf16 arithmetic, so low bodies compute in it).
// BF16-LABEL: func.func @low_producer_of_the_accumulator_bf16
// BF16:       %[[C:.*]] = linalg.generic
// BF16:       } -> tensor<8x2xbf16>
// BF16:       %[[W:.*]] = lowp.cast %[[C]] : tensor<8x2xbf16> to tensor<8x2xf32>
// BF16:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x1xbf16>, tensor<1x2xbf16>) outs(%[[W]] : tensor<8x2xf32>) -> tensor<8x2xf32>
func.func @low_producer_of_the_accumulator_bf16(%a: tensor<8x1xf32>, %b: tensor<1x2xf32>,
                                                %x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x2xf32>) outs(%x : tensor<8x2xf32>) attrs = {lowp.precision = bf16} {
  ^bb0(%i: f32, %o: f32):
    %m = arith.mulf %i, %i : f32
    linalg.yield %m : f32
  } -> tensor<8x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x1xf32>, tensor<1x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %r : tensor<8x2xf32>
}
