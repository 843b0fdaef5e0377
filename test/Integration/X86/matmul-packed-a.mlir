// The micro-kernel reading A packed: where at least 16 column panels of B
// read each block, A's rows are packed per k block and row block into
// [block][k step][mr] (f32) or [block][k pair][2 mr] (bf16 for vdpbf16ps)
// so the broadcasts read one contiguous stream. Executed against references
// on the plain loop path (the contraction as a linalg.generic):
//  1. matmul f32, M = 50 (a tail of fewer than mr rows), N = 520 (a
//     partial last panel), K = 300 (k blocks with a shorter last one),
//     fill + bias + ReLU epilogue;
//  2. the same with A transposed ([k][m]: the f32 kernel reads A^T);
//  3. bf16 inputs (the dot kernel on AVX512_BF16, widened f32 on AVX2);
//  4. batch_matmul with B shared by the batches (B packed whole once: the
//     kernel's prepacked order), 2 x 13 rows, K = 64;
//  5. negative control: case 1 against the reference of case 2's
//     transposed A read as row-major must fail.
// |x - ref| <= 1e-5 |ref| + 1e-4 (inputs are multiples of 1/7 of at most
// 11/7; the sums differ only in order). Each case prints 1. Blocks: the
// defaults, and small ones (mr=6 nr=8 kc=128 mc=24: several row blocks of
// mc, 66 panels, k blocks of 128 + 44; kc=32 for case 4) on AVX2.
//
// The A packing is there (a [block][k][mr] buffer), and the kernels take
// every contraction:
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 mr=6 nr=8 kc=128 mc=24" -mlir-print-ir-after=lowp-x86-lower-contractions -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
// IR-NOT: generic loop path for 'linalg.{{matmul|batch_matmul}}'
// IR: memref.alloc(){{.*}} : memref<4x128x6xf32>
// IR-NOT: generic loop path for 'linalg.{{matmul|batch_matmul}}'
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 mr=6 nr=8 kc=128 mc=24" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 mr=6 nr=8 kc=32 mc=6" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s %}
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86="target=znver4 mr=4 nr=16 kc=128 mc=16" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s %}

// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#scalar = affine_map<(i, j) -> ()>
#mA = affine_map<(i, j, k) -> (i, k)>
#mAt = affine_map<(i, j, k) -> (k, i)>
#mB = affine_map<(i, j, k) -> (k, j)>
#mC = affine_map<(i, j, k) -> (i, j)>
#bA = affine_map<(b, i, j, k) -> (b, i, k)>
#bBs = affine_map<(b, i, j, k) -> (k, j)>
#bC = affine_map<(b, i, j, k) -> (b, i, j)>

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

func.func @input(%seed: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = call @fill(%seed, %e) : (index, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// 1 when every |x - ref| <= rel * |ref| + abs.
func.func @within(%x: tensor<?x?xf32>, %ref: tensor<?x?xf32>, %rel: f32, %abs: f32) -> i1 {
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


func.func @bias_relu(%c: tensor<50x520xf32>, %bias: tensor<520xf32>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<50x520xf32>, tensor<520xf32>) outs(%e : tensor<50x520xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %b : f32
    %z = arith.maximumf %y, %zero : f32
    linalg.yield %z : f32
  } -> tensor<50x520xf32>
  return %r : tensor<50x520xf32>
}

func.func @mm(%a: tensor<50x300xf32>, %b: tensor<300x520xf32>, %bias: tensor<520xf32>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x520xf32>) -> tensor<50x520xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<50x300xf32>, tensor<300x520xf32>) outs(%c : tensor<50x520xf32>) -> tensor<50x520xf32>
  %r = call @bias_relu(%mm, %bias) : (tensor<50x520xf32>, tensor<520xf32>) -> tensor<50x520xf32>
  return %r : tensor<50x520xf32>
}

func.func @ref_mm(%a: tensor<50x300xf32>, %b: tensor<300x520xf32>, %bias: tensor<520xf32>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x520xf32>) -> tensor<50x520xf32>
  %mm = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<50x300xf32>, tensor<300x520xf32>) outs(%c : tensor<50x520xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<50x520xf32>
  %r = call @bias_relu(%mm, %bias) : (tensor<50x520xf32>, tensor<520xf32>) -> tensor<50x520xf32>
  return %r : tensor<50x520xf32>
}

