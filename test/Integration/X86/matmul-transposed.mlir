// Contractions whose operands front ends transpose or broadcast (torch-mlir's
// nn.Linear: linalg.transpose of the [out, in] weight, then matmul; attention:
// K transposed by [0, 2, 1] into a batch_matmul; weights broadcast over the
// batch), through lowp-pipeline-x86: lowp-fold-layout-into-contractions
// turns the copies into indexing maps and the kernels read the operands
// through them while packing (register transposes). Shapes exercise every
// edge: M = 13 (a tail block of rows), N = 40 and 20 (a zero-padded last
// panel, a masked last vector), K = 37 / 38 (transposes with scalar edges).
// Each result is compared with a reference contraction written as a
// linalg.generic on the original (untransposed) operands in f32, left to the
// plain loop path: |x - ref| <= 1e-5 |ref| + 1e-4 (at most 38 terms of
// magnitude <= 1; bf16 products are exact in f32, only the summation order
// differs). A leftover linalg.transpose (not feeding a contraction) is
// compared with a generic copy. Constant weights (f32, and rounded to bf16
// by a cast) are packed and rounded at compile time; their reference rounds
// at run time (lowp.cast on the plain loop path). Each case prints 1.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 mr=4 nr=8" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// The copies are gone before the kernels run (no strided copy per call):
// RUN: fp-opt %s -convert-lowp-to-linalg -lowp-fold-layout-into-contractions \
// RUN: | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @linear_f32
// FOLD-NOT: linalg.transpose
// FOLD: linalg.matmul indexing_maps
// FOLD-LABEL: func.func @linear_bf16
// FOLD-NOT: linalg.transpose
// FOLD: linalg.matmul indexing_maps
// FOLD-LABEL: func.func @bmm_broadcast
// FOLD-NOT: linalg.broadcast
// FOLD: linalg.matmul indexing_maps
// FOLD-LABEL: func.func @bmm_kt
// FOLD-NOT: linalg.transpose
// FOLD: linalg.batch_matmul indexing_maps
// FOLD-LABEL: func.func @linear_const_bf16
// FOLD-NOT: linalg.transpose
// FOLD: linalg.matmul indexing_maps
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK: 1
// CHECK-NOT: 0

#id2 = affine_map<(a, b) -> (a, b)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#all2 = affine_map<(a, b) -> ()>
#mA = affine_map<(m, n, k) -> (m, k)>
#mAt = affine_map<(m, n, k) -> (k, m)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bBt = affine_map<(b, m, n, k) -> (b, n, k)>
#bWt = affine_map<(b, m, n, k) -> (n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>

