// lowp-fp8-weight-only: weight arguments of contractions arrive as E4M3
// bytes with one f32 scale per output channel (a new last argument); each
// contraction reads the weight widened exactly into zeros, and a generic
// divides every output by its channel's scale (plus the original
// accumulator, a bias, unless that was a zero fill). Arguments that do not
// qualify keep their types with a remark saying why.
// RUN: fp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --lowp-fp8-weight-only="target=znver4" | FileCheck %s
// Idempotent: a second run takes nothing more.
// RUN: fp-opt %s --split-input-file \
// RUN:   --lowp-fp8-weight-only="target=znver4 remarks=false" \
// RUN:   --lowp-fp8-weight-only="target=znver4 remarks=false" \
// RUN: | FileCheck %s --check-prefix=TWICE
// A chip with FNUZ FP8 stores its own flavour.
// RUN: fp-opt %s --split-input-file \
// RUN:   --lowp-fp8-weight-only="target=gfx942 remarks=false" \
// RUN: | FileCheck %s --check-prefix=FNUZ

// nn.Linear as torch-mlir writes it: the weight [out, in] transposed,
// read as B; the bias broadcast into the accumulator.
// CHECK-LABEL: func.func @linear(
// CHECK-SAME:    %[[X:.*]]: tensor<4x32xbf16>,
// CHECK-SAME:    %[[W:.*]]: tensor<64x32xf8E4M3FN> {lowp.fp8_axis = 0 : i64, lowp.fp8_scale = 3 : i64},
// CHECK-SAME:    %[[B:.*]]: tensor<64xf32>,
// CHECK-SAME:    %[[S:.*]]: tensor<64xf32> {lowp.fp8_scale_of = 1 : i64}) -> tensor<4x64xf32>
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<64x32xf8E4M3FN>) outs(%{{.*}} : tensor<32x64xf8E4M3FN>) permutation = [1, 0]
// CHECK:         %[[BIAS:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:         %[[WIDE:.*]] = lowp.cast %[[WT]] : tensor<32x64xf8E4M3FN> to tensor<32x64xbf16>
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x64xf32>)
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[X]], %[[WIDE]] : tensor<4x32xbf16>, tensor<32x64xbf16>) outs(%[[ZEROS]] : tensor<4x64xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID:[a-z0-9]+]], #[[COL:[a-z0-9]+]], #[[ID]], #[[ID]]]{{.*}} ins(%[[P]], %[[S]], %[[BIAS]] : tensor<4x64xf32>, tensor<64xf32>, tensor<4x64xf32>)
// CHECK:           %[[Q:.*]] = arith.divf
// CHECK:           arith.addf %{{.*}}, %[[Q]] : f32
// CHECK:         return %[[R]]
// TWICE-LABEL: func.func @linear(
// TWICE-SAME:    tensor<64x32xf8E4M3FN> {lowp.fp8_axis = 0 : i64, lowp.fp8_scale = 3 : i64}, %{{.*}}: tensor<64xf32>, %{{.*}}: tensor<64xf32> {lowp.fp8_scale_of = 1 : i64}) -> tensor<4x64xf32>
// TWICE:         arith.divf
// TWICE-NOT:     arith.divf
// TWICE-LABEL: func.func @tied_batched(
// FNUZ-LABEL: func.func @linear(
// FNUZ-SAME:    tensor<64x32xf8E4M3FNUZ>
func.func @linear(%x: tensor<4x32xbf16>,
                  // expected-remark @below {{argument #1 of @linear takes tensor<64x32xf8E4M3FN>, one scale per index of dimension 0 in argument #3}}
                  %w: tensor<64x32xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %wb = lowp.cast %wt : tensor<32x64xf32> to tensor<32x64xbf16>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %bb = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e2 : tensor<4x64xf32>) dimensions = [0]
  %r = linalg.matmul ins(%x, %wb : tensor<4x32xbf16>, tensor<32x64xbf16>) outs(%bb : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A weight shared by the batch (a broadcast to batch_matmul's batch, the
// transpose written as a generic), read by two contractions (tied
// weights): one argument, one scale argument. The zero fill is not added.
// CHECK-LABEL: func.func @tied_batched(
// CHECK-SAME:    tensor<2x3x8xf32>, %{{.*}}: tensor<16x8xf8E4M3FN> {lowp.fp8_axis = 0 : i64, lowp.fp8_scale = 2 : i64}, %{{.*}}: tensor<16xf32> {lowp.fp8_scale_of = 1 : i64})
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<16x8xf8E4M3FN>) outs(%{{.*}} : tensor<8x16xf8E4M3FN>)
// CHECK:         linalg.broadcast ins(%{{.*}} : tensor<8x16xf8E4M3FN>) outs(%{{.*}} : tensor<2x8x16xf8E4M3FN>) dimensions = [0]
// CHECK:         lowp.cast %{{.*}} : tensor<2x8x16xf8E4M3FN> to tensor<2x8x16xf32>
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.generic {indexing_maps = [#{{[a-z0-9]+}}, #{{[a-z0-9]+}}, #{{[a-z0-9]+}}]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3x16xf32>, tensor<16xf32>)
// CHECK-NOT:       arith.addf
// CHECK:         lowp.cast %{{.*}} : tensor<8x16xf8E4M3FN> to tensor<8x16xf32>
// CHECK:         linalg.matmul
// CHECK:         arith.divf
#wt = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tied_batched(%x: tensor<2x3x8xf32>,
                        // expected-remark @below {{argument #1 of @tied_batched takes tensor<16x8xf8E4M3FN>, one scale per index of dimension 0 in argument #2}}
                        %w: tensor<16x8xf32>) -> (tensor<2x3x16xf32>, tensor<3x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.generic {indexing_maps = [#wt, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x16xf32>
  %eb = tensor.empty() : tensor<2x8x16xf32>
  %wb = linalg.broadcast ins(%wt : tensor<8x16xf32>) outs(%eb : tensor<2x8x16xf32>) dimensions = [0]
  %ec = tensor.empty() : tensor<2x3x16xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  %r = linalg.batch_matmul ins(%x, %wb : tensor<2x3x8xf32>, tensor<2x8x16xf32>) outs(%fc : tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  %x0 = tensor.extract_slice %x[0, 0, 0] [1, 3, 8] [1, 1, 1] : tensor<2x3x8xf32> to tensor<3x8xf32>
  %ed = tensor.empty() : tensor<3x16xf32>
  %fd = linalg.fill ins(%zero : f32) outs(%ed : tensor<3x16xf32>) -> tensor<3x16xf32>
  %r2 = linalg.matmul ins(%x0, %wt : tensor<3x8xf32>, tensor<8x16xf32>) outs(%fd : tensor<3x16xf32>) -> tensor<3x16xf32>
  return %r, %r2 : tensor<2x3x16xf32>, tensor<3x16xf32>
}

// -----

// An activation (the first input, no role mark) is not a weight; nor is
// an input marked as an activation; a first input marked as a weight is,
// with its rows as the output channel.
// CHECK-LABEL: func.func @roles(
// CHECK-SAME:    %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<6x4xf8E4M3FN> {lowp.fp8_axis = 0 : i64, lowp.fp8_scale = 4 : i64, lowp.role = #lowp.role<weight>}, %{{.*}}: tensor<8x5xf32> {lowp.role = #lowp.role<activation>}, %{{.*}}: tensor<4x7xf32> {lowp.role = #lowp.role<activation>}, %{{.*}}: tensor<6xf32> {lowp.fp8_scale_of = 1 : i64})
func.func @roles(%x: tensor<4x8xf32>,
                 // expected-remark @below {{argument #1 of @roles takes tensor<6x4xf8E4M3FN>, one scale per index of dimension 0 in argument #4}}
                 %w: tensor<6x4xf32> {lowp.role = #lowp.role<weight>},
                 %y: tensor<8x5xf32> {lowp.role = #lowp.role<activation>},
                 %z: tensor<4x7xf32> {lowp.role = #lowp.role<activation>}) -> (tensor<6x7xf32>, tensor<4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<6x7xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6x7xf32>) -> tensor<6x7xf32>
  %wz = linalg.matmul ins(%w, %z : tensor<6x4xf32>, tensor<4x7xf32>) outs(%f2 : tensor<6x7xf32>) -> tensor<6x7xf32>
  %e3 = tensor.empty() : tensor<4x5xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %xy = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x5xf32>) outs(%f3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %wz, %xy : tensor<6x7xf32>, tensor<4x5xf32>
}

// -----

// Kept, each with the reason: a weight also read by an elementwise op; one
// whose matmul is pinned to f32; one whose channel a reshape merges with
// another dimension; one reached through a slice.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT:   f8E4M3FN
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @kept(%x: tensor<3x8xf32>,
                // expected-remark @below {{argument #1 of @kept stays tensor<8x4xf32>: it is also read by linalg.generic}}
                %added: tensor<8x4xf32>,
                // expected-remark @below {{argument #2 of @kept stays tensor<8x4xf32>: linalg.matmul}}
                %pinned: tensor<8x4xf32>,
                // expected-remark @below {{argument #3 of @kept stays tensor<2x4x4xf32>: a layout move between it and linalg.matmul}}
                %merged: tensor<2x4x4xf32>,
                // expected-remark @below {{argument #4 of @kept stays tensor<8x8xf32>: a tensor.extract_slice between it and linalg.matmul}}
                %sliced: tensor<8x8xf32>)
    -> (tensor<3x4xf32>, tensor<8x4xf32>, tensor<3x4xf32>, tensor<3x8xf32>, tensor<3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %a = linalg.matmul ins(%x, %added : tensor<3x8xf32>, tensor<8x4xf32>) outs(%f : tensor<3x4xf32>) -> tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%added : tensor<8x4xf32>) outs(%e2 : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  %p = linalg.matmul {lowp.precision = f32} ins(%x, %pinned : tensor<3x8xf32>, tensor<8x4xf32>) outs(%f : tensor<3x4xf32>) -> tensor<3x4xf32>
  %c = tensor.collapse_shape %merged [[0, 1], [2]] : tensor<2x4x4xf32> into tensor<8x4xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %merged_t = linalg.transpose ins(%c : tensor<8x4xf32>) outs(%e3 : tensor<4x8xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<3x8xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<3x8xf32>) -> tensor<3x8xf32>
  %xs = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %m = linalg.matmul ins(%xs, %merged_t : tensor<3x4xf32>, tensor<4x8xf32>) outs(%f4 : tensor<3x8xf32>) -> tensor<3x8xf32>
  %s = tensor.extract_slice %sliced[0, 0] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
  %sl = linalg.matmul ins(%x, %s : tensor<3x8xf32>, tensor<8x4xf32>) outs(%f : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %a, %d, %p, %m, %sl : tensor<3x4xf32>, tensor<8x4xf32>, tensor<3x4xf32>, tensor<3x8xf32>, tensor<3x4xf32>
}

// -----

// A function called in the module keeps its signature.
// CHECK-LABEL: func.func @callee(
// CHECK-SAME:    tensor<8x4xf32>
func.func @callee(%x: tensor<3x8xf32>,
                  // expected-remark @below {{argument #1 of @callee stays: @callee is called in the module}}
                  %w: tensor<8x4xf32>) -> tensor<3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<3x8xf32>, tensor<8x4xf32>) outs(%f : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @caller(%x: tensor<3x8xf32>, %w: tensor<8x4xf32>) -> tensor<3x4xf32> {
  %r = func.call @callee(%x, %w) : (tensor<3x8xf32>, tensor<8x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// A convolution's filter keeps its format: its output channel is not a
// contraction's (weight-only FP8 is for linear layers).
// CHECK-LABEL: func.func @conv_filter(
// CHECK-SAME:    tensor<8x4x3x3xf32>
func.func @conv_filter(%x: tensor<1x4x10x10xf32>,
                       // expected-remark @below {{argument #1 of @conv_filter stays tensor<8x4x3x3xf32>: linalg.conv_2d_nchw_fchw}}
                       %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>)
                                outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}
