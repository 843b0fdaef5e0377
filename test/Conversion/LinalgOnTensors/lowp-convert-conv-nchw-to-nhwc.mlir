// RUN: fp-opt %s -lowp-convert-conv-nchw-to-nhwc=macs-per-transposed-element=0 -split-input-file -verify-diagnostics | FileCheck %s
// RUN: fp-opt %s -lowp-convert-conv-nchw-to-nhwc="prepacked-filters=true macs-per-transposed-element=0" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=PREPACK
// The default price of a transposed element (256 multiply-adds): these
// small functions stay NCHW but the last two.
// RUN: fp-opt %s -lowp-convert-conv-nchw-to-nhwc -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-LABEL: func @block
// DEFAULT-NOT:   linalg.transpose
// DEFAULT:       linalg.conv_2d_nchw_fchw

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#pool = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>

// A residual block as torch-mlir writes it: pad, a 3x3 convolution with a
// constant filter, a per-channel batch norm, ReLU, a 1x1 convolution with a
// filter argument, the residual add, a global average pool and a flatten.
// Everything runs NHWC: one transpose of the padded input, none in between
// (the norm, ReLU, the add and the pool's sum are rewritten on the NHWC
// values), the constant filter transposed now (FCHW [f][c][y][x] ->
// FHWC [f][y][x][c]), the 1x1 filter reshaped. The pool reads NHWC and
// writes its NCHW 1x1 result directly.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[LAST:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG:   #[[POOLMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, 0, 0)>
// CHECK-LABEL: func @block
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>, %[[W1:.*]]: tensor<2x2x1x1xf32>, %[[S:.*]]: tensor<2xf32>)
// CHECK-DAG:     %[[K:.*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 9.000000e+00], [1.000000e+00, 1.000000e+01], [2.000000e+00, 1.100000e+01]], {{.*}}> : tensor<2x3x3x2xf32>
// CHECK:         %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[PT:.*]] = linalg.transpose ins(%[[P]] : tensor<1x2x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x2xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[PT]], %[[K]] : tensor<1x6x6x2xf32>, tensor<2x3x3x2xf32>) outs(%{{.*}} : tensor<1x4x4x2xf32>)
// CHECK:         %[[BN:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[C1]], %[[S]] : tensor<1x4x4x2xf32>, tensor<2xf32>) outs(%{{.*}} : tensor<1x4x4x2xf32>)
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[W1]] {{\[\[}}0, 1, 2, 3]] : tensor<2x2x1x1xf32> into tensor<4xf32>
// CHECK:         %[[W1T:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2, 3]] output_shape [2, 1, 1, 2] : tensor<4xf32> into tensor<2x1x1x2xf32>
// CHECK:         %[[C2:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[BN]], %[[W1T]] : tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>)
// CHECK:         %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[C2]], %[[BN]] : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) outs(%{{.*}} : tensor<1x4x4x2xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[POOLMAP]]], iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%[[ADD]] : tensor<1x4x4x2xf32>) outs(%{{.*}} : tensor<1x2x1x1xf32>)
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[SUM]]
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[R]]
func.func @block(%x: tensor<1x2x4x4xf32>, %w1: tensor<2x2x1x1xf32>, %s: tensor<2xf32>) -> tensor<1x2xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], [[9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0]]],
                             [[[18.0, 19.0, 20.0], [21.0, 22.0, 23.0], [24.0, 25.0, 26.0]], [[27.0, 28.0, 29.0], [30.0, 31.0, 32.0], [33.0, 34.0, 35.0]]]]> : tensor<2x2x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %k : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %bn = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%c1, %s : tensor<1x2x4x4xf32>, tensor<2xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%bn, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%c2, %bn : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %e1 = tensor.empty() : tensor<1x2x1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #pool], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
    ins(%add : tensor<1x2x4x4xf32>) outs(%f1 : tensor<1x2x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x2x1x1xf32>
  %flat = tensor.collapse_shape %sum [[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
  return %flat : tensor<1x2xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// A bias broadcast into the convolution's init is built NHWC (its bias
// read along the last loop); max pooling over a -inf pad runs NHWC; a
// depthwise filter constant is transposed (CHW -> HWC); linalg.index of the
// channel loop (1) becomes the last loop's (3). The result is returned
// NCHW: the one transpose back is at the end.
// CHECK-LABEL: func @bias_pool_depthwise
// CHECK:         %[[DK:.*]] = arith.constant dense<1.000000e+00> : tensor<3x3x3xf32>
// CHECK:         linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// CHECK:         %[[BIAS:.*]] = linalg.generic {indexing_maps = [#[[LASTB:.*]], #[[IDB:.*]]], {{.*}} ins(%{{.*}} : tensor<3xf32>) outs(%{{.*}} : tensor<1x6x6x3xf32>)
// CHECK:         %[[CONV:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} outs(%[[BIAS]] : tensor<1x6x6x3xf32>)
// CHECK:         %[[PAD:.*]] = tensor.pad %[[CONV]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[PAD]], %{{.*}} : tensor<1x8x8x3xf32>, tensor<3x3xf32>)
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %[[DK]] : tensor<1x5x5x3xf32>, tensor<3x3x3xf32>)
// CHECK:         linalg.generic
// CHECK:           linalg.index 3 : index
// CHECK:         %[[OUT:.*]] = linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[OUT]] : tensor<1x3x3x3xf32>
func.func @bias_pool_depthwise(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x1x1xf32>, %bias: tensor<3xf32>) -> tensor<1x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %init = linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%bias : tensor<3xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  } -> tensor<1x3x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x1x1xf32>) outs(%init : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x3x6x6xf32> to tensor<1x3x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %pe = tensor.empty() : tensor<1x3x3x3xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %mp = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%p, %win : tensor<1x3x8x8xf32>, tensor<3x3xf32>) outs(%pf : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %dwp = tensor.pad %mp low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x3x3xf32> to tensor<1x3x5x5xf32>
  %dk = arith.constant dense<1.0> : tensor<3x3x3xf32>
  %df = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%dwp, %dk : tensor<1x3x5x5xf32>, tensor<3x3x3xf32>) outs(%df : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%dw : tensor<1x3x3x3xf32>) outs(%pe : tensor<1x3x3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.mulf %a, %fi : f32
    linalg.yield %r : f32
  } -> tensor<1x3x3x3xf32>
  return %scaled : tensor<1x3x3x3xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// The NHWC result meets an NCHW argument in an add: the transpose back
