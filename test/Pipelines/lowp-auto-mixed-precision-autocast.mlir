// policy=autocast: PyTorch autocast's decision as a baseline anyone can
// compare with: matrix op inputs in the target's preferred 16-bit format
// (bf16 on sm_90, f16 on sm_70), f32 accumulation, and every other op,
// bias adds and activations included, in f32. policy=bf16 carries bf16
// forward through them (the inference pass's propagate=false is the
// difference).
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=autocast" | FileCheck %s --check-prefix=AUTOCAST
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_70 policy=autocast" | FileCheck %s --check-prefix=F16
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=bf16" | FileCheck %s --check-prefix=BF16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_90 propagate=false" | FileCheck %s --check-prefix=AUTOCAST
// A second run changes nothing.
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=autocast" | fp-opt --lowp-auto-mixed-precision="target=sm_90 policy=autocast" | FileCheck %s --check-prefix=AUTOCAST
// RUN: not fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=autocasts" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --policy option: 'autocasts' is not one of: auto, f16, bf16, fp8, fp8-weights, autocast

// AUTOCAST-LABEL: func.func @linear_gelu_linear
// AUTOCAST: %[[H:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x32xbf16>) outs(%{{.*}} : tensor<8x32xf32>)
// AUTOCAST: linalg.generic {{.*}} ins(%[[H]], %{{.*}} : tensor<8x32xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<8x32xf32>)
// AUTOCAST: math.erf %{{.*}} : f32
// AUTOCAST: lowp.cast %{{.*}} : tensor<8x32xf32> to tensor<8x32xbf16>
// AUTOCAST: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%{{.*}} : tensor<8x16xf32>)

// F16-LABEL: func.func @linear_gelu_linear
// F16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x32xf16>) outs(%{{.*}} : tensor<8x32xf32>)
// F16: math.erf %{{.*}} : f32

// BF16-LABEL: func.func @linear_gelu_linear
// BF16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x32xbf16>) outs(%{{.*}} : tensor<8x32xf32>)
// BF16: outs(%{{.*}} : tensor<8x32xbf16>)
func.func @linear_gelu_linear(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
                              %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %hb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<8x32xf32>, tensor<32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<8x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%hb : tensor<8x32xf32>) outs(%e3 : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.mulf %in, %rsqrt2 : f32
    %r = math.erf %a : f32
    %p = arith.addf %r, %one : f32
    %q = arith.mulf %p, %half : f32
    %y = arith.mulf %in, %q : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %e4 = tensor.empty() : tensor<8x16xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%g, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z4 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
