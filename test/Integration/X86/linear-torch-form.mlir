// nn.Linear on an NHWC activation as torch-mlir's TorchToLinalg writes it
// (ConvNeXt's MLP, ViT's MLP): the [out, in] weight transposed by a
// copy-only linalg.generic with a permuted output map (not
// linalg.transpose), broadcast over the activation's rows by another
// generic, a batch_matmul of the activation viewed as 8x8x32 with it, then
// the bias add. lowp-fold-layout-into-contractions takes the generic as the
// transpose it is: one GEMM of 64 rows reading the weight through (n, k),
// the kernels transposing it while packing (it was scalar loops reading the
// weight with a stride, with no remark). Case 1 against a reference on the
// plain loop path (a linalg.generic with a math.fma body on the untouched
// weight), |x - ref| <= 1e-5 |ref| + 1e-4; case 2, a negative control: the
// same against a reference that drops the last k must fail.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// No loop path and no copy per call, on either target:
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=REMARK
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=REMARK
// REMARK-NOT: generic loop path
// REMARK-NOT: materialized
// The copies are gone before the kernels run; the rows are one matmul:
// RUN: fp-opt %s -lowp-fold-layout-into-contractions | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @linear
// FOLD-NOT: linalg.transpose
// FOLD-NOT: linalg.batch_matmul
// FOLD: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %arg1 : tensor<64x32xf32>, tensor<48x32xf32>)
// FOLD-LABEL: func.func @reference
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>
#mA = affine_map<(i, j, k) -> (i, k)>
#mWt = affine_map<(i, j, k) -> (j, k)>
#mC = affine_map<(i, j, k) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#scalar = affine_map<(i, j) -> ()>

// x (1x8x8x32) W^T + bias (W: 48x32), in torch-mlir's form.
func.func @linear(%x: tensor<1x8x8x32xf32>, %w: tensor<48x32xf32>, %bias: tensor<48xf32>) -> tensor<1x8x8x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %wt = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<48x32xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x48xf32>
  %xc = tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<1x8x8x32xf32> into tensor<8x8x32xf32>
  %eb = tensor.empty() : tensor<8x32x48xf32>
  %wb = linalg.generic {indexing_maps = [#rows3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%wt : tensor<32x48xf32>) outs(%eb : tensor<8x32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x32x48xf32>
  %ey = tensor.empty() : tensor<8x8x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x8x48xf32>) -> tensor<8x8x48xf32>
  %y = linalg.batch_matmul ins(%xc, %wb : tensor<8x8x32xf32>, tensor<8x32x48xf32>) outs(%z : tensor<8x8x48xf32>) -> tensor<8x8x48xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [1, 8, 8, 48] : tensor<8x8x48xf32> into tensor<1x8x8x48xf32>
  %eo = tensor.empty() : tensor<1x8x8x48xf32>
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y4, %bias : tensor<1x8x8x48xf32>, tensor<48xf32>) outs(%eo : tensor<1x8x8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x48xf32>
  return %r : tensor<1x8x8x48xf32>
}

// bias + the first `kEnd` k of X (M x K) * W^T (W: N x K), plain loops.
func.func @reference(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %bias: tensor<?xf32>, %kEnd: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %w, %c0 : tensor<?x?xf32>
  %xs = tensor.extract_slice %x[0, 0] [%m, %kEnd] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %ws = tensor.extract_slice %w[0, 0] [%n, %kEnd] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.generic {indexing_maps = [#col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#mA, #mWt, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xs, %ws : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = math.fma %a, %b, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Deterministic values in [-11/7, 11/7].
func.func @fill(%seed: index, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
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
    %m = arith.remui %s2, %c23 : index
    %d = arith.subi %m, %c11 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %seven = arith.constant 7.0 : f32
    %v = arith.divf %f, %seven : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// 1 when every |x - ref| <= 1e-5 |ref| + 1e-4.
func.func @within(%x: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i1 {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #scalar],
                           iterator_types = ["reduction", "reduction"]}
      ins(%x, %ref : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %m: f32):
    %d = arith.subf %v, %r : f32
    %ad = math.absf %d : f32
    %ar = math.absf %r : f32
    %rel = arith.constant 1.0e-5 : f32
    %abs = arith.constant 1.0e-4 : f32
    %t = arith.mulf %ar, %rel : f32
    %tol = arith.addf %t, %abs : f32
    %excess = arith.subf %ad, %tol : f32
    %n = arith.maximumf %m, %excess : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %w = tensor.extract %worst[] : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %ok = arith.cmpf ole, %w, %zero : f32
  return %ok : i1
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true

  %ex = tensor.empty(%c64, %c32) : tensor<?x?xf32>
  %x_d = call @fill(%c0, %ex) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %ew = tensor.empty(%c48, %c32) : tensor<?x?xf32>
  %w_d = call @fill(%c1, %ew) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %eb = tensor.empty(%c1, %c48) : tensor<?x?xf32>
  %b2_d = call @fill(%c2, %eb) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %b2 = tensor.cast %b2_d : tensor<?x?xf32> to tensor<1x48xf32>
  %bias = tensor.collapse_shape %b2 [[0, 1]] : tensor<1x48xf32> into tensor<48xf32>
  %bias_d = tensor.cast %bias : tensor<48xf32> to tensor<?xf32>

  %x2 = tensor.cast %x_d : tensor<?x?xf32> to tensor<64x32xf32>
  %x = tensor.expand_shape %x2 [[0, 1, 2], [3]] output_shape [1, 8, 8, 32] : tensor<64x32xf32> into tensor<1x8x8x32xf32>
  %w = tensor.cast %w_d : tensor<?x?xf32> to tensor<48x32xf32>
  %y = call @linear(%x, %w, %bias) : (tensor<1x8x8x32xf32>, tensor<48x32xf32>, tensor<48xf32>) -> tensor<1x8x8x48xf32>
  %y2 = tensor.collapse_shape %y [[0, 1, 2], [3]] : tensor<1x8x8x48xf32> into tensor<64x48xf32>
  %y_d = tensor.cast %y2 : tensor<64x48xf32> to tensor<?x?xf32>

  // 1. Against the reference.
  %r = call @reference(%x_d, %w_d, %bias_d, %c32) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, index) -> tensor<?x?xf32>
  %ok1 = call @within(%y_d, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 2. Negative control: a reference without the last k.
  %short = call @reference(%x_d, %w_d, %bias_d, %c31) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, index) -> tensor<?x?xf32>
  %bad = call @within(%y_d, %short) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
