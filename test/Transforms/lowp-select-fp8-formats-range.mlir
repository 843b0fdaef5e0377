// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=range scaling=static report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=range scaling=static margin=2" | FileCheck %s --check-prefix=MARGIN
// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=range scaling=static target=gfx942" | FileCheck %s --check-prefix=FNUZ
// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=range target=sm_80 allow-bf16-fallback report=%t.fallback.json" | FileCheck %s --check-prefix=FALLBACK
// RUN: FileCheck %s --check-prefix=FALLBACK-REPORT < %t.fallback.json
// RUN: fp-opt %s -lowp-select-fp8-formats="recipe=range scaling=static" --remarks-filter="lowp.*" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The `range` recipe with static scales (fp8_max / amax / 2^margin) from
// #lowp.stats. Binades needed = log2(amax / min); E4M3FN holds 16.8 after
// scaling (448 down to 2^-8, the last value with two significant bits),
// E5M2 30.8:
//   x: 2 / 0.01       ->  7.6 binades: E4M3, scale 448 / 2     = 224
//   w: 1 / 2^-16      -> 16.0 binades: E4M3, scale 448 / 1     = 448
//                        (margin 2: E4M3 holds 14.8 -> E5M2, 57344 / 4)
//   g: 0.01 / 1e-9    -> 23.3 binades: E5M2, scale 57344 / 0.01
//   h: 4 / 1          ->  2.0 binades: E4M3, scale 448 / 4     = 112
//   t: 1e4 / 1e-7     -> 36.5 binades: bf16, the op is left alone
// On gfx942 the FNUZ formats: E4M3FNUZ max 240 -> x 120, w 240.
// CHECK-LABEL: func @layers
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x8xf32> {{.*}}, %[[W:[^:]*]]: tensor<8x4xf32> {{.*}}, %[[G:[^:]*]]: tensor<4x8xf32> {{.*}}, %[[H:[^:]*]]: tensor<8x4xf32> {{.*}}, %[[T:[^:]*]]: tensor<4x8xf32> {{.*}}, %[[ACC:[^:]*]]: tensor<4x4xf32>)
// CHECK: %[[SX:.*]] = arith.constant 2.240000e+02 : f32
// CHECK: %[[QX:.*]] = lowp.quantize %[[X]], %[[SX]] : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FN>
// CHECK: %[[SW:.*]] = arith.constant 4.480000e+02 : f32
// CHECK: %[[QW:.*]] = lowp.quantize %[[W]], %[[SW]] : tensor<8x4xf32>, f32 to tensor<8x4xf8E4M3FN>
// CHECK: %[[SG:.*]] = arith.constant 5.734400e+06 : f32
// CHECK: %[[QG:.*]] = lowp.quantize %[[G]], %[[SG]] : tensor<4x8xf32>, f32 to tensor<4x8xf8E5M2>
// CHECK: %[[SH:.*]] = arith.constant 1.120000e+02 : f32
// CHECK: %[[QH:.*]] = lowp.quantize %[[H]], %[[SH]] : tensor<8x4xf32>, f32 to tensor<8x4xf8E4M3FN>
// CHECK: %[[P0:.*]] = linalg.matmul ins(%[[QX]], %[[QW]] : tensor<4x8xf8E4M3FN>, tensor<8x4xf8E4M3FN>) outs(%{{.*}} : tensor<4x4xf32>)
// 1 / (224 * 448)
// CHECK: %[[INV0:.*]] = arith.constant 9.96492326E-6 : f32
// CHECK: %[[R0:.*]] = linalg.generic {{.*}} ins(%[[P0]], %[[INV0]], %[[ACC]] : tensor<4x4xf32>, f32, tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%[[QG]], %[[QH]] : tensor<4x8xf8E5M2>, tensor<8x4xf8E4M3FN>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: %[[R2:.*]] = linalg.matmul ins(%[[T]], %[[H]] : tensor<4x8xf32>, tensor<8x4xf32>) outs(%[[ACC]] : tensor<4x4xf32>)
// CHECK: return %[[R0]], %{{.*}}, %[[R2]]

// MARGIN-LABEL: func @layers
// MARGIN: arith.constant 5.600000e+01 : f32
// MARGIN: lowp.quantize {{.*}} to tensor<4x8xf8E4M3FN>
// MARGIN: arith.constant 1.433600e+04 : f32
// MARGIN: lowp.quantize {{.*}} to tensor<8x4xf8E5M2>

// FNUZ-LABEL: func @layers
// FNUZ: arith.constant 1.200000e+02 : f32
// FNUZ: lowp.quantize {{.*}} to tensor<4x8xf8E4M3FNUZ>
// FNUZ: arith.constant 2.400000e+02 : f32
// FNUZ: lowp.quantize {{.*}} to tensor<8x4xf8E4M3FNUZ>
// FNUZ: lowp.quantize {{.*}} to tensor<4x8xf8E5M2FNUZ>
// FNUZ: lowp.quantize {{.*}} to tensor<8x4xf8E4M3FNUZ>

// Without FP8 (sm_80) and with the fallback allowed, nothing changes and
// the target option is recorded on the module.
// FALLBACK: module attributes {lowp.target = #lowp.target<"sm_80">}
// FALLBACK-NOT: lowp.quantize
// FALLBACK-REPORT: "format": "bf16",
// FALLBACK-REPORT: "reason": "target 'sm_80' has no FP8: bf16 fallback",

// REPORT: "decisions": [
// REPORT: "action": "fp8",
// REPORT: "binades_needed": 7.64
// REPORT: "format": "f8E4M3FN",
// REPORT: "reason": "needs 7.6 binades, E4M3 holds 16.8",
// REPORT: "role": "activation",
// REPORT: "scale": 224,
// REPORT: "reason": "needs 16.0 binades, E4M3 holds 16.8",
// REPORT: "format": "f8E5M2",
// REPORT: "reason": "needs 23.3 binades > E4M3's 16.8, E5M2 holds 30.8",
// REPORT: "scale": 5734400,
// REPORT: "action": "kept",
// REPORT: "format": "bf16",
// REPORT: "reason": "needs 36.5 binades > E5M2's 30.8: bf16",
// REPORT: "recipe": "range"

// REMARK: remark: [Analysis] FP8Format | Category:lowp-select-fp8-formats | Function=layers | Remark="linalg.matmul operand #0: f8E4M3FN (needs 7.6 binades, E4M3 holds 16.8)"
// REMARK: Remark="linalg.matmul operand #0: bf16 (needs 36.5 binades > E5M2's 30.8: bf16)"
module attributes {lowp.target = #lowp.target<"sm_90">} {
func.func @layers(%x: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 2.0, min = 0.01>},
                  %w: tensor<8x4xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 1.52587890625e-05>},
                  %g: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 0.01, min = 1.0e-9>},
                  %h: tensor<8x4xf32> {lowp.stats = #lowp.stats<amax = 4.0, min = 1.0>},
                  %t: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 1.0e4, min = 1.0e-7>},
                  %acc: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%g, %h : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = linalg.matmul ins(%t, %h : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
}