// Deterministic values in [-0.875, 0.875] (multiples of 1/16: exact in bf16).
func.func @fill2(%seed: index, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c13 : index
    %s1 = arith.addi %a, %b : index
    %s2 = arith.addi %s1, %seed : index
    %m = arith.remui %s2, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %sixteen = arith.constant 16.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %sixteen : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @fill3(%seed: index, %e: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i0, %c5 : index
    %b = arith.muli %i1, %c7 : index
    %c = arith.muli %i2, %c13 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %seed : index
    %m = arith.remui %s2, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %sixteen = arith.constant 16.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %sixteen : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// 1 when every |got - ref| <= 1e-5 |ref| + 1e-4.
func.func @close(%got: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i1 {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #all2],
                           iterator_types = ["reduction", "reduction"]}
      ins(%got, %ref : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %m: f32):
    %d = arith.subf %v, %r : f32
    %ad = math.absf %d : f32
    %ar = math.absf %r : f32
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

func.func @ref_mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Reference with B given as [n][k].
func.func @ref_mm_bt(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Reference with A given as [k][m].
func.func @ref_mm_at(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#mAt, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @rand2(%seed: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = call @fill2(%seed, %e) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @zeros2(%m: index, %n: index) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// nn.Linear as torch-mlir emits it: the [out, in] weight transposed.
func.func @linear_f32(%x: tensor<13x37xf32>, %w: tensor<40x37xf32>) -> tensor<13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<37x40xf32>
  %wt = linalg.transpose ins(%w : tensor<40x37xf32>) outs(%et : tensor<37x40xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<13x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<13x40xf32>) -> tensor<13x40xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<13x37xf32>, tensor<37x40xf32>) outs(%c : tensor<13x40xf32>) -> tensor<13x40xf32>
  return %y : tensor<13x40xf32>
}

// The same after the precision decisions: the weight transposed in f32,
// then rounded to bf16 (the cast moves before the transpose), bf16 x bf16
// -> f32.
func.func @linear_bf16(%x: tensor<13x38xbf16>, %w: tensor<40x38xf32>) -> tensor<13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<38x40xf32>
  %wt = linalg.transpose ins(%w : tensor<40x38xf32>) outs(%et : tensor<38x40xf32>) permutation = [1, 0]
  %wb = lowp.cast %wt : tensor<38x40xf32> to tensor<38x40xbf16>
  %e = tensor.empty() : tensor<13x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<13x40xf32>) -> tensor<13x40xf32>
  %y = linalg.matmul ins(%x, %wb : tensor<13x38xbf16>, tensor<38x40xbf16>) outs(%c : tensor<13x40xf32>) -> tensor<13x40xf32>
  return %y : tensor<13x40xf32>
}

// A read transposed (explicit maps), N = 20: a masked last vector.
func.func @at_f32(%xt: tensor<37x13xf32>, %w: tensor<37x20xf32>) -> tensor<13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<13x20xf32>) -> tensor<13x20xf32>
  %y = linalg.matmul indexing_maps = [#mAt, #mB, #mC]
      ins(%xt, %w : tensor<37x13xf32>, tensor<37x20xf32>) outs(%c : tensor<13x20xf32>) -> tensor<13x20xf32>
  return %y : tensor<13x20xf32>
}

// A transposed in bf16 (the dot kernel reads a row-major copy).
func.func @at_bf16(%xt: tensor<38x13xbf16>, %w: tensor<38x20xbf16>) -> tensor<13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<13x38xbf16>
  %x = linalg.transpose ins(%xt : tensor<38x13xbf16>) outs(%et : tensor<13x38xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<13x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<13x20xf32>) -> tensor<13x20xf32>
  %y = linalg.matmul ins(%x, %w : tensor<13x38xbf16>, tensor<38x20xbf16>) outs(%c : tensor<13x20xf32>) -> tensor<13x20xf32>
  return %y : tensor<13x20xf32>
}

// torch-mlir's batched linear: the transposed weight broadcast over the
// batch into a batch_matmul (B packed once for all batches).
func.func @bmm_broadcast(%x: tensor<3x13x38xbf16>, %w: tensor<40x38xbf16>) -> tensor<3x13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<38x40xbf16>
  %wt = linalg.transpose ins(%w : tensor<40x38xbf16>) outs(%et : tensor<38x40xbf16>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<3x38x40xbf16>
  %wb = linalg.broadcast ins(%wt : tensor<38x40xbf16>) outs(%eb : tensor<3x38x40xbf16>) dimensions = [0]
  %e = tensor.empty() : tensor<3x13x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x13x40xf32>) -> tensor<3x13x40xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<3x13x38xbf16>, tensor<3x38x40xbf16>) outs(%c : tensor<3x13x40xf32>) -> tensor<3x13x40xf32>
  return %y : tensor<3x13x40xf32>
}

// Attention scores: Q K^T with K transposed by [0, 2, 1].
func.func @bmm_kt(%q: tensor<3x13x37xf32>, %k: tensor<3x20x37xf32>) -> tensor<3x13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x37x20xf32>
  %kt = linalg.transpose ins(%k : tensor<3x20x37xf32>) outs(%et : tensor<3x37x20xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<3x13x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x13x20xf32>) -> tensor<3x13x20xf32>
  %y = linalg.batch_matmul ins(%q, %kt : tensor<3x13x37xf32>, tensor<3x37x20xf32>) outs(%c : tensor<3x13x20xf32>) -> tensor<3x13x20xf32>
  return %y : tensor<3x13x20xf32>
}

