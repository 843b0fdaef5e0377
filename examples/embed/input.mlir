// Input of scripts/test.d/embed.sh: upstream linalg on tensors and a lowp
// cast, with a dead cast that canonicalization must remove.
module attributes {lowp.target = #lowp.target<"sm_90">} {
  func.func @f(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xbf16> {
    %dead = lowp.cast %x : tensor<4xf32> to tensor<4xf16>
    %sum = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>)
                      outs(%init : tensor<4xf32>) -> tensor<4xf32>
    %0 = lowp.cast %sum : tensor<4xf32> to tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