func.func @mm_at(%at: tensor<300x50xf32>, %b: tensor<300x520xf32>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x520xf32>) -> tensor<50x520xf32>
  %mm = linalg.matmul indexing_maps = [#mAt, #mB, #mC]
      ins(%at, %b : tensor<300x50xf32>, tensor<300x520xf32>) outs(%c : tensor<50x520xf32>) -> tensor<50x520xf32>
  return %mm : tensor<50x520xf32>
}

func.func @ref_mm_at(%at: tensor<300x50xf32>, %b: tensor<300x520xf32>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x520xf32>) -> tensor<50x520xf32>
  %mm = linalg.generic {indexing_maps = [#mAt, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %b : tensor<300x50xf32>, tensor<300x520xf32>) outs(%c : tensor<50x520xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<50x520xf32>
  return %mm : tensor<50x520xf32>
}

func.func @mm_bf16(%a: tensor<50x300xbf16>, %b: tensor<300x520xbf16>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x520xf32>) -> tensor<50x520xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<50x300xbf16>, tensor<300x520xbf16>) outs(%c : tensor<50x520xf32>) -> tensor<50x520xf32>
  return %mm : tensor<50x520xf32>
}

func.func @ref_mm_bf16(%a: tensor<50x300xbf16>, %b: tensor<300x520xbf16>) -> tensor<50x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x520xf32>) -> tensor<50x520xf32>
  %mm = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<50x300xbf16>, tensor<300x520xbf16>) outs(%c : tensor<50x520xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %s = math.fma %xf, %yf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<50x520xf32>
  return %mm : tensor<50x520xf32>
}

func.func @bmm(%a: tensor<2x13x64xf32>, %b: tensor<64x520xf32>) -> tensor<2x13x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x13x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x13x520xf32>) -> tensor<2x13x520xf32>
  %mm = linalg.batch_matmul indexing_maps = [#bA, #bBs, #bC]
      ins(%a, %b : tensor<2x13x64xf32>, tensor<64x520xf32>) outs(%c : tensor<2x13x520xf32>) -> tensor<2x13x520xf32>
  return %mm : tensor<2x13x520xf32>
}

