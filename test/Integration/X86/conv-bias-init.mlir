// Contractions whose init is a broadcast bias, as torch-mlir writes a
// convolution with a bias (a linalg.generic copying the bias to every
// output element, summed into by the convolution): lowp-fuse-elementwise
// (kernel-epilogues) starts them from a zero fill and adds the bias in the
// consumer after them, which the kernels run as their epilogue. Each result
// is compared with a reference that keeps the bias as the init of a
// convolution written as a linalg.generic (the plain loop path), on the same
// bf16-exact inputs: |x - ref| <= 1e-5 |ref| + 1e-4.
//  1. NCHW 1x1, 2 images, 16 -> 20 channels, 7x7, bias + ReLU: the GEMM
//     kernel, a masked last vector of 49 pixels.
//  2. NCHW 3x3, 8 -> 12 channels, 11x11 -> 9x9, bias alone (the add is the
//     convolution's only consumer): Winograd by default, the im2col kernel
//     with winograd=false.
//  3. matmul 5x37 by 37x33, a bias per column: the bias read as a vector
//     along the columns, a column tail.
//  4. depthwise NCHW 3x3, 20 channels, 12x19 -> 10x17, bias + ReLU6.
//  5. negative control: case 1 against its reference without the bias
//     must fail the check (prints 0).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>&1 >%t.avx2 | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: mlir-runner %t.avx2 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 nhwc-convolutions=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 winograd=false kc=16" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>&1 >%t.zen4 | FileCheck %s --check-prefix=REMARK --allow-empty %}
// RUN: %if x86-avx512bf16 %{ mlir-runner %t.zen4 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s %}
//
// No bias init is left for the kernels to read back, and every consumer
// is fused. (The references' generic convolutions take the generic loop
// path.) One thread: each function's dump after the pass prints in order.
// The NCHW kernels: with nhwc-convolutions=false (by default case 1, whose
// 1x1 filter converts by a reshape, runs NHWC).
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 nhwc-convolutions=false" -mlir-disable-threading -mlir-print-ir-after=lowp-fuse-elementwise 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @c1(
// FUSED:         %[[Z1:.*]] = linalg.fill
// FUSED:         linalg.conv_2d_nchw_fchw {{.*}} outs(%[[Z1]] :
// FUSED-NEXT:    linalg.generic
// FUSED:           arith.addf
// FUSED:           arith.cmpf
// FUSED-LABEL: func.func @c3(
// FUSED:         %[[Z3:.*]] = linalg.fill
// FUSED:         linalg.matmul {{.*}} outs(%[[Z3]] :
// FUSED-LABEL: func.func @c4(
// FUSED:         %[[Z4:.*]] = linalg.fill
// FUSED:         linalg.depthwise_conv_2d_nchw_chw {{.*}} outs(%[[Z4]] :
// REMARK-NOT: not fused into 'linalg.{{conv|depthwise|matmul}}
// REMARK-NOT: generic loop path for 'linalg.{{conv|depthwise|matmul}}

// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 0
// CHECK-NOT: {{[01]}}

#bias4 = affine_map<(n, c, y, x) -> (c)>
#col2 = affine_map<(m, n) -> (n)>
#id2m = affine_map<(m, n) -> (m, n)>

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>
#ch1 = affine_map<(n, c, y, x) -> (c)>
#ch3 = affine_map<(n, y, x, c) -> (c)>

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


