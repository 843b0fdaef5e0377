// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90" | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=range scaling=static target=gfx942" | FileCheck %s --check-prefix=FNUZ
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90 max-error=0.01" | FileCheck %s --check-prefix=BOUND
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90" --remarks-filter="lowp.*" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// `range` with a |x| histogram in #lowp.stats picks the format with the
// lower predicted relative RMS error after amax scaling
// (unittests/FP8ErrorRuleTest.cpp checks the rule against an exact oracle).
//
// %x: 1000 values in [0.5, 1) and two in [2^-24, 2^-23): 23 binades, which
// the range rule (amax / min) would give E5M2. The two tiny values carry
// 1e-14 of the energy: E4M3 (error ~0.025) beats E5M2 (~0.050).
// %w: 4095 values in [0.5, 1) and one 1e6 outlier. Scaled for E4M3 the bulk
// lands at 448 / 1e6 ~ 2^-11, under half E4M3's smallest subnormal, and
// flushes; E5M2 keeps it in its normal range: E5M2.
// CHECK-LABEL: func @predicted
// CHECK: lowp.quantize %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FN>
// CHECK: lowp.quantize %{{.*}} : tensor<8x4xf32>, f32 to tensor<8x4xf8E5M2>
// FNUZ-LABEL: func @predicted
// FNUZ: lowp.quantize %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FNUZ>
// FNUZ: lowp.quantize %{{.*}} : tensor<8x4xf32>, f32 to tensor<8x4xf8E5M2FNUZ>
// A bound below both formats' errors: bf16, and the op is left alone.
// BOUND-LABEL: func @predicted
// BOUND-NOT: lowp.quantize
// BOUND: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
// REPORT: "error_bound": 0.098
// REPORT: "format": "f8E4M3FN"
// REPORT: "predicted_error_e4m3": 0.02
// REPORT: "predicted_error_e5m2": 0.05
// REPORT: "reason": "predicted relative RMS error E4M3 2.{{[0-9]+}}e-02, E5M2 5.{{[0-9]+}}e-02: E4M3"
// REPORT: "format": "f8E5M2"
// REMARK: remark: [Analysis] FP8Format | {{.*}} Remark="linalg.matmul operand #0: f8E4M3FN (predicted relative RMS error E4M3 2.{{.*}}e-02, E5M2 5.{{.*}}e-02: E4M3)"
// REMARK: remark: [Analysis] FP8Format | {{.*}} Remark="linalg.matmul operand #1: f8E5M2 (predicted relative RMS error E4M3 {{.*}}: E5M2)"
func.func @predicted(
    %x: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 1.0e-7, samples = 1002, histogram = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000], lowest_binade = -24>},
    %w: tensor<8x4xf32> {lowp.stats = #lowp.stats<amax = 1.0e6, min = 0.5, samples = 4096, histogram = [4095, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], lowest_binade = -1>},
    %acc: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Without a histogram `range` keeps deciding by dynamic range: %x's 23
// binades exceed E4M3's 16.8: E5M2.
// CHECK-LABEL: func @no_histogram
// CHECK: lowp.quantize %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E5M2>
// BOUND-LABEL: func @no_histogram
// BOUND: lowp.quantize %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E5M2>
func.func @no_histogram(
    %x: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 1.0e-7>},
    %w: tensor<8x4xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 0.5>},
    %acc: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
