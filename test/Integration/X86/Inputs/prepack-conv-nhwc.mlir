// A 3x3 and a 1x1 convolution as torch-mlir emits them (NCHW, tensor.pad,
// the output filled with zeros, ReLU between), f32 weights as arguments;
// compiled with lowp-pipeline-x86{prepack=true} by ../prepack-conv-nhwc.mlir.
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @forward(%x: tensor<1x8x12x12xf32>, %w1: tensor<16x8x3x3xf32>,
                   %w2: tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x12x12xf32> to tensor<1x8x14x14xf32>
  %e = tensor.empty() : tensor<1x16x12x12xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
  %h = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%xp, %w1 : tensor<1x8x14x14xf32>, tensor<16x8x3x3xf32>) outs(%z : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%h : tensor<1x16x12x12xf32>) outs(%e : tensor<1x16x12x12xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x12x12xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%r, %w2 : tensor<1x16x12x12xf32>, tensor<16x16x1x1xf32>) outs(%z : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
  return %y : tensor<1x16x12x12xf32>
}
