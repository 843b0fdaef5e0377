// A plain f32 matmul (M = 50: the x86 kernel's tail block is exercised) as
// a model for the decision pipeline: test/Integration/X86/*-policy.test.
func.func @matmul(%a: tensor<50x96xf32>, %b: tensor<96x128xf32>) -> tensor<50x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<50x128xf32>) -> tensor<50x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<50x96xf32>, tensor<96x128xf32>)
                     outs(%c : tensor<50x128xf32>) -> tensor<50x128xf32>
  return %r : tensor<50x128xf32>
}
