// A JAX (Gemma-style) decoder MLP block with its tied-embedding logits and
// cross-entropy loss, `jax.jit(...).lower()` to StableHLO and then
// `stablehlo-legalize-to-linalg` with `enable-primitive-ops` (as IREE's
// StableHLO input conversion does): elementwise ops as one `linalg.map` each
// (short form), `stablehlo.reduce` as `linalg.reduce` into a `linalg.fill` of
// a `tensor.extract`ed 0-d init constant, `broadcast_in_dim` as
// `linalg.broadcast`, scalar operands as full splat constants, `dot_general`
// with a transposed right-hand side as a contraction `linalg.generic` or as
// `linalg.matmul` with `indexing_maps`, `iota` + `compare` one-hot labels as a
// `linalg.index` generic over i32 labels, RMSNorm in a private function that
// `@main` calls twice (`func.call`), GELU in its tanh form, `mhlo.*` / `jax.*`
// argument and result attributes. Sizes: 8 tokens, model 32, hidden 64,
// vocabulary 16.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
module @jit_loss_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x32xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}, %arg1: tensor<8xi32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}, %arg2: tensor<32xf32> {mhlo.layout_mode = "default"}, %arg3: tensor<64x32xf32> {mhlo.layout_mode = "default"}, %arg4: tensor<64x32xf32> {mhlo.layout_mode = "default"}, %arg5: tensor<64x32xf32> {mhlo.layout_mode = "default"}, %arg6: tensor<16x32xf32> {mhlo.layout_mode = "default"}) -> (tensor<f32> {jax.result_info = ""}) {
    %0 = call @rms_norm(%arg0, %arg2) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
    // gate = dot_general(x, W_gate, contracting = [1] x [1]).
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8x64xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%0, %arg3 : tensor<8x32xf32>, tensor<64x32xf32>) outs(%2 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      %41 = arith.addf %out, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<8x64xf32>
    // up = dot_general(x, W_up, contracting = [1] x [1]).
    %4 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%0, %arg4 : tensor<8x32xf32>, tensor<64x32xf32>) outs(%2 : tensor<8x64xf32>) -> tensor<8x64xf32>
    // jax.nn.gelu(gate, approximate=True) * up.
    %cst_0 = arith.constant dense<4.471500e-02> : tensor<8x64xf32>
    %cst_1 = arith.constant dense<0.797884583> : tensor<8x64xf32>
    %cst_2 = arith.constant dense<1.000000e+00> : tensor<8x64xf32>
    %cst_3 = arith.constant dense<5.000000e-01> : tensor<8x64xf32>
    %mapped = linalg.map { arith.mulf } ins(%3, %3 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_4 = linalg.map { arith.mulf } ins(%mapped, %3 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_5 = linalg.map { arith.mulf } ins(%cst_0, %mapped_4 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_6 = linalg.map { arith.addf } ins(%3, %mapped_5 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_7 = linalg.map { arith.mulf } ins(%cst_1, %mapped_6 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_8 = linalg.map { math.tanh } ins(%mapped_7 : tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_9 = linalg.map { arith.addf } ins(%cst_2, %mapped_8 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_10 = linalg.map { arith.mulf } ins(%cst_3, %mapped_9 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_11 = linalg.map { arith.mulf } ins(%3, %mapped_10 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    %mapped_12 = linalg.map { arith.mulf } ins(%mapped_11, %4 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%1 : tensor<8x64xf32>)
    // down = dot(h, transpose(W_down)), residual, final norm.
    %5 = tensor.empty() : tensor<32x64xf32>
    %transposed = linalg.transpose ins(%arg5 : tensor<64x32xf32>) outs(%5 : tensor<32x64xf32>) permutation = [1, 0]
    %6 = tensor.empty() : tensor<8x32xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%mapped_12, %transposed : tensor<8x64xf32>, tensor<32x64xf32>) outs(%7 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      %41 = arith.addf %out, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<8x32xf32>
    %mapped_13 = linalg.map { arith.addf } ins(%arg0, %8 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%6 : tensor<8x32xf32>)
    %9 = call @rms_norm(%mapped_13, %arg2) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
    // logits = dot_general(y, embedding, contracting = [1] x [1]).
    %10 = tensor.empty() : tensor<8x16xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9, %arg6 : tensor<8x32xf32>, tensor<16x32xf32>) outs(%11 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %40 = arith.mulf %in, %in_20 : f32
      %41 = arith.addf %out, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<8x16xf32>
    // jax.nn.log_softmax(logits).
    %cst_14 = arith.constant dense<0xFF800000> : tensor<f32>
    %extracted = tensor.extract %cst_14[] : tensor<f32>
    %13 = tensor.empty() : tensor<8xf32>
    %14 = linalg.fill ins(%extracted : f32) outs(%13 : tensor<8xf32>) -> tensor<8xf32>
    %reduced = linalg.reduce { arith.maximumf } ins(%12 : tensor<8x16xf32>) outs(%14 : tensor<8xf32>) dimensions = [1]
    %broadcasted = linalg.broadcast ins(%reduced : tensor<8xf32>) outs(%10 : tensor<8x16xf32>) dimensions = [1]
    %mapped_15 = linalg.map { arith.subf } ins(%12, %broadcasted : tensor<8x16xf32>, tensor<8x16xf32>) outs(%10 : tensor<8x16xf32>)
    %mapped_16 = linalg.map { math.exp } ins(%mapped_15 : tensor<8x16xf32>) outs(%10 : tensor<8x16xf32>)
    %cst_17 = arith.constant dense<0.000000e+00> : tensor<f32>
    %extracted_18 = tensor.extract %cst_17[] : tensor<f32>
    %15 = linalg.fill ins(%extracted_18 : f32) outs(%13 : tensor<8xf32>) -> tensor<8xf32>
    %reduced_19 = linalg.reduce { arith.addf } ins(%mapped_16 : tensor<8x16xf32>) outs(%15 : tensor<8xf32>) dimensions = [1]
    %mapped_20 = linalg.map { math.log } ins(%reduced_19 : tensor<8xf32>) outs(%13 : tensor<8xf32>)
    %broadcasted_21 = linalg.broadcast ins(%mapped_20 : tensor<8xf32>) outs(%10 : tensor<8x16xf32>) dimensions = [1]
    %mapped_22 = linalg.map { arith.subf } ins(%mapped_15, %broadcasted_21 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%10 : tensor<8x16xf32>)
    // one_hot(labels, 16) from iota == labels.
    %16 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<8xi32>) outs(%10 : tensor<8x16xf32>) {
    ^bb0(%in: i32, %out: f32):
      %40 = linalg.index 1 : index
      %41 = arith.index_cast %40 : index to i32
      %42 = arith.cmpi eq, %in, %41 : i32
      %43 = arith.uitofp %42 : i1 to f32
      linalg.yield %43 : f32
    } -> tensor<8x16xf32>
    // loss = -sum(one_hot * log_softmax) / 8.
    %mapped_23 = linalg.map { arith.mulf } ins(%16, %mapped_22 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%10 : tensor<8x16xf32>)
    %17 = tensor.empty() : tensor<f32>
    %18 = linalg.fill ins(%extracted_18 : f32) outs(%17 : tensor<f32>) -> tensor<f32>
    %reduced_24 = linalg.reduce { arith.addf } ins(%mapped_23 : tensor<8x16xf32>) outs(%18 : tensor<f32>) dimensions = [0, 1]
    %mapped_25 = linalg.map { arith.negf } ins(%reduced_24 : tensor<f32>) outs(%17 : tensor<f32>)
    %cst_26 = arith.constant dense<8.000000e+00> : tensor<f32>
    %mapped_27 = linalg.map { arith.divf } ins(%mapped_25, %cst_26 : tensor<f32>, tensor<f32>) outs(%17 : tensor<f32>)
    return %mapped_27 : tensor<f32>
  }
  func.func private @rms_norm(%arg0: tensor<8x32xf32>, %arg1: tensor<32xf32>) -> tensor<8x32xf32> {
    %0 = tensor.empty() : tensor<8x32xf32>
    %mapped = linalg.map { arith.mulf } ins(%arg0, %arg0 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%0 : tensor<8x32xf32>)
    %cst = arith.constant dense<0.000000e+00> : tensor<f32>
    %extracted = tensor.extract %cst[] : tensor<f32>
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%extracted : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %reduced = linalg.reduce { arith.addf } ins(%mapped : tensor<8x32xf32>) outs(%2 : tensor<8xf32>) dimensions = [1]
    %cst_0 = arith.constant dense<3.200000e+01> : tensor<8xf32>
    %mapped_1 = linalg.map { arith.divf } ins(%reduced, %cst_0 : tensor<8xf32>, tensor<8xf32>) outs(%1 : tensor<8xf32>)
    %cst_2 = arith.constant dense<9.99999997E-7> : tensor<8xf32>
    %mapped_3 = linalg.map { arith.addf } ins(%mapped_1, %cst_2 : tensor<8xf32>, tensor<8xf32>) outs(%1 : tensor<8xf32>)
    %mapped_4 = linalg.map { math.rsqrt } ins(%mapped_3 : tensor<8xf32>) outs(%1 : tensor<8xf32>)
    %broadcasted = linalg.broadcast ins(%mapped_4 : tensor<8xf32>) outs(%0 : tensor<8x32xf32>) dimensions = [1]
    %mapped_5 = linalg.map { arith.mulf } ins(%arg0, %broadcasted : tensor<8x32xf32>, tensor<8x32xf32>) outs(%0 : tensor<8x32xf32>)
    %cst_6 = arith.constant dense<1.000000e+00> : tensor<32xf32>
    %3 = tensor.empty() : tensor<32xf32>
    %mapped_7 = linalg.map { arith.addf } ins(%cst_6, %arg1 : tensor<32xf32>, tensor<32xf32>) outs(%3 : tensor<32xf32>)
    %broadcasted_8 = linalg.broadcast ins(%mapped_7 : tensor<32xf32>) outs(%0 : tensor<8x32xf32>) dimensions = [0]
    %mapped_9 = linalg.map { arith.mulf } ins(%mapped_5, %broadcasted_8 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%0 : tensor<8x32xf32>)
    return %mapped_9 : tensor<8x32xf32>
  }
}
