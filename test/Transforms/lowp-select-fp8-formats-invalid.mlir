// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-select-fp8-formats="scaling=static"

// A target without FP8 is an error unless the bf16 fallback is allowed.
module attributes {lowp.target = #lowp.target<"sm_80">} {
func.func @no_fp8(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{target 'sm_80' has no FP8 support (FP8 targets: sm_89, sm_90, sm_90a, sm_100, sm_120, gfx942, gfx950); choose one of them or allow the bf16 fallback}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
}

// -----

// expected-error @+1 {{lowp-select-fp8-formats needs a target: set #lowp.target on the module or the 'target' option}}
module {
func.func @no_target(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
}

// -----

// Static scales need calibration statistics.
module attributes {lowp.target = #lowp.target<"sm_90">} {
func.func @no_stats(%a: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 0.1>},
                    // expected-error @+1 {{static FP8 scaling needs #lowp.stats for this tensor; calibrate it (lowp-instrument-calibration) or use scaling=current or scaling=delayed}}
                    %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
}

// -----

// A malformed role marking is rejected by the dialect.
func.func @bad_role(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'lowp.role' must be a #lowp.role attribute or an array of one per result}}
  %0 = arith.negf %a {lowp.role = "gradient"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
