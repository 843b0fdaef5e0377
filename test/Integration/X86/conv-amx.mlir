// The x86 convolution kernels with amx=true, executed on AMX-BF16 hosts:
// their GEMMs take AMX tile blocks where whole 32 x 32 blocks fit, vdpbf16ps
// for the rest, as matmul-amx.mlir checks for matmuls.
//  * NHWC (1x10x12x32 * 3x3x32x48): stride 1, so A tiles are read from the
//    input in place, the image as one long row of (8 - 1) * 12 + 10 = 94
//    pixels (two tile blocks + 30 rows; 2 columns per row computed and
//    dropped), 48 filters = a panel + 16 columns, K = 288; ReLU fused.
//  * NHWC 2x24x26x64 * 3x3x64x40, dilation 2 along H (conv_nhwc_rows below).
//  * NCHW (1x32x10x12 * 40x32x3x3): the filter is A (40 rows: one tile block
//    + 8 rows), the blocked im2col is a B already in VNNI rows (read by tiles
//    with its row stride), 80 pixels = two panels + 16 columns; a batch
//    norm (x - mean) * rsqrt(var + eps) fused, its statistics per row of C;
//  * NCHW 1x1 (1x24x8x10 * 40x24x1x1, a MobileNet's 24 channels): K = 24 is
//    not a whole tile, the one k step is a tile of zero-padded copies.
// Inputs are multiples of 1/8 below 11/8 (exact in bf16), so products and
// sums are exact in f32 and the results must equal, bit for bit, the same
// convolutions written as linalg.generic (the loop path) on the same
// rounded inputs, followed by the same consumer (the same ops per element,
// whether its per-channel part is computed once or per element). A control (the NCHW reference on another filter) must
// print 0.
//
// RUN: fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" -o %t.amx.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.amx.mlir
// RUN: %if x86-amx %{ mlir-runner %t.amx.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils | FileCheck %s %}
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN:   | FileCheck %s %}
//
// IR-LABEL: llvm.func @conv_nhwc(
// IR: llvm.call @arch_prctl
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// IR-LABEL: llvm.func @conv_nchw(
// IR: llvm.call @arch_prctl
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// IR-LABEL: llvm.func @conv_1x1(
// IR: llvm.call @arch_prctl
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// IR-LABEL: llvm.func @conv_nhwc_rows(
// IR: llvm.call @arch_prctl
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"

#id = affine_map<(i, j) -> (i, j)>

// (7i + 13j + seed) mod 23 - 11, over 8: exact in bf16.
func.func @input(%seed: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c23 = arith.constant 23 : index
    %c11 = arith.constant 11 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c13 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %m2 = arith.remui %s2, %c23 : index
    %d = arith.subi %m2, %c11 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %eighth = arith.constant 0.125 : f32
    %v = arith.mulf %f, %eighth : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// 1 when x == ref everywhere.
func.func @equal(%x: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %true = arith.constant true
  %ok = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %true) -> (i1) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%a2 = %acc) -> (i1) {
      %v = tensor.extract %x[%i, %j] : tensor<?x?xf32>
      %r = tensor.extract %ref[%i, %j] : tensor<?x?xf32>
      %same = arith.cmpf oeq, %v, %r : f32
      %both = arith.andi %a2, %same : i1
      scf.yield %both : i1
    }
    scf.yield %row : i1
  }
  return %ok : i1
}

func.func @conv_nhwc(%x: tensor<1x10x12x32xf32>, %w: tensor<3x3x32x48xf32>) -> tensor<1x8x10x48xf32> {
  %zero = arith.constant 0.0 : f32
  %xb = lowp.cast %x : tensor<1x10x12x32xf32> to tensor<1x10x12x32xbf16>
  %wb = lowp.cast %w : tensor<3x3x32x48xf32> to tensor<3x3x32x48xbf16>
  %e = tensor.empty() : tensor<1x8x10x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x10x48xf32>) -> tensor<1x8x10x48xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<1x10x12x32xbf16>, tensor<3x3x32x48xbf16>) outs(%c : tensor<1x8x10x48xf32>) -> tensor<1x8x10x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x8x10x48xf32>) outs(%e : tensor<1x8x10x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.cmpf ugt, %v, %zero : f32
    %s = arith.select %p, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x8x10x48xf32>
  return %r : tensor<1x8x10x48xf32>
}

