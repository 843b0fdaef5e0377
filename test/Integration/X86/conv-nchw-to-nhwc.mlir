// A small residual network as torch-mlir writes one, run NHWC by
// lowp-convert-conv-nchw-to-nhwc (in lowp-pipeline-x86): a 3x3 convolution
// with a constant filter and a bias broadcast into its init, a batch-norm
// scale read through a [C, 1, 1] reshape, ReLU, 3x3 max pooling at stride
// 2 over a -inf pad, a depthwise 3x3 convolution with a constant filter, a
// 1x1 convolution with a filter argument (reshaped), a residual add that
// also reads the channel index (linalg.index), and a global sum. Compared
// with the same computation written with linalg.generic convolutions and
// pooling (the plain loop path, which the pass leaves NCHW) on the same
// bf16-exact inputs: |x - ref| <= 1e-5 |ref| + 1e-4, for the pooled sums and
// for the residual block's output; then, as a negative control, the sums
// against the block's output scaled by 2 must fail (prints 0).
//
// The network is small: its convolutions do less work per transposed
// element than the default price, so the pass runs first with price 0.
// RUN: fp-opt %s -lowp-convert-conv-nchw-to-nhwc=macs-per-transposed-element=0 -o %t.nhwc.mlir
// RUN: fp-opt %t.nhwc.mlir -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %t.nhwc.mlir -lowp-pipeline-x86="target=avx2 winograd=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.nhwc.mlir -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s %}
//
// The network runs NHWC, one transpose at its input, one for the returned
// block output; the reference stays NCHW.
// RUN: FileCheck %s --check-prefix=NHWC < %t.nhwc.mlir
// NHWC-LABEL: func.func @net(
// NHWC-COUNT-1: linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// NHWC:         linalg.conv_2d_nhwc_fhwc
// NHWC:         linalg.pooling_nhwc_max
// NHWC:         linalg.depthwise_conv_2d_nhwc_hwc
// NHWC:         linalg.conv_2d_nhwc_fhwc
// NHWC-COUNT-1: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// NHWC-NOT:     linalg.transpose
// NHWC-LABEL: func.func @ref_net(
// NHWC-NOT:     linalg.transpose
// NHWC-LABEL: func.func @main(

// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 0
// CHECK-NOT: {{[01]}}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>
#ch1 = affine_map<(n, c, y, x) -> (c)>
#chu = affine_map<(n, c, y, x) -> (c, 0, 0)>
#pool1 = affine_map<(n, c, y, x) -> (n, c, 0, 0)>
#convin = affine_map<(n, f, y, x, c, i, j) -> (n, c, y + i, x + j)>
#convf = affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>
#convout = affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>
#poolin = affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + i, 2 * x + j)>
#poolw = affine_map<(n, c, y, x, i, j) -> (i, j)>
#poolout = affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>
#dwin = affine_map<(n, c, y, x, i, j) -> (n, c, y + i, x + j)>
#dwf = affine_map<(n, c, y, x, i, j) -> (c, i, j)>
#pwin = affine_map<(n, f, y, x, c) -> (n, c, y, x)>
#pwf = affine_map<(n, f, y, x, c) -> (f, c, 0, 0)>
#pwout = affine_map<(n, f, y, x, c) -> (n, f, y, x)>

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