// A constant nn.Linear weight [20, 6]: packed at compile time.
func.func @weight_const() -> tensor<20x6xf32> {
  %w = arith.constant dense<[[-0.875, -0.0615234375, 0.751953125, -0.25, 0.5634765625, -0.435546875], [-0.4365234375, 0.376953125, -0.625, 0.1884765625, -0.810546875, 0.0], [0.001953125, 0.8125, -0.1865234375, 0.626953125, -0.375, 0.4384765625], [0.4375, -0.5615234375, 0.251953125, -0.75, 0.0634765625, 0.876953125], [0.8759765625, -0.123046875, 0.6875, -0.3115234375, 0.501953125, -0.5], [-0.498046875, 0.3125, -0.6865234375, 0.126953125, -0.875, -0.0615234375], [-0.0625, 0.7509765625, -0.248046875, 0.5625, -0.4365234375, 0.376953125], [0.3759765625, -0.623046875, 0.1875, -0.8115234375, 0.001953125, 0.8125], [0.814453125, -0.1875, 0.6259765625, -0.373046875, 0.4375, -0.5615234375], [-0.5625, 0.2509765625, -0.748046875, 0.0625, 0.8759765625, -0.123046875], [-0.1240234375, 0.689453125, -0.3125, 0.5009765625, -0.498046875, 0.3125], [0.314453125, -0.6875, 0.1259765625, -0.873046875, -0.0625, 0.7509765625], [0.75, -0.2490234375, 0.564453125, -0.4375, 0.3759765625, -0.623046875], [-0.6240234375, 0.189453125, -0.8125, 0.0009765625, 0.814453125, -0.1875], [-0.185546875, 0.625, -0.3740234375, 0.439453125, -0.5625, 0.2509765625], [0.25, -0.7490234375, 0.064453125, 0.875, -0.1240234375, 0.689453125], [0.6884765625, -0.310546875, 0.5, -0.4990234375, 0.314453125, -0.6875], [-0.685546875, 0.125, -0.8740234375, -0.060546875, 0.75, -0.2490234375], [-0.25, 0.5634765625, -0.435546875, 0.375, -0.6240234375, 0.189453125], [0.1884765625, -0.810546875, 0.0, 0.8134765625, -0.185546875, 0.625]]> : tensor<20x6xf32>
  return %w : tensor<20x6xf32>
}

func.func @linear_const_f32(%x: tensor<13x6xf32>) -> tensor<13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[-0.875, -0.0615234375, 0.751953125, -0.25, 0.5634765625, -0.435546875], [-0.4365234375, 0.376953125, -0.625, 0.1884765625, -0.810546875, 0.0], [0.001953125, 0.8125, -0.1865234375, 0.626953125, -0.375, 0.4384765625], [0.4375, -0.5615234375, 0.251953125, -0.75, 0.0634765625, 0.876953125], [0.8759765625, -0.123046875, 0.6875, -0.3115234375, 0.501953125, -0.5], [-0.498046875, 0.3125, -0.6865234375, 0.126953125, -0.875, -0.0615234375], [-0.0625, 0.7509765625, -0.248046875, 0.5625, -0.4365234375, 0.376953125], [0.3759765625, -0.623046875, 0.1875, -0.8115234375, 0.001953125, 0.8125], [0.814453125, -0.1875, 0.6259765625, -0.373046875, 0.4375, -0.5615234375], [-0.5625, 0.2509765625, -0.748046875, 0.0625, 0.8759765625, -0.123046875], [-0.1240234375, 0.689453125, -0.3125, 0.5009765625, -0.498046875, 0.3125], [0.314453125, -0.6875, 0.1259765625, -0.873046875, -0.0625, 0.7509765625], [0.75, -0.2490234375, 0.564453125, -0.4375, 0.3759765625, -0.623046875], [-0.6240234375, 0.189453125, -0.8125, 0.0009765625, 0.814453125, -0.1875], [-0.185546875, 0.625, -0.3740234375, 0.439453125, -0.5625, 0.2509765625], [0.25, -0.7490234375, 0.064453125, 0.875, -0.1240234375, 0.689453125], [0.6884765625, -0.310546875, 0.5, -0.4990234375, 0.314453125, -0.6875], [-0.685546875, 0.125, -0.8740234375, -0.060546875, 0.75, -0.2490234375], [-0.25, 0.5634765625, -0.435546875, 0.375, -0.6240234375, 0.189453125], [0.1884765625, -0.810546875, 0.0, 0.8134765625, -0.185546875, 0.625]]> : tensor<20x6xf32>
  %et = tensor.empty() : tensor<6x20xf32>
  %wt = linalg.transpose ins(%w : tensor<20x6xf32>) outs(%et : tensor<6x20xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<13x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<13x20xf32>) -> tensor<13x20xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<13x6xf32>, tensor<6x20xf32>) outs(%c : tensor<13x20xf32>) -> tensor<13x20xf32>
  return %y : tensor<13x20xf32>
}