func.func @conv_nhwc_reference(%x: tensor<1x10x12x32xf32>, %w: tensor<3x3x32x48xf32>) -> tensor<1x8x10x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x10x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x10x48xf32>) -> tensor<1x8x10x48xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, f, i, j, c) -> (n, h + i, w + j, c)>,
                                        affine_map<(n, h, w, f, i, j, c) -> (i, j, c, f)>,
                                        affine_map<(n, h, w, f, i, j, c) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x10x12x32xf32>, tensor<3x3x32x48xf32>) outs(%c : tensor<1x8x10x48xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x8x10x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x8x10x48xf32>) outs(%e : tensor<1x8x10x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.cmpf ugt, %v, %zero : f32
    %s = arith.select %p, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x8x10x48xf32>
  return %r : tensor<1x8x10x48xf32>
}

func.func @conv_nchw(%x: tensor<1x32x10x12xf32>, %w: tensor<40x32x3x3xf32>, %mean: tensor<40xf32>, %var: tensor<40xf32>) -> tensor<1x40x8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %xb = lowp.cast %x : tensor<1x32x10x12xf32> to tensor<1x32x10x12xbf16>
  %wb = lowp.cast %w : tensor<40x32x3x3xf32> to tensor<40x32x3x3xbf16>
  %e = tensor.empty() : tensor<1x40x8x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40x8x10xf32>) -> tensor<1x40x8x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<1x32x10x12xbf16>, tensor<40x32x3x3xbf16>) outs(%c : tensor<1x40x8x10xf32>) -> tensor<1x40x8x10xf32>
  // (x - mean) * rsqrt(var + eps), per channel, as torch-mlir decomposes
  // it: the kernel computes the rsqrt once per row of its C (a channel).
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>,
                                        affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %mean, %var : tensor<1x40x8x10xf32>, tensor<40xf32>, tensor<40xf32>) outs(%e : tensor<1x40x8x10xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
    %eps = arith.constant 1.0e-05 : f32
    %d = arith.subf %v, %m : f32
    %se = arith.addf %s, %eps : f32
    %rs = math.rsqrt %se : f32
    %n = arith.mulf %d, %rs : f32
    linalg.yield %n : f32
  } -> tensor<1x40x8x10xf32>
  return %r : tensor<1x40x8x10xf32>
}

func.func @conv_nchw_reference(%x: tensor<1x32x10x12xf32>, %w: tensor<40x32x3x3xf32>, %mean: tensor<40xf32>, %var: tensor<40xf32>) -> tensor<1x40x8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x40x8x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40x8x10xf32>) -> tensor<1x40x8x10xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + i, x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x32x10x12xf32>, tensor<40x32x3x3xf32>) outs(%c : tensor<1x40x8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x40x8x10xf32>
  // (x - mean) * rsqrt(var + eps), per channel, as torch-mlir decomposes
  // it: the kernel computes the rsqrt once per row of its C (a channel).
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>,
                                        affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %mean, %var : tensor<1x40x8x10xf32>, tensor<40xf32>, tensor<40xf32>) outs(%e : tensor<1x40x8x10xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
    %eps = arith.constant 1.0e-05 : f32
    %d = arith.subf %v, %m : f32
    %se = arith.addf %s, %eps : f32
    %rs = math.rsqrt %se : f32
    %n = arith.mulf %d, %rs : f32
    linalg.yield %n : f32
  } -> tensor<1x40x8x10xf32>
  return %r : tensor<1x40x8x10xf32>
}

