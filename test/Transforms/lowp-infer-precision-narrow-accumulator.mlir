// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16" --lowp-infer-precision="low=bf16" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 accumulate=low" | FileCheck %s --check-prefix=LOW
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 remarks=true" -verify-diagnostics -mlir-print-op-on-diagnostic=false -o /dev/null
// avx2 has no preferred 16-bit format: low=auto demotes nothing and still
// gives these ops an f32 accumulator.
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=avx2" 2>/dev/null | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=avx2 accumulate=low" 2>/dev/null | FileCheck %s --check-prefix=LOW

// Matrix ops that arrive with a 16-bit accumulator (a model converted to
// bf16 or f16 before export) accumulate in f32 and round their result once;
// the second run changes nothing.

// CHECK-LABEL: func.func @bf16_batch_matmul
// CHECK-NOT:   tensor<4x2x32xbf16>) -> tensor<4x2x32xbf16>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<4x2x32xf32>
// CHECK:       %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x2x32xf32>)
// CHECK:       %[[M:.*]] = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<4x2x64xbf16>, tensor<4x64x32xbf16>) outs(%[[F]] : tensor<4x2x32xf32>) -> tensor<4x2x32xf32>
// CHECK:       %[[R:.*]] = lowp.cast %[[M]] : tensor<4x2x32xf32> to tensor<4x2x32xbf16>
// CHECK-NOT:   lowp.cast
// CHECK:       return %[[R]]
// LOW-LABEL:   func.func @bf16_batch_matmul
// LOW:         linalg.batch_matmul {{.*}} outs(%{{.*}} : tensor<4x2x32xbf16>) -> tensor<4x2x32xbf16>
// LOW-NOT:     lowp.cast
func.func @bf16_batch_matmul(%q: tensor<4x2x64xbf16>, %k: tensor<4x64x32xbf16>) -> tensor<4x2x32xbf16> {
  // expected-remark @below {{bf16 (transparent): holds non-f32 floats}}
  %zero = arith.constant 0.0 : bf16
  // expected-remark @below {{bf16 (transparent): holds non-f32 floats}}
  %e = tensor.empty() : tensor<4x2x32xbf16>
  // expected-remark @below {{bf16 (transparent): holds non-f32 floats}}
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<4x2x32xbf16>) -> tensor<4x2x32xbf16>
  // expected-remark @below {{mixed (matrix): holds non-f32 floats: already decided or f64; accumulates in f32, not in its init's bf16, and rounds the result once}}
  %m = linalg.batch_matmul ins(%q, %k : tensor<4x2x64xbf16>, tensor<4x64x32xbf16>) outs(%f : tensor<4x2x32xbf16>) -> tensor<4x2x32xbf16>
  // expected-remark @below {{function or region boundary}}
  return %m : tensor<4x2x32xbf16>
}

// -----

// A generic contraction accumulating into a bias, with FP8 weights widened
// in its body: the init is widened by a cast, the body computes in f32 (the
// FP8 extension goes to f32 directly).
// CHECK-LABEL: func.func @f16_generic_with_bias_init
// CHECK:       %[[W:.*]] = lowp.cast %{{.*}} : tensor<8x4xf16> to tensor<8x4xf32>
// CHECK:       %[[G:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<4x16xf8E4M3FN>) outs(%[[W]] : tensor<8x4xf32>)
// CHECK-NEXT:  ^bb0(%[[X:.*]]: f16, %[[Q:.*]]: f8E4M3FN, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:    %[[QW:.*]] = arith.extf %[[Q]] : f8E4M3FN to f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[XW]], %[[QW]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK:       } -> tensor<8x4xf32>
// CHECK:       %[[R:.*]] = lowp.cast %[[G]] : tensor<8x4xf32> to tensor<8x4xf16>
// CHECK:       return %[[R]]
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @f16_generic_with_bias_init(%x: tensor<8x16xf16>, %w: tensor<4x16xf8E4M3FN>, %bias: tensor<8x4xf16>) -> tensor<8x4xf16> {
  // expected-remark @below {{mixed (matrix): holds non-f32 floats: already decided or f64; accumulates in f32, not in its init's f16, and rounds the result once}}
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8x16xf16>, tensor<4x16xf8E4M3FN>) outs(%bias : tensor<8x4xf16>) {
  ^bb0(%xi: f16, %wi: f8E4M3FN, %acc: f16):
    %we = arith.extf %wi : f8E4M3FN to f16
    %p = arith.mulf %xi, %we : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<8x4xf16>
  // expected-remark @below {{function or region boundary}}
  return %r : tensor<8x4xf16>
}

