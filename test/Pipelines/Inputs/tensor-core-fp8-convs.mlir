// FP8 convolutions as lowp-select-fp8-formats leaves them for an NVIDIA
// chip with FP8 tensor cores (E4M3 operands, f32 accumulators), on
// tensors, each followed by its dequantization (times 1 / (sa * sb),
// computed on the host):
//  * conv_nhwc_fp8: NHWC / HWCF, pad 1, stride 2, dequantized, + bias,
//    narrowed to bf16;
//  * conv_nchw_fp8: NCHW / FCHW, stride 1, dequantized, in f32.
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#last = affine_map<(a, b, c, d) -> (d)>
#scalar = affine_map<(a, b, c, d) -> ()>

func.func @conv_nhwc_fp8(%x: tensor<2x28x28x64xf8E4M3FN>, %w: tensor<3x3x64x128xf8E4M3FN>,
                         %s: f32, %bias: tensor<128xf32>) -> tensor<2x14x14x128xbf16> {
  %z = arith.constant 0.0 : f8E4M3FN
  %zf = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f8E4M3FN
  } : tensor<2x28x28x64xf8E4M3FN> to tensor<2x30x30x64xf8E4M3FN>
  %e = tensor.empty() : tensor<2x14x14x128xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x30x30x64xf8E4M3FN>, tensor<3x3x64x128xf8E4M3FN>)
         outs(%f : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %o = tensor.empty() : tensor<2x14x14x128xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #scalar, #last, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s, %bias : tensor<2x14x14x128xf32>, f32, tensor<128xf32>) outs(%o : tensor<2x14x14x128xbf16>) {
  ^bb0(%v: f32, %q: f32, %b: f32, %out: bf16):
    %d = arith.mulf %v, %q : f32
    %y = arith.addf %d, %b : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x14x14x128xbf16>
  return %r : tensor<2x14x14x128xbf16>
}

func.func @conv_nchw_fp8(%x: tensor<2x32x18x18xf8E4M3FN>, %w: tensor<64x32x3x3xf8E4M3FN>,
                         %s: f32) -> tensor<2x64x16x16xf32> {
  %zf = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64x16x16xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<2x64x16x16xf32>) -> tensor<2x64x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x32x18x18xf8E4M3FN>, tensor<64x32x3x3xf8E4M3FN>)
         outs(%f : tensor<2x64x16x16xf32>) -> tensor<2x64x16x16xf32>
  %o = tensor.empty() : tensor<2x64x16x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #scalar, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s : tensor<2x64x16x16xf32>, f32) outs(%o : tensor<2x64x16x16xf32>) {
  ^bb0(%v: f32, %q: f32, %out: f32):
    %d = arith.mulf %v, %q : f32
    linalg.yield %d : f32
  } -> tensor<2x64x16x16xf32>
  return %r : tensor<2x64x16x16xf32>
}
