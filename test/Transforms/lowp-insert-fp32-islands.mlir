// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands | FileCheck %s
// Idempotence: a second run changes nothing.
// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands | fp-opt -split-input-file -lowp-insert-fp32-islands | FileCheck %s
// Long reductions are judged against the option; -1 turns them off.
// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands="long-reduction-threshold=-1" | FileCheck %s --check-prefix=NOLONG
// RUN: fp-opt %s -split-input-file -lowp-insert-fp32-islands="low=bf16" | FileCheck %s --check-prefix=BF16
// Composes after precision inference (which leaves these computations as it
// finds them or adds casts the islands read through): the same islands.
// RUN: fp-opt %s -split-input-file -lowp-infer-precision="low=f16" -lowp-insert-fp32-islands | FileCheck %s --check-prefix=INFER

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Softmax as five generics (max, subtract, exp, sum, divide), torch-mlir's
// decomposition: one island, the input its only operand.
// INFER-LABEL: func.func @softmax_decomposed
//       INFER:   lowp.island f32 (%{{.+}}) : (tensor<4x128xf32>) -> tensor<4x128xf32> attributes {lowp.island_reasons = ["softmax"]}
// CHECK-LABEL: func.func @softmax_decomposed
//  CHECK-SAME: (%[[X:.+]]: tensor<4x128xf32>)
//       CHECK:   %[[R:.+]] = lowp.island f32 (%[[X]]) : (tensor<4x128xf32>) -> tensor<4x128xf32> attributes {lowp.island_reasons = ["softmax"]} {
//       CHECK:     ^bb0(%[[A:.+]]: tensor<4x128xf32>):
//       CHECK:     arith.maximumf
//       CHECK:     arith.subf
//       CHECK:     math.exp
//       CHECK:     arith.addf
//       CHECK:     arith.divf
//       CHECK:     lowp.yield %{{.+}} : tensor<4x128xf32>
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[R]]
func.func @softmax_decomposed(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x128xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x128xf32>, tensor<4xf32>) outs(%e2 : tensor<4x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x128xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<4x128xf32>) outs(%e2 : tensor<4x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<4x128xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x128xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %acc, %in : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x128xf32>, tensor<4xf32>) outs(%e2 : tensor<4x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x128xf32>
  return %div : tensor<4x128xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_named
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<2x16xf32>) -> tensor<2x16xf32> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     tensor.empty() : tensor<2x16xf32>
//       CHECK:     linalg.softmax dimension(1)
//       CHECK:     lowp.yield
func.func @softmax_named(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<2x16xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %s : tensor<2x16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Softmax without the max subtraction, exp and division fused differently.
// CHECK-LABEL: func.func @softmax_without_max
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf32>) -> tensor<4x64xf32> attributes {lowp.island_reasons = ["softmax"]}
//   CHECK-NOT:   arith.maximumf
func.func @softmax_without_max(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%exp : tensor<4x64xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x64xf32>
  return %div : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d0, 0)>

