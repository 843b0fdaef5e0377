// 2-D convolutions as the decision leaves them for the tensor cores
// (16-bit operands, f32 accumulators), on tensors:
//  * conv_nhwc_bf16: NHWC / HWCF, a zero tensor.pad of 1 and stride 2 (a
//    ResNet downsampling 3x3), then bias, ReLU and the cast to bf16;
//  * conv_nchw_bf16: torch-mlir's NCHW / FCHW form of aten.convolution:
//    tensor.pad, the output initialized with the broadcast bias, stride 2;
//  * conv_nchw_1x1_f16: a 1x1 stride-1 NCHW convolution (a plain batched
//    GEMM on the input viewed as [C][H*W]).
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#last = affine_map<(a, b, c, d) -> (d)>
#second = affine_map<(a, b, c, d) -> (b)>

func.func @conv_nhwc_bf16(%x: tensor<2x28x28x64xbf16>, %w: tensor<3x3x64x128xbf16>,
                          %bias: tensor<128xf32>) -> tensor<2x14x14x128xbf16> {
  %z = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : bf16
  } : tensor<2x28x28x64xbf16> to tensor<2x30x30x64xbf16>
  %e = tensor.empty() : tensor<2x14x14x128xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x30x30x64xbf16>, tensor<3x3x64x128xbf16>)
         outs(%f : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %o = tensor.empty() : tensor<2x14x14x128xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #last, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x14x14x128xf32>, tensor<128xf32>) outs(%o : tensor<2x14x14x128xbf16>) {
  ^bb0(%v: f32, %b: f32, %out: bf16):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x14x14x128xbf16>
  return %r : tensor<2x14x14x128xbf16>
}

func.func @conv_nchw_bf16(%x: tensor<2x64x28x28xbf16>, %w: tensor<128x64x3x3xbf16>,
                          %bias: tensor<128xf32>) -> tensor<2x128x14x14xf32> {
  %z = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : bf16
  } : tensor<2x64x28x28xbf16> to tensor<2x64x30x30xbf16>
  %e = tensor.empty() : tensor<2x128x14x14xf32>
  %init = linalg.generic {indexing_maps = [#second, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<128xf32>) outs(%e : tensor<2x128x14x14xf32>) {
  ^bb0(%b: f32, %out: f32):
    linalg.yield %b : f32
  } -> tensor<2x128x14x14xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%p, %w : tensor<2x64x30x30xbf16>, tensor<128x64x3x3xbf16>)
         outs(%init : tensor<2x128x14x14xf32>) -> tensor<2x128x14x14xf32>
  return %c : tensor<2x128x14x14xf32>
}

func.func @conv_nchw_1x1_f16(%x: tensor<2x64x14x14xf16>, %w: tensor<256x64x1x1xf16>) -> tensor<2x256x14x14xf32> {
  %zf = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256x14x14xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<2x256x14x14xf32>) -> tensor<2x256x14x14xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x64x14x14xf16>, tensor<256x64x1x1xf16>)
         outs(%f : tensor<2x256x14x14xf32>) -> tensor<2x256x14x14xf32>
  return %c : tensor<2x256x14x14xf32>
}
