// NCHW convolutions (linalg.conv_2d_nchw_fchw, torch-mlir's layout) through
// lowp-pipeline-x86: one GEMM per image, filter (F x C*KH*KW) times im2col
// (C*KH*KW x OH*OW), or the image itself for a 1x1 stride-1 convolution;
// f32 and bf16 (the bf16 dot kernel on AVX512_BF16), 3x3 stride 1 (the
// im2col copy a vector at a time), 1x1 (49 pixels: a masked last vector),
// 3x3 stride 2 (element by element on narrow rows, two runs with the even
// elements shuffled out on wide ones), a stem on 3 colours in bf16 (K = 27:
// odd, padded to pairs for the dot kernel). Each is compared with a
// reference convolution written as a linalg.generic in f32 on the same (bf16-exact) inputs, left to the plain
// loop path: |x - ref| <= 1e-5 |ref| + 1e-4 (144 terms of magnitude <= 1;
// bf16 products are exact in f32). Each case prints 1; the last one is a
// negative control (a wrong filter layout must fail the check).
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
// The f32 3x3 stride-1 case through im2col (lowp-pipeline-x86 runs it as
// Winograd F(2x2, 3x3) by default: conv-winograd.mlir):
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 winograd=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// No convolution is left to the generic loops (only the references):
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nchw_fchw'
// CHECK: 1
// CHECK: 1
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

func.func @c3x3(%in: tensor<2x16x10x10xf32>, %f: tensor<24x16x3x3xf32>) -> tensor<2x24x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x24x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x16x10x10xf32>, tensor<24x16x3x3xf32>) outs(%o : tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32>
  return %y : tensor<2x24x8x8xf32>
}

func.func @ref_c3x3(%in: tensor<2x16x10x10xf32>, %f: tensor<24x16x3x3xf32>) -> tensor<2x24x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x24x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 1 * y + i, 1 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x16x10x10xf32>, tensor<24x16x3x3xf32>) outs(%o : tensor<2x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x24x8x8xf32>
  return %y : tensor<2x24x8x8xf32>
}

func.func @c3x3_bf16(%in: tensor<1x16x10x10xbf16>, %f: tensor<24x16x3x3xbf16>) -> tensor<1x24x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x10x10xbf16>, tensor<24x16x3x3xbf16>) outs(%o : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  return %y : tensor<1x24x8x8xf32>
}

func.func @ref_c3x3_bf16(%in: tensor<1x16x10x10xf32>, %f: tensor<24x16x3x3xf32>) -> tensor<1x24x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 1 * y + i, 1 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x16x10x10xf32>, tensor<24x16x3x3xf32>) outs(%o : tensor<1x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x24x8x8xf32>
  return %y : tensor<1x24x8x8xf32>
}

func.func @c1x1(%in: tensor<2x16x7x7xf32>, %f: tensor<20x16x1x1xf32>) -> tensor<2x20x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x7x7xf32>) -> tensor<2x20x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>) outs(%o : tensor<2x20x7x7xf32>) -> tensor<2x20x7x7xf32>
  return %y : tensor<2x20x7x7xf32>
}

func.func @ref_c1x1(%in: tensor<2x16x7x7xf32>, %f: tensor<20x16x1x1xf32>) -> tensor<2x20x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x7x7xf32>) -> tensor<2x20x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 1 * y + i, 1 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>) outs(%o : tensor<2x20x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x20x7x7xf32>
  return %y : tensor<2x20x7x7xf32>
}

func.func @c1x1_bf16(%in: tensor<1x16x7x7xbf16>, %f: tensor<20x16x1x1xbf16>) -> tensor<1x20x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x20x7x7xf32>) -> tensor<1x20x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x7x7xbf16>, tensor<20x16x1x1xbf16>) outs(%o : tensor<1x20x7x7xf32>) -> tensor<1x20x7x7xf32>
  return %y : tensor<1x20x7x7xf32>
}

