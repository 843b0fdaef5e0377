// The 64x256 f32 result of a model as the bit patterns of its elements
// (threads.test compares runs bit for bit).
func.func private @printMemrefI32(tensor<*xi32>)
func.func @print_bits(%t: tensor<64x256xf32>) {
  %b = arith.bitcast %t : tensor<64x256xf32> to tensor<64x256xi32>
  %c = tensor.cast %b : tensor<64x256xi32> to tensor<*xi32>
  call @printMemrefI32(%c) : (tensor<*xi32>) -> ()
  return
}
