// RUN: fp-opt %s -lowp-fold-layout-into-contractions -split-input-file | FileCheck %s

// torch-mlir's nn.Linear: the [out, in] weight transposed, then a matmul.
// The transpose becomes B's map (n, k).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[ACC:.*]]: tensor<4x64xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[X]], %[[W]] : tensor<4x32xf32>, tensor<64x32xf32>) outs(%[[ACC]] : tensor<4x64xf32>)
func.func @linear(%x: tensor<4x32xf32>, %w: tensor<64x32xf32>, %acc: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %y = linalg.matmul ins(%x, %wt : tensor<4x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// A transposed by a generic copy (older torch-mlir), and a B that was
// already read transposed: transposing it back gives the default map.
// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func @generic_copies
// CHECK-SAME: (%[[XT:.*]]: tensor<32x4xf32>, %[[W:.*]]: tensor<32x64xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.matmul indexing_maps = [#[[AT]], #[[B]], #{{.*}}] ins(%[[XT]], %[[W]] :
#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_copies(%xt: tensor<32x4xf32>, %w: tensor<32x64xf32>, %acc: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x32xf32>
  %x = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xt : tensor<32x4xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e2 : tensor<64x32xf32>) permutation = [1, 0]
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wt : tensor<4x32xf32>, tensor<64x32xf32>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// The narrowing cast the precision decisions put between the transpose and
// the matmul moves before the transpose (it runs on the contiguous weight),
// then the transpose folds.
// CHECK-LABEL: func @cast_between
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xbf16>, %[[W:.*]]: tensor<64x32xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x32xbf16>
// CHECK: %[[WB:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<64x32xf32>) outs(%[[E]] : tensor<64x32xbf16>)
// CHECK: arith.truncf
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[X]], %[[WB]] : tensor<4x32xbf16>, tensor<64x32xbf16>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cast_between(%x: tensor<4x32xbf16>, %w: tensor<64x32xf32>, %acc: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<32x64xbf16>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<32x64xf32>) outs(%eb : tensor<32x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x64xbf16>
  %y = linalg.matmul ins(%x, %wb : tensor<4x32xbf16>, tensor<32x64xbf16>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// torch-mlir's batched linear: the transposed weight broadcast over the
// batch. Both copies fold; B shared by every batch makes the batch more rows
// of one matmul reading B as (n, k) (batch_matmul takes a broadcast B only
// untransposed).
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @batched_linear
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x32xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[ACC:.*]]: tensor<2x4x64xf32>)
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.transpose
// CHECK: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<2x4x32xf32> into tensor<8x32xf32>
// CHECK: %[[ACC2:.*]] = tensor.collapse_shape %[[ACC]] {{\[\[}}0, 1], [2]] : tensor<2x4x64xf32> into tensor<8x64xf32>
// CHECK: %[[Y:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #[[BT]], #{{.*}}] ins(%[[X2]], %[[W]] : tensor<8x32xf32>, tensor<64x32xf32>) outs(%[[ACC2]] : tensor<8x64xf32>)
// CHECK: tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [2, 4, 64]
func.func @batched_linear(%x: tensor<2x4x32xf32>, %w: tensor<64x32xf32>, %acc: tensor<2x4x64xf32>) -> tensor<2x4x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<2x32x64xf32>
  %wb = linalg.broadcast ins(%wt : tensor<32x64xf32>) outs(%eb : tensor<2x32x64xf32>) dimensions = [0]
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x4x32xf32>, tensor<2x32x64xf32>) outs(%acc : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  return %y : tensor<2x4x64xf32>
}

// -----

// A broadcast B with A read transposed per batch: batch_matmul with B as
// (k, n), the one broadcast form it takes.
// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-LABEL: func @broadcast_at
// CHECK-NOT: linalg.broadcast
// CHECK: linalg.batch_matmul indexing_maps = [#[[AT]], #[[W]], #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<2x32x4xf32>, tensor<32x64xf32>)
func.func @broadcast_at(%xt: tensor<2x32x4xf32>, %w: tensor<32x64xf32>, %acc: tensor<2x4x64xf32>) -> tensor<2x4x64xf32> {
  %eb = tensor.empty() : tensor<2x32x64xf32>
  %wb = linalg.broadcast ins(%w : tensor<32x64xf32>) outs(%eb : tensor<2x32x64xf32>) dimensions = [0]
  %y = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%xt, %wb : tensor<2x32x4xf32>, tensor<2x32x64xf32>) outs(%acc : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  return %y : tensor<2x4x64xf32>
}

// -----

// Attention scores: K transposed by [0, 2, 1] -> B read as (b, n, k).
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func @scores
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}]
func.func @scores(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %acc: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x16xf32>) outs(%e : tensor<2x16x8xf32>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%acc : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %y : tensor<2x8x8xf32>
}

// -----

// Left alone: a transpose that swaps the batch with a matrix dimension
// (not a matrix per batch), a cast with a user that is not a contraction
// (it stays after the transpose; the transpose folds nowhere), and
// buffers.
// CHECK-LABEL: func @not_a_matrix
// CHECK: linalg.transpose
// CHECK: linalg.batch_matmul ins
func.func @not_a_matrix(%q: tensor<2x8x16xf32>, %k: tensor<16x2x8xf32>, %acc: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<16x2x8xf32>) outs(%e : tensor<2x16x8xf32>) permutation = [1, 0, 2]
  %y = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%acc : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %y : tensor<2x8x8xf32>
}

// CHECK-LABEL: func @cast_used_elsewhere
// CHECK: linalg.transpose
// CHECK: %[[WB:.*]] = linalg.generic
// CHECK: linalg.matmul ins(%{{.*}}, %[[WB]] :
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cast_used_elsewhere(%x: tensor<4x32xbf16>, %w: tensor<64x32xf32>, %acc: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<32x64xbf16>) {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<32x64xbf16>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<32x64xf32>) outs(%eb : tensor<32x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x64xbf16>
  %y = linalg.matmul ins(%x, %wb : tensor<4x32xbf16>, tensor<32x64xbf16>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y, %wb : tensor<4x64xf32>, tensor<32x64xbf16>
}

// CHECK-LABEL: func @buffers
// CHECK: linalg.transpose
// CHECK: linalg.matmul ins
func.func @buffers(%x: memref<4x32xf32>, %w: memref<64x32xf32>, %wt: memref<32x64xf32>, %acc: memref<4x64xf32>) {
  linalg.transpose ins(%w : memref<64x32xf32>) outs(%wt : memref<32x64xf32>) permutation = [1, 0]
  linalg.matmul ins(%x, %wt : memref<4x32xf32>, memref<32x64xf32>) outs(%acc : memref<4x64xf32>)
  return
}

// -----

// The operand casts of the contraction are kept (integer matmuls extend
// unsigned here).
// CHECK-LABEL: func @unsigned
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] {cast = #linalg.type_fn<cast_unsigned>}
func.func @unsigned(%x: tensor<4x32xi8>, %w: tensor<64x32xi8>, %acc: tensor<4x64xi32>) -> tensor<4x64xi32> {
  %e = tensor.empty() : tensor<32x64xi8>
  %wt = linalg.transpose ins(%w : tensor<64x32xi8>) outs(%e : tensor<32x64xi8>) permutation = [1, 0]
  %y = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%x, %wt : tensor<4x32xi8>, tensor<32x64xi8>) outs(%acc : tensor<4x64xi32>) -> tensor<4x64xi32>
  return %y : tensor<4x64xi32>
}