// TOSA-to-linalg shape: linalg.reduce, expand_shape to keep the dim, a
// reciprocal and a multiply.
// CHECK-LABEL: func.func @softmax_reduce_expand_reciprocal
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf32>) -> tensor<4x64xf32> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     tensor.expand_shape
//       CHECK:     lowp.yield
//   CHECK-NOT:   tensor.expand_shape
func.func @softmax_reduce_expand_reciprocal(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %e3 = tensor.empty() : tensor<4x1xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.reduce ins(%x : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %max2 = tensor.expand_shape %max [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %exp = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max2 : tensor<4x64xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<4x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%exp : tensor<4x64xf32>) outs(%f2 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %sum2 = tensor.expand_shape %sum [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %rcp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum2 : tensor<4x1xf32>) outs(%e3 : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %mul = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %rcp : tensor<4x64xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x64xf32>
  return %mul : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Fused form (max-with-index select, sum of exp(x - m) fused into the
// reduction, exp recomputed in the division), in f16: the body is promoted
// to f32 while the island keeps the f16 interface.
// CHECK-LABEL: func.func @softmax_fused_f16
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf16>) -> tensor<4x64xf16> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     ^bb0(%{{.+}}: tensor<4x64xf32>):
//       CHECK:     arith.constant 0xFF800000 : f32
//       CHECK:     arith.cmpf ogt, %{{.+}}, %{{.+}} : f32
//       CHECK:     math.exp %{{.+}} : f32
//       CHECK:     arith.divf %{{.+}}, %{{.+}} : f32
//       CHECK:     lowp.yield %{{.+}} : tensor<4x64xf32>
func.func @softmax_fused_f16(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<4xf16>
  %e2 = tensor.empty() : tensor<4x64xf16>
  %f1 = linalg.fill ins(%ninf : f16) outs(%e1 : tensor<4xf16>) -> tensor<4xf16>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf16>) outs(%f1 : tensor<4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %c = arith.cmpf ogt, %in, %acc : f16
    %m = arith.select %c, %in, %acc : f16
    linalg.yield %m : f16
  } -> tensor<4xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<4xf16>) -> tensor<4xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<4x64xf16>, tensor<4xf16>) outs(%f2 : tensor<4xf16>) {
  ^bb0(%a: f16, %m: f16, %acc: f16):
    %s = arith.subf %a, %m : f16
    %e = math.exp %s : f16
    %r = arith.addf %e, %acc : f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  %div = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<4x64xf16>, tensor<4xf16>, tensor<4xf16>) outs(%e2 : tensor<4x64xf16>) {
  ^bb0(%a: f16, %m: f16, %s: f16, %o: f16):
    %d0 = arith.subf %a, %m : f16
    %e = math.exp %d0 : f16
    %d = arith.divf %e, %s : f16
    linalg.yield %d : f16
  } -> tensor<4x64xf16>
  return %div : tensor<4x64xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// After precision inference: the softmax runs on a rounded copy of an f32
// value. The island reads the f32 value itself and its body has no casts.
// CHECK-LABEL: func.func @softmax_after_inference
//  CHECK-SAME: (%[[X:.+]]: tensor<4x64xf32>)
//       CHECK:   lowp.island f32 (%[[X]]) : (tensor<4x64xf32>) -> tensor<4x64xf16>
//   CHECK-NOT:     lowp.cast
//   CHECK-NOT:     arith.extf
//       CHECK:     lowp.yield %{{.+}} : tensor<4x64xf32>
func.func @softmax_after_inference(%x32: tensor<4x64xf32>) -> tensor<4x64xf16> {
  %x = lowp.cast %x32 : tensor<4x64xf32> to tensor<4x64xf16>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf16>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf16>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %e = math.exp %w : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<4x64xf16>, tensor<4xf32>) outs(%e2 : tensor<4x64xf16>) {
  ^bb0(%a: f16, %s: f32, %o: f16):
    %w = arith.extf %a : f16 to f32
    %e = math.exp %w : f32
    %d = arith.divf %e, %s : f32
    %n = arith.truncf %d : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4x64xf16>
  return %div : tensor<4x64xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// log-softmax: (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func.func @log_softmax
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf32>) -> tensor<4x64xf32> attributes {lowp.island_reasons = ["log_softmax"]}
//       CHECK:     math.log
//       CHECK:     lowp.yield
func.func @log_softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %shifted = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%shifted : tensor<4x64xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %a = arith.addf %e, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%shifted, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %l = math.log %b : f32
    %r = arith.subf %a, %l : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %out : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// logsumexp: max + log(sum(exp(x - max))).
// CHECK-LABEL: func.func @logsumexp
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf32>) -> tensor<4xf32> attributes {lowp.island_reasons = ["logsumexp"]}
func.func @logsumexp(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<4x64xf32>, tensor<4xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %lse = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum, %max : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %m, %l : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %lse : tensor<4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#ch3 = affine_map<(d0, d1, d2) -> (d2)>

// Layer norm as torch-mlir writes it: sum / n, centre, mean of squares,
// + eps, rsqrt, scale, then the affine weight and bias.
// INFER-LABEL: func.func @layer_norm
//       INFER:   lowp.island f32 (%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32> attributes {lowp.island_reasons = ["layer_norm"]}
// CHECK-LABEL: func.func @layer_norm
//  CHECK-SAME: (%[[X:.+]]: tensor<2x8x32xf32>, %[[G:.+]]: tensor<32xf32>, %[[B:.+]]: tensor<32xf32>)
//       CHECK:   %[[R:.+]] = lowp.island f32 (%[[X]], %[[G]], %[[B]]) : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32> attributes {lowp.island_reasons = ["layer_norm"]}
//       CHECK:     math.rsqrt
//       CHECK:     lowp.yield
//       CHECK:   return %[[R]]
func.func @layer_norm(%x: tensor<2x8x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<2x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e2 = tensor.empty() : tensor<2x8xf32>
  %e3 = tensor.empty() : tensor<2x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x8x32xf32>) outs(%f : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x8xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x8xf32>) outs(%e2 : tensor<2x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x8xf32>
  %cen = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x32xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x32xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%cen : tensor<2x8x32xf32>) outs(%f : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.mulf %in, %in : f32
    %a = arith.addf %m, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x8xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<2x8xf32>) outs(%e2 : tensor<2x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.divf %in, %n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %norm = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cen, %rstd : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x32xf32>) {
  ^bb0(%c: f32, %r: f32, %o: f32):
    %m = arith.mulf %c, %r : f32
    linalg.yield %m : f32
  } -> tensor<2x8x32xf32>
  %affine = linalg.generic {indexing_maps = [#id3, #ch3, #ch3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%norm, %g, %b : tensor<2x8x32xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e3 : tensor<2x8x32xf32>) {
  ^bb0(%v: f32, %gv: f32, %bv: f32, %o: f32):
    %m = arith.mulf %v, %gv : f32
    %a = arith.addf %m, %bv : f32
    linalg.yield %a : f32
  } -> tensor<2x8x32xf32>
  return %affine : tensor<2x8x32xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Layer norm with E[x^2] - E[x]^2, sqrt and a division, statistics as
// sums times 1/n, one fused generic for the normalization.
// CHECK-LABEL: func.func @layer_norm_sqrt_div
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf32>) -> tensor<4x64xf32> attributes {lowp.island_reasons = ["layer_norm"]}
//       CHECK:     math.sqrt
func.func @layer_norm_sqrt_div(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %rn = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s1, %s2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f, %f : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %a1: f32, %a2: f32):
    %sq = arith.mulf %in, %in : f32
    %r1 = arith.addf %in, %a1 : f32
    %r2 = arith.addf %sq, %a2 : f32
    linalg.yield %r1, %r2 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s1, %s2 : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%v: f32, %a: f32, %b: f32, %o: f32):
    %mu = arith.mulf %a, %rn : f32
    %ex2 = arith.mulf %b, %rn : f32
    %mu2 = arith.mulf %mu, %mu : f32
    %var = arith.subf %ex2, %mu2 : f32
    %ve = arith.addf %var, %eps : f32
    %sd = math.sqrt %ve : f32
    %c = arith.subf %v, %mu : f32
    %r = arith.divf %c, %sd : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// RMSNorm: x * rsqrt(mean(x^2) + eps) * w, the square as powf.
// CHECK-LABEL: func.func @rms_norm
//       CHECK:   lowp.island f32 (%{{.+}}, %{{.+}}) : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32> attributes {lowp.island_reasons = ["rms_norm"]}
func.func @rms_norm(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = math.powf %in, %two : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<4x64xf32>, tensor<4xf32>, tensor<64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%v: f32, %s: f32, %wv: f32, %o: f32):
    %ms = arith.divf %s, %n : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %xn = arith.mulf %v, %r : f32
    %y0 = arith.mulf %xn, %wv : f32
    linalg.yield %y0 : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1)>

