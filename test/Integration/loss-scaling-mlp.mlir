// Executes several consecutive FP16 training steps of a small MLP (f16
// forward and backward, f32 master weights, loss and update) after
// -lowp-materialize-loss-scaling, threading the scaler state through an
// scf.for in the driver (Inputs/loss-scaling-driver.mlir, written against the
// materialized signature). Inputs/check_loss_scaling.py recomputes every
// expected value independently (GradScaler's rule in Python, the training in
// numpy f32) and prints the verdicts FileCheck matches.
//
// RUN: fp-opt %s -lowp-materialize-loss-scaling="mode=dynamic growth-interval=3 min-scale=64 max-scale=1024" \
// RUN:   | sed -e '/^module/d' -e '/^}$/d' > %t.step.mlir
// RUN: cat %t.step.mlir %S/Inputs/loss-scaling-driver.mlir \
// RUN:   | fp-opt -convert-elementwise-to-linalg -convert-lowp-to-linalg \
// RUN:       -one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" \
// RUN:       -convert-linalg-to-loops -expand-strided-metadata -lower-affine \
// RUN:       -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm \
// RUN:       -convert-to-llvm -reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.out
// RUN: %python %S/Inputs/check_loss_scaling.py %t.out | FileCheck %s

// The scaler state threads through the steps exactly as GradScaler's rule says.
// CHECK: scaler-state: PASS
// (a) a step whose scaled gradients overflow f16 is skipped.
// CHECK: skip-on-overflow: PASS
// (b) the scale doubles after growth-interval finite steps.
// CHECK: growth-after-interval: PASS
// (c) min-scale and max-scale hold.
// CHECK: clamp-max: PASS
// CHECK: clamp-min: PASS
// (d) losses track an f32 run of the same steps.
// CHECK: loss-tracks-f32: PASS
// (e) gradients that underflow f16 without loss scaling survive with it.
// CHECK: underflow-zeros: without scaling {{[1-9][0-9]*}} of 40, with scaling 0 of 40, f32 reference 0 of 40
// CHECK: underflow-fixed: PASS

