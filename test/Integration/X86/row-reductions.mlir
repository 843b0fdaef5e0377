// Row reductions as lowp-pipeline-x86 lowers them after
// lowp-promote-reduction-accumulators + affine-super-vectorize
// {vectorize-reductions}: vector accumulators and one horizontal reduction
// per row (softmax's max and sum, layer norm's mean and variance, RMS
// norm), and a reduction along the outer dimension (a column sum: vector
// accumulators in memory). Rows of 100 are no multiple of 8 or 16: the
// masked tail iteration is exercised. Each result is compared with the
// same computation in f64 in the same program (no approximation or
// vectorized reassociation there that matters at f32 precision):
// |y - ref| <= (n + 8) 2^-24 (|ref| + 1), n the reduction length (the f32
// summation bound n u, plus a few ulp for exp, division and sqrt); every
// f32 result must also differ from f64 somewhere (err > 0).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o %t.ll.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.ll.mlir
// RUN: mlir-runner %t.ll.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s %}
//
// The f32 row reductions are vector: horizontal reductions of 8-lane
// accumulators, and no scalar f32 max/add loop is left for them.
// IR-DAG: llvm.intr.vector.reduce.fmaximum({{.*}}) : (vector<8xf32>) -> f32
// IR-DAG: "llvm.intr.vector.reduce.fadd"({{.*}}) <{{.*}}> : (f32, vector<8xf32>) -> f32

// CHECK-NOT: FAIL
// CHECK: PASS softmax_100
// CHECK: PASS softmax_768
// CHECK: PASS layernorm_100
// CHECK: PASS layernorm_768
// CHECK: PASS rmsnorm_768
// CHECK: PASS column_sum_100
// CHECK-NOT: FAIL

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#all = affine_map<(d0, d1) -> ()>


// Deterministic inputs ((7 i + 13 j + seed) mod 23 - 11) / 7 * scale.
func.func @input_16x768(%seed: index, %scale: f32) -> tensor<16x768xf32> {
  %e = tensor.empty() : tensor<16x768xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<16x768xf32>) {
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
    %w = arith.mulf %v, %scale : f32
    linalg.yield %w : f32
  } -> tensor<16x768xf32>
  return %r : tensor<16x768xf32>
}

func.func @widen_16x768(%x: tensor<16x768xf32>) -> tensor<16x768xf64> {
  %e = tensor.empty() : tensor<16x768xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x768xf32>) outs(%e : tensor<16x768xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<16x768xf64>
  return %r : tensor<16x768xf64>
}

// max over elements of |y - ref| / (|ref| + 1), against (n + 8) 2^-24.
func.func @check_16x768(%name: i32, %y: tensor<16x768xf32>, %r: tensor<16x768xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%es : tensor<f64>) -> tensor<f64>
  %err = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y, %r : tensor<16x768xf32>, tensor<16x768xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f32, %b: f64, %acc: f64):
    %one = arith.constant 1.0 : f64
    %a64 = arith.extf %a : f32 to f64
    %d = arith.subf %a64, %b : f64
    %ad = math.absf %d : f64
    %mag = math.absf %b : f64
    %den = arith.addf %mag, %one : f64
    %q = arith.divf %ad, %den : f64
    %m = arith.maximumf %acc, %q : f64
    linalg.yield %m : f64
  } -> tensor<f64>
  %e = tensor.extract %err[] : tensor<f64>
  return %e : f64
}

func.func @softmax_16x768_f32(%x: tensor<16x768xf32>) -> tensor<16x768xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf32>) outs(%mi : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16x768xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<16x768xf32>, tensor<16xf32>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<16x768xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<16x768xf32>) outs(%si : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<16x768xf32>, tensor<16xf32>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<16x768xf32>
  return %y : tensor<16x768xf32>
}

func.func @layernorm_16x768_f32(%x: tensor<16x768xf32>) -> tensor<16x768xf32> {
  %zero = arith.constant 0.0 : f32
  %len = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %e1 = tensor.empty() : tensor<16x768xf32>
  %mi = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf32>) outs(%mi : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x768xf32>, tensor<16xf32>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %mean = arith.divf %b, %len : f32
    %d = arith.subf %a, %mean : f32
    linalg.yield %d : f32
  } -> tensor<16x768xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<16x768xf32>) outs(%vi : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %ss : tensor<16x768xf32>, tensor<16xf32>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %var = arith.divf %b, %len : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.mulf %a, %rs : f32
    linalg.yield %d : f32
  } -> tensor<16x768xf32>
  return %y : tensor<16x768xf32>
}

