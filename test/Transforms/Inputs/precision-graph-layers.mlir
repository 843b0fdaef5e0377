// Four layers (cast, bf16 matmul, softmax island, residual add); in
// @layers all four are the same, in @layers_differ the third is f32.
// @independent casts nine arguments: alike, but not one connected block.
// @unlinked computes the same chain on four unrelated arguments (no copy
// reads another or shares an input): not repetitions of one block.
// @heads computes four alike chains from the same input: one block, x4.
func.func @layers(%r0: tensor<4x8xf32>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>, %w2: tensor<8x8xbf16>, %w3: tensor<8x8xbf16>, %v2: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c0 = lowp.cast %r0 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast0")
  %m0 = linalg.matmul ins(%c0, %w0 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul0")
  %s0 = lowp.island f32 (%m0) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp0")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island0")
  %r1 = arith.addf %s0, %r0 : tensor<4x8xf32> loc("residual0")
  %c1 = lowp.cast %r1 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast1")
  %m1 = linalg.matmul ins(%c1, %w1 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul1")
  %s1 = lowp.island f32 (%m1) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp1")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island1")
  %r2 = arith.addf %s1, %r1 : tensor<4x8xf32> loc("residual1")
  %c2 = lowp.cast %r2 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast2")
  %m2 = linalg.matmul ins(%c2, %w2 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul2")
  %s2 = lowp.island f32 (%m2) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp2")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island2")
  %r3 = arith.addf %s2, %r2 : tensor<4x8xf32> loc("residual2")
  %c3 = lowp.cast %r3 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast3")
  %m3 = linalg.matmul ins(%c3, %w3 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul3")
  %s3 = lowp.island f32 (%m3) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp3")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island3")
  %r4 = arith.addf %s3, %r3 : tensor<4x8xf32> loc("residual3")
  return %r4 : tensor<4x8xf32>
}

func.func @layers_differ(%r0: tensor<4x8xf32>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>, %w2: tensor<8x8xbf16>, %w3: tensor<8x8xbf16>, %v2: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c0 = lowp.cast %r0 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast0")
  %m0 = linalg.matmul ins(%c0, %w0 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul0")
  %s0 = lowp.island f32 (%m0) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp0")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island0")
  %r1 = arith.addf %s0, %r0 : tensor<4x8xf32> loc("residual0")
  %c1 = lowp.cast %r1 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast1")
  %m1 = linalg.matmul ins(%c1, %w1 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul1")
  %s1 = lowp.island f32 (%m1) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp1")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island1")
  %r2 = arith.addf %s1, %r1 : tensor<4x8xf32> loc("residual1")
  %m2 = linalg.matmul ins(%r2, %v2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul2")
  %s2 = lowp.island f32 (%m2) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp2")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island2")
  %r3 = arith.addf %s2, %r2 : tensor<4x8xf32> loc("residual2")
  %c3 = lowp.cast %r3 : tensor<4x8xf32> to tensor<4x8xbf16> loc("cast3")
  %m3 = linalg.matmul ins(%c3, %w3 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("matmul3")
  %s3 = lowp.island f32 (%m3) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["softmax"]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = math.exp %a : tensor<4x8xf32> loc("exp3")
    lowp.yield %t : tensor<4x8xf32>
  } loc("island3")
  %r4 = arith.addf %s3, %r3 : tensor<4x8xf32> loc("residual3")
  return %r4 : tensor<4x8xf32>
}

func.func @independent(%a0: tensor<4xf32>, %a1: tensor<4xf32>, %a2: tensor<4xf32>, %a3: tensor<4xf32>, %a4: tensor<4xf32>, %a5: tensor<4xf32>, %a6: tensor<4xf32>, %a7: tensor<4xf32>, %a8: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) {
  %c0 = lowp.cast %a0 : tensor<4xf32> to tensor<4xbf16>
  %c1 = lowp.cast %a1 : tensor<4xf32> to tensor<4xbf16>
  %c2 = lowp.cast %a2 : tensor<4xf32> to tensor<4xbf16>
  %c3 = lowp.cast %a3 : tensor<4xf32> to tensor<4xbf16>
  %c4 = lowp.cast %a4 : tensor<4xf32> to tensor<4xbf16>
  %c5 = lowp.cast %a5 : tensor<4xf32> to tensor<4xbf16>
  %c6 = lowp.cast %a6 : tensor<4xf32> to tensor<4xbf16>
  %c7 = lowp.cast %a7 : tensor<4xf32> to tensor<4xbf16>
  %c8 = lowp.cast %a8 : tensor<4xf32> to tensor<4xbf16>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>
}

func.func @unlinked(%a0: tensor<4xf32>, %a1: tensor<4xf32>, %a2: tensor<4xf32>, %a3: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) {
  %c0 = lowp.cast %a0 : tensor<4xf32> to tensor<4xbf16>
  %e0 = math.exp %c0 : tensor<4xbf16>
  %n0 = math.absf %e0 : tensor<4xbf16>
  %c1 = lowp.cast %a1 : tensor<4xf32> to tensor<4xbf16>
  %e1 = math.exp %c1 : tensor<4xbf16>
  %n1 = math.absf %e1 : tensor<4xbf16>
  %c2 = lowp.cast %a2 : tensor<4xf32> to tensor<4xbf16>
  %e2 = math.exp %c2 : tensor<4xbf16>
  %n2 = math.absf %e2 : tensor<4xbf16>
  %c3 = lowp.cast %a3 : tensor<4xf32> to tensor<4xbf16>
  %e3 = math.exp %c3 : tensor<4xbf16>
  %n3 = math.absf %e3 : tensor<4xbf16>
  return %n0, %n1, %n2, %n3 : tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>
}

func.func @heads(%x: tensor<4x8xf32>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>, %w2: tensor<8x8xbf16>, %w3: tensor<8x8xbf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c0 = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %m0 = linalg.matmul ins(%c0, %w0 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e0 = math.exp %m0 : tensor<4x8xf32>
  %c1 = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %m1 = linalg.matmul ins(%c1, %w1 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = math.exp %m1 : tensor<4x8xf32>
  %c2 = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %m2 = linalg.matmul ins(%c2, %w2 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = math.exp %m2 : tensor<4x8xf32>
  %c3 = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %m3 = linalg.matmul ins(%c3, %w3 : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = math.exp %m3 : tensor<4x8xf32>
  return %e0, %e1, %e2, %e3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
