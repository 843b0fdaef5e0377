// Depthwise convolutions (one filter per channel: MobileNet-style blocks,
// torch-mlir's groups == channels) through lowp-pipeline-x86: a direct
// kernel vectorized along channels (NHWC) or output columns (NCHW), a block
// of accumulators kept across the filter taps; f32 and bf16 (widened while
// loaded), with channel / column counts that leave element-by-element
// edges on AVX2 and AVX-512, stride 2 (NHWC; NCHW along H and along both),
// dilation 2
// with a fill of 0.5 (NCHW: blocks of rows and column vectors, remainders). Each is
// compared with a reference written as a linalg.generic in f32 on the same
// (bf16-exact) inputs, left to the plain loop path: |x - ref| <= 1e-5 |ref|
// + 1e-4 (at most 25 taps of magnitude <= 1). Each case prints 1; the last
// one is a negative control (the filter's taps transposed must fail).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// Sapphire Rapids without AMX: the same bf16 through the f32 FMA kernels
// on widened operands (its vdpbf16ps is half their rate).
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// No depthwise convolution is left to the generic loops:
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: generic loop path for 'linalg.depthwise
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>

// Deterministic multiples of 1/16 in [-0.875, 0.875] (exact in bf16).
func.func @fill4(%seed: index, %e: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i0, %c5 : index
    %b = arith.muli %i1, %c7 : index
    %c = arith.muli %i2, %c11 : index
    %d = arith.muli %i3, %c13 : index
    %s1 = arith.addi %a, %b : index
    %s2 = arith.addi %s1, %c : index
    %s3 = arith.addi %s2, %d : index
    %s4 = arith.addi %s3, %seed : index
    %m = arith.remui %s4, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %sixteen = arith.constant 16.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %sixteen : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @rand4(%seed: index, %a: index, %b: index, %c: index, %d: index) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%a, %b, %c, %d) : tensor<?x?x?x?xf32>
  %r = call @fill4(%seed, %e) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// 1 when every |got - ref| <= 1e-5 |ref| + 1e-4.
func.func @close(%got: tensor<?x?x?x?xf32>, %ref: tensor<?x?x?x?xf32>) -> i1 {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %g = tensor.collapse_shape %got [[0, 1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %r = tensor.collapse_shape %ref [[0, 1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #all2],
                           iterator_types = ["reduction", "reduction"]}
      ins(%g, %r : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %rv: f32, %m: f32):
    %d = arith.subf %v, %rv : f32
    %ad = math.absf %d : f32
    %ar = math.absf %rv : f32
    %rel = arith.constant 1.0e-5 : f32
    %abs = arith.constant 1.0e-4 : f32
    %t = arith.mulf %ar, %rel : f32
    %tol = arith.addf %t, %abs : f32
    %ex = arith.subf %ad, %tol : f32
    %n = arith.maximumf %m, %ex : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %w = tensor.extract %worst[] : tensor<f32>
  %ok = arith.cmpf ole, %w, %zero : f32
  return %ok : i1
}

func.func @nhwc(%in: tensor<2x9x9x20xf32>, %f: tensor<3x3x20xf32>) -> tensor<2x7x7x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x20xf32>) -> tensor<2x7x7x20xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%in, %f : tensor<2x9x9x20xf32>, tensor<3x3x20xf32>) outs(%o : tensor<2x7x7x20xf32>) -> tensor<2x7x7x20xf32>
  return %y : tensor<2x7x7x20xf32>
}

func.func @ref_nhwc(%in: tensor<2x9x9x20xf32>, %f: tensor<3x3x20xf32>) -> tensor<2x7x7x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x20xf32>) -> tensor<2x7x7x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, c, i, j) -> (n, 1 * y + i, 1 * x + j, c)>, affine_map<(n, y, x, c, i, j) -> (i, j, c)>, affine_map<(n, y, x, c, i, j) -> (n, y, x, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x9x9x20xf32>, tensor<3x3x20xf32>) outs(%o : tensor<2x7x7x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x7x7x20xf32>
  return %y : tensor<2x7x7x20xf32>
}

