// Matrix ops as the decision leaves them for the tensor cores (16-bit
// operands, f32 accumulators), on tensors: a matmul, a batched matmul with
// broadcast weights (torch-mlir's form of x @ W for a 3-D x), a generic
// reading B as [n][k] (x @ W^T, nn.Linear's layout), in bf16 and f16, with
// shapes whose M is not a multiple of the block tile.
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bB = affine_map<(b, m, n, k) -> (k, n)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>

func.func @gemm_bf16(%a: tensor<200x256xbf16>, %b: tensor<256x384xbf16>) -> tensor<200x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<200x384xf32>) -> tensor<200x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<200x256xbf16>, tensor<256x384xbf16>)
                     outs(%acc : tensor<200x384xf32>) -> tensor<200x384xf32>
  return %c : tensor<200x384xf32>
}

func.func @gemm_f16(%a: tensor<200x256xf16>, %b: tensor<256x384xf16>) -> tensor<200x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<200x384xf32>) -> tensor<200x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<200x256xf16>, tensor<256x384xf16>)
                     outs(%acc : tensor<200x384xf32>) -> tensor<200x384xf32>
  return %c : tensor<200x384xf32>
}

func.func @bmm_broadcast_bf16(%x: tensor<4x128x768xbf16>, %w: tensor<768x768xbf16>) -> tensor<4x128x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x768xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x768xf32>) -> tensor<4x128x768xf32>
  %y = linalg.generic {indexing_maps = [#bA, #bB, #bC],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x128x768xbf16>, tensor<768x768xbf16>) outs(%acc : tensor<4x128x768xf32>) {
  ^bb0(%p: bf16, %q: bf16, %o: f32):
    %pf = arith.extf %p : bf16 to f32
    %qf = arith.extf %q : bf16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x768xf32>
  return %y : tensor<4x128x768xf32>
}

func.func @linear_f16(%x: tensor<256x512xf16>, %w: tensor<1024x512xf16>) -> tensor<256x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %y = linalg.generic {indexing_maps = [#tA, #tB, #tC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<256x512xf16>, tensor<1024x512xf16>) outs(%acc : tensor<256x1024xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pf = arith.extf %p : f16 to f32
    %qf = arith.extf %q : f16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
