// Convolutions with a dynamic batch (torch.export and ONNX front ends:
// tensor<?x...>, the batch read by tensor.dim) through lowp-pipeline-x86:
// the kernels take them with the batch as a run-time loop bound (the NHWC
// kernel blocks pixels per image then), every other dimension static. The
// result stays C (no fill or consumer fused into the kernel: the epilogue
// needs static buffers). Cases, each on 2 images (and on 3, the same
// functions called again): NHWC f32 (A read in place), NHWC bf16 (the dot
// kernel in place on AVX512_BF16; im2col tiles with amx=true; col widened
// on avx2), NCHW f32 (blocked im2col), depthwise NHWC f32. Each is compared
// with a reference convolution written as a linalg.generic on the same
// (bf16-exact) inputs, left to the loop path: |x - ref| <= 1e-5 |ref| +
// 1e-4 (multiples of 1/16: exact sums, only a wrong result differs); a
// last check is a negative control.
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
// RUN: %if x86-amx %{ fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// The kernels take every convolution (only the references are loops):
// RUN: fp-opt %s -lowp-pipeline-x86=target=sapphirerapids -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nhwc_hwcf'
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nchw_fchw'
// REMARK-NOT: generic loop path for 'linalg.depthwise_conv_2d_nhwc_hwc'

// CHECK-COUNT-8: 1
// CHECK-NEXT: 0

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


func.func @nhwc_f32(%in: tensor<?x9x9x16xf32>, %f: tensor<3x3x16x24xf32>) -> tensor<?x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x9x9x16xf32>
  %e = tensor.empty(%n) : tensor<?x7x7x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x7x7x24xf32>) -> tensor<?x7x7x24xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x9x9x16xf32>, tensor<3x3x16x24xf32>) outs(%o : tensor<?x7x7x24xf32>) -> tensor<?x7x7x24xf32>
  return %y : tensor<?x7x7x24xf32>
}

func.func @nhwc_bf16(%in: tensor<?x9x9x32xbf16>, %f: tensor<3x3x32x40xbf16>) -> tensor<?x7x7x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x9x9x32xbf16>
  %e = tensor.empty(%n) : tensor<?x7x7x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x7x7x40xf32>) -> tensor<?x7x7x40xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x9x9x32xbf16>, tensor<3x3x32x40xbf16>) outs(%o : tensor<?x7x7x40xf32>) -> tensor<?x7x7x40xf32>
  return %y : tensor<?x7x7x40xf32>
}

func.func @nchw_f32(%in: tensor<?x8x10x10xf32>, %f: tensor<16x8x3x3xf32>) -> tensor<?x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x8x10x10xf32>
  %e = tensor.empty(%n) : tensor<?x16x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xf32>
  return %y : tensor<?x16x8x8xf32>
}

func.func @depthwise_f32(%in: tensor<?x10x10x32xf32>, %f: tensor<3x3x32xf32>) -> tensor<?x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x10x10x32xf32>
  %e = tensor.empty(%n) : tensor<?x8x8x32xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x8x32xf32>) -> tensor<?x8x8x32xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x10x10x32xf32>, tensor<3x3x32xf32>) outs(%o : tensor<?x8x8x32xf32>) -> tensor<?x8x8x32xf32>
  return %y : tensor<?x8x8x32xf32>
}

// References: the same sums as linalg.generic (the loop path), dynamic
// batch too.
func.func @ref_nhwc(%in: tensor<?x9x9x?xf32>, %f: tensor<3x3x?x?xf32>, %o: tensor<?x7x7x?xf32>) -> tensor<?x7x7x?xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, f, i, j, c) -> (n, y + i, x + j, c)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (i, j, c, f)>,
                                        affine_map<(n, y, x, f, i, j, c) -> (n, y, x, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<?x9x9x?xf32>, tensor<3x3x?x?xf32>) outs(%o : tensor<?x7x7x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x7x7x?xf32>
  return %y : tensor<?x7x7x?xf32>
}

func.func @ref_nchw(%in: tensor<?x8x10x10xf32>, %f: tensor<16x8x3x3xf32>, %o: tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + i, x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<?x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<?x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x16x8x8xf32>
  return %y : tensor<?x16x8x8xf32>
}