// -----

// A bf16 convolution: the same.
// CHECK-LABEL: func.func @bf16_convolution
// CHECK:       %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
// CHECK:       lowp.cast %[[C]] : tensor<1x6x6x8xf32> to tensor<1x6x6x8xbf16>
func.func @bf16_convolution(%x: tensor<1x8x8x4xbf16>, %w: tensor<3x3x4x8xbf16>) -> tensor<1x6x6x8xbf16> {
  // expected-remark @below {{holds non-f32 floats}}
  %zero = arith.constant 0.0 : bf16
  // expected-remark @below {{holds non-f32 floats}}
  %e = tensor.empty() : tensor<1x6x6x8xbf16>
  // expected-remark @below {{holds non-f32 floats}}
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<1x6x6x8xbf16>) -> tensor<1x6x6x8xbf16>
  // expected-remark @below {{accumulates in f32, not in its init's bf16}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x4xbf16>, tensor<3x3x4x8xbf16>) outs(%f : tensor<1x6x6x8xbf16>) -> tensor<1x6x6x8xbf16>
  // expected-remark @below {{function or region boundary}}
  return %c : tensor<1x6x6x8xbf16>
}

// -----

// Left as they are: an op pinned to bf16 by lowp.precision, a body that
// rounds on its own, and ops on buffers.
// CHECK-LABEL: func.func @pinned
// CHECK:       linalg.matmul {lowp.precision = bf16} {{.*}} outs(%{{.*}} : tensor<4x4xbf16>) -> tensor<4x4xbf16>
// CHECK-NOT:   lowp.cast
func.func @pinned(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>, %acc: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  // expected-remark @below {{bf16 (matrix): holds non-f32 floats}}
  %m = linalg.matmul {lowp.precision = bf16} ins(%a, %b : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%acc : tensor<4x4xbf16>) -> tensor<4x4xbf16>
  // expected-remark @below {{function or region boundary}}
  return %m : tensor<4x4xbf16>
}

// -----

// CHECK-LABEL: func.func @rounds_in_its_body
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4xbf16>)
// CHECK:       arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT:   lowp.cast
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @rounds_in_its_body(%x: tensor<8x16xbf16>, %w: tensor<4x16xbf16>, %acc: tensor<8x4xbf16>) -> tensor<8x4xbf16> {
  // expected-remark @below {{holds non-f32 floats: already decided or f64}}
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8x16xbf16>, tensor<4x16xbf16>) outs(%acc : tensor<8x4xbf16>) {
  ^bb0(%xi: bf16, %wi: bf16, %o: bf16):
    %xe = arith.extf %xi : bf16 to f32
    %we = arith.extf %wi : bf16 to f32
    %oe = arith.extf %o : bf16 to f32
    %p = arith.mulf %xe, %we : f32
    %s = arith.addf %oe, %p : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x4xbf16>
  // expected-remark @below {{function or region boundary}}
  return %r : tensor<8x4xbf16>
}

// -----

// CHECK-LABEL: func.func @on_buffers
// CHECK:       linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xbf16>, memref<8x4xbf16>) outs(%{{.*}} : memref<4x4xbf16>)
// CHECK-NOT:   lowp.cast
func.func @on_buffers(%a: memref<4x8xbf16>, %b: memref<8x4xbf16>, %c: memref<4x4xbf16>) {
  // expected-remark @below {{bf16 (matrix): holds non-f32 floats}}
  linalg.matmul ins(%a, %b : memref<4x8xbf16>, memref<8x4xbf16>) outs(%c : memref<4x4xbf16>)
  return
}
