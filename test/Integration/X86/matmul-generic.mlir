// Matmuls written as linalg.generic (StableHLO's dot_general, generalized
// IR) and linalg.contract through lowp-pipeline-x86: named by
// lowp-fold-layout-into-contractions, they take the kernels instead of the
// loop path. Cases: (1) an f32 generic with its loops in the order
// (m, k, n) and B transposed (nn.Linear's [out, in] weight); (2) a bf16
// batched generic widening its inputs in the body, f32 accumulator;
// (3) linalg.contract in f32; (4) a negative control: case 1 against a
// reference that drops the last k must fail. References: linalg.generic
// with math.fma bodies (not a contraction the pass names: the loop path),
// on bf16-exact inputs, 1e-5 relative + 1e-5 absolute.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=REMARK
// REMARK-NOT: generic loop path
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id = affine_map<(i, j) -> (i, j)>
#mA = affine_map<(i, j, k) -> (i, k)>
#mB = affine_map<(i, j, k) -> (k, j)>
#mC = affine_map<(i, j, k) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>

// Deterministic inputs in [-11/7, 11/7], not representable in bf16.
func.func @fill(%seed: index, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
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

// The reference over the first `kEnd` k of A (M x K) * B (K x N).
func.func @reference(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %kEnd: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %as = tensor.extract_slice %a[0, 0] [%m, %kEnd] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %bs = tensor.extract_slice %b[0, 0] [%kEnd, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%as, %bs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// 1 when every |x - ref| <= 1e-5 |ref| + 1e-5.
func.func @within(%x: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i1 {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id, #id, #scalar],
                           iterator_types = ["reduction", "reduction"]}
      ins(%x, %ref : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %m: f32):
    %d = arith.subf %v, %r : f32
    %ad = math.absf %d : f32
    %ar = math.absf %r : f32
    %rel = arith.constant 1.0e-5 : f32
    %t = arith.mulf %ar, %rel : f32
    %tol = arith.addf %t, %rel : f32
    %excess = arith.subf %ad, %tol : f32
    %n = arith.maximumf %m, %excess : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %w = tensor.extract %worst[] : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %ok = arith.cmpf ole, %w, %zero : f32
  return %ok : i1
}

// bf16-exact values in f32: the inputs rounded to bf16 and back.
func.func @bf16_values(%seed: index, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %v = call @fill(%seed, %e) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %h = lowp.cast %v : tensor<?x?xf32> to tensor<?x?xbf16>
  %r = lowp.cast %h : tensor<?x?xbf16> to tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A (50x40) * W^T (W: 64x40), loops (m, k, n).
func.func @linear(%a: tensor<50x40xf32>, %w: tensor<64x40xf32>) -> tensor<50x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x64xf32>) -> tensor<50x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k, j) -> (i, k)>, affine_map<(i, k, j) -> (j, k)>, affine_map<(i, k, j) -> (i, j)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : tensor<50x40xf32>, tensor<64x40xf32>) outs(%c : tensor<50x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<50x64xf32>
  return %r : tensor<50x64xf32>
}

func.func @bmm_bf16(%a: tensor<3x9x24xbf16>, %b: tensor<3x24x40xbf16>) -> tensor<3x9x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x9x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x9x40xf32>) -> tensor<3x9x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x9x24xbf16>, tensor<3x24x40xbf16>) outs(%c : tensor<3x9x40xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x9x40xf32>
  return %r : tensor<3x9x40xf32>
}

