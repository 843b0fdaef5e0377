// A bf16 matmul on AMX tiles behind a C-callable `float run(void)` (no
// descriptors): C = A B with A = 1/4, B = 1/2 everywhere, K = 64; returns
// C[0][0] = 64 / 8 = 8.
func.func @run() -> f32 {
  %zero = arith.constant 0.0 : f32
  %qa = arith.constant 0.25 : bf16
  %qb = arith.constant 0.5 : bf16
  %c0 = arith.constant 0 : index
  %ea = tensor.empty() : tensor<32x64xbf16>
  %a = linalg.fill ins(%qa : bf16) outs(%ea : tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %eb = tensor.empty() : tensor<64x32xbf16>
  %b = linalg.fill ins(%qb : bf16) outs(%eb : tensor<64x32xbf16>) -> tensor<64x32xbf16>
  %ec = tensor.empty() : tensor<32x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ec : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = tensor.extract %mm[%c0, %c0] : tensor<32x32xf32>
  return %r : f32
}
