// NCHW convolutions through lowp-pipeline-x86 on shapes conv-nchw.mlir
// does not reach: rows wider than a vector at stride 1 (the im2col copy's
// runs and their overlapping tails), more than one k block, dilation, and a
// fused epilogue with a full-size operand:
//  1. deep: 2 images, C = 64, 3x3 (K = 576), 20 filters (not a multiple of
//     the kernel's rows), 7x21 -> 5x19 (30 tiles per image: the Winograd
//     kernel; case 7 runs the im2col kernel's k blocks);
//  2. dilated: 3x3 at dilation 2, 9x24 -> 5x20;
//  3. pointwise: 1x1 on 7x20 (140 pixels: a partial last panel);
//  4. narrow_in: bf16 input and filter (widened in the col copy without
//     vdpbf16ps; VNNI pairs with it);
//  5. dyn_batch: a dynamic batch of 2;
//  6. fused: bias per channel + residual + ReLU in the kernel's epilogue;
//  7. kblocks: C = 131 at 7x7 (K = 1179: three k blocks of the f32 kernel,
//     col rebuilt per k block, C accumulated between them, the fill in the
//     first and bias + residual + ReLU in the last), in f32 and in bf16
//     (an odd K: on vdpbf16ps two k blocks of pairs, the zero-padded last
//     pair in the second);
//  8. a negative control (a wrong filter layout must fail the check).
// Each is compared with a reference convolution written as a linalg.generic
// (left to the loop path) in f32 on bf16-exact inputs:
// |x - ref| <= 1e-5 |ref| + 1e-4.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: %if x86-sapphirerapids %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// The kernel takes every convolution:
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nchw_fchw'
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
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

func.func @deep(%in: tensor<2x64x7x21xf32>, %f: tensor<20x64x3x3xf32>) -> tensor<2x20x5x19xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x5x19xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x5x19xf32>) -> tensor<2x20x5x19xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<2x64x7x21xf32>, tensor<20x64x3x3xf32>) outs(%o : tensor<2x20x5x19xf32>) -> tensor<2x20x5x19xf32>
  return %y : tensor<2x20x5x19xf32>
}

func.func @ref_deep(%in: tensor<2x64x7x21xf32>, %f: tensor<20x64x3x3xf32>) -> tensor<2x20x5x19xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x5x19xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x5x19xf32>) -> tensor<2x20x5x19xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 1 * i, x + 1 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x64x7x21xf32>, tensor<20x64x3x3xf32>) outs(%o : tensor<2x20x5x19xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x20x5x19xf32>
  return %y : tensor<2x20x5x19xf32>
}

func.func @dilated(%in: tensor<1x8x9x24xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<1x16x5x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x5x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x20xf32>) -> tensor<1x16x5x20xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x8x9x24xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x5x20xf32>) -> tensor<1x16x5x20xf32>
  return %y : tensor<1x16x5x20xf32>
}

func.func @ref_dilated(%in: tensor<1x8x9x24xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<1x16x5x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x5x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x20xf32>) -> tensor<1x16x5x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 2 * i, x + 2 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x8x9x24xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x5x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x16x5x20xf32>
  return %y : tensor<1x16x5x20xf32>
}

func.func @pointwise(%in: tensor<1x16x7x20xf32>, %f: tensor<20x16x1x1xf32>) -> tensor<1x20x7x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x7x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x20x7x20xf32>) -> tensor<1x20x7x20xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x7x20xf32>, tensor<20x16x1x1xf32>) outs(%o : tensor<1x20x7x20xf32>) -> tensor<1x20x7x20xf32>
  return %y : tensor<1x20x7x20xf32>
}

func.func @ref_pointwise(%in: tensor<1x16x7x20xf32>, %f: tensor<20x16x1x1xf32>) -> tensor<1x20x7x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20x7x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x20x7x20xf32>) -> tensor<1x20x7x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 1 * i, x + 1 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x16x7x20xf32>, tensor<20x16x1x1xf32>) outs(%o : tensor<1x20x7x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x20x7x20xf32>
  return %y : tensor<1x20x7x20xf32>
}

