// A transformer block (one attention head, residuals, layer norm, ReLU MLP;
// S=32, D=64, H=128) through the whole lowp-pipeline-x86, executed here, with
// every matmul in f32, in bf16 (bf16 x bf16 -> f32) and in FP8 (saturating
// f8E4M3FN x f8E4M3FN -> f32); softmax, layer norm and residuals in f32.
// The low-precision outputs are compared with the f32 one in the max norm
// relative to max|f32 output|:
//   bf16: 2^-12 < error <= 2^-5  (bf16's unit roundoff is 2^-8; a handful of
//         roundings per matmul chain, amplified by softmax and layer norm)
//   fp8:  2^-8  < error <= 2^-1  (E4M3's unit roundoff is 2^-4)
// The lower bounds show the low-precision path really ran.
// (Generated once by a script; the blocks differ only in the matmul callee.)
//
// RUN: fp-opt %s -lowp-pipeline-x86=cpu=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=cpu=sapphirerapids \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#all = affine_map<(i, j) -> ()>

// Deterministic values in [-scale, scale].
func.func @fill(%seed: index, %scale: f32, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c31 = arith.constant 31 : index
    %c17 = arith.constant 17 : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %a = arith.muli %i, %c31 : index
    %b = arith.muli %j, %c17 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %thirty = arith.constant 30.0 : f32
    %u = arith.divf %f, %thirty : f32
    %v = arith.mulf %u, %scale : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @make(%seed: index, %scale: f32, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = call @fill(%seed, %scale, %e) : (index, f32, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// softmax(s / 8) over rows (1/sqrt(D), D = 64).
func.func @softmax_scaled(%s: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<32xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<32x32xf32>) outs(%m0 : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<32x32xf32>, tensor<32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %eighth = arith.constant 0.125 : f32
    %d = arith.subf %x, %m : f32
    %ds = arith.mulf %d, %eighth : f32
    %r = math.exp %ds : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<32x32xf32>) outs(%s0 : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<32x32xf32>, tensor<32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %r = arith.divf %x, %t : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %p : tensor<32x32xf32>
}

func.func @add(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

func.func @relu(%a: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %e = tensor.empty() : tensor<32x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}

// (y - mean) / sqrt(var + 1e-5) per row.
func.func @layernorm(%y: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<32x64xf32>) outs(%z : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %cen = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum : tensor<32x64xf32>, tensor<32xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %inv = arith.constant 0.015625 : f32
    %mean = arith.mulf %s, %inv : f32
    %r = arith.subf %x, %mean : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cen : tensor<32x64xf32>) outs(%z : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %x2 = arith.mulf %x, %x : f32
    %r = arith.addf %x2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cen, %sq : tensor<32x64xf32>, tensor<32xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %inv = arith.constant 0.015625 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.mulf %s, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %r = arith.mulf %x, %rs : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  return %n : tensor<32x64xf32>
}

// max|x - ref| / max|ref|.
func.func @relerr(%x: tensor<32x64xf32>, %ref: tensor<32x64xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %es = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %md, %mr = linalg.generic {indexing_maps = [#id, #id, #all, #all],
                             iterator_types = ["reduction", "reduction"]}
      ins(%x, %ref : tensor<32x64xf32>, tensor<32x64xf32>) outs(%z0, %z0 : tensor<f32>, tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %d: f32, %m: f32):
    %diff = arith.subf %v, %r : f32
    %ad = math.absf %diff : f32
    %ar = math.absf %r : f32
    %nd = arith.maximumf %d, %ad : f32
    %nm = arith.maximumf %m, %ar : f32
    linalg.yield %nd, %nm : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %d = tensor.extract %md[] : tensor<f32>
  %m = tensor.extract %mr[] : tensor<f32>
  %r = arith.divf %d, %m : f32
  return %r : f32
}

func.func @between(%x: f32, %lo: f32, %hi: f32) -> i1 {
  %a = arith.cmpf ogt, %x, %lo : f32
  %b = arith.cmpf ole, %x, %hi : f32
  %r = arith.andi %a, %b : i1
  return %r : i1
}

func.func @mm_f32_32x64x64(%a: tensor<32x64xf32>, %b: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x64xf32>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm_f32_32x64x32(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> tensor<32x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
func.func @mm_f32_32x32x64(%a: tensor<32x32xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x64xf32>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm_f32_32x64x128(%a: tensor<32x64xf32>, %b: tensor<64x128xf32>) -> tensor<32x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x128xf32>) -> tensor<32x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x128xf32>) outs(%c : tensor<32x128xf32>) -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}
func.func @mm_f32_32x128x64(%a: tensor<32x128xf32>, %b: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x128xf32>, tensor<128x64xf32>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @block_f32(%x: tensor<32x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>,
    %wv: tensor<64x64xf32>, %wo: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %q = call @mm_f32_32x64x64(%x, %wq) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %k = call @mm_f32_32x64x64(%x, %wk) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %v = call @mm_f32_32x64x64(%x, %wv) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %et = tensor.empty() : tensor<64x32xf32>
  %kt = linalg.transpose ins(%k : tensor<32x64xf32>) outs(%et : tensor<64x32xf32>) permutation = [1, 0]
  %s = call @mm_f32_32x64x32(%q, %kt) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
  %p = call @softmax_scaled(%s) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %o = call @mm_f32_32x32x64(%p, %v) : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %ao = call @mm_f32_32x64x64(%o, %wo) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %y = call @add(%ao, %x) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %n = call @layernorm(%y) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %h = call @mm_f32_32x64x128(%n, %w1) : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %hr = call @relu(%h) : (tensor<32x128xf32>) -> tensor<32x128xf32>
  %f = call @mm_f32_32x128x64(%hr, %w2) : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %out = call @add(%f, %y) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %out : tensor<32x64xf32>
}
func.func @mm_bf16_32x64x64(%a: tensor<32x64xf32>, %b: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %al = lowp.cast %a : tensor<32x64xf32> to tensor<32x64xbf16>
  %bl = lowp.cast %b : tensor<64x64xf32> to tensor<64x64xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm_bf16_32x64x32(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> tensor<32x32xf32> {
  %al = lowp.cast %a : tensor<32x64xf32> to tensor<32x64xbf16>
  %bl = lowp.cast %b : tensor<64x32xf32> to tensor<64x32xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
func.func @mm_bf16_32x32x64(%a: tensor<32x32xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %al = lowp.cast %a : tensor<32x32xf32> to tensor<32x32xbf16>
  %bl = lowp.cast %b : tensor<32x64xf32> to tensor<32x64xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x32xbf16>, tensor<32x64xbf16>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm_bf16_32x64x128(%a: tensor<32x64xf32>, %b: tensor<64x128xf32>) -> tensor<32x128xf32> {
  %al = lowp.cast %a : tensor<32x64xf32> to tensor<32x64xbf16>
  %bl = lowp.cast %b : tensor<64x128xf32> to tensor<64x128xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x128xf32>) -> tensor<32x128xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x64xbf16>, tensor<64x128xbf16>) outs(%c : tensor<32x128xf32>) -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}
func.func @mm_bf16_32x128x64(%a: tensor<32x128xf32>, %b: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %al = lowp.cast %a : tensor<32x128xf32> to tensor<32x128xbf16>
  %bl = lowp.cast %b : tensor<128x64xf32> to tensor<128x64xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x128xbf16>, tensor<128x64xbf16>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @block_bf16(%x: tensor<32x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>,
    %wv: tensor<64x64xf32>, %wo: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %q = call @mm_bf16_32x64x64(%x, %wq) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %k = call @mm_bf16_32x64x64(%x, %wk) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %v = call @mm_bf16_32x64x64(%x, %wv) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %et = tensor.empty() : tensor<64x32xf32>
  %kt = linalg.transpose ins(%k : tensor<32x64xf32>) outs(%et : tensor<64x32xf32>) permutation = [1, 0]
  %s = call @mm_bf16_32x64x32(%q, %kt) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
  %p = call @softmax_scaled(%s) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %o = call @mm_bf16_32x32x64(%p, %v) : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %ao = call @mm_bf16_32x64x64(%o, %wo) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %y = call @add(%ao, %x) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %n = call @layernorm(%y) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %h = call @mm_bf16_32x64x128(%n, %w1) : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %hr = call @relu(%h) : (tensor<32x128xf32>) -> tensor<32x128xf32>
  %f = call @mm_bf16_32x128x64(%hr, %w2) : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %out = call @add(%f, %y) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %out : tensor<32x64xf32>
}
func.func @mm_f8_32x64x64(%a: tensor<32x64xf32>, %b: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %al = lowp.cast %a saturate : tensor<32x64xf32> to tensor<32x64xf8E4M3FN>
  %bl = lowp.cast %b saturate : tensor<64x64xf32> to tensor<64x64xf8E4M3FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm_f8_32x64x32(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> tensor<32x32xf32> {
  %al = lowp.cast %a saturate : tensor<32x64xf32> to tensor<32x64xf8E4M3FN>
  %bl = lowp.cast %b saturate : tensor<64x32xf32> to tensor<64x32xf8E4M3FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
func.func @mm_f8_32x32x64(%a: tensor<32x32xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %al = lowp.cast %a saturate : tensor<32x32xf32> to tensor<32x32xf8E4M3FN>
  %bl = lowp.cast %b saturate : tensor<32x64xf32> to tensor<32x64xf8E4M3FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x32xf8E4M3FN>, tensor<32x64xf8E4M3FN>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm_f8_32x64x128(%a: tensor<32x64xf32>, %b: tensor<64x128xf32>) -> tensor<32x128xf32> {
  %al = lowp.cast %a saturate : tensor<32x64xf32> to tensor<32x64xf8E4M3FN>
  %bl = lowp.cast %b saturate : tensor<64x128xf32> to tensor<64x128xf8E4M3FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x128xf32>) -> tensor<32x128xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>) outs(%c : tensor<32x128xf32>) -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}
func.func @mm_f8_32x128x64(%a: tensor<32x128xf32>, %b: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %al = lowp.cast %a saturate : tensor<32x128xf32> to tensor<32x128xf8E4M3FN>
  %bl = lowp.cast %b saturate : tensor<128x64xf32> to tensor<128x64xf8E4M3FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%al, %bl : tensor<32x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @block_f8(%x: tensor<32x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>,
    %wv: tensor<64x64xf32>, %wo: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %q = call @mm_f8_32x64x64(%x, %wq) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %k = call @mm_f8_32x64x64(%x, %wk) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %v = call @mm_f8_32x64x64(%x, %wv) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %et = tensor.empty() : tensor<64x32xf32>
  %kt = linalg.transpose ins(%k : tensor<32x64xf32>) outs(%et : tensor<64x32xf32>) permutation = [1, 0]
  %s = call @mm_f8_32x64x32(%q, %kt) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
  %p = call @softmax_scaled(%s) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %o = call @mm_f8_32x32x64(%p, %v) : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %ao = call @mm_f8_32x64x64(%o, %wo) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %y = call @add(%ao, %x) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %n = call @layernorm(%y) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %h = call @mm_f8_32x64x128(%n, %w1) : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %hr = call @relu(%h) : (tensor<32x128xf32>) -> tensor<32x128xf32>
  %f = call @mm_f8_32x128x64(%hr, %w2) : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %out = call @add(%f, %y) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %out : tensor<32x64xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  %w = arith.constant 0.25 : f32
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %s3 = arith.constant 3 : index
  %s4 = arith.constant 4 : index
  %s5 = arith.constant 5 : index
  %s6 = arith.constant 6 : index
  %xd = call @make(%c0, %one, %c32, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wqd = call @make(%s1, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wkd = call @make(%s2, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wvd = call @make(%s3, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wod = call @make(%s4, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %w1d = call @make(%s5, %w, %c64, %c128) : (index, f32, index, index) -> tensor<?x?xf32>
  %w2d = call @make(%s6, %w, %c128, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<32x64xf32>
  %wq = tensor.cast %wqd : tensor<?x?xf32> to tensor<64x64xf32>
  %wk = tensor.cast %wkd : tensor<?x?xf32> to tensor<64x64xf32>
  %wv = tensor.cast %wvd : tensor<?x?xf32> to tensor<64x64xf32>
  %wo = tensor.cast %wod : tensor<?x?xf32> to tensor<64x64xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<64x128xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<128x64xf32>
  %ref = call @block_f32(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %yb = call @block_bf16(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %y8 = call @block_f8(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %eb = call @relerr(%yb, %ref) : (tensor<32x64xf32>, tensor<32x64xf32>) -> f32
  %e8 = call @relerr(%y8, %ref) : (tensor<32x64xf32>, tensor<32x64xf32>) -> f32
  // The measured errors, for the log.
  vector.print str "bf16 relative error: "
  vector.print %eb : f32
  vector.print str "fp8 relative error: "
  vector.print %e8 : f32
  %lob = arith.constant 0.000244140625 : f32
  %hib = arith.constant 0.03125 : f32
  %lo8 = arith.constant 0.00390625 : f32
  %hi8 = arith.constant 0.5 : f32
  %okb = call @between(%eb, %lob, %hib) : (f32, f32, f32) -> i1
  %ok8 = call @between(%e8, %lo8, %hi8) : (f32, f32, f32) -> i1
  // CHECK: bf16 relative error:
  // CHECK: fp8 relative error:
  // CHECK: 1
  // CHECK-NEXT: 1
  vector.print %okb : i1
  vector.print %ok8 : i1
  return
}
