// NHWC convolutions (linalg.conv_2d_nhwc_hwcf) through lowp-pipeline-x86:
// the GEMM pixels x F = A (pixels x KH*KW*C) * filter on blocks of output
// pixels (ConvNhwcToKernel). The vector kernel reads A in place from the
// input, a filter tap's C channels at a time; AMX tiles and the f32 kernel
// on a narrow input read an im2col copy (col) built per block instead.
// Cases: f32 with 529 pixels and K = 9 taps of 64 channels (blocks of 132
// pixels and a tail of 1 on avx2, 128 and 17 on sapphirerapids; k blocks
// of 5 + 4 taps; 40 filters: a partial panel); bf16 with two images in one
// block, strides [2, 1] and dilations [1, 2] (the dot kernel on
// AVX512_BF16, in place; col widened to f32 on avx2); bf16 with
// KH*KW*C = 27 (odd: the f32 kernel on widened operands), dilation 2;
// conv_2d_nhwc_fhwc (TOSA's filter layout, F first: packed as a transposed
// B) in f32 with strides [1, 2] and dilations [2, 1], and in bf16 with 24
// filters (a partial panel).
// Each is compared with a reference convolution
// written as a linalg.generic in f32 on the same (bf16-exact) inputs, left
// to the plain loop path: |x - ref| <= 1e-5 |ref| + 1e-4 (inputs are
// multiples of 1/16 below 1, so every partial sum is exact in f32 and only
// a wrong result can differ). Each case prints 1; the last one is a
// negative control (the reference with the filter taps transposed must
// fail the check).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// 3x3 stride-1 convolutions run as Winograd F(2x2, 3x3) by default
// (conv-winograd*.mlir); the direct kernels on them too:
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 winograd=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// On AMX-BF16 hosts with amx=true (the bf16 cases at stride 1 with 32
// channels on tiles reading the input in place, the others on im2col tiles
// or vdpbf16ps):
// RUN: %if x86-amx %{ fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// No convolution is left to the generic loops or to im2col + linalg.matmul
// (only the references):
// RUN: fp-opt %s -lowp-pipeline-x86=target=sapphirerapids -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nhwc_hwcf'
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nhwc_fhwc'
// REMARK-NOT: generic loop path for 'linalg.matmul'

// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>

// Deterministic values in [-0.875, 0.875] (multiples of 1/16: exact in bf16).
func.func @fill(%seed: index, %e: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
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
  %r = call @fill(%seed, %e) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
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

func.func @blocks_f32(%in: tensor<1x25x25x64xf32>, %f: tensor<3x3x64x40xf32>) -> tensor<1x23x23x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x23x23x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x23x23x40xf32>) -> tensor<1x23x23x40xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%in, %f : tensor<1x25x25x64xf32>, tensor<3x3x64x40xf32>) outs(%o : tensor<1x23x23x40xf32>) -> tensor<1x23x23x40xf32>
  return %y : tensor<1x23x23x40xf32>
}

func.func @ref_blocks_f32(%in: tensor<1x25x25x64xf32>, %f: tensor<3x3x64x40xf32>) -> tensor<1x23x23x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x23x23x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x23x23x40xf32>) -> tensor<1x23x23x40xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, f, i, j, c) -> (n, 1 * y + 1 * i, 1 * x + 1 * j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (i, j, c, f)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (n, y, x, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x25x25x64xf32>, tensor<3x3x64x40xf32>) outs(%o : tensor<1x23x23x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x23x23x40xf32>
  return %y : tensor<1x23x23x40xf32>
}

func.func @strided_dilated_bf16(%in: tensor<2x9x9x16xbf16>, %f: tensor<3x3x16x32xbf16>) -> tensor<2x4x5x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5x32xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x32xf32>) -> tensor<2x4x5x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%in, %f : tensor<2x9x9x16xbf16>, tensor<3x3x16x32xbf16>) outs(%o : tensor<2x4x5x32xf32>) -> tensor<2x4x5x32xf32>
  return %y : tensor<2x4x5x32xf32>
}

func.func @ref_strided_dilated_bf16(%in: tensor<2x9x9x16xf32>, %f: tensor<3x3x16x32xf32>) -> tensor<2x4x5x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5x32xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x32xf32>) -> tensor<2x4x5x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, f, i, j, c) -> (n, 2 * y + 1 * i, 1 * x + 2 * j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (i, j, c, f)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (n, y, x, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x9x9x16xf32>, tensor<3x3x16x32xf32>) outs(%o : tensor<2x4x5x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x5x32xf32>
  return %y : tensor<2x4x5x32xf32>
}

func.func @odd_depth_bf16(%in: tensor<1x8x8x3xbf16>, %f: tensor<3x3x3x24xbf16>) -> tensor<1x4x4x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 2]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%in, %f : tensor<1x8x8x3xbf16>, tensor<3x3x3x24xbf16>) outs(%o : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  return %y : tensor<1x4x4x24xf32>
}

