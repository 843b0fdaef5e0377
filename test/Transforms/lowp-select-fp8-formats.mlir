// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats | FileCheck %s --check-prefix=HYBRID
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=e4m3 target=gfx942" | FileCheck %s --check-prefix=FNUZ
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="recipe=e5m2 target=gfx950" | FileCheck %s --check-prefix=E5M2
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="scaling=delayed amax-history=16 amax-compute=most-recent" | FileCheck %s --check-prefix=DELAYED
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="first-last-bf16" | FileCheck %s --check-prefix=FIRSTLAST
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="target=sm_80 allow-bf16-fallback" | FileCheck %s --check-prefix=FALLBACK
// Idempotent: a second run changes nothing.
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats | fp-opt -split-input-file -lowp-select-fp8-formats | FileCheck %s --check-prefix=HYBRID

// Precision inference left bf16 operands behind casts and an f32
// accumulator; the FP8 rewrite quantizes the f32 values (one rounding),
// accumulates in f32 and multiplies once by 1 / (sa * sb).
module attributes {lowp.target = #lowp.target<"sm_90">} {
// HYBRID-LABEL: func @forward
// HYBRID-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>)
// HYBRID-DAG: %[[AX:.*]] = lowp.amax %[[X]] : tensor<4x8xf32>
// HYBRID-DAG: %[[SX:.*]] = lowp.compute_scale %[[AX]] for f8E4M3FN : f32
// HYBRID-DAG: %[[QX:.*]] = lowp.quantize %[[X]], %[[SX]] : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FN>
// HYBRID-DAG: %[[AW:.*]] = lowp.amax %[[W]] : tensor<8x16xf32>
// HYBRID-DAG: %[[SW:.*]] = lowp.compute_scale %[[AW]] for f8E4M3FN : f32
// HYBRID-DAG: %[[QW:.*]] = lowp.quantize %[[W]], %[[SW]] : tensor<8x16xf32>, f32 to tensor<8x16xf8E4M3FN>
// HYBRID-DAG: %[[ZERO:.*]] = linalg.fill
// HYBRID: %[[ACC:.*]] = linalg.matmul ins(%[[QX]], %[[QW]] : tensor<4x8xf8E4M3FN>, tensor<8x16xf8E4M3FN>) outs(%[[ZERO]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// HYBRID: %[[SXW:.*]] = arith.mulf %[[SX]], %[[SW]] : f32
// HYBRID: %[[INV:.*]] = arith.divf %{{.*}}, %[[SXW]] : f32
// HYBRID: %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[ACC]], %[[INV]] : tensor<4x16xf32>, f32) outs(%{{.*}} : tensor<4x16xf32>)
// HYBRID: arith.mulf
// HYBRID-NOT: arith.addf
// HYBRID: return %[[OUT]]

// FNUZ-LABEL: func @forward
// FNUZ: lowp.quantize {{.*}} to tensor<4x8xf8E4M3FNUZ>
// FNUZ: lowp.quantize {{.*}} to tensor<8x16xf8E4M3FNUZ>
// FNUZ: linalg.matmul ins({{.*}} : tensor<4x8xf8E4M3FNUZ>, tensor<8x16xf8E4M3FNUZ>) outs({{.*}} : tensor<4x16xf32>)

// Delayed scaling: one amax history per tensor becomes an argument; the
// scale comes from its most recent entry; this step's amax is pushed and the
// new history returned.
// DELAYED-LABEL: func @forward
// DELAYED-SAME: (%[[X:[^:]*]]: tensor<4x8xf32>, %[[W:[^:]*]]: tensor<8x16xf32>, %[[HX:[^:]*]]: tensor<16xf32> {lowp.amax_history = f8E4M3FN}, %[[HW:[^:]*]]: tensor<16xf32> {lowp.amax_history = f8E4M3FN})
// DELAYED-SAME: -> (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>)
// DELAYED: %[[SX:.*]] = lowp.compute_scale %[[HX]] for f8E4M3FN most_recent : tensor<16xf32>
// DELAYED: %[[AX:.*]] = lowp.amax %[[X]] : tensor<4x8xf32>
// DELAYED: %[[NX:.*]] = lowp.push_amax %[[HX]], %[[AX]] : tensor<16xf32>
// DELAYED: lowp.quantize %[[X]], %[[SX]]
// DELAYED: %[[SW:.*]] = lowp.compute_scale %[[HW]] for f8E4M3FN most_recent : tensor<16xf32>
// DELAYED: %[[NW:.*]] = lowp.push_amax %[[HW]]
// DELAYED: return %{{.*}}, %[[NX]], %[[NW]] : tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>

// The only matrix op is both the first and the last.
// FIRSTLAST-LABEL: func @forward
// FIRSTLAST-NOT: lowp.quantize
// FIRSTLAST: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>)

// FALLBACK-LABEL: func @forward
// FALLBACK-NOT: lowp.quantize
// FALLBACK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>)

// E5M2-LABEL: func @forward
// E5M2: linalg.matmul ins({{.*}} : tensor<4x8xf8E5M2>, tensor<8x16xf8E5M2>) outs({{.*}} : tensor<4x16xf32>)
func.func @forward(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %xb = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %wb = lowp.cast %w : tensor<8x16xf32> to tensor<8x16xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%xb, %wb : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
}

// -----

// Hybrid: the gradient (marked on the function argument) gets E5M2, the
// activation E4M3; a non-zero init is added after the scaling (still one
// pass over the result).
module attributes {lowp.target = #lowp.target<"sm_89">} {
// HYBRID-LABEL: func @weight_gradient
// HYBRID-DAG: lowp.quantize %{{.*}} : tensor<16x4xf32>, f32 to tensor<16x4xf8E5M2>
// HYBRID-DAG: lowp.quantize %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FN>
// HYBRID: %[[ACC:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x4xf8E5M2>, tensor<4x8xf8E4M3FN>) outs(%{{.*}} : tensor<16x8xf32>)
// HYBRID: %[[R:.*]] = linalg.generic {{.*}} ins(%[[ACC]], %{{.*}}, %[[INIT:.*]] : tensor<16x8xf32>, f32, tensor<16x8xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// HYBRID: %[[P:.*]] = arith.mulf
// HYBRID: arith.addf %[[P]]
// HYBRID: lowp.cast %[[R]] : tensor<16x8xf32> to tensor<16x8xbf16>

// FNUZ-LABEL: func @weight_gradient
// FNUZ: linalg.matmul ins({{.*}} : tensor<16x4xf8E4M3FNUZ>, tensor<4x8xf8E4M3FNUZ>)
func.func @weight_gradient(%dy: tensor<16x4xf32> {lowp.role = #lowp.role<gradient>},
                           %x: tensor<4x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xbf16> {
  %m = linalg.matmul ins(%dy, %x : tensor<16x4xf32>, tensor<4x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = lowp.cast %m : tensor<16x8xf32> to tensor<16x8xbf16>
  return %r : tensor<16x8xbf16>
}
}

// -----

// Not rewritten: an op pinned by lowp.precision (a sensitive layer), an op in
// an FP32 island, an op with a bf16 accumulator, and elementwise ops.
module attributes {lowp.target = #lowp.target<"sm_90">} {
// HYBRID-LABEL: func @kept
// HYBRID-NOT: lowp.quantize
// HYBRID: linalg.matmul {lowp.precision = bf16} ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>)
// HYBRID: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%{{.*}} : tensor<4x4xbf16>)
// HYBRID: lowp.island
// HYBRID: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
// HYBRID-NOT: lowp.quantize
func.func @kept(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>, %c: tensor<4x4xf32>, %d: tensor<4x4xbf16>)
    -> (tensor<4x4xf32>, tensor<4x4xbf16>, tensor<4x4xbf16>) {
  %0 = linalg.matmul {lowp.precision = bf16} ins(%a, %b : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%d : tensor<4x4xbf16>) -> tensor<4x4xbf16>
  %2 = lowp.island f32 (%a, %b, %d) : (tensor<4x8xbf16>, tensor<8x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>, %z: tensor<4x4xf32>):
    %m = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    lowp.yield %m : tensor<4x4xf32>
  }
  return %0, %1, %2 : tensor<4x4xf32>, tensor<4x4xbf16>, tensor<4x4xbf16>
}
}