func.func @contract(%a: tensor<50x40xf32>, %b: tensor<40x64xf32>) -> tensor<50x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x64xf32>) -> tensor<50x64xf32>
  %r = linalg.contract indexing_maps = [#mA, #mB, #mC]
      ins(%a, %b : tensor<50x40xf32>, tensor<40x64xf32>) outs(%c : tensor<50x64xf32>) -> tensor<50x64xf32>
  return %r : tensor<50x64xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c24 = arith.constant 24 : index
  %c27 = arith.constant 27 : index
  %c39 = arith.constant 39 : index
  %c40 = arith.constant 40 : index
  %c50 = arith.constant 50 : index
  %c64 = arith.constant 64 : index
  %c72 = arith.constant 72 : index
  %true = arith.constant true

  // 1. linear: A * W^T.
  %a_d = call @bf16_values(%c0, %c50, %c40) : (index, index, index) -> tensor<?x?xf32>
  %w_d = call @bf16_values(%c1, %c64, %c40) : (index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<50x40xf32>
  %w = tensor.cast %w_d : tensor<?x?xf32> to tensor<64x40xf32>
  %y1 = call @linear(%a, %w) : (tensor<50x40xf32>, tensor<64x40xf32>) -> tensor<50x64xf32>
  %y1d = tensor.cast %y1 : tensor<50x64xf32> to tensor<?x?xf32>
  %e40 = tensor.empty() : tensor<40x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x40xf32>) outs(%e40 : tensor<40x64xf32>) permutation = [1, 0]
  %wt_d = tensor.cast %wt : tensor<40x64xf32> to tensor<?x?xf32>
  %r1 = call @reference(%a_d, %wt_d, %c40) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %ok1 = call @within(%y1d, %r1) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 2. bmm_bf16, batch by batch.
  %x_d = call @bf16_values(%c2, %c27, %c24) : (index, index, index) -> tensor<?x?xf32>
  %z_d = call @bf16_values(%c3, %c72, %c40) : (index, index, index) -> tensor<?x?xf32>
  %x2 = tensor.cast %x_d : tensor<?x?xf32> to tensor<27x24xf32>
  %z2 = tensor.cast %z_d : tensor<?x?xf32> to tensor<72x40xf32>
  %x3 = tensor.expand_shape %x2 [[0, 1], [2]] output_shape [3, 9, 24] : tensor<27x24xf32> into tensor<3x9x24xf32>
  %z3 = tensor.expand_shape %z2 [[0, 1], [2]] output_shape [3, 24, 40] : tensor<72x40xf32> into tensor<3x24x40xf32>
  %xb = lowp.cast %x3 : tensor<3x9x24xf32> to tensor<3x9x24xbf16>
  %zb = lowp.cast %z3 : tensor<3x24x40xf32> to tensor<3x24x40xbf16>
  %bm = call @bmm_bf16(%xb, %zb) : (tensor<3x9x24xbf16>, tensor<3x24x40xbf16>) -> tensor<3x9x40xf32>
  %ok2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%all = %true) -> (i1) {
    %xs = tensor.extract_slice %x3[%i, 0, 0] [1, 9, 24] [1, 1, 1] : tensor<3x9x24xf32> to tensor<9x24xf32>
    %zs = tensor.extract_slice %z3[%i, 0, 0] [1, 24, 40] [1, 1, 1] : tensor<3x24x40xf32> to tensor<24x40xf32>
    %gs = tensor.extract_slice %bm[%i, 0, 0] [1, 9, 40] [1, 1, 1] : tensor<3x9x40xf32> to tensor<9x40xf32>
    %xs_d = tensor.cast %xs : tensor<9x24xf32> to tensor<?x?xf32>
    %zs_d = tensor.cast %zs : tensor<24x40xf32> to tensor<?x?xf32>
    %gs_d = tensor.cast %gs : tensor<9x40xf32> to tensor<?x?xf32>
    %r = func.call @reference(%xs_d, %zs_d, %c24) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %ok = func.call @within(%gs_d, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    %both = arith.andi %all, %ok : i1
    scf.yield %both : i1
  }
  vector.print %ok2 : i1

  // 3. contract: A * W^T again, through linalg.contract on the transpose.
  %y3 = call @contract(%a, %wt) : (tensor<50x40xf32>, tensor<40x64xf32>) -> tensor<50x64xf32>
  %y3d = tensor.cast %y3 : tensor<50x64xf32> to tensor<?x?xf32>
  %ok3 = call @within(%y3d, %r1) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 4. Negative control.
  %short = call @reference(%a_d, %wt_d, %c39) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %bad = call @within(%y1d, %short) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
