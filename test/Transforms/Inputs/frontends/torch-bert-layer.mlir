// A BERT encoder layer (token + position embedding, 2-head self-attention
// with an additive padding mask, two LayerNorms, a GELU feed-forward) in the
// textual form torch-mlir's TorchToLinalg emits for a `torch.export`ed
// nn.Module (fx_importer, `linalg-on-tensors` output): `#map` aliases,
// `ml_program.global` for the RNG seed, `nn.Linear` as `linalg.transpose` of
// the weight + `linalg.fill` + `linalg.matmul` over collapsed activations,
// head split/merge as `tensor.expand_shape` / `linalg.transpose` /
// `tensor.collapse_shape`, `aten.embedding` as a gather generic
// (`linalg.index` + `tensor.extract` on i64 ids), `aten._softmax` decomposed
// into amax / sub+exp / sum / div generics with keep-dim `(d0, d1, d2, 0)`
// maps, `aten.native_layer_norm` with its variance accumulated in f64 (as
// `aten.var_mean` decomposes), exact GELU via `math.erf`, HuggingFace's
// `(1 - mask) * finfo.min` mask, parameters as `dense_resource` constants
// (some elided by the exporter) and splats, and `torch.*` argument
// attributes. Written for fp-opt at small sizes (batch 2, sequence 8,
// hidden 32, 2 heads of 16, feed-forward 64, vocabulary 100).
#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map9 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map10 = affine_map<(d0, d1, d2) -> (d2)>
#map11 = affine_map<(d0, d1) -> (d0, d1, 0)>
module attributes {torch.debug_module_name = "BertLayer"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x8xi64> {torch.type_bound = "vtensor<[2,8],si64>"},
                     %arg1: tensor<2x8xf32> {torch.type_bound = "vtensor<[2,8],f32>"},
                     %arg2: tensor<64x32xf32>, %arg3: tensor<32x64xf32>) -> tensor<2x8x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant -3.40282347E+38 : f32
    %cst_3 = arith.constant 4.000000e+00 : f32
    %cst_4 = arith.constant 3.200000e+01 : f32
    %cst_5 = arith.constant 9.9999999999999998E-13 : f64
    %cst_6 = arith.constant 0.000000e+00 : f64
    %cst_7 = arith.constant 3.200000e+01 : f64
    %cst_8 = arith.constant 5.000000e-01 : f32
    %cst_9 = arith.constant 0.70710678118654757 : f32
    %cst_10 = arith.constant 9.9999999999999998E-13 : f32
    %word_embeddings = arith.constant dense_resource<__elided__> : tensor<100x32xf32>
    %position_embeddings = arith.constant dense<2.000000e-02> : tensor<8x32xf32>
    %q_weight = arith.constant dense_resource<__elided__> : tensor<32x32xf32>
    %q_bias = arith.constant dense_resource<torch_tensor_32_torch.float32> : tensor<32xf32>
    %k_weight = arith.constant dense_resource<__elided__> : tensor<32x32xf32>
    %k_bias = arith.constant dense_resource<torch_tensor_32_torch.float32_1> : tensor<32xf32>
    %v_weight = arith.constant dense_resource<__elided__> : tensor<32x32xf32>
    %v_bias = arith.constant dense_resource<torch_tensor_32_torch.float32_2> : tensor<32xf32>
    %o_weight = arith.constant dense<1.250000e-02> : tensor<32x32xf32>
    %ln_weight = arith.constant dense<1.000000e+00> : tensor<32xf32>
    %ln_bias = arith.constant dense<0.000000e+00> : tensor<32xf32>
    %ffn_bias = arith.constant dense_resource<torch_tensor_64_torch.float32> : tensor<64xf32>
    // aten.embedding(word_embeddings, input_ids) + position embeddings.
    %0 = tensor.empty() : tensor<2x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x8xi64>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %103 = arith.index_cast %in : i64 to index
      %104 = linalg.index 2 : index
      %extracted = tensor.extract %word_embeddings[%103, %104] : tensor<100x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x8x32xf32>
    %2 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %position_embeddings : tensor<2x8x32xf32>, tensor<8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x32xf32>
    // Extended attention mask: (1.0 - mask) * finfo(float32).min.
    %3 = tensor.empty() : tensor<2x1x1x8xf32>
    %expanded = tensor.expand_shape %arg1 [[0, 1, 2], [3]] output_shape [2, 1, 1, 8] : tensor<2x8xf32> into tensor<2x1x1x8xf32>
    %4 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x1x1x8xf32>) outs(%3 : tensor<2x1x1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.subf %cst_1, %in : f32
      %104 = arith.mulf %103, %cst_2 : f32
      linalg.yield %104 : f32
    } -> tensor<2x1x1x8xf32>
    // Q, K, V projections: aten.linear as transpose + mm on the flattened rows.
    %collapsed = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %5 = tensor.empty() : tensor<32x32xf32>
    %transposed = linalg.transpose ins(%q_weight : tensor<32x32xf32>) outs(%5 : tensor<32x32xf32>) permutation = [1, 0]
    %6 = tensor.empty() : tensor<16x32xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %8 = linalg.matmul ins(%collapsed, %transposed : tensor<16x32xf32>, tensor<32x32xf32>) outs(%7 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %9 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%8, %q_bias : tensor<16x32xf32>, tensor<32xf32>) outs(%6 : tensor<16x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<16x32xf32>
    %transposed_12 = linalg.transpose ins(%k_weight : tensor<32x32xf32>) outs(%5 : tensor<32x32xf32>) permutation = [1, 0]
    %10 = linalg.matmul ins(%collapsed, %transposed_12 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%7 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %11 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%10, %k_bias : tensor<16x32xf32>, tensor<32xf32>) outs(%6 : tensor<16x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<16x32xf32>
    %transposed_13 = linalg.transpose ins(%v_weight : tensor<32x32xf32>) outs(%5 : tensor<32x32xf32>) permutation = [1, 0]
    %12 = linalg.matmul ins(%collapsed, %transposed_13 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%7 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %13 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%12, %v_bias : tensor<16x32xf32>, tensor<32xf32>) outs(%6 : tensor<16x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<16x32xf32>
    // view(2, 8, 2, 16).permute(0, 2, 1, 3) for each of Q, K, V.
    %expanded_14 = tensor.expand_shape %9 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %14 = tensor.empty() : tensor<2x2x8x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<2x8x2x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
    %expanded_16 = tensor.expand_shape %11 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %transposed_17 = linalg.transpose ins(%expanded_16 : tensor<2x8x2x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
    %expanded_18 = tensor.expand_shape %13 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %transposed_19 = linalg.transpose ins(%expanded_18 : tensor<2x8x2x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
    // scores = q @ k.transpose(-1, -2) / sqrt(16) + mask.
    %15 = tensor.empty() : tensor<2x2x16x8xf32>
    %transposed_20 = linalg.transpose ins(%transposed_17 : tensor<2x2x8x16xf32>) outs(%15 : tensor<2x2x16x8xf32>) permutation = [0, 1, 3, 2]
    %collapsed_21 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
    %collapsed_22 = tensor.collapse_shape %transposed_20 [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
    %16 = tensor.empty() : tensor<4x8x8xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %18 = linalg.batch_matmul ins(%collapsed_21, %collapsed_22 : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%17 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_23 = tensor.expand_shape %18 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
    %19 = tensor.empty() : tensor<2x2x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_23, %cst_3 : tensor<2x2x8x8xf32>, f32) outs(%19 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.divf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x8xf32>
    %21 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %4 : tensor<2x2x8x8xf32>, tensor<2x1x1x8xf32>) outs(%19 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x8xf32>
    // aten._softmax(scores, -1, false), decomposed.
    %22 = tensor.empty() : tensor<2x2x8x1xf32>
    %23 = linalg.fill ins(%cst_0 : f32) outs(%22 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
    %24 = linalg.generic {indexing_maps = [#map5, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%21 : tensor<2x2x8x8xf32>) outs(%23 : tensor<2x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.maximumf %in, %out : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x1xf32>
    %25 = linalg.generic {indexing_maps = [#map5, #map8, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %24 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%19 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.subf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x8xf32>
    %26 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<2x2x8x8xf32>) outs(%19 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = math.exp %in : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x8xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%22 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
    %28 = linalg.generic {indexing_maps = [#map5, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%26 : tensor<2x2x8x8xf32>) outs(%27 : tensor<2x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.addf %in, %out : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x1xf32>
    %29 = linalg.generic {indexing_maps = [#map5, #map8, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %28 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%19 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.divf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x2x8x8xf32>
    // context = probs @ v, permute(0, 2, 1, 3), view(2, 8, 32).
    %collapsed_24 = tensor.collapse_shape %29 [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_25 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
    %30 = tensor.empty() : tensor<4x8x16xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %32 = linalg.batch_matmul ins(%collapsed_24, %collapsed_25 : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%31 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %expanded_26 = tensor.expand_shape %32 [[0, 1], [2], [3]] output_shape [2, 2, 8, 16] : tensor<4x8x16xf32> into tensor<2x2x8x16xf32>
    %33 = tensor.empty() : tensor<2x8x2x16xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<2x2x8x16xf32>) outs(%33 : tensor<2x8x2x16xf32>) permutation = [0, 2, 1, 3]
    %collapsed_28 = tensor.collapse_shape %transposed_27 [[0, 1], [2, 3]] : tensor<2x8x2x16xf32> into tensor<16x32xf32>
    // Output projection (no bias) and residual.
    %transposed_29 = linalg.transpose ins(%o_weight : tensor<32x32xf32>) outs(%5 : tensor<32x32xf32>) permutation = [1, 0]
    %34 = linalg.matmul ins(%collapsed_28, %transposed_29 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%7 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded_30 = tensor.expand_shape %34 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_30, %2 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x32xf32>
    // aten.native_layer_norm(%35, [32], weight, bias, 1e-12): the variance in
    // f64 (aten.var_mean), the mean in f32.
    %36 = tensor.empty() : tensor<2x8x32xf64>
    %37 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35 : tensor<2x8x32xf32>) outs(%36 : tensor<2x8x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %103 = arith.extf %in : f32 to f64
      linalg.yield %103 : f64
    } -> tensor<2x8x32xf64>
    %38 = tensor.empty() : tensor<2x8x1xf64>
    %39 = linalg.fill ins(%cst_6 : f64) outs(%38 : tensor<2x8x1xf64>) -> tensor<2x8x1xf64>
    %40 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%37 : tensor<2x8x32xf64>) outs(%39 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %103 = arith.addf %in, %out : f64
      linalg.yield %103 : f64
    } -> tensor<2x8x1xf64>
    %41 = linalg.generic {indexing_maps = [#map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%40 : tensor<2x8x1xf64>) outs(%38 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %103 = arith.divf %in, %cst_7 : f64
      linalg.yield %103 : f64
    } -> tensor<2x8x1xf64>
    %42 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%37, %41 : tensor<2x8x32xf64>, tensor<2x8x1xf64>) outs(%36 : tensor<2x8x32xf64>) {
    ^bb0(%in: f64, %in_11: f64, %out: f64):
      %103 = arith.subf %in, %in_11 : f64
      %104 = arith.mulf %103, %103 : f64
      linalg.yield %104 : f64
    } -> tensor<2x8x32xf64>
    %43 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%42 : tensor<2x8x32xf64>) outs(%39 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %103 = arith.addf %in, %out : f64
      linalg.yield %103 : f64
    } -> tensor<2x8x1xf64>
    %44 = tensor.empty() : tensor<2x8x1xf32>
    %45 = linalg.generic {indexing_maps = [#map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%43 : tensor<2x8x1xf64>) outs(%44 : tensor<2x8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %103 = arith.divf %in, %cst_7 : f64
      %104 = arith.truncf %103 : f64 to f32
      linalg.yield %104 : f32
    } -> tensor<2x8x1xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%44 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %47 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%35 : tensor<2x8x32xf32>) outs(%46 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.addf %in, %out : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x1xf32>
    %48 = linalg.generic {indexing_maps = [#map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%47 : tensor<2x8x1xf32>) outs(%44 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.divf %in, %cst_4 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x1xf32>
    %49 = linalg.generic {indexing_maps = [#map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%45 : tensor<2x8x1xf32>) outs(%44 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.truncf %cst_5 : f64 to f32
      %104 = arith.addf %in, %103 : f32
      %105 = math.rsqrt %104 : f32
      linalg.yield %105 : f32
    } -> tensor<2x8x1xf32>
    %50 = linalg.generic {indexing_maps = [#map1, #map9, #map9, #map10, #map10, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35, %48, %49, %ln_weight, %ln_bias : tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<2x8x1xf32>, tensor<32xf32>, tensor<32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %in_12: f32, %in_13: f32, %in_14: f32, %out: f32):
      %103 = arith.subf %in, %in_11 : f32
      %104 = arith.mulf %103, %in_12 : f32
      %105 = arith.mulf %104, %in_13 : f32
      %106 = arith.addf %105, %in_14 : f32
      linalg.yield %106 : f32
    } -> tensor<2x8x32xf32>
    // Feed-forward: linear(32 -> 64), exact GELU, linear(64 -> 32).
    %collapsed_31 = tensor.collapse_shape %50 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %51 = tensor.empty() : tensor<32x64xf32>
    %transposed_32 = linalg.transpose ins(%arg2 : tensor<64x32xf32>) outs(%51 : tensor<32x64xf32>) permutation = [1, 0]
    %52 = tensor.empty() : tensor<16x64xf32>
    %53 = linalg.fill ins(%cst : f32) outs(%52 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %54 = linalg.matmul ins(%collapsed_31, %transposed_32 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%53 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %55 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%54, %ffn_bias : tensor<16x64xf32>, tensor<64xf32>) outs(%52 : tensor<16x64xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<16x64xf32>
    %56 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%55 : tensor<16x64xf32>) outs(%52 : tensor<16x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.mulf %in, %cst_9 : f32
      %104 = math.erf %103 : f32
      %105 = arith.addf %104, %cst_1 : f32
      %106 = arith.mulf %105, %cst_8 : f32
      %107 = arith.mulf %in, %106 : f32
      linalg.yield %107 : f32
    } -> tensor<16x64xf32>
    %57 = tensor.empty() : tensor<64x32xf32>
    %transposed_33 = linalg.transpose ins(%arg3 : tensor<32x64xf32>) outs(%57 : tensor<64x32xf32>) permutation = [1, 0]
    %58 = linalg.matmul ins(%56, %transposed_33 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%7 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded_34 = tensor.expand_shape %58 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %59 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34, %50 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.addf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x32xf32>
    // Output LayerNorm, all in f32 (mean, centred square, mean, rsqrt).
    %60 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%59 : tensor<2x8x32xf32>) outs(%46 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.addf %in, %out : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x1xf32>
    %61 = linalg.generic {indexing_maps = [#map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<2x8x1xf32>) outs(%44 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.divf %in, %cst_4 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x1xf32>
    %62 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%59, %61 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.subf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x32xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62, %62 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %103 = arith.mulf %in, %in_11 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x32xf32>
    %64 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%63 : tensor<2x8x32xf32>) outs(%46 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.addf %in, %out : f32
      linalg.yield %103 : f32
    } -> tensor<2x8x1xf32>
    %65 = linalg.generic {indexing_maps = [#map9, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64 : tensor<2x8x1xf32>) outs(%44 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %103 = arith.divf %in, %cst_4 : f32
      %104 = arith.addf %103, %cst_10 : f32
      %105 = math.rsqrt %104 : f32
      linalg.yield %105 : f32
    } -> tensor<2x8x1xf32>
    %66 = linalg.generic {indexing_maps = [#map1, #map9, #map10, #map10, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62, %65, %ln_weight, %ln_bias : tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<32xf32>, tensor<32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_11: f32, %in_12: f32, %in_13: f32, %out: f32):
      %103 = arith.mulf %in, %in_11 : f32
      %104 = arith.mulf %103, %in_12 : f32
      %105 = arith.addf %104, %in_13 : f32
      linalg.yield %105 : f32
    } -> tensor<2x8x32xf32>
    return %66 : tensor<2x8x32xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_32_torch.float32: "0x04000000F93166BDDDB504BC31082CBD5DFEC3BD713D8A3DA323393CD578E93C499D80BD5EBAC93DBC74933D083D9BBD4C3709BDEB73353DE8D92C3D58CAB23D24977FBC022B873D71AC0B3D09F920BD295C8F3C08AC9C3DBBB88D3DE02D903A4ED1913C36ABBEBDAAF152BD46B6733D4D158CBC6FF085BD2E90203C304C263D4DF30E3D",
      torch_tensor_32_torch.float32_1: "0x04000000849ECDBC82E247BC89D2DE3AAF25643D27A0893B567DAEBC27A009BB80B7C0BD7FFBBABD0BB5263D39D6C53D075F983C567DAEBC94F686BD17B7D1395D6DC53DF6975D3D006F013C2AA9933DAC8B5BBD3480373B1058B93D24977F3C4B5906BC5BD33CBD52491D3CEC2FBB3D158CCABD423E683DDC46833D091B9E3D8104453D",
      torch_tensor_32_torch.float32_2: "0x04000000FF217D3DB37B723BF085493CB37B72BCC6DCB5BD508D973D4260653C8FC275BDFAED6B3AA69B44BB8C4AEABC4850FCBC4850FC3BA857CA3CEC51B83C27A009BCCA54C1BDF6975DBD014D84BDDE718A3C98DD933DFD87743D6A4D733D6EA3813D5E4B48BDDFE08B3DBBB80D3D9FCDAABDA60AC6BD5DDCC6BD3C4E513DA8354DBD",
      torch_tensor_64_torch.float32: "0x04000000E5F29FBDCDCCCC3C6DC5FEBC3255B0BD03788BBD5839B43BB9FC87BD5AF539BDC4422D3D2B1815BC4ED111BDC364AABBA52CC3BD5AF5B9BC006F81BC24977FBD5227A0BD0AD7A33D6F12033B20636EBDE8D9AC3CDCD7813DCA32C4BD5D6DC5BD29CB90BDA167333D96438BBDC286273D4ED1113D4ED1113C66F764BDCAC3C23D211F743DD044583B1CEB62BD6A4DF33C3108ACBC6C09793C05A312BD62A1D63C34A2B4BD9D1125BD5BB1BF3D07CE993DE4831EBD73D7923D083D1BBDEA04B43D82E2473D27A089BC83C04ABD8351C9BD9A089B3D363CBDBD01DE823D363CBD3DB003673CB98D86BD99BB963D8126C23DE71D273DFAEDEB3A82E2C7BCDAACFABC"
    }
  }
#-}
