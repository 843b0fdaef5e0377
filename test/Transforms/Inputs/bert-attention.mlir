// A BERT self-attention layer with its output LayerNorm, in the form
// TensorFlow's small_bert (tfhub bert_en_uncased_L-2_H-128_A-2) takes when
// lowered to linalg-on-tensors, as published in plaidml/tpp-mlir
// (test/Models/multi-head-attention.mlir). Rewritten for fp-opt at smaller
// sizes (batch 2, sequence 8, hidden 32, 2 heads of 16), keeping the export's
// idioms: weights as collapsed constants, bias and scale broadcasts as
// copy-only generics, head split/transpose as permuting generics, per-head
// products as 4-d contraction generics, the masked softmax decomposed into
// max/exp/sum/divide generics, and LayerNorm with its 1e-12 epsilon (which
// f16 would flush to zero).
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#keyt = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
#qk_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#qk_o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#red = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bcast = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bert_attention(%input: tensor<2x8x32xf32>, %mask: tensor<2x1x8x8xf32>,
                          %wq: tensor<32x2x16xf32>, %wk: tensor<32x2x16xf32>,
                          %wv: tensor<32x2x16xf32>, %bq: tensor<2x16xf32>,
                          %bk: tensor<2x16xf32>, %bv: tensor<2x16xf32>,
                          %gamma: tensor<32xf32>, %beta: tensor<32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<2.500000e-01> : tensor<f32>
  %x = tensor.collapse_shape %input [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
  // Query, key and value projections (matmul + broadcast bias).
  %wq2 = tensor.collapse_shape %wq [[0], [1, 2]] : tensor<32x2x16xf32> into tensor<32x32xf32>
  %wk2 = tensor.collapse_shape %wk [[0], [1, 2]] : tensor<32x2x16xf32> into tensor<32x32xf32>
  %wv2 = tensor.collapse_shape %wv [[0], [1, 2]] : tensor<32x2x16xf32> into tensor<32x32xf32>
  %e32 = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %q0 = linalg.matmul ins(%x, %wq2 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %k0 = linalg.matmul ins(%x, %wk2 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %v0 = linalg.matmul ins(%x, %wv2 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %q1 = tensor.expand_shape %q0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %k1 = tensor.expand_shape %k0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %v1 = tensor.expand_shape %v0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %e4 = tensor.empty() : tensor<2x8x2x16xf32>
  %bq4 = linalg.generic {indexing_maps = [#bias, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bq : tensor<2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x2x16xf32>
  %bk4 = linalg.generic {indexing_maps = [#bias, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bk : tensor<2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x2x16xf32>
  %bv4 = linalg.generic {indexing_maps = [#bias, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bv : tensor<2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x2x16xf32>
  %q2 = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q1, %bq4 : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x8x2x16xf32>
  %k2 = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k1, %bk4 : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x8x2x16xf32>
  %v2 = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v1, %bv4 : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x8x2x16xf32>
  // Scale the query by 1/sqrt(16) (a broadcast scalar), split heads.
  %sc4 = linalg.generic {indexing_maps = [#scalar, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scale : tensor<f32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x2x16xf32>
  %q3 = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q2, %sc4 : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x8x2x16xf32>
  %eh = tensor.empty() : tensor<2x2x8x16xf32>
  %qh = linalg.generic {indexing_maps = [#heads, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q3 : tensor<2x8x2x16xf32>) outs(%eh : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x8x16xf32>
  %ekt = tensor.empty() : tensor<2x2x16x8xf32>
  %kt = linalg.generic {indexing_maps = [#keyt, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k2 : tensor<2x8x2x16xf32>) outs(%ekt : tensor<2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x16x8xf32>
  %vh = linalg.generic {indexing_maps = [#heads, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v2 : tensor<2x8x2x16xf32>) outs(%eh : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x8x16xf32>
  // Scores per head: a 4-d contraction generic.
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qh, %kt : tensor<2x2x8x16xf32>, tensor<2x2x16x8xf32>) outs(%sacc : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  // Additive mask, then softmax over the last dimension.
  %sm = linalg.generic {indexing_maps = [#m4, #mask, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x2x8x8xf32>, tensor<2x1x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %er = tensor.empty() : tensor<2x2x8xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %mx = linalg.generic {indexing_maps = [#m4, #red], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm : tensor<2x2x8x8xf32>) outs(%mx0 : tensor<2x2x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.maximumf %a, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8xf32>
  %mxe = tensor.expand_shape %mx [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
  %ex = linalg.generic {indexing_maps = [#m4, #bcast, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm, %mxe : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#m4, #red], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x8x8xf32>) outs(%sum0 : tensor<2x2x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8xf32>
  %sume = tensor.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
  %prob = linalg.generic {indexing_maps = [#m4, #bcast, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sume : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  // Context per head, heads merged back.
  %cacc = linalg.fill ins(%zero : f32) outs(%eh : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %ctx = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%prob, %vh : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%cacc : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  %ctxt = linalg.generic {indexing_maps = [#heads, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ctx : tensor<2x2x8x16xf32>) outs(%e4 : tensor<2x8x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x2x16xf32>
  %c2 = tensor.collapse_shape %ctxt [[0, 1], [2, 3]] : tensor<2x8x2x16xf32> into tensor<16x32xf32>
  // Residual and LayerNorm (epsilon 1e-12, as exported).
  %res = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%c2, %x : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e32 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %e16 = tensor.empty() : tensor<16xf32>
  %mu0 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %mu = linalg.generic {indexing_maps = [#m2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%res : tensor<16x32xf32>) outs(%mu0 : tensor<16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %out : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ctr = linalg.generic {indexing_maps = [#m2, #row, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%res, %mu : tensor<16x32xf32>, tensor<16xf32>) outs(%e32 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %n = arith.constant 3.125000e-02 : f32
    %mean = arith.mulf %m, %n : f32
    %r = arith.subf %a, %mean : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %var0 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %var = linalg.generic {indexing_maps = [#m2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ctr : tensor<16x32xf32>) outs(%var0 : tensor<16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %out : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %ln = linalg.generic {indexing_maps = [#m2, #row, #col, #col, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%ctr, %var, %gamma, %beta : tensor<16x32xf32>, tensor<16xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e32 : tensor<16x32xf32>) {
  ^bb0(%c: f32, %v: f32, %g: f32, %b: f32, %out: f32):
    %n = arith.constant 3.125000e-02 : f32
    %eps = arith.constant 9.99999996E-13 : f32
    %vm = arith.mulf %v, %n : f32
    %ve = arith.addf %vm, %eps : f32
    %inv = math.rsqrt %ve : f32
    %y = arith.mulf %c, %inv : f32
    %yg = arith.mulf %y, %g : f32
    %r = arith.addf %yg, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %ln : tensor<16x32xf32>
}
