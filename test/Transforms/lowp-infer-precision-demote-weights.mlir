// demote-weights=arguments: an argument read only as matrix op inputs
// (through layout moves) arrives in the format its matrix ops read; an
// argument also read otherwise keeps its type, with a remark.
// RUN: fp-opt %s --split-input-file --verify-diagnostics \
// RUN:   --lowp-infer-precision="low=bf16 demote-weights=arguments" | FileCheck %s
// The default keeps every signature.
// RUN: fp-opt %s --split-input-file \
// RUN:   --lowp-infer-precision="low=bf16" 2>&1 | FileCheck %s --check-prefix=NONE
// NONE-NOT: remark
// NONE: func.func @mlp(%{{.*}}: tensor<8x16xf32>, %{{.*}}: tensor<16x32xf32>, %{{.*}}: tensor<32xf32>, %{{.*}}: tensor<32x4xf32>) -> tensor<8x4xf32>

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// Weights (and the input, which only the first matmul reads) take bf16;
// the bias, added to an f32 accumulator, stays f32. No cast is left on them.
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[X:.*]]: tensor<8x16xbf16>, %[[W1:.*]]: tensor<16x32xbf16>, %[[B1:.*]]: tensor<32xf32>, %[[W2:.*]]: tensor<32x4xbf16>) -> tensor<8x4xf32>
// CHECK-NOT: lowp.cast %[[X]]
// CHECK-NOT: lowp.cast %[[W1]]
// CHECK: linalg.matmul ins(%[[X]], %[[W1]] : tensor<8x16xbf16>, tensor<16x32xbf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %[[W2]] : tensor<8x32xbf16>, tensor<32x4xbf16>)
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
               %w2: tensor<32x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>)
                      outs(%f1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<8x32xf32>, tensor<32x4xf32>)
                      outs(%f2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m2 : tensor<8x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A weight stored transposed (as front ends export nn.Linear) arrives in
// bf16 and is transposed in bf16.
// CHECK-LABEL: func.func @linear(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<16x8xbf16>)
// CHECK: linalg.transpose ins(%[[W]] : tensor<16x8xbf16>)
func.func @linear(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%te : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %xx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.matmul ins(%xx, %wt : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Read as a weight and as an activation (a tied embedding, a residual of
// the input): it stays f32 and the matmul's cast stays in the function.
// CHECK-LABEL: func.func @both(
// CHECK-SAME: %[[X:.*]]: tensor<8x8xf32>, %[[W:.*]]: tensor<8x8xf32>)
// CHECK: lowp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xbf16>
// expected-remark @below {{argument #1 of @both stays tensor<8x8xf32>: it is a weight of linalg.matmul at}}
func.func @both(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %xx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %m = linalg.matmul ins(%xx, %w : tensor<8x8xf32>, tensor<8x8xf32>)
                     outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A matmul pinned to f32 reads its weight at f32: the weight stays f32.
// CHECK-LABEL: func.func @pinned(
// CHECK-SAME: %{{.*}}: tensor<8x8xf32>, %{{.*}}: tensor<8x8xf32>)
// expected-remark @below {{argument #1 of @pinned stays tensor<8x8xf32>: linalg.matmul at}}
func.func @pinned(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %xx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %m = linalg.matmul {lowp.precision = f32} ins(%xx, %w : tensor<8x8xf32>, tensor<8x8xf32>)
                     outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Integer weights are not float values: untouched, no remark.
// CHECK-LABEL: func.func @int8(
// CHECK-SAME: %{{.*}}: tensor<4x8xi8>, %{{.*}}: tensor<8x4xi8>) -> tensor<4x4xi32>
func.func @int8(%x: tensor<4x8xi8>, %w: tensor<8x4xi8>) -> tensor<4x4xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x4xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<4x4xi32>) -> tensor<4x4xi32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xi8>, tensor<8x4xi8>)
                     outs(%f : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %m : tensor<4x4xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A called function's weight is demoted and its callers convert once,
// before the call (the caller's own argument is read by the call, not by a
// matrix op: it keeps its type).
// CHECK-LABEL: func.func private @layer(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x4xbf16>)
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x4xf32>)
// CHECK: %[[C:.*]] = lowp.cast %[[W]] : tensor<8x4xf32> to tensor<8x4xbf16>
// CHECK: call @layer(%[[X]], %[[C]])
func.func private @layer(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %xx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.matmul ins(%xx, %w : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %r = func.call @layer(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