func.func @narrow_in(%in: tensor<1x16x6x20xbf16>, %f: tensor<24x16x3x3xbf16>) -> tensor<1x24x4x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x4x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x4x18xf32>) -> tensor<1x24x4x18xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x6x20xbf16>, tensor<24x16x3x3xbf16>) outs(%o : tensor<1x24x4x18xf32>) -> tensor<1x24x4x18xf32>
  return %y : tensor<1x24x4x18xf32>
}

func.func @ref_narrow_in(%in: tensor<1x16x6x20xf32>, %f: tensor<24x16x3x3xf32>) -> tensor<1x24x4x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x4x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x4x18xf32>) -> tensor<1x24x4x18xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 1 * i, x + 1 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x16x6x20xf32>, tensor<24x16x3x3xf32>) outs(%o : tensor<1x24x4x18xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x24x4x18xf32>
  return %y : tensor<1x24x4x18xf32>
}

func.func @dyn_batch(%in: tensor<?x8x6x20xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<?x16x4x18xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x8x6x20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x16x4x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16x4x18xf32>) -> tensor<?x16x4x18xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x8x6x20xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<?x16x4x18xf32>) -> tensor<?x16x4x18xf32>
  return %y : tensor<?x16x4x18xf32>
}

func.func @ref_dyn_batch(%in: tensor<2x8x6x20xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<2x16x4x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x4x18xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x4x18xf32>) -> tensor<2x16x4x18xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 1 * i, x + 1 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<2x8x6x20xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<2x16x4x18xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x16x4x18xf32>
  return %y : tensor<2x16x4x18xf32>
}

func.func @fused(%in: tensor<1x16x8x22xf32>, %f: tensor<12x16x3x3xf32>, %res: tensor<1x12x6x20xf32>, %bias: tensor<12xf32>) -> tensor<1x12x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x6x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x6x20xf32>) -> tensor<1x12x6x20xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x8x22xf32>, tensor<12x16x3x3xf32>) outs(%o : tensor<1x12x6x20xf32>) -> tensor<1x12x6x20xf32>
  %e2 = tensor.empty() : tensor<1x12x6x20xf32>
  %z = linalg.generic {indexing_maps = [#id4, #id4, affine_map<(a, b, c, d) -> (b)>, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %res, %bias : tensor<1x12x6x20xf32>, tensor<1x12x6x20xf32>, tensor<12xf32>) outs(%e2 : tensor<1x12x6x20xf32>) {
  ^bb0(%a: f32, %r: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %s2 = arith.addf %s, %r : f32
    %zero2 = arith.constant 0.0 : f32
    %m = arith.maximumf %s2, %zero2 : f32
    linalg.yield %m : f32
  } -> tensor<1x12x6x20xf32>
  return %z : tensor<1x12x6x20xf32>
}

func.func @ref_fused(%in: tensor<1x16x8x22xf32>, %f: tensor<12x16x3x3xf32>, %res: tensor<1x12x6x20xf32>, %bias: tensor<12xf32>) -> tensor<1x12x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x6x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x6x20xf32>) -> tensor<1x12x6x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 1 * i, x + 1 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x16x8x22xf32>, tensor<12x16x3x3xf32>) outs(%o : tensor<1x12x6x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x12x6x20xf32>
  %e2 = tensor.empty() : tensor<1x12x6x20xf32>
  %z = linalg.generic {indexing_maps = [#id4, #id4, affine_map<(a, b, c, d) -> (b)>, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %res, %bias : tensor<1x12x6x20xf32>, tensor<1x12x6x20xf32>, tensor<12xf32>) outs(%e2 : tensor<1x12x6x20xf32>) {
  ^bb0(%a: f32, %r: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %s2 = arith.addf %s, %r : f32
    %zero2 = arith.constant 0.0 : f32
    %m = arith.maximumf %s2, %zero2 : f32
    linalg.yield %m : f32
  } -> tensor<1x12x6x20xf32>
  return %z : tensor<1x12x6x20xf32>
}
// The epilogue of case 7: bias per channel + residual + ReLU.
func.func @bias_res_relu(%y: tensor<1x12x7x7xf32>, %res: tensor<1x12x7x7xf32>, %bias: tensor<12xf32>) -> tensor<1x12x7x7xf32> {
  %e2 = tensor.empty() : tensor<1x12x7x7xf32>
  %z = linalg.generic {indexing_maps = [#id4, #id4, affine_map<(a, b, c, d) -> (b)>, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %res, %bias : tensor<1x12x7x7xf32>, tensor<1x12x7x7xf32>, tensor<12xf32>) outs(%e2 : tensor<1x12x7x7xf32>) {
  ^bb0(%a: f32, %r: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %s2 = arith.addf %s, %r : f32
    %zero2 = arith.constant 0.0 : f32
    %m = arith.maximumf %s2, %zero2 : f32
    linalg.yield %m : f32
  } -> tensor<1x12x7x7xf32>
  return %z : tensor<1x12x7x7xf32>
}

func.func @kblocks(%in: tensor<1x131x9x9xf32>, %f: tensor<12x131x3x3xf32>, %res: tensor<1x12x7x7xf32>, %bias: tensor<12xf32>) -> tensor<1x12x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x7x7xf32>) -> tensor<1x12x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x131x9x9xf32>, tensor<12x131x3x3xf32>) outs(%o : tensor<1x12x7x7xf32>) -> tensor<1x12x7x7xf32>
  %z = call @bias_res_relu(%y, %res, %bias) : (tensor<1x12x7x7xf32>, tensor<1x12x7x7xf32>, tensor<12xf32>) -> tensor<1x12x7x7xf32>
  return %z : tensor<1x12x7x7xf32>
}

func.func @kblocks_bf16(%in: tensor<1x131x9x9xbf16>, %f: tensor<12x131x3x3xbf16>, %res: tensor<1x12x7x7xf32>, %bias: tensor<12xf32>) -> tensor<1x12x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x7x7xf32>) -> tensor<1x12x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x131x9x9xbf16>, tensor<12x131x3x3xbf16>) outs(%o : tensor<1x12x7x7xf32>) -> tensor<1x12x7x7xf32>
  %z = call @bias_res_relu(%y, %res, %bias) : (tensor<1x12x7x7xf32>, tensor<1x12x7x7xf32>, tensor<12xf32>) -> tensor<1x12x7x7xf32>
  return %z : tensor<1x12x7x7xf32>
}