func.func @rmsnorm_16x768_f32(%x: tensor<16x768xf32>) -> tensor<16x768xf32> {
  %zero = arith.constant 0.0 : f32
  %len = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %e1 = tensor.empty() : tensor<16x768xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf32>) outs(%vi : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<16x768xf32>, tensor<16xf32>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %var = arith.divf %b, %len : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.mulf %a, %rs : f32
    linalg.yield %d : f32
  } -> tensor<16x768xf32>
  return %y : tensor<16x768xf32>
}

func.func @column_sum_16x768_f32(%x: tensor<16x768xf32>) -> tensor<16x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<768xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%e0 : tensor<768xf32>) -> tensor<768xf32>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<16x768xf32>) outs(%ci : tensor<768xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<768xf32>
  %e1 = tensor.empty() : tensor<16x768xf32>
  %y = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cs : tensor<768xf32>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<16x768xf32>
  return %y : tensor<16x768xf32>
}

func.func @softmax_16x768_f64(%x: tensor<16x768xf64>) -> tensor<16x768xf64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<16xf64>
  %mi = linalg.fill ins(%ninf : f64) outs(%e0 : tensor<16xf64>) -> tensor<16xf64>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf64>) outs(%mi : tensor<16xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.maximumf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<16xf64>
  %e1 = tensor.empty() : tensor<16x768xf64>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<16x768xf64>, tensor<16xf64>) outs(%e1 : tensor<16x768xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %d = arith.subf %a, %b : f64
    %e = math.exp %d : f64
    linalg.yield %e : f64
  } -> tensor<16x768xf64>
  %si = linalg.fill ins(%zero : f64) outs(%e0 : tensor<16xf64>) -> tensor<16xf64>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<16x768xf64>) outs(%si : tensor<16xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<16xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<16x768xf64>, tensor<16xf64>) outs(%e1 : tensor<16x768xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %d = arith.divf %a, %b : f64
    linalg.yield %d : f64
  } -> tensor<16x768xf64>
  return %y : tensor<16x768xf64>
}

func.func @layernorm_16x768_f64(%x: tensor<16x768xf64>) -> tensor<16x768xf64> {
  %zero = arith.constant 0.0 : f64
  %len = arith.constant 768.0 : f64
  %eps = arith.constant 1.0e-05 : f64
  %e0 = tensor.empty() : tensor<16xf64>
  %e1 = tensor.empty() : tensor<16x768xf64>
  %mi = linalg.fill ins(%zero : f64) outs(%e0 : tensor<16xf64>) -> tensor<16xf64>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf64>) outs(%mi : tensor<16xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<16xf64>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x768xf64>, tensor<16xf64>) outs(%e1 : tensor<16x768xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %mean = arith.divf %b, %len : f64
    %d = arith.subf %a, %mean : f64
    linalg.yield %d : f64
  } -> tensor<16x768xf64>
  %vi = linalg.fill ins(%zero : f64) outs(%e0 : tensor<16xf64>) -> tensor<16xf64>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<16x768xf64>) outs(%vi : tensor<16xf64>) {
  ^bb0(%a: f64, %b: f64):
    %sq = arith.mulf %a, %a : f64
    %r = arith.addf %sq, %b : f64
    linalg.yield %r : f64
  } -> tensor<16xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %ss : tensor<16x768xf64>, tensor<16xf64>) outs(%e1 : tensor<16x768xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %var = arith.divf %b, %len : f64
    %ve = arith.addf %var, %eps : f64
    %rs = math.rsqrt %ve : f64
    %d = arith.mulf %a, %rs : f64
    linalg.yield %d : f64
  } -> tensor<16x768xf64>
  return %y : tensor<16x768xf64>
}

