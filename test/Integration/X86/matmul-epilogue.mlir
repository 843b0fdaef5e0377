// Executes contractions whose fill and elementwise consumer run inside the
// kernel (the first k block starts from the fill value, the last applies the
// consumer to the accumulators: bias, erf GELU, ReLU, residual, scale, batch
// norm, the narrowing cast to bf16) and compares them with references that
// take the plain loop path: the contraction written as a linalg.generic,
// which the kernel pass leaves alone, and the same consumer after it.
// The head merge of attention (the consumer writes its output transposed)
// is an epilogue too. Shapes leave tails: M = 50 rows (not a multiple of mr), N = 72 / 40 / 24
// columns (a partial last panel: masked loads and stores in the epilogue),
// K = 1100 (two full k blocks of 512 and a rest).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>&1 >%t.avx2 | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: mlir-runner %t.avx2 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 mr=4 nr=8 kc=256 mc=16" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
//
// Every consumer of a kernel here is fused: no remark says otherwise.
// REMARK-NOT: elementwise consumer not fused

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#merge = affine_map<(b, i, j) -> (i, b, j)>
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>
#mA = affine_map<(i, j, k) -> (i, k)>
#mBt = affine_map<(i, j, k) -> (j, k)>
#mB = affine_map<(i, j, k) -> (k, j)>
#mC = affine_map<(i, j, k) -> (i, j)>
#bA = affine_map<(b, i, j, k) -> (b, i, k)>
#bB = affine_map<(b, i, j, k) -> (b, k, j)>
#bC = affine_map<(b, i, j, k) -> (b, i, j)>
#cX = affine_map<(n, h, w, f, kh, kw, c) -> (n, h + kh, w + kw, c)>
#cF = affine_map<(n, h, w, f, kh, kw, c) -> (kh, kw, c, f)>
#cO = affine_map<(n, h, w, f, kh, kw, c) -> (n, h, w, f)>
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

// GELU(x + bias) + residual, erf form.
func.func @gelu_bias_residual(%c: tensor<50x72xf32>, %bias: tensor<72xf32>, %res: tensor<50x72xf32>) -> tensor<50x72xf32> {
  %e = tensor.empty() : tensor<50x72xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias, %res : tensor<50x72xf32>, tensor<72xf32>, tensor<50x72xf32>) outs(%e : tensor<50x72xf32>) {
  ^bb0(%x: f32, %b: f32, %r0: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %y = arith.addf %x, %b : f32
    %s = arith.mulf %y, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %y, %half : f32
    %g = arith.mulf %h, %p : f32
    %out = arith.addf %g, %r0 : f32
    linalg.yield %out : f32
  } -> tensor<50x72xf32>
  return %r : tensor<50x72xf32>
}

// nn.Linear as torch-mlir writes it (transposed weight), then the consumer.
func.func @linear_f32(%a: tensor<50x96xf32>, %w: tensor<72x96xf32>, %bias: tensor<72xf32>, %res: tensor<50x72xf32>) -> tensor<50x72xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<96x72xf32>
  %wt = linalg.transpose ins(%w : tensor<72x96xf32>) outs(%et : tensor<96x72xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<50x72xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x72xf32>) -> tensor<50x72xf32>
  %mm = linalg.matmul ins(%a, %wt : tensor<50x96xf32>, tensor<96x72xf32>) outs(%c : tensor<50x72xf32>) -> tensor<50x72xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %res : tensor<50x72xf32>, tensor<72xf32>, tensor<50x72xf32>) outs(%e : tensor<50x72xf32>) {
  ^bb0(%x: f32, %b: f32, %r0: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %y = arith.addf %x, %b : f32
    %s = arith.mulf %y, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %y, %half : f32
    %g = arith.mulf %h, %p : f32
    %out = arith.addf %g, %r0 : f32
    linalg.yield %out : f32
  } -> tensor<50x72xf32>
  return %r : tensor<50x72xf32>
}

