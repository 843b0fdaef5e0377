// Idioms of real front ends' linalg exports the island pass must handle (the
// whole models are in Inputs/frontends/, their pipeline tests in
// test/Pipelines/frontends/).
// RUN: fp-opt %s -split-input-file -verify-each -lowp-insert-fp32-islands | FileCheck %s
// RUN: fp-opt %s -split-input-file -verify-each -lowp-insert-fp32-islands="low=bf16" | FileCheck %s --check-prefix=BF16
// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands | fp-opt -split-input-file -lowp-insert-fp32-islands | FileCheck %s

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>

// torch-mlir's native_layer_norm takes the variance in f64 (aten.var_mean):
// the f64 values stay inside the island, which reads and yields f32 only
// (an island converts every operand to its precision: an f64 operand would
// be narrowed, and its users inside would see f32 tensors).
// CHECK-LABEL: func.func @layer_norm_f64_variance
//  CHECK-SAME:   (%[[X:.+]]: tensor<4x8xf32>)
//       CHECK:   %[[R:.+]] = lowp.island f32 (%[[X]]) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {lowp.island_reasons = ["layer_norm"]}
//       CHECK:     arith.extf %{{.+}} : f32 to f64
//       CHECK:     arith.truncf %{{.+}} : f64 to f32
//       CHECK:     math.rsqrt
//       CHECK:     lowp.yield %{{.+}} : tensor<4x8xf32>
//   CHECK-NOT:   f64
//       CHECK:   return %[[R]]
func.func @layer_norm_f64_variance(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 0.000000e+00 : f64
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e-05 : f64
  %cst_2 = arith.constant 8.000000e+00 : f64
  %cst_3 = arith.constant 8.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x8xf64>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf64>) {
  ^bb0(%in: f32, %out: f64):
    %12 = arith.extf %in : f32 to f64
    linalg.yield %12 : f64
  } -> tensor<4x8xf64>
  %2 = tensor.empty() : tensor<4x1xf64>
  %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<4x1xf64>) -> tensor<4x1xf64>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x8xf64>) outs(%3 : tensor<4x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %12 = arith.addf %in, %out : f64
    linalg.yield %12 : f64
  } -> tensor<4x1xf64>
  %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %4 : tensor<4x8xf64>, tensor<4x1xf64>) outs(%0 : tensor<4x8xf64>) {
  ^bb0(%in: f64, %in_4: f64, %out: f64):
    %12 = arith.divf %in_4, %cst_2 : f64
    %13 = arith.subf %in, %12 : f64
    %14 = arith.mulf %13, %13 : f64
    linalg.yield %14 : f64
  } -> tensor<4x8xf64>
  %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%5 : tensor<4x8xf64>) outs(%3 : tensor<4x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %12 = arith.addf %in, %out : f64
    linalg.yield %12 : f64
  } -> tensor<4x1xf64>
  %7 = tensor.empty() : tensor<4x1xf32>
  %8 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<4x1xf64>) outs(%7 : tensor<4x1xf32>) {
  ^bb0(%in: f64, %out: f32):
    %12 = arith.divf %in, %cst_2 : f64
    %13 = arith.addf %12, %cst_1 : f64
    %14 = arith.truncf %13 : f64 to f32
    %15 = math.rsqrt %14 : f32
    linalg.yield %15 : f32
  } -> tensor<4x1xf32>
  %9 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%9 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %12 = arith.addf %in, %out : f32
    linalg.yield %12 : f32
  } -> tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %11 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %10, %8 : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_4: f32, %in_5: f32, %out: f32):
    %12 = arith.divf %in_4, %cst_3 : f32
    %13 = arith.subf %in, %12 : f32
    %14 = arith.mulf %13, %in_5 : f32
    linalg.yield %14 : f32
  } -> tensor<4x8xf32>
  return %11 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, 0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>