// The same weight rounded to bf16 (values with bits below bf16's).
func.func @linear_const_bf16(%x: tensor<13x6xbf16>) -> tensor<13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[-0.875, -0.0615234375, 0.751953125, -0.25, 0.5634765625, -0.435546875], [-0.4365234375, 0.376953125, -0.625, 0.1884765625, -0.810546875, 0.0], [0.001953125, 0.8125, -0.1865234375, 0.626953125, -0.375, 0.4384765625], [0.4375, -0.5615234375, 0.251953125, -0.75, 0.0634765625, 0.876953125], [0.8759765625, -0.123046875, 0.6875, -0.3115234375, 0.501953125, -0.5], [-0.498046875, 0.3125, -0.6865234375, 0.126953125, -0.875, -0.0615234375], [-0.0625, 0.7509765625, -0.248046875, 0.5625, -0.4365234375, 0.376953125], [0.3759765625, -0.623046875, 0.1875, -0.8115234375, 0.001953125, 0.8125], [0.814453125, -0.1875, 0.6259765625, -0.373046875, 0.4375, -0.5615234375], [-0.5625, 0.2509765625, -0.748046875, 0.0625, 0.8759765625, -0.123046875], [-0.1240234375, 0.689453125, -0.3125, 0.5009765625, -0.498046875, 0.3125], [0.314453125, -0.6875, 0.1259765625, -0.873046875, -0.0625, 0.7509765625], [0.75, -0.2490234375, 0.564453125, -0.4375, 0.3759765625, -0.623046875], [-0.6240234375, 0.189453125, -0.8125, 0.0009765625, 0.814453125, -0.1875], [-0.185546875, 0.625, -0.3740234375, 0.439453125, -0.5625, 0.2509765625], [0.25, -0.7490234375, 0.064453125, 0.875, -0.1240234375, 0.689453125], [0.6884765625, -0.310546875, 0.5, -0.4990234375, 0.314453125, -0.6875], [-0.685546875, 0.125, -0.8740234375, -0.060546875, 0.75, -0.2490234375], [-0.25, 0.5634765625, -0.435546875, 0.375, -0.6240234375, 0.189453125], [0.1884765625, -0.810546875, 0.0, 0.8134765625, -0.185546875, 0.625]]> : tensor<20x6xf32>
  %et = tensor.empty() : tensor<6x20xf32>
  %wt = linalg.transpose ins(%w : tensor<20x6xf32>) outs(%et : tensor<6x20xf32>) permutation = [1, 0]
  %wb = lowp.cast %wt : tensor<6x20xf32> to tensor<6x20xbf16>
  %e = tensor.empty() : tensor<13x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<13x20xf32>) -> tensor<13x20xf32>
  %y = linalg.matmul ins(%x, %wb : tensor<13x6xbf16>, tensor<6x20xbf16>) outs(%c : tensor<13x20xf32>) -> tensor<13x20xf32>
  return %y : tensor<13x20xf32>
}

