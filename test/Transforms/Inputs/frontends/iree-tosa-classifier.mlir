// A MobileNet-style image classifier with a distillation head, as IREE's
// input pipeline hands it over after TOSA-to-linalg (a TFLite model through
// `tosa-to-linalg-named` / `tosa-to-linalg`) and global optimization's
// softmax raising: NHWC `linalg.conv_2d_nhwc_fhwc` (TOSA's OHWI weights)
// into a bias-broadcast init, `linalg.depthwise_conv_2d_nhwc_hwcm` followed
// by `tensor.collapse_shape` of the multiplier, `tosa.clamp` (ReLU6) as
// `arith.minimumf` / `arith.maximumf`, `tosa.avg_pool2d` as
// `linalg.pooling_nhwc_sum` and a divide by the window size,
// `tosa.fully_connected` as a transposing generic + `linalg.matmul` into the
// broadcast bias, the main head's softmax raised to `linalg.softmax`, the
// distillation head's TOSA softmax left decomposed (reduce_max, sub, exp,
// reduce_sum with keep-dim `tensor.expand_shape`, `tosa.reciprocal` as a
// `1 / x` generic, mul), weights as inline dense constants. Sizes: a 1x16x16x3
// image, 8 channels, 10 classes.
#map = affine_map<(d0, d1, d2, d3) -> (d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1) -> (d1, d0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1) -> (d0)>
#map6 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @main(%arg0: tensor<1x16x16x3xf32> {ml_program.identifier = "input_1"}) -> (tensor<1x10xf32> {ml_program.identifier = "Identity"}, tensor<1x10xf32> {ml_program.identifier = "Identity_1"}) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 6.000000e+00 : f32
    %cst_1 = arith.constant 2.560000e+02 : f32
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant -3.40282347E+38 : f32
    %cst_4 = arith.constant 2.500000e-01 : f32
    %cst_5 = arith.constant dense<5.000000e-02> : tensor<8x3x3x3xf32>
    %cst_6 = arith.constant dense<[1.000000e-02, -2.000000e-02, 3.000000e-02, 0.000000e+00, 5.000000e-03, -1.000000e-02, 2.000000e-02, 1.000000e-02]> : tensor<8xf32>
    %cst_7 = arith.constant dense<1.250000e-01> : tensor<3x3x8x1xf32>
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %cst_9 = arith.constant dense<[[1.000000e-01, -2.000000e-01, 3.000000e-01, -4.000000e-01, 5.000000e-01, -6.000000e-01, 7.000000e-01, -8.000000e-01], [2.500000e-01, 1.250000e-01, -2.500000e-01, 5.000000e-01, -1.250000e-01, 7.500000e-01, -5.000000e-01, 3.750000e-01], [9.000000e-02, -8.000000e-02, 7.000000e-02, -6.000000e-02, 5.000000e-02, -4.000000e-02, 3.000000e-02, -2.000000e-02], [1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00], [3.000000e-01, 3.000000e-01, 3.000000e-01, 3.000000e-01, -3.000000e-01, -3.000000e-01, -3.000000e-01, -3.000000e-01], [1.500000e-01, -1.500000e-01, 2.500000e-01, -2.500000e-01, 3.500000e-01, -3.500000e-01, 4.500000e-01, -4.500000e-01], [6.000000e-01, 5.000000e-01, 4.000000e-01, 3.000000e-01, 2.000000e-01, 1.000000e-01, 0.000000e+00, -1.000000e-01], [-7.000000e-01, 6.000000e-01, -5.000000e-01, 4.000000e-01, -3.000000e-01, 2.000000e-01, -1.000000e-01, 0.000000e+00], [1.100000e-01, 2.200000e-01, 3.300000e-01, 4.400000e-01, 5.500000e-01, 6.600000e-01, 7.700000e-01, 8.800000e-01], [-1.100000e-01, -2.200000e-01, -3.300000e-01, -4.400000e-01, -5.500000e-01, -6.600000e-01, -7.700000e-01, -8.800000e-01]]> : tensor<10x8xf32>
    %cst_10 = arith.constant dense<[1.000000e-02, 2.000000e-02, 3.000000e-02, 4.000000e-02, 5.000000e-02, 6.000000e-02, 7.000000e-02, 8.000000e-02, 9.000000e-02, 1.000000e-01]> : tensor<10xf32>
    %cst_11 = arith.constant dense<2.000000e-02> : tensor<10x8xf32>
    // tosa.conv2d (pad 1, stride 1) + bias, tosa.clamp [0, 6].
    %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x16x16x3xf32> to tensor<1x18x18x3xf32>
    %0 = tensor.empty() : tensor<1x16x16x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_6 : tensor<8xf32>) outs(%0 : tensor<1x16x16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x16x8xf32>
    %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %cst_5 : tensor<1x18x18x3xf32>, tensor<8x3x3x3xf32>) outs(%1 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
    %3 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x16x16x8xf32>) outs(%0 : tensor<1x16x16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.minimumf %in, %cst_0 : f32
      %31 = arith.maximumf %30, %cst : f32
      linalg.yield %31 : f32
    } -> tensor<1x16x16x8xf32>
    // tosa.depthwise_conv2d (pad 1, multiplier 1) + bias, clamp.
    %padded_12 = tensor.pad %3 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
    %4 = tensor.empty() : tensor<1x16x16x8x1xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x16x16x8x1xf32>) -> tensor<1x16x16x8x1xf32>
    %6 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_12, %cst_7 : tensor<1x18x18x8xf32>, tensor<3x3x8x1xf32>) outs(%5 : tensor<1x16x16x8x1xf32>) -> tensor<1x16x16x8x1xf32>
    %collapsed = tensor.collapse_shape %6 [[0], [1], [2], [3, 4]] : tensor<1x16x16x8x1xf32> into tensor<1x16x16x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_8, %collapsed : tensor<8xf32>, tensor<1x16x16x8xf32>) outs(%0 : tensor<1x16x16x8xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %30 = arith.addf %in, %in_20 : f32
      %31 = arith.minimumf %30, %cst_0 : f32
      %32 = arith.maximumf %31, %cst : f32
      linalg.yield %32 : f32
    } -> tensor<1x16x16x8xf32>
    // tosa.avg_pool2d (kernel 16x16): a 256-element window sum, then / 256.
    %8 = tensor.empty() : tensor<1x1x1x8xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %10 = tensor.empty() : tensor<16x16xf32>
    %11 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%7, %10 : tensor<1x16x16x8xf32>, tensor<16x16xf32>) outs(%9 : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<1x1x1x8xf32>) outs(%8 : tensor<1x1x1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.divf %in, %cst_1 : f32
      linalg.yield %30 : f32
    } -> tensor<1x1x1x8xf32>
    %collapsed_13 = tensor.collapse_shape %12 [[0], [1, 2, 3]] : tensor<1x1x1x8xf32> into tensor<1x8xf32>
    // tosa.fully_connected: the weight transposed by a generic, bias as init.
    %13 = tensor.empty() : tensor<8x10xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%cst_9 : tensor<10x8xf32>) outs(%13 : tensor<8x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x10xf32>
    %15 = tensor.empty() : tensor<1x10xf32>
    %16 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%cst_10 : tensor<10xf32>) outs(%15 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x10xf32>
    %17 = linalg.matmul ins(%collapsed_13, %14 : tensor<1x8xf32>, tensor<8x10xf32>) outs(%16 : tensor<1x10xf32>) -> tensor<1x10xf32>
    // Main head: softmax, raised to the named op.
    %18 = linalg.softmax dimension(1) ins(%17 : tensor<1x10xf32>) outs(%15 : tensor<1x10xf32>) -> tensor<1x10xf32>
    // Distillation head: fully_connected, then softmax(logits / T) as TOSA
    // decomposes it (T = 4).
    %19 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%cst_11 : tensor<10x8xf32>) outs(%13 : tensor<8x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x10xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%15 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %21 = linalg.matmul ins(%collapsed_13, %19 : tensor<1x8xf32>, tensor<8x10xf32>) outs(%20 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%21 : tensor<1x10xf32>) outs(%15 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_4 : f32
      linalg.yield %30 : f32
    } -> tensor<1x10xf32>
    %23 = tensor.empty() : tensor<1xf32>
    %24 = linalg.fill ins(%cst_3 : f32) outs(%23 : tensor<1xf32>) -> tensor<1xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "reduction"]} ins(%22 : tensor<1x10xf32>) outs(%24 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.maximumf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<1xf32>
    %expanded = tensor.expand_shape %25 [[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map6, #map3], iterator_types = ["parallel", "parallel"]} ins(%22, %expanded : tensor<1x10xf32>, tensor<1x1xf32>) outs(%15 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %30 = arith.subf %in, %in_20 : f32
      %31 = math.exp %30 : f32
      linalg.yield %31 : f32
    } -> tensor<1x10xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%23 : tensor<1xf32>) -> tensor<1xf32>
    %28 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "reduction"]} ins(%26 : tensor<1x10xf32>) outs(%27 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<1xf32>
    %expanded_14 = tensor.expand_shape %28 [[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
    %29 = tensor.empty() : tensor<1x1xf32>
    %30 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_14 : tensor<1x1xf32>) outs(%29 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.divf %cst_2, %in : f32
      linalg.yield %33 : f32
    } -> tensor<1x1xf32>
    %31 = linalg.generic {indexing_maps = [#map3, #map6, #map3], iterator_types = ["parallel", "parallel"]} ins(%26, %30 : tensor<1x10xf32>, tensor<1x1xf32>) outs(%15 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %33 = arith.mulf %in, %in_20 : f32
      linalg.yield %33 : f32
    } -> tensor<1x10xf32>
    return %18, %31 : tensor<1x10xf32>, tensor<1x10xf32>
  }
}