// torch-mlir guards the reciprocal of eval-mode batch norm with a cf.assert
// in the payload: the generic holding it moves into the island with it.
// CHECK-LABEL: func.func @batch_norm_assert
//       CHECK:   lowp.island f32 (%arg2, %arg0, %arg1) : (tensor<16x1xf32>, tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32> attributes {lowp.island_reasons = ["batch_norm"]}
//       CHECK:     math.sqrt
//       CHECK:     cf.assert %{{.+}}, "unimplemented: tensor with zero element"
//       CHECK:     arith.divf
//       CHECK:     lowp.yield
//   CHECK-NOT:   linalg.generic
func.func @batch_norm_assert(%arg0: tensor<16x16xf32>, %arg1: tensor<16x1xf32>, %arg2: tensor<16x1xf32>) -> tensor<16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 1.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e-05 : f64
  %0 = tensor.empty() : tensor<16x1xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<16x1xf32>) outs(%0 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.truncf %cst_1 : f64 to f32
    %7 = arith.addf %in, %6 : f32
    %8 = math.sqrt %7 : f32
    linalg.yield %8 : f32
  } -> tensor<16x1xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<16x1xf32>) outs(%0 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.cmpf one, %in, %cst : f32
    cf.assert %6, "unimplemented: tensor with zero element"
    %7 = arith.divf %cst_0, %in : f32
    linalg.yield %7 : f32
  } -> tensor<16x1xf32>
  %3 = tensor.empty() : tensor<16x16xf32>
  %4 = linalg.generic {indexing_maps = [#map1, #map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<16x16xf32>, tensor<16x1xf32>) outs(%3 : tensor<16x16xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.subf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<16x16xf32>
  %5 = linalg.generic {indexing_maps = [#map1, #map, #map1], iterator_types = ["parallel", "parallel"]} ins(%4, %2 : tensor<16x16xf32>, tensor<16x1xf32>) outs(%3 : tensor<16x16xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.mulf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<16x16xf32>
  return %5 : tensor<16x16xf32>
}

// -----

// StableHLO's reductions start from a tensor.extract of a 0-d constant: the
// island recomputes those inits instead of taking them as operands.
// CHECK-LABEL: func.func @stablehlo_softmax
//  CHECK-SAME:   (%[[X:.+]]: tensor<8x16xf32>)
//       CHECK:   lowp.island f32 (%[[X]]) : (tensor<8x16xf32>) -> tensor<8x16xf32> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     tensor.extract %{{.+}}[] : tensor<f32>
//       CHECK:     linalg.reduce { arith.maximumf }
//       CHECK:     linalg.reduce { arith.addf }
func.func @stablehlo_softmax(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %cst = arith.constant dense<0xFF800000> : tensor<f32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<f32>
  %extracted = tensor.extract %cst[] : tensor<f32>
  %extracted_1 = tensor.extract %cst_0[] : tensor<f32>
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.fill ins(%extracted : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  %reduced = linalg.reduce { arith.maximumf } ins(%arg0 : tensor<8x16xf32>) outs(%1 : tensor<8xf32>) dimensions = [1]
  %2 = tensor.empty() : tensor<8x16xf32>
  %broadcasted = linalg.broadcast ins(%reduced : tensor<8xf32>) outs(%2 : tensor<8x16xf32>) dimensions = [1]
  %mapped = linalg.map { arith.subf } ins(%arg0, %broadcasted : tensor<8x16xf32>, tensor<8x16xf32>) outs(%2 : tensor<8x16xf32>)
  %mapped_2 = linalg.map { math.exp } ins(%mapped : tensor<8x16xf32>) outs(%2 : tensor<8x16xf32>)
  %3 = linalg.fill ins(%extracted_1 : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  %reduced_3 = linalg.reduce { arith.addf } ins(%mapped_2 : tensor<8x16xf32>) outs(%3 : tensor<8xf32>) dimensions = [1]
  %broadcasted_4 = linalg.broadcast ins(%reduced_3 : tensor<8xf32>) outs(%2 : tensor<8x16xf32>) dimensions = [1]
  %mapped_5 = linalg.map { arith.divf } ins(%mapped_2, %broadcasted_4 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%2 : tensor<8x16xf32>)
  return %mapped_5 : tensor<8x16xf32>
}

// -----

// Average pooling over a whole 16x16 feature map (TOSA's avg_pool2d, torch's
// adaptive_avg_pool2d) sums 256 elements per output: a long reduction for
// bf16 (threshold 1 / epsilon = 128), not for f16 (1024).
// CHECK-LABEL: func.func @global_average_pool
//   CHECK-NOT:   lowp.island
//  BF16-LABEL: func.func @global_average_pool
//       BF16:   lowp.island f32 (%{{.+}}) : (tensor<1x16x16x8xf32>) -> tensor<1x1x1x8xf32> attributes {lowp.island_reasons = ["long_reduction"]}
//       BF16:     linalg.pooling_nhwc_sum
//       BF16:     lowp.yield
//       BF16:   arith.divf
func.func @global_average_pool(%arg0: tensor<1x16x16x8xf32>) -> tensor<1x1x1x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 2.560000e+02 : f32
  %0 = tensor.empty() : tensor<1x1x1x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  %2 = tensor.empty() : tensor<16x16xf32>
  %3 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %2 : tensor<1x16x16x8xf32>, tensor<16x16xf32>) outs(%1 : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x1x1x8xf32>) outs(%0 : tensor<1x1x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.divf %in, %cst_0 : f32
    linalg.yield %5 : f32
  } -> tensor<1x1x1x8xf32>
  return %4 : tensor<1x1x1x8xf32>
}

// -----

// A model exported in bf16 with dense_resource parameters: the island
// widens the gamma blob exactly into a new f32 blob, and keeps the elided
// beta (a value it cannot read) bf16 behind one widening cast.
// CHECK-LABEL: func.func @bf16_rms_norm_resources
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> attributes {lowp.island_reasons = ["rms_norm"]}
//   CHECK-DAG:     arith.constant dense_resource<gamma_f32> : tensor<8xf32>
//   CHECK-DAG:     %[[BETA:.+]] = arith.constant dense_resource<__elided__> : tensor<8xbf16>
//   CHECK-DAG:     lowp.cast %[[BETA]] : tensor<8xbf16> to tensor<8xf32>
//       CHECK:     math.rsqrt %{{.+}} : f32
//       CHECK:     lowp.yield %{{.+}} : tensor<4x8xf32>
// 1.5 and -2.0 in bf16 (0x3FC0, 0xC000) widen to 0x3FC00000, 0xC0000000.
//       CHECK: gamma_f32: "0x040000000000C03F000000C0
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
func.func @bf16_rms_norm_resources(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %gamma = arith.constant dense_resource<gamma> : tensor<8xbf16>
  %beta = arith.constant dense_resource<__elided__> : tensor<8xbf16>
  %zero = arith.constant 0.0 : bf16
  %n = arith.constant 8.0 : bf16
  %eps = arith.constant 1.0e-5 : bf16
  %e1 = tensor.empty() : tensor<4xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e1 : tensor<4xbf16>) -> tensor<4xbf16>
  %sq = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xbf16>) outs(%f : tensor<4xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %0 = arith.mulf %in, %in : bf16
    %1 = arith.addf %0, %out : bf16
    linalg.yield %1 : bf16
  } -> tensor<4xbf16>
  %e2 = tensor.empty() : tensor<4x8xbf16>
  %y = linalg.generic {indexing_maps = [#map, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %sq, %gamma, %beta : tensor<4x8xbf16>, tensor<4xbf16>, tensor<8xbf16>, tensor<8xbf16>) outs(%e2 : tensor<4x8xbf16>) {
  ^bb0(%in: bf16, %v: bf16, %g: bf16, %b: bf16, %out: bf16):
    %0 = arith.divf %v, %n : bf16
    %1 = arith.addf %0, %eps : bf16
    %2 = math.rsqrt %1 : bf16
    %3 = arith.mulf %in, %2 : bf16
    %4 = arith.mulf %3, %g : bf16
    %5 = arith.addf %4, %b : bf16
    linalg.yield %5 : bf16
  } -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}
{-#
  dialect_resources: {
    builtin: {
      gamma: "0x02000000C03F00C0803F803F803F803F803F803F"
    }
  }
#-}

// -----

// nn.MSELoss as torch-mlir lowers it (square of the difference, sum to a
// 0-d tensor, divide by the count): a loss, kept f32 even where the sum is
// too short to be a long reduction.
// CHECK-LABEL: func.func @mse_loss
//  CHECK-SAME:   (%[[Y:.+]]: tensor<8x16xf32>, %[[T:.+]]: tensor<8x16xf32>)
//       CHECK:   lowp.island f32 (%[[Y]], %[[T]]) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32> attributes {lowp.island_reasons = ["loss"]}
//       CHECK:     arith.subf
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
//       CHECK:     arith.divf
//       CHECK:     lowp.yield %{{.+}} : tensor<f32>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<() -> ()>
func.func @mse_loss(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 1.280000e+02 : f32
  %0 = tensor.empty() : tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %6 = arith.subf %in, %in_1 : f32
    %7 = arith.mulf %6, %6 : f32
    linalg.yield %7 : f32
  } -> tensor<8x16xf32>
  %2 = tensor.empty() : tensor<f32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<f32>) -> tensor<f32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%1 : tensor<8x16xf32>) outs(%3 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<f32>
  %5 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%4 : tensor<f32>) outs(%2 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.divf %in, %cst_0 : f32
    linalg.yield %6 : f32
  } -> tensor<f32>
  return %5 : tensor<f32>
}

