// RUN: fp-opt %s -lowp-lower-strided-linalg-to-loops -split-input-file -verify-diagnostics | FileCheck %s

// Each becomes scalar loops with a remark (a slow path).
// A stride-2 sum pool (NCHW: the window slides along the innermost
// dimension, the one affine-super-vectorize would vectorize) becomes scf
// loops reading x[n, c, 2 oh + kh, 2 ow + kw] one element at a time.
// CHECK-LABEL: func @strided_pool
// CHECK-NOT: linalg.pooling_nchw_sum
// CHECK: scf.for %[[N:.*]] =
// CHECK: scf.for %[[C:.*]] =
// CHECK: scf.for %[[OH:.*]] =
// CHECK: scf.for %[[OW:.*]] =
// CHECK: scf.for %[[KH:.*]] =
// CHECK: scf.for %[[KW:.*]] =
// CHECK: %[[H:.*]] = affine.apply #{{.*}}(%[[OH]], %[[KH]])
// CHECK: %[[W:.*]] = affine.apply #{{.*}}(%[[OW]], %[[KW]])
// CHECK: memref.load %{{.*}}[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<1x8x8x8xf32>
// CHECK: memref.store {{.*}} : memref<1x8x4x4xf32>
func.func @strided_pool(%x: memref<1x8x8x8xf32>, %w: memref<2x2xf32>, %y: memref<1x8x4x4xf32>) {
  // expected-remark @below {{slow path: scalar loops, an access with a non-unit step (a stride, a dilation, floordiv or mod) the vectorizer would read as contiguous}}
  linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : memref<1x8x8x8xf32>, memref<2x2xf32>) outs(%y : memref<1x8x4x4xf32>)
  return
}

// -----

// A dilated convolution is strided along its filter dimensions.
// CHECK-LABEL: func @dilated_conv
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: scf.for
func.func @dilated_conv(%x: memref<1x4x10x10xf32>, %f: memref<8x4x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  // expected-remark @below {{slow path: scalar loops, an access with a non-unit step (a stride, a dilation, floordiv or mod) the vectorizer would read as contiguous}}
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %f : memref<1x4x10x10xf32>, memref<8x4x3x3xf32>) outs(%y : memref<1x8x6x6xf32>)
  return
}

// -----

// A nearest-neighbour 2x upsampling reads x[i floordiv 2]: not contiguous
// along i either (affine-super-vectorize would read x[i floordiv 2 ..
// i floordiv 2 + 7]).
// CHECK-LABEL: func @upsample
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<4x8xf32>
func.func @upsample(%x: memref<4x8xf32>, %y: memref<4x16xf32>) {
  // expected-remark @below {{slow path: scalar loops, an access with a non-unit step (a stride, a dilation, floordiv or mod) the vectorizer would read as contiguous}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 floordiv 2)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Unit strides (oh + kh), transposed and broadcast maps are left to the
// affine vectorizer; so are ops on tensors.
// CHECK-LABEL: func @unit_stride
// CHECK: linalg.pooling_nchw_max
// CHECK: linalg.generic
// CHECK: linalg.pooling_nchw_sum {{.*}} -> tensor<1x8x4x4xf32>
// CHECK-NOT: scf.for
#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#b = affine_map<(d0, d1) -> (d1)>
func.func @unit_stride(%x: memref<1x8x8x8xf32>, %w: memref<2x2xf32>, %y: memref<1x8x7x7xf32>,
                       %a: memref<16x8xf32>, %v: memref<16xf32>, %o: memref<8x16xf32>,
                       %tx: tensor<1x8x8x8xf32>, %tw: tensor<2x2xf32>, %ty: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : memref<1x8x8x8xf32>, memref<2x2xf32>) outs(%y : memref<1x8x7x7xf32>)
  linalg.generic {indexing_maps = [#t, #b, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %v : memref<16x8xf32>, memref<16xf32>) outs(%o : memref<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%tx, %tw : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%ty : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Found by utils/fuzz_passes.py. A reduction over a buffer that is an
// scf.for iter_arg: its dynamic size is no affine symbol there, so the op
// becomes scf loops (convert-linalg-to-affine-loops would bound an
// affine.for by memref.dim of the iter_arg, which does not verify).
// CHECK-LABEL: func @dynamic_in_loop
// CHECK:       scf.for %{{.*}} iter_args(%[[M:.*]] = %arg0) -> (memref<?x4xf32>)
// CHECK-NOT:   linalg.generic
// CHECK:         %[[D:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x4xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[D]] step
// CHECK:           memref.load %[[M]]
func.func @dynamic_in_loop(%x: memref<?x4xf32>, %acc: memref<4xf32>, %n: index) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %x) -> (memref<?x4xf32>) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
        ins(%m : memref<?x4xf32>) outs(%acc : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    scf.yield %m : memref<?x4xf32>
  }
  return %r : memref<?x4xf32>
}

// -----

// A dynamic buffer that is a function argument bounds affine loops: left to
// convert-linalg-to-affine-loops.
// CHECK-LABEL: func @dynamic_at_top
// CHECK:       linalg.generic
func.func @dynamic_at_top(%x: memref<?x4xf32>, %acc: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x4xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One head of a fused QKV projection (columns 64..127 of a 16x192 buffer,
// split per head) transposed: a strided view, which the affine vectorizer
// cannot read. Scalar loops, with a remark that says so.
// CHECK-LABEL: func @transpose_strided_view
// CHECK-NOT: linalg.transpose
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<16x4x16xf32, strided<[192, 16, 1], offset: 64>>
func.func @transpose_strided_view(%qkv: memref<16x192xf32>, %out: memref<4x16x16xf32>) {
  %k = memref.subview %qkv[0, 64] [16, 64] [1, 1]
      : memref<16x192xf32> to memref<16x64xf32, strided<[192, 1], offset: 64>>
  %heads = memref.expand_shape %k [[0], [1, 2]] output_shape [16, 4, 16]
      : memref<16x64xf32, strided<[192, 1], offset: 64>>
        into memref<16x4x16xf32, strided<[192, 16, 1], offset: 64>>
  // expected-remark @below {{slow path: scalar loops, operand #0 is a strided view}}
  linalg.transpose ins(%heads : memref<16x4x16xf32, strided<[192, 16, 1], offset: 64>>)
                   outs(%out : memref<4x16x16xf32>) permutation = [1, 0, 2]
  return
}

// -----

// Identity layouts stay for the vectorizer: no remark, no loops.
// CHECK-LABEL: func @transpose_plain
// CHECK: linalg.transpose
func.func @transpose_plain(%in: memref<16x4x16xf32>, %out: memref<4x16x16xf32>) {
  linalg.transpose ins(%in : memref<16x4x16xf32>) outs(%out : memref<4x16x16xf32>)
                   permutation = [1, 0, 2]
  return
}