// The same in bf16: inputs rounded, accumulation in f32, the consumer's
// result rounded to bf16 (the store of the epilogue is bf16).
func.func @linear_bf16_fused(%a: tensor<50x96xf32>, %w: tensor<72x96xf32>, %bias: tensor<72xf32>, %res: tensor<50x72xf32>) -> tensor<50x72xbf16> {
  %zero = arith.constant 0.0 : f32
  %ab = lowp.cast %a : tensor<50x96xf32> to tensor<50x96xbf16>
  %wb = lowp.cast %w : tensor<72x96xf32> to tensor<72x96xbf16>
  %et = tensor.empty() : tensor<96x72xbf16>
  %wt = linalg.transpose ins(%wb : tensor<72x96xbf16>) outs(%et : tensor<96x72xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<50x72xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x72xf32>) -> tensor<50x72xf32>
  %mm = linalg.matmul ins(%ab, %wt : tensor<50x96xbf16>, tensor<96x72xbf16>) outs(%c : tensor<50x72xf32>) -> tensor<50x72xf32>
  %eb = tensor.empty() : tensor<50x72xbf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %res : tensor<50x72xf32>, tensor<72xf32>, tensor<50x72xf32>) outs(%eb : tensor<50x72xbf16>) {
  ^bb0(%x: f32, %b: f32, %r0: f32, %o: bf16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %y = arith.addf %x, %b : f32
    %s = arith.mulf %y, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %y, %half : f32
    %gl = arith.mulf %h, %p : f32
    %out = arith.addf %gl, %r0 : f32
    %t = arith.truncf %out : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<50x72xbf16>
  return %r : tensor<50x72xbf16>
}

func.func @linear_reference(%a: tensor<50x96xf32>, %w: tensor<72x96xf32>, %bias: tensor<72xf32>, %res: tensor<50x72xf32>) -> tensor<50x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x72xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x72xf32>) -> tensor<50x72xf32>
  %mm = linalg.generic {indexing_maps = [#mA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<50x96xf32>, tensor<72x96xf32>) outs(%c : tensor<50x72xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<50x72xf32>
  %g = call @gelu_bias_residual(%mm, %bias, %res) : (tensor<50x72xf32>, tensor<72xf32>, tensor<50x72xf32>) -> tensor<50x72xf32>
  return %g : tensor<50x72xf32>
}

// K = 1100: several k blocks; bias + ReLU (cmpf + select, as torch-mlir).
func.func @deep_relu(%a: tensor<20x1100xf32>, %b: tensor<1100x40xf32>, %bias: tensor<40xf32>) -> tensor<20x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<20x1100xf32>, tensor<1100x40xf32>) outs(%c : tensor<20x40xf32>) -> tensor<20x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<20x40xf32>, tensor<40xf32>) outs(%e : tensor<20x40xf32>) {
  ^bb0(%x: f32, %bb: f32, %o: f32):
    %y = arith.addf %x, %bb : f32
    %p = arith.cmpf ugt, %y, %zero : f32
    %s = arith.select %p, %y, %zero : f32
    linalg.yield %s : f32
  } -> tensor<20x40xf32>
  return %r : tensor<20x40xf32>
}

func.func @deep_relu_reference(%a: tensor<20x1100xf32>, %b: tensor<1100x40xf32>, %bias: tensor<40xf32>) -> tensor<20x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %mm = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<20x1100xf32>, tensor<1100x40xf32>) outs(%c : tensor<20x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<20x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<20x40xf32>, tensor<40xf32>) outs(%e : tensor<20x40xf32>) {
  ^bb0(%x: f32, %bb: f32, %o: f32):
    %y = arith.addf %x, %bb : f32
    %p = arith.cmpf ugt, %y, %zero : f32
    %s = arith.select %p, %y, %zero : f32
    linalg.yield %s : f32
  } -> tensor<20x40xf32>
  return %r : tensor<20x40xf32>
}

