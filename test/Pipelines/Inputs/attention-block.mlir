// One attention head in f32 linalg-on-tensors (seq 8, width 16): q, k, v
// projections, scores q k^T / 4 through a linalg.transpose, a row softmax
// (linalg.softmax), context p v. Input of the GPU pipeline tests.
func.func @attention(%x: tensor<8x16xf32>, %wq: tensor<16x16xf32>,
                     %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %et = tensor.empty() : tensor<16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<8x16xf32>) outs(%et : tensor<16x8xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x16xf32>, tensor<16x8xf32>) outs(%zs : tensor<8x8xf32>) -> tensor<8x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%es : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %quarter = arith.constant 0.25 : f32
    %r = arith.mulf %in, %quarter : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%l : tensor<8x8xf32>) outs(%es : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
