// Inputs and a main for examples/models/mlp.mlir (concatenated after it by
// test/Pipelines/lowp-pipeline-tpu.mlir): deterministic inputs in
// [-scale, scale] (x: 1, weights and biases: 0.25). @main prints the 8x10
// output with printMemrefF32, @main_bits its bit patterns with
// printMemrefI32 (for bit-for-bit comparisons).
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

// Deterministic values in [-scale, scale].
func.func @make(%seed: index, %scale: f32, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c31 = arith.constant 31 : index
    %c17 = arith.constant 17 : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %a = arith.muli %i, %c31 : index
    %b = arith.muli %j, %c17 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %thirty = arith.constant 30.0 : f32
    %u = arith.divf %f, %thirty : f32
    %v = arith.mulf %u, %scale : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @run() -> tensor<8x10xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  %w = arith.constant 0.25 : f32
  %xd = call @make(%c0, %one, %c8, %c64) : (index, f32, index, index) -> tensor<?x?xf32>
  %w1d = call @make(%c1, %w, %c64, %c128) : (index, f32, index, index) -> tensor<?x?xf32>
  %b1d = call @make(%c2, %w, %c1, %c128) : (index, f32, index, index) -> tensor<?x?xf32>
  %w2d = call @make(%c3, %w, %c128, %c10) : (index, f32, index, index) -> tensor<?x?xf32>
  %b2d = call @make(%c4, %w, %c1, %c10) : (index, f32, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<8x64xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<64x128xf32>
  %b1s = tensor.cast %b1d : tensor<?x?xf32> to tensor<1x128xf32>
  %b1 = tensor.collapse_shape %b1s [[0, 1]] : tensor<1x128xf32> into tensor<128xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<128x10xf32>
  %b2s = tensor.cast %b2d : tensor<?x?xf32> to tensor<1x10xf32>
  %b2 = tensor.collapse_shape %b2s [[0, 1]] : tensor<1x10xf32> into tensor<10xf32>
  %y = call @mlp(%x, %w1, %b1, %w2, %b2) : (tensor<8x64xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>) -> tensor<8x10xf32>
  return %y : tensor<8x10xf32>
}

func.func @main() {
  %y = call @run() : () -> tensor<8x10xf32>
  %u = tensor.cast %y : tensor<8x10xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_bits() {
  %y = call @run() : () -> tensor<8x10xf32>
  %e = tensor.empty() : tensor<8x10xi32>
  %bits = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                           affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<8x10xf32>) outs(%e : tensor<8x10xi32>) {
  ^bb0(%v: f32, %o: i32):
    %b = arith.bitcast %v : f32 to i32
    linalg.yield %b : i32
  } -> tensor<8x10xi32>
  %u = tensor.cast %bits : tensor<8x10xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}