func.func @rmsnorm_16x768_f64(%x: tensor<16x768xf64>) -> tensor<16x768xf64> {
  %zero = arith.constant 0.0 : f64
  %len = arith.constant 768.0 : f64
  %eps = arith.constant 1.0e-05 : f64
  %e0 = tensor.empty() : tensor<16xf64>
  %e1 = tensor.empty() : tensor<16x768xf64>
  %vi = linalg.fill ins(%zero : f64) outs(%e0 : tensor<16xf64>) -> tensor<16xf64>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf64>) outs(%vi : tensor<16xf64>) {
  ^bb0(%a: f64, %b: f64):
    %sq = arith.mulf %a, %a : f64
    %r = arith.addf %sq, %b : f64
    linalg.yield %r : f64
  } -> tensor<16xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<16x768xf64>, tensor<16xf64>) outs(%e1 : tensor<16x768xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %var = arith.divf %b, %len : f64
    %ve = arith.addf %var, %eps : f64
    %rs = math.rsqrt %ve : f64
    %d = arith.mulf %a, %rs : f64
    linalg.yield %d : f64
  } -> tensor<16x768xf64>
  return %y : tensor<16x768xf64>
}

func.func @column_sum_16x768_f64(%x: tensor<16x768xf64>) -> tensor<16x768xf64> {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<768xf64>
  %ci = linalg.fill ins(%zero : f64) outs(%e0 : tensor<768xf64>) -> tensor<768xf64>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<16x768xf64>) outs(%ci : tensor<768xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<768xf64>
  %e1 = tensor.empty() : tensor<16x768xf64>
  %y = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cs : tensor<768xf64>) outs(%e1 : tensor<16x768xf64>) {
  ^bb0(%a: f64, %c: f64):
    linalg.yield %a : f64
  } -> tensor<16x768xf64>
  return %y : tensor<16x768xf64>
}

// Deterministic inputs ((7 i + 13 j + seed) mod 23 - 11) / 7 * scale.
func.func @input_37x100(%seed: index, %scale: f32) -> tensor<37x100xf32> {
  %e = tensor.empty() : tensor<37x100xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<37x100xf32>) {
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
    %w = arith.mulf %v, %scale : f32
    linalg.yield %w : f32
  } -> tensor<37x100xf32>
  return %r : tensor<37x100xf32>
}

func.func @widen_37x100(%x: tensor<37x100xf32>) -> tensor<37x100xf64> {
  %e = tensor.empty() : tensor<37x100xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<37x100xf32>) outs(%e : tensor<37x100xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<37x100xf64>
  return %r : tensor<37x100xf64>
}

// max over elements of |y - ref| / (|ref| + 1), against (n + 8) 2^-24.
func.func @check_37x100(%name: i32, %y: tensor<37x100xf32>, %r: tensor<37x100xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%es : tensor<f64>) -> tensor<f64>
  %err = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y, %r : tensor<37x100xf32>, tensor<37x100xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f32, %b: f64, %acc: f64):
    %one = arith.constant 1.0 : f64
    %a64 = arith.extf %a : f32 to f64
    %d = arith.subf %a64, %b : f64
    %ad = math.absf %d : f64
    %mag = math.absf %b : f64
    %den = arith.addf %mag, %one : f64
    %q = arith.divf %ad, %den : f64
    %m = arith.maximumf %acc, %q : f64
    linalg.yield %m : f64
  } -> tensor<f64>
  %e = tensor.extract %err[] : tensor<f64>
  return %e : f64
}

func.func @softmax_37x100_f32(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %e1 = tensor.empty() : tensor<37x100xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<37x100xf32>, tensor<37xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<37x100xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<37x100xf32>) outs(%si : tensor<37xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<37x100xf32>, tensor<37xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<37x100xf32>
  return %y : tensor<37x100xf32>
}

func.func @layernorm_37x100_f32(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %zero = arith.constant 0.0 : f32
  %len = arith.constant 100.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e0 = tensor.empty() : tensor<37xf32>
  %e1 = tensor.empty() : tensor<37x100xf32>
  %mi = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<37x100xf32>, tensor<37xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %mean = arith.divf %b, %len : f32
    %d = arith.subf %a, %mean : f32
    linalg.yield %d : f32
  } -> tensor<37x100xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<37x100xf32>) outs(%vi : tensor<37xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %b : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %ss : tensor<37x100xf32>, tensor<37xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %var = arith.divf %b, %len : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.mulf %a, %rs : f32
    linalg.yield %d : f32
  } -> tensor<37x100xf32>
  return %y : tensor<37x100xf32>
}

func.func @rmsnorm_37x100_f32(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %zero = arith.constant 0.0 : f32
  %len = arith.constant 100.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e0 = tensor.empty() : tensor<37xf32>
  %e1 = tensor.empty() : tensor<37x100xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf32>) outs(%vi : tensor<37xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %b : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<37x100xf32>, tensor<37xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %var = arith.divf %b, %len : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.mulf %a, %rs : f32
    linalg.yield %d : f32
  } -> tensor<37x100xf32>
  return %y : tensor<37x100xf32>
}

