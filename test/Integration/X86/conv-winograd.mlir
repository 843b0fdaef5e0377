// Winograd F(2x2, 3x3) for f32 3x3 stride-1 NCHW convolutions
// (lowp-x86-lower-contractions, WinogradConv.cpp), executed against an f64
// reference convolution (a linalg.generic left to the plain loop path, its
// products and sums in f64, rounded to f32 once): |x - ref| <= 1e-5 |ref| +
// 1e-4 (values in [-0.875, 0.875], up to 288 terms). Cases:
//  1. big: 1x16x40x40 * 32x16x3x3 -> 38x38 (19 tiles per row: full runs of
//     lanes tiles and a masked last run; 19 blocks, shared out by threads=,
//     conv-threads.test);
//  2. bn_relu: batch 2, 32 -> 16 channels at 14x14 (7 tiles per row: one
//     masked run; blocks of 4 or 2 tile rows and a shorter last block), the
//     fill 0.25 and a batch norm + ReLU consumer fused into the output
//     transform;
//  3. accumulate: batch 2 at 10x10, the output initialised by a tensor,
//     not a fill (the convolution adds to it);
//  4. residual: 24 channels at 20x20, a residual add + ReLU consumer;
//  5. dyn: a dynamic batch of 3;
//  6. bf16: bf16 operands (exact values), widened as read, where the direct
//     GEMM would run on f32 FMAs too (avx2, sapphirerapids without AMX; on
//     znver4 it stays the vdpbf16ps im2col kernel);
//  7. odd sizes: 9x9 on 2 images (5 x 5 tiles each, the fewest per image
//     the kernel takes), 13x36 and 10x31 (the last
//     tile row or column has one output row or column, its input row or
//     column 3 past the input: read as zeros; at 31, 16 tiles per row, the
//     last run is a whole vector of them, made static to stop at the row's
//     end).
// The last line is a negative control: case 1 against the reference with
// another filter must fail the check (printed as 1 = "not close").
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// The same cases through im2col + GEMM (winograd=false):
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 winograd=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// The Winograd kernel is there (its filter transform gathers a tap of
// `lanes` channels, 9 elements apart) and no convolution is left to the
// generic loops (which convolution takes it: the lit tests of
// lowp-x86-lower-contractions-winograd.mlir).
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>&1 | FileCheck %s --check-prefix=IR
// IR-NOT: generic loop path for 'linalg.conv_2d_nchw_fchw'
// IR: llvm.intr.masked.gather
// CHECK-COUNT-10: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>
#chan = affine_map<(a, b, c, d) -> (b)>

// Deterministic values in [-0.875, 0.875] (multiples of 1/16).
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

// The reference: sum over (c, i, j) of in * f in f64, rounded once.
func.func @ref(%in: tensor<?x?x?x?xf32>, %f: tensor<?x?x?x?xf32>, %init: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %init, %c0 : tensor<?x?x?x?xf32>
  %fs = tensor.dim %init, %c1 : tensor<?x?x?x?xf32>
  %oh = tensor.dim %init, %c2 : tensor<?x?x?x?xf32>
  %ow = tensor.dim %init, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%n, %fs, %oh, %ow) : tensor<?x?x?x?xf64>
  %wide = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%init : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<?x?x?x?xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + i, x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%wide : tensor<?x?x?x?xf64>) {
  ^bb0(%a: f32, %b: f32, %acc: f64):
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %p = arith.mulf %a64, %b64 : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  } -> tensor<?x?x?x?xf64>
  %e32 = tensor.empty(%n, %fs, %oh, %ow) : tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<?x?x?x?xf64>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%a: f64, %o: f32):
    %t = arith.truncf %a : f64 to f32
    linalg.yield %t : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// The consumers, applied to the reference outside any kernel.