func.func @ref_odd_depth_bf16(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x24xf32>) -> tensor<1x4x4x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, f, i, j, c) -> (n, 1 * y + 2 * i, 1 * x + 2 * j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (i, j, c, f)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (n, y, x, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x24xf32>) outs(%o : tensor<1x4x4x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x24xf32>
  return %y : tensor<1x4x4x24xf32>
}

// conv_2d_nhwc_fhwc (TOSA's filter layout, F x KH x KW x C): the same GEMM
// with the filter as a transposed B.
func.func @fhwc_f32(%in: tensor<1x12x13x48xf32>, %f: tensor<40x3x3x48xf32>) -> tensor<1x8x6x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x40xf32>) -> tensor<1x8x6x40xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
      ins(%in, %f : tensor<1x12x13x48xf32>, tensor<40x3x3x48xf32>) outs(%o : tensor<1x8x6x40xf32>) -> tensor<1x8x6x40xf32>
  return %y : tensor<1x8x6x40xf32>
}

func.func @ref_fhwc_f32(%in: tensor<1x12x13x48xf32>, %f: tensor<40x3x3x48xf32>) -> tensor<1x8x6x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x40xf32>) -> tensor<1x8x6x40xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, f, i, j, c) -> (n, y + 2 * i, 2 * x + j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (f, i, j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (n, y, x, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x12x13x48xf32>, tensor<40x3x3x48xf32>) outs(%o : tensor<1x8x6x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x8x6x40xf32>
  return %y : tensor<1x8x6x40xf32>
}

func.func @fhwc_bf16(%in: tensor<2x10x10x32xbf16>, %f: tensor<24x3x3x32xbf16>) -> tensor<2x8x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x24xf32>) -> tensor<2x8x8x24xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x10x10x32xbf16>, tensor<24x3x3x32xbf16>) outs(%o : tensor<2x8x8x24xf32>) -> tensor<2x8x8x24xf32>
  return %y : tensor<2x8x8x24xf32>
}