func.func @ref_kblocks(%in: tensor<1x131x9x9xf32>, %f: tensor<12x131x3x3xf32>, %res: tensor<1x12x7x7xf32>, %bias: tensor<12xf32>) -> tensor<1x12x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x7x7xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x7x7xf32>) -> tensor<1x12x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + 1 * i, x + 1 * j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x131x9x9xf32>, tensor<12x131x3x3xf32>) outs(%o : tensor<1x12x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x12x7x7xf32>
  %z = call @bias_res_relu(%y, %res, %bias) : (tensor<1x12x7x7xf32>, tensor<1x12x7x7xf32>, tensor<12xf32>) -> tensor<1x12x7x7xf32>
  return %z : tensor<1x12x7x7xf32>
}

func.func @main() {
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
  %k64 = arith.constant 64 : index

  // 1. deep
  %in0d = call @rand4(%k1, %k2, %k64, %k7, %k21) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in0 = tensor.cast %in0d : tensor<?x?x?x?xf32> to tensor<2x64x7x21xf32>
  %f0d = call @rand4(%k2, %k20, %k64, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f0 = tensor.cast %f0d : tensor<?x?x?x?xf32> to tensor<20x64x3x3xf32>
  %y0 = call @deep(%in0, %f0) : (tensor<2x64x7x21xf32>, tensor<20x64x3x3xf32>) -> tensor<2x20x5x19xf32>
  %r0 = call @ref_deep(%in0, %f0) : (tensor<2x64x7x21xf32>, tensor<20x64x3x3xf32>) -> tensor<2x20x5x19xf32>
  %y0d = tensor.cast %y0 : tensor<2x20x5x19xf32> to tensor<?x?x?x?xf32>
  %r0d = tensor.cast %r0 : tensor<2x20x5x19xf32> to tensor<?x?x?x?xf32>
  %ok0 = call @close(%y0d, %r0d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok0 : i1

  // 2. dilated
  %in1d = call @rand4(%k3, %k1, %k8, %k9, %k24) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<1x8x9x24xf32>
  %f1d = call @rand4(%k4, %k16, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1 = tensor.cast %f1d : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %y1 = call @dilated(%in1, %f1) : (tensor<1x8x9x24xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x5x20xf32>
  %r1 = call @ref_dilated(%in1, %f1) : (tensor<1x8x9x24xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x5x20xf32>
  %y1d = tensor.cast %y1 : tensor<1x16x5x20xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<1x16x5x20xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 3. pointwise
  %in2d = call @rand4(%k5, %k1, %k16, %k7, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<1x16x7x20xf32>
  %f2d = call @rand4(%k6, %k20, %k16, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2 = tensor.cast %f2d : tensor<?x?x?x?xf32> to tensor<20x16x1x1xf32>
  %y2 = call @pointwise(%in2, %f2) : (tensor<1x16x7x20xf32>, tensor<20x16x1x1xf32>) -> tensor<1x20x7x20xf32>
  %r2 = call @ref_pointwise(%in2, %f2) : (tensor<1x16x7x20xf32>, tensor<20x16x1x1xf32>) -> tensor<1x20x7x20xf32>
  %y2d = tensor.cast %y2 : tensor<1x20x7x20xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<1x20x7x20xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 4. narrow_in
  %in3d = call @rand4(%k7, %k1, %k16, %k6, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in3 = tensor.cast %in3d : tensor<?x?x?x?xf32> to tensor<1x16x6x20xf32>
  %f3d = call @rand4(%k8, %k24, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f3 = tensor.cast %f3d : tensor<?x?x?x?xf32> to tensor<24x16x3x3xf32>
  %in3b = lowp.cast %in3 : tensor<1x16x6x20xf32> to tensor<1x16x6x20xbf16>
  %f3b = lowp.cast %f3 : tensor<24x16x3x3xf32> to tensor<24x16x3x3xbf16>
  %y3 = call @narrow_in(%in3b, %f3b) : (tensor<1x16x6x20xbf16>, tensor<24x16x3x3xbf16>) -> tensor<1x24x4x18xf32>
  %r3 = call @ref_narrow_in(%in3, %f3) : (tensor<1x16x6x20xf32>, tensor<24x16x3x3xf32>) -> tensor<1x24x4x18xf32>
  %y3d = tensor.cast %y3 : tensor<1x24x4x18xf32> to tensor<?x?x?x?xf32>
  %r3d = tensor.cast %r3 : tensor<1x24x4x18xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 5. dyn_batch
  %in4d = call @rand4(%k9, %k2, %k8, %k6, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in4 = tensor.cast %in4d : tensor<?x?x?x?xf32> to tensor<2x8x6x20xf32>
  %f4d = call @rand4(%k10, %k16, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f4 = tensor.cast %f4d : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %in4x = tensor.cast %in4 : tensor<2x8x6x20xf32> to tensor<?x8x6x20xf32>
  %y4 = call @dyn_batch(%in4x, %f4) : (tensor<?x8x6x20xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x4x18xf32>
  %r4 = call @ref_dyn_batch(%in4, %f4) : (tensor<2x8x6x20xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x4x18xf32>
  %y4d = tensor.cast %y4 : tensor<?x16x4x18xf32> to tensor<?x?x?x?xf32>
  %r4d = tensor.cast %r4 : tensor<2x16x4x18xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r4d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 6. fused
  %in5d = call @rand4(%k11, %k1, %k16, %k8, %k22) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in5 = tensor.cast %in5d : tensor<?x?x?x?xf32> to tensor<1x16x8x22xf32>
  %f5d = call @rand4(%k12, %k12, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f5 = tensor.cast %f5d : tensor<?x?x?x?xf32> to tensor<12x16x3x3xf32>
  %res5d = call @rand4(%k13, %k1, %k12, %k6, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %res5 = tensor.cast %res5d : tensor<?x?x?x?xf32> to tensor<1x12x6x20xf32>
  %b54 = call @rand4(%k14, %k1, %k1, %k1, %k12) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b5c = tensor.cast %b54 : tensor<?x?x?x?xf32> to tensor<1x1x1x12xf32>
  %bias5 = tensor.collapse_shape %b5c [[0, 1, 2, 3]] : tensor<1x1x1x12xf32> into tensor<12xf32>
  %y5 = call @fused(%in5, %f5, %res5, %bias5) : (tensor<1x16x8x22xf32>, tensor<12x16x3x3xf32>, tensor<1x12x6x20xf32>, tensor<12xf32>) -> tensor<1x12x6x20xf32>
  %r5 = call @ref_fused(%in5, %f5, %res5, %bias5) : (tensor<1x16x8x22xf32>, tensor<12x16x3x3xf32>, tensor<1x12x6x20xf32>, tensor<12xf32>) -> tensor<1x12x6x20xf32>
  %y5d = tensor.cast %y5 : tensor<1x12x6x20xf32> to tensor<?x?x?x?xf32>
  %r5d = tensor.cast %r5 : tensor<1x12x6x20xf32> to tensor<?x?x?x?xf32>
  %ok5 = call @close(%y5d, %r5d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok5 : i1

  // 7. kblocks, f32 and bf16
  %k131 = arith.constant 131 : index
  %in6d = call @rand4(%k15, %k1, %k131, %k9, %k9) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in6 = tensor.cast %in6d : tensor<?x?x?x?xf32> to tensor<1x131x9x9xf32>
  %f6d = call @rand4(%k16, %k12, %k131, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f6 = tensor.cast %f6d : tensor<?x?x?x?xf32> to tensor<12x131x3x3xf32>
  %res6d = call @rand4(%k17, %k1, %k12, %k7, %k7) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %res6 = tensor.cast %res6d : tensor<?x?x?x?xf32> to tensor<1x12x7x7xf32>
  %b64 = call @rand4(%k18, %k1, %k1, %k1, %k12) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b6c = tensor.cast %b64 : tensor<?x?x?x?xf32> to tensor<1x1x1x12xf32>
  %bias6 = tensor.collapse_shape %b6c [[0, 1, 2, 3]] : tensor<1x1x1x12xf32> into tensor<12xf32>
  %r6 = call @ref_kblocks(%in6, %f6, %res6, %bias6) : (tensor<1x131x9x9xf32>, tensor<12x131x3x3xf32>, tensor<1x12x7x7xf32>, tensor<12xf32>) -> tensor<1x12x7x7xf32>
  %r6d = tensor.cast %r6 : tensor<1x12x7x7xf32> to tensor<?x?x?x?xf32>
  %y6 = call @kblocks(%in6, %f6, %res6, %bias6) : (tensor<1x131x9x9xf32>, tensor<12x131x3x3xf32>, tensor<1x12x7x7xf32>, tensor<12xf32>) -> tensor<1x12x7x7xf32>
  %y6d = tensor.cast %y6 : tensor<1x12x7x7xf32> to tensor<?x?x?x?xf32>
  %ok6 = call @close(%y6d, %r6d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok6 : i1
  %in6b = lowp.cast %in6 : tensor<1x131x9x9xf32> to tensor<1x131x9x9xbf16>
  %f6b = lowp.cast %f6 : tensor<12x131x3x3xf32> to tensor<12x131x3x3xbf16>
  %y7 = call @kblocks_bf16(%in6b, %f6b, %res6, %bias6) : (tensor<1x131x9x9xbf16>, tensor<12x131x3x3xbf16>, tensor<1x12x7x7xf32>, tensor<12xf32>) -> tensor<1x12x7x7xf32>
  %y7d = tensor.cast %y7 : tensor<1x12x7x7xf32> to tensor<?x?x?x?xf32>
  %ok7 = call @close(%y7d, %r6d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok7 : i1

  // 8. Negative control: case 1 against its reference with the filter
  // taps transposed (KH and KW swapped) must fail the check.
  %ft = linalg.transpose ins(%f0 : tensor<20x64x3x3xf32>) outs(%f0 : tensor<20x64x3x3xf32>) permutation = [0, 1, 3, 2]
  %rbad = call @ref_deep(%in0, %ft) : (tensor<2x64x7x21xf32>, tensor<20x64x3x3xf32>) -> tensor<2x20x5x19xf32>
  %rbadd = tensor.cast %rbad : tensor<2x20x5x19xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%y0d, %rbadd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