func.func @bn_relu_ref(%x: tensor<?x?x?x?xf32>, %scale: tensor<?xf32>, %bias: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %scale, %bias : tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%x : tensor<?x?x?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    %t = arith.addf %m, %b : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %t, %z : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @add_relu_ref(%x: tensor<?x?x?x?xf32>, %res: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %res : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%x : tensor<?x?x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %t, %z : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @big(%in: tensor<1x16x40x40xf32>, %f: tensor<32x16x3x3xf32>) -> tensor<1x32x38x38xf32> {
  %e = tensor.empty() : tensor<1x32x38x38xf32>
  %fv = arith.constant 0.0 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x32x38x38xf32>) -> tensor<1x32x38x38xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x40x40xf32>, tensor<32x16x3x3xf32>) outs(%o : tensor<1x32x38x38xf32>) -> tensor<1x32x38x38xf32>
  return %y : tensor<1x32x38x38xf32>
}

func.func @bn_relu(%in: tensor<2x32x16x16xf32>, %f: tensor<16x32x3x3xf32>, %scale: tensor<16xf32>, %bias: tensor<16xf32>) -> tensor<2x16x14x14xf32> {
  %e = tensor.empty() : tensor<2x16x14x14xf32>
  %fv = arith.constant 0.25 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x16x14x14xf32>) -> tensor<2x16x14x14xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x32x16x16xf32>, tensor<16x32x3x3xf32>) outs(%o : tensor<2x16x14x14xf32>) -> tensor<2x16x14x14xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %scale, %bias : tensor<2x16x14x14xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<2x16x14x14xf32>) {
  ^bb0(%a: f32, %sc: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %sc : f32
    %t = arith.addf %m, %b : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %t, %z : f32
    linalg.yield %v : f32
  } -> tensor<2x16x14x14xf32>
  return %r : tensor<2x16x14x14xf32>
}

func.func @accumulate(%in: tensor<2x16x12x12xf32>, %f: tensor<16x16x3x3xf32>, %other: tensor<2x16x10x10xf32>) -> tensor<2x16x10x10xf32> {
  %e = tensor.empty() : tensor<2x16x10x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x16x12x12xf32>, tensor<16x16x3x3xf32>) outs(%other : tensor<2x16x10x10xf32>) -> tensor<2x16x10x10xf32>
  return %y : tensor<2x16x10x10xf32>
}

func.func @residual(%in: tensor<1x24x22x22xf32>, %f: tensor<24x24x3x3xf32>, %other: tensor<1x24x20x20xf32>) -> tensor<1x24x20x20xf32> {
  %e = tensor.empty() : tensor<1x24x20x20xf32>
  %fv = arith.constant 0.0 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x24x20x20xf32>) -> tensor<1x24x20x20xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x24x22x22xf32>, tensor<24x24x3x3xf32>) outs(%o : tensor<1x24x20x20xf32>) -> tensor<1x24x20x20xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %other : tensor<1x24x20x20xf32>, tensor<1x24x20x20xf32>) outs(%e : tensor<1x24x20x20xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.addf %a, %b : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %t, %z : f32
    linalg.yield %v : f32
  } -> tensor<1x24x20x20xf32>
  return %r : tensor<1x24x20x20xf32>
}

func.func @dyn(%in: tensor<?x16x12x12xf32>, %f: tensor<16x16x3x3xf32>) -> tensor<?x16x10x10xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x16x12x12xf32>
  %e = tensor.empty(%n) : tensor<?x16x10x10xf32>
  %fv = arith.constant 0.0 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<?x16x10x10xf32>) -> tensor<?x16x10x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x16x12x12xf32>, tensor<16x16x3x3xf32>) outs(%o : tensor<?x16x10x10xf32>) -> tensor<?x16x10x10xf32>
  return %y : tensor<?x16x10x10xf32>
}

func.func @bf16(%in: tensor<1x32x24x24xbf16>, %f: tensor<16x32x3x3xbf16>) -> tensor<1x16x22x22xf32> {
  %e = tensor.empty() : tensor<1x16x22x22xf32>
  %fv = arith.constant 0.0 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x16x22x22xf32>) -> tensor<1x16x22x22xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x32x24x24xbf16>, tensor<16x32x3x3xbf16>) outs(%o : tensor<1x16x22x22xf32>) -> tensor<1x16x22x22xf32>
  return %y : tensor<1x16x22x22xf32>
}