func.func @ref_fhwc_bf16(%in: tensor<2x10x10x32xf32>, %f: tensor<24x3x3x32xf32>) -> tensor<2x8x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x24xf32>) -> tensor<2x8x8x24xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, f, i, j, c) -> (n, y + i, x + j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (f, i, j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (n, y, x, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x10x10x32xf32>, tensor<24x3x3x32xf32>) outs(%o : tensor<2x8x8x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x24xf32>
  return %y : tensor<2x8x8x24xf32>
}

func.func @main() {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k16 = arith.constant 16 : index
  %k24 = arith.constant 24 : index
  %k25 = arith.constant 25 : index
  %k32 = arith.constant 32 : index
  %k40 = arith.constant 40 : index
  %k64 = arith.constant 64 : index

  // 1. blocks_f32: 1x25x25x64 * 3x3x64x40, strides [1, 1], dilations [1, 1], f32.
  %in0d = call @rand4(%k0, %k1, %k25, %k25, %k64) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f0d = call @rand4(%k1, %k3, %k3, %k64, %k40) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in0 = tensor.cast %in0d : tensor<?x?x?x?xf32> to tensor<1x25x25x64xf32>
  %f0 = tensor.cast %f0d : tensor<?x?x?x?xf32> to tensor<3x3x64x40xf32>
  %y0 = call @blocks_f32(%in0, %f0) : (tensor<1x25x25x64xf32>, tensor<3x3x64x40xf32>) -> tensor<1x23x23x40xf32>
  %r0 = call @ref_blocks_f32(%in0, %f0) : (tensor<1x25x25x64xf32>, tensor<3x3x64x40xf32>) -> tensor<1x23x23x40xf32>
  %y0d = tensor.cast %y0 : tensor<1x23x23x40xf32> to tensor<?x?x?x?xf32>
  %r0d = tensor.cast %r0 : tensor<1x23x23x40xf32> to tensor<?x?x?x?xf32>
  %ok0 = call @close(%y0d, %r0d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok0 : i1

  // 2. strided_dilated_bf16: 2x9x9x16 * 3x3x16x32, strides [2, 1], dilations [1, 2], bf16.
  %in1d = call @rand4(%k2, %k2, %k9, %k9, %k16) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1d = call @rand4(%k3, %k3, %k3, %k16, %k32) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<2x9x9x16xf32>
  %f1 = tensor.cast %f1d : tensor<?x?x?x?xf32> to tensor<3x3x16x32xf32>
  %in1b = lowp.cast %in1 : tensor<2x9x9x16xf32> to tensor<2x9x9x16xbf16>
  %f1b = lowp.cast %f1 : tensor<3x3x16x32xf32> to tensor<3x3x16x32xbf16>
  %y1 = call @strided_dilated_bf16(%in1b, %f1b) : (tensor<2x9x9x16xbf16>, tensor<3x3x16x32xbf16>) -> tensor<2x4x5x32xf32>
  %r1 = call @ref_strided_dilated_bf16(%in1, %f1) : (tensor<2x9x9x16xf32>, tensor<3x3x16x32xf32>) -> tensor<2x4x5x32xf32>
  %y1d = tensor.cast %y1 : tensor<2x4x5x32xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<2x4x5x32xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 3. odd_depth_bf16: 1x8x8x3 * 3x3x3x24, strides [1, 1], dilations [2, 2], bf16.
  %in2d = call @rand4(%k4, %k1, %k8, %k8, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2d = call @rand4(%k5, %k3, %k3, %k3, %k24) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<1x8x8x3xf32>
  %f2 = tensor.cast %f2d : tensor<?x?x?x?xf32> to tensor<3x3x3x24xf32>
  %in2b = lowp.cast %in2 : tensor<1x8x8x3xf32> to tensor<1x8x8x3xbf16>
  %f2b = lowp.cast %f2 : tensor<3x3x3x24xf32> to tensor<3x3x3x24xbf16>
  %y2 = call @odd_depth_bf16(%in2b, %f2b) : (tensor<1x8x8x3xbf16>, tensor<3x3x3x24xbf16>) -> tensor<1x4x4x24xf32>
  %r2 = call @ref_odd_depth_bf16(%in2, %f2) : (tensor<1x8x8x3xf32>, tensor<3x3x3x24xf32>) -> tensor<1x4x4x24xf32>
  %y2d = tensor.cast %y2 : tensor<1x4x4x24xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<1x4x4x24xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 5. fhwc_f32: 1x12x13x48 * 40x3x3x48 (F first), strides [1, 2], dilations [2, 1].
  %k10 = arith.constant 10 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k48 = arith.constant 48 : index
  %in5d = call @rand4(%k6, %k1, %k12, %k13, %k48) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f5d = call @rand4(%k7, %k40, %k3, %k3, %k48) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in5 = tensor.cast %in5d : tensor<?x?x?x?xf32> to tensor<1x12x13x48xf32>
  %f5 = tensor.cast %f5d : tensor<?x?x?x?xf32> to tensor<40x3x3x48xf32>
  %y5 = call @fhwc_f32(%in5, %f5) : (tensor<1x12x13x48xf32>, tensor<40x3x3x48xf32>) -> tensor<1x8x6x40xf32>
  %r5 = call @ref_fhwc_f32(%in5, %f5) : (tensor<1x12x13x48xf32>, tensor<40x3x3x48xf32>) -> tensor<1x8x6x40xf32>
  %y5d = tensor.cast %y5 : tensor<1x8x6x40xf32> to tensor<?x?x?x?xf32>
  %r5d = tensor.cast %r5 : tensor<1x8x6x40xf32> to tensor<?x?x?x?xf32>
  %ok5 = call @close(%y5d, %r5d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok5 : i1

  // 6. fhwc_bf16: 2x10x10x32 * 24x3x3x32, stride 1, bf16 (24 filters: a partial panel).
  %in6d = call @rand4(%k8, %k2, %k10, %k10, %k32) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f6d = call @rand4(%k9, %k24, %k3, %k3, %k32) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in6 = tensor.cast %in6d : tensor<?x?x?x?xf32> to tensor<2x10x10x32xf32>
  %f6 = tensor.cast %f6d : tensor<?x?x?x?xf32> to tensor<24x3x3x32xf32>
  %in6b = lowp.cast %in6 : tensor<2x10x10x32xf32> to tensor<2x10x10x32xbf16>
  %f6b = lowp.cast %f6 : tensor<24x3x3x32xf32> to tensor<24x3x3x32xbf16>
  %y6 = call @fhwc_bf16(%in6b, %f6b) : (tensor<2x10x10x32xbf16>, tensor<24x3x3x32xbf16>) -> tensor<2x8x8x24xf32>
  %r6 = call @ref_fhwc_bf16(%in6, %f6) : (tensor<2x10x10x32xf32>, tensor<24x3x3x32xf32>) -> tensor<2x8x8x24xf32>
  %y6d = tensor.cast %y6 : tensor<2x8x8x24xf32> to tensor<?x?x?x?xf32>
  %r6d = tensor.cast %r6 : tensor<2x8x8x24xf32> to tensor<?x?x?x?xf32>
  %ok6 = call @close(%y6d, %r6d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok6 : i1

  // 4. Negative control: case 1 against the reference with the
  // filter taps transposed (KH and KW swapped).
  %ft = linalg.transpose ins(%f0 : tensor<3x3x64x40xf32>) outs(%f0 : tensor<3x3x64x40xf32>) permutation = [1, 0, 2, 3]
  %rbad = call @ref_blocks_f32(%in0, %ft) : (tensor<1x25x25x64xf32>, tensor<3x3x64x40xf32>) -> tensor<1x23x23x40xf32>
  %rbadd = tensor.cast %rbad : tensor<1x23x23x40xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%y0d, %rbadd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