// Batch norm inference: running statistics are operands.
// CHECK-LABEL: func.func @batch_norm_inference
//       CHECK:   lowp.island f32 (%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32> attributes {lowp.island_reasons = ["batch_norm"]}
func.func @batch_norm_inference(%x: tensor<2x4x8x8xf32>, %mean: tensor<4xf32>, %var: tensor<4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x8x8xf32> {
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %y = linalg.generic {indexing_maps = [#nchw, #c, #c, #c, #c, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %var, %g, %b : tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<2x4x8x8xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %gv: f32, %bv: f32, %o: f32):
    %c0 = arith.subf %v, %m : f32
    %ve = arith.addf %s, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %c0, %r : f32
    %sc = arith.mulf %n, %gv : f32
    %y0 = arith.addf %sc, %bv : f32
    linalg.yield %y0 : f32
  } -> tensor<2x4x8x8xf32>
  return %y : tensor<2x4x8x8xf32>
}

// -----

#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1)>

// Batch norm training: statistics over N, H, W for each channel.
// CHECK-LABEL: func.func @batch_norm_training
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> attributes {lowp.island_reasons = ["batch_norm"]}
func.func @batch_norm_training(%x: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#nchw, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x4x8x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %dev = linalg.generic {indexing_maps = [#nchw, #c, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %sum : tensor<2x4x8x8xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %n : f32
    %d = arith.subf %in, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#nchw, #c, #c, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %dev : tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<2x4x8x8xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %o: f32):
    %mu = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %c0 = arith.subf %v, %mu : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %y0 = arith.mulf %c0, %r : f32
    linalg.yield %y0 : f32
  } -> tensor<2x4x8x8xf32>
  return %y : tensor<2x4x8x8xf32>
}

// -----

#g4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#gr = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// Group norm: the input is reshaped into groups, reduced per group,
// normalized, reshaped back and scaled. The grouped view is the island's
// input.
// CHECK-LABEL: func.func @group_norm
//       CHECK:   %[[XG:.+]] = tensor.expand_shape
//       CHECK:   lowp.island f32 (%[[XG]]) : (tensor<2x2x4x16xf32>) -> tensor<2x8x16xf32> attributes {lowp.island_reasons = ["group_norm"]}
//       CHECK:     tensor.collapse_shape
//       CHECK:     arith.mulf
//       CHECK:     lowp.yield
func.func @group_norm(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3]] output_shape [2, 2, 4, 16] : tensor<2x8x16xf32> into tensor<2x2x4x16xf32>
  %e1 = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %sum = linalg.generic {indexing_maps = [#g4, #gr], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%xg : tensor<2x2x4x16xf32>) outs(%f : tensor<2x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x2xf32>
  %dev = linalg.generic {indexing_maps = [#g4, #gr, #gr], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%xg, %sum : tensor<2x2x4x16xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %n : f32
    %d = arith.subf %in, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x2xf32>
  %y = linalg.generic {indexing_maps = [#g4, #gr, #gr, #g4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%xg, %sum, %dev : tensor<2x2x4x16xf32>, tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2x4x16xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %o: f32):
    %mu = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %c0 = arith.subf %v, %mu : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %y0 = arith.mulf %c0, %r : f32
    linalg.yield %y0 : f32
  } -> tensor<2x2x4x16xf32>
  %yc = tensor.collapse_shape %y [[0], [1, 2], [3]] : tensor<2x2x4x16xf32> into tensor<2x8x16xf32>
  %e3 = tensor.empty() : tensor<2x8x16xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%yc : tensor<2x8x16xf32>) outs(%e3 : tensor<2x8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<2x8x16xf32>
  return %out : tensor<2x8x16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// NLL loss after a log-softmax, torch-mlir style: the picked log-probability
// is a tensor.extract in a generic, summed to a scalar and divided by the
// batch. Log-softmax and loss merge into one island.
// INFER-LABEL: func.func @nll_loss
//       INFER:   lowp.island f32 {{.+}} -> tensor<f32> attributes {lowp.island_reasons = ["log_softmax", "loss"]}
// CHECK-LABEL: func.func @nll_loss
//  CHECK-SAME: (%[[X:.+]]: tensor<4x10xf32>, %[[T:.+]]: tensor<4xi64>)
//       CHECK:   lowp.island f32 (%[[X]], %[[T]]) : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32> attributes {lowp.island_reasons = ["log_softmax", "loss"]}
//       CHECK:     tensor.extract
//       CHECK:     lowp.yield %{{.+}} : tensor<f32>
//   CHECK-NOT:   linalg.generic
func.func @nll_loss(%x: tensor<4x10xf32>, %t: tensor<4xi64>) -> tensor<f32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %batch = arith.constant 4.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x10xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x10xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<4x10xf32>, tensor<4xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %logp = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<4x10xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x10xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %sh = arith.subf %a, %m : f32
    %l = math.log %s : f32
    %r = arith.subf %sh, %l : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %picked = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi64>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%ti: i64, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %ti : i64 to index
    %v = tensor.extract %logp[%i, %c] : tensor<4x10xf32>
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %total = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%picked : tensor<4xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %mean = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%total : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %batch : f32
    linalg.yield %d : f32
  } -> tensor<f32>
  return %mean : tensor<f32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Soft-target cross-entropy: -sum(t * log(softmax(x))).
// CHECK-LABEL: func.func @cross_entropy_soft_targets
//       CHECK:   lowp.island f32 (%{{.+}}, %{{.+}}) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<f32> attributes {lowp.island_reasons = ["loss", "softmax"]}
func.func @cross_entropy_soft_targets(%x: tensor<4x10xf32>, %t: tensor<4x10xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x10xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<4x10xf32>) outs(%e2 : tensor<4x10xf32>) -> tensor<4x10xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #id, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%p, %t : tensor<4x10xf32>, tensor<4x10xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%pv: f32, %tv: f32, %acc: f32):
    %l = math.log %pv : f32
    %m = arith.mulf %tv, %l : f32
    %a = arith.addf %m, %acc : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %neg = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%s : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  return %neg : tensor<f32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A mean over 4096 elements is a long reduction for f16 (more than
// 1 / eps(f16) = 1024 terms); the division by n joins the island.
// CHECK-LABEL: func.func @long_mean
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<2x4096xf16>) -> tensor<2xf16> attributes {lowp.island_reasons = ["long_reduction"]}
//       CHECK:     arith.divf
// NOLONG-LABEL: func.func @long_mean
//   NOLONG-NOT:   lowp.island
func.func @long_mean(%x: tensor<2x4096xf16>) -> tensor<2xf16> {
  %zero = arith.constant 0.0 : f16
  %n = arith.constant 4096.0 : f16
  %e1 = tensor.empty() : tensor<2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2xf16>) -> tensor<2xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4096xf16>) outs(%f : tensor<2xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<2xf16>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<2xf16>) outs(%e1 : tensor<2xf16>) {
  ^bb0(%in: f16, %o: f16):
    %d = arith.divf %in, %n : f16
    linalg.yield %d : f16
  } -> tensor<2xf16>
  return %mean : tensor<2xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// 256 terms: long for bf16 (1 / eps(bf16) = 128), not for f16.
// CHECK-LABEL: func.func @medium_sum
// NOLONG-LABEL: func.func @medium_sum
//   CHECK-NOT:   lowp.island
// BF16-LABEL: func.func @medium_sum
//       BF16:   lowp.island f32 (%{{.+}}) : (tensor<2x256xf32>) -> tensor<2xf32> attributes {lowp.island_reasons = ["long_reduction"]}
func.func @medium_sum(%x: tensor<2x256xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x256xf32>) outs(%f : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2xf32>
  return %sum : tensor<2xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Near miss: an exp and a sum of it, never divided by it.
// CHECK-LABEL: func.func @exp_not_normalized
//   CHECK-NOT:   lowp.island
func.func @exp_not_normalized(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %exp, %sum : tensor<4x64xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Near miss: exp(x) divided by the sum of exp of another tensor.
// CHECK-LABEL: func.func @exp_over_other_sum
//   CHECK-NOT:   lowp.island
func.func @exp_over_other_sum(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %a = arith.addf %e, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %e = math.exp %a : f32
    %d = arith.divf %e, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x64xf32>
  return %div : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Near miss: a normalization-shaped expression whose statistics are a
// max-reduction and an undivided sum, not means.
// CHECK-LABEL: func.func @statistics_not_means
//   CHECK-NOT:   lowp.island
func.func @statistics_not_means(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<4x64xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx, %ss : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
    %c = arith.subf %v, %m : f32
    %ve = arith.addf %s, %eps : f32
    %r = math.rsqrt %ve : f32
    %y0 = arith.mulf %c, %r : f32
    linalg.yield %y0 : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// Near miss: a max-pool is a max-reduction over windows, not a softmax part
// or a long sum.
// CHECK-LABEL: func.func @max_pool
//   CHECK-NOT:   lowp.island
func.func @max_pool(%x: tensor<1x64x64x8xf32>) -> tensor<1x32x32x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x32x32x8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x32x32x8xf32>) -> tensor<1x32x32x8xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x64x8xf32>, tensor<2x2xf32>) outs(%f : tensor<1x32x32x8xf32>) -> tensor<1x32x32x8xf32>
  return %p : tensor<1x32x32x8xf32>
}

// -----

// Near miss: a matmul with a long contraction is not a long sum (its
// accumulator precision is the inference pass's business).
// CHECK-LABEL: func.func @long_matmul
//   CHECK-NOT:   lowp.island
func.func @long_matmul(%a: tensor<4x4096xf32>, %b: tensor<4096x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x4096xf32>, tensor<4096x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// Adjacent computations merge: a softmax feeding an RMSNorm is one island;
// the max, also used outside, is a second result.
// CHECK-LABEL: func.func @softmax_then_rms_norm
//       CHECK:   %[[I:.+]]:2 = lowp.island f32 (%{{.+}}) : (tensor<4x64xf32>) -> (tensor<4xf32>, tensor<4x64xf32>) attributes {lowp.island_reasons = ["rms_norm", "softmax"]}
//   CHECK-NOT:   lowp.island
//       CHECK:   return %[[I]]#1, %[[I]]#0
func.func @softmax_then_rms_norm(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<4x64xf32>, tensor<4xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d0 = arith.subf %a, %m : f32
    %e = math.exp %d0 : f32
    %d = arith.divf %e, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x64xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x64xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %ss : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %ms = arith.divf %s, %n : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %xn = arith.mulf %v, %r : f32
    linalg.yield %xn : f32
  } -> tensor<4x64xf32>
  return %y, %max : tensor<4x64xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An existing island that feeds a recognized softmax is merged into the new
// island (its body inlined, its reasons kept).
// CHECK-LABEL: func.func @existing_island_merges
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x64xf16>) -> tensor<4x64xf16> attributes {lowp.island_reasons = ["scaled", "softmax"]}
//       CHECK:     arith.mulf %{{.+}}, %{{.+}} : f32
//       CHECK:     linalg.softmax
//   CHECK-NOT:   lowp.island
func.func @existing_island_merges(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %s = lowp.island f32 (%x) : (tensor<4x64xf16>) -> tensor<4x64xf16> attributes {lowp.island_reasons = ["scaled"]} {
  ^bb0(%a: tensor<4x64xf32>):
    %c = arith.constant 0.125 : f32
    %e = tensor.empty() : tensor<4x64xf32>
    %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.mulf %v, %c : f32
      linalg.yield %r : f32
    } -> tensor<4x64xf32>
    lowp.yield %m : tensor<4x64xf32>
  }
  %e2 = tensor.empty() : tensor<4x64xf16>
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x64xf16>) outs(%e2 : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %p : tensor<4x64xf16>
}

// -----

// The shapes torch-mlir gives real models (ConvNeXt, ResNet, LLaMA exports):
// statistics broadcast back by copy generics, the square as a generic that
// reads one tensor twice, eps an f64 constant truncated in the payload, a
// trailing permutation.
#m = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#c = affine_map<(d0, d1, d2) -> (d2)>
#perm = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-LABEL: func.func @layer_norm_channels_last
//       CHECK:   lowp.island f32 (%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x5xf32> attributes {lowp.island_reasons = ["layer_norm"]}
func.func @layer_norm_channels_last(%x: tensor<2x5x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x5xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-6 : f64
  %e1 = tensor.empty() : tensor<2x5x1xf32>
  %e = tensor.empty() : tensor<2x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %s = linalg.generic {indexing_maps = [#m, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x5x8xf32>) outs(%f : tensor<2x5x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %in, %o : f32
    linalg.yield %a : f32
  } -> tensor<2x5x1xf32>
  %mu = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x5x1xf32>) outs(%e1 : tensor<2x5x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x5x1xf32>
  %mub = linalg.generic {indexing_maps = [#keep, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mu : tensor<2x5x1xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x5x8xf32>
  %cen = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mub : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x5x8xf32>
  %sq = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cen, %cen : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%a: f32, %a2: f32, %o: f32):
    %p = arith.mulf %a, %a2 : f32
    linalg.yield %p : f32
  } -> tensor<2x5x8xf32>
  %ss = linalg.generic {indexing_maps = [#m, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sq : tensor<2x5x8xf32>) outs(%f : tensor<2x5x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %in, %o : f32
    linalg.yield %a : f32
  } -> tensor<2x5x1xf32>
  %rs = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ss : tensor<2x5x1xf32>) outs(%e1 : tensor<2x5x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.divf %in, %n : f32
    %e32 = arith.truncf %eps : f64 to f32
    %ve = arith.addf %v, %e32 : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2x5x1xf32>
  %rsb = linalg.generic {indexing_maps = [#keep, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rs : tensor<2x5x1xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x5x8xf32>
  %y = linalg.generic {indexing_maps = [#m, #m, #c, #c, #m], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cen, %rsb, %g, %b : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%a: f32, %r: f32, %gv: f32, %bv: f32, %o: f32):
    %n0 = arith.mulf %a, %r : f32
    %n1 = arith.mulf %n0, %gv : f32
    %n2 = arith.addf %n1, %bv : f32
    linalg.yield %n2 : f32
  } -> tensor<2x5x8xf32>
  %et = tensor.empty() : tensor<2x8x5xf32>
  %t = linalg.generic {indexing_maps = [#m, #perm], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x5x8xf32>) outs(%et : tensor<2x8x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x5xf32>
  return %t : tensor<2x8x5xf32>
}

// -----

#m = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#r = affine_map<(d0, d1) -> (d0)>
#w = affine_map<(d0, d1) -> (d1)>

// A bf16 model's RMSNorm with the square as math.fpowi, widened to f32 for
// the statistics, narrowed back before the bf16 weight: the island reads the
// widened input, computes the weight product in f32 and returns bf16.
// CHECK-LABEL: func.func @rms_norm_fpowi_bf16
//       CHECK:   %[[W:.+]] = linalg.generic
//       CHECK:     arith.extf %{{.+}} : bf16 to f32
//       CHECK:   lowp.island f32 (%[[W]], %{{.+}}) : (tensor<4x16xf32>, tensor<16xbf16>) -> tensor<4x16xbf16> attributes {lowp.island_reasons = ["rms_norm"]}
//       CHECK:     math.fpowi
//   CHECK-NOT:     f32 to bf16
//       CHECK:     arith.mulf %{{.+}}, %{{.+}} : f32
//       CHECK:     lowp.yield %{{.+}} : tensor<4x16xf32>
func.func @rms_norm_fpowi_bf16(%x: tensor<4x16xbf16>, %w: tensor<16xbf16>) -> tensor<4x16xbf16> {
  %two = arith.constant 2 : i64
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-6 : f64
  %e32 = tensor.empty() : tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e16 = tensor.empty() : tensor<4x16xbf16>
  %xw = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xbf16>) outs(%e32 : tensor<4x16xf32>) {
  ^bb0(%in: bf16, %o: f32):
    %v = arith.extf %in : bf16 to f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %ss = linalg.generic {indexing_maps = [#m, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%xw : tensor<4x16xf32>) outs(%f : tensor<4x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = math.fpowi %in, %two : f32, i64
    %a = arith.addf %p, %o : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [#m, #keep, #m], iterator_types = ["parallel", "parallel"]}
      ins(%xw, %ss : tensor<4x16xf32>, tensor<4x1xf32>) outs(%e32 : tensor<4x16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %ms = arith.divf %s, %n : f32
    %ep = arith.truncf %eps : f64 to f32
    %me = arith.addf %ms, %ep : f32
    %r = math.rsqrt %me : f32
    %xn = arith.mulf %v, %r : f32
    linalg.yield %xn : f32
  } -> tensor<4x16xf32>
  %yb = linalg.generic {indexing_maps = [#m, #w, #m], iterator_types = ["parallel", "parallel"]}
      ins(%y, %w : tensor<4x16xf32>, tensor<16xbf16>) outs(%e16 : tensor<4x16xbf16>) {
  ^bb0(%v: f32, %wv: bf16, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    %m = arith.mulf %t, %wv : bf16
    linalg.yield %m : bf16
  } -> tensor<4x16xbf16>
  return %yb : tensor<4x16xbf16>
}

// -----

#m = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>

// torch-mlir's max over a dimension returns values and indices from one
// two-result generic; the softmax reads the values. The index result is
// unused and stays inside the island.
// CHECK-LABEL: func.func @softmax_max_with_index
//       CHECK:   lowp.island f32 (%{{.+}}) : (tensor<4x32xf32>) -> tensor<4x32xf32> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     linalg.index 1
//       CHECK:     lowp.yield
func.func @softmax_max_with_index(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %e = tensor.empty() : tensor<4x32xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %mx:2 = linalg.generic {indexing_maps = [#m, #r, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x32xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %o: f32, %oi: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %o : f32
    %gt = arith.cmpf ogt, %in, %o : f32
    %s = arith.select %gt, %ii, %oi : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  %ex = linalg.generic {indexing_maps = [#m, #r, #m], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx#0 : tensor<4x32xf32>, tensor<4xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<4x32xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#m, #r], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x32xf32>) outs(%fs : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %in, %o : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#m, #r, #m], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x32xf32>, tensor<4xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x32xf32>
  return %p : tensor<4x32xf32>
}

// -----

// Dynamic shapes: empty tensors are recreated inside the island from their
// sizes, which become (index) operands.
// CHECK-LABEL: func.func @softmax_dynamic
//       CHECK:   %[[D:.+]] = tensor.dim
//       CHECK:   lowp.island f32 (%{{.+}}, %[[D]]) : (tensor<?x?xf32>, index) -> tensor<?x?xf32> attributes {lowp.island_reasons = ["long_reduction", "softmax"]}
//       CHECK:     tensor.empty(%{{.+}}) : tensor<?xf32>
func.func @softmax_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %a = arith.addf %e, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%x : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %e = math.exp %a : f32
    %d = arith.divf %e, %s : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  return %div : tensor<?x?xf32>
}

// -----

// Found by utils/fuzz_passes.py. An f64 softmax needs no island (and an f32
// one would narrow it): it stays as it is.
// CHECK-LABEL: func.func @softmax_f64
//  CHECK-NEXT:   %[[E:.+]] = tensor.empty() : tensor<4x16xf64>
//  CHECK-NEXT:   %[[S:.+]] = linalg.softmax dimension(1) ins(%arg0 : tensor<4x16xf64>) outs(%[[E]] : tensor<4x16xf64>) -> tensor<4x16xf64>
//  CHECK-NEXT:   return %[[S]] : tensor<4x16xf64>
func.func @softmax_f64(%x: tensor<4x16xf64>) -> tensor<4x16xf64> {
  %e = tensor.empty() : tensor<4x16xf64>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x16xf64>) outs(%e : tensor<4x16xf64>) -> tensor<4x16xf64>
  return %s : tensor<4x16xf64>
}

// -----

// Found by utils/fuzz_passes.py. An existing f64 island that reads a new
// island's result keeps its precision and its body: only f32 islands merge.
// CHECK-LABEL: func.func @f64_island_stays
//       CHECK:   %[[I:.+]] = lowp.island f32 (%arg0) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:     linalg.softmax dimension(1) ins(%{{.+}} : tensor<4x8xf32>)
//       CHECK:   %[[J:.+]] = lowp.island f64 (%[[I]]) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> {
//  CHECK-NEXT:   ^bb0(%[[A:.+]]: tensor<4x8xf64>):
//  CHECK-NEXT:     %[[T:.+]] = math.tanh %[[A]] : tensor<4x8xf64>
//  CHECK-NEXT:     lowp.yield %[[T]] : tensor<4x8xf64>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[J]] : tensor<4x8xbf16>
func.func @f64_island_stays(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %e = tensor.empty() : tensor<4x8xbf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xbf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %i = lowp.island f64 (%s) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  ^bb0(%a: tensor<4x8xf64>):
    %t = math.tanh %a : tensor<4x8xf64>
    lowp.yield %t : tensor<4x8xf64>
  }
  return %i : tensor<4x8xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A training step's master gradient (a norm weight's gradient: a long sum
// over the batch) is marked, and markers stay at the top level of the body
// (docs/training-step.md): no island takes the marked op.
// CHECK-LABEL: func.func @marked_gradient_stays_outside
//       CHECK:   %[[G:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<2x4096xf16>) outs(%{{.+}} : tensor<2xf16>) attrs =  {lowp.gradient = "norm.weight"}
//   CHECK-NOT:   lowp.island
//       CHECK:   return %[[G]]
func.func @marked_gradient_stays_outside(%x: tensor<2x4096xf16>) -> tensor<2xf16> {
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2xf16>) -> tensor<2xf16>
  %sum = linalg.generic {lowp.gradient = "norm.weight", indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4096xf16>) outs(%f : tensor<2xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<2xf16>
  return %sum : tensor<2xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
#all1 = affine_map<(d0) -> ()>

// A long sum scaled by the backward seed (as a mean's 1/n would be) and
// extended as a gradient: the island takes the sum and the scaling; the
// marked seed and the marked extension stay outside, the island reading the
// one and read by the other.
// CHECK-LABEL: func.func @seeded_long_sum
//       CHECK:   %[[SEED:.+]] = arith.constant {lowp.loss_seed} dense<1.000000e+00> : tensor<f16>
//       CHECK:   %[[I:.+]] = lowp.island f32 (%{{.+}}, %[[SEED]]) : (tensor<2x4096xf16>, tensor<f16>) -> tensor<2xf16> attributes {lowp.island_reasons = ["long_reduction"]}
//       CHECK:     arith.mulf %{{.+}}, %{{.+}} : f32
//       CHECK:   %[[G:.+]] = arith.extf %[[I]] {lowp.gradient = "b"} : tensor<2xf16> to tensor<2xf32>
//       CHECK:   return %[[G]]
func.func @seeded_long_sum(%x: tensor<2x4096xf16>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2xf16>) -> tensor<2xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4096xf16>) outs(%f : tensor<2xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<2xf16>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %scaled = linalg.generic {indexing_maps = [#id1, #all1, #id1], iterator_types = ["parallel"]}
      ins(%sum, %seed : tensor<2xf16>, tensor<f16>) outs(%e1 : tensor<2xf16>) {
  ^bb0(%s: f16, %k: f16, %o: f16):
    %m = arith.mulf %s, %k : f16
    linalg.yield %m : f16
  } -> tensor<2xf16>
  %g = arith.extf %scaled {lowp.gradient = "b"} : tensor<2xf16> to tensor<2xf32>
  return %g : tensor<2xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>

// A loss island holds the loss between its sum and the squared difference:
// the prediction's own computation (tanh and a scale) stays where it is.
// CHECK-LABEL: func.func @mse_loss_island_is_the_loss
//       CHECK:   %[[PRED:.+]] = linalg.generic
//       CHECK:     math.tanh %{{.+}} : f16
//       CHECK:     arith.mulf %{{.+}}, %{{.+}} : f16
//       CHECK:   lowp.island f32 (%[[PRED]], %arg1) : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<f16> attributes {lowp.island_reasons = ["loss"]}
//   CHECK-NOT:     math.tanh
//       CHECK:     arith.subf %{{.+}}, %{{.+}} : f32
//       CHECK:     arith.divf %{{.+}}, %{{.+}} : f32
//       CHECK:     lowp.yield
func.func @mse_loss_island_is_the_loss(%x: tensor<4x64xf16>, %t: tensor<4x64xf16>) -> tensor<f16> {
  %zero = arith.constant 0.0 : f16
  %two = arith.constant 2.0 : f16
  %n = arith.constant 256.0 : f16
  %e2 = tensor.empty() : tensor<4x64xf16>
  %pred = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e2 : tensor<4x64xf16>) {
  ^bb0(%in: f16, %o: f16):
    %th = math.tanh %in : f16
    %s = arith.mulf %th, %two : f16
    linalg.yield %s : f16
  } -> tensor<4x64xf16>
  %e0 = tensor.empty() : tensor<f16>
  %f0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<f16>) -> tensor<f16>
  %sum = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%pred, %t : tensor<4x64xf16>, tensor<4x64xf16>) outs(%f0 : tensor<f16>) {
  ^bb0(%p: f16, %tv: f16, %acc: f16):
    %d = arith.subf %p, %tv : f16
    %sq = arith.mulf %d, %d : f16
    %a = arith.addf %sq, %acc : f16
    linalg.yield %a : f16
  } -> tensor<f16>
  %mean = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%sum : tensor<f16>) outs(%e0 : tensor<f16>) {
  ^bb0(%in: f16, %o: f16):
    %m = arith.divf %in, %n : f16
    linalg.yield %m : f16
  } -> tensor<f16>
  return %mean : tensor<f16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>

// The loss reads the first softmax directly and, through a matmul, the
// second: one island for both would hold the matmul (the work 16 bits are
// for), so the first softmax is an island of its own and the matmul
// between them stays f16; the second softmax, which only the loss reads,
// shares the loss's island.
// CHECK-LABEL: func.func @matmul_between_islands_stays_low
//       CHECK:   %[[P:.+]] = lowp.island f32 (%arg0) : (tensor<4x16xf16>) -> tensor<4x16xf16> attributes {lowp.island_reasons = ["softmax"]}
//       CHECK:   %[[H:.+]] = linalg.matmul ins(%[[P]], %arg1 : tensor<4x16xf16>, tensor<16x16xf16>)
//       CHECK:   lowp.island f32 (%[[H]], %[[P]]) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<f16> attributes {lowp.island_reasons = ["loss", "softmax"]}
//   CHECK-NOT:     linalg.matmul
//       CHECK:     math.log %{{.+}} : f32
//       CHECK:     lowp.yield
func.func @matmul_between_islands_stays_low(%x: tensor<4x16xf16>, %w: tensor<16x16xf16>) -> tensor<f16> {
  %zero = arith.constant 0.0 : f16
  %e2 = tensor.empty() : tensor<4x16xf16>
  %p = linalg.softmax dimension(1) ins(%x : tensor<4x16xf16>) outs(%e2 : tensor<4x16xf16>) -> tensor<4x16xf16>
  %fz = linalg.fill ins(%zero : f16) outs(%e2 : tensor<4x16xf16>) -> tensor<4x16xf16>
  %h = linalg.matmul ins(%p, %w : tensor<4x16xf16>, tensor<16x16xf16>) outs(%fz : tensor<4x16xf16>) -> tensor<4x16xf16>
  %e3 = tensor.empty() : tensor<4x16xf16>
  %q = linalg.softmax dimension(1) ins(%h : tensor<4x16xf16>) outs(%e3 : tensor<4x16xf16>) -> tensor<4x16xf16>
  %e0 = tensor.empty() : tensor<f16>
  %f0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<f16>) -> tensor<f16>
  %s = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%p, %q : tensor<4x16xf16>, tensor<4x16xf16>) outs(%f0 : tensor<f16>) {
  ^bb0(%pv: f16, %qv: f16, %acc: f16):
    %l = math.log %qv : f16
    %m = arith.mulf %pv, %l : f16
    %a = arith.addf %m, %acc : f16
    linalg.yield %a : f16
  } -> tensor<f16>
  %neg = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%s : tensor<f16>) outs(%e0 : tensor<f16>) {
  ^bb0(%in: f16, %o: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<f16>
  return %neg : tensor<f16>
}
