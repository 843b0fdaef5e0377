// Delayed scaling run for three steps on the CPU, the amax histories
// threaded through the step function as its new arguments and results.
//
// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=e4m3 scaling=delayed amax-history=4 target=sm_90" \
// RUN:   | FileCheck %s --check-prefix=IR
// The step gains arguments and results, so its caller is written against
// the materialized signature: Inputs/delayed-scaling-driver.mlir is appended
// inside the module (its closing brace, the only unindented one, dropped).
// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=e4m3 scaling=delayed amax-history=4 target=sm_90" \
// RUN:   | sed -e '/^}$/d' > %t.mlir
// RUN: cat %S/../Inputs/delayed-scaling-driver.mlir >> %t.mlir
// RUN: fp-opt %t.mlir --lowp-pipeline-reference \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%fp8_runner_libs | FileCheck %s

// IR-LABEL: func.func @step
// IR-SAME: %{{.*}}: tensor<4xf32> {lowp.amax_history = f8E4M3FN}, %{{.*}}: tensor<4xf32> {lowp.amax_history = f8E4M3FN})
// IR-SAME: -> (tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>)

// Step k multiplies x_k = k * [[1, 2], [3, 4]] by w = I. The scale of a step
// comes from the history before it (the max of the window) and each step
// pushes its own amax (4, 8, 12):
//   step 1: empty history, amax 0 -> scale 1; x_1 is exact in E4M3;
//   step 2: scale 448 / 4 = 112: 6 * 112 and 8 * 112 exceed 448 and
//           saturate, so they come back as 4 (delayed scaling lags a growing
//           amax by one step);
//   step 3: scale 448 / 8 = 56: 3 * 56 = 168 and 6 * 56 = 336 are ties
//           between E4M3 neighbours (160 | 176, 320 | 352) and round to the
//           even ones, 160 / 56 = 2.857 and 320 / 56 = 5.714; 9 and 12
//           saturate to 448 / 56 = 8.
// CHECK: step 1
// CHECK-NEXT: 1, 2, 3, 4
// CHECK-NEXT: history x
// CHECK-NEXT: 4, 0, 0, 0
// CHECK-NEXT: step 2
// CHECK-NEXT: 2, 4, 4, 4
// CHECK-NEXT: history x
// CHECK-NEXT: 8, 4, 0, 0
// CHECK-NEXT: step 3
// CHECK-NEXT: 2.85714, 5.71429, 8, 8
// CHECK-NEXT: history x
// CHECK-NEXT: 12, 8, 4, 0
// CHECK-NEXT: history w
// CHECK-NEXT: 1, 1, 1, 0

module {
func.func @step(%x: tensor<2x2xf32>, %w: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
}
