// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=znver4" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=znver4" --lowp-infer-precision="target=znver4" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=sm_90" | FileCheck %s --check-prefix=NATIVE
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=znver4 remarks=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// avx2 has no preferred 16-bit format: low=auto demotes nothing, and what
// arrives in 16 bits is treated as on znver4.
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=avx2" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=avx2" --lowp-infer-precision="target=avx2" | FileCheck %s
// sapphirerapids computes f16 (AVX512_FP16), not bf16.
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="target=sapphirerapids" | FileCheck %s --check-prefix=SPR

// On a target without bf16 arithmetic (znver4: AVX512_BF16 converts and
// multiplies bf16, it has no bf16 add or exp), generics that arrive
// computing in bf16 (a model converted to bf16 before export) compute in
// f32 between one extension of each operand and one rounding of each
// result, as the ops the pass demotes do there. sm_90 has bf16 arithmetic:
// nothing changes there.

// REMARK: :[[@LINE+22]]:8: remark: bf16 (sensitive): holds non-f32 floats: already decided or f64; computes in f32 (the target has no bf16 arithmetic) and rounds each result once
// REMARK: :[[@LINE+46]]:8: remark: bf16 (follow): holds non-f32 floats: already decided or f64; computes in f32 (the target has no bf16 arithmetic) and rounds each result once
// REMARK: :[[@LINE+72]]:11: remark: f16 (follow): holds non-f32 floats: already decided or f64; computes in f32 (the target has no f16 arithmetic) and rounds each result once
// REMARK-NOT: computes in f32
// CHECK-LABEL: func.func @gelu_tanh
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<4x64xbf16>) outs(%{{.*}} : tensor<4x64xbf16>)
// CHECK-NEXT:  ^bb0(%[[X:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:    %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT:    %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[C:.*]] = arith.truncf %{{.*}} : f64 to bf16
// CHECK-NEXT:    %[[CW:.*]] = arith.extf %[[C]] : bf16 to f32
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %[[XW]], %[[CW]] : f32
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[T]], %[[HALF]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[P]] : f32 to bf16
// CHECK-NEXT:    linalg.yield %[[R]] : bf16
// NATIVE-LABEL: func.func @gelu_tanh
// NATIVE:       math.tanh %{{.*}} : bf16
#id = affine_map<(i, j) -> (i, j)>
func.func @gelu_tanh(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %c = arith.constant 0.79788456 : f64
  %e = tensor.empty() : tensor<4x64xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xbf16>) outs(%e : tensor<4x64xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %half = arith.constant 0.5 : bf16
    %cb = arith.truncf %c : f64 to bf16
    %s = arith.mulf %in, %cb : bf16
    %t = math.tanh %s : bf16
    %p = arith.mulf %t, %half : bf16
    linalg.yield %p : bf16
  } -> tensor<4x64xbf16>
  return %r : tensor<4x64xbf16>
}

// -----

// A reduction: its accumulator is read extended and rounded on each yield
// (the type of the result does not change).
// CHECK-LABEL: func.func @row_sum
// CHECK:       ^bb0(%[[X:.*]]: bf16, %[[ACC:.*]]: bf16):
// CHECK-DAG:     %[[AW:.*]] = arith.extf %[[ACC]] : bf16 to f32
// CHECK-DAG:     %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK:         %[[S:.*]] = arith.addf %[[XW]], %[[AW]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT:    linalg.yield %[[R]] : bf16
func.func @row_sum(%x: tensor<4x64xbf16>, %acc: tensor<4xbf16>) -> tensor<4xbf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xbf16>) outs(%acc : tensor<4xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %s = arith.addf %in, %out : bf16
    linalg.yield %s : bf16
  } -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// -----

// f16 arithmetic, on a target without it, computes in f32 too.
// CHECK-LABEL: func.func @f16_square
// CHECK:       ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:    %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %[[XW]], %[[XW]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT:    linalg.yield %[[R]] : f16
// NATIVE-LABEL: func.func @f16_square
// NATIVE:       arith.mulf %{{.*}}, %{{.*}} : f16
// SPR-LABEL:   func.func @f16_square
// SPR-NOT:     arith.extf
// SPR:         arith.mulf %{{.*}}, %{{.*}} : f16
#id = affine_map<(i) -> (i)>
func.func @f16_square(%h: tensor<8xf16>) -> tensor<8xf16> {
  %eh = tensor.empty() : tensor<8xf16>
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%h : tensor<8xf16>) outs(%eh : tensor<8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %s = arith.mulf %in, %in : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %half : tensor<8xf16>
}

// -----

// Left as they are: a copy (nothing computes), a body computing in two
// narrow formats, a named op (its body is rebuilt from its types when
// parsed), a lowp.precision pin, a bitcast in the body, ops on buffers.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   arith.extf
// CHECK-NOT:   arith.truncf
// CHECK:       return
#id = affine_map<(i) -> (i)>
func.func @left_alone(%x: tensor<8xbf16>, %h: tensor<8xf16>, %m: memref<8xbf16>)
    -> (tensor<8xbf16>, tensor<8xf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>) {
  %e = tensor.empty() : tensor<8xbf16>
  %copy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<8xbf16>
  %eh = tensor.empty() : tensor<8xf16>
  %half, %both = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%h, %x : tensor<8xf16>, tensor<8xbf16>) outs(%eh, %e : tensor<8xf16>, tensor<8xbf16>) {
  ^bb0(%in: f16, %b: bf16, %out: f16, %out2: bf16):
    %s = arith.mulf %in, %in : f16
    %t = arith.mulf %b, %b : bf16
    linalg.yield %s, %t : f16, bf16
  } -> (tensor<8xf16>, tensor<8xbf16>)
  %named = linalg.add ins(%x, %x : tensor<8xbf16>, tensor<8xbf16>) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  %pinned = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) attrs = {lowp.precision = bf16} {
  ^bb0(%in: bf16, %out: bf16):
    %s = arith.mulf %in, %in : bf16
    linalg.yield %s : bf16
  } -> tensor<8xbf16>
  %bits = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %s = arith.mulf %in, %in : bf16
    %i = arith.bitcast %s : bf16 to i16
    %b = arith.bitcast %i : i16 to bf16
    linalg.yield %b : bf16
  } -> tensor<8xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%m : memref<8xbf16>) outs(%m : memref<8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %s = arith.mulf %in, %in : bf16
    linalg.yield %s : bf16
  }
  return %copy, %half, %named, %pinned, %bits : tensor<8xbf16>, tensor<8xf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>
}
