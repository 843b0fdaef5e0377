// RUN: fp-opt %s -verify-diagnostics -lowp-select-fp8-formats="scaling=delayed"

// Delayed scaling changes the step function's signature: a function with
// callers in the module cannot carry the state.
module attributes {lowp.target = #lowp.target<"sm_90">} {
// expected-error @+1 {{delayed FP8 scaling adds amax-history state to the signature of @step, which has uses in this module}}
func.func @step(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func @caller(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = func.call @step(%a, %b, %c) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
}