func.func @ref_depthwise(%in: tensor<?x10x10x32xf32>, %f: tensor<3x3x32xf32>, %o: tensor<?x8x8x32xf32>) -> tensor<?x8x8x32xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(n, y, x, c, i, j) -> (n, y + i, x + j, c)>,
                                        affine_map<(n, y, x, c, i, j) -> (i, j, c)>,
                                        affine_map<(n, y, x, c, i, j) -> (n, y, x, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<?x10x10x32xf32>, tensor<3x3x32xf32>) outs(%o : tensor<?x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x8x8x32xf32>
  return %y : tensor<?x8x8x32xf32>
}

// A zero-filled dynamic buffer of the given shape.
func.func @zeros(%a: index, %b: index, %c: index, %d: index) -> tensor<?x?x?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%a, %b, %c, %d) : tensor<?x?x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %z : tensor<?x?x?x?xf32>
}

// The four cases for a batch of %n images; prints 1 for each that matches.
func.func @run(%n: index, %seed: index) {
  %k3 = arith.constant 3 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k16 = arith.constant 16 : index
  %k24 = arith.constant 24 : index
  %k32 = arith.constant 32 : index
  %k40 = arith.constant 40 : index
  %s1 = arith.addi %seed, %k3 : index
  %s2 = arith.addi %seed, %k7 : index

  // 1. NHWC f32.
  %a1 = call @rand4(%seed, %n, %k9, %k9, %k16) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w1 = call @rand4(%s1, %k3, %k3, %k16, %k24) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %a1s = tensor.cast %a1 : tensor<?x?x?x?xf32> to tensor<?x9x9x16xf32>
  %w1s = tensor.cast %w1 : tensor<?x?x?x?xf32> to tensor<3x3x16x24xf32>
  %y1 = call @nhwc_f32(%a1s, %w1s) : (tensor<?x9x9x16xf32>, tensor<3x3x16x24xf32>) -> tensor<?x7x7x24xf32>
  %z1 = call @zeros(%n, %k7, %k7, %k24) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %a1r = tensor.cast %a1 : tensor<?x?x?x?xf32> to tensor<?x9x9x?xf32>
  %w1r = tensor.cast %w1 : tensor<?x?x?x?xf32> to tensor<3x3x?x?xf32>
  %z1r = tensor.cast %z1 : tensor<?x?x?x?xf32> to tensor<?x7x7x?xf32>
  %r1 = call @ref_nhwc(%a1r, %w1r, %z1r) : (tensor<?x9x9x?xf32>, tensor<3x3x?x?xf32>, tensor<?x7x7x?xf32>) -> tensor<?x7x7x?xf32>
  %y1d = tensor.cast %y1 : tensor<?x7x7x24xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<?x7x7x?xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 2. NHWC bf16 (32 channels: whole tiles).
  %a2 = call @rand4(%s2, %n, %k9, %k9, %k32) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w2 = call @rand4(%seed, %k3, %k3, %k32, %k40) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %a2s = tensor.cast %a2 : tensor<?x?x?x?xf32> to tensor<?x9x9x32xf32>
  %w2s = tensor.cast %w2 : tensor<?x?x?x?xf32> to tensor<3x3x32x40xf32>
  %a2b = lowp.cast %a2s : tensor<?x9x9x32xf32> to tensor<?x9x9x32xbf16>
  %w2b = lowp.cast %w2s : tensor<3x3x32x40xf32> to tensor<3x3x32x40xbf16>
  %y2 = call @nhwc_bf16(%a2b, %w2b) : (tensor<?x9x9x32xbf16>, tensor<3x3x32x40xbf16>) -> tensor<?x7x7x40xf32>
  %z2 = call @zeros(%n, %k7, %k7, %k40) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %a2r = tensor.cast %a2 : tensor<?x?x?x?xf32> to tensor<?x9x9x?xf32>
  %w2r = tensor.cast %w2 : tensor<?x?x?x?xf32> to tensor<3x3x?x?xf32>
  %z2r = tensor.cast %z2 : tensor<?x?x?x?xf32> to tensor<?x7x7x?xf32>
  %r2 = call @ref_nhwc(%a2r, %w2r, %z2r) : (tensor<?x9x9x?xf32>, tensor<3x3x?x?xf32>, tensor<?x7x7x?xf32>) -> tensor<?x7x7x?xf32>
  %y2d = tensor.cast %y2 : tensor<?x7x7x40xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<?x7x7x?xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 3. NCHW f32.
  %a3 = call @rand4(%s1, %n, %k8, %k10, %k10) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w3 = call @rand4(%s2, %k16, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %a3s = tensor.cast %a3 : tensor<?x?x?x?xf32> to tensor<?x8x10x10xf32>
  %w3s = tensor.cast %w3 : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %y3 = call @nchw_f32(%a3s, %w3s) : (tensor<?x8x10x10xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x8x8xf32>
  %z3 = call @zeros(%n, %k16, %k8, %k8) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %z3s = tensor.cast %z3 : tensor<?x?x?x?xf32> to tensor<?x16x8x8xf32>
  %r3 = call @ref_nchw(%a3s, %w3s, %z3s) : (tensor<?x8x10x10xf32>, tensor<16x8x3x3xf32>, tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xf32>
  %y3d = tensor.cast %y3 : tensor<?x16x8x8xf32> to tensor<?x?x?x?xf32>
  %r3d = tensor.cast %r3 : tensor<?x16x8x8xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 4. Depthwise NHWC f32.
  %a4 = call @rand4(%s2, %n, %k10, %k10, %k32) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k1 = arith.constant 1 : index
  %w4d = call @rand4(%s1, %k3, %k3, %k32, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w4c = tensor.cast %w4d : tensor<?x?x?x?xf32> to tensor<3x3x32x1xf32>
  %w4 = tensor.collapse_shape %w4c [[0], [1], [2, 3]] : tensor<3x3x32x1xf32> into tensor<3x3x32xf32>
  %a4s = tensor.cast %a4 : tensor<?x?x?x?xf32> to tensor<?x10x10x32xf32>
  %y4 = call @depthwise_f32(%a4s, %w4) : (tensor<?x10x10x32xf32>, tensor<3x3x32xf32>) -> tensor<?x8x8x32xf32>
  %z4 = call @zeros(%n, %k8, %k8, %k32) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %z4s = tensor.cast %z4 : tensor<?x?x?x?xf32> to tensor<?x8x8x32xf32>
  %r4 = call @ref_depthwise(%a4s, %w4, %z4s) : (tensor<?x10x10x32xf32>, tensor<3x3x32xf32>, tensor<?x8x8x32xf32>) -> tensor<?x8x8x32xf32>
  %y4d = tensor.cast %y4 : tensor<?x8x8x32xf32> to tensor<?x?x?x?xf32>
  %r4d = tensor.cast %r4 : tensor<?x8x8x32xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r4d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1
  return
}

func.func @main() {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k5 = arith.constant 5 : index
  %k9 = arith.constant 9 : index
  %k16 = arith.constant 16 : index
  %k24 = arith.constant 24 : index
  call @run(%k2, %k1) : (index, index) -> ()
  call @run(%k3, %k5) : (index, index) -> ()
  // Negative control: case 1 on 2 images against the reference with the
  // filter's taps swapped (KH and KW): must not match.
  %a = call @rand4(%k1, %k2, %k9, %k9, %k16) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w = call @rand4(%k0, %k3, %k3, %k16, %k24) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %as = tensor.cast %a : tensor<?x?x?x?xf32> to tensor<?x9x9x16xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<3x3x16x24xf32>
  %y = call @nhwc_f32(%as, %ws) : (tensor<?x9x9x16xf32>, tensor<3x3x16x24xf32>) -> tensor<?x7x7x24xf32>
  %wt = linalg.transpose ins(%ws : tensor<3x3x16x24xf32>) outs(%ws : tensor<3x3x16x24xf32>) permutation = [1, 0, 2, 3]
  %k7 = arith.constant 7 : index
  %z = call @zeros(%k2, %k7, %k7, %k24) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %ar = tensor.cast %a : tensor<?x?x?x?xf32> to tensor<?x9x9x?xf32>
  %wtr = tensor.cast %wt : tensor<3x3x16x24xf32> to tensor<3x3x?x?xf32>
  %zr = tensor.cast %z : tensor<?x?x?x?xf32> to tensor<?x7x7x?xf32>
  %r = call @ref_nhwc(%ar, %wtr, %zr) : (tensor<?x9x9x?xf32>, tensor<3x3x?x?xf32>, tensor<?x7x7x?xf32>) -> tensor<?x7x7x?xf32>
  %yd = tensor.cast %y : tensor<?x7x7x24xf32> to tensor<?x?x?x?xf32>
  %rd = tensor.cast %r : tensor<?x7x7x?xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%yd, %rd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %bad : i1
  return
}