// Attention scores: batch_matmul scaled by 1/8.
func.func @scores(%q: tensor<2x50x64xf32>, %k: tensor<2x64x40xf32>) -> tensor<2x50x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x50x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x50x40xf32>) -> tensor<2x50x40xf32>
  %mm = linalg.batch_matmul ins(%q, %k : tensor<2x50x64xf32>, tensor<2x64x40xf32>) outs(%c : tensor<2x50x40xf32>) -> tensor<2x50x40xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<2x50x40xf32>) outs(%e : tensor<2x50x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.constant 0.125 : f32
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<2x50x40xf32>
  return %r : tensor<2x50x40xf32>
}

func.func @scores_reference(%q: tensor<2x50x64xf32>, %k: tensor<2x64x40xf32>) -> tensor<2x50x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x50x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x50x40xf32>) -> tensor<2x50x40xf32>
  %mm = linalg.generic {indexing_maps = [#bA, #bB, #bC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x50x64xf32>, tensor<2x64x40xf32>) outs(%c : tensor<2x50x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x50x40xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<2x50x40xf32>) outs(%e : tensor<2x50x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.constant 0.125 : f32
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<2x50x40xf32>
  return %r : tensor<2x50x40xf32>
}

// Attention context and head merge: batch_matmul, then its result written
// transposed to (seq, head, dim) (the columns stay innermost).
func.func @context_merge(%p: tensor<2x50x64xf32>, %v: tensor<2x64x40xf32>) -> tensor<50x2x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x50x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x50x40xf32>) -> tensor<2x50x40xf32>
  %mm = linalg.batch_matmul ins(%p, %v : tensor<2x50x64xf32>, tensor<2x64x40xf32>) outs(%c : tensor<2x50x40xf32>) -> tensor<2x50x40xf32>
  %em = tensor.empty() : tensor<50x2x40xf32>
  %r = linalg.generic {indexing_maps = [#id3, #merge], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<2x50x40xf32>) outs(%em : tensor<50x2x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<50x2x40xf32>
  return %r : tensor<50x2x40xf32>
}

func.func @context_merge_reference(%p: tensor<2x50x64xf32>, %v: tensor<2x64x40xf32>) -> tensor<50x2x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x50x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x50x40xf32>) -> tensor<2x50x40xf32>
  %mm = linalg.generic {indexing_maps = [#bA, #bB, #bC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x50x64xf32>, tensor<2x64x40xf32>) outs(%c : tensor<2x50x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x50x40xf32>
  %em = tensor.empty() : tensor<50x2x40xf32>
  %r = linalg.generic {indexing_maps = [#id3, #merge], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<2x50x40xf32>) outs(%em : tensor<50x2x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<50x2x40xf32>
  return %r : tensor<50x2x40xf32>
}

// NHWC convolution + per-channel batch norm (scale, shift) + ReLU.
func.func @conv_bn_relu(%x: tensor<1x10x10x16xf32>, %f: tensor<3x3x16x24xf32>, %scale: tensor<24xf32>, %shift: tensor<24xf32>) -> tensor<1x8x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x24xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<1x10x10x16xf32>, tensor<3x3x16x24xf32>) outs(%c : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %scale, %shift : tensor<1x8x8x24xf32>, tensor<24xf32>, tensor<24xf32>) outs(%e : tensor<1x8x8x24xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %t : f32
    %y = arith.maximumf %a, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x8x8x24xf32>
  return %r : tensor<1x8x8x24xf32>
}

func.func @conv_bn_relu_reference(%x: tensor<1x10x10x16xf32>, %f: tensor<3x3x16x24xf32>, %scale: tensor<24xf32>, %shift: tensor<24xf32>) -> tensor<1x8x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x24xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  %conv = linalg.generic {indexing_maps = [#cX, #cF, #cO],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %f : tensor<1x10x10x16xf32>, tensor<3x3x16x24xf32>) outs(%c : tensor<1x8x8x24xf32>) {
  ^bb0(%xi: f32, %fi: f32, %acc: f32):
    %s = math.fma %xi, %fi, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %scale, %shift : tensor<1x8x8x24xf32>, tensor<24xf32>, tensor<24xf32>) outs(%e : tensor<1x8x8x24xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %t : f32
    %y = arith.maximumf %a, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x8x8x24xf32>
  return %r : tensor<1x8x8x24xf32>
}

func.func @vector(%seed: index, %n: index) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %m = call @input(%seed, %c1, %n) : (index, index, index) -> tensor<?x?xf32>
  %v = tensor.collapse_shape %m [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %v : tensor<?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c20 = arith.constant 20 : index
  %c24 = arith.constant 24 : index
  %c40 = arith.constant 40 : index
  %c50 = arith.constant 50 : index
  %c64 = arith.constant 64 : index
  %c72 = arith.constant 72 : index
  %c96 = arith.constant 96 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %c144 = arith.constant 144 : index
  %c1100 = arith.constant 1100 : index
  %rel32 = arith.constant 1.0e-5 : f32
  %abs32 = arith.constant 1.0e-4 : f32

  // nn.Linear + bias + GELU + residual, f32.
  %a_d = call @input(%c0, %c50, %c96) : (index, index, index) -> tensor<?x?xf32>
  %w_d = call @input(%c3, %c72, %c96) : (index, index, index) -> tensor<?x?xf32>
  %r_d = call @input(%c5, %c50, %c72) : (index, index, index) -> tensor<?x?xf32>
  %bias_d = call @vector(%c2, %c72) : (index, index) -> tensor<?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<50x96xf32>
  %w = tensor.cast %w_d : tensor<?x?xf32> to tensor<72x96xf32>
  %res = tensor.cast %r_d : tensor<?x?xf32> to tensor<50x72xf32>
  %bias = tensor.cast %bias_d : tensor<?xf32> to tensor<72xf32>
  %y = call @linear_f32(%a, %w, %bias, %res) : (tensor<50x96xf32>, tensor<72x96xf32>, tensor<72xf32>, tensor<50x72xf32>) -> tensor<50x72xf32>
  %yref = call @linear_reference(%a, %w, %bias, %res) : (tensor<50x96xf32>, tensor<72x96xf32>, tensor<72xf32>, tensor<50x72xf32>) -> tensor<50x72xf32>
  %y_d = tensor.cast %y : tensor<50x72xf32> to tensor<?x?xf32>
  %yref_d = tensor.cast %yref : tensor<50x72xf32> to tensor<?x?xf32>
  %ok1 = call @within(%y_d, %yref_d, %rel32, %abs32) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK: 1
  vector.print %ok1 : i1

  // The same in bf16, the epilogue storing bf16. Reference: the same
  // bf16-rounded inputs multiplied in f32 by the loop path, then the same
  // consumer and rounding; the results differ by the summation order,
  // which can move a result across a bf16 rounding boundary: one bf16 ulp
  // (2^-8 relative) plus the f32 tolerance.
  %ab = lowp.cast %a : tensor<50x96xf32> to tensor<50x96xbf16>
  %wb = lowp.cast %w : tensor<72x96xf32> to tensor<72x96xbf16>
  %a16 = lowp.cast %ab : tensor<50x96xbf16> to tensor<50x96xf32>
  %w16 = lowp.cast %wb : tensor<72x96xbf16> to tensor<72x96xf32>
  %ref16 = call @linear_reference(%a16, %w16, %bias, %res) : (tensor<50x96xf32>, tensor<72x96xf32>, tensor<72xf32>, tensor<50x72xf32>) -> tensor<50x72xf32>
  %ref16b = lowp.cast %ref16 : tensor<50x72xf32> to tensor<50x72xbf16>
  %ref16r = lowp.cast %ref16b : tensor<50x72xbf16> to tensor<50x72xf32>
  %ref16_d = tensor.cast %ref16r : tensor<50x72xf32> to tensor<?x?xf32>
  %rel16 = arith.constant 0.0078125 : f32
  %yb = call @linear_bf16_fused(%a, %w, %bias, %res) : (tensor<50x96xf32>, tensor<72x96xf32>, tensor<72xf32>, tensor<50x72xf32>) -> tensor<50x72xbf16>
  %yb32 = lowp.cast %yb : tensor<50x72xbf16> to tensor<50x72xf32>
  %yb_d = tensor.cast %yb32 : tensor<50x72xf32> to tensor<?x?xf32>
  %ok2 = call @within(%yb_d, %ref16_d, %rel16, %abs32) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK-NEXT: 1
  vector.print %ok2 : i1
  // Negative control: the bf16 result misses the f32 result by more than
  // the f32 tolerance, so the comparison discriminates.
  %bad = call @within(%yb_d, %yref_d, %rel32, %abs32) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK-NEXT: 0
  vector.print %bad : i1

  // K = 1100: k blocks with the epilogue in the last one only.
  %da_d = call @input(%c1, %c20, %c1100) : (index, index, index) -> tensor<?x?xf32>
  %db_d = call @input(%c2, %c1100, %c40) : (index, index, index) -> tensor<?x?xf32>
  %dbias_d = call @vector(%c3, %c40) : (index, index) -> tensor<?xf32>
  %da = tensor.cast %da_d : tensor<?x?xf32> to tensor<20x1100xf32>
  %db = tensor.cast %db_d : tensor<?x?xf32> to tensor<1100x40xf32>
  %dbias = tensor.cast %dbias_d : tensor<?xf32> to tensor<40xf32>
  %d = call @deep_relu(%da, %db, %dbias) : (tensor<20x1100xf32>, tensor<1100x40xf32>, tensor<40xf32>) -> tensor<20x40xf32>
  %dref = call @deep_relu_reference(%da, %db, %dbias) : (tensor<20x1100xf32>, tensor<1100x40xf32>, tensor<40xf32>) -> tensor<20x40xf32>
  %d_d = tensor.cast %d : tensor<20x40xf32> to tensor<?x?xf32>
  %dref_d = tensor.cast %dref : tensor<20x40xf32> to tensor<?x?xf32>
  %absdeep = arith.constant 1.0e-3 : f32
  %ok3 = call @within(%d_d, %dref_d, %rel32, %absdeep) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK-NEXT: 1
  vector.print %ok3 : i1

  // batch_matmul with a scale.
  %q_d = call @input(%c0, %c100, %c64) : (index, index, index) -> tensor<?x?xf32>
  %k_d = call @input(%c5, %c128, %c40) : (index, index, index) -> tensor<?x?xf32>
  %q2 = tensor.cast %q_d : tensor<?x?xf32> to tensor<100x64xf32>
  %k2 = tensor.cast %k_d : tensor<?x?xf32> to tensor<128x40xf32>
  %q = tensor.expand_shape %q2 [[0, 1], [2]] output_shape [2, 50, 64] : tensor<100x64xf32> into tensor<2x50x64xf32>
  %k = tensor.expand_shape %k2 [[0, 1], [2]] output_shape [2, 64, 40] : tensor<128x40xf32> into tensor<2x64x40xf32>
  %s = call @scores(%q, %k) : (tensor<2x50x64xf32>, tensor<2x64x40xf32>) -> tensor<2x50x40xf32>
  %sref = call @scores_reference(%q, %k) : (tensor<2x50x64xf32>, tensor<2x64x40xf32>) -> tensor<2x50x40xf32>
  %s2 = tensor.collapse_shape %s [[0, 1], [2]] : tensor<2x50x40xf32> into tensor<100x40xf32>
  %sref2 = tensor.collapse_shape %sref [[0, 1], [2]] : tensor<2x50x40xf32> into tensor<100x40xf32>
  %s_d = tensor.cast %s2 : tensor<100x40xf32> to tensor<?x?xf32>
  %sref_d = tensor.cast %sref2 : tensor<100x40xf32> to tensor<?x?xf32>
  %ok4 = call @within(%s_d, %sref_d, %rel32, %abs32) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK-NEXT: 1
  vector.print %ok4 : i1

  // Head merge: the epilogue stores through the permutation.
  %cm = call @context_merge(%q, %k) : (tensor<2x50x64xf32>, tensor<2x64x40xf32>) -> tensor<50x2x40xf32>
  %cmref = call @context_merge_reference(%q, %k) : (tensor<2x50x64xf32>, tensor<2x64x40xf32>) -> tensor<50x2x40xf32>
  %cm2 = tensor.collapse_shape %cm [[0, 1], [2]] : tensor<50x2x40xf32> into tensor<100x40xf32>
  %cmref2 = tensor.collapse_shape %cmref [[0, 1], [2]] : tensor<50x2x40xf32> into tensor<100x40xf32>
  %cm_d = tensor.cast %cm2 : tensor<100x40xf32> to tensor<?x?xf32>
  %cmref_d = tensor.cast %cmref2 : tensor<100x40xf32> to tensor<?x?xf32>
  %okm = call @within(%cm_d, %cmref_d, %rel32, %abs32) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK-NEXT: 1
  vector.print %okm : i1

  // NHWC convolution + batch norm + ReLU (the epilogue through a collapse).
  %x_d = call @input(%c1, %c100, %c24) : (index, index, index) -> tensor<?x?xf32>
  %f_d = call @input(%c3, %c144, %c24) : (index, index, index) -> tensor<?x?xf32>
  %x2 = tensor.cast %x_d : tensor<?x?xf32> to tensor<100x24xf32>
  %x3 = tensor.extract_slice %x2[0, 0] [100, 16] [1, 1] : tensor<100x24xf32> to tensor<100x16xf32>
  %x = tensor.expand_shape %x3 [[0, 1, 2], [3]] output_shape [1, 10, 10, 16] : tensor<100x16xf32> into tensor<1x10x10x16xf32>
  %f2 = tensor.cast %f_d : tensor<?x?xf32> to tensor<144x24xf32>
  %f = tensor.expand_shape %f2 [[0, 1, 2], [3]] output_shape [3, 3, 16, 24] : tensor<144x24xf32> into tensor<3x3x16x24xf32>
  %sc_d = call @vector(%c5, %c24) : (index, index) -> tensor<?xf32>
  %sh_d = call @vector(%c2, %c24) : (index, index) -> tensor<?xf32>
  %sc = tensor.cast %sc_d : tensor<?xf32> to tensor<24xf32>
  %sh = tensor.cast %sh_d : tensor<?xf32> to tensor<24xf32>
  %o = call @conv_bn_relu(%x, %f, %sc, %sh) : (tensor<1x10x10x16xf32>, tensor<3x3x16x24xf32>, tensor<24xf32>, tensor<24xf32>) -> tensor<1x8x8x24xf32>
  %oref = call @conv_bn_relu_reference(%x, %f, %sc, %sh) : (tensor<1x10x10x16xf32>, tensor<3x3x16x24xf32>, tensor<24xf32>, tensor<24xf32>) -> tensor<1x8x8x24xf32>
  %o2 = tensor.collapse_shape %o [[0, 1, 2], [3]] : tensor<1x8x8x24xf32> into tensor<64x24xf32>
  %oref2 = tensor.collapse_shape %oref [[0, 1, 2], [3]] : tensor<1x8x8x24xf32> into tensor<64x24xf32>
  %o_d = tensor.cast %o2 : tensor<64x24xf32> to tensor<?x?xf32>
  %oref_d = tensor.cast %oref2 : tensor<64x24xf32> to tensor<?x?xf32>
  %ok5 = call @within(%o_d, %oref_d, %rel32, %abs32) : (tensor<?x?xf32>, tensor<?x?xf32>, f32, f32) -> i1
  // CHECK-NEXT: 1
  vector.print %ok5 : i1
  return
}
