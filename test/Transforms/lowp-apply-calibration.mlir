// RUN: echo '{"tensors": [{"function": "mlp", "index": 0, "amax": 3.25, "min": 0.0078125, "samples": 4096}, {"function": "mlp", "index": 1, "amax": 0.5, "min": 0.001, "samples": 16}]}' > %t.json
// RUN: fp-opt %s -lowp-apply-calibration=stats=%t.json | FileCheck %s
// An entry that names no FP8 candidate is an error.
// RUN: echo '{"tensors": [{"function": "mlp", "index": 5, "amax": 1.0, "min": 0.1, "samples": 1}]}' > %t.bad.json
// RUN: not fp-opt %s -lowp-apply-calibration=stats=%t.bad.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: calibration entry @mlp 5 names no FP8 candidate tensor

// The statistics go where each tensor is defined, numbered as
// lowp-instrument-calibration numbers them: function arguments get an
// argument attribute. The module holds no lowp op before the pass.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME:    %{{.*}}: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 3.250000e+00, min = 7.812500e-03, samples = 4096>}
// CHECK-SAME:    %{{.*}}: tensor<8x2xf32> {lowp.stats = #lowp.stats<amax = 5.000000e-01, min = 1.000000e-03, samples = 16>}
// CHECK:         linalg.matmul
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
