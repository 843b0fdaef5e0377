// Drivers of row-reductions-emulated.mlir: the f32 functions (@emulated,
// whose reductions become emulated row kernels) and their f64 copies
// (@reference, left as loops) on the same inputs x[i][j] = sin(0.37 i +
// 0.71 j), g[j] = 0.5 + 0.25 sin(0.13 j); every result printed as f32.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @inputs() -> (tensor<5x300xf32>, tensor<300xf32>) {
  %ex = tensor.empty() : tensor<5x300xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%ex : tensor<5x300xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %ci = arith.constant 0.37 : f32
    %cj = arith.constant 0.71 : f32
    %a = arith.mulf %fi, %ci : f32
    %b = arith.mulf %fj, %cj : f32
    %t = arith.addf %a, %b : f32
    %v = math.sin %t : f32
    linalg.yield %v : f32
  } -> tensor<5x300xf32>
  %eg = tensor.empty() : tensor<300xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%eg : tensor<300xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i32
    %fj = arith.sitofp %jj : i32 to f32
    %c = arith.constant 0.13 : f32
    %h = arith.constant 0.5 : f32
    %q = arith.constant 0.25 : f32
    %t = arith.mulf %fj, %c : f32
    %s = math.sin %t : f32
    %sq = arith.mulf %s, %q : f32
    %v = arith.addf %sq, %h : f32
    linalg.yield %v : f32
  } -> tensor<300xf32>
  return %x, %g : tensor<5x300xf32>, tensor<300xf32>
}

func.func @print2(%t: tensor<5x300xf32>) {
  %u = tensor.cast %t : tensor<5x300xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @emulated() {
  %x, %g = call @inputs() : () -> (tensor<5x300xf32>, tensor<300xf32>)
  %ln = call @layer_norm(%x, %g) : (tensor<5x300xf32>, tensor<300xf32>) -> tensor<5x300xf32>
  call @print2(%ln) : (tensor<5x300xf32>) -> ()
  %sm = call @softmax(%x) : (tensor<5x300xf32>) -> tensor<5x300xf32>
  call @print2(%sm) : (tensor<5x300xf32>) -> ()
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 5, 300] : tensor<5x300xf32> into tensor<1x5x300xf32>
  %sk = call @softmax_keepdim(%x3) : (tensor<1x5x300xf32>) -> tensor<1x5x300xf32>
  %sk2 = tensor.collapse_shape %sk [[0, 1], [2]] : tensor<1x5x300xf32> into tensor<5x300xf32>
  call @print2(%sk2) : (tensor<5x300xf32>) -> ()
  %mk = call @softmax_masked(%x) : (tensor<5x300xf32>) -> tensor<5x300xf32>
  call @print2(%mk) : (tensor<5x300xf32>) -> ()
  return
}

func.func @narrow(%t: tensor<5x300xf64>) -> tensor<5x300xf32> {
  %e = tensor.empty() : tensor<5x300xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<5x300xf64>) outs(%e : tensor<5x300xf32>) {
  ^bb0(%in: f64, %o: f32):
    %v = arith.truncf %in : f64 to f32
    linalg.yield %v : f32
  } -> tensor<5x300xf32>
  return %n : tensor<5x300xf32>
}

func.func @reference() {
  %x, %g = call @inputs() : () -> (tensor<5x300xf32>, tensor<300xf32>)
  %ex = tensor.empty() : tensor<5x300xf64>
  %x64 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x300xf32>) outs(%ex : tensor<5x300xf64>) {
  ^bb0(%in: f32, %o: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<5x300xf64>
  %eg = tensor.empty() : tensor<300xf64>
  %g64 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%g : tensor<300xf32>) outs(%eg : tensor<300xf64>) {
  ^bb0(%in: f32, %o: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<300xf64>
  %ln = call @layer_norm_f64(%x64, %g64) : (tensor<5x300xf64>, tensor<300xf64>) -> tensor<5x300xf64>
  %ln32 = call @narrow(%ln) : (tensor<5x300xf64>) -> tensor<5x300xf32>
  call @print2(%ln32) : (tensor<5x300xf32>) -> ()
  %sm = call @softmax_f64(%x64) : (tensor<5x300xf64>) -> tensor<5x300xf64>
  %sm32 = call @narrow(%sm) : (tensor<5x300xf64>) -> tensor<5x300xf32>
  call @print2(%sm32) : (tensor<5x300xf32>) -> ()
  %x3 = tensor.expand_shape %x64 [[0, 1], [2]] output_shape [1, 5, 300] : tensor<5x300xf64> into tensor<1x5x300xf64>
  %sk = call @softmax_keepdim_f64(%x3) : (tensor<1x5x300xf64>) -> tensor<1x5x300xf64>
  %sk2 = tensor.collapse_shape %sk [[0, 1], [2]] : tensor<1x5x300xf64> into tensor<5x300xf64>
  %sk32 = call @narrow(%sk2) : (tensor<5x300xf64>) -> tensor<5x300xf32>
  call @print2(%sk32) : (tensor<5x300xf32>) -> ()
  %mk = call @softmax_masked_f64(%x64) : (tensor<5x300xf64>) -> tensor<5x300xf64>
  %mk32 = call @narrow(%mk) : (tensor<5x300xf64>) -> tensor<5x300xf32>
  call @print2(%mk32) : (tensor<5x300xf32>) -> ()
  return
}