func.func @odd(%in: tensor<2x32x11x11xf32>, %f: tensor<32x32x3x3xf32>, %scale: tensor<32xf32>, %bias: tensor<32xf32>) -> tensor<2x32x9x9xf32> {
  %e = tensor.empty() : tensor<2x32x9x9xf32>
  %fv = arith.constant 0.25 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x32x9x9xf32>) -> tensor<2x32x9x9xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x32x11x11xf32>, tensor<32x32x3x3xf32>) outs(%o : tensor<2x32x9x9xf32>) -> tensor<2x32x9x9xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %scale, %bias : tensor<2x32x9x9xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<2x32x9x9xf32>) {
  ^bb0(%a: f32, %sc: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %sc : f32
    %t = arith.addf %m, %b : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %t, %z : f32
    linalg.yield %v : f32
  } -> tensor<2x32x9x9xf32>
  return %r : tensor<2x32x9x9xf32>
}

func.func @odd_h(%in: tensor<2x16x15x38xf32>, %f: tensor<24x16x3x3xf32>, %other: tensor<2x24x13x36xf32>) -> tensor<2x24x13x36xf32> {
  %e = tensor.empty() : tensor<2x24x13x36xf32>
  %fv = arith.constant 0.0 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x24x13x36xf32>) -> tensor<2x24x13x36xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x16x15x38xf32>, tensor<24x16x3x3xf32>) outs(%o : tensor<2x24x13x36xf32>) -> tensor<2x24x13x36xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %other : tensor<2x24x13x36xf32>, tensor<2x24x13x36xf32>) outs(%e : tensor<2x24x13x36xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.addf %a, %b : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %t, %z : f32
    linalg.yield %v : f32
  } -> tensor<2x24x13x36xf32>
  return %r : tensor<2x24x13x36xf32>
}

