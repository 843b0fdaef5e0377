// The bundled MLP (examples/models/mlp.mlir) through the whole path:
// lowp-auto-mixed-precision (bf16 policy for sapphirerapids) then
// lowp-pipeline-x86 for this AVX2 host, executed, against the same model
// run in f32 through the same pipeline. Bound on max|bf16 - f32| / max|f32|
// of the softmax output: at most 2^-5 (bf16 unit roundoff 2^-8, two matmul
// layers with rounded inputs and hidden activations, GELU and softmax
// amplify by a small factor), at least 2^-14 (bf16 really was used).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.f32
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.bf16
// RUN: %python %S/Inputs/compare.py %t.f32 %t.bf16 6.103515625e-05 0.03125 | FileCheck %s
// CHECK: PASS

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>
module {
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

  func.func private @printMemrefF32(tensor<*xf32>)

  // Deterministic values in [-scale, scale].
  func.func @make(%seed: index, %scale: f32, %rows: index, %cols: index) -> tensor<?x?xf32> {
    %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
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

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %one = arith.constant 1.0 : f32
    %w = arith.constant 0.25 : f32
    %xd = call @make(%c0, %one, %c8, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
    %w1d = call @make(%c1, %w, %c64, %c128) : (index, f32, index, index) -> tensor<?x?xf32>
    %b1d = call @make(%c2, %w, %c1, %c128) : (index, f32, index, index) -> tensor<?x?xf32>
    %w2d = call @make(%c3, %w, %c128, %c10) : (index, f32, index, index) -> tensor<?x?xf32>
    %b2d = call @make(%c4, %w, %c1, %c10) : (index, f32, index, index) -> tensor<?x?xf32>
    %x = tensor.cast %xd : tensor<?x?xf32> to tensor<8x64xf32>
    %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<64x128xf32>
    %b1s = tensor.cast %b1d : tensor<?x?xf32> to tensor<1x128xf32>
    %b1 = tensor.collapse_shape %b1s [[0, 1]] : tensor<1x128xf32> into tensor<128xf32>
    %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<128x10xf32>
    %b2s = tensor.cast %b2d : tensor<?x?xf32> to tensor<1x10xf32>
    %b2 = tensor.collapse_shape %b2s [[0, 1]] : tensor<1x10xf32> into tensor<10xf32>
    %y = call @mlp(%x, %w1, %b1, %w2, %b2) : (tensor<8x64xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>) -> tensor<8x10xf32>
    %u = tensor.cast %y : tensor<8x10xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
