// An attention head whose logits (65524 to 65564) exceed f16's largest
// finite value, 65504. Precision inference is told to run every generic in
// f16 (matmuls keep their f32 accumulators, as AMP does).
//
// With FP32 islands the softmax runs in f32 on the f32 logits: the output
// is finite and within (2^-11 + 2^-20) * max|v| of the f64 reference (the
// probabilities are rounded once to f16, the f32 accumulation of p.v adds
// at most 8 * 2^-24 relatively; the checker derives the bound from f16).
// RUN: fp-opt %s -lowp-insert-fp32-islands -lowp-infer-precision="low=f16 force-low=linalg.generic" \
// RUN:   -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | %python %S/Inputs/check_islands.py attention islands
//
// The same without islands: the logits round to inf in f16 and the softmax
// produces NaN (inf - inf). The checker asserts a non-finite output.
// RUN: fp-opt %s -lowp-infer-precision="low=f16 force-low=linalg.generic" \
// RUN:   -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | %python %S/Inputs/check_islands.py attention no-islands

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @attention(%q: tensor<4x16xf32>, %kt: tensor<16x8xf32>, %v: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %el = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%el : tensor<4x8xf32>) -> tensor<4x8xf32>
  %logits = linalg.matmul ins(%q, %kt : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  // Softmax over the keys, as torch-mlir decomposes it.
  %er = tensor.empty() : tensor<4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<4x8xf32>) outs(%fm : tensor<4xf32>) {
  ^bb0(%in: f32, %a: f32):
    %m = arith.maximumf %in, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%el : tensor<4x8xf32>) {
  ^bb0(%l: f32, %m: f32, %o: f32):
    %s = arith.subf %l, %m : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x8xf32>) outs(%fs : tensor<4xf32>) {
  ^bb0(%in: f32, %a: f32):
    %s = arith.addf %in, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%el : tensor<4x8xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %d = arith.divf %e, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %eo = tensor.empty() : tensor<4x16xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16xf32>) -> tensor<4x16xf32>
  %out = linalg.matmul ins(%p, %v : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %out : tensor<4x16xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %q = arith.constant dense<[[256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0], [255.75, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0], [255.5, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0], [255.25, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0, 256.0]]> : tensor<4x16xf32>
  %kt = arith.constant dense<[[16.0, 16.015625, 16.03125, 16.046875, 16.0625, 16.078125, 16.09375, 16.109375], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0]]> : tensor<16x8xf32>
  %v = arith.constant dense<[[-1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0], [-1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5], [-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0], [-0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5], [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0], [0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0, 4.25, 4.5], [1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0], [1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0, 5.25, 5.5]]> : tensor<8x16xf32>
  %out = func.call @attention(%q, %kt, %v) : (tensor<4x16xf32>, tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %u = tensor.cast %out : tensor<4x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
