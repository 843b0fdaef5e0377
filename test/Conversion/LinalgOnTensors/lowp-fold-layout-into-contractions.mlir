// RUN: fp-opt %s -lowp-fold-layout-into-contractions -split-input-file | FileCheck %s
// A copy left between a contraction and its operand says why:
// RUN: fp-opt %s -lowp-fold-layout-into-contractions -split-input-file -verify-diagnostics -o /dev/null

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
// buffers. Each copy left on tensors gets a remark.
// CHECK-LABEL: func @not_a_matrix
// CHECK: linalg.transpose
// CHECK: linalg.batch_matmul ins
func.func @not_a_matrix(%q: tensor<2x8x16xf32>, %k: tensor<16x2x8xf32>, %acc: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<16x2x8xf32>) outs(%e : tensor<2x16x8xf32>) permutation = [1, 0, 2]
  // expected-remark @+1 {{operand 1 of 'linalg.batch_matmul' is a materialized transpose ('linalg.transpose'), not folded into its indexing map: read through (d0, d1, d2, d3) -> (d3, d0, d2), the operand is not a matrix per batch}}
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
  // expected-remark @+1 {{operand 1 of 'linalg.matmul' is a materialized transpose ('linalg.transpose'), not folded into its indexing map: the elementwise op between them ('linalg.generic') has users other than contraction operands}}
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

// -----

// torch-mlir's TorchToLinalg: `aten.t` of the weight as a copy-only
// linalg.generic with a permuted output map, the broadcast over the rows as
// another generic, a batch_matmul of the NHWC activation viewed as 8x8x32
// (ConvNeXt's and ViT's MLP). The generic is the transpose it is: both
// copies fold, and the rows become one matmul reading W as (n, k).
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @torch_linear_nhwc
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x32xf32>, %[[W:.*]]: tensor<48x32xf32>
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[Y:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #[[BT]], #{{.*}}] ins(%{{.*}}, %[[W]] : tensor<64x32xf32>, tensor<48x32xf32>) outs(%{{.*}} : tensor<64x48xf32>)
// CHECK: tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [8, 8, 48]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#rows = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @torch_linear_nhwc(%x: tensor<1x8x8x32xf32>, %w: tensor<48x32xf32>, %acc: tensor<8x8x48xf32>) -> tensor<8x8x48xf32> {
  %e = tensor.empty() : tensor<32x48xf32>
  %wt = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<48x32xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x48xf32>
  %xc = tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<1x8x8x32xf32> into tensor<8x8x32xf32>
  %eb = tensor.empty() : tensor<8x32x48xf32>
  %wb = linalg.generic {indexing_maps = [#rows, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%wt : tensor<32x48xf32>) outs(%eb : tensor<8x32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x32x48xf32>
  %y = linalg.batch_matmul ins(%xc, %wb : tensor<8x8x32xf32>, tensor<8x32x48xf32>) outs(%acc : tensor<8x8x48xf32>) -> tensor<8x8x48xf32>
  return %y : tensor<8x8x48xf32>
}

// -----

// The transpose generic alone (permuted output map) feeding a matmul.
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @generic_transpose_output_map
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xf32>, %[[W:.*]]: tensor<64x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #[[BT]], #{{.*}}] ins(%[[X]], %[[W]] : tensor<4x32xf32>, tensor<64x32xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @generic_transpose_output_map(%x: tensor<4x32xf32>, %w: tensor<64x32xf32>, %acc: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x64xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// Attention's K^T as a 3-D generic with a permuted output map -> B read as
// (b, n, k).
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func @generic_scores
// CHECK-NOT: linalg.generic
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}] ins(%arg0, %arg1 :
func.func @generic_scores(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %acc: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x16x8xf32>
  %kt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2, d1)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x8x16xf32>) outs(%e : tensor<2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x8xf32>
  %y = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%acc : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %y : tensor<2x8x8xf32>
}

// -----