func.func @column_sum_37x100_f32(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<100xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%e0 : tensor<100xf32>) -> tensor<100xf32>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<37x100xf32>) outs(%ci : tensor<100xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %e1 = tensor.empty() : tensor<37x100xf32>
  %y = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cs : tensor<100xf32>) outs(%e1 : tensor<37x100xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  } -> tensor<37x100xf32>
  return %y : tensor<37x100xf32>
}

func.func @softmax_37x100_f64(%x: tensor<37x100xf64>) -> tensor<37x100xf64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<37xf64>
  %mi = linalg.fill ins(%ninf : f64) outs(%e0 : tensor<37xf64>) -> tensor<37xf64>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf64>) outs(%mi : tensor<37xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.maximumf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<37xf64>
  %e1 = tensor.empty() : tensor<37x100xf64>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<37x100xf64>, tensor<37xf64>) outs(%e1 : tensor<37x100xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %d = arith.subf %a, %b : f64
    %e = math.exp %d : f64
    linalg.yield %e : f64
  } -> tensor<37x100xf64>
  %si = linalg.fill ins(%zero : f64) outs(%e0 : tensor<37xf64>) -> tensor<37xf64>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<37x100xf64>) outs(%si : tensor<37xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<37xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<37x100xf64>, tensor<37xf64>) outs(%e1 : tensor<37x100xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %d = arith.divf %a, %b : f64
    linalg.yield %d : f64
  } -> tensor<37x100xf64>
  return %y : tensor<37x100xf64>
}

func.func @layernorm_37x100_f64(%x: tensor<37x100xf64>) -> tensor<37x100xf64> {
  %zero = arith.constant 0.0 : f64
  %len = arith.constant 100.0 : f64
  %eps = arith.constant 1.0e-05 : f64
  %e0 = tensor.empty() : tensor<37xf64>
  %e1 = tensor.empty() : tensor<37x100xf64>
  %mi = linalg.fill ins(%zero : f64) outs(%e0 : tensor<37xf64>) -> tensor<37xf64>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf64>) outs(%mi : tensor<37xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<37xf64>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<37x100xf64>, tensor<37xf64>) outs(%e1 : tensor<37x100xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %mean = arith.divf %b, %len : f64
    %d = arith.subf %a, %mean : f64
    linalg.yield %d : f64
  } -> tensor<37x100xf64>
  %vi = linalg.fill ins(%zero : f64) outs(%e0 : tensor<37xf64>) -> tensor<37xf64>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<37x100xf64>) outs(%vi : tensor<37xf64>) {
  ^bb0(%a: f64, %b: f64):
    %sq = arith.mulf %a, %a : f64
    %r = arith.addf %sq, %b : f64
    linalg.yield %r : f64
  } -> tensor<37xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %ss : tensor<37x100xf64>, tensor<37xf64>) outs(%e1 : tensor<37x100xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %var = arith.divf %b, %len : f64
    %ve = arith.addf %var, %eps : f64
    %rs = math.rsqrt %ve : f64
    %d = arith.mulf %a, %rs : f64
    linalg.yield %d : f64
  } -> tensor<37x100xf64>
  return %y : tensor<37x100xf64>
}

func.func @rmsnorm_37x100_f64(%x: tensor<37x100xf64>) -> tensor<37x100xf64> {
  %zero = arith.constant 0.0 : f64
  %len = arith.constant 100.0 : f64
  %eps = arith.constant 1.0e-05 : f64
  %e0 = tensor.empty() : tensor<37xf64>
  %e1 = tensor.empty() : tensor<37x100xf64>
  %vi = linalg.fill ins(%zero : f64) outs(%e0 : tensor<37xf64>) -> tensor<37xf64>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x100xf64>) outs(%vi : tensor<37xf64>) {
  ^bb0(%a: f64, %b: f64):
    %sq = arith.mulf %a, %a : f64
    %r = arith.addf %sq, %b : f64
    linalg.yield %r : f64
  } -> tensor<37xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<37x100xf64>, tensor<37xf64>) outs(%e1 : tensor<37x100xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %var = arith.divf %b, %len : f64
    %ve = arith.addf %var, %eps : f64
    %rs = math.rsqrt %ve : f64
    %d = arith.mulf %a, %rs : f64
    linalg.yield %d : f64
  } -> tensor<37x100xf64>
  return %y : tensor<37x100xf64>
}