func.func @ref_bmm(%a: tensor<2x13x64xf32>, %b: tensor<64x520xf32>) -> tensor<2x13x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x13x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x13x520xf32>) -> tensor<2x13x520xf32>
  %mm = linalg.generic {indexing_maps = [#bA, #bBs, #bC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x13x64xf32>, tensor<64x520xf32>) outs(%c : tensor<2x13x520xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x13x520xf32>
  return %mm : tensor<2x13x520xf32>
}

func.func @to_bf16(%x: tensor<?x?xf32>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}

func.func @main() {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k26 = arith.constant 26 : index
  %k50 = arith.constant 50 : index
  %k64 = arith.constant 64 : index
  %k300 = arith.constant 300 : index
  %k520 = arith.constant 520 : index
  %rel = arith.constant 1.0e-5 : f32
  %abs = arith.constant 1.0e-4 : f32

  %ad = call @input(%k0, %k50, %k300) : (index, index, index) -> tensor<?x?xf32>
  %bd = call @input(%k1, %k300, %k520) : (index, index, index) -> tensor<?x?xf32>
  %biasd = call @input(%k2, %k1, %k520) : (index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %ad : tensor<?x?xf32> to tensor<50x300xf32>
  %b = tensor.cast %bd : tensor<?x?xf32> to tensor<300x520xf32>
  %bias2 = tensor.cast %biasd : tensor<?x?xf32> to tensor<1x520xf32>
  %bias = tensor.collapse_shape %bias2 [[0, 1]] : tensor<1x520xf32> into tensor<520xf32>

  // 1.
  %y1 = call @mm(%a, %b, %bias) : (tensor<50x300xf32>, tensor<300x520xf32>, tensor<520xf32>) -> tensor<50x520xf32>
  %r1 = call @ref_mm(%a, %b, %bias) : (tensor<50x300xf32>, tensor<300x520xf32>, tensor<520xf32>) -> tensor<50x520xf32>
  %y1d = tensor.cast %y1 : tensor<50x520xf32> to tensor<?x?xf32>
  %r1d = tensor.cast %r1 : tensor<50x520xf32> to tensor<?x?xf32>
  %ok1 = call @within(%y1d, %r1d, %rel, %abs) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  vector.print %ok1 : i1

  // 2.
  %atd = call @input(%k3, %k300, %k50) : (index, index, index) -> tensor<?x?xf32>
  %at = tensor.cast %atd : tensor<?x?xf32> to tensor<300x50xf32>
  %y2 = call @mm_at(%at, %b) : (tensor<300x50xf32>, tensor<300x520xf32>) -> tensor<50x520xf32>
  %r2 = call @ref_mm_at(%at, %b) : (tensor<300x50xf32>, tensor<300x520xf32>) -> tensor<50x520xf32>
  %y2d = tensor.cast %y2 : tensor<50x520xf32> to tensor<?x?xf32>
  %r2d = tensor.cast %r2 : tensor<50x520xf32> to tensor<?x?xf32>
  %ok2 = call @within(%y2d, %r2d, %rel, %abs) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  vector.print %ok2 : i1

  // 3.
  %a16d = call @to_bf16(%ad) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  %b16d = call @to_bf16(%bd) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  %a16 = tensor.cast %a16d : tensor<?x?xbf16> to tensor<50x300xbf16>
  %b16 = tensor.cast %b16d : tensor<?x?xbf16> to tensor<300x520xbf16>
  %y3 = call @mm_bf16(%a16, %b16) : (tensor<50x300xbf16>, tensor<300x520xbf16>) -> tensor<50x520xf32>
  %r3 = call @ref_mm_bf16(%a16, %b16) : (tensor<50x300xbf16>, tensor<300x520xbf16>) -> tensor<50x520xf32>
  %y3d = tensor.cast %y3 : tensor<50x520xf32> to tensor<?x?xf32>
  %r3d = tensor.cast %r3 : tensor<50x520xf32> to tensor<?x?xf32>
  %ok3 = call @within(%y3d, %r3d, %rel, %abs) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  vector.print %ok3 : i1

  // 4.
  %a4d = call @input(%k4, %k26, %k64) : (index, index, index) -> tensor<?x?xf32>
  %b4d = call @input(%k5, %k64, %k520) : (index, index, index) -> tensor<?x?xf32>
  %a4f = tensor.cast %a4d : tensor<?x?xf32> to tensor<26x64xf32>
  %a4 = tensor.expand_shape %a4f [[0, 1], [2]] output_shape [2, 13, 64] : tensor<26x64xf32> into tensor<2x13x64xf32>
  %b4 = tensor.cast %b4d : tensor<?x?xf32> to tensor<64x520xf32>
  %y4 = call @bmm(%a4, %b4) : (tensor<2x13x64xf32>, tensor<64x520xf32>) -> tensor<2x13x520xf32>
  %r4 = call @ref_bmm(%a4, %b4) : (tensor<2x13x64xf32>, tensor<64x520xf32>) -> tensor<2x13x520xf32>
  %y4c = tensor.collapse_shape %y4 [[0, 1], [2]] : tensor<2x13x520xf32> into tensor<26x520xf32>
  %r4c = tensor.collapse_shape %r4 [[0, 1], [2]] : tensor<2x13x520xf32> into tensor<26x520xf32>
  %y4d = tensor.cast %y4c : tensor<26x520xf32> to tensor<?x?xf32>
  %r4d = tensor.cast %r4c : tensor<26x520xf32> to tensor<?x?xf32>
  %ok4 = call @within(%y4d, %r4d, %rel, %abs) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  vector.print %ok4 : i1

  // 5. negative control.
  %ok5 = call @within(%y1d, %r2d, %rel, %abs) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  %true = arith.constant true
  %ok5n = arith.xori %ok5, %true : i1
  vector.print %ok5n : i1
  return
}