// Copy-only generics with permuted maps on the way to a contraction become
// linalg.transpose. The permutation's direction differs between the two
// forms: out[o] = in[i] with i[perm[d]] = o[d]. Rank 3, permutations that
// are not their own inverse (linalg.transpose's verifier checks the
// shapes); the first two read as B are no matrix per batch (they stay,
// with a remark), the third folds (B read as (b, n, k)) and stays for its
// other user.
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func @generic_transposes_3d
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x4x2xf32>) permutation = [1, 2, 0]
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<2x4x3xf32>) permutation = [0, 2, 1]
// CHECK: linalg.batch_matmul ins
// CHECK: linalg.batch_matmul ins
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}] ins(%{{.*}}, %[[X]] :
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#p120 = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
#p102 = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @generic_transposes_3d(%x: tensor<2x3x4xf32>,
    %a0: tensor<3x5x4xf32>, %c0: tensor<3x5x2xf32>, %a1: tensor<4x5x2xf32>, %c1: tensor<4x5x3xf32>,
    %a2: tensor<2x5x4xf32>, %c2: tensor<2x5x3xf32>)
    -> (tensor<3x5x2xf32>, tensor<4x5x3xf32>, tensor<2x5x3xf32>, tensor<2x4x3xf32>) {
  // Identity input map, permuted output map (torch-mlir).
  %e0 = tensor.empty() : tensor<3x4x2xf32>
  %t0 = linalg.generic {indexing_maps = [#id3, #p120], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e0 : tensor<3x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x4x2xf32>
  // Permuted input map, identity output map.
  %e1 = tensor.empty() : tensor<4x2x3xf32>
  %t1 = linalg.generic {indexing_maps = [#p120, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<4x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x2x3xf32>
  // Both permuted: out[d1, d0, d2] = in[d1, d2, d0], i.e. out[a, b, c] =
  // in[a, c, b].
  %e2 = tensor.empty() : tensor<2x4x3xf32>
  %t2 = linalg.generic {indexing_maps = [#p120, #p102], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e2 : tensor<2x4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x3xf32>
  // expected-remark @+1 {{operand 1 of 'linalg.batch_matmul' is a materialized transpose ('linalg.transpose'), not folded into its indexing map: read through (d0, d1, d2, d3) -> (d2, d0, d3), the operand is not a matrix per batch}}
  %y0 = linalg.batch_matmul ins(%a0, %t0 : tensor<3x5x4xf32>, tensor<3x4x2xf32>) outs(%c0 : tensor<3x5x2xf32>) -> tensor<3x5x2xf32>
  // expected-remark @+1 {{operand 1 of 'linalg.batch_matmul' is a materialized transpose ('linalg.transpose'), not folded into its indexing map: read through (d0, d1, d2, d3) -> (d3, d2, d0), the operand is not a matrix per batch}}
  %y1 = linalg.batch_matmul ins(%a1, %t1 : tensor<4x5x2xf32>, tensor<4x2x3xf32>) outs(%c1 : tensor<4x5x3xf32>) -> tensor<4x5x3xf32>
  %y2 = linalg.batch_matmul ins(%a2, %t2 : tensor<2x5x4xf32>, tensor<2x4x3xf32>) outs(%c2 : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %y0, %y1, %y2, %t2 : tensor<3x5x2xf32>, tensor<4x5x3xf32>, tensor<2x5x3xf32>, tensor<2x4x3xf32>
}

// -----

// Left alone: generics with permuted maps that compute (an add, a read of
// the output element) feeding matmuls, and a copy-only one that feeds no
// contraction (a consumer that writes a matmul's result transposed is the
// kernel's epilogue as it is).
// CHECK-LABEL: func @not_transposes
// CHECK-SAME: (%[[W:.*]]: tensor<64x32xf32>, %[[O:.*]]: tensor<32x64xf32>, %[[X:.*]]: tensor<4x32xf32>
// CHECK-NOT: linalg.transpose
// CHECK: %[[R0:.*]] = linalg.generic
// CHECK: %[[R1:.*]] = linalg.generic
// CHECK: linalg.matmul ins(%[[X]], %[[R0]] :
// CHECK: linalg.matmul ins(%[[X]], %[[R1]] :
// CHECK: linalg.generic
// CHECK-NOT: linalg.transpose
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @not_transposes(%w: tensor<64x32xf32>, %o: tensor<32x64xf32>, %x: tensor<4x32xf32>, %acc: tensor<4x64xf32>)
    -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<64x4xf32>) {
  %e = tensor.empty() : tensor<32x64xf32>
  %r0 = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %r1 = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x32xf32>) outs(%o : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %out : f32
  } -> tensor<32x64xf32>
  %y0 = linalg.matmul ins(%x, %r0 : tensor<4x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  %y1 = linalg.matmul ins(%x, %r1 : tensor<4x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%y0 : tensor<4x64xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x4xf32>
  return %y0, %y1, %r2 : tensor<4x64xf32>, tensor<4x64xf32>, tensor<64x4xf32>
}

// -----

// Slow paths say so. A weight broadcast over the batch and transposed,
// with A read transposed per batch: linalg.batch_matmul takes a broadcast
// B only as (k, n), and the batch becomes rows only with A and C in their
// default layout; the transpose stays, with a remark. A broadcast row
// vector read as a matrix (not a matrix in the composed map) too.
// CHECK-LABEL: func @remarks
// CHECK: linalg.transpose
// CHECK: linalg.batch_matmul indexing_maps
// CHECK: linalg.broadcast
// CHECK: linalg.matmul ins
func.func @remarks(%xt: tensor<2x32x4xf32>, %w: tensor<64x32xf32>, %acc: tensor<2x4x64xf32>,
                   %v: tensor<32xf32>, %b: tensor<32x64xf32>, %acc2: tensor<4x64xf32>) -> (tensor<2x4x64xf32>, tensor<4x64xf32>) {
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<2x32x64xf32>
  %wb = linalg.broadcast ins(%wt : tensor<32x64xf32>) outs(%eb : tensor<2x32x64xf32>) dimensions = [0]
  // expected-remark @+1 {{operand 1 of 'linalg.batch_matmul' is a materialized transpose ('linalg.transpose'), not folded into its indexing map: a B broadcast over the batch and transposed}}
  %y = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%xt, %wb : tensor<2x32x4xf32>, tensor<2x32x64xf32>) outs(%acc : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %ea = tensor.empty() : tensor<4x32xf32>
  %a = linalg.broadcast ins(%v : tensor<32xf32>) outs(%ea : tensor<4x32xf32>) dimensions = [0]
  // expected-remark @+1 {{operand 0 of 'linalg.matmul' is a materialized broadcast ('linalg.broadcast'), not folded into its indexing map: read through (d0, d1, d2) -> (d2), the operand is not a matrix (maybe transposed); it is copied on every call}}
  %z = linalg.matmul ins(%a, %b : tensor<4x32xf32>, tensor<32x64xf32>) outs(%acc2 : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y, %z : tensor<2x4x64xf32>, tensor<4x64xf32>
}

// -----

// torch-mlir's matmul of a 4-D activation by a 2-D weight: the weight is
// broadcast to [1, 8, k, n] and the batch collapsed for batch_matmul. The
// collapse of broadcast-only dimensions is the broadcast at [8, k, n], which
// folds: one matmul over the 64 rows.
// CHECK-LABEL: func @torch_linear_4d_collapsed_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x32xf32>, %[[W:.*]]: tensor<48x32xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %[[W]] : tensor<64x32xf32>, tensor<48x32xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#kn4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @torch_linear_4d_collapsed_broadcast(%x: tensor<1x8x8x32xf32>, %w: tensor<48x32xf32>, %acc: tensor<8x8x48xf32>) -> tensor<8x8x48xf32> {
  %e = tensor.empty() : tensor<32x48xf32>
  %wt = linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<48x32xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x48xf32>
  %eb = tensor.empty() : tensor<1x8x32x48xf32>
  %wb = linalg.generic {indexing_maps = [#kn4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%wt : tensor<32x48xf32>) outs(%eb : tensor<1x8x32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x32x48xf32>
  %xc = tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<1x8x8x32xf32> into tensor<8x8x32xf32>
  %wc = tensor.collapse_shape %wb [[0, 1], [2], [3]] : tensor<1x8x32x48xf32> into tensor<8x32x48xf32>
  %y = linalg.batch_matmul ins(%xc, %wc : tensor<8x8x32xf32>, tensor<8x32x48xf32>) outs(%acc : tensor<8x8x48xf32>) -> tensor<8x8x48xf32>
  return %y : tensor<8x8x48xf32>
}

// -----

// A collapse that merges a dimension the copy's source indexes is not a
// broadcast at the collapsed shape: it stays, and the contraction reading
// the copy through it says so.
// CHECK-LABEL: func @collapse_of_indexed_dims
// CHECK: tensor.collapse_shape
// CHECK: linalg.batch_matmul
#src = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @collapse_of_indexed_dims(%a: tensor<8x8x32xf32>, %w: tensor<8x32x48xf32>, %acc: tensor<8x8x48xf32>) -> tensor<8x8x48xf32> {
  %eb = tensor.empty() : tensor<1x8x32x48xf32>
  %wb = linalg.generic {indexing_maps = [#src, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<8x32x48xf32>) outs(%eb : tensor<1x8x32x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x32x48xf32>
  %wc = tensor.collapse_shape %wb [[0, 1], [2], [3]] : tensor<1x8x32x48xf32> into tensor<8x32x48xf32>
  // expected-remark @below {{operand 1 of 'linalg.batch_matmul' is a materialized broadcast ('linalg.generic'), not folded into its indexing map}}
  %y = linalg.batch_matmul ins(%a, %wc : tensor<8x8x32xf32>, tensor<8x32x48xf32>) outs(%acc : tensor<8x8x48xf32>) -> tensor<8x8x48xf32>
  return %y : tensor<8x8x48xf32>
}

// -----

// A transpose that only moves unit dimensions (ConvNeXt's classifier: NCHW
// 1x768x1x1 to NHWC before its LayerNorm, flattened for the Linear) moves no
// element: it becomes a reshape, and the matmul reads the input directly.
// CHECK-LABEL: func @transpose_of_unit_dims
// CHECK-SAME: (%[[X:.*]]: tensor<1x768x1x1xf32>
// CHECK-NOT: linalg.transpose
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2, 3]] : tensor<1x768x1x1xf32> into tensor<1x768xf32>
// CHECK: linalg.matmul ins(%[[R]], %{{.*}} : tensor<1x768xf32>, tensor<768x16xf32>)
func.func @transpose_of_unit_dims(%x: tensor<1x768x1x1xf32>, %w: tensor<768x16xf32>, %acc: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %e = tensor.empty() : tensor<1x1x1x768xf32>
  %t = linalg.transpose ins(%x : tensor<1x768x1x1xf32>) outs(%e : tensor<1x1x1x768xf32>) permutation = [0, 2, 3, 1]
  %c = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<1x1x1x768xf32> into tensor<1x768xf32>
  %y = linalg.matmul ins(%c, %w : tensor<1x768xf32>, tensor<768x16xf32>) outs(%acc : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %y : tensor<1x16xf32>
}

// -----

// A transpose that moves elements stays one; the matmul reading it through
// the collapse says why it is copied.
// CHECK-LABEL: func @transpose_moving_elements
// CHECK: linalg.transpose
// CHECK: tensor.collapse_shape
// CHECK: linalg.matmul ins
func.func @transpose_moving_elements(%x: tensor<4x2x1xf32>, %w: tensor<8x16xf32>, %acc: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %e = tensor.empty() : tensor<1x2x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x2x1xf32>) outs(%e : tensor<1x2x4xf32>) permutation = [2, 1, 0]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<1x2x4xf32> into tensor<1x8xf32>
  // expected-remark @below {{operand 0 of 'linalg.matmul' is a materialized transpose ('linalg.transpose'), not folded into its indexing map: a reshape ('tensor.collapse_shape') between them}}
  %y = linalg.matmul ins(%c, %w : tensor<1x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %y : tensor<1x16xf32>
}

// -----

// Grouped-query attention's scores as torch exports them: each of the 2
// key heads of the cache repeated for its 4 query heads (expand of a unit
// dimension, reshape), transposed, the batch collapsed. The 4 query heads
// of a group become 4 rows of one matrix against the cache's key head read
// as (n, k): no repeat, no transpose left.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func @grouped_query_scores
// CHECK-SAME: (%[[Q:.*]]: tensor<8x1x32xf32>, %[[K:.*]]: tensor<1x2x64x32xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.transpose
// CHECK-DAG: %[[KE:.*]] = tensor.expand_shape %[[K]]
// CHECK-DAG: %[[KG:.*]] = tensor.collapse_shape %[[KE]] {{\[\[}}0, 1, 2], [3], [4]] : tensor<1x2x1x64x32xf32> into tensor<2x64x32xf32>
// CHECK-DAG: %[[QE:.*]] = tensor.expand_shape %[[Q]] {{\[\[}}0, 1], [2], [3]] output_shape [2, 4, 1, 32]
// CHECK-DAG: %[[QG:.*]] = tensor.collapse_shape %[[QE]] {{\[\[}}0], [1, 2], [3]] : tensor<2x4x1x32xf32> into tensor<2x4x32xf32>
// CHECK: %[[S:.*]] = linalg.batch_matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[QG]], %[[KG]] : tensor<2x4x32xf32>, tensor<2x64x32xf32>) outs(%{{.*}} : tensor<2x4x64xf32>)
// CHECK: %[[SE:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0], [1, 2], [3]] output_shape [2, 4, 1, 64]
// CHECK: tensor.collapse_shape %[[SE]] {{\[\[}}0, 1], [2], [3]] : tensor<2x4x1x64xf32> into tensor<8x1x64xf32>
#repeat = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @grouped_query_scores(%q: tensor<8x1x32xf32>, %k: tensor<1x2x64x32xf32>) -> tensor<8x1x64xf32> {
  %k1 = tensor.expand_shape %k [[0], [1], [2, 3], [4]] output_shape [1, 2, 1, 64, 32] : tensor<1x2x64x32xf32> into tensor<1x2x1x64x32xf32>
  %e = tensor.empty() : tensor<1x2x4x64x32xf32>
  %kr = linalg.generic {indexing_maps = [#repeat, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<1x2x1x64x32xf32>) outs(%e : tensor<1x2x4x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x4x64x32xf32>
  %kh = tensor.collapse_shape %kr [[0], [1, 2], [3], [4]] : tensor<1x2x4x64x32xf32> into tensor<1x8x64x32xf32>
  %et = tensor.empty() : tensor<1x8x32x64xf32>
  %kt = linalg.transpose ins(%kh : tensor<1x8x64x32xf32>) outs(%et : tensor<1x8x32x64xf32>) permutation = [0, 1, 3, 2]
  %kb = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x8x32x64xf32> into tensor<8x32x64xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<8x1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  %s = linalg.batch_matmul ins(%q, %kb : tensor<8x1x32xf32>, tensor<8x32x64xf32>) outs(%acc : tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  return %s : tensor<8x1x64xf32>
}

// -----

// Multi-query attention: one key head shared by all 8 query heads, a batch
// of one group. The 8 heads become 8 rows of one matrix against the key
// head read as (n, k).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func @multi_query_scores
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.transpose
// CHECK: %[[S:.*]] = linalg.batch_matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%{{.*}}, %{{.*}} : tensor<1x8x32xf32>, tensor<1x64x32xf32>) outs(%{{.*}} : tensor<1x8x64xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<1x8x1x64xf32> into tensor<8x1x64xf32>
#repeat = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @multi_query_scores(%q: tensor<8x1x32xf32>, %k: tensor<1x1x64x32xf32>) -> tensor<8x1x64xf32> {
  %k1 = tensor.expand_shape %k [[0], [1], [2, 3], [4]] output_shape [1, 1, 1, 64, 32] : tensor<1x1x64x32xf32> into tensor<1x1x1x64x32xf32>
  %e = tensor.empty() : tensor<1x1x8x64x32xf32>
  %kr = linalg.generic {indexing_maps = [#repeat, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<1x1x1x64x32xf32>) outs(%e : tensor<1x1x8x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x8x64x32xf32>
  %kh = tensor.collapse_shape %kr [[0], [1, 2], [3], [4]] : tensor<1x1x8x64x32xf32> into tensor<1x8x64x32xf32>
  %et = tensor.empty() : tensor<1x8x32x64xf32>
  %kt = linalg.transpose ins(%kh : tensor<1x8x64x32xf32>) outs(%et : tensor<1x8x32x64xf32>) permutation = [0, 1, 3, 2]
  %kb = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x8x32x64xf32> into tensor<8x32x64xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<8x1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  %s = linalg.batch_matmul ins(%q, %kb : tensor<8x1x32xf32>, tensor<8x32x64xf32>) outs(%acc : tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  return %s : tensor<8x1x64xf32>
}

// -----

// The values of a 3-token prompt: 12 rows per key head.
// CHECK-LABEL: func @grouped_query_values
// CHECK-SAME: (%[[P:.*]]: tensor<8x3x64xf32>, %[[V:.*]]: tensor<2x1x64x32xf32>
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[VG:.*]] = tensor.collapse_shape %[[V]] {{\[\[}}0, 1], [2], [3]] : tensor<2x1x64x32xf32> into tensor<2x64x32xf32>
// CHECK: linalg.batch_matmul ins(%{{.*}}, %[[VG]] : tensor<2x12x64xf32>, tensor<2x64x32xf32>) outs(%{{.*}} : tensor<2x12x32xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x3x32xf32> into tensor<8x3x32xf32>
#repeat = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @grouped_query_values(%p: tensor<8x3x64xf32>, %v: tensor<2x1x64x32xf32>, %acc: tensor<8x3x32xf32>) -> tensor<8x3x32xf32> {
  %e = tensor.empty() : tensor<2x4x64x32xf32>
  %vr = linalg.generic {indexing_maps = [#repeat, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x1x64x32xf32>) outs(%e : tensor<2x4x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x64x32xf32>
  %vb = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x4x64x32xf32> into tensor<8x64x32xf32>
  %y = linalg.batch_matmul ins(%p, %vb : tensor<8x3x64xf32>, tensor<8x64x32xf32>) outs(%acc : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  return %y : tensor<8x3x32xf32>
}

// -----

// Repeated outside the heads (batch = r * 2 + g): the heads sharing a B are
// not neighbours, so no view makes them rows of one matrix. The broadcast
// stays, with a remark.
// CHECK-LABEL: func @repeat_outside_the_groups
// CHECK: linalg.generic
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<8x1x64xf32>, tensor<8x64x32xf32>)
#repeat = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @repeat_outside_the_groups(%p: tensor<8x1x64xf32>, %v: tensor<1x2x64x32xf32>, %acc: tensor<8x1x32xf32>) -> tensor<8x1x32xf32> {
  %e = tensor.empty() : tensor<4x2x64x32xf32>
  %vr = linalg.generic {indexing_maps = [#repeat, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x2x64x32xf32>) outs(%e : tensor<4x2x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x2x64x32xf32>
  %vb = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<4x2x64x32xf32> into tensor<8x64x32xf32>
  // expected-remark @below {{operand 1 of 'linalg.batch_matmul' is a materialized broadcast ('linalg.generic'), not folded into its indexing map: a reshape ('tensor.collapse_shape') between them regroups dimensions the copy's source indexes; it is copied on every call}}
  %y = linalg.batch_matmul ins(%p, %vb : tensor<8x1x64xf32>, tensor<8x64x32xf32>) outs(%acc : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
  return %y : tensor<8x1x32xf32>
}

// -----

// A read transposed (the query heads' rows are not contiguous per head):
// its heads cannot be viewed as rows of one matrix per group.
// CHECK-LABEL: func @grouped_query_a_transposed
// CHECK: linalg.generic
// CHECK: linalg.batch_matmul indexing_maps
#repeat = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @grouped_query_a_transposed(%pt: tensor<8x64x3xf32>, %v: tensor<2x1x64x32xf32>, %acc: tensor<8x3x32xf32>) -> tensor<8x3x32xf32> {
  %e = tensor.empty() : tensor<2x4x64x32xf32>
  %vr = linalg.generic {indexing_maps = [#repeat, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x1x64x32xf32>) outs(%e : tensor<2x4x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x64x32xf32>
  %vb = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x4x64x32xf32> into tensor<8x64x32xf32>
  // expected-remark @below {{operand 1 of 'linalg.batch_matmul' is a materialized broadcast ('linalg.generic'), not folded into its indexing map: a reshape ('tensor.collapse_shape') between them regroups dimensions the copy's source indexes; it is copied on every call}}
  %y = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%pt, %vb : tensor<8x64x3xf32>, tensor<8x64x32xf32>) outs(%acc : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  return %y : tensor<8x3x32xf32>
}

// -----

// A source whose last dimension is not B's (a trailing unit dimension read
// through 0): it is no batch of B's matrices, so the repeat stays.
// CHECK-LABEL: func @grouped_query_source_with_trailing_unit
// CHECK: linalg.generic
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<8x3x64xf32>, tensor<8x64x32xf32>)
#repeat = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3, 0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @grouped_query_source_with_trailing_unit(%p: tensor<8x3x64xf32>, %v: tensor<2x1x64x32x1xf32>, %acc: tensor<8x3x32xf32>) -> tensor<8x3x32xf32> {
  %e = tensor.empty() : tensor<2x4x64x32xf32>
  %vr = linalg.generic {indexing_maps = [#repeat, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x1x64x32x1xf32>) outs(%e : tensor<2x4x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x64x32xf32>
  %vb = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x4x64x32xf32> into tensor<8x64x32xf32>
  // expected-remark @below {{operand 1 of 'linalg.batch_matmul' is a materialized broadcast ('linalg.generic'), not folded into its indexing map: a reshape ('tensor.collapse_shape') between them regroups dimensions the copy's source indexes; it is copied on every call}}
  %y = linalg.batch_matmul ins(%p, %vb : tensor<8x3x64xf32>, tensor<8x64x32xf32>) outs(%acc : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  return %y : tensor<8x3x32xf32>
}
