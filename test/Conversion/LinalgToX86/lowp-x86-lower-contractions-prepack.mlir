// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 mr=2 prepack=true" -split-input-file -verify-diagnostics | FileCheck %s

// A weight argument rounded to bf16 (the precision decision's cast) and
// read transposed by a matmul, bufferized: with prepack, the rounding and
// the VNNI packing move to forward_prepack, and forward takes the packed
// buffer in the weight's place. (Without prepack the cast runs inside the
// per-call packing: lowp-x86-lower-contractions.mlir.)
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %{{.*}}: memref<4x64xbf16>, %[[P:[a-z0-9]+]]: memref<2x32x64xbf16>, %{{.*}}: memref<4x40xf32>)
// CHECK-NOT: arith.truncf
// CHECK-NOT: memref.alloc
// CHECK: vector.load %[[P]]
// CHECK: x86vector.avx512.dot
// CHECK-NOT: memref.dealloc %[[P]]
// CHECK: return
// CHECK-LABEL: func.func @forward_prepack(
// CHECK-SAME: %[[W:[a-z0-9]+]]: memref<40x64xf32>) -> memref<2x32x64xbf16> attributes {llvm.emit_c_interface, lowp.runs_once}
// CHECK: %[[PK:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x32x64xbf16>
// CHECK: vector.load %[[W]]{{.*}} : memref<40x64xf32>, vector<32xf32>
// CHECK: arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<32xbf16> to vector<16xi32>
// CHECK: vector.shuffle
// CHECK: return %[[PK]] : memref<2x32x64xbf16>
// The numbers of the packed arguments, for a caller of the compiled library:
// CHECK: memref.global "private" constant @__lowp_forward_prepacked_arguments : memref<1xi64> = dense<1>
// CHECK-LABEL: func.func @forward_prepacked_arguments() -> memref<1xi64> attributes {llvm.emit_c_interface}
// CHECK: %[[G:.*]] = memref.get_global @__lowp_forward_prepacked_arguments : memref<1xi64>
// CHECK: %[[N:.*]] = memref.alloc() : memref<1xi64>
// CHECK: memref.copy %[[G]], %[[N]]
// CHECK: return %[[N]] : memref<1xi64>
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-remark @below {{weights of 'forward' (argument 1) are packed once, by 'forward_prepack'}}
func.func @forward(%x: memref<4x64xbf16>, %w: memref<40x64xf32>, %y: memref<4x40xf32>) attributes {llvm.emit_c_interface} {
  %wb = memref.alloc() {alignment = 64 : i64} : memref<40x64xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<40x64xf32>) outs(%wb : memref<40x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wb : memref<4x64xbf16>, memref<40x64xbf16>) outs(%y : memref<4x40xf32>)
  return
}

// -----

// Not split: the weight has another reader, and the other weight is
// written between its cast and the matmul (so the cast is not fused: it
// stays a generic writing a bf16 copy).
// CHECK-LABEL: func.func @shared_weight(
// CHECK-SAME: %{{.*}}: memref<4x64xf32>, %{{.*}}: memref<64x32xf32>,
// CHECK-NOT: _prepack
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: vector.store %{{.*}} : memref<2048xf32>, vector<16xf32>
func.func @shared_weight(%x: memref<4x64xf32>, %w: memref<64x32xf32>, %y: memref<4x32xf32>, %z: memref<4x32xf32>,
                         %x2: memref<4x64xbf16>, %w2: memref<64x32xf32>) {
  linalg.matmul ins(%x, %w : memref<4x64xf32>, memref<64x32xf32>) outs(%y : memref<4x32xf32>)
  linalg.matmul ins(%x, %w : memref<4x64xf32>, memref<64x32xf32>) outs(%z : memref<4x32xf32>)
  %wb = memref.alloc() : memref<64x32xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w2 : memref<64x32xf32>) outs(%wb : memref<64x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%w2 : memref<64x32xf32>)
  linalg.matmul ins(%x2, %wb : memref<4x64xbf16>, memref<64x32xbf16>) outs(%z : memref<4x32xf32>)
  return
}

// -----

