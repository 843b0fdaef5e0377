// bf16 matmuls with an odd K (97; a batch_matmul with K = 7) through
// lowp-pipeline-x86. Where the target has the bf16 dot kernel (vdpbf16ps,
// AMX tiles), which reads K in pairs, they run on the f32 FMA kernel with
// widened operands instead (a remark says so; the loop path before);
// elsewhere they always did. The products of bf16 values are exact in f32,
// so the result is compared with a reference linalg.generic (left to the
// loop path) on the same bf16-rounded inputs in f32 to 1e-5 relative +
// 1e-5 absolute (the summation order alone). Negative control: a reference
// without the last (odd) k term must fail the check.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: %if x86-amx %{ fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: odd K (97): a bf16 GEMM on the f32 FMA kernel
// REMARK-DAG: remark: odd K (7): a bf16 GEMM on the f32 FMA kernel
// REMARK-NOT: generic loop path for 'linalg.matmul'
// REMARK-NOT: generic loop path for 'linalg.batch_matmul'
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
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

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c40 = arith.constant 40 : index
  %c50 = arith.constant 50 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %c97 = arith.constant 97 : index
  %c21 = arith.constant 21 : index
  %c27 = arith.constant 27 : index
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32

  // 1. matmul 50x97 * 97x64.
  %a_d = call @bf16_values(%c0, %c50, %c97) : (index, index, index) -> tensor<?x?xf32>
  %b_d = call @bf16_values(%c3, %c97, %c64) : (index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<50x97xf32>
  %b = tensor.cast %b_d : tensor<?x?xf32> to tensor<97x64xf32>
  %ab = lowp.cast %a : tensor<50x97xf32> to tensor<50x97xbf16>
  %bb = lowp.cast %b : tensor<97x64xf32> to tensor<97x64xbf16>
  %ec = tensor.empty() : tensor<50x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ec : tensor<50x64xf32>) -> tensor<50x64xf32>
  %mm = linalg.matmul ins(%ab, %bb : tensor<50x97xbf16>, tensor<97x64xbf16>)
                      outs(%c : tensor<50x64xf32>) -> tensor<50x64xf32>
  %mm_d = tensor.cast %mm : tensor<50x64xf32> to tensor<?x?xf32>
  %ref = call @reference(%a_d, %b_d, %c97) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %ok1 = call @within(%mm_d, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 2. batch_matmul 3 x (9x7 * 7x40), compared batch by batch.
  %x_d = call @bf16_values(%c6, %c27, %c7) : (index, index, index) -> tensor<?x?xf32>
  %y_d = call @bf16_values(%c9, %c21, %c40) : (index, index, index) -> tensor<?x?xf32>
  %x2 = tensor.cast %x_d : tensor<?x?xf32> to tensor<27x7xf32>
  %y2 = tensor.cast %y_d : tensor<?x?xf32> to tensor<21x40xf32>
  %x3 = tensor.expand_shape %x2 [[0, 1], [2]] output_shape [3, 9, 7] : tensor<27x7xf32> into tensor<3x9x7xf32>
  %y3 = tensor.expand_shape %y2 [[0, 1], [2]] output_shape [3, 7, 40] : tensor<21x40xf32> into tensor<3x7x40xf32>
  %xb = lowp.cast %x3 : tensor<3x9x7xf32> to tensor<3x9x7xbf16>
  %yb = lowp.cast %y3 : tensor<3x7x40xf32> to tensor<3x7x40xbf16>
  %e3 = tensor.empty() : tensor<3x9x40xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x9x40xf32>) -> tensor<3x9x40xf32>
  %bm = linalg.batch_matmul ins(%xb, %yb : tensor<3x9x7xbf16>, tensor<3x7x40xbf16>)
                            outs(%z3 : tensor<3x9x40xf32>) -> tensor<3x9x40xf32>
  %ok2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%all = %true) -> (i1) {
    %xs = tensor.extract_slice %x3[%i, 0, 0] [1, 9, 7] [1, 1, 1] : tensor<3x9x7xf32> to tensor<9x7xf32>
    %ys = tensor.extract_slice %y3[%i, 0, 0] [1, 7, 40] [1, 1, 1] : tensor<3x7x40xf32> to tensor<7x40xf32>
    %gs = tensor.extract_slice %bm[%i, 0, 0] [1, 9, 40] [1, 1, 1] : tensor<3x9x40xf32> to tensor<9x40xf32>
    %xs_d = tensor.cast %xs : tensor<9x7xf32> to tensor<?x?xf32>
    %ys_d = tensor.cast %ys : tensor<7x40xf32> to tensor<?x?xf32>
    %gs_d = tensor.cast %gs : tensor<9x40xf32> to tensor<?x?xf32>
    %r = func.call @reference(%xs_d, %ys_d, %c7) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %ok = func.call @within(%gs_d, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    %both = arith.andi %all, %ok : i1
    scf.yield %both : i1
  }
  vector.print %ok2 : i1

  // 3. Negative control: case 1 against the reference over the first 96 k.
  %short = call @reference(%a_d, %b_d, %c96) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %bad = call @within(%mm_d, %short) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
