// A layer norm with BERT's eps = 1e-12 (0 in f16) on rows whose variance is
// 0, 2^-28 and ~2^-17 (their spread is below f16's resolution at their
// magnitude) and one ordinary row. Precision inference is told to run every
// generic in f16.
//
// With FP32 islands the normalization, its statistics and its eps stay f32:
// the output is finite and within (2^-11 + 4 * 2^-24) * |y| of the same
// program evaluated in f32 (one f16 rounding on leaving an island, a few
// ulps of libm's rsqrt; the checker emulates the f32 program).
// RUN: fp-opt %s -lowp-insert-fp32-islands -lowp-infer-precision="low=f16 force-low=linalg.generic" \
// RUN:   -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | %python %S/Inputs/check_islands.py layernorm islands
//
// Without islands the rows round to constants, eps rounds to 0 and
// (x - mean) * rsqrt(0) is 0 * inf = NaN. The checker asserts it.
// RUN: fp-opt %s -lowp-infer-precision="low=f16 force-low=linalg.generic" \
// RUN:   -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | %python %S/Inputs/check_islands.py layernorm no-islands

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @layer_norm(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-12 : f32
  %er = tensor.empty() : tensor<4xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.addf %in, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %cen = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<4x64xf32>, tensor<4xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %c = arith.subf %v, %m : f32
    linalg.yield %c : f32
  } -> tensor<4x64xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cen : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%c: f32, %a: f32):
    %c2 = arith.mulf %c, %c : f32
    %s = arith.addf %c2, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sq : tensor<4xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cen, %rstd : tensor<4x64xf32>, tensor<4xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%c: f32, %r: f32, %o: f32):
    %m = arith.mulf %c, %r : f32
    linalg.yield %m : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0], [0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625, 0.99993896484375, 1.00006103515625], [100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375, 100.0, 100.001953125, 100.00390625, 100.005859375], [-3.9375, -3.8125, -3.6875, -3.5625, -3.4375, -3.3125, -3.1875, -3.0625, -2.9375, -2.8125, -2.6875, -2.5625, -2.4375, -2.3125, -2.1875, -2.0625, -1.9375, -1.8125, -1.6875, -1.5625, -1.4375, -1.3125, -1.1875, -1.0625, -0.9375, -0.8125, -0.6875, -0.5625, -0.4375, -0.3125, -0.1875, -0.0625, 0.0625, 0.1875, 0.3125, 0.4375, 0.5625, 0.6875, 0.8125, 0.9375, 1.0625, 1.1875, 1.3125, 1.4375, 1.5625, 1.6875, 1.8125, 1.9375, 2.0625, 2.1875, 2.3125, 2.4375, 2.5625, 2.6875, 2.8125, 2.9375, 3.0625, 3.1875, 3.3125, 3.4375, 3.5625, 3.6875, 3.8125, 3.9375]]> : tensor<4x64xf32>
  %y = func.call @layer_norm(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %u = tensor.cast %y : tensor<4x64xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
