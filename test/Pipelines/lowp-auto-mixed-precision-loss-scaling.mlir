// The decision pipeline materializes loss scaling in a marked f32 training
// step once inference has made it f16, and leaves it alone for bf16.
//
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=f16" | FileCheck %s --check-prefix=F16
// RUN: fp-opt %s -lowp-auto-mixed-precision="target=sm_90 policy=bf16" -verify-diagnostics | FileCheck %s --check-prefix=BF16

// F16-LABEL: func.func @step(
// F16-SAME:      %[[S:[^:]*]]: f32 {lowp.loss_scale = 6.553600e+04 : f32}, %[[N:[^:]*]]: i64 {lowp.good_steps})
// F16-SAME:      attributes {lowp.loss_scaling = "dynamic"}
// F16:         lowp.scale %[[S]], %{{.*}} {lowp.loss_seed} : f32, tensor<f16>
// F16:         %[[G:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x4xf16>) outs(%{{.*}} : tensor<8x4xf32>)
// F16-NEXT:    %[[U:.*]] = lowp.unscale %[[S]], %[[G]] {lowp.gradient = "w"} : f32, tensor<8x4xf32>
// F16-NEXT:    %[[OK:.*]] = lowp.all_finite %[[U]] : tensor<8x4xf32>
// F16:         arith.select %[[OK]]
// F16:         lowp.update_scale %[[S]], %[[N]], %[[OK]] : f32, i64

// BF16-LABEL: func.func @step(
// BF16-SAME:      -> (tensor<f32> {lowp.loss}, tensor<8x4xf32> {lowp.updates = 0 : i64}) {
// BF16-NOT:     lowp.scale
// BF16-NOT:     lowp.unscale
// BF16:         return

// expected-remark @+1 {{loss scaling not applied: compute type 'bf16' (from the pass's policy option)}}
func.func @step(%w: tensor<8x4xf32>, %x: tensor<16x8xf32>, %dy: tensor<16x4xf32>)
    -> (tensor<f32> {lowp.loss}, tensor<8x4xf32> {lowp.updates = 0 : i64}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<16x4xf32>) -> tensor<16x4xf32>
  %es = tensor.empty() : tensor<f32>
  %accs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%y : tensor<16x4xf32>) outs(%accs : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f32>
  %sv = tensor.extract %seed[] : tensor<f32>
  %sb = linalg.fill ins(%sv : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %et = tensor.empty() : tensor<8x16xf32>
  %xt = linalg.transpose ins(%x : tensor<16x8xf32>) outs(%et : tensor<8x16xf32>) permutation = [1, 0]
  %eg = tensor.empty() : tensor<8x4xf32>
  %accg = linalg.fill ins(%zero : f32) outs(%eg : tensor<8x4xf32>) -> tensor<8x4xf32>
  %g = linalg.matmul {lowp.gradient = "w"} ins(%xt, %sb : tensor<8x16xf32>, tensor<16x4xf32>) outs(%accg : tensor<8x4xf32>) -> tensor<8x4xf32>
  %lr = arith.constant dense<0.125> : tensor<8x4xf32>
  %d = arith.mulf %lr, %g : tensor<8x4xf32>
  %w1 = arith.subf %w, %d : tensor<8x4xf32>
  return %loss, %w1 : tensor<f32>, tensor<8x4xf32>
}