// A rank-1 tensor of n values (per-channel operands).
func.func @rand1(%seed: index, %n: index) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %r = call @rand4(%seed, %c1, %c1, %c1, %n) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v = tensor.collapse_shape %r [[0, 1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?xf32>
  return %v : tensor<?xf32>
}


// The bias of `b` broadcast to an NCHW tensor, as torch-mlir writes a
// convolution's init.
func.func @c1(%in: tensor<2x16x7x7xf32>, %f: tensor<20x16x1x1xf32>, %b: tensor<20xf32>) -> tensor<2x20x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x7x7xf32>
  %init = linalg.generic {indexing_maps = [#bias4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<20xf32>) outs(%e : tensor<2x20x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x20x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %f : tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>) outs(%init : tensor<2x20x7x7xf32>) -> tensor<2x20x7x7xf32>
  %eo = tensor.empty() : tensor<2x20x7x7xf32>
  %out = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x20x7x7xf32>) outs(%eo : tensor<2x20x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.cmpf ugt, %v, %zero : f32
    %r = arith.select %p, %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x20x7x7xf32>
  return %out : tensor<2x20x7x7xf32>
}

// `withBias` false: the same without the bias (the negative control).
func.func @ref_c1(%in: tensor<2x16x7x7xf32>, %f: tensor<20x16x1x1xf32>, %b: tensor<20xf32>, %withBias: i1) -> tensor<2x20x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x7x7xf32>
  %init = linalg.generic {indexing_maps = [#bias4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<20xf32>) outs(%e : tensor<2x20x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.select %withBias, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x20x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c) -> (n, c, y, x)>,
                                        affine_map<(n, f, y, x, c) -> (f, c, 0, 0)>,
                                        affine_map<(n, f, y, x, c) -> (n, f, y, x)>],
                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %f : tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>) outs(%init : tensor<2x20x7x7xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %p = arith.mulf %a, %w : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<2x20x7x7xf32>
  %eo = tensor.empty() : tensor<2x20x7x7xf32>
  %out = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x20x7x7xf32>) outs(%eo : tensor<2x20x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x20x7x7xf32>
  return %out : tensor<2x20x7x7xf32>
}

func.func @c2(%in: tensor<1x8x11x11xf32>, %f: tensor<12x8x3x3xf32>, %b: tensor<12xf32>) -> tensor<1x12x9x9xf32> {
  %e = tensor.empty() : tensor<1x12x9x9xf32>
  %init = linalg.generic {indexing_maps = [#bias4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<12xf32>) outs(%e : tensor<1x12x9x9xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x12x9x9xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %f : tensor<1x8x11x11xf32>, tensor<12x8x3x3xf32>) outs(%init : tensor<1x12x9x9xf32>) -> tensor<1x12x9x9xf32>
  return %y : tensor<1x12x9x9xf32>
}

func.func @ref_c2(%in: tensor<1x8x11x11xf32>, %f: tensor<12x8x3x3xf32>, %b: tensor<12xf32>) -> tensor<1x12x9x9xf32> {
  %e = tensor.empty() : tensor<1x12x9x9xf32>
  %init = linalg.generic {indexing_maps = [#bias4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<12xf32>) outs(%e : tensor<1x12x9x9xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x12x9x9xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, y + i, x + j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x8x11x11xf32>, tensor<12x8x3x3xf32>) outs(%init : tensor<1x12x9x9xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %p = arith.mulf %a, %w : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<1x12x9x9xf32>
  return %y : tensor<1x12x9x9xf32>
}

func.func @c3(%a: tensor<5x37xf32>, %w: tensor<37x33xf32>, %b: tensor<33xf32>) -> tensor<5x33xf32> {
  %e = tensor.empty() : tensor<5x33xf32>
  %init = linalg.generic {indexing_maps = [#col2, #id2m], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<33xf32>) outs(%e : tensor<5x33xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<5x33xf32>
  %y = linalg.matmul ins(%a, %w : tensor<5x37xf32>, tensor<37x33xf32>) outs(%init : tensor<5x33xf32>) -> tensor<5x33xf32>
  return %y : tensor<5x33xf32>
}

func.func @ref_c3(%a: tensor<5x37xf32>, %w: tensor<37x33xf32>, %b: tensor<33xf32>) -> tensor<5x33xf32> {
  %e = tensor.empty() : tensor<5x33xf32>
  %init = linalg.generic {indexing_maps = [#col2, #id2m], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<33xf32>) outs(%e : tensor<5x33xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<5x33xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<5x37xf32>, tensor<37x33xf32>) outs(%init : tensor<5x33xf32>) {
  ^bb0(%x: f32, %v: f32, %acc: f32):
    %p = arith.mulf %x, %v : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<5x33xf32>
  return %y : tensor<5x33xf32>
}

func.func @c4(%in: tensor<1x20x12x19xf32>, %f: tensor<20x3x3xf32>, %b: tensor<20xf32>) -> tensor<1x20x10x17xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x20x10x17xf32>
  %init = linalg.generic {indexing_maps = [#bias4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<20xf32>) outs(%e : tensor<1x20x10x17xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x20x10x17xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %f : tensor<1x20x12x19xf32>, tensor<20x3x3xf32>) outs(%init : tensor<1x20x10x17xf32>) -> tensor<1x20x10x17xf32>
  %eo = tensor.empty() : tensor<1x20x10x17xf32>
  %out = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x20x10x17xf32>) outs(%eo : tensor<1x20x10x17xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.maximumf %v, %zero : f32
    %z6 = arith.minimumf %z, %six : f32
    linalg.yield %z6 : f32
  } -> tensor<1x20x10x17xf32>
  return %out : tensor<1x20x10x17xf32>
}

func.func @ref_c4(%in: tensor<1x20x12x19xf32>, %f: tensor<20x3x3xf32>, %b: tensor<20xf32>) -> tensor<1x20x10x17xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x20x10x17xf32>
  %init = linalg.generic {indexing_maps = [#bias4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<20xf32>) outs(%e : tensor<1x20x10x17xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x20x10x17xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, y + i, x + j)>,
                                        affine_map<(n, c, y, x, i, j) -> (c, i, j)>,
                                        affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %f : tensor<1x20x12x19xf32>, tensor<20x3x3xf32>) outs(%init : tensor<1x20x10x17xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %p = arith.mulf %a, %w : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<1x20x10x17xf32>
  %eo = tensor.empty() : tensor<1x20x10x17xf32>
  %out = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x20x10x17xf32>) outs(%eo : tensor<1x20x10x17xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.maximumf %v, %zero : f32
    %z6 = arith.minimumf %z, %six : f32
    linalg.yield %z6 : f32
  } -> tensor<1x20x10x17xf32>
  return %out : tensor<1x20x10x17xf32>
}

func.func @print_close4(%got: tensor<?x?x?x?xf32>, %ref: tensor<?x?x?x?xf32>) {
  %ok = call @close(%got, %ref) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok : i1
  return
}

func.func @main() {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k5 = arith.constant 5 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k16 = arith.constant 16 : index
  %k19 = arith.constant 19 : index
  %k20 = arith.constant 20 : index
  %k33 = arith.constant 33 : index
  %k37 = arith.constant 37 : index
  %true = arith.constant true
  %false = arith.constant false

  // 1. NCHW 1x1 + bias + ReLU.
  %in1d = call @rand4(%k0, %k2, %k16, %k7, %k7) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<2x16x7x7xf32>
  %f1d = call @rand4(%k1, %k20, %k16, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1 = tensor.cast %f1d : tensor<?x?x?x?xf32> to tensor<20x16x1x1xf32>
  %b1d = call @rand1(%k2, %k20) : (index, index) -> tensor<?xf32>
  %b1 = tensor.cast %b1d : tensor<?xf32> to tensor<20xf32>
  %y1 = call @c1(%in1, %f1, %b1) : (tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>, tensor<20xf32>) -> tensor<2x20x7x7xf32>
  %r1 = call @ref_c1(%in1, %f1, %b1, %true) : (tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>, tensor<20xf32>, i1) -> tensor<2x20x7x7xf32>
  %y1x = tensor.cast %y1 : tensor<2x20x7x7xf32> to tensor<?x?x?x?xf32>
  %r1x = tensor.cast %r1 : tensor<2x20x7x7xf32> to tensor<?x?x?x?xf32>
  call @print_close4(%y1x, %r1x) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()

  // 2. NCHW 3x3 + bias alone.
  %in2d = call @rand4(%k3, %k1, %k8, %k11, %k11) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<1x8x11x11xf32>
  %f2d = call @rand4(%k5, %k12, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2 = tensor.cast %f2d : tensor<?x?x?x?xf32> to tensor<12x8x3x3xf32>
  %b2d = call @rand1(%k7, %k12) : (index, index) -> tensor<?xf32>
  %b2 = tensor.cast %b2d : tensor<?xf32> to tensor<12xf32>
  %y2 = call @c2(%in2, %f2, %b2) : (tensor<1x8x11x11xf32>, tensor<12x8x3x3xf32>, tensor<12xf32>) -> tensor<1x12x9x9xf32>
  %r2 = call @ref_c2(%in2, %f2, %b2) : (tensor<1x8x11x11xf32>, tensor<12x8x3x3xf32>, tensor<12xf32>) -> tensor<1x12x9x9xf32>
  %y2x = tensor.cast %y2 : tensor<1x12x9x9xf32> to tensor<?x?x?x?xf32>
  %r2x = tensor.cast %r2 : tensor<1x12x9x9xf32> to tensor<?x?x?x?xf32>
  call @print_close4(%y2x, %r2x) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()

  // 3. matmul + a bias per column.
  %a3d = call @rand4(%k8, %k1, %k1, %k5, %k37) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %a3 = tensor.collapse_shape %a3d [[0, 1, 2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %a3s = tensor.cast %a3 : tensor<?x?xf32> to tensor<5x37xf32>
  %w3d = call @rand4(%k11, %k1, %k1, %k37, %k33) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w3 = tensor.collapse_shape %w3d [[0, 1, 2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %w3s = tensor.cast %w3 : tensor<?x?xf32> to tensor<37x33xf32>
  %b3d = call @rand1(%k12, %k33) : (index, index) -> tensor<?xf32>
  %b3 = tensor.cast %b3d : tensor<?xf32> to tensor<33xf32>
  %y3 = call @c3(%a3s, %w3s, %b3) : (tensor<5x37xf32>, tensor<37x33xf32>, tensor<33xf32>) -> tensor<5x33xf32>
  %r3 = call @ref_c3(%a3s, %w3s, %b3) : (tensor<5x37xf32>, tensor<37x33xf32>, tensor<33xf32>) -> tensor<5x33xf32>
  %y3e = tensor.expand_shape %y3 [[0, 1, 2], [3]] output_shape [1, 1, 5, 33] : tensor<5x33xf32> into tensor<1x1x5x33xf32>
  %r3e = tensor.expand_shape %r3 [[0, 1, 2], [3]] output_shape [1, 1, 5, 33] : tensor<5x33xf32> into tensor<1x1x5x33xf32>
  %y3x = tensor.cast %y3e : tensor<1x1x5x33xf32> to tensor<?x?x?x?xf32>
  %r3x = tensor.cast %r3e : tensor<1x1x5x33xf32> to tensor<?x?x?x?xf32>
  call @print_close4(%y3x, %r3x) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()

  // 4. depthwise NCHW 3x3 + bias + ReLU6.
  %in4d = call @rand4(%k16, %k1, %k20, %k12, %k19) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in4 = tensor.cast %in4d : tensor<?x?x?x?xf32> to tensor<1x20x12x19xf32>
  %f4d = call @rand4(%k19, %k1, %k20, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f4c = tensor.collapse_shape %f4d [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %f4 = tensor.cast %f4c : tensor<?x?x?xf32> to tensor<20x3x3xf32>
  %b4d = call @rand1(%k20, %k20) : (index, index) -> tensor<?xf32>
  %b4 = tensor.cast %b4d : tensor<?xf32> to tensor<20xf32>
  %y4 = call @c4(%in4, %f4, %b4) : (tensor<1x20x12x19xf32>, tensor<20x3x3xf32>, tensor<20xf32>) -> tensor<1x20x10x17xf32>
  %r4 = call @ref_c4(%in4, %f4, %b4) : (tensor<1x20x12x19xf32>, tensor<20x3x3xf32>, tensor<20xf32>) -> tensor<1x20x10x17xf32>
  %y4x = tensor.cast %y4 : tensor<1x20x10x17xf32> to tensor<?x?x?x?xf32>
  %r4x = tensor.cast %r4 : tensor<1x20x10x17xf32> to tensor<?x?x?x?xf32>
  call @print_close4(%y4x, %r4x) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()

  // 5. Negative control: case 1 against its reference without the bias.
  %n1 = call @ref_c1(%in1, %f1, %b1, %false) : (tensor<2x16x7x7xf32>, tensor<20x16x1x1xf32>, tensor<20xf32>, i1) -> tensor<2x20x7x7xf32>
  %n1x = tensor.cast %n1 : tensor<2x20x7x7xf32> to tensor<?x?x?x?xf32>
  call @print_close4(%y1x, %n1x) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()
  return
}
