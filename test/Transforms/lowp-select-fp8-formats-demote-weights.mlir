// lowp-select-fp8-formats{demote-weights=arguments} on its own: an entry
// function's argument read only through quantizations to one FP8 format
// becomes that FP8 tensor. Static scaling records the scale its caller
// must use as lowp.fp8_scale; current scaling adds an f32 scale argument;
// delayed scaling (an amax history the caller does not have) keeps the
// argument, with a remark.
// RUN: fp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --lowp-select-fp8-formats="target=sm_90 scaling=static demote-weights=arguments" \
// RUN: | FileCheck %s --check-prefix=STATIC
// RUN: fp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --lowp-select-fp8-formats="target=sm_90 scaling=current demote-weights=arguments" \
// RUN: | FileCheck %s --check-prefix=CURRENT
// RUN: fp-opt %s --split-input-file -o /dev/null \
// RUN:   --lowp-select-fp8-formats="target=sm_90 scaling=delayed amax-history=4 demote-weights=arguments" 2>&1 \
// RUN: | FileCheck %s --check-prefix=DELAYED-REMARKS
// RUN: fp-opt %s --split-input-file 2>/dev/null \
// RUN:   --lowp-select-fp8-formats="target=sm_90 scaling=delayed amax-history=4 demote-weights=arguments" \
// RUN: | FileCheck %s --check-prefix=DELAYED

// STATIC-LABEL: func.func @mm(
// STATIC-SAME: %{{.*}}: tensor<4x8xf8E4M3FN> {lowp.fp8_scale = 1.120000e+02 : f32, lowp.stats = {{.*}}}, %{{.*}}: tensor<8x2xf8E4M3FN> {lowp.fp8_scale = 8.960000e+02 : f32, lowp.stats = {{.*}}}) -> tensor<4x2xf32>
// STATIC-NOT: lowp.quantize
// STATIC: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x2xf8E4M3FN>)
// CURRENT-LABEL: func.func @mm(
// CURRENT-SAME: %{{.*}}: tensor<4x8xf8E4M3FN> {lowp.fp8_scale = 2 : i64, {{.*}}}, %{{.*}}: tensor<8x2xf8E4M3FN> {lowp.fp8_scale = 3 : i64, {{.*}}}, %{{.*}}: f32 {lowp.fp8_scale_of = 0 : i64}, %{{.*}}: f32 {lowp.fp8_scale_of = 1 : i64}) -> tensor<4x2xf32>
// CURRENT-NOT: lowp.amax
// CURRENT-NOT: lowp.quantize
// DELAYED-REMARKS: remark: argument #0 of @mm stays tensor<4x8xf32>: its FP8 scale comes from an amax history
// DELAYED-REMARKS: remark: argument #1 of @mm stays tensor<8x2xf32>: its FP8 scale comes from an amax history
// DELAYED-LABEL: func.func @mm(
// DELAYED-SAME: tensor<4x8xf32>
// DELAYED: lowp.quantize
func.func @mm(%a: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 4.0, min = 0.01>},
              %b: tensor<8x2xf32> {lowp.stats = #lowp.stats<amax = 0.5, min = 0.01>}) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>)
                     outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// %b is also added to the result: it stays f32 (a remark says why) and is
// quantized inside; %a is read by the matmul alone and becomes FP8.
// STATIC-LABEL: func.func @also_added(
// STATIC-SAME: tensor<4x4xf8E4M3FN> {lowp.fp8_scale = 1.120000e+02 : f32{{.*}}tensor<4x4xf32>
// STATIC: lowp.quantize %{{.*}} : tensor<4x4xf32>, f32 to tensor<4x4xf8E4M3FN>
// CURRENT-LABEL: func.func @also_added(
// CURRENT-SAME: tensor<4x4xf8E4M3FN> {lowp.fp8_scale = 2 : i64{{.*}}tensor<4x4xf32>{{.*}}f32 {lowp.fp8_scale_of = 0 : i64}) -> tensor<4x4xf32>
// CURRENT: lowp.quantize %{{.*}} : tensor<4x4xf32>, f32 to tensor<4x4xf8E4M3FN>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @also_added(%a: tensor<4x4xf32> {lowp.stats = #lowp.stats<amax = 4.0, min = 0.01>},
    // expected-remark @below {{argument #1 of @also_added stays tensor<4x4xf32>: it is quantized to FP8 and also read by linalg.generic}}
    %b: tensor<4x4xf32> {lowp.stats = #lowp.stats<amax = 0.5, min = 0.01>}) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