func.func @ref_c1x1_bf16(%in: tensor<1x16x7x7xf32>, %f: tensor<20x16x1x1xf32>) -> tensor<1x20x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x20x7x7xf32>) -> tensor<1x20x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 1 * y + i, 1 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x16x7x7xf32>, tensor<20x16x1x1xf32>) outs(%o : tensor<1x20x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x20x7x7xf32>
  return %y : tensor<1x20x7x7xf32>
}

func.func @c3x3_s2(%in: tensor<1x8x11x11xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x5x5xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x8x11x11xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  return %y : tensor<1x16x5x5xf32>
}

func.func @ref_c3x3_s2(%in: tensor<1x8x11x11xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x5x5xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + i, 2 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x8x11x11xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x16x5x5xf32>
  return %y : tensor<1x16x5x5xf32>
}

func.func @c3x3_s2_bf16(%in: tensor<1x8x11x11xbf16>, %f: tensor<16x8x3x3xbf16>) -> tensor<1x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x5x5xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x8x11x11xbf16>, tensor<16x8x3x3xbf16>) outs(%o : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  return %y : tensor<1x16x5x5xf32>
}

func.func @ref_c3x3_s2_bf16(%in: tensor<1x8x11x11xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x5x5xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + i, 2 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x8x11x11xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x16x5x5xf32>
  return %y : tensor<1x16x5x5xf32>
}

func.func @c3x3_s2_wide(%in: tensor<1x4x7x75xf32>, %f: tensor<16x4x3x3xf32>) -> tensor<1x16x3x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x3x37xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x3x37xf32>) -> tensor<1x16x3x37xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x4x7x75xf32>, tensor<16x4x3x3xf32>) outs(%o : tensor<1x16x3x37xf32>) -> tensor<1x16x3x37xf32>
  return %y : tensor<1x16x3x37xf32>
}

func.func @ref_c3x3_s2_wide(%in: tensor<1x4x7x75xf32>, %f: tensor<16x4x3x3xf32>) -> tensor<1x16x3x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x3x37xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x3x37xf32>) -> tensor<1x16x3x37xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + i, 2 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x4x7x75xf32>, tensor<16x4x3x3xf32>) outs(%o : tensor<1x16x3x37xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x16x3x37xf32>
  return %y : tensor<1x16x3x37xf32>
}

func.func @c3x3_s2_wide_bf16(%in: tensor<1x4x7x75xbf16>, %f: tensor<32x4x3x3xbf16>) -> tensor<1x32x3x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x3x37xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x3x37xf32>) -> tensor<1x32x3x37xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x4x7x75xbf16>, tensor<32x4x3x3xbf16>) outs(%o : tensor<1x32x3x37xf32>) -> tensor<1x32x3x37xf32>
  return %y : tensor<1x32x3x37xf32>
}

func.func @ref_c3x3_s2_wide_bf16(%in: tensor<1x4x7x75xf32>, %f: tensor<32x4x3x3xf32>) -> tensor<1x32x3x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x3x37xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x3x37xf32>) -> tensor<1x32x3x37xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + i, 2 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x4x7x75xf32>, tensor<32x4x3x3xf32>) outs(%o : tensor<1x32x3x37xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x32x3x37xf32>
  return %y : tensor<1x32x3x37xf32>
}

func.func @stem_bf16(%in: tensor<2x3x37x37xbf16>, %f: tensor<32x3x3x3xbf16>) -> tensor<2x32x18x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x18x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x18x18xf32>) -> tensor<2x32x18x18xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<2x3x37x37xbf16>, tensor<32x3x3x3xbf16>) outs(%o : tensor<2x32x18x18xf32>) -> tensor<2x32x18x18xf32>
  return %y : tensor<2x32x18x18xf32>
}