func.func @net(%x: tensor<2x4x9x9xf32>, %w2: tensor<8x8x1x1xf32>, %s: tensor<8xf32>) -> (tensor<2x8x1x1xf32>, tensor<2x8x5x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k1 = arith.constant dense<[[[[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]]], [[[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]]], [[[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]]], [[[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]]], [[[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]]], [[[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]]], [[[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]]], [[[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]]]]> : tensor<8x4x3x3xf32>
  %bias = arith.constant dense<[-0.375, 0.0625, -0.4375, 0.0, 0.4375, -0.0625, 0.375, -0.125]> : tensor<8xf32>
  %kdw = arith.constant dense<[[[-0.125, 0.3125, -0.1875], [0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375]], [[0.0625, -0.4375, 0.0], [0.4375, -0.0625, 0.375], [-0.125, 0.3125, -0.1875]], [[0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375], [0.0625, -0.4375, 0.0]], [[0.4375, -0.0625, 0.375], [-0.125, 0.3125, -0.1875], [0.25, -0.25, 0.1875]], [[-0.3125, 0.125, -0.375], [0.0625, -0.4375, 0.0], [0.4375, -0.0625, 0.375]], [[-0.125, 0.3125, -0.1875], [0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375]], [[0.0625, -0.4375, 0.0], [0.4375, -0.0625, 0.375], [-0.125, 0.3125, -0.1875]], [[0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375], [0.0625, -0.4375, 0.0]]]> : tensor<8x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x4x9x9xf32> to tensor<2x4x11x11xf32>
  %e9 = tensor.empty() : tensor<2x8x9x9xf32>
  %binit = linalg.generic {indexing_maps = [#ch1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<8xf32>) outs(%e9 : tensor<2x8x9x9xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<2x8x9x9xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %k1 : tensor<2x4x11x11xf32>, tensor<8x4x3x3xf32>) outs(%binit : tensor<2x8x9x9xf32>) -> tensor<2x8x9x9xf32>
  %s3 = tensor.expand_shape %s [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #chu, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %s3 : tensor<2x8x9x9xf32>, tensor<8x1x1xf32>) outs(%e9 : tensor<2x8x9x9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x9x9xf32>
  %bp = tensor.pad %bn low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<2x8x9x9xf32> to tensor<2x8x11x11xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e5 = tensor.empty() : tensor<2x8x5x5xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%e5 : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %mp = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%bp, %win : tensor<2x8x11x11xf32>, tensor<3x3xf32>) outs(%pf : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %dp = tensor.pad %mp low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x5x5xf32> to tensor<2x8x7x7xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%dp, %kdw : tensor<2x8x7x7xf32>, tensor<8x3x3xf32>) outs(%zf : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%dw, %w2 : tensor<2x8x5x5xf32>, tensor<8x8x1x1xf32>) outs(%zf : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %add = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %mp : tensor<2x8x5x5xf32>, tensor<2x8x5x5xf32>) outs(%e5 : tensor<2x8x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.addf %a, %b : f32
    %w = arith.mulf %r, %fi : f32
    linalg.yield %w : f32
  } -> tensor<2x8x5x5xf32>
  %e1 = tensor.empty() : tensor<2x8x1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #pool1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%add : tensor<2x8x5x5xf32>) outs(%f1 : tensor<2x8x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8x1x1xf32>
  return %sum, %add : tensor<2x8x1x1xf32>, tensor<2x8x5x5xf32>
}

func.func @ref_net(%x: tensor<2x4x9x9xf32>, %w2: tensor<8x8x1x1xf32>, %s: tensor<8xf32>) -> (tensor<2x8x1x1xf32>, tensor<2x8x5x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k1 = arith.constant dense<[[[[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]]], [[[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]]], [[[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]]], [[[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]]], [[[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]]], [[[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]], [[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]]], [[[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]], [[0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125]]], [[[0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625]], [[-0.4375, 0.0, 0.4375], [-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25]], [[-0.25, 0.1875, -0.3125], [0.125, -0.375, 0.0625], [-0.4375, 0.0, 0.4375]], [[-0.0625, 0.375, -0.125], [0.3125, -0.1875, 0.25], [-0.25, 0.1875, -0.3125]]]]> : tensor<8x4x3x3xf32>
  %bias = arith.constant dense<[-0.375, 0.0625, -0.4375, 0.0, 0.4375, -0.0625, 0.375, -0.125]> : tensor<8xf32>
  %kdw = arith.constant dense<[[[-0.125, 0.3125, -0.1875], [0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375]], [[0.0625, -0.4375, 0.0], [0.4375, -0.0625, 0.375], [-0.125, 0.3125, -0.1875]], [[0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375], [0.0625, -0.4375, 0.0]], [[0.4375, -0.0625, 0.375], [-0.125, 0.3125, -0.1875], [0.25, -0.25, 0.1875]], [[-0.3125, 0.125, -0.375], [0.0625, -0.4375, 0.0], [0.4375, -0.0625, 0.375]], [[-0.125, 0.3125, -0.1875], [0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375]], [[0.0625, -0.4375, 0.0], [0.4375, -0.0625, 0.375], [-0.125, 0.3125, -0.1875]], [[0.25, -0.25, 0.1875], [-0.3125, 0.125, -0.375], [0.0625, -0.4375, 0.0]]]> : tensor<8x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x4x9x9xf32> to tensor<2x4x11x11xf32>
  %e9 = tensor.empty() : tensor<2x8x9x9xf32>
  %binit = linalg.generic {indexing_maps = [#ch1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<8xf32>) outs(%e9 : tensor<2x8x9x9xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<2x8x9x9xf32>
  %c1 = linalg.generic {indexing_maps = [#convin, #convf, #convout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xp, %k1 : tensor<2x4x11x11xf32>, tensor<8x4x3x3xf32>) outs(%binit : tensor<2x8x9x9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x9x9xf32>
  %s3 = tensor.expand_shape %s [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #chu, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %s3 : tensor<2x8x9x9xf32>, tensor<8x1x1xf32>) outs(%e9 : tensor<2x8x9x9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x9x9xf32>
  %bp = tensor.pad %bn low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<2x8x9x9xf32> to tensor<2x8x11x11xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e5 = tensor.empty() : tensor<2x8x5x5xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%e5 : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %mp = linalg.generic {indexing_maps = [#poolin, #poolw, #poolout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%bp, %win : tensor<2x8x11x11xf32>, tensor<3x3xf32>) outs(%pf : tensor<2x8x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x8x5x5xf32>
  %dp = tensor.pad %mp low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x5x5xf32> to tensor<2x8x7x7xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  %dw = linalg.generic {indexing_maps = [#dwin, #dwf, #poolout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%dp, %kdw : tensor<2x8x7x7xf32>, tensor<8x3x3xf32>) outs(%zf : tensor<2x8x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x5x5xf32>
  %c2 = linalg.generic {indexing_maps = [#pwin, #pwf, #pwout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%dw, %w2 : tensor<2x8x5x5xf32>, tensor<8x8x1x1xf32>) outs(%zf : tensor<2x8x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x5x5xf32>
  %add = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %mp : tensor<2x8x5x5xf32>, tensor<2x8x5x5xf32>) outs(%e5 : tensor<2x8x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.addf %a, %b : f32
    %w = arith.mulf %r, %fi : f32
    linalg.yield %w : f32
  } -> tensor<2x8x5x5xf32>
  %e1 = tensor.empty() : tensor<2x8x1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #pool1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%add : tensor<2x8x5x5xf32>) outs(%f1 : tensor<2x8x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8x1x1xf32>
  return %sum, %add : tensor<2x8x1x1xf32>, tensor<2x8x5x5xf32>
}

func.func @main() {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %xd = call @rand4(%k0, %k2, %k4, %k9, %k9) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<2x4x9x9xf32>
  %wd = call @rand4(%k1, %k8, %k8, %k1, %k1) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<8x8x1x1xf32>
  %sd = call @rand1(%k3, %k8) : (index, index) -> tensor<?xf32>
  %s = tensor.cast %sd : tensor<?xf32> to tensor<8xf32>
  %y, %b = call @net(%x, %w, %s) : (tensor<2x4x9x9xf32>, tensor<8x8x1x1xf32>, tensor<8xf32>) -> (tensor<2x8x1x1xf32>, tensor<2x8x5x5xf32>)
  %ry, %rb = call @ref_net(%x, %w, %s) : (tensor<2x4x9x9xf32>, tensor<8x8x1x1xf32>, tensor<8xf32>) -> (tensor<2x8x1x1xf32>, tensor<2x8x5x5xf32>)
  %yx = tensor.cast %y : tensor<2x8x1x1xf32> to tensor<?x?x?x?xf32>
  %ryx = tensor.cast %ry : tensor<2x8x1x1xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%yx, %ryx) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1
  %bx = tensor.cast %b : tensor<2x8x5x5xf32> to tensor<?x?x?x?xf32>
  %rbx = tensor.cast %rb : tensor<2x8x5x5xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%bx, %rbx) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1
  // Negative control: the block output against twice the reference's.
  %e = tensor.empty() : tensor<2x8x5x5xf32>
  %two = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rb : tensor<2x8x5x5xf32>) outs(%e : tensor<2x8x5x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x8x5x5xf32>
  %twox = tensor.cast %two : tensor<2x8x5x5xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%bx, %twox) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %bad : i1
  return
}
