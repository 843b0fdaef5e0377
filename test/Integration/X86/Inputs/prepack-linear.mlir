// Two nn.Linear layers as torch-mlir emits them (the [out, in] weights
// transposed by linalg.transpose, the biases broadcast into the
// accumulators, ReLU between), compiled with lowp-pipeline-x86{prepack=true}
// by ../prepack.mlir, which calls forward_prepack once and forward many
// times.
#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: tensor<13x38xf32>, %w1: tensor<40x38xf32>, %b1: tensor<40xf32>,
                   %w2: tensor<20x40xf32>, %b2: tensor<20xf32>) -> tensor<13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<13x40xf32>
  %bb1 = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b1 : tensor<40xf32>) outs(%e1 : tensor<13x40xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<13x40xf32>
  %et1 = tensor.empty() : tensor<38x40xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<40x38xf32>) outs(%et1 : tensor<38x40xf32>) permutation = [1, 0]
  %h = linalg.matmul ins(%x, %w1t : tensor<13x38xf32>, tensor<38x40xf32>) outs(%bb1 : tensor<13x40xf32>) -> tensor<13x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<13x40xf32>) outs(%e1 : tensor<13x40xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<13x40xf32>
  %e2 = tensor.empty() : tensor<13x20xf32>
  %bb2 = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b2 : tensor<20xf32>) outs(%e2 : tensor<13x20xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<13x20xf32>
  %et2 = tensor.empty() : tensor<40x20xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<20x40xf32>) outs(%et2 : tensor<40x20xf32>) permutation = [1, 0]
  %y = linalg.matmul ins(%r, %w2t : tensor<13x40xf32>, tensor<40x20xf32>) outs(%bb2 : tensor<13x20xf32>) -> tensor<13x20xf32>
  return %y : tensor<13x20xf32>
}
