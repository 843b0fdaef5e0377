// A ResNet basic block with its stem and classifier head, as torch-mlir's
// TorchToLinalg lowers a `torch.export`ed model with a dynamic batch
// dimension (`tensor<?x...>`, `tensor.dim`, `tensor.empty(%dim)`):
// `aten.convolution` as `tensor.pad` (zero) + a bias-broadcast generic +
// `linalg.conv_2d_nchw_fchw`; eval-mode `aten.batch_norm` as one generic
// over input, weight, bias, running mean and running variance with an f64
// epsilon truncated in the payload; `aten.relu` as `arith.cmpf ugt` +
// `arith.select`; `aten.hardtanh` (ReLU6) as two compare/selects;
// `aten.max_pool2d` as a `-inf` `tensor.pad` + `linalg.pooling_nchw_max`;
// `aten.adaptive_avg_pool2d` to 1x1 as `linalg.pooling_nchw_sum` and a
// divide; `aten.flatten` as `tensor.collapse_shape`; `aten.linear` with its
// weight transposed by `linalg.transpose`. Weights are elided
// `dense_resource`s, inline `dense<[...]>` tensors and splats. Sizes: 3x16x16
// images, 8 channels, 10 classes.
#map = affine_map<(d0, d1, d2, d3) -> (d1)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
module attributes {torch.debug_module_name = "ResNetBlock"} {
  func.func @forward(%arg0: tensor<?x3x16x16xf32> {torch.type_bound = "vtensor<[?,3,16,16],f32>"}) -> tensor<?x10xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 6.000000e+00 : f32
    %cst_2 = arith.constant 1.000000e-05 : f64
    %cst_3 = arith.constant 6.400000e+01 : f32
    %conv1_weight = arith.constant dense_resource<__elided__> : tensor<8x3x3x3xf32>
    %conv1_bias = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %bn1_weight = arith.constant dense<[7.3605e-01, 6.0317e-01, 8.9606e-01, 6.5497e-01, 5.6652e-01, 9.0159e-01, 1.4180e+00, 1.3005e+00]> : tensor<8xf32>
    %bn1_bias = arith.constant dense<[5.3033e-02, -5.5614e-02, 7.3360e-03, -4.4663e-02, -6.5467e-02, -7.8763e-02, -5.7120e-02, 8.5495e-02]> : tensor<8xf32>
    %bn1_running_mean = arith.constant dense<1.000000e-01> : tensor<8xf32>
    %bn1_running_var = arith.constant dense<[1.6921e+00, 1.6520e+00, 1.6408e+00, 5.4818e-01, 7.5773e-01, 1.3286e+00, 1.5174e+00, 1.7384e+00]> : tensor<8xf32>
    %conv2_weight = arith.constant dense_resource<__elided__> : tensor<8x8x3x3xf32>
    %conv3_weight = arith.constant dense_resource<__elided__> : tensor<8x8x3x3xf32>
    %bn2_weight = arith.constant dense<1.000000e+00> : tensor<8xf32>
    %bn2_bias = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %bn2_running_mean = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %bn2_running_var = arith.constant dense<1.000000e+00> : tensor<8xf32>
    %fc_weight = arith.constant dense<[[-2.6200e-01, 4.4200e-02, -1.3000e-01, 1.0390e-01, 1.2570e-01, -4.3450e-01, -4.8680e-01, 3.3750e-01], [-2.4060e-01, -2.6570e-01, 4.9560e-01, -2.9700e-02, 3.3650e-01, -2.3600e-02, 1.3910e-01, -3.4940e-01], [1.3490e-01, 3.6800e-01, 2.3200e-02, 2.4130e-01, 1.7140e-01, -4.3600e-01, 2.5820e-01, 9.1100e-02], [-1.9870e-01, -4.6900e-01, 3.6550e-01, -2.7300e-02, 2.1880e-01, 3.7880e-01, 2.1410e-01, 4.2110e-01], [-1.0500e-01, 3.0090e-01, -5.5400e-02, 4.3560e-01, 3.7890e-01, -4.0250e-01, -3.6400e-01, -2.8300e-01], [4.6550e-01, -6.3800e-02, 1.2660e-01, -1.9900e-01, 7.2000e-03, -1.1410e-01, -1.4910e-01, 8.5100e-02], [8.4300e-02, 4.0420e-01, 1.8200e-01, 4.2890e-01, 3.5640e-01, 4.9100e-01, 1.7130e-01, -3.3690e-01], [3.6060e-01, 4.6460e-01, 4.0470e-01, 6.9100e-02, 2.1380e-01, -2.8890e-01, 3.3160e-01, 7.3500e-02], [-2.1500e-01, -4.3650e-01, 3.5390e-01, 4.8980e-01, -4.1150e-01, 3.0060e-01, -8.9500e-02, -3.4920e-01], [-2.0610e-01, 2.6880e-01, 3.7280e-01, -4.5580e-01, 1.1450e-01, -4.5510e-01, 2.1840e-01, -1.6900e-01]]> : tensor<10x8xf32>
    %fc_bias = arith.constant dense<1.000000e-02> : tensor<10xf32>
    // Stem: conv 3->8 (3x3, padding 1), batch norm, ReLU.
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<?x3x16x16xf32> to tensor<?x3x18x18xf32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x3x16x16xf32>
    %0 = tensor.empty(%dim) : tensor<?x8x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv1_bias : tensor<8xf32>) outs(%0 : tensor<?x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x16x16xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %conv1_weight : tensor<?x3x18x18xf32>, tensor<8x3x3x3xf32>) outs(%1 : tensor<?x8x16x16xf32>) -> tensor<?x8x16x16xf32>
    %3 = linalg.generic {indexing_maps = [#map1, #map, #map, #map, #map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %bn1_weight, %bn1_bias, %bn1_running_mean, %bn1_running_var : tensor<?x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%0 : tensor<?x8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %in_5: f32, %in_6: f32, %in_7: f32, %out: f32):
      %30 = arith.truncf %cst_2 : f64 to f32
      %31 = arith.addf %in_7, %30 : f32
      %32 = math.rsqrt %31 : f32
      %33 = arith.subf %in, %in_6 : f32
      %34 = arith.mulf %33, %32 : f32
      %35 = arith.mulf %34, %in_4 : f32
      %36 = arith.addf %35, %in_5 : f32
      linalg.yield %36 : f32
    } -> tensor<?x8x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<?x8x16x16xf32>) outs(%0 : tensor<?x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.cmpf ugt, %in, %cst : f32
      %31 = arith.select %30, %in, %cst : f32
      linalg.yield %31 : f32
    } -> tensor<?x8x16x16xf32>
    // max_pool2d(kernel 3, stride 2, padding 1).
    %padded_8 = tensor.pad %4 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst_0 : f32
    } : tensor<?x8x16x16xf32> to tensor<?x8x18x18xf32>
    %5 = tensor.empty(%dim) : tensor<?x8x8x8xf32>
    %6 = linalg.fill ins(%cst_0 : f32) outs(%5 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    %7 = tensor.empty() : tensor<3x3xf32>
    %8 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_8, %7 : tensor<?x8x18x18xf32>, tensor<3x3xf32>) outs(%6 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    // Basic block: conv, bn, ReLU6 (hardtanh 0..6), conv, bn, + identity, ReLU.
    %padded_9 = tensor.pad %8 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<?x8x8x8xf32> to tensor<?x8x10x10xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%5 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    %10 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_9, %conv2_weight : tensor<?x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%9 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map, #map, #map, #map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %bn2_weight, %bn2_bias, %bn2_running_mean, %bn2_running_var : tensor<?x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%5 : tensor<?x8x8x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %in_5: f32, %in_6: f32, %in_7: f32, %out: f32):
      %30 = arith.truncf %cst_2 : f64 to f32
      %31 = arith.addf %in_7, %30 : f32
      %32 = math.rsqrt %31 : f32
      %33 = arith.subf %in, %in_6 : f32
      %34 = arith.mulf %33, %32 : f32
      %35 = arith.mulf %34, %in_4 : f32
      %36 = arith.addf %35, %in_5 : f32
      linalg.yield %36 : f32
    } -> tensor<?x8x8x8xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<?x8x8x8xf32>) outs(%5 : tensor<?x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.cmpf ult, %in, %cst : f32
      %31 = arith.select %30, %cst, %in : f32
      %32 = arith.cmpf ugt, %31, %cst_1 : f32
      %33 = arith.select %32, %cst_1, %31 : f32
      linalg.yield %33 : f32
    } -> tensor<?x8x8x8xf32>
    %padded_10 = tensor.pad %12 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<?x8x8x8xf32> to tensor<?x8x10x10xf32>
    %13 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_10, %conv3_weight : tensor<?x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%9 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    %14 = linalg.generic {indexing_maps = [#map1, #map, #map, #map, #map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %bn2_weight, %bn2_bias, %bn2_running_mean, %bn2_running_var : tensor<?x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%5 : tensor<?x8x8x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %in_5: f32, %in_6: f32, %in_7: f32, %out: f32):
      %30 = arith.truncf %cst_2 : f64 to f32
      %31 = arith.addf %in_7, %30 : f32
      %32 = math.rsqrt %31 : f32
      %33 = arith.subf %in, %in_6 : f32
      %34 = arith.mulf %33, %32 : f32
      %35 = arith.mulf %34, %in_4 : f32
      %36 = arith.addf %35, %in_5 : f32
      linalg.yield %36 : f32
    } -> tensor<?x8x8x8xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %8 : tensor<?x8x8x8xf32>, tensor<?x8x8x8xf32>) outs(%5 : tensor<?x8x8x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %30 = arith.addf %in, %in_4 : f32
      linalg.yield %30 : f32
    } -> tensor<?x8x8x8xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<?x8x8x8xf32>) outs(%5 : tensor<?x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.cmpf ugt, %in, %cst : f32
      %31 = arith.select %30, %in, %cst : f32
      linalg.yield %31 : f32
    } -> tensor<?x8x8x8xf32>
    // adaptive_avg_pool2d((1, 1)), flatten(1), linear(8 -> 10).
    %17 = tensor.empty(%dim) : tensor<?x8x1x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<?x8x1x1xf32>) -> tensor<?x8x1x1xf32>
    %19 = tensor.empty() : tensor<8x8xf32>
    %20 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%16, %19 : tensor<?x8x8x8xf32>, tensor<8x8xf32>) outs(%18 : tensor<?x8x1x1xf32>) -> tensor<?x8x1x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<?x8x1x1xf32>) outs(%17 : tensor<?x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.divf %in, %cst_3 : f32
      linalg.yield %30 : f32
    } -> tensor<?x8x1x1xf32>
    %collapsed = tensor.collapse_shape %21 [[0], [1, 2, 3]] : tensor<?x8x1x1xf32> into tensor<?x8xf32>
    %22 = tensor.empty() : tensor<8x10xf32>
    %transposed = linalg.transpose ins(%fc_weight : tensor<10x8xf32>) outs(%22 : tensor<8x10xf32>) permutation = [1, 0]
    %23 = tensor.empty(%dim) : tensor<?x10xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<?x10xf32>) -> tensor<?x10xf32>
    %25 = linalg.matmul ins(%collapsed, %transposed : tensor<?x8xf32>, tensor<8x10xf32>) outs(%24 : tensor<?x10xf32>) -> tensor<?x10xf32>
    %26 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%25, %fc_bias : tensor<?x10xf32>, tensor<10xf32>) outs(%23 : tensor<?x10xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %30 = arith.addf %in, %in_4 : f32
      linalg.yield %30 : f32
    } -> tensor<?x10xf32>
    return %26 : tensor<?x10xf32>
  }
}
