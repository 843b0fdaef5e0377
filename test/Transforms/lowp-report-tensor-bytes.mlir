// The tensors the report counts are the ones the lowering materializes
// (docs/passes/infer-precision.md, "Report"): lowp-fuse-elementwise computes
// an elementwise result inside the linalg ops reading it (reductions
// included) when it has one reader or a cheap payload, a matrix op writes
// through its epilogue only into an elementwise op that is itself stored,
// and a returned value is the result buffer, counted once. bytes_before is
// the f32 input as written.
// RUN: fp-opt %s --lowp-infer-precision="low=bf16 report=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json

// @layer_norm: the two row sums (16 bytes each) are tensors; x - mean
// (cheap, two readers) and its square (one reader, the sum) are computed
// inside their readers; the normalized result is returned (128 bytes, under
// results). @scores: the product (64) is read by the scale, which is cheap
// and recomputed inside the max and the exp, so the product itself is
// stored; exp (a math function, two readers) is stored (64), the max and
// the sum (16 each); the division is returned (64).
// Arguments 128 + 128 + 128, results 128 + 64, intermediates 32 + 160.
// CHECK:      "bytes_before": {
// CHECK-NEXT:   "arguments": 384,
// CHECK-NEXT:   "conversions": 0,
// CHECK-NEXT:   "conversions_fused": 0,
// CHECK-NEXT:   "conversions_materialized": 0,
// CHECK-NEXT:   "intermediates": 192,
// CHECK-NEXT:   "results": 192,
// CHECK-NEXT:   "total": 768

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @layer_norm(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<4xf32>
  %ri = linalg.fill ins(%zero : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%ri : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %ctr = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %c = arith.constant 1.250000e-01 : f32
    %mean = arith.mulf %m, %c : f32
    %r = arith.subf %a, %mean : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%ctr : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %var = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<4x8xf32>) outs(%vi : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ctr, %var : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %inv = math.rsqrt %v : f32
    %r = arith.mulf %a, %inv : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

func.func @scores(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %me = tensor.empty() : tensor<4x4xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%mf : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<4x4xf32>) outs(%me : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.35 : f32
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %re = tensor.empty() : tensor<4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x4xf32>) outs(%mi : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%me : tensor<4x4xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<4x4xf32>) outs(%si : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%me : tensor<4x4xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %r = arith.divf %v, %t : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
