// A ResNet basic block in inference, in the form torch-mlir's
// linalg-on-tensors backend emits ResNet-18 (llvm/torch-mlir
// e2e_testing ResNet18Module; see also the conv/batch-norm lowering tests
// in llvm/torch-mlir test/Conversion/TorchToLinalg). Rewritten for fp-opt at
// small sizes: stem convolution (NCHW), batch norm as an elementwise
// generic with rsqrt(var + eps), ReLU, 2x2 max pooling, two 3x3 convolutions
// with batch norm, the residual add and a 1x1 projection convolution.
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @bn_relu(%x: tensor<1x8x8x8xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>,
                   %gamma: tensor<8xf32>, %beta: tensor<8xf32>, %relu: i1) -> tensor<1x8x8x8xf32> {
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %y = linalg.generic {indexing_maps = [#nchw, #chan, #chan, #chan, #chan, #nchw],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %var, %gamma, %beta : tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %g: f32, %b: f32, %out: f32):
    %eps = arith.constant 1.000000e-05 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %c = arith.subf %v, %m : f32
    %se = arith.addf %s, %eps : f32
    %inv = math.rsqrt %se : f32
    %n = arith.mulf %c, %inv : f32
    %sc = arith.mulf %n, %g : f32
    %o = arith.addf %sc, %b : f32
    %r = arith.maximumf %o, %zero : f32
    %sel = arith.select %relu, %r, %o : f32
    linalg.yield %sel : f32
  } -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

func.func @resnet_block(%img: tensor<1x3x18x18xf32>, %w0: tensor<8x3x3x3xf32>,
                        %w1: tensor<8x8x3x3xf32>, %w2: tensor<8x8x3x3xf32>, %wp: tensor<16x8x1x1xf32>,
                        %mean: tensor<8xf32>, %var: tensor<8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>)
    -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %true = arith.constant true
  %false = arith.constant false
  // Stem: 3x3 convolution, BN + ReLU, 2x2 max pooling.
  %e0 = tensor.empty() : tensor<1x8x16x16xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w0 : tensor<1x3x18x18xf32>, tensor<8x3x3x3xf32>) outs(%a0 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x8x8x8xf32>
  %p0 = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%c0, %win : tensor<1x8x16x16xf32>, tensor<2x2xf32>) outs(%p0 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %x = call @bn_relu(%pool, %mean, %var, %gamma, %beta, %true)
      : (tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, i1) -> tensor<1x8x8x8xf32>
  // Two padded 3x3 convolutions with BN.
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pad, %w1 : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%a1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %y1 = call @bn_relu(%c1, %mean, %var, %gamma, %beta, %true)
      : (tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, i1) -> tensor<1x8x8x8xf32>
  %pad1 = tensor.pad %y1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pad1, %w2 : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%a1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %y2 = call @bn_relu(%c2, %mean, %var, %gamma, %beta, %false)
      : (tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, i1) -> tensor<1x8x8x8xf32>
  // Residual, ReLU, 1x1 projection.
  %sum = linalg.generic {indexing_maps = [#nchw, #nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y2, %x : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) outs(%ep : tensor<1x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x8xf32>
  %eo = tensor.empty() : tensor<1x16x8x8xf32>
  %ao = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%sum, %wp : tensor<1x8x8x8xf32>, tensor<16x8x1x1xf32>) outs(%ao : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %out : tensor<1x16x8x8xf32>
}
