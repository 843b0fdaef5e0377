// Static loss scaling with run-time numerics checks, executed: finite steps
// report nothing and update; a step whose gradient overflows reports that
// gradient by name and location and keeps the parameters; a step whose loss
// is NaN reports the loss first.
//
// RUN: fp-opt %s -lowp-materialize-loss-scaling="mode=static init-scale=1024 check-numerics=true" \
// RUN:   | fp-opt -convert-elementwise-to-linalg -convert-lowp-to-linalg \
// RUN:       -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:       -convert-linalg-to-loops -expand-strided-metadata -lower-affine \
// RUN:       -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm \
// RUN:       -convert-to-llvm -reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN:   | FileCheck %s

// loss = sum(w * x) (f32), gradient dL/dw = seed * x computed in f16.
func.func @step(%w: tensor<4xf32>, %x: tensor<4xf32>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %zero = arith.constant 0.0 : f32
  %wx = arith.mulf %w, %x : tensor<4xf32>
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%wx : tensor<4xf32>) outs(%acc : tensor<f32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %sv = tensor.extract %seed[] : tensor<f16>
  %e16 = tensor.empty() : tensor<4xf16>
  %sb = linalg.fill ins(%sv : f16) outs(%e16 : tensor<4xf16>) -> tensor<4xf16>
  %x16 = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
  %g16 = arith.mulf %sb, %x16 : tensor<4xf16>
  %g = arith.extf %g16 {lowp.gradient = "dw"} : tensor<4xf16> to tensor<4xf32>
  %lr = arith.constant dense<0.5> : tensor<4xf32>
  %d = arith.mulf %lr, %g : tensor<4xf32>
  %w1 = arith.subf %w, %d : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// Prints whether the update was applied (w changed) and w[0].
func.func @run(%w: tensor<4xf32>, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %loss, %w1 = func.call @step(%w, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  %a = tensor.extract %w[%c0] : tensor<4xf32>
  %b = tensor.extract %w1[%c0] : tensor<4xf32>
  %ai = arith.bitcast %a : f32 to i32
  %bi = arith.bitcast %b : f32 to i32
  %same = arith.cmpi eq, %ai, %bi : i32
  %s = arith.extui %same : i1 to i64
  vector.print str "unchanged "
  vector.print %s : i64
  vector.print str "w0 "
  vector.print %b : f32
  return
}

func.func @main() {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // A finite step: w0 = 1 - 0.5 * 0.25 = 0.875.
  // CHECK: step finite
  // CHECK-NOT: non-finite
  // CHECK: unchanged 0
  // CHECK-NEXT: w0 0.875
  vector.print str "step finite\n"
  %x0 = arith.constant dense<[0.25, 0.5, 0.75, 1.0]> : tensor<4xf32>
  func.call @run(%w, %x0) : (tensor<4xf32>, tensor<4xf32>) -> ()
  // x = 100: the loss is finite, but 1024 * 100 overflows f16.
  // CHECK: step overflow
  // CHECK-NEXT: lowp.check_numerics: non-finite 'dw' at {{.*}}loss-scaling-check-numerics.mlir:33:8
  // CHECK-NEXT: unchanged 1
  // CHECK-NEXT: w0 1
  vector.print str "step overflow\n"
  %x1 = arith.constant dense<[100.0, 0.5, 0.75, 1.0]> : tensor<4xf32>
  func.call @run(%w, %x1) : (tensor<4xf32>, tensor<4xf32>) -> ()
  // A NaN input: the loss is reported first.
  // CHECK: step nan
  // CHECK-NEXT: lowp.check_numerics: non-finite loss (result #0 of @step) at {{.*}}loss-scaling-check-numerics.mlir:22:11
  // CHECK-NEXT: unchanged 1
  vector.print str "step nan\n"
  %x2 = arith.constant dense<[0x7FC00000, 0.5, 0.75, 1.0]> : tensor<4xf32>
  func.call @run(%w, %x2) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}