// One SGD step (lr 0.125) on loss = lw * mean((relu(x W1) W2 - y)^2).
func.func @step(%w1: tensor<4x8xf32>, %w2: tensor<8x1xf32>,
                %x: tensor<16x4xf32>, %y: tensor<16x1xf32>, %lw: f32)
    -> (tensor<f32> {lowp.loss}, tensor<4x8xf32> {lowp.updates = 0 : i64},
        tensor<8x1xf32> {lowp.updates = 1 : i64},
        tensor<4x8xf32>, tensor<8x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  // Forward in f16, matmuls accumulating in f32.
  %x16 = arith.truncf %x : tensor<16x4xf32> to tensor<16x4xf16>
  %w1h = arith.truncf %w1 : tensor<4x8xf32> to tensor<4x8xf16>
  %w2h = arith.truncf %w2 : tensor<8x1xf32> to tensor<8x1xf16>
  %e_h = tensor.empty() : tensor<16x8xf32>
  %acc_h = linalg.fill ins(%zero : f32) outs(%e_h : tensor<16x8xf32>) -> tensor<16x8xf32>
  %h32 = linalg.matmul ins(%x16, %w1h : tensor<16x4xf16>, tensor<4x8xf16>)
                       outs(%acc_h : tensor<16x8xf32>) -> tensor<16x8xf32>
  %h = arith.truncf %h32 : tensor<16x8xf32> to tensor<16x8xf16>
  %e_h16 = tensor.empty() : tensor<16x8xf16>
  %zeros_h = linalg.fill ins(%zero16 : f16) outs(%e_h16 : tensor<16x8xf16>) -> tensor<16x8xf16>
  %a = arith.maximumf %h, %zeros_h : tensor<16x8xf16>
  %e_o = tensor.empty() : tensor<16x1xf32>
  %acc_o = linalg.fill ins(%zero : f32) outs(%e_o : tensor<16x1xf32>) -> tensor<16x1xf32>
  %out = linalg.matmul ins(%a, %w2h : tensor<16x8xf16>, tensor<8x1xf16>)
                       outs(%acc_o : tensor<16x1xf32>) -> tensor<16x1xf32>
  // The loss, in f32.
  %r = arith.subf %out, %y : tensor<16x1xf32>
  %r2 = arith.mulf %r, %r : tensor<16x1xf32>
  %e_s = tensor.empty() : tensor<f32>
  %acc_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%r2 : tensor<16x1xf32>) outs(%acc_s : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %sumv = tensor.extract %sum[] : tensor<f32>
  %inv_b = arith.constant 0.0625 : f32
  %lw_b = arith.mulf %lw, %inv_b : f32
  %lossv = arith.mulf %sumv, %lw_b : f32
  %loss = tensor.from_elements %lossv : tensor<f32>
  // Backward: dL/dout = seed * lw * 2/16 * r, then f16.
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f32>
  %seedv = tensor.extract %seed[] : tensor<f32>
  %two = arith.constant 2.0 : f32
  %k0 = arith.mulf %seedv, %lw_b : f32
  %k = arith.mulf %k0, %two : f32
  %kb = linalg.fill ins(%k : f32) outs(%e_o : tensor<16x1xf32>) -> tensor<16x1xf32>
  %dout32 = arith.mulf %kb, %r : tensor<16x1xf32>
  %dout = arith.truncf %dout32 : tensor<16x1xf32> to tensor<16x1xf16>
  // dW2 = a^T dout
  %e_aT = tensor.empty() : tensor<8x16xf16>
  %aT = linalg.transpose ins(%a : tensor<16x8xf16>) outs(%e_aT : tensor<8x16xf16>) permutation = [1, 0]
  %e_g2 = tensor.empty() : tensor<8x1xf32>
  %acc_g2 = linalg.fill ins(%zero : f32) outs(%e_g2 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %g2acc = linalg.matmul ins(%aT, %dout : tensor<8x16xf16>, tensor<16x1xf16>)
                         outs(%acc_g2 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %g2h = arith.truncf %g2acc : tensor<8x1xf32> to tensor<8x1xf16>
  %g2 = arith.extf %g2h {lowp.gradient = "W2"} : tensor<8x1xf16> to tensor<8x1xf32>
  // da = dout W2^T, dh = da where h > 0
  %e_w2T = tensor.empty() : tensor<1x8xf16>
  %w2T = linalg.transpose ins(%w2h : tensor<8x1xf16>) outs(%e_w2T : tensor<1x8xf16>) permutation = [1, 0]
  %da32 = linalg.matmul ins(%dout, %w2T : tensor<16x1xf16>, tensor<1x8xf16>)
                        outs(%acc_h : tensor<16x8xf32>) -> tensor<16x8xf32>
  %da = arith.truncf %da32 : tensor<16x8xf32> to tensor<16x8xf16>
  %pos = arith.cmpf ogt, %h, %zeros_h : tensor<16x8xf16>
  %dh = arith.select %pos, %da, %zeros_h : tensor<16x8xi1>, tensor<16x8xf16>
  // dW1 = x^T dh
  %e_xT = tensor.empty() : tensor<4x16xf16>
  %xT = linalg.transpose ins(%x16 : tensor<16x4xf16>) outs(%e_xT : tensor<4x16xf16>) permutation = [1, 0]
  %e_g1 = tensor.empty() : tensor<4x8xf32>
  %acc_g1 = linalg.fill ins(%zero : f32) outs(%e_g1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1acc = linalg.matmul ins(%xT, %dh : tensor<4x16xf16>, tensor<16x8xf16>)
                         outs(%acc_g1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1h = arith.truncf %g1acc : tensor<4x8xf32> to tensor<4x8xf16>
  %g1 = arith.extf %g1h {lowp.gradient = "W1"} : tensor<4x8xf16> to tensor<4x8xf32>
  // SGD on the f32 master weights.
  %lr1 = arith.constant dense<0.125> : tensor<4x8xf32>
  %lr2 = arith.constant dense<0.125> : tensor<8x1xf32>
  %d1 = arith.mulf %lr1, %g1 : tensor<4x8xf32>
  %w1n = arith.subf %w1, %d1 : tensor<4x8xf32>
  %d2 = arith.mulf %lr2, %g2 : tensor<8x1xf32>
  %w2n = arith.subf %w2, %d2 : tensor<8x1xf32>
  return %loss, %w1n, %w2n, %g1, %g2
      : tensor<f32>, tensor<4x8xf32>, tensor<8x1xf32>, tensor<4x8xf32>, tensor<8x1xf32>
}