// Two weights, the later argument read first: forward_prepack takes them in
// argument order, and the list of packed arguments says so.
// CHECK-LABEL: func.func @two_layers(
// CHECK-SAME: %{{.*}}: memref<4x64xf32>, %{{.*}}: memref<1x32x32xf32>, %{{.*}}: memref<1x64x32xf32>,
// CHECK-LABEL: func.func @two_layers_prepack(
// CHECK-SAME: memref<32x16xf32>, %{{.*}}: memref<64x32xf32>) -> (memref<1x32x32xf32>, memref<1x64x32xf32>)
// CHECK: memref.global "private" constant @__lowp_two_layers_prepacked_arguments : memref<2xi64> = dense<[1, 2]>
// CHECK-LABEL: func.func @two_layers_prepacked_arguments() -> memref<2xi64>
// expected-remark @below {{weights of 'two_layers' (arguments 1, 2) are packed once, by 'two_layers_prepack'}}
func.func @two_layers(%x: memref<4x64xf32>, %w2: memref<32x16xf32>, %w1: memref<64x32xf32>,
                      %h: memref<4x32xf32>, %y: memref<4x16xf32>) {
  linalg.matmul ins(%x, %w1 : memref<4x64xf32>, memref<64x32xf32>) outs(%h : memref<4x32xf32>)
  linalg.matmul ins(%h, %w2 : memref<4x32xf32>, memref<32x16xf32>) outs(%y : memref<4x16xf32>)
  return
}

// -----

// A convolution's filter argument rounded to bf16 (the precision
// decision's cast): with prepack, the rounding moves to forward_prepack,
// which returns the rounded filter in its own layout, and the convolution
// reads it in the argument's place.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: %{{.*}}: memref<1x8x10x10xbf16>, %[[F:[a-z0-9]+]]: memref<16x8x3x3xbf16>, %{{.*}}: memref<1x16x8x8xf32>)
// CHECK-NOT: arith.truncf
// CHECK: memref.collapse_shape %[[F]]
// CHECK: x86vector.avx512.dot
// CHECK-NOT: memref.dealloc %[[F]]
// CHECK: return
// CHECK-LABEL: func.func @conv_prepack(
// CHECK-SAME: %[[W:[a-z0-9]+]]: memref<16x8x3x3xf32>) -> memref<16x8x3x3xbf16>
// CHECK: %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x8x3x3xbf16>
// The cast, its rows of 3 flattened (leftover elementwise rewrites):
// CHECK: %[[WF:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0, 1, 2, 3]] : memref<16x8x3x3xf32> into memref<1152xf32>
// CHECK: %[[RF:.*]] = memref.collapse_shape %[[R]] {{\[\[}}0, 1, 2, 3]] : memref<16x8x3x3xbf16> into memref<1152xbf16>
// CHECK: linalg.generic {{.*}} ins(%[[WF]] : memref<1152xf32>) outs(%[[RF]] : memref<1152xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: return %[[R]] : memref<16x8x3x3xbf16>
// CHECK: memref.global "private" constant @__lowp_conv_prepacked_arguments : memref<1xi64> = dense<1>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// expected-remark @below {{weights of 'conv' (argument 1) are packed once, by 'conv_prepack'}}
func.func @conv(%x: memref<1x8x10x10xbf16>, %w: memref<16x8x3x3xf32>, %y: memref<1x16x8x8xf32>) {
  %wb = memref.alloc() {alignment = 64 : i64} : memref<16x8x3x3xbf16>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<16x8x3x3xf32>) outs(%wb : memref<16x8x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %wb : memref<1x8x10x10xbf16>, memref<16x8x3x3xbf16>) outs(%y : memref<1x16x8x8xf32>)
  memref.dealloc %wb : memref<16x8x3x3xbf16>
  return
}

// -----

// Not split: a filter that is not a cast of an argument (used as it is),
// and a rounded filter read by two convolutions.
// CHECK-LABEL: func.func @conv_not_split(
// CHECK-SAME: %{{.*}}: memref<16x8x3x3xf32>, %{{.*}}: memref<16x8x3x3xf32>,
// CHECK-NOT: _prepack
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @conv_not_split(%x: memref<1x8x10x10xf32>, %w: memref<16x8x3x3xf32>, %y: memref<1x16x8x8xf32>,
                          %xb: memref<1x8x10x10xbf16>, %w2: memref<16x8x3x3xf32>, %z: memref<1x16x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%y : memref<1x16x8x8xf32>)
  %wb = memref.alloc() {alignment = 64 : i64} : memref<16x8x3x3xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w2 : memref<16x8x3x3xf32>) outs(%wb : memref<16x8x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : memref<1x8x10x10xbf16>, memref<16x8x3x3xbf16>) outs(%z : memref<1x16x8x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : memref<1x8x10x10xbf16>, memref<16x8x3x3xbf16>) outs(%z : memref<1x16x8x8xf32>)
  memref.dealloc %wb : memref<16x8x3x3xbf16>
  return
}