func.func @odd_w(%in: tensor<1x16x12x33xf32>, %f: tensor<16x16x3x3xf32>) -> tensor<1x16x10x31xf32> {
  %e = tensor.empty() : tensor<1x16x10x31xf32>
  %fv = arith.constant 0.0 : f32
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x16x10x31xf32>) -> tensor<1x16x10x31xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x12x33xf32>, tensor<16x16x3x3xf32>) outs(%o : tensor<1x16x10x31xf32>) -> tensor<1x16x10x31xf32>
  return %y : tensor<1x16x10x31xf32>
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
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k14 = arith.constant 14 : index
  %k15 = arith.constant 15 : index
  %k16 = arith.constant 16 : index
  %k17 = arith.constant 17 : index
  %k18 = arith.constant 18 : index
  %k19 = arith.constant 19 : index
  %k20 = arith.constant 20 : index
  %k21 = arith.constant 21 : index
  %k22 = arith.constant 22 : index
  %k23 = arith.constant 23 : index
  %k24 = arith.constant 24 : index
  %k25 = arith.constant 25 : index
  %k26 = arith.constant 26 : index
  %k27 = arith.constant 27 : index
  %k28 = arith.constant 28 : index
  %k29 = arith.constant 29 : index
  %k31 = arith.constant 31 : index
  %k32 = arith.constant 32 : index
  %k33 = arith.constant 33 : index
  %k36 = arith.constant 36 : index
  %k38 = arith.constant 38 : index
  %k40 = arith.constant 40 : index
  // big
  %big_in = call @rand4(%k0, %k1, %k16, %k40, %k40) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %big_f = call @rand4(%k1, %k32, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %big_ins = tensor.cast %big_in : tensor<?x?x?x?xf32> to tensor<1x16x40x40xf32>
  %big_fs = tensor.cast %big_f : tensor<?x?x?x?xf32> to tensor<32x16x3x3xf32>
  %big_zero = call @rand4(%k2, %k1, %k32, %k38, %k38) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %big_y = call @big(%big_ins, %big_fs) : (tensor<1x16x40x40xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x38x38xf32>
  %big_yd = tensor.cast %big_y : tensor<1x32x38x38xf32> to tensor<?x?x?x?xf32>
  %big_fv = arith.constant 0.0 : f32
  %big_init = linalg.fill ins(%big_fv : f32) outs(%big_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %big_r0 = call @ref(%big_in, %big_f, %big_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %big_ok = call @close(%big_yd, %big_r0) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %big_ok : i1

  // bn_relu
  %bn_relu_in = call @rand4(%k3, %k2, %k32, %k16, %k16) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bn_relu_f = call @rand4(%k4, %k16, %k32, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bn_relu_ins = tensor.cast %bn_relu_in : tensor<?x?x?x?xf32> to tensor<2x32x16x16xf32>
  %bn_relu_fs = tensor.cast %bn_relu_f : tensor<?x?x?x?xf32> to tensor<16x32x3x3xf32>
  %bn_relu_zero = call @rand4(%k5, %k2, %k16, %k14, %k14) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bn_relu_p = call @rand4(%k6, %k2, %k16, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bn_relu_p2 = tensor.collapse_shape %bn_relu_p [[0], [1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %bn_relu_scale = tensor.extract_slice %bn_relu_p2[0, 0] [1, 16] [1, 1] : tensor<?x?xf32> to tensor<16xf32>
  %bn_relu_bias = tensor.extract_slice %bn_relu_p2[1, 0] [1, 16] [1, 1] : tensor<?x?xf32> to tensor<16xf32>
  %bn_relu_y = call @bn_relu(%bn_relu_ins, %bn_relu_fs, %bn_relu_scale, %bn_relu_bias) : (tensor<2x32x16x16xf32>, tensor<16x32x3x3xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x16x14x14xf32>
  %bn_relu_yd = tensor.cast %bn_relu_y : tensor<2x16x14x14xf32> to tensor<?x?x?x?xf32>
  %bn_relu_fv = arith.constant 0.25 : f32
  %bn_relu_init = linalg.fill ins(%bn_relu_fv : f32) outs(%bn_relu_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %bn_relu_r0 = call @ref(%bn_relu_in, %bn_relu_f, %bn_relu_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %bn_relu_scaled = tensor.cast %bn_relu_scale : tensor<16xf32> to tensor<?xf32>
  %bn_relu_biasd = tensor.cast %bn_relu_bias : tensor<16xf32> to tensor<?xf32>
  %bn_relu_r = call @bn_relu_ref(%bn_relu_r0, %bn_relu_scaled, %bn_relu_biasd) : (tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  %bn_relu_ok = call @close(%bn_relu_yd, %bn_relu_r) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %bn_relu_ok : i1

  // accumulate
  %accumulate_in = call @rand4(%k7, %k2, %k16, %k12, %k12) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accumulate_f = call @rand4(%k8, %k16, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accumulate_ins = tensor.cast %accumulate_in : tensor<?x?x?x?xf32> to tensor<2x16x12x12xf32>
  %accumulate_fs = tensor.cast %accumulate_f : tensor<?x?x?x?xf32> to tensor<16x16x3x3xf32>
  %accumulate_zero = call @rand4(%k9, %k2, %k16, %k10, %k10) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accumulate_other = tensor.cast %accumulate_zero : tensor<?x?x?x?xf32> to tensor<2x16x10x10xf32>
  %accumulate_y = call @accumulate(%accumulate_ins, %accumulate_fs, %accumulate_other) : (tensor<2x16x12x12xf32>, tensor<16x16x3x3xf32>, tensor<2x16x10x10xf32>) -> tensor<2x16x10x10xf32>
  %accumulate_yd = tensor.cast %accumulate_y : tensor<2x16x10x10xf32> to tensor<?x?x?x?xf32>
  %accumulate_r0 = call @ref(%accumulate_in, %accumulate_f, %accumulate_zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %accumulate_ok = call @close(%accumulate_yd, %accumulate_r0) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %accumulate_ok : i1

  // residual
  %residual_in = call @rand4(%k10, %k1, %k24, %k22, %k22) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %residual_f = call @rand4(%k11, %k24, %k24, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %residual_ins = tensor.cast %residual_in : tensor<?x?x?x?xf32> to tensor<1x24x22x22xf32>
  %residual_fs = tensor.cast %residual_f : tensor<?x?x?x?xf32> to tensor<24x24x3x3xf32>
  %residual_zero = call @rand4(%k12, %k1, %k24, %k20, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %residual_other = tensor.cast %residual_zero : tensor<?x?x?x?xf32> to tensor<1x24x20x20xf32>
  %residual_y = call @residual(%residual_ins, %residual_fs, %residual_other) : (tensor<1x24x22x22xf32>, tensor<24x24x3x3xf32>, tensor<1x24x20x20xf32>) -> tensor<1x24x20x20xf32>
  %residual_yd = tensor.cast %residual_y : tensor<1x24x20x20xf32> to tensor<?x?x?x?xf32>
  %residual_fv = arith.constant 0.0 : f32
  %residual_init = linalg.fill ins(%residual_fv : f32) outs(%residual_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %residual_r0 = call @ref(%residual_in, %residual_f, %residual_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %residual_r = call @add_relu_ref(%residual_r0, %residual_zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %residual_ok = call @close(%residual_yd, %residual_r) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %residual_ok : i1

  // dyn
  %dyn_in = call @rand4(%k13, %k3, %k16, %k12, %k12) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %dyn_f = call @rand4(%k14, %k16, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %dyn_ins = tensor.cast %dyn_in : tensor<?x?x?x?xf32> to tensor<?x16x12x12xf32>
  %dyn_fs = tensor.cast %dyn_f : tensor<?x?x?x?xf32> to tensor<16x16x3x3xf32>
  %dyn_zero = call @rand4(%k15, %k3, %k16, %k10, %k10) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %dyn_y = call @dyn(%dyn_ins, %dyn_fs) : (tensor<?x16x12x12xf32>, tensor<16x16x3x3xf32>) -> tensor<?x16x10x10xf32>
  %dyn_yd = tensor.cast %dyn_y : tensor<?x16x10x10xf32> to tensor<?x?x?x?xf32>
  %dyn_fv = arith.constant 0.0 : f32
  %dyn_init = linalg.fill ins(%dyn_fv : f32) outs(%dyn_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %dyn_r0 = call @ref(%dyn_in, %dyn_f, %dyn_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %dyn_ok = call @close(%dyn_yd, %dyn_r0) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %dyn_ok : i1

  // bf16
  %bf16_in = call @rand4(%k16, %k1, %k32, %k24, %k24) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bf16_f = call @rand4(%k17, %k16, %k32, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bf16_ins = tensor.cast %bf16_in : tensor<?x?x?x?xf32> to tensor<1x32x24x24xf32>
  %bf16_fs = tensor.cast %bf16_f : tensor<?x?x?x?xf32> to tensor<16x32x3x3xf32>
  %bf16_inb = lowp.cast %bf16_ins : tensor<1x32x24x24xf32> to tensor<1x32x24x24xbf16>
  %bf16_fb = lowp.cast %bf16_fs : tensor<16x32x3x3xf32> to tensor<16x32x3x3xbf16>
  %bf16_zero = call @rand4(%k18, %k1, %k16, %k22, %k22) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bf16_y = call @bf16(%bf16_inb, %bf16_fb) : (tensor<1x32x24x24xbf16>, tensor<16x32x3x3xbf16>) -> tensor<1x16x22x22xf32>
  %bf16_yd = tensor.cast %bf16_y : tensor<1x16x22x22xf32> to tensor<?x?x?x?xf32>
  %bf16_fv = arith.constant 0.0 : f32
  %bf16_init = linalg.fill ins(%bf16_fv : f32) outs(%bf16_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %bf16_r0 = call @ref(%bf16_in, %bf16_f, %bf16_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %bf16_ok = call @close(%bf16_yd, %bf16_r0) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %bf16_ok : i1

  // odd
  %odd_in = call @rand4(%k19, %k2, %k32, %k11, %k11) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_f = call @rand4(%k20, %k32, %k32, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_ins = tensor.cast %odd_in : tensor<?x?x?x?xf32> to tensor<2x32x11x11xf32>
  %odd_fs = tensor.cast %odd_f : tensor<?x?x?x?xf32> to tensor<32x32x3x3xf32>
  %odd_zero = call @rand4(%k21, %k2, %k32, %k9, %k9) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_p = call @rand4(%k22, %k2, %k32, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_p2 = tensor.collapse_shape %odd_p [[0], [1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %odd_scale = tensor.extract_slice %odd_p2[0, 0] [1, 32] [1, 1] : tensor<?x?xf32> to tensor<32xf32>
  %odd_bias = tensor.extract_slice %odd_p2[1, 0] [1, 32] [1, 1] : tensor<?x?xf32> to tensor<32xf32>
  %odd_y = call @odd(%odd_ins, %odd_fs, %odd_scale, %odd_bias) : (tensor<2x32x11x11xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x32x9x9xf32>
  %odd_yd = tensor.cast %odd_y : tensor<2x32x9x9xf32> to tensor<?x?x?x?xf32>
  %odd_fv = arith.constant 0.25 : f32
  %odd_init = linalg.fill ins(%odd_fv : f32) outs(%odd_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_r0 = call @ref(%odd_in, %odd_f, %odd_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_scaled = tensor.cast %odd_scale : tensor<32xf32> to tensor<?xf32>
  %odd_biasd = tensor.cast %odd_bias : tensor<32xf32> to tensor<?xf32>
  %odd_r = call @bn_relu_ref(%odd_r0, %odd_scaled, %odd_biasd) : (tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  %odd_ok = call @close(%odd_yd, %odd_r) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %odd_ok : i1

  // odd_h
  %odd_h_in = call @rand4(%k23, %k2, %k16, %k15, %k38) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_h_f = call @rand4(%k24, %k24, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_h_ins = tensor.cast %odd_h_in : tensor<?x?x?x?xf32> to tensor<2x16x15x38xf32>
  %odd_h_fs = tensor.cast %odd_h_f : tensor<?x?x?x?xf32> to tensor<24x16x3x3xf32>
  %odd_h_zero = call @rand4(%k25, %k2, %k24, %k13, %k36) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_h_other = tensor.cast %odd_h_zero : tensor<?x?x?x?xf32> to tensor<2x24x13x36xf32>
  %odd_h_y = call @odd_h(%odd_h_ins, %odd_h_fs, %odd_h_other) : (tensor<2x16x15x38xf32>, tensor<24x16x3x3xf32>, tensor<2x24x13x36xf32>) -> tensor<2x24x13x36xf32>
  %odd_h_yd = tensor.cast %odd_h_y : tensor<2x24x13x36xf32> to tensor<?x?x?x?xf32>
  %odd_h_fv = arith.constant 0.0 : f32
  %odd_h_init = linalg.fill ins(%odd_h_fv : f32) outs(%odd_h_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_h_r0 = call @ref(%odd_h_in, %odd_h_f, %odd_h_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_h_r = call @add_relu_ref(%odd_h_r0, %odd_h_zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_h_ok = call @close(%odd_h_yd, %odd_h_r) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %odd_h_ok : i1

  // odd_w
  %odd_w_in = call @rand4(%k26, %k1, %k16, %k12, %k33) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_w_f = call @rand4(%k27, %k16, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_w_ins = tensor.cast %odd_w_in : tensor<?x?x?x?xf32> to tensor<1x16x12x33xf32>
  %odd_w_fs = tensor.cast %odd_w_f : tensor<?x?x?x?xf32> to tensor<16x16x3x3xf32>
  %odd_w_zero = call @rand4(%k28, %k1, %k16, %k10, %k31) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %odd_w_y = call @odd_w(%odd_w_ins, %odd_w_fs) : (tensor<1x16x12x33xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x10x31xf32>
  %odd_w_yd = tensor.cast %odd_w_y : tensor<1x16x10x31xf32> to tensor<?x?x?x?xf32>
  %odd_w_fv = arith.constant 0.0 : f32
  %odd_w_init = linalg.fill ins(%odd_w_fv : f32) outs(%odd_w_zero : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_w_r0 = call @ref(%odd_w_in, %odd_w_f, %odd_w_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %odd_w_ok = call @close(%odd_w_yd, %odd_w_r0) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %odd_w_ok : i1

  // Negative control: big against the reference of another filter.
  %neg_f = call @rand4(%k29, %k32, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %neg_r = call @ref(%big_in, %neg_f, %big_init) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %neg_ok = call @close(%big_yd, %neg_r) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %neg = arith.xori %neg_ok, %true : i1
  vector.print %neg : i1
  return
}
