// RUN: fp-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(lowp-read-only-arguments))' -verify-diagnostics | FileCheck %s
// RUN: fp-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(lowp-read-only-arguments),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' | FileCheck %s --check-prefix=BUF

// A matmul accumulating onto its bias argument: every tensor argument of
// the public function is read-only, so the bufferized matmul accumulates
// into a copy of the bias, not into the caller's buffer.
// CHECK-LABEL: func.func @accumulate_onto_bias
//  CHECK-SAME:   %{{[^:]+}}: tensor<4x8xf32> {bufferization.writable = false}
//  CHECK-SAME:   %{{[^:]+}}: tensor<8x16xf32> {bufferization.writable = false}
//  CHECK-SAME:   %{{[^:]+}}: tensor<4x16xf32> {bufferization.writable = false}
//  CHECK-SAME:   %{{[^:]+}}: f32)
// BUF-LABEL: func.func @accumulate_onto_bias
//  BUF-SAME:   %[[X:[^:]+]]: memref<4x8xf32>, %[[W:[^:]+]]: memref<8x16xf32>, %[[B:[^:]+]]: memref<4x16xf32>
//       BUF:   %[[COPY:.+]] = memref.alloc() {{.*}} : memref<4x16xf32>
//       BUF:   memref.copy %[[B]], %[[COPY]]
//       BUF:   linalg.matmul ins(%[[X]], %[[W]] : {{.*}}) outs(%[[COPY]] : memref<4x16xf32>)
//       BUF:   return %[[COPY]]
func.func @accumulate_onto_bias(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>,
                                %b: tensor<4x16xf32>, %s: f32) -> tensor<4x16xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%b : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Left alone: an argument a pass already marked (a training step's
// parameter updated in place), a private function (its callers are in the
// module), a declaration, and memref arguments.
// CHECK-LABEL: func.func @updated_in_place
//  CHECK-SAME:   %{{[^:]+}}: tensor<64xf32> {bufferization.writable = true}
//  CHECK-SAME:   %{{[^:]+}}: tensor<64xf32> {bufferization.writable = false}
// BUF-LABEL: func.func @updated_in_place
//  BUF-SAME:   %[[W:[^:]+]]: memref<64xf32>, %[[G:[^:]+]]: memref<64xf32>
//   BUF-NOT:   memref.copy
//       BUF:   linalg.add ins(%[[W]], %[[G]] : {{.*}}) outs(%[[W]] : memref<64xf32>)
func.func @updated_in_place(%w: tensor<64xf32> {bufferization.writable = true},
                            %g: tensor<64xf32>) -> tensor<64xf32> {
  %w1 = linalg.add ins(%w, %g : tensor<64xf32>, tensor<64xf32>)
                   outs(%w : tensor<64xf32>) -> tensor<64xf32>
  return %w1 : tensor<64xf32>
}

// CHECK-LABEL: func.func private @helper
//  CHECK-SAME:   (%{{[^:]+}}: tensor<64xf32>) -> tensor<64xf32> {
func.func private @helper(%t: tensor<64xf32>) -> tensor<64xf32> {
  return %t : tensor<64xf32>
}

// CHECK-LABEL: func.func private @external
//  CHECK-SAME:   (tensor<64xf32>)
//   CHECK-NOT:   writable
func.func private @external(tensor<64xf32>)

// CHECK-LABEL: func.func @on_buffers
//  CHECK-SAME:   (%{{[^:]+}}: memref<64xf32>)
//   CHECK-NOT:   writable
func.func @on_buffers(%m: memref<64xf32>) {
  return
}