func.func @column_sum_37x100_f64(%x: tensor<37x100xf64>) -> tensor<37x100xf64> {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<100xf64>
  %ci = linalg.fill ins(%zero : f64) outs(%e0 : tensor<100xf64>) -> tensor<100xf64>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<37x100xf64>) outs(%ci : tensor<100xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  } -> tensor<100xf64>
  %e1 = tensor.empty() : tensor<37x100xf64>
  %y = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cs : tensor<100xf64>) outs(%e1 : tensor<37x100xf64>) {
  ^bb0(%a: f64, %c: f64):
    linalg.yield %a : f64
  } -> tensor<37x100xf64>
  return %y : tensor<37x100xf64>
}

func.func @main() {
  // softmax_100
  %seed0 = arith.constant 3 : index
  %scale0 = arith.constant 4.0 : f32
  %x0 = call @input_37x100(%seed0, %scale0) : (index, f32) -> tensor<37x100xf32>
  %w0 = call @widen_37x100(%x0) : (tensor<37x100xf32>) -> tensor<37x100xf64>
  %y0 = call @softmax_37x100_f32(%x0) : (tensor<37x100xf32>) -> tensor<37x100xf32>
  %r0 = call @softmax_37x100_f64(%w0) : (tensor<37x100xf64>) -> tensor<37x100xf64>
  %id0 = arith.constant 0 : i32
  %err0 = call @check_37x100(%id0, %y0, %r0) : (i32, tensor<37x100xf32>, tensor<37x100xf64>) -> f64
  %bound0 = arith.constant 6.437301636e-06 : f64
  %zero0 = arith.constant 0.0 : f64
  %le0 = arith.cmpf ole, %err0, %bound0 : f64
  %gt0 = arith.cmpf ogt, %err0, %zero0 : f64
  %ok0 = arith.andi %le0, %gt0 : i1
  scf.if %ok0 {
    vector.print str "PASS softmax_100 "
  } else {
    vector.print str "FAIL softmax_100 "
  }
  vector.print %err0 : f64
  // softmax_768
  %seed1 = arith.constant 5 : index
  %scale1 = arith.constant 4.0 : f32
  %x1 = call @input_16x768(%seed1, %scale1) : (index, f32) -> tensor<16x768xf32>
  %w1 = call @widen_16x768(%x1) : (tensor<16x768xf32>) -> tensor<16x768xf64>
  %y1 = call @softmax_16x768_f32(%x1) : (tensor<16x768xf32>) -> tensor<16x768xf32>
  %r1 = call @softmax_16x768_f64(%w1) : (tensor<16x768xf64>) -> tensor<16x768xf64>
  %id1 = arith.constant 1 : i32
  %err1 = call @check_16x768(%id1, %y1, %r1) : (i32, tensor<16x768xf32>, tensor<16x768xf64>) -> f64
  %bound1 = arith.constant 4.625320435e-05 : f64
  %zero1 = arith.constant 0.0 : f64
  %le1 = arith.cmpf ole, %err1, %bound1 : f64
  %gt1 = arith.cmpf ogt, %err1, %zero1 : f64
  %ok1 = arith.andi %le1, %gt1 : i1
  scf.if %ok1 {
    vector.print str "PASS softmax_768 "
  } else {
    vector.print str "FAIL softmax_768 "
  }
  vector.print %err1 : f64
  // layernorm_100
  %seed2 = arith.constant 7 : index
  %scale2 = arith.constant 1.0 : f32
  %x2 = call @input_37x100(%seed2, %scale2) : (index, f32) -> tensor<37x100xf32>
  %w2 = call @widen_37x100(%x2) : (tensor<37x100xf32>) -> tensor<37x100xf64>
  %y2 = call @layernorm_37x100_f32(%x2) : (tensor<37x100xf32>) -> tensor<37x100xf32>
  %r2 = call @layernorm_37x100_f64(%w2) : (tensor<37x100xf64>) -> tensor<37x100xf64>
  %id2 = arith.constant 2 : i32
  %err2 = call @check_37x100(%id2, %y2, %r2) : (i32, tensor<37x100xf32>, tensor<37x100xf64>) -> f64
  %bound2 = arith.constant 6.437301636e-06 : f64
  %zero2 = arith.constant 0.0 : f64
  %le2 = arith.cmpf ole, %err2, %bound2 : f64
  %gt2 = arith.cmpf ogt, %err2, %zero2 : f64
  %ok2 = arith.andi %le2, %gt2 : i1
  scf.if %ok2 {
    vector.print str "PASS layernorm_100 "
  } else {
    vector.print str "FAIL layernorm_100 "
  }
  vector.print %err2 : f64
  // layernorm_768
  %seed3 = arith.constant 11 : index
  %scale3 = arith.constant 1.0 : f32
  %x3 = call @input_16x768(%seed3, %scale3) : (index, f32) -> tensor<16x768xf32>
  %w3 = call @widen_16x768(%x3) : (tensor<16x768xf32>) -> tensor<16x768xf64>
  %y3 = call @layernorm_16x768_f32(%x3) : (tensor<16x768xf32>) -> tensor<16x768xf32>
  %r3 = call @layernorm_16x768_f64(%w3) : (tensor<16x768xf64>) -> tensor<16x768xf64>
  %id3 = arith.constant 3 : i32
  %err3 = call @check_16x768(%id3, %y3, %r3) : (i32, tensor<16x768xf32>, tensor<16x768xf64>) -> f64
  %bound3 = arith.constant 4.625320435e-05 : f64
  %zero3 = arith.constant 0.0 : f64
  %le3 = arith.cmpf ole, %err3, %bound3 : f64
  %gt3 = arith.cmpf ogt, %err3, %zero3 : f64
  %ok3 = arith.andi %le3, %gt3 : i1
  scf.if %ok3 {
    vector.print str "PASS layernorm_768 "
  } else {
    vector.print str "FAIL layernorm_768 "
  }
  vector.print %err3 : f64
  // rmsnorm_768
  %seed4 = arith.constant 13 : index
  %scale4 = arith.constant 1.0 : f32
  %x4 = call @input_16x768(%seed4, %scale4) : (index, f32) -> tensor<16x768xf32>
  %w4 = call @widen_16x768(%x4) : (tensor<16x768xf32>) -> tensor<16x768xf64>
  %y4 = call @rmsnorm_16x768_f32(%x4) : (tensor<16x768xf32>) -> tensor<16x768xf32>
  %r4 = call @rmsnorm_16x768_f64(%w4) : (tensor<16x768xf64>) -> tensor<16x768xf64>
  %id4 = arith.constant 4 : i32
  %err4 = call @check_16x768(%id4, %y4, %r4) : (i32, tensor<16x768xf32>, tensor<16x768xf64>) -> f64
  %bound4 = arith.constant 4.625320435e-05 : f64
  %zero4 = arith.constant 0.0 : f64
  %le4 = arith.cmpf ole, %err4, %bound4 : f64
  %gt4 = arith.cmpf ogt, %err4, %zero4 : f64
  %ok4 = arith.andi %le4, %gt4 : i1
  scf.if %ok4 {
    vector.print str "PASS rmsnorm_768 "
  } else {
    vector.print str "FAIL rmsnorm_768 "
  }
  vector.print %err4 : f64
  // column_sum_100
  %seed5 = arith.constant 17 : index
  %scale5 = arith.constant 1.0 : f32
  %x5 = call @input_37x100(%seed5, %scale5) : (index, f32) -> tensor<37x100xf32>
  %w5 = call @widen_37x100(%x5) : (tensor<37x100xf32>) -> tensor<37x100xf64>
  %y5 = call @column_sum_37x100_f32(%x5) : (tensor<37x100xf32>) -> tensor<37x100xf32>
  %r5 = call @column_sum_37x100_f64(%w5) : (tensor<37x100xf64>) -> tensor<37x100xf64>
  %id5 = arith.constant 5 : i32
  %err5 = call @check_37x100(%id5, %y5, %r5) : (i32, tensor<37x100xf32>, tensor<37x100xf64>) -> f64
  %bound5 = arith.constant 2.682209015e-06 : f64
  %zero5 = arith.constant 0.0 : f64
  %le5 = arith.cmpf ole, %err5, %bound5 : f64
  %gt5 = arith.cmpf ogt, %err5, %zero5 : f64
  %ok5 = arith.andi %le5, %gt5 : i1
  scf.if %ok5 {
    vector.print str "PASS column_sum_100 "
  } else {
    vector.print str "FAIL column_sum_100 "
  }
  vector.print %err5 : f64
  return
}