// stays before the add (no transpose of the argument instead).
// CHECK-LABEL: func @meets_nchw_argument
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_fhwc
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<1x5x5x4xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         linalg.generic {{.*}} ins(%[[T]], %{{.*}} : tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>)
func.func @meets_nchw_argument(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x1x1xf32>, %y: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x2x5x5xf32>, tensor<4x2x1x1xf32>) outs(%f : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%c, %y : tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>) outs(%e : tensor<1x4x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x4x5x5xf32>
  return %add : tensor<1x4x5x5xf32>
}

// -----

// A 3x3 filter that is an argument would be transposed on every call: the
// function stays NCHW. With prepacked-filters (the x86 prepack option
// transposes it once) it converts, the filter transposed FCHW -> FHWC.
// CHECK-LABEL: func @argument_filter
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.conv_2d_nchw_fchw
// PREPACK-LABEL: func @argument_filter
// PREPACK-SAME:  %{{.*}}, %[[W:[a-z0-9]+]]: tensor<4x2x3x3xf32>
// PREPACK:       %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x2x3x3xf32>) outs(%{{.*}} : tensor<4x3x3x2xf32>) permutation = [0, 2, 3, 1]
// PREPACK:       linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.*}}, %[[WT]] : tensor<1x7x7x2xf32>, tensor<4x3x3x2xf32>)
func.func @argument_filter(%x: tensor<1x2x7x7xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x2x7x7xf32>, tensor<4x2x3x3xf32>) outs(%f : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %c : tensor<1x4x5x5xf32>
}

