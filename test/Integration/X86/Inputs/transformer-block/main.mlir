
func.func @main() {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  %w = arith.constant 0.25 : f32
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %s3 = arith.constant 3 : index
  %s4 = arith.constant 4 : index
  %s5 = arith.constant 5 : index
  %s6 = arith.constant 6 : index
  %xd = call @make(%c0, %one, %c32, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wqd = call @make(%s1, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wkd = call @make(%s2, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wvd = call @make(%s3, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %wod = call @make(%s4, %w, %c64, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %w1d = call @make(%s5, %w, %c64, %c128) : (index, f32, index, index) -> tensor<?x?xf32>
  %w2d = call @make(%s6, %w, %c128, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<32x64xf32>
  %wq = tensor.cast %wqd : tensor<?x?xf32> to tensor<64x64xf32>
  %wk = tensor.cast %wkd : tensor<?x?xf32> to tensor<64x64xf32>
  %wv = tensor.cast %wvd : tensor<?x?xf32> to tensor<64x64xf32>
  %wo = tensor.cast %wod : tensor<?x?xf32> to tensor<64x64xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<64x128xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<128x64xf32>
  %ref = call @block_f32(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %yb = call @block_bf16(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %y8 = call @block_f8(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %y8s = call @block_f8s(%x, %wq, %wk, %wv, %wo, %w1, %w2) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  %eb = call @relerr(%yb, %ref) : (tensor<32x64xf32>, tensor<32x64xf32>) -> f32
  %e8 = call @relerr(%y8, %ref) : (tensor<32x64xf32>, tensor<32x64xf32>) -> f32
  %e8s = call @relerr(%y8s, %ref) : (tensor<32x64xf32>, tensor<32x64xf32>) -> f32
  // The measured errors, for the log.
  vector.print str "bf16 relative error: "
  vector.print %eb : f32
  vector.print str "fp8 relative error: "
  vector.print %e8 : f32
  vector.print str "scaled fp8 relative error: "
  vector.print %e8s : f32
  %lob = arith.constant 0.000244140625 : f32
  %hib = arith.constant 0.03125 : f32
  %lo8 = arith.constant 0.00390625 : f32
  %hi8 = arith.constant 0.5 : f32
  %okb = call @between(%eb, %lob, %hib) : (f32, f32, f32) -> i1
  %ok8 = call @between(%e8, %lo8, %hi8) : (f32, f32, f32) -> i1
  %ok8s = call @between(%e8s, %lo8, %hi8) : (f32, f32, f32) -> i1
  // CHECK: bf16 relative error:
  // CHECK: fp8 relative error:
  // CHECK: scaled fp8 relative error:
  // CHECK: 1
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  vector.print %okb : i1
  vector.print %ok8 : i1
  vector.print %ok8s : i1
  return
}
