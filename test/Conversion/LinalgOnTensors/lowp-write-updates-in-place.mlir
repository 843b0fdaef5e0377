// RUN: fp-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(lowp-write-updates-in-place))' -verify-diagnostics | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// SGD with momentum: the new momentum and the new weight are written into
// the buffers of the arguments they replace; the weight's update reads the
// new momentum from argument 1's buffer.
// CHECK-LABEL: func.func @sgd_momentum
//  CHECK-SAME:   %[[W:[^:]+]]: tensor<64xf32> {bufferization.writable = true}
//  CHECK-SAME:   %[[M:[^:]+]]: tensor<64xf32> {bufferization.writable = true}
//  CHECK-SAME:   %[[G:[^:]+]]: tensor<64xf32>)
//       CHECK:   %[[M1:.+]] = linalg.generic {{.+}} ins(%[[M]], %[[G]] : {{.+}}) outs(%[[M]] : tensor<64xf32>)
//       CHECK:   %[[W1:.+]] = linalg.generic {{.+}} ins(%[[W]], %[[M1]] : {{.+}}) outs(%[[W]] : tensor<64xf32>)
//       CHECK:   return %{{.+}}, %[[W1]], %[[M1]]
func.func @sgd_momentum(%w: tensor<64xf32>, %m: tensor<64xf32>, %g: tensor<64xf32>)
    -> (tensor<f32> {lowp.loss}, tensor<64xf32> {lowp.updates = 0 : i64}, tensor<64xf32> {lowp.updates = 1 : i64}) {
  %lr = arith.constant 0.1 : f32
  %mu = arith.constant 0.9 : f32
  %e = tensor.empty() : tensor<64xf32>
  %m1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%m, %g : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.mulf %a, %mu : f32
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %w1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w, %m1 : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.mulf %b, %lr : f32
    %s = arith.subf %a, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z = arith.constant 0.0 : f32
  %loss = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  return %loss, %w1, %m1 : tensor<f32>, tensor<64xf32>, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Left alone: an op that accumulates into its init, a value no linalg op
// computes (remarked: each costs a copy per call), an argument returned
// unchanged, and a result without the marker.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   bufferization.writable
//       CHECK:   linalg.generic {{.+}} outs(%{{.+}} : tensor<64xf32>)
//   CHECK-NOT:   bufferization.writable
func.func @left_alone(%w: tensor<64xf32>, %g: tensor<64xf32>, %s: tensor<8x8xf32>, %k: tensor<64xf32>, %u: tensor<64xf32>)
    -> (tensor<64xf32> {lowp.updates = 0 : i64}, tensor<8x8xf32> {lowp.updates = 2 : i64},
        tensor<64xf32> {lowp.updates = 3 : i64}, tensor<64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @below {{result #0 (the new value of argument #0) is not written in place: the op reads its init}}
  %acc = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<64xf32>, tensor<64xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.subf %a, %b : f32
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  // expected-remark @below {{result #1 (the new value of argument #2) is not written in place: not computed by a linalg op on tensors}}
  %t = tensor.cast %s : tensor<8x8xf32> to tensor<8x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%u : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.negf %a : f32
    linalg.yield %x : f32
  } -> tensor<64xf32>
  return %acc, %t, %k, %n : tensor<64xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<64xf32>
}