func.func @nhwc_s2_bf16(%in: tensor<1x11x11x36xbf16>, %f: tensor<3x3x36xbf16>) -> tensor<1x5x5x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x36xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x36xf32>) -> tensor<1x5x5x36xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%in, %f : tensor<1x11x11x36xbf16>, tensor<3x3x36xbf16>) outs(%o : tensor<1x5x5x36xf32>) -> tensor<1x5x5x36xf32>
  return %y : tensor<1x5x5x36xf32>
}

func.func @ref_nhwc_s2_bf16(%in: tensor<1x11x11x36xf32>, %f: tensor<3x3x36xf32>) -> tensor<1x5x5x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x36xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x36xf32>) -> tensor<1x5x5x36xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, c, i, j) -> (n, 2 * y + i, 2 * x + j, c)>, affine_map<(n, y, x, c, i, j) -> (i, j, c)>, affine_map<(n, y, x, c, i, j) -> (n, y, x, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x11x11x36xf32>, tensor<3x3x36xf32>) outs(%o : tensor<1x5x5x36xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x5x5x36xf32>
  return %y : tensor<1x5x5x36xf32>
}

func.func @nchw(%in: tensor<2x5x10x23xf32>, %f: tensor<5x3x3xf32>) -> tensor<2x5x8x21xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x8x21xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x8x21xf32>) -> tensor<2x5x8x21xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%in, %f : tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) outs(%o : tensor<2x5x8x21xf32>) -> tensor<2x5x8x21xf32>
  return %y : tensor<2x5x8x21xf32>
}

func.func @ref_nchw(%in: tensor<2x5x10x23xf32>, %f: tensor<5x3x3xf32>) -> tensor<2x5x8x21xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x8x21xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x8x21xf32>) -> tensor<2x5x8x21xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 1 * y + i, 1 * x + j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) outs(%o : tensor<2x5x8x21xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x5x8x21xf32>
  return %y : tensor<2x5x8x21xf32>
}

func.func @nchw_s2h_bf16(%in: tensor<1x6x11x40xbf16>, %f: tensor<6x5x5xbf16>) -> tensor<1x6x4x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x4x36xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x4x36xf32>) -> tensor<1x6x4x36xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%in, %f : tensor<1x6x11x40xbf16>, tensor<6x5x5xbf16>) outs(%o : tensor<1x6x4x36xf32>) -> tensor<1x6x4x36xf32>
  return %y : tensor<1x6x4x36xf32>
}

func.func @ref_nchw_s2h_bf16(%in: tensor<1x6x11x40xf32>, %f: tensor<6x5x5xf32>) -> tensor<1x6x4x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x4x36xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x4x36xf32>) -> tensor<1x6x4x36xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + i, 1 * x + j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x6x11x40xf32>, tensor<6x5x5xf32>) outs(%o : tensor<1x6x4x36xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x6x4x36xf32>
  return %y : tensor<1x6x4x36xf32>
}

func.func @nchw_dil_bf16(%in: tensor<1x3x11x74xbf16>, %f: tensor<3x3x3xbf16>) -> tensor<1x3x7x70xf32> {
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x3x7x70xf32>
  %o = linalg.fill ins(%half : f32) outs(%e : tensor<1x3x7x70xf32>) -> tensor<1x3x7x70xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x3x11x74xbf16>, tensor<3x3x3xbf16>) outs(%o : tensor<1x3x7x70xf32>) -> tensor<1x3x7x70xf32>
  return %y : tensor<1x3x7x70xf32>
}

func.func @ref_nchw_dil_bf16(%in: tensor<1x3x11x74xf32>, %f: tensor<3x3x3xf32>) -> tensor<1x3x7x70xf32> {
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x3x7x70xf32>
  %o = linalg.fill ins(%half : f32) outs(%e : tensor<1x3x7x70xf32>) -> tensor<1x3x7x70xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, y + 2 * i, x + 2 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x3x11x74xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x7x70xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3x7x70xf32>
  return %y : tensor<1x3x7x70xf32>
}

func.func @nchw_s2_f32(%in: tensor<2x5x11x39xf32>, %f: tensor<5x3x3xf32>) -> tensor<2x5x5x19xf32> {
  %v = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x19xf32>
  %o = linalg.fill ins(%v : f32) outs(%e : tensor<2x5x5x19xf32>) -> tensor<2x5x5x19xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%in, %f : tensor<2x5x11x39xf32>, tensor<5x3x3xf32>) outs(%o : tensor<2x5x5x19xf32>) -> tensor<2x5x5x19xf32>
  return %y : tensor<2x5x5x19xf32>
}

