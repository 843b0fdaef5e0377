// A matmul of a model converted to bf16 before export (bf16 inputs, a bf16
// zero fill, bf16 outs: written this way, it rounds after every addition)
// compiled as fpopt.torch.compile does for such a model: precision
// inference gives it an f32 accumulator (the result rounded to bf16 once),
// then lowp-pipeline-x86 takes it with its GEMM kernel. On avx2 the
// default policy (low=auto, which demotes nothing there) does it too. Executed and
// compared with the same products summed in f64 from the same bf16 inputs.
// The inputs are positive (about 1), K = 1024: the sums reach about 1000,
// where bf16's spacing is 4 to 8, so adding in bf16 loses most terms (the
// loop path without the decision: the BF16-ACC lines, over 20% low), while
// an f32 accumulator leaves one rounding of the result: |out - ref| <=
// 2^-8 |ref| plus f32's share over K terms.
//
// RUN: fp-opt %s --lowp-infer-precision="low=bf16" -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefix=F32-ACC
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=avx2" -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefix=F32-ACC
// RUN: %if x86-avx512bf16 %{ fp-opt %s --lowp-infer-precision="low=bf16" -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefix=F32-ACC %}
// The GEMM kernel takes it (no remark of a loop path):
// RUN: fp-opt %s --lowp-infer-precision="low=bf16" -lowp-pipeline-x86=target=avx2 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=KERNEL --allow-empty
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=avx2" -lowp-pipeline-x86=target=avx2 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=KERNEL --allow-empty
// Without the decision the matmul keeps its bf16 accumulator: the loop
// path, which says so, and the error of adding in bf16.
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>%t.remarks \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefix=BF16-ACC
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// KERNEL-NOT: generic loop path
// F32-ACC: within one rounding: 1
// BF16-ACC: within one rounding: 0
// BF16-ACC: more than 20% low somewhere: 1
// REMARK: remark: generic loop path for 'linalg.matmul': needs float inputs of at most 32 bits of one type and an f32 output

#id = affine_map<(i, j) -> (i, j)>
#mA = affine_map<(i, j, k) -> (i, k)>
#mB = affine_map<(i, j, k) -> (k, j)>
#mC = affine_map<(i, j, k) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>

// 1 + ((i * 7 + j * 13 + seed) mod 23 - 11) / 23, rounded to bf16.
func.func @fill(%seed: index, %e: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xbf16>) {
  ^bb0(%o: bf16):
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
    %n = arith.constant 23.0 : f32
    %one = arith.constant 1.0 : f32
    %q = arith.divf %f, %n : f32
    %v = arith.addf %q, %one : f32
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}

// The model: what a front end writes for a bf16 torch.mm.
func.func @model(%a: tensor<12x1024xbf16>, %b: tensor<1024x40xbf16>) -> tensor<12x40xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<12x40xbf16>
  %c = linalg.fill ins(%zero : bf16) outs(%e : tensor<12x40xbf16>) -> tensor<12x40xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<12x1024xbf16>, tensor<1024x40xbf16>)
                     outs(%c : tensor<12x40xbf16>) -> tensor<12x40xbf16>
  return %r : tensor<12x40xbf16>
}

// The same products summed in f64 (a generic: no kernel takes it).
func.func @reference(%a: tensor<12x1024xbf16>, %b: tensor<1024x40xbf16>) -> tensor<12x40xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<12x40xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<12x40xf64>) -> tensor<12x40xf64>
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<12x1024xbf16>, tensor<1024x40xbf16>) outs(%c : tensor<12x40xf64>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f64):
    %xw = arith.extf %x : bf16 to f64
    %yw = arith.extf %y : bf16 to f64
    %s = math.fma %xw, %yw, %acc : f64
    linalg.yield %s : f64
  } -> tensor<12x40xf64>
  return %r : tensor<12x40xf64>
}

// The largest (x - ref) * sign / |ref| over the elements: sign 1 measures
// how far above, -1 how far below the reference.
func.func @worst(%x: tensor<12x40xbf16>, %ref: tensor<12x40xf64>, %sign: f64) -> f64 {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %e = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%ninf : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %w = linalg.generic {indexing_maps = [#id, #id, #scalar],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x, %ref : tensor<12x40xbf16>, tensor<12x40xf64>) outs(%init : tensor<f64>) {
  ^bb0(%v: bf16, %r: f64, %m: f64):
    %vw = arith.extf %v : bf16 to f64
    %d = arith.subf %vw, %r : f64
    %ar = math.absf %r : f64
    %q = arith.divf %d, %ar : f64
    %sq = arith.mulf %q, %sign : f64
    %n = arith.maximumf %m, %sq : f64
    linalg.yield %n : f64
  } -> tensor<f64>
  %r = tensor.extract %w[] : tensor<f64>
  return %r : f64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %ea = tensor.empty() : tensor<12x1024xbf16>
  %eb = tensor.empty() : tensor<1024x40xbf16>
  %ea_d = tensor.cast %ea : tensor<12x1024xbf16> to tensor<?x?xbf16>
  %eb_d = tensor.cast %eb : tensor<1024x40xbf16> to tensor<?x?xbf16>
  %a_d = call @fill(%c0, %ea_d) : (index, tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %b_d = call @fill(%c5, %eb_d) : (index, tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %a = tensor.cast %a_d : tensor<?x?xbf16> to tensor<12x1024xbf16>
  %b = tensor.cast %b_d : tensor<?x?xbf16> to tensor<1024x40xbf16>
  %out = call @model(%a, %b) : (tensor<12x1024xbf16>, tensor<1024x40xbf16>) -> tensor<12x40xbf16>
  %ref = call @reference(%a, %b) : (tensor<12x1024xbf16>, tensor<1024x40xbf16>) -> tensor<12x40xf64>
  %up = arith.constant 1.0 : f64
  %down = arith.constant -1.0 : f64
  %above = call @worst(%out, %ref, %up) : (tensor<12x40xbf16>, tensor<12x40xf64>, f64) -> f64
  %below = call @worst(%out, %ref, %down) : (tensor<12x40xbf16>, tensor<12x40xf64>, f64) -> f64
  // One rounding to bf16 (2^-8 relative) and f32's 1024 * 2^-24.
  %bound = arith.constant 0.0041 : f64
  %a_ok = arith.cmpf ole, %above, %bound : f64
  %b_ok = arith.cmpf ole, %below, %bound : f64
  %ok = arith.andi %a_ok, %b_ok : i1
  vector.print str "within one rounding: "
  vector.print %ok : i1
  %fifth = arith.constant 0.2 : f64
  %low = arith.cmpf ogt, %below, %fifth : f64
  vector.print str "more than 20% low somewhere: "
  vector.print %low : i1
  return
}