func.func @conv_1x1(%x: tensor<1x24x8x10xf32>, %w: tensor<40x24x1x1xf32>) -> tensor<1x40x8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %xb = lowp.cast %x : tensor<1x24x8x10xf32> to tensor<1x24x8x10xbf16>
  %wb = lowp.cast %w : tensor<40x24x1x1xf32> to tensor<40x24x1x1xbf16>
  %e = tensor.empty() : tensor<1x40x8x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40x8x10xf32>) -> tensor<1x40x8x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<1x24x8x10xbf16>, tensor<40x24x1x1xbf16>) outs(%c : tensor<1x40x8x10xf32>) -> tensor<1x40x8x10xf32>
  return %y : tensor<1x40x8x10xf32>
}

func.func @conv_1x1_reference(%x: tensor<1x24x8x10xf32>, %w: tensor<40x24x1x1xf32>) -> tensor<1x40x8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x40x8x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40x8x10xf32>) -> tensor<1x40x8x10xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + i, x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x24x8x10xf32>, tensor<40x24x1x1xf32>) outs(%c : tensor<1x40x8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x40x8x10xf32>
  return %y : tensor<1x40x8x10xf32>
}

// Stride 1, 64 channels (2 tiles per tap), dilation 2 along H, two images:
// A tiles read from the input in place, the image as one long row of
// (24 - 4 - 1) * 26 + 24 = 518 pixels per image (a block of 512 and one of
// 6 rows, the 6 on vdpbf16ps), 2 columns per row dropped; 40 filters (a
// panel + 8 columns, a masked vector); no consumer: the fill's value
// stored.
func.func @conv_nhwc_rows(%x: tensor<2x24x26x64xf32>, %w: tensor<3x3x64x40xf32>) -> tensor<2x20x24x40xf32> {
  %zero = arith.constant 0.0 : f32
  %xb = lowp.cast %x : tensor<2x24x26x64xf32> to tensor<2x24x26x64xbf16>
  %wb = lowp.cast %w : tensor<3x3x64x40xf32> to tensor<3x3x64x40xbf16>
  %e = tensor.empty() : tensor<2x20x24x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x24x40xf32>) -> tensor<2x20x24x40xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<2x24x26x64xbf16>, tensor<3x3x64x40xbf16>) outs(%c : tensor<2x20x24x40xf32>) -> tensor<2x20x24x40xf32>
  return %y : tensor<2x20x24x40xf32>
}