// -----

// GPT-2's causal mask as torch-mlir exports it: a select between the scores
// and finfo(float32).min under an i1 buffer and a linalg.index comparison.
// The constant is -inf in f16, so the select joins the softmax's island
// (the i1 buffer and the constant are recreated inside); both products
// stay outside.
// CHECK-LABEL: func.func @causal_attention
//       CHECK:   %[[S:.+]] = linalg.batch_matmul
//       CHECK:   lowp.island f32 (%[[S]]) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32> attributes {lowp.island_reasons = ["softmax"]}
//   CHECK-DAG:     arith.constant dense<true> : tensor<1x8x8xi1>
//   CHECK-DAG:     arith.constant -3.40282347E+38 : f32
//       CHECK:     arith.cmpi sge
//       CHECK:     math.exp
//       CHECK:     lowp.yield
//       CHECK:   linalg.batch_matmul
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @causal_attention(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0xFF800000 : f32
  %bias = arith.constant dense<true> : tensor<1x8x8xi1>
  %0 = tensor.empty() : tensor<2x8x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %2 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%1 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %3 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias, %2 : tensor<1x8x8xi1>, tensor<2x8x8xf32>) outs(%0 : tensor<2x8x8xf32>) {
  ^bb0(%in: i1, %in_2: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi sge, %i, %j : index
    %m = arith.andi %in, %c : i1
    %s = arith.select %m, %in_2, %cst_0 : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8xf32>
  %4 = tensor.empty() : tensor<2x8x1xf32>
  %5 = linalg.fill ins(%cst_1 : f32) outs(%4 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3 : tensor<2x8x8xf32>) outs(%5 : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x8x1xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %6 : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %x = arith.subf %in, %in_2 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%4 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %9 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<2x8x8xf32>) outs(%8 : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x8x1xf32>
  %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %9 : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %x = arith.divf %in, %in_2 : f32
    linalg.yield %x : f32
  } -> tensor<2x8x8xf32>
  %11 = tensor.empty() : tensor<2x8x16xf32>
  %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %13 = linalg.batch_matmul ins(%10, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%12 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %13 : tensor<2x8x16xf32>
}
