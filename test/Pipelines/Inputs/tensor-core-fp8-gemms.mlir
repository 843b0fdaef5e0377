// FP8 matrix ops as lowp-select-fp8-formats leaves them for an NVIDIA chip
// with FP8 tensor cores (OCP operands, f32 accumulators), on tensors, each
// followed by its dequantization (times 1 / (sa * sb)):
//  * gemm_fp8: E4M3 activations x E5M2 weights stored [k][n], plus a bias
//    row, narrowed to bf16;
//  * linear_fp8: E4M3 x E4M3 weights stored [n][k] (nn.Linear's layout),
//    plus a residual, in f32.
// M = 200 is not a multiple of the block tile.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#scalar = affine_map<(i, j) -> ()>
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>

func.func @gemm_fp8(%a: tensor<200x512xf8E4M3FN>, %b: tensor<512x384xf8E5M2>,
                    %sa: tensor<f32>, %sb: tensor<f32>, %bias: tensor<384xf32>) -> tensor<200x384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<200x384xf32>) -> tensor<200x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<200x512xf8E4M3FN>, tensor<512x384xf8E5M2>)
                     outs(%acc : tensor<200x384xf32>) -> tensor<200x384xf32>
  %o = tensor.empty() : tensor<200x384xbf16>
  %r = linalg.generic {indexing_maps = [#id, #scalar, #scalar, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sa, %sb, %bias : tensor<200x384xf32>, tensor<f32>, tensor<f32>, tensor<384xf32>) outs(%o : tensor<200x384xbf16>) {
  ^bb0(%x: f32, %p: f32, %q: f32, %bb: f32, %out: bf16):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %x, %s : f32
    %y = arith.addf %d, %bb : f32
    %n = arith.truncf %y : f32 to bf16
    linalg.yield %n : bf16
  } -> tensor<200x384xbf16>
  return %r : tensor<200x384xbf16>
}

func.func @linear_fp8(%x: tensor<256x512xf8E4M3FN>, %w: tensor<1024x512xf8E4M3FN>,
                      %sa: tensor<f32>, %sb: tensor<f32>, %res: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %y = linalg.generic {indexing_maps = [#tA, #tB, #tC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<256x512xf8E4M3FN>, tensor<1024x512xf8E4M3FN>) outs(%acc : tensor<256x1024xf32>) {
  ^bb0(%p: f8E4M3FN, %q: f8E4M3FN, %o: f32):
    %pf = arith.extf %p : f8E4M3FN to f32
    %qf = arith.extf %q : f8E4M3FN to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x1024xf32>
  %o = tensor.empty() : tensor<256x1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sa, %sb, %res : tensor<256x1024xf32>, tensor<f32>, tensor<f32>, tensor<256x1024xf32>) outs(%o : tensor<256x1024xf32>) {
  ^bb0(%v: f32, %p: f32, %q: f32, %rr: f32, %out: f32):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %v, %s : f32
    %t = arith.addf %d, %rr : f32
    linalg.yield %t : f32
  } -> tensor<256x1024xf32>
  return %r : tensor<256x1024xf32>
}