// A transpose feeding no contraction: a register-blocked copy.
func.func @plain_transpose(%x: tensor<37x40xf32>) -> tensor<40x37xf32> {
  %et = tensor.empty() : tensor<40x37xf32>
  %t = linalg.transpose ins(%x : tensor<37x40xf32>) outs(%et : tensor<40x37xf32>) permutation = [1, 0]
  return %t : tensor<40x37xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c13 = arith.constant 13 : index
  %c20 = arith.constant 20 : index
  %c37 = arith.constant 37 : index
  %c38 = arith.constant 38 : index
  %c40 = arith.constant 40 : index

  // 1. nn.Linear, f32.
  %x1d = call @rand2(%c0, %c13, %c37) : (index, index, index) -> tensor<?x?xf32>
  %w1d = call @rand2(%c1, %c40, %c37) : (index, index, index) -> tensor<?x?xf32>
  %x1 = tensor.cast %x1d : tensor<?x?xf32> to tensor<13x37xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<40x37xf32>
  %y1 = call @linear_f32(%x1, %w1) : (tensor<13x37xf32>, tensor<40x37xf32>) -> tensor<13x40xf32>
  %z1 = call @zeros2(%c13, %c40) : (index, index) -> tensor<?x?xf32>
  %r1 = call @ref_mm_bt(%x1d, %w1d, %z1) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y1d = tensor.cast %y1 : tensor<13x40xf32> to tensor<?x?xf32>
  %ok1 = call @close(%y1d, %r1) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 2. nn.Linear after the bf16 decision (inputs are exact in bf16).
  %x2d = call @rand2(%c2, %c13, %c38) : (index, index, index) -> tensor<?x?xf32>
  %w2d = call @rand2(%c3, %c40, %c38) : (index, index, index) -> tensor<?x?xf32>
  %x2 = tensor.cast %x2d : tensor<?x?xf32> to tensor<13x38xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<40x38xf32>
  %x2b = lowp.cast %x2 : tensor<13x38xf32> to tensor<13x38xbf16>
  %y2 = call @linear_bf16(%x2b, %w2) : (tensor<13x38xbf16>, tensor<40x38xf32>) -> tensor<13x40xf32>
  %z2 = call @zeros2(%c13, %c40) : (index, index) -> tensor<?x?xf32>
  %r2 = call @ref_mm_bt(%x2d, %w2d, %z2) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y2d = tensor.cast %y2 : tensor<13x40xf32> to tensor<?x?xf32>
  %ok2 = call @close(%y2d, %r2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 3. A transposed, f32, N = 20.
  %x3d = call @rand2(%c1, %c37, %c13) : (index, index, index) -> tensor<?x?xf32>
  %w3d = call @rand2(%c2, %c37, %c20) : (index, index, index) -> tensor<?x?xf32>
  %x3 = tensor.cast %x3d : tensor<?x?xf32> to tensor<37x13xf32>
  %w3 = tensor.cast %w3d : tensor<?x?xf32> to tensor<37x20xf32>
  %y3 = call @at_f32(%x3, %w3) : (tensor<37x13xf32>, tensor<37x20xf32>) -> tensor<13x20xf32>
  %z3 = call @zeros2(%c13, %c20) : (index, index) -> tensor<?x?xf32>
  %r3 = call @ref_mm_at(%x3d, %w3d, %z3) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y3d = tensor.cast %y3 : tensor<13x20xf32> to tensor<?x?xf32>
  %ok3 = call @close(%y3d, %r3) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 4. A transposed, bf16.
  %x4d = call @rand2(%c3, %c38, %c13) : (index, index, index) -> tensor<?x?xf32>
  %w4d = call @rand2(%c0, %c38, %c20) : (index, index, index) -> tensor<?x?xf32>
  %x4 = tensor.cast %x4d : tensor<?x?xf32> to tensor<38x13xf32>
  %w4 = tensor.cast %w4d : tensor<?x?xf32> to tensor<38x20xf32>
  %x4b = lowp.cast %x4 : tensor<38x13xf32> to tensor<38x13xbf16>
  %w4b = lowp.cast %w4 : tensor<38x20xf32> to tensor<38x20xbf16>
  %y4 = call @at_bf16(%x4b, %w4b) : (tensor<38x13xbf16>, tensor<38x20xbf16>) -> tensor<13x20xf32>
  %z4 = call @zeros2(%c13, %c20) : (index, index) -> tensor<?x?xf32>
  %r4 = call @ref_mm_at(%x4d, %w4d, %z4) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y4d = tensor.cast %y4 : tensor<13x20xf32> to tensor<?x?xf32>
  %ok4 = call @close(%y4d, %r4) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 5. Batched linear, broadcast weight (bf16); each batch checked.
  %e5 = tensor.empty(%c3, %c13, %c38) : tensor<?x?x?xf32>
  %x5d = call @fill3(%c1, %e5) : (index, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %w5d = call @rand2(%c2, %c40, %c38) : (index, index, index) -> tensor<?x?xf32>
  %x5 = tensor.cast %x5d : tensor<?x?x?xf32> to tensor<3x13x38xf32>
  %w5 = tensor.cast %w5d : tensor<?x?xf32> to tensor<40x38xf32>
  %x5b = lowp.cast %x5 : tensor<3x13x38xf32> to tensor<3x13x38xbf16>
  %w5b = lowp.cast %w5 : tensor<40x38xf32> to tensor<40x38xbf16>
  %y5 = call @bmm_broadcast(%x5b, %w5b) : (tensor<3x13x38xbf16>, tensor<40x38xbf16>) -> tensor<3x13x40xf32>
  %ok5 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %ok1) -> (i1) {
    %xs = tensor.extract_slice %x5[%i, 0, 0] [1, 13, 38] [1, 1, 1] : tensor<3x13x38xf32> to tensor<13x38xf32>
    %ys = tensor.extract_slice %y5[%i, 0, 0] [1, 13, 40] [1, 1, 1] : tensor<3x13x40xf32> to tensor<13x40xf32>
    %xsd = tensor.cast %xs : tensor<13x38xf32> to tensor<?x?xf32>
    %ysd = tensor.cast %ys : tensor<13x40xf32> to tensor<?x?xf32>
    %z = func.call @zeros2(%c13, %c40) : (index, index) -> tensor<?x?xf32>
    %r = func.call @ref_mm_bt(%xsd, %w5d, %z) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %ok = func.call @close(%ysd, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    %both = arith.andi %acc, %ok : i1
    scf.yield %both : i1
  }
  vector.print %ok5 : i1

  // 6. Q K^T, f32; each batch checked.
  %e6q = tensor.empty(%c3, %c13, %c37) : tensor<?x?x?xf32>
  %e6k = tensor.empty(%c3, %c20, %c37) : tensor<?x?x?xf32>
  %q6d = call @fill3(%c2, %e6q) : (index, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %k6d = call @fill3(%c3, %e6k) : (index, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %q6 = tensor.cast %q6d : tensor<?x?x?xf32> to tensor<3x13x37xf32>
  %k6 = tensor.cast %k6d : tensor<?x?x?xf32> to tensor<3x20x37xf32>
  %y6 = call @bmm_kt(%q6, %k6) : (tensor<3x13x37xf32>, tensor<3x20x37xf32>) -> tensor<3x13x20xf32>
  %ok6 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %ok1) -> (i1) {
    %qs = tensor.extract_slice %q6[%i, 0, 0] [1, 13, 37] [1, 1, 1] : tensor<3x13x37xf32> to tensor<13x37xf32>
    %ks = tensor.extract_slice %k6[%i, 0, 0] [1, 20, 37] [1, 1, 1] : tensor<3x20x37xf32> to tensor<20x37xf32>
    %ys = tensor.extract_slice %y6[%i, 0, 0] [1, 13, 20] [1, 1, 1] : tensor<3x13x20xf32> to tensor<13x20xf32>
    %qsd = tensor.cast %qs : tensor<13x37xf32> to tensor<?x?xf32>
    %ksd = tensor.cast %ks : tensor<20x37xf32> to tensor<?x?xf32>
    %ysd = tensor.cast %ys : tensor<13x20xf32> to tensor<?x?xf32>
    %z = func.call @zeros2(%c13, %c20) : (index, index) -> tensor<?x?xf32>
    %r = func.call @ref_mm_bt(%qsd, %ksd, %z) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %ok = func.call @close(%ysd, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    %both = arith.andi %acc, %ok : i1
    scf.yield %both : i1
  }
  vector.print %ok6 : i1

  // 7. A transpose feeding no contraction, against a generic copy.
  %x7d = call @rand2(%c3, %c37, %c40) : (index, index, index) -> tensor<?x?xf32>
  %x7 = tensor.cast %x7d : tensor<?x?xf32> to tensor<37x40xf32>
  %y7 = call @plain_transpose(%x7) : (tensor<37x40xf32>) -> tensor<40x37xf32>
  %e7 = tensor.empty(%c40, %c37) : tensor<?x?xf32>
  %r7 = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x7d : tensor<?x?xf32>) outs(%e7 : tensor<?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %y7d = tensor.cast %y7 : tensor<40x37xf32> to tensor<?x?xf32>
  %ok7 = call @close(%y7d, %r7) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok7 : i1

  // 9. Constant weight, f32.
  %x9d = call @rand2(%c2, %c13, %c6) : (index, index, index) -> tensor<?x?xf32>
  %x9 = tensor.cast %x9d : tensor<?x?xf32> to tensor<13x6xf32>
  %y9 = call @linear_const_f32(%x9) : (tensor<13x6xf32>) -> tensor<13x20xf32>
  %w9 = call @weight_const() : () -> tensor<20x6xf32>
  %w9d = tensor.cast %w9 : tensor<20x6xf32> to tensor<?x?xf32>
  %z9 = call @zeros2(%c13, %c20) : (index, index) -> tensor<?x?xf32>
  %r9 = call @ref_mm_bt(%x9d, %w9d, %z9) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y9d = tensor.cast %y9 : tensor<13x20xf32> to tensor<?x?xf32>
  %ok9 = call @close(%y9d, %r9) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok9 : i1

  // 10. Constant weight rounded to bf16; the reference rounds at run time.
  %x10b = lowp.cast %x9 : tensor<13x6xf32> to tensor<13x6xbf16>
  %y10 = call @linear_const_bf16(%x10b) : (tensor<13x6xbf16>) -> tensor<13x20xf32>
  %w10b = lowp.cast %w9 : tensor<20x6xf32> to tensor<20x6xbf16>
  %w10 = lowp.cast %w10b : tensor<20x6xbf16> to tensor<20x6xf32>
  %w10d = tensor.cast %w10 : tensor<20x6xf32> to tensor<?x?xf32>
  %z10 = call @zeros2(%c13, %c20) : (index, index) -> tensor<?x?xf32>
  %r10 = call @ref_mm_bt(%x9d, %w10d, %z10) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y10d = tensor.cast %y10 : tensor<13x20xf32> to tensor<?x?xf32>
  %ok10 = call @close(%y10d, %r10) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok10 : i1

  // 8. Negative control: case 1 against the wrong reference (B not
  // transposed: ref_mm reads w as [k][n], here on the 37x40 input).
  %w8d = call @rand2(%c1, %c37, %c40) : (index, index, index) -> tensor<?x?xf32>
  %z8 = call @zeros2(%c13, %c40) : (index, index) -> tensor<?x?xf32>
  %r8 = call @ref_mm(%x1d, %w8d, %z8) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %bad = call @close(%y1d, %r8) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  %true = arith.constant true
  %ok8 = arith.xori %bad, %true : i1
  vector.print %ok8 : i1
  return
}
