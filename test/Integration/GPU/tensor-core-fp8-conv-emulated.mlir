// Executes the implicit-GEMM FP8 convolution kernels on this CPU (see
// tensor-core-conv-emulated.mlir for the 16-bit ones): the emulated
// mma.sync m16n8k32 of sm_89 (A fragments through ldmatrix, a [k][n] B
// read by columns), its sm_90a form (wgmma, which reads 8-bit operands
// K-major only: case 1's HWCF filter, a B stored [k][n], is gathered into
// K-major chunks from its columns; case 2's input, B, is gathered into
// K-major chunks of 16 consecutive (c, kh, kw) under one output pixel) and
// gfx950's OCP FP8 MFMA, with the dequantization
// (times the scalar 1 / (sa * sb), here 0.25) and a bias and the cast to
// bf16 fused into the epilogue, as lowp-select-fp8-formats leaves them.
// The reference is the same convolution on f64 operands, then the same
// scaling, bias and rounding in f64. Operands are integers in [-5, 5],
// exact in E4M3 and E5M2, so every product, sum and scaled value is exact
// and the results must agree exactly (0).
//  1. NHWC / HWCF, E4M3 x E4M3, pad 1, stride 2: M = 3*8*8 = 192, F = 32,
//     K = 3*3*16 = 144 (tails in M and K; chunks of 16 channels);
//  2. NCHW / FCHW, E4M3 input x E5M2 filter, pad 1, stride 2, a 7 x 10
//     output (70 pixels, gathered), K = 32*9 = 288.
//
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_89 emulate" \
// RUN: | FileCheck %s --check-prefix=IR
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_89 emulate" \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_90a" 2>&1 \
// RUN: | FileCheck %s --check-prefix=WGREMARK
// WGREMARK-NOT: remark
// WGREMARK-NOT: _mma_sync
// WGREMARK-COUNT-2: gpu.launch_func {{ *}}@{{[a-z0-9_]+}}_wgmma::
// WGREMARK-NOT: _mma_sync
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_90a emulate" 2>/dev/null \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-rocdl-lower-contractions="target=gfx950 emulate" \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// Both convolutions are kernels, their dequantization (the scalar is a
// kernel operand) and casts fused: no f32 output buffer.
// IR-LABEL: func.func @conv_nhwc_fp8
// IR-NOT: linalg.conv
// IR-NOT: memref<3x8x8x32xf32>
// IR-NOT: memref<3x17x17x16xf8E4M3FN>
// IR: memref.alloc() : memref<2x128x80xf8E4M3FN>
// IR: arith.mulf
// IR: arith.truncf {{.*}} : f32 to bf16
// IR: return
// IR-LABEL: func.func @conv_nchw_fp8
// IR-NOT: linalg.conv
// IR: vector.from_elements {{.*}} : vector<16xf8E4M3FN>
// IR: return

// CHECK: 0
// CHECK-NEXT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#last = affine_map<(a, b, c, d) -> (d)>
#scalar = affine_map<(a, b, c, d) -> ()>

func.func @conv_nhwc_fp8(%x: tensor<3x15x15x16xf8E4M3FN>, %w: tensor<3x3x16x32xf8E4M3FN>,
                         %s: f32, %bias: tensor<32xf32>) -> tensor<3x8x8x32xbf16> {
  %z = arith.constant 0.0 : f8E4M3FN
  %zf = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f8E4M3FN
  } : tensor<3x15x15x16xf8E4M3FN> to tensor<3x17x17x16xf8E4M3FN>
  %e = tensor.empty() : tensor<3x8x8x32xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<3x8x8x32xf32>) -> tensor<3x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<3x17x17x16xf8E4M3FN>, tensor<3x3x16x32xf8E4M3FN>)
         outs(%f : tensor<3x8x8x32xf32>) -> tensor<3x8x8x32xf32>
  %o = tensor.empty() : tensor<3x8x8x32xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #scalar, #last, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s, %bias : tensor<3x8x8x32xf32>, f32, tensor<32xf32>) outs(%o : tensor<3x8x8x32xbf16>) {
  ^bb0(%v: f32, %q: f32, %b: f32, %out: bf16):
    %d = arith.mulf %v, %q : f32
    %y = arith.addf %d, %b : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x8x8x32xbf16>
  return %r : tensor<3x8x8x32xbf16>
}
func.func @ref_nhwc_fp8(%x: tensor<3x15x15x16xf64>, %w: tensor<3x3x16x32xf64>,
                        %s: f64, %bias: tensor<32xf64>) -> tensor<3x8x8x32xbf16> {
  %z = arith.constant 0.0 : f64
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f64
  } : tensor<3x15x15x16xf64> to tensor<3x17x17x16xf64>
  %e = tensor.empty() : tensor<3x8x8x32xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<3x8x8x32xf64>) -> tensor<3x8x8x32xf64>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<3x17x17x16xf64>, tensor<3x3x16x32xf64>)
         outs(%f : tensor<3x8x8x32xf64>) -> tensor<3x8x8x32xf64>
  %o = tensor.empty() : tensor<3x8x8x32xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #scalar, #last, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s, %bias : tensor<3x8x8x32xf64>, f64, tensor<32xf64>) outs(%o : tensor<3x8x8x32xbf16>) {
  ^bb0(%v: f64, %q: f64, %b: f64, %out: bf16):
    %d = arith.mulf %v, %q : f64
    %y = arith.addf %d, %b : f64
    %t = arith.truncf %y : f64 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x8x8x32xbf16>
  return %r : tensor<3x8x8x32xbf16>
}