func.func @ref_stem_bf16(%in: tensor<2x3x37x37xf32>, %f: tensor<32x3x3x3xf32>) -> tensor<2x32x18x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x18x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x18x18xf32>) -> tensor<2x32x18x18xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + i, 2 * x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x3x37x37xf32>, tensor<32x3x3x3xf32>) outs(%o : tensor<2x32x18x18xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x32x18x18xf32>
  return %y : tensor<2x32x18x18xf32>
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
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k14 = arith.constant 14 : index
  %k15 = arith.constant 15 : index
  %k16 = arith.constant 16 : index
  %k20 = arith.constant 20 : index
  %k24 = arith.constant 24 : index
  %k32 = arith.constant 32 : index
  %k75 = arith.constant 75 : index
  %k17 = arith.constant 17 : index
  %k18 = arith.constant 18 : index
  %k37 = arith.constant 37 : index

  // 1. c3x3: 2x16x10x10 * 24x16x3x3, stride 1, f32.
  %in0d = call @rand4(%k0, %k2, %k16, %k10, %k10) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f0d = call @rand4(%k1, %k24, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in0 = tensor.cast %in0d : tensor<?x?x?x?xf32> to tensor<2x16x10x10xf32>
  %f0 = tensor.cast %f0d : tensor<?x?x?x?xf32> to tensor<24x16x3x3xf32>
  %y0 = call @c3x3(%in0, %f0) : (tensor<2x16x10x10xf32>, tensor<24x16x3x3xf32>) -> tensor<2x24x8x8xf32>
  %r0 = call @ref_c3x3(%in0, %f0) : (tensor<2x16x10x10xf32>, tensor<24x16x3x3xf32>) -> tensor<2x24x8x8xf32>
  %y0d = tensor.cast %y0 : tensor<2x24x8x8xf32> to tensor<?x?x?x?xf32>
  %r0d = tensor.cast %r0 : tensor<2x24x8x8xf32> to tensor<?x?x?x?xf32>
  %ok0 = call @close(%y0d, %r0d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok0 : i1

  // 2. c3x3_bf16: 1x16x10x10 * 24x16x3x3, stride 1, bf16.
  %in1d = call @rand4(%k2, %k1, %k16, %k10, %k10) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1d = call @rand4(%k3, %k24, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<1x16x10x10xf32>
  %f1 = tensor.cast %f1d : tensor<?x?x?x?xf32> to tensor<24x16x3x3xf32>
  %in1b = lowp.cast %in1 : tensor<1x16x10x10xf32> to tensor<1x16x10x10xbf16>
  %f1b = lowp.cast %f1 : tensor<24x16x3x3xf32> to tensor<24x16x3x3xbf16>
  %y1 = call @c3x3_bf16(%in1b, %f1b) : (tensor<1x16x10x10xbf16>, tensor<24x16x3x3xbf16>) -> tensor<1x24x8x8xf32>
  %r1 = call @ref_c3x3_bf16(%in1, %f1) : (tensor<1x16x10x10xf32>, tensor<24x16x3x3xf32>) -> tensor<1x24x8x8xf32>
  %y1d = tensor.cast %y1 : tensor<1x24x8x8xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<1x24x8x8xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 3. c1x1: 2x16x7x7 * 20x16x1x1, stride 1, f32.
  %in2d = call @rand4(%k4, %k2, %k16, %k7, %k7) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2d = call @rand4(%k5, %k20, %k16, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<2x16x7x7xf32>
  %f2 = tensor.cast %f2d : tensor<?x?x?x?xf32> to tensor<20x16x1x1xf32>
  %y2 = call @c1x1(%in2, %f2) : (tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>) -> tensor<2x20x7x7xf32>
  %r2 = call @ref_c1x1(%in2, %f2) : (tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>) -> tensor<2x20x7x7xf32>
  %y2d = tensor.cast %y2 : tensor<2x20x7x7xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<2x20x7x7xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 4. c1x1_bf16: 1x16x7x7 * 20x16x1x1, stride 1, bf16.
  %in3d = call @rand4(%k6, %k1, %k16, %k7, %k7) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f3d = call @rand4(%k7, %k20, %k16, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in3 = tensor.cast %in3d : tensor<?x?x?x?xf32> to tensor<1x16x7x7xf32>
  %f3 = tensor.cast %f3d : tensor<?x?x?x?xf32> to tensor<20x16x1x1xf32>
  %in3b = lowp.cast %in3 : tensor<1x16x7x7xf32> to tensor<1x16x7x7xbf16>
  %f3b = lowp.cast %f3 : tensor<20x16x1x1xf32> to tensor<20x16x1x1xbf16>
  %y3 = call @c1x1_bf16(%in3b, %f3b) : (tensor<1x16x7x7xbf16>, tensor<20x16x1x1xbf16>) -> tensor<1x20x7x7xf32>
  %r3 = call @ref_c1x1_bf16(%in3, %f3) : (tensor<1x16x7x7xf32>, tensor<20x16x1x1xf32>) -> tensor<1x20x7x7xf32>
  %y3d = tensor.cast %y3 : tensor<1x20x7x7xf32> to tensor<?x?x?x?xf32>
  %r3d = tensor.cast %r3 : tensor<1x20x7x7xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 5. c3x3_s2: 1x8x11x11 * 16x8x3x3, stride 2, f32.
  %in4d = call @rand4(%k8, %k1, %k8, %k11, %k11) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f4d = call @rand4(%k9, %k16, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in4 = tensor.cast %in4d : tensor<?x?x?x?xf32> to tensor<1x8x11x11xf32>
  %f4 = tensor.cast %f4d : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %y4 = call @c3x3_s2(%in4, %f4) : (tensor<1x8x11x11xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32>
  %r4 = call @ref_c3x3_s2(%in4, %f4) : (tensor<1x8x11x11xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32>
  %y4d = tensor.cast %y4 : tensor<1x16x5x5xf32> to tensor<?x?x?x?xf32>
  %r4d = tensor.cast %r4 : tensor<1x16x5x5xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r4d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 6. c3x3_s2_bf16: 1x8x11x11 * 16x8x3x3, stride 2, bf16.
  %in5d = call @rand4(%k10, %k1, %k8, %k11, %k11) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f5d = call @rand4(%k11, %k16, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in5 = tensor.cast %in5d : tensor<?x?x?x?xf32> to tensor<1x8x11x11xf32>
  %f5 = tensor.cast %f5d : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %in5b = lowp.cast %in5 : tensor<1x8x11x11xf32> to tensor<1x8x11x11xbf16>
  %f5b = lowp.cast %f5 : tensor<16x8x3x3xf32> to tensor<16x8x3x3xbf16>
  %y5 = call @c3x3_s2_bf16(%in5b, %f5b) : (tensor<1x8x11x11xbf16>, tensor<16x8x3x3xbf16>) -> tensor<1x16x5x5xf32>
  %r5 = call @ref_c3x3_s2_bf16(%in5, %f5) : (tensor<1x8x11x11xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32>
  %y5d = tensor.cast %y5 : tensor<1x16x5x5xf32> to tensor<?x?x?x?xf32>
  %r5d = tensor.cast %r5 : tensor<1x16x5x5xf32> to tensor<?x?x?x?xf32>
  %ok5 = call @close(%y5d, %r5d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok5 : i1

  // 7. c3x3_s2_wide: 1x4x7x75 * 16x4x3x3, stride 2, f32.
  %in6d = call @rand4(%k12, %k1, %k4, %k7, %k75) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f6d = call @rand4(%k13, %k16, %k4, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in6 = tensor.cast %in6d : tensor<?x?x?x?xf32> to tensor<1x4x7x75xf32>
  %f6 = tensor.cast %f6d : tensor<?x?x?x?xf32> to tensor<16x4x3x3xf32>
  %y6 = call @c3x3_s2_wide(%in6, %f6) : (tensor<1x4x7x75xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x3x37xf32>
  %r6 = call @ref_c3x3_s2_wide(%in6, %f6) : (tensor<1x4x7x75xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x3x37xf32>
  %y6d = tensor.cast %y6 : tensor<1x16x3x37xf32> to tensor<?x?x?x?xf32>
  %r6d = tensor.cast %r6 : tensor<1x16x3x37xf32> to tensor<?x?x?x?xf32>
  %ok6 = call @close(%y6d, %r6d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok6 : i1

  // 8. c3x3_s2_wide_bf16: 1x4x7x75 * 32x4x3x3, stride 2, bf16.
  %in7d = call @rand4(%k14, %k1, %k4, %k7, %k75) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f7d = call @rand4(%k15, %k32, %k4, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in7 = tensor.cast %in7d : tensor<?x?x?x?xf32> to tensor<1x4x7x75xf32>
  %f7 = tensor.cast %f7d : tensor<?x?x?x?xf32> to tensor<32x4x3x3xf32>
  %in7b = lowp.cast %in7 : tensor<1x4x7x75xf32> to tensor<1x4x7x75xbf16>
  %f7b = lowp.cast %f7 : tensor<32x4x3x3xf32> to tensor<32x4x3x3xbf16>
  %y7 = call @c3x3_s2_wide_bf16(%in7b, %f7b) : (tensor<1x4x7x75xbf16>, tensor<32x4x3x3xbf16>) -> tensor<1x32x3x37xf32>
  %r7 = call @ref_c3x3_s2_wide_bf16(%in7, %f7) : (tensor<1x4x7x75xf32>, tensor<32x4x3x3xf32>) -> tensor<1x32x3x37xf32>
  %y7d = tensor.cast %y7 : tensor<1x32x3x37xf32> to tensor<?x?x?x?xf32>
  %r7d = tensor.cast %r7 : tensor<1x32x3x37xf32> to tensor<?x?x?x?xf32>
  %ok7 = call @close(%y7d, %r7d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok7 : i1

  // 9. stem_bf16: 2x3x37x37 * 32x3x3x3, stride 2, bf16: K = 27 is odd, so
  // the dot kernel's pairs take a zero k row in col and a zero column in a
  // copy of the filter (18 columns: a vector run and an overlapping tail).
  %in8d = call @rand4(%k17, %k2, %k3, %k37, %k37) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f8d = call @rand4(%k18, %k32, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in8 = tensor.cast %in8d : tensor<?x?x?x?xf32> to tensor<2x3x37x37xf32>
  %f8 = tensor.cast %f8d : tensor<?x?x?x?xf32> to tensor<32x3x3x3xf32>
  %in8b = lowp.cast %in8 : tensor<2x3x37x37xf32> to tensor<2x3x37x37xbf16>
  %f8b = lowp.cast %f8 : tensor<32x3x3x3xf32> to tensor<32x3x3x3xbf16>
  %y8 = call @stem_bf16(%in8b, %f8b) : (tensor<2x3x37x37xbf16>, tensor<32x3x3x3xbf16>) -> tensor<2x32x18x18xf32>
  %r8 = call @ref_stem_bf16(%in8, %f8) : (tensor<2x3x37x37xf32>, tensor<32x3x3x3xf32>) -> tensor<2x32x18x18xf32>
  %y8d = tensor.cast %y8 : tensor<2x32x18x18xf32> to tensor<?x?x?x?xf32>
  %r8d = tensor.cast %r8 : tensor<2x32x18x18xf32> to tensor<?x?x?x?xf32>
  %ok8 = call @close(%y8d, %r8d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok8 : i1

  // 10. Negative control: case 1 against the reference with
  // the filter taps transposed (KH and KW swapped).
  %ft = linalg.transpose ins(%f0 : tensor<24x16x3x3xf32>) outs(%f0 : tensor<24x16x3x3xf32>) permutation = [0, 1, 3, 2]
  %rbad = call @ref_c3x3(%in0, %ft) : (tensor<2x16x10x10xf32>, tensor<24x16x3x3xf32>) -> tensor<2x24x8x8xf32>
  %rbadd = tensor.cast %rbad : tensor<2x24x8x8xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%y0d, %rbadd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