// -----

// A grouped convolution has no NHWC form here: the whole function stays
// NCHW, its 1x1 convolution included.
// CHECK-LABEL: func @grouped_keeps_function
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     nhwc
func.func @grouped_keeps_function(%x: tensor<1x2x2x5x5xf32>, %wg: tensor<2x2x2x1x1xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %eg = tensor.empty() : tensor<1x2x2x5x5xf32>
  %fg = linalg.fill ins(%zero : f32) outs(%eg : tensor<1x2x2x5x5xf32>) -> tensor<1x2x2x5x5xf32>
  %g = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %wg : tensor<1x2x2x5x5xf32>, tensor<2x2x2x1x1xf32>) outs(%fg : tensor<1x2x2x5x5xf32>) -> tensor<1x2x2x5x5xf32>
  %flat = tensor.collapse_shape %g [[0], [1, 2], [3], [4]] : tensor<1x2x2x5x5xf32> into tensor<1x4x5x5xf32>
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%flat, %w : tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) outs(%f : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %c : tensor<1x4x5x5xf32>
}

// -----

// A dynamic batch: left NCHW.
// CHECK-LABEL: func @dynamic_batch
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @dynamic_batch(%x: tensor<?x2x5x5xf32>, %w: tensor<4x2x1x1xf32>, %init: tensor<?x4x5x5xf32>) -> tensor<?x4x5x5xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<?x2x5x5xf32>, tensor<4x2x1x1xf32>) outs(%init : tensor<?x4x5x5xf32>) -> tensor<?x4x5x5xf32>
  return %c : tensor<?x4x5x5xf32>
}

// -----

// A lone 1x1 convolution: 64 -> 64 channels on 56x56 does 32 multiply-adds
// per element of its input and output, which the transposes would move.
// With a price of 0 it converts; at the default it stays NCHW.
// CHECK-LABEL: func @lone_pointwise
// CHECK:         linalg.conv_2d_nhwc_fhwc
// DEFAULT-LABEL: func @lone_pointwise
// DEFAULT-NOT:   linalg.transpose
// DEFAULT:       linalg.conv_2d_nchw_fchw
func.func @lone_pointwise(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x1x1xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x64x56x56xf32>, tensor<64x64x1x1xf32>) outs(%f : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %c : tensor<1x64x56x56xf32>
}

// -----

// Two 3x3 convolutions, 256 channels on 14x14, batch 8, constant filters
// (splats, transposed by a reshape of the splat): 2 * 9 * 256 multiply-adds
// per pixel against one transposed input and output; converted at the
// default price.
// CHECK-LABEL: func @deep_pair
// DEFAULT-LABEL: func @deep_pair
// DEFAULT:       linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// DEFAULT:       linalg.conv_2d_nhwc_fhwc
// DEFAULT:       linalg.conv_2d_nhwc_fhwc
// DEFAULT:       linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// DEFAULT-NOT:   linalg.transpose
func.func @deep_pair(%x: tensor<8x256x16x16xf32>) -> tensor<8x256x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<0.5> : tensor<256x256x3x3xf32>
  %e1 = tensor.empty() : tensor<8x256x14x14xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x256x14x14xf32>) -> tensor<8x256x14x14xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %k : tensor<8x256x16x16xf32>, tensor<256x256x3x3xf32>) outs(%f1 : tensor<8x256x14x14xf32>) -> tensor<8x256x14x14xf32>
  %e2 = tensor.empty() : tensor<8x256x12x12xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x256x12x12xf32>) -> tensor<8x256x12x12xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%c1, %k : tensor<8x256x14x14xf32>, tensor<256x256x3x3xf32>) outs(%f2 : tensor<8x256x12x12xf32>) -> tensor<8x256x12x12xf32>
  return %c2 : tensor<8x256x12x12xf32>
}
