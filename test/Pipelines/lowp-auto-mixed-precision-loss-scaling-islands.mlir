// A training step whose bias gradient is a long sum scaled by the backward
// seed: the decision pipeline puts the sum and the scaling into an f32
// island on its first run, keeps the seed and the gradient markers at the
// top level for loss scaling, and a second run changes nothing.
//
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=f16" | FileCheck %s
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=f16" > %t.once.mlir
// RUN: fp-opt %t.once.mlir -lowp-auto-mixed-precision="target=sm_90 policy=f16" > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// CHECK-LABEL: func.func @step(
// CHECK-SAME:      attributes {lowp.loss_scaling = "dynamic"}
// CHECK:         %[[SEED:.+]] = lowp.scale %{{.+}}, %{{.+}} {lowp.loss_seed} : f32, tensor<f16>
// CHECK:         %[[I:.+]] = lowp.island f32 (%{{.+}}, %[[SEED]]) : (tensor<4x?xf16>, tensor<f16>) -> tensor<4xf16> attributes {lowp.island_reasons = ["long_reduction"]}
// CHECK:         %[[G:.+]] = arith.extf %[[I]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT:    lowp.unscale %{{.+}}, %[[G]] {lowp.gradient = "b"} : f32, tensor<4xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
#all1 = affine_map<(d0) -> ()>
func.func @step(%b: tensor<4xf32>, %dy: tensor<4x?xf16>, %loss: tensor<f32>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<4xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e1 : tensor<4xf16>) -> tensor<4xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dy : tensor<4x?xf16>) outs(%f : tensor<4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<4xf16>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %scaled = linalg.generic {indexing_maps = [#id1, #all1, #id1], iterator_types = ["parallel"]}
      ins(%sum, %seed : tensor<4xf16>, tensor<f16>) outs(%e1 : tensor<4xf16>) {
  ^bb0(%s: f16, %k: f16, %o: f16):
    %m = arith.mulf %s, %k : f16
    linalg.yield %m : f16
  } -> tensor<4xf16>
  %g = arith.extf %scaled {lowp.gradient = "b"} : tensor<4xf16> to tensor<4xf32>
  %lr = arith.constant dense<0.125> : tensor<4xf32>
  %d = arith.mulf %lr, %g : tensor<4xf32>
  %b1 = arith.subf %b, %d : tensor<4xf32>
  return %loss, %b1 : tensor<f32>, tensor<4xf32>
}
