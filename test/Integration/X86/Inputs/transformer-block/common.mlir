// Deterministic values in [-scale, scale].
func.func @fill(%seed: index, %scale: f32, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
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

func.func @make(%seed: index, %scale: f32, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = call @fill(%seed, %scale, %e) : (index, f32, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// softmax(s / 8) over rows (1/sqrt(D), D = 64).
func.func @softmax_scaled(%s: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<32xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<32x32xf32>) outs(%m0 : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<32x32xf32>, tensor<32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %eighth = arith.constant 0.125 : f32
    %d = arith.subf %x, %m : f32
    %ds = arith.mulf %d, %eighth : f32
    %r = math.exp %ds : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<32x32xf32>) outs(%s0 : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<32x32xf32>, tensor<32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %r = arith.divf %x, %t : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %p : tensor<32x32xf32>
}

func.func @add(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

func.func @relu(%a: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %e = tensor.empty() : tensor<32x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}

// (y - mean) / sqrt(var + 1e-5) per row.
func.func @layernorm(%y: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<32x64xf32>) outs(%z : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %cen = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum : tensor<32x64xf32>, tensor<32xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %inv = arith.constant 0.015625 : f32
    %mean = arith.mulf %s, %inv : f32
    %r = arith.subf %x, %mean : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cen : tensor<32x64xf32>) outs(%z : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %x2 = arith.mulf %x, %x : f32
    %r = arith.addf %x2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cen, %sq : tensor<32x64xf32>, tensor<32xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %inv = arith.constant 0.015625 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.mulf %s, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %r = arith.mulf %x, %rs : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  return %n : tensor<32x64xf32>
}

// max|x - ref| / max|ref|.
func.func @relerr(%x: tensor<32x64xf32>, %ref: tensor<32x64xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %es = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %md, %mr = linalg.generic {indexing_maps = [#id, #id, #all, #all],
                             iterator_types = ["reduction", "reduction"]}
      ins(%x, %ref : tensor<32x64xf32>, tensor<32x64xf32>) outs(%z0, %z0 : tensor<f32>, tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %d: f32, %m: f32):
    %diff = arith.subf %v, %r : f32
    %ad = math.absf %diff : f32
    %ar = math.absf %r : f32
    %nd = arith.maximumf %d, %ad : f32
    %nm = arith.maximumf %m, %ar : f32
    linalg.yield %nd, %nm : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %d = tensor.extract %md[] : tensor<f32>
  %m = tensor.extract %mr[] : tensor<f32>
  %r = arith.divf %d, %m : f32
  return %r : f32
}

func.func @between(%x: f32, %lo: f32, %hi: f32) -> i1 {
  %a = arith.cmpf ogt, %x, %lo : f32
  %b = arith.cmpf ole, %x, %hi : f32
  %r = arith.andi %a, %b : i1
  return %r : i1
}