func.func @conv_nchw_fp8(%x: tensor<2x32x13x19xf8E4M3FN>, %w: tensor<48x32x3x3xf8E5M2>,
                         %s: f32) -> tensor<2x48x7x10xf32> {
  %z = arith.constant 0.0 : f8E4M3FN
  %zf = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f8E4M3FN
  } : tensor<2x32x13x19xf8E4M3FN> to tensor<2x32x15x21xf8E4M3FN>
  %e = tensor.empty() : tensor<2x48x7x10xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<2x48x7x10xf32>) -> tensor<2x48x7x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x32x15x21xf8E4M3FN>, tensor<48x32x3x3xf8E5M2>)
         outs(%f : tensor<2x48x7x10xf32>) -> tensor<2x48x7x10xf32>
  %o = tensor.empty() : tensor<2x48x7x10xf32>
  %r = linalg.generic {indexing_maps = [#id4, #scalar, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s : tensor<2x48x7x10xf32>, f32) outs(%o : tensor<2x48x7x10xf32>) {
  ^bb0(%v: f32, %q: f32, %out: f32):
    %d = arith.mulf %v, %q : f32
    linalg.yield %d : f32
  } -> tensor<2x48x7x10xf32>
  return %r : tensor<2x48x7x10xf32>
}
func.func @ref_nchw_fp8(%x: tensor<2x32x13x19xf64>, %w: tensor<48x32x3x3xf64>,
                        %s: f64) -> tensor<2x48x7x10xf64> {
  %z = arith.constant 0.0 : f64
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f64
  } : tensor<2x32x13x19xf64> to tensor<2x32x15x21xf64>
  %e = tensor.empty() : tensor<2x48x7x10xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<2x48x7x10xf64>) -> tensor<2x48x7x10xf64>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x32x15x21xf64>, tensor<48x32x3x3xf64>)
         outs(%f : tensor<2x48x7x10xf64>) -> tensor<2x48x7x10xf64>
  %o = tensor.empty() : tensor<2x48x7x10xf64>
  %r = linalg.generic {indexing_maps = [#id4, #scalar, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s : tensor<2x48x7x10xf64>, f64) outs(%o : tensor<2x48x7x10xf64>) {
  ^bb0(%v: f64, %q: f64, %out: f64):
    %d = arith.mulf %v, %q : f64
    linalg.yield %d : f64
  } -> tensor<2x48x7x10xf64>
  return %r : tensor<2x48x7x10xf64>
}

// t[i0][i1][i2][i3] = ((((i0 * 7 + i1) * 5 + i2) * 3 + i3 + seed) mod 11) - 5:
// integers in [-5, 5], exact in every format here.
func.func @pattern(%seed: index, %e: tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%out: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c5 = arith.constant 5 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.addi %a, %i1 : index
    %c = arith.muli %b, %c5 : index
    %d = arith.addi %c, %i2 : index
    %g = arith.muli %d, %c3 : index
    %h = arith.addi %g, %i3 : index
    %k = arith.addi %h, %seed : index
    %m = arith.remui %k, %c11 : index
    %v = arith.subi %m, %c5 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f64
    linalg.yield %vf : f64
  } -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
