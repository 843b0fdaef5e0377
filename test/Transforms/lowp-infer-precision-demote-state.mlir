// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 demote-state=true" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16" | FileCheck %s --check-prefix=OFF
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 demote-state=true remarks=true" 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fp-opt %s -split-input-file --lowp-auto-mixed-precision="target=znver4 policy=bf16 demote-state=true" | FileCheck %s --check-prefix=PIPELINE

// demote-state: an entry function's state, an argument returned updated
// (here a decoder's KV cache: the new key written into its slot by a
// select) and read only in bf16, is taken and returned in bf16. Nothing
// else at the boundary changes: the input and the weight stay f32 (their
// casts stay inside), the scores are f32 matrix results.
// CHECK-LABEL: func.func @decode(
// CHECK-SAME:    %[[X:.*]]: tensor<1x64xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[CACHE:.*]]: tensor<8x32xbf16>, %[[SLOT:.*]]: tensor<8x1xi1>)
// CHECK-SAME:    -> (tensor<1x8xf32>, tensor<8x32xbf16>)
// CHECK-NOT:     lowp.cast %[[CACHE]]
// CHECK:         %[[UPD:.*]] = linalg.generic {{.*}} ins(%[[SLOT]], %{{.*}}, %[[CACHE]] : tensor<8x1xi1>, tensor<1x32xbf16>, tensor<8x32xbf16>)
// CHECK-NOT:     lowp.cast %[[UPD]]
// CHECK:         return %{{.*}}, %[[UPD]] : tensor<1x8xf32>, tensor<8x32xbf16>
// OFF-LABEL:   func.func @decode(
// OFF-SAME:      -> (tensor<1x8xf32>, tensor<8x32xf32>)
// OFF:           lowp.cast %{{.*}} : tensor<8x32xf32> to tensor<8x32xbf16>
// OFF:           lowp.cast %{{.*}} : tensor<8x32xbf16> to tensor<8x32xf32>
// REMARK:      remark: argument #2 of @decode and result #1 (its update) are tensor<8x32xbf16>: state read only in bf16
// PIPELINE-LABEL: func.func @decode(
// PIPELINE-SAME:    %{{.*}}: tensor<8x32xbf16>, %{{.*}}: tensor<8x1xi1>) -> (tensor<1x8xf32>, tensor<8x32xbf16>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
#col = affine_map<(d0, d1) -> (d0, 0)>
func.func @decode(%x: tensor<1x64xf32>, %w: tensor<64x32xf32>, %cache: tensor<8x32xf32>, %slot: tensor<8x1xi1>) -> (tensor<1x8xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %k = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f : tensor<1x32xf32>) -> tensor<1x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %upd = linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%slot, %k, %cache : tensor<8x1xi1>, tensor<1x32xf32>, tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%m: i1, %n: f32, %o: f32, %out: f32):
    %s = arith.select %m, %n, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<1x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %scores = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%k, %upd : tensor<1x32xf32>, tensor<8x32xf32>) outs(%f3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %scores, %upd : tensor<1x8xf32>, tensor<8x32xf32>
}

// -----

// A prompt's keys written into the first rows of the cache (prefill):
// tensor.insert_slice is an update as well.
// CHECK-LABEL: func.func @prefill(
// CHECK-SAME:    %{{.*}}: tensor<8x32xbf16>) -> (tensor<4x8xf32>, tensor<8x32xbf16>)
// CHECK:         %[[UPD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [4, 32] [1, 1] : tensor<4x32xbf16> into tensor<8x32xbf16>
// CHECK:         return %{{.*}}, %[[UPD]] : tensor<4x8xf32>, tensor<8x32xbf16>
// REMARK:      remark: argument #2 of @prefill and result #1 (its update) are tensor<8x32xbf16>
func.func @prefill(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>, %cache: tensor<8x32xf32>) -> (tensor<4x8xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %k = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  %upd = tensor.insert_slice %k into %cache[0, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %scores = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%k, %upd : tensor<4x32xf32>, tensor<8x32xf32>) outs(%f3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %scores, %upd : tensor<4x8xf32>, tensor<8x32xf32>
}

// -----

// Not state: the second result has the argument's type and is low (a
// matrix op reads it), but it is computed from the argument through a
// matrix op (a projection of the input, not an update of it).
// demote-signatures would narrow both; demote-state leaves the signature.
// CHECK-LABEL: func.func @projection(
// CHECK-SAME:    %{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK:         lowp.cast %{{.*}} : tensor<4x4xbf16> to tensor<4x4xf32>
// CHECK:         return
// REMARK-NOT:  remark: argument #0 of @projection
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @projection(%h: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%h, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %z = linalg.matmul ins(%n, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %z, %n : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A function the module calls keeps its signature (its callers are not
// rewritten).
// CHECK-LABEL: func.func private @called_decode(
// CHECK-SAME:    %{{.*}}: tensor<8x32xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>)
// CHECK-LABEL: func.func @caller(
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#row3 = affine_map<(d0, d1) -> (0, d1)>
func.func private @called_decode(%k: tensor<1x32xf32>, %cache: tensor<8x32xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x32xf32>
  %upd = linalg.generic {indexing_maps = [#row3, #id3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%k, %cache : tensor<1x32xf32>, tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%n: f32, %o: f32, %out: f32):
    %s = arith.addf %n, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<1x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %scores = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%k, %upd : tensor<1x32xf32>, tensor<8x32xf32>) outs(%f3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %scores, %upd : tensor<1x8xf32>, tensor<8x32xf32>
}
func.func @caller(%k: tensor<1x32xf32>, %cache: tensor<8x32xf32>) -> tensor<1x8xf32> {
  %s, %c = func.call @called_decode(%k, %cache) : (tensor<1x32xf32>, tensor<8x32xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>)
  return %s : tensor<1x8xf32>
}

// -----

// State also read at f32 (returned as it came, next to its update) keeps
// its type: narrowing it would change what that reader sees.
// CHECK-LABEL: func.func @read_wide(
// CHECK-SAME:    %{{.*}}: tensor<8x32xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>, tensor<8x32xf32>)
// REMARK-NOT:  remark: argument #1 of @read_wide
#id4 = affine_map<(d0, d1) -> (d0, d1)>
#row4 = affine_map<(d0, d1) -> (0, d1)>
func.func @read_wide(%k: tensor<1x32xf32>, %cache: tensor<8x32xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x32xf32>
  %upd = linalg.generic {indexing_maps = [#row4, #id4, #id4], iterator_types = ["parallel", "parallel"]}
      ins(%k, %cache : tensor<1x32xf32>, tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%n: f32, %o: f32, %out: f32):
    %s = arith.addf %n, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<1x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %scores = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%k, %upd : tensor<1x32xf32>, tensor<8x32xf32>) outs(%f3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %scores, %upd, %cache : tensor<1x8xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}
