// Input of scripts/test.d/embed.sh: one f32 matmul for fp-opt to decide.
func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
              %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