func.func @gen(%seed: index, %d0: index, %d1: index, %d2: index, %d3: index) -> tensor<?x?x?x?xf64> {
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf64>
  %r = func.call @pattern(%seed, %e) : (index, tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
// The largest |x - y|.
func.func @maxdiff(%x: tensor<?x?x?x?xf64>, %y: tensor<?x?x?x?xf64>) -> f64 {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.generic {indexing_maps = [#id4, #id4, affine_map<(a, b, c, d) -> ()>],
                       iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %y : tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) outs(%f : tensor<f64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %d = arith.subf %a, %b : f64
    %ad = math.absf %d : f64
    %mx = arith.maximumf %acc, %ad : f64
    linalg.yield %mx : f64
  } -> tensor<f64>
  %v = tensor.extract %r[] : tensor<f64>
  return %v : f64
}
func.func @widen_bf16(%x: tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xbf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xbf16>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xbf16>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xbf16>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf64>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x?x?xbf16>) outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%a: bf16, %o: f64):
    %w = arith.extf %a : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
func.func @widen_f32(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf64>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c13 = arith.constant 13 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c19 = arith.constant 19 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 4 : index
  %s3 = arith.constant 9 : index
  %q = arith.constant 0.25 : f32
  %qd = arith.constant 0.25 : f64

  // Case 1: NHWC E4M3 x E4M3.
  %x1d = func.call @gen(%s1, %c3, %c15, %c15, %c16) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %w1d = func.call @gen(%s2, %c3, %c3, %c16, %c32) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %b1d = func.call @gen(%s3, %c1, %c1, %c1, %c32) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %x1 = tensor.cast %x1d : tensor<?x?x?x?xf64> to tensor<3x15x15x16xf64>
  %w1 = tensor.cast %w1d : tensor<?x?x?x?xf64> to tensor<3x3x16x32xf64>
  %b1c = tensor.cast %b1d : tensor<?x?x?x?xf64> to tensor<1x1x1x32xf64>
  %b1 = tensor.collapse_shape %b1c [[0, 1, 2, 3]] : tensor<1x1x1x32xf64> into tensor<32xf64>
  %x1s = arith.truncf %x1 : tensor<3x15x15x16xf64> to tensor<3x15x15x16xf32>
  %w1s = arith.truncf %w1 : tensor<3x3x16x32xf64> to tensor<3x3x16x32xf32>
  %x1q = arith.truncf %x1s : tensor<3x15x15x16xf32> to tensor<3x15x15x16xf8E4M3FN>
  %w1q = arith.truncf %w1s : tensor<3x3x16x32xf32> to tensor<3x3x16x32xf8E4M3FN>
  %b1f = arith.truncf %b1 : tensor<32xf64> to tensor<32xf32>
  %k1 = func.call @conv_nhwc_fp8(%x1q, %w1q, %q, %b1f) : (tensor<3x15x15x16xf8E4M3FN>, tensor<3x3x16x32xf8E4M3FN>, f32, tensor<32xf32>) -> tensor<3x8x8x32xbf16>
  %r1 = func.call @ref_nhwc_fp8(%x1, %w1, %qd, %b1) : (tensor<3x15x15x16xf64>, tensor<3x3x16x32xf64>, f64, tensor<32xf64>) -> tensor<3x8x8x32xbf16>
  %k1d = tensor.cast %k1 : tensor<3x8x8x32xbf16> to tensor<?x?x?x?xbf16>
  %r1d = tensor.cast %r1 : tensor<3x8x8x32xbf16> to tensor<?x?x?x?xbf16>
  %k1w = func.call @widen_bf16(%k1d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %r1w = func.call @widen_bf16(%r1d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %e1 = func.call @maxdiff(%k1w, %r1w) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  vector.print %e1 : f64

  // Case 2: NCHW E4M3 x E5M2.
  %x2d = func.call @gen(%s1, %c2, %c32, %c13, %c19) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %w2d = func.call @gen(%s2, %c48, %c32, %c3, %c3) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %x2 = tensor.cast %x2d : tensor<?x?x?x?xf64> to tensor<2x32x13x19xf64>
  %w2 = tensor.cast %w2d : tensor<?x?x?x?xf64> to tensor<48x32x3x3xf64>
  %x2s = arith.truncf %x2 : tensor<2x32x13x19xf64> to tensor<2x32x13x19xf32>
  %w2s = arith.truncf %w2 : tensor<48x32x3x3xf64> to tensor<48x32x3x3xf32>
  %x2q = arith.truncf %x2s : tensor<2x32x13x19xf32> to tensor<2x32x13x19xf8E4M3FN>
  %w2q = arith.truncf %w2s : tensor<48x32x3x3xf32> to tensor<48x32x3x3xf8E5M2>
  %k2 = func.call @conv_nchw_fp8(%x2q, %w2q, %q) : (tensor<2x32x13x19xf8E4M3FN>, tensor<48x32x3x3xf8E5M2>, f32) -> tensor<2x48x7x10xf32>
  %r2 = func.call @ref_nchw_fp8(%x2, %w2, %qd) : (tensor<2x32x13x19xf64>, tensor<48x32x3x3xf64>, f64) -> tensor<2x48x7x10xf64>
  %k2d = tensor.cast %k2 : tensor<2x48x7x10xf32> to tensor<?x?x?x?xf32>
  %k2w = func.call @widen_f32(%k2d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf64>
  %r2d = tensor.cast %r2 : tensor<2x48x7x10xf64> to tensor<?x?x?x?xf64>
  %e2 = func.call @maxdiff(%k2w, %r2d) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  vector.print %e2 : f64
  return
}
