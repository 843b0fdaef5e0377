// A strided bf16 convolution (NHWC x HWCF -> f32) through lowp-pipeline-x86:
// im2col + the matmul kernel (25 output pixels: a tail block), executed and
// compared with a reference convolution written as a linalg.generic (left to
// the plain loop path) on the same bf16-rounded inputs in f32. Products of
// bf16 values are exact in f32, so only the summation order differs:
// |x - ref| <= 1e-5 |ref| + 1e-4 (144 terms of magnitude <= 1).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// Sapphire Rapids without AMX: the same bf16 through the f32 FMA kernels
// on widened operands (its vdpbf16ps is half their rate).
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// CHECK: 1

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>
#in = affine_map<(n, y, x, i, j, c, f) -> (n, 2 * y + i, 2 * x + j, c)>
#fil = affine_map<(n, y, x, i, j, c, f) -> (i, j, c, f)>
#out = affine_map<(n, y, x, i, j, c, f) -> (n, y, x, f)>

// Deterministic values in [-1, 1], rounded to bf16.
func.func @fill(%seed: index, %e: tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xbf16>) {
  ^bb0(%o: bf16):
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
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %fourteen : f32
    %vb = lowp.cast %v : f32 to bf16
    linalg.yield %vb : bf16
  } -> tensor<?x?x?x?xbf16>
  return %r : tensor<?x?x?x?xbf16>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<1x11x11x16xbf16>
  %ef = tensor.empty() : tensor<3x3x16x32xbf16>
  %eid = tensor.cast %ei : tensor<1x11x11x16xbf16> to tensor<?x?x?x?xbf16>
  %efd = tensor.cast %ef : tensor<3x3x16x32xbf16> to tensor<?x?x?x?xbf16>
  %id = call @fill(%c0, %eid) : (index, tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16>
  %fd = call @fill(%c1, %efd) : (index, tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16>
  %in = tensor.cast %id : tensor<?x?x?x?xbf16> to tensor<1x11x11x16xbf16>
  %f = tensor.cast %fd : tensor<?x?x?x?xbf16> to tensor<3x3x16x32xbf16>
  %eo = tensor.empty() : tensor<1x5x5x32xf32>
  %o = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x5x5x32xf32>) -> tensor<1x5x5x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x11x11x16xbf16>, tensor<3x3x16x32xbf16>) outs(%o : tensor<1x5x5x32xf32>) -> tensor<1x5x5x32xf32>
  %in32 = lowp.cast %in : tensor<1x11x11x16xbf16> to tensor<1x11x11x16xf32>
  %f32 = lowp.cast %f : tensor<3x3x16x32xbf16> to tensor<3x3x16x32xf32>
  %ref = linalg.generic {indexing_maps = [#in, #fil, #out],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]}
      ins(%in32, %f32 : tensor<1x11x11x16xf32>, tensor<3x3x16x32xf32>) outs(%o : tensor<1x5x5x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x5x5x32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %conv2 = tensor.collapse_shape %conv [[0, 1, 2], [3]] : tensor<1x5x5x32xf32> into tensor<25x32xf32>
  %ref2 = tensor.collapse_shape %ref [[0, 1, 2], [3]] : tensor<1x5x5x32xf32> into tensor<25x32xf32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #all2],
                           iterator_types = ["reduction", "reduction"]}
      ins(%conv2, %ref2 : tensor<25x32xf32>, tensor<25x32xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %m: f32):
    %d = arith.subf %v, %r : f32
    %ad = math.absf %d : f32
    %ar = math.absf %r : f32
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
  vector.print %ok : i1
  return
}
