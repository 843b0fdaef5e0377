// Invalid options are reported on the operation the pass runs on.
// Found by utils/fuzz_passes.py: an empty amax history produced a
// lowp.compute_scale that failed to verify.
// RUN: fp-opt %s -verify-diagnostics -lowp-select-fp8-formats="target=sm_90 scaling=delayed amax-history=0"
// RUN: fp-opt %s -verify-diagnostics -lowp-auto-mixed-precision="target=sm_90 policy=fp8 fp8-scaling=delayed fp8-amax-history=0"

// expected-error @below {{lowp-select-fp8-formats: invalid option amax-history=0: delayed scaling keeps at least one amax}}
module {
func.func @step(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
}
