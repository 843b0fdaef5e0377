// RUN: fp-opt %s -lowp-fold-layout-into-contractions -split-input-file | FileCheck %s

// Contractions written as linalg.generic (StableHLO's dot_general,
// generalized IR) or linalg.contract become linalg.matmul /
// linalg.batch_matmul with their maps, which the kernels take.

// CHECK-LABEL: func @generic_matmul
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<16x32xf32>)
// CHECK-NOT: linalg.generic
func.func @generic_matmul(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Loops in another order (k before n), B transposed (nn.Linear's weight),
// the sum written product first: the named op's maps in its own loop order
// (m, n, k).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @generic_linear
// CHECK: linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]]
// CHECK-SAME: ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<32x16xf32>)
func.func @generic_linear(%a: tensor<8x16xf32>, %w: tensor<32x16xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k, j) -> (i, k)>, affine_map<(i, k, j) -> (j, k)>, affine_map<(i, k, j) -> (i, j)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : tensor<8x16xf32>, tensor<32x16xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// bf16 inputs widened in the body, an f32 accumulator, a batch: the named
// op widens its inputs the same way.
// CHECK-LABEL: func @generic_bmm_bf16
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : tensor<4x8x16xbf16>, tensor<4x16x32xbf16>) outs(%arg2 : tensor<4x8x32xf32>)
func.func @generic_bmm_bf16(%a: tensor<4x8x16xbf16>, %b: tensor<4x16x32xbf16>, %c: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8x16xbf16>, tensor<4x16x32xbf16>) outs(%c : tensor<4x8x32xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

// -----

// linalg.contract with a matmul's maps; on buffers too.
// CHECK-LABEL: func @contract_buffers
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<8x16xf32>, memref<16x32xf32>) outs(%arg2 : memref<8x32xf32>)
// CHECK-NOT: linalg.contract
func.func @contract_buffers(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>) {
  linalg.contract indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
    ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%c : memref<8x32xf32>)
  return
}

// -----

// Left alone: a scaled product (another op in the body), a transposed
// output, two reduction loops, a fused multiply-add (not out + a * b).
// CHECK-LABEL: func @not_matmuls
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.batch_matmul
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.matmul
func.func @not_matmuls(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x32xf32>, %ct: tensor<32x8xf32>,
                       %a3: tensor<8x4x16xf32>, %b3: tensor<4x16x32xf32>) -> (tensor<8x32xf32>, tensor<32x8xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
  %r0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %two = arith.constant 2.0 : f32
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %two : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%ct : tensor<32x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(i, j, l, k) -> (i, l, k)>, affine_map<(i, j, l, k) -> (l, k, j)>, affine_map<(i, j, l, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a3, %b3 : tensor<8x4x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r0, %r1, %r2, %r3 : tensor<8x32xf32>, tensor<32x8xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}
