// Executes bf16 and f32 matmuls lowered by lowp-pipeline-x86 on this CPU and
// compares them with a reference matmul written as a linalg.generic (which
// the kernel pass leaves alone, so it takes the plain loop path). M = 50 is
// not a multiple of the register block: the tail block is exercised too.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 mr=4 nr=8" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
//
// The AVX512_BF16 path (vdpbf16ps on VNNI-packed B) runs where the host has it.
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// Sapphire Rapids without AMX: the same bf16 through the f32 FMA kernels
// on widened operands (its vdpbf16ps is half their rate).
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}

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

func.func @reference(%a: tensor<50x96xf32>, %b: tensor<96x64xf32>) -> tensor<50x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x64xf32>) -> tensor<50x64xf32>
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<50x96xf32>, tensor<96x64xf32>) outs(%c : tensor<50x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<50x64xf32>
  return %r : tensor<50x64xf32>
}

// 1 when every |x - ref| <= rel * |ref| + abs.
func.func @within(%x: tensor<50x64xf32>, %ref: tensor<50x64xf32>, %rel: f32, %abs: f32) -> i1 {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id, #id, #scalar],
                           iterator_types = ["reduction", "reduction"]}
      ins(%x, %ref : tensor<50x64xf32>, tensor<50x64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %m: f32):
    %d = arith.subf %v, %r : f32
    %ad = math.absf %d : f32
    %ar = math.absf %r : f32
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
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<50x96xf32>
  %eb = tensor.empty() : tensor<96x64xf32>
  %ea_d = tensor.cast %ea : tensor<50x96xf32> to tensor<?x?xf32>
  %eb_d = tensor.cast %eb : tensor<96x64xf32> to tensor<?x?xf32>
  %a_d = call @fill(%c0, %ea_d) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %b_d = call @fill(%c3, %eb_d) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<50x96xf32>
  %b = tensor.cast %b_d : tensor<?x?xf32> to tensor<96x64xf32>
  %ec = tensor.empty() : tensor<50x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ec : tensor<50x64xf32>) -> tensor<50x64xf32>

  // f32 through the kernel: only the summation order differs.
  %f32 = linalg.matmul ins(%a, %b : tensor<50x96xf32>, tensor<96x64xf32>)
                       outs(%c : tensor<50x64xf32>) -> tensor<50x64xf32>
  %ref32 = call @reference(%a, %b) : (tensor<50x96xf32>, tensor<96x64xf32>) -> tensor<50x64xf32>
  %rel32 = arith.constant 1.0e-5 : f32
  %abs32 = arith.constant 1.0e-5 : f32
  %ok32 = call @within(%f32, %ref32, %rel32, %abs32) : (tensor<50x64xf32>, tensor<50x64xf32>, f32, f32) -> i1
  // CHECK: 1
  vector.print %ok32 : i1

  // bf16 storage, f32 accumulation, result rounded to bf16. The reference
  // multiplies the same bf16-rounded inputs in f32; the only further error
  // is the final rounding (half an ulp: at most 2^-8 relative, bf16's unit
  // roundoff) plus the summation order (K * 2^-24 relative to the sum of
  // |terms| <= 240: below 2e-3 absolute).
  %ab = lowp.cast %a : tensor<50x96xf32> to tensor<50x96xbf16>
  %bb = lowp.cast %b : tensor<96x64xf32> to tensor<96x64xbf16>
  %mm = linalg.matmul ins(%ab, %bb : tensor<50x96xbf16>, tensor<96x64xbf16>)
                      outs(%c : tensor<50x64xf32>) -> tensor<50x64xf32>
  %mmb = lowp.cast %mm : tensor<50x64xf32> to tensor<50x64xbf16>
  %out = lowp.cast %mmb : tensor<50x64xbf16> to tensor<50x64xf32>
  %a16 = lowp.cast %ab : tensor<50x96xbf16> to tensor<50x96xf32>
  %b16 = lowp.cast %bb : tensor<96x64xbf16> to tensor<96x64xf32>
  %ref16 = call @reference(%a16, %b16) : (tensor<50x96xf32>, tensor<96x64xf32>) -> tensor<50x64xf32>
  %rel16 = arith.constant 0.00390625 : f32
  %abs16 = arith.constant 2.0e-3 : f32
  %ok16 = call @within(%out, %ref16, %rel16, %abs16) : (tensor<50x64xf32>, tensor<50x64xf32>, f32, f32) -> i1
  // CHECK-NEXT: 1
  vector.print %ok16 : i1

  // Negative control: the unrounded f32 reference misses the bf16 result by
  // more than f32 tolerance, so the comparison does discriminate.
  %bad = call @within(%out, %ref32, %rel32, %abs32) : (tensor<50x64xf32>, tensor<50x64xf32>, f32, f32) -> i1
  // CHECK-NEXT: 0
  vector.print %bad : i1
  return
}