func.func @ref_nchw_s2_f32(%in: tensor<2x5x11x39xf32>, %f: tensor<5x3x3xf32>) -> tensor<2x5x5x19xf32> {
  %v = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x19xf32>
  %o = linalg.fill ins(%v : f32) outs(%e : tensor<2x5x5x19xf32>) -> tensor<2x5x5x19xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x5x11x39xf32>, tensor<5x3x3xf32>) outs(%o : tensor<2x5x5x19xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x5x5x19xf32>
  return %y : tensor<2x5x5x19xf32>
}

func.func @nchw_s2_bf16(%in: tensor<1x3x9x65xbf16>, %f: tensor<3x3x3xbf16>) -> tensor<1x3x4x32xf32> {
  %v = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<1x3x4x32xf32>
  %o = linalg.fill ins(%v : f32) outs(%e : tensor<1x3x4x32xf32>) -> tensor<1x3x4x32xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%in, %f : tensor<1x3x9x65xbf16>, tensor<3x3x3xbf16>) outs(%o : tensor<1x3x4x32xf32>) -> tensor<1x3x4x32xf32>
  return %y : tensor<1x3x4x32xf32>
}

func.func @ref_nchw_s2_bf16(%in: tensor<1x3x9x65xf32>, %f: tensor<3x3x3xf32>) -> tensor<1x3x4x32xf32> {
  %v = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<1x3x4x32xf32>
  %o = linalg.fill ins(%v : f32) outs(%e : tensor<1x3x4x32xf32>) -> tensor<1x3x4x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x3x9x65xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3x4x32xf32>
  return %y : tensor<1x3x4x32xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k20 = arith.constant 20 : index
  %k23 = arith.constant 23 : index
  %k36 = arith.constant 36 : index
  %k40 = arith.constant 40 : index
  %k74 = arith.constant 74 : index
  %k8 = arith.constant 8 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k39 = arith.constant 39 : index
  %k65 = arith.constant 65 : index

  // 1. nhwc: nhwc (2, 9, 9, 20) * (3, 3, 20), strides (1, 1), f32.
  %in0d = call @rand4(%k0, %k2, %k9, %k9, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f0d4 = call @rand4(%k1, %k1, %k3, %k3, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in0 = tensor.cast %in0d : tensor<?x?x?x?xf32> to tensor<2x9x9x20xf32>
  %f04 = tensor.cast %f0d4 : tensor<?x?x?x?xf32> to tensor<1x3x3x20xf32>
  %f0 = tensor.collapse_shape %f04 [[0, 1], [2], [3]] : tensor<1x3x3x20xf32> into tensor<3x3x20xf32>
  %y0 = call @nhwc(%in0, %f0) : (tensor<2x9x9x20xf32>, tensor<3x3x20xf32>) -> tensor<2x7x7x20xf32>
  %r0 = call @ref_nhwc(%in0, %f0) : (tensor<2x9x9x20xf32>, tensor<3x3x20xf32>) -> tensor<2x7x7x20xf32>
  %y0d = tensor.cast %y0 : tensor<2x7x7x20xf32> to tensor<?x?x?x?xf32>
  %r0d = tensor.cast %r0 : tensor<2x7x7x20xf32> to tensor<?x?x?x?xf32>
  %ok0 = call @close(%y0d, %r0d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok0 : i1

  // 2. nhwc_s2_bf16: nhwc (1, 11, 11, 36) * (3, 3, 36), strides (2, 2), bf16.
  %in1d = call @rand4(%k2, %k1, %k11, %k11, %k36) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1d4 = call @rand4(%k3, %k1, %k3, %k3, %k36) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<1x11x11x36xf32>
  %f14 = tensor.cast %f1d4 : tensor<?x?x?x?xf32> to tensor<1x3x3x36xf32>
  %f1 = tensor.collapse_shape %f14 [[0, 1], [2], [3]] : tensor<1x3x3x36xf32> into tensor<3x3x36xf32>
  %in1b = lowp.cast %in1 : tensor<1x11x11x36xf32> to tensor<1x11x11x36xbf16>
  %f1b = lowp.cast %f1 : tensor<3x3x36xf32> to tensor<3x3x36xbf16>
  %y1 = call @nhwc_s2_bf16(%in1b, %f1b) : (tensor<1x11x11x36xbf16>, tensor<3x3x36xbf16>) -> tensor<1x5x5x36xf32>
  %r1 = call @ref_nhwc_s2_bf16(%in1, %f1) : (tensor<1x11x11x36xf32>, tensor<3x3x36xf32>) -> tensor<1x5x5x36xf32>
  %y1d = tensor.cast %y1 : tensor<1x5x5x36xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<1x5x5x36xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 3. nchw: nchw (2, 5, 10, 23) * (5, 3, 3), strides (1, 1), f32.
  %in2d = call @rand4(%k4, %k2, %k5, %k10, %k23) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2d4 = call @rand4(%k5, %k1, %k5, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<2x5x10x23xf32>
  %f24 = tensor.cast %f2d4 : tensor<?x?x?x?xf32> to tensor<1x5x3x3xf32>
  %f2 = tensor.collapse_shape %f24 [[0, 1], [2], [3]] : tensor<1x5x3x3xf32> into tensor<5x3x3xf32>
  %y2 = call @nchw(%in2, %f2) : (tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) -> tensor<2x5x8x21xf32>
  %r2 = call @ref_nchw(%in2, %f2) : (tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) -> tensor<2x5x8x21xf32>
  %y2d = tensor.cast %y2 : tensor<2x5x8x21xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<2x5x8x21xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 4. nchw_s2h_bf16: nchw (1, 6, 11, 40) * (6, 5, 5), strides (2, 1), bf16.
  %in3d = call @rand4(%k6, %k1, %k6, %k11, %k40) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f3d4 = call @rand4(%k7, %k1, %k6, %k5, %k5) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in3 = tensor.cast %in3d : tensor<?x?x?x?xf32> to tensor<1x6x11x40xf32>
  %f34 = tensor.cast %f3d4 : tensor<?x?x?x?xf32> to tensor<1x6x5x5xf32>
  %f3 = tensor.collapse_shape %f34 [[0, 1], [2], [3]] : tensor<1x6x5x5xf32> into tensor<6x5x5xf32>
  %in3b = lowp.cast %in3 : tensor<1x6x11x40xf32> to tensor<1x6x11x40xbf16>
  %f3b = lowp.cast %f3 : tensor<6x5x5xf32> to tensor<6x5x5xbf16>
  %y3 = call @nchw_s2h_bf16(%in3b, %f3b) : (tensor<1x6x11x40xbf16>, tensor<6x5x5xbf16>) -> tensor<1x6x4x36xf32>
  %r3 = call @ref_nchw_s2h_bf16(%in3, %f3) : (tensor<1x6x11x40xf32>, tensor<6x5x5xf32>) -> tensor<1x6x4x36xf32>
  %y3d = tensor.cast %y3 : tensor<1x6x4x36xf32> to tensor<?x?x?x?xf32>
  %r3d = tensor.cast %r3 : tensor<1x6x4x36xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 5. nchw_dil_bf16: nchw (1, 3, 11, 74) * (3, 3, 3), dilations (2, 2),
  // a fill of 0.5, bf16: 70 columns (chunks of 4 vectors and a masked or
  // element-by-element rest), 7 rows (blocks of rows and a remainder).
  %in4d = call @rand4(%k9, %k1, %k3, %k11, %k74) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f4d4 = call @rand4(%k10, %k1, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in4 = tensor.cast %in4d : tensor<?x?x?x?xf32> to tensor<1x3x11x74xf32>
  %f44 = tensor.cast %f4d4 : tensor<?x?x?x?xf32> to tensor<1x3x3x3xf32>
  %f4 = tensor.collapse_shape %f44 [[0, 1], [2], [3]] : tensor<1x3x3x3xf32> into tensor<3x3x3xf32>
  %in4b = lowp.cast %in4 : tensor<1x3x11x74xf32> to tensor<1x3x11x74xbf16>
  %f4b = lowp.cast %f4 : tensor<3x3x3xf32> to tensor<3x3x3xbf16>
  %y4 = call @nchw_dil_bf16(%in4b, %f4b) : (tensor<1x3x11x74xbf16>, tensor<3x3x3xbf16>) -> tensor<1x3x7x70xf32>
  %r4 = call @ref_nchw_dil_bf16(%in4, %f4) : (tensor<1x3x11x74xf32>, tensor<3x3x3xf32>) -> tensor<1x3x7x70xf32>
  %y4d = tensor.cast %y4 : tensor<1x3x7x70xf32> to tensor<?x?x?x?xf32>
  %r4d = tensor.cast %r4 : tensor<1x3x7x70xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r4d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 6. nchw_s2_f32: nchw (2, 5, 11, 39) * (5, 3, 3), strides (2, 2), f32:
  // every other input element (a shuffle of 2 x lanes), masked at the row end.
  %in5d = call @rand4(%k11, %k2, %k5, %k11, %k39) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f5d4 = call @rand4(%k12, %k1, %k5, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in5 = tensor.cast %in5d : tensor<?x?x?x?xf32> to tensor<2x5x11x39xf32>
  %f54 = tensor.cast %f5d4 : tensor<?x?x?x?xf32> to tensor<1x5x3x3xf32>
  %f5 = tensor.collapse_shape %f54 [[0, 1], [2], [3]] : tensor<1x5x3x3xf32> into tensor<5x3x3xf32>
  %y5 = call @nchw_s2_f32(%in5, %f5) : (tensor<2x5x11x39xf32>, tensor<5x3x3xf32>) -> tensor<2x5x5x19xf32>
  %r5 = call @ref_nchw_s2_f32(%in5, %f5) : (tensor<2x5x11x39xf32>, tensor<5x3x3xf32>) -> tensor<2x5x5x19xf32>
  %y5d = tensor.cast %y5 : tensor<2x5x5x19xf32> to tensor<?x?x?x?xf32>
  %r5d = tensor.cast %r5 : tensor<2x5x5x19xf32> to tensor<?x?x?x?xf32>
  %ok5 = call @close(%y5d, %r5d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok5 : i1

  // 7. nchw_s2_bf16: nchw (1, 3, 9, 65) * (3, 3, 3), strides (2, 2), bf16,
  // a fill of 0.25: the last vector's 2 x lanes would pass the row's end
  // (masked on AVX-512; element by element on AVX2).
  %in6d = call @rand4(%k13, %k1, %k3, %k9, %k65) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f6d4 = call @rand4(%k8, %k1, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in6 = tensor.cast %in6d : tensor<?x?x?x?xf32> to tensor<1x3x9x65xf32>
  %f64 = tensor.cast %f6d4 : tensor<?x?x?x?xf32> to tensor<1x3x3x3xf32>
  %f6 = tensor.collapse_shape %f64 [[0, 1], [2], [3]] : tensor<1x3x3x3xf32> into tensor<3x3x3xf32>
  %in6b = lowp.cast %in6 : tensor<1x3x9x65xf32> to tensor<1x3x9x65xbf16>
  %f6b = lowp.cast %f6 : tensor<3x3x3xf32> to tensor<3x3x3xbf16>
  %y6 = call @nchw_s2_bf16(%in6b, %f6b) : (tensor<1x3x9x65xbf16>, tensor<3x3x3xbf16>) -> tensor<1x3x4x32xf32>
  %r6 = call @ref_nchw_s2_bf16(%in6, %f6) : (tensor<1x3x9x65xf32>, tensor<3x3x3xf32>) -> tensor<1x3x4x32xf32>
  %y6d = tensor.cast %y6 : tensor<1x3x4x32xf32> to tensor<?x?x?x?xf32>
  %r6d = tensor.cast %r6 : tensor<1x3x4x32xf32> to tensor<?x?x?x?xf32>
  %ok6 = call @close(%y6d, %r6d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok6 : i1

  // 8. Negative control: case 1 against the reference with
  // the filter taps transposed.
  %ft = linalg.transpose ins(%f0 : tensor<3x3x20xf32>) outs(%f0 : tensor<3x3x20xf32>) permutation = [1, 0, 2]
  %rbad = call @ref_nhwc(%in0, %ft) : (tensor<2x9x9x20xf32>, tensor<3x3x20xf32>) -> tensor<2x7x7x20xf32>
  %rbadd = tensor.cast %rbad : tensor<2x7x7x20xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%y0d, %rbadd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
