// A two-layer MLP classifier head in f32 linalg-on-tensors, as torch-mlir
// emits it: matmul + bias + GELU (tanh form), matmul + bias + ReLU, then a
// softmax over the classes. The README's main job runs fp-opt on it:
//   fp-opt examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90"
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>

func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>, %b2: tensor<10xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  // Layer 1: x @ w1 + b1, GELU.
  %e1 = tensor.empty() : tensor<8x128xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x128xf32>)
                      outs(%acc1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %z1 = linalg.generic {indexing_maps = [#id, #row, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h1, %b1 : tensor<8x128xf32>, tensor<128xf32>) outs(%e1 : tensor<8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x128xf32>
  %g1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<8x128xf32>) outs(%e1 : tensor<8x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    // 0.5 * a * (1 + tanh(0.7978845608 * (a + 0.044715 * a^3)))
    %c0 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %c3 = arith.constant 0.044715 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %t0 = arith.mulf %c3, %a3 : f32
    %t1 = arith.addf %a, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %c1, %t3 : f32
    %t5 = arith.mulf %c0, %a : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  // Layer 2: g1 @ w2 + b2, ReLU.
  %e2 = tensor.empty() : tensor<8x10xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %h2 = linalg.matmul ins(%g1, %w2 : tensor<8x128xf32>, tensor<128x10xf32>)
                      outs(%acc2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %z2 = linalg.generic {indexing_maps = [#id, #row, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h2, %b2 : tensor<8x10xf32>, tensor<10xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x10xf32>
  // Class probabilities: softmax as torch-mlir decomposes it
  // (max, exp(x - max), sum, divide).
  %ninf = arith.constant 0xFF800000 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #col],
                       iterator_types = ["parallel", "reduction"]}
      ins(%z2 : tensor<8x10xf32>) outs(%m0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #col, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%z2, %m : tensor<8x10xf32>, tensor<8xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x10xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #col],
                       iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x10xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<8x10xf32>, tensor<8xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
