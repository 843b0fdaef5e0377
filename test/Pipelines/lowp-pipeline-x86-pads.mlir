// lowp-pipeline-x86 on the two padded convolutions of a ResNet basic block
// (bf16, as torch-mlir + lowp-auto-mixed-precision emit them: cast, pad,
// conv, ReLU + cast, pad, conv), seen after the kernels
// (lowp-x86-lower-contractions):
// - the input's cast writes the interior of the first padded buffer
//   (lowp-fold-pad-into-producer), vectors of 16 with the row's last run
//   overlapping, and only its border is filled; no copy;
// - the first convolution's ReLU + cast stays its kernel's epilogue, into a
//   contiguous buffer, and its pad stays a fill and a copy into the second
//   padded buffer's interior (vector runs, the last overlapping);
// - nothing else is left as linalg ops, memref.copy or scalar loops on
//   views.
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -mlir-print-ir-after=lowp-x86-lower-contractions -o /dev/null 2>&1 | FileCheck %s
// And no remark (no slow path, the epilogue fused):
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -verify-diagnostics -o /dev/null

// CHECK-LABEL: func.func @block
// CHECK-SAME: (%[[X:.*]]: memref<1x4x21x21xf32>
// CHECK: %[[P1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x23x23xbf16>
// CHECK: memref.subview %[[P1]][0, 0, 0, 0] [1, 4, 1, 23]
// CHECK: vector.store
// CHECK: memref.subview %[[P1]][0, 0, 22, 0] [1, 4, 1, 23]
// CHECK: memref.subview %[[P1]][0, 0, 1, 0] [1, 4, 21, 1]
// CHECK: memref.subview %[[P1]][0, 0, 1, 22] [1, 4, 21, 1]
// CHECK: %[[IN1:.*]] = memref.subview %[[P1]][0, 0, 1, 1] [1, 4, 21, 21]
// CHECK: vector.load %[[X]]{{.*}} : memref<1x4x21x21xf32>, vector<16xf32>
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK: vector.store %{{.*}}, %[[IN1]]
// CHECK: vector.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, %c5] : memref<1x4x21x21xf32>, vector<16xf32>
// CHECK: %[[R1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x21x21xbf16>
// CHECK: %[[R1C:.*]] = memref.collapse_shape %[[R1]]
// CHECK: vector.load %[[P1]]
// CHECK: x86vector.avx512.dot
// CHECK: arith.select
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK: vector.store %{{.*}}, %[[R1C]]
// CHECK: %[[P2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x23x23xbf16>
// CHECK: memref.collapse_shape %[[P2]] {{.*}} into memref<8464xbf16>
// CHECK: vector.store
// CHECK: %[[IN2:.*]] = memref.subview %[[P2]][0, 0, 1, 1] [1, 16, 21, 21]
// CHECK: vector.load %[[R1]]
// CHECK: vector.store %{{.*}}, %[[IN2]]
// CHECK: vector.load %[[R1]][%{{.*}}, %{{.*}}, %{{.*}}, %c5]
// CHECK: vector.store %{{.*}}, %[[IN2]][%{{.*}}, %{{.*}}, %{{.*}}, %c5]
// CHECK: vector.load %[[P2]]
// CHECK: x86vector.avx512.dot
// CHECK-NOT: linalg.
// CHECK-NOT: memref.copy
// CHECK: return
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @block(%x: tensor<1x4x21x21xf32>, %w1: tensor<16x4x3x3xbf16>, %w2: tensor<16x16x3x3xbf16>) -> tensor<1x16x21x21xf32> {
  %zero = arith.constant 0.0 : f32
  %zb = arith.constant 0.0 : bf16
  %e0 = tensor.empty() : tensor<1x4x21x21xbf16>
  %xb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x21x21xf32>) outs(%e0 : tensor<1x4x21x21xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x4x21x21xbf16>
  %p1 = tensor.pad %xb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zb : bf16
  } : tensor<1x4x21x21xbf16> to tensor<1x4x23x23xbf16>
  %e1 = tensor.empty() : tensor<1x16x21x21xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x21x21xf32>) -> tensor<1x16x21x21xf32>
  %y1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x4x23x23xbf16>, tensor<16x4x3x3xbf16>) outs(%o1 : tensor<1x16x21x21xf32>) -> tensor<1x16x21x21xf32>
  %e2 = tensor.empty() : tensor<1x16x21x21xbf16>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1 : tensor<1x16x21x21xf32>) outs(%e2 : tensor<1x16x21x21xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %pos = arith.cmpf ugt, %in, %zero : f32
    %relu = arith.select %pos, %in, %zero : f32
    %t = arith.truncf %relu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x16x21x21xbf16>
  %p2 = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zb : bf16
  } : tensor<1x16x21x21xbf16> to tensor<1x16x23x23xbf16>
  %e3 = tensor.empty() : tensor<1x16x21x21xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16x21x21xf32>) -> tensor<1x16x21x21xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x16x23x23xbf16>, tensor<16x16x3x3xbf16>) outs(%o2 : tensor<1x16x21x21xf32>) -> tensor<1x16x21x21xf32>
  return %y2 : tensor<1x16x21x21xf32>
}