func.func @conv_nhwc_rows_reference(%x: tensor<2x24x26x64xf32>, %w: tensor<3x3x64x40xf32>) -> tensor<2x20x24x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x24x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x24x40xf32>) -> tensor<2x20x24x40xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, f, i, j, c) -> (n, h + 2 * i, w + j, c)>,
                                        affine_map<(n, h, w, f, i, j, c) -> (i, j, c, f)>,
                                        affine_map<(n, h, w, f, i, j, c) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<2x24x26x64xf32>, tensor<3x3x64x40xf32>) outs(%c : tensor<2x20x24x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x20x24x40xf32>
  return %y : tensor<2x20x24x40xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %c120 = arith.constant 120 : index
  %c288 = arith.constant 288 : index
  %c320 = arith.constant 320 : index
  %c1280 = arith.constant 1280 : index

  %xh_d = call @input(%c0, %c120, %c32) : (index, index, index) -> tensor<?x?xf32>
  %wh_d = call @input(%c1, %c288, %c48) : (index, index, index) -> tensor<?x?xf32>
  %xh2 = tensor.cast %xh_d : tensor<?x?xf32> to tensor<120x32xf32>
  %wh2 = tensor.cast %wh_d : tensor<?x?xf32> to tensor<288x48xf32>
  %xh = tensor.expand_shape %xh2 [[0, 1, 2], [3]] output_shape [1, 10, 12, 32] : tensor<120x32xf32> into tensor<1x10x12x32xf32>
  %wh = tensor.expand_shape %wh2 [[0, 1, 2], [3]] output_shape [3, 3, 32, 48] : tensor<288x48xf32> into tensor<3x3x32x48xf32>
  %yh = call @conv_nhwc(%xh, %wh) : (tensor<1x10x12x32xf32>, tensor<3x3x32x48xf32>) -> tensor<1x8x10x48xf32>
  %yhr = call @conv_nhwc_reference(%xh, %wh) : (tensor<1x10x12x32xf32>, tensor<3x3x32x48xf32>) -> tensor<1x8x10x48xf32>
  %yh2 = tensor.collapse_shape %yh [[0, 1, 2], [3]] : tensor<1x8x10x48xf32> into tensor<80x48xf32>
  %yhr2 = tensor.collapse_shape %yhr [[0, 1, 2], [3]] : tensor<1x8x10x48xf32> into tensor<80x48xf32>
  %yh_d = tensor.cast %yh2 : tensor<80x48xf32> to tensor<?x?xf32>
  %yhr_d = tensor.cast %yhr2 : tensor<80x48xf32> to tensor<?x?xf32>
  %ok1 = call @equal(%yh_d, %yhr_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK: 1
  vector.print %ok1 : i1

  %xc_d = call @input(%c2, %c320, %c12) : (index, index, index) -> tensor<?x?xf32>
  %wc_d = call @input(%c3, %c1280, %c9) : (index, index, index) -> tensor<?x?xf32>
  %wc_bad_d = call @input(%c0, %c1280, %c9) : (index, index, index) -> tensor<?x?xf32>
  %xc2 = tensor.cast %xc_d : tensor<?x?xf32> to tensor<320x12xf32>
  %wc2 = tensor.cast %wc_d : tensor<?x?xf32> to tensor<1280x9xf32>
  %wcb2 = tensor.cast %wc_bad_d : tensor<?x?xf32> to tensor<1280x9xf32>
  %xc = tensor.expand_shape %xc2 [[0, 1, 2], [3]] output_shape [1, 32, 10, 12] : tensor<320x12xf32> into tensor<1x32x10x12xf32>
  %wc = tensor.expand_shape %wc2 [[0, 1], [2, 3]] output_shape [40, 32, 3, 3] : tensor<1280x9xf32> into tensor<40x32x3x3xf32>
  %wcb = tensor.expand_shape %wcb2 [[0, 1], [2, 3]] output_shape [40, 32, 3, 3] : tensor<1280x9xf32> into tensor<40x32x3x3xf32>
  %stats_d = call @input(%c1, %c2, %c40) : (index, index, index) -> tensor<?x?xf32>
  %stats = tensor.cast %stats_d : tensor<?x?xf32> to tensor<2x40xf32>
  %mean = tensor.extract_slice %stats[0, 0] [1, 40] [1, 1] : tensor<2x40xf32> to tensor<40xf32>
  %var0 = tensor.extract_slice %stats[1, 0] [1, 40] [1, 1] : tensor<2x40xf32> to tensor<40xf32>
  %var = math.absf %var0 : tensor<40xf32>
  %yc = call @conv_nchw(%xc, %wc, %mean, %var) : (tensor<1x32x10x12xf32>, tensor<40x32x3x3xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<1x40x8x10xf32>
  %ycr = call @conv_nchw_reference(%xc, %wc, %mean, %var) : (tensor<1x32x10x12xf32>, tensor<40x32x3x3xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<1x40x8x10xf32>
  %ycb = call @conv_nchw_reference(%xc, %wcb, %mean, %var) : (tensor<1x32x10x12xf32>, tensor<40x32x3x3xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<1x40x8x10xf32>
  %yc2 = tensor.collapse_shape %yc [[0, 1], [2, 3]] : tensor<1x40x8x10xf32> into tensor<40x80xf32>
  %ycr2 = tensor.collapse_shape %ycr [[0, 1], [2, 3]] : tensor<1x40x8x10xf32> into tensor<40x80xf32>
  %ycb2 = tensor.collapse_shape %ycb [[0, 1], [2, 3]] : tensor<1x40x8x10xf32> into tensor<40x80xf32>
  %yc_d = tensor.cast %yc2 : tensor<40x80xf32> to tensor<?x?xf32>
  %ycr_d = tensor.cast %ycr2 : tensor<40x80xf32> to tensor<?x?xf32>
  %ycb_d = tensor.cast %ycb2 : tensor<40x80xf32> to tensor<?x?xf32>
  %ok2 = call @equal(%yc_d, %ycr_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 1
  vector.print %ok2 : i1
  %bad = call @equal(%yc_d, %ycb_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 0
  vector.print %bad : i1

  %c10 = arith.constant 10 : index
  %c192 = arith.constant 192 : index
  %x1_d = call @input(%c3, %c192, %c10) : (index, index, index) -> tensor<?x?xf32>
  %w1_d = call @input(%c2, %c40, %c24) : (index, index, index) -> tensor<?x?xf32>
  %x12 = tensor.cast %x1_d : tensor<?x?xf32> to tensor<192x10xf32>
  %w12 = tensor.cast %w1_d : tensor<?x?xf32> to tensor<40x24xf32>
  %x1 = tensor.expand_shape %x12 [[0, 1, 2], [3]] output_shape [1, 24, 8, 10] : tensor<192x10xf32> into tensor<1x24x8x10xf32>
  %w1 = tensor.expand_shape %w12 [[0], [1, 2, 3]] output_shape [40, 24, 1, 1] : tensor<40x24xf32> into tensor<40x24x1x1xf32>
  %y1 = call @conv_1x1(%x1, %w1) : (tensor<1x24x8x10xf32>, tensor<40x24x1x1xf32>) -> tensor<1x40x8x10xf32>
  %y1r = call @conv_1x1_reference(%x1, %w1) : (tensor<1x24x8x10xf32>, tensor<40x24x1x1xf32>) -> tensor<1x40x8x10xf32>
  %y12 = tensor.collapse_shape %y1 [[0, 1], [2, 3]] : tensor<1x40x8x10xf32> into tensor<40x80xf32>
  %y1r2 = tensor.collapse_shape %y1r [[0, 1], [2, 3]] : tensor<1x40x8x10xf32> into tensor<40x80xf32>
  %y1_d = tensor.cast %y12 : tensor<40x80xf32> to tensor<?x?xf32>
  %y1r_d = tensor.cast %y1r2 : tensor<40x80xf32> to tensor<?x?xf32>
  %ok3 = call @equal(%y1_d, %y1r_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 1
  vector.print %ok3 : i1

  %c64 = arith.constant 64 : index
  %c576 = arith.constant 576 : index
  %c1248 = arith.constant 1248 : index
  %xr_d = call @input(%c1, %c1248, %c64) : (index, index, index) -> tensor<?x?xf32>
  %wr_d = call @input(%c2, %c576, %c40) : (index, index, index) -> tensor<?x?xf32>
  %xr2 = tensor.cast %xr_d : tensor<?x?xf32> to tensor<1248x64xf32>
  %wr2 = tensor.cast %wr_d : tensor<?x?xf32> to tensor<576x40xf32>
  %xr = tensor.expand_shape %xr2 [[0, 1, 2], [3]] output_shape [2, 24, 26, 64] : tensor<1248x64xf32> into tensor<2x24x26x64xf32>
  %wr = tensor.expand_shape %wr2 [[0, 1, 2], [3]] output_shape [3, 3, 64, 40] : tensor<576x40xf32> into tensor<3x3x64x40xf32>
  %yr = call @conv_nhwc_rows(%xr, %wr) : (tensor<2x24x26x64xf32>, tensor<3x3x64x40xf32>) -> tensor<2x20x24x40xf32>
  %yrr = call @conv_nhwc_rows_reference(%xr, %wr) : (tensor<2x24x26x64xf32>, tensor<3x3x64x40xf32>) -> tensor<2x20x24x40xf32>
  %yr2 = tensor.collapse_shape %yr [[0, 1, 2], [3]] : tensor<2x20x24x40xf32> into tensor<960x40xf32>
  %yrr2 = tensor.collapse_shape %yrr [[0, 1, 2], [3]] : tensor<2x20x24x40xf32> into tensor<960x40xf32>
  %yr_d = tensor.cast %yr2 : tensor<960x40xf32> to tensor<?x?xf32>
  %yrr_d = tensor.cast %yrr2 : tensor<960x40xf32> to tensor<?x?xf32>
  %ok4 = call @equal(%yr_d, %yrr_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 1
  vector.print %ok4 : i1
  return
}
