// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 demote-state=true state-format=f8E4M3FN" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-auto-mixed-precision="target=znver4 policy=bf16 demote-state=true state-format=f8E4M3FN" | FileCheck %s --check-prefix=PIPELINE
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 demote-state=true state-format=f8E5M2" | FileCheck %s --check-prefix=E5M2

// state-format: the state demote-state finds (a decoder's KV cache, the new
// key written into its slot by a select) is stored in FP8. It is widened to
// bf16 where it is read (the scores), and the update is a select of the
// stored bytes and the new key rounded to FP8 (saturating): only the new
// key is rounded, not every slot of the cache on every call.
// CHECK-LABEL: func.func @decode(
// CHECK-SAME:    %[[X:.*]]: tensor<1x64xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[CACHE:[^:]*]]: tensor<8x32xf8E4M3FN>, %[[SLOT:.*]]: tensor<8x1xi1>)
// CHECK-SAME:    -> (tensor<1x8xf32>, tensor<8x32xf8E4M3FN>)
// CHECK:         %[[WIDE:.*]] = lowp.cast %[[CACHE]] : tensor<8x32xf8E4M3FN> to tensor<8x32xbf16>
// CHECK:         %[[K:.*]] = lowp.cast %{{.*}} : tensor<1x32xf32> to tensor<1x32xbf16>
// CHECK:         %[[UPD:.*]] = linalg.generic {{.*}} ins(%[[SLOT]], %[[K]], %[[WIDE]] : tensor<8x1xi1>, tensor<1x32xbf16>, tensor<8x32xbf16>)
// CHECK:         %[[K8:.*]] = lowp.cast %[[K]] saturate : tensor<1x32xbf16> to tensor<1x32xf8E4M3FN>
// CHECK:         %[[STORED:.*]] = linalg.generic {{.*}} ins(%[[SLOT]], %[[K8]], %[[CACHE]] : tensor<8x1xi1>, tensor<1x32xf8E4M3FN>, tensor<8x32xf8E4M3FN>)
// CHECK-NEXT:    ^bb0(%[[M:.*]]: i1, %[[N:.*]]: f8E4M3FN, %[[O:.*]]: f8E4M3FN, %{{.*}}: f8E4M3FN):
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[M]], %[[N]], %[[O]] : f8E4M3FN
// CHECK-NEXT:      linalg.yield %[[S]] : f8E4M3FN
// CHECK:         linalg.matmul {{.*}} ins(%{{.*}}, %[[UPD]] : tensor<1x32xbf16>, tensor<8x32xbf16>)
// CHECK:         return %{{.*}}, %[[STORED]] : tensor<1x8xf32>, tensor<8x32xf8E4M3FN>
// On Zen 4 the select is computed in f32 between exact widenings: the same.
// PIPELINE-LABEL: func.func @decode(
// PIPELINE-SAME:    %[[CACHE:[^:]*]]: tensor<8x32xf8E4M3FN>, %{{.*}}: tensor<8x1xi1>) -> (tensor<1x8xf32>, tensor<8x32xf8E4M3FN>)
// PIPELINE:         %[[STORED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[CACHE]] : tensor<8x1xi1>, tensor<1x32xf8E4M3FN>, tensor<8x32xf8E4M3FN>)
// PIPELINE:         return %{{.*}}, %[[STORED]]
// E5M2 has infinities, which a saturating rounding changes: the stored
// cache's own infinities would not round back to themselves, so the
// whole update is rounded.
// E5M2-LABEL: func.func @decode(
// E5M2:         %[[UPD:.*]] = linalg.generic
// E5M2-NOT:     arith.select {{.*}} : f8E5M2
// E5M2:         %[[STORED:.*]] = lowp.cast %[[UPD]] saturate : tensor<8x32xbf16> to tensor<8x32xf8E5M2>
// E5M2:         return %{{.*}}, %[[STORED]] : tensor<1x8xf32>, tensor<8x32xf8E5M2>
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

// An update that is not an elementwise select (a prompt's keys written into
// the first rows, prefill) is rounded to FP8 as a whole.
// CHECK-LABEL: func.func @prefill(
// CHECK-SAME:    %[[CACHE:[^:]*]]: tensor<8x32xf8E4M3FN>) -> (tensor<1x8xf32>, tensor<8x32xf8E4M3FN>)
// CHECK:         %[[WIDE:.*]] = lowp.cast %[[CACHE]] : tensor<8x32xf8E4M3FN> to tensor<8x32xbf16>
// CHECK:         %[[UPD:.*]] = tensor.insert_slice %{{.*}} into %[[WIDE]][0, 0] [2, 32] [1, 1]
// CHECK:         %[[STORED:.*]] = lowp.cast %[[UPD]] saturate : tensor<8x32xbf16> to tensor<8x32xf8E4M3FN>
// CHECK:         return %{{.*}}, %[[STORED]]
func.func @prefill(%x: tensor<2x64xf32>, %w: tensor<64x32xf32>, %cache: tensor<8x32xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32xf32>) -> tensor<2x32xf32>
  %k = linalg.matmul ins(%x, %w : tensor<2x64xf32>, tensor<64x32xf32>) outs(%f : tensor<2x32xf32>) -> tensor<2x32xf32>
  %upd = tensor.insert_slice %k into %cache[0, 0] [2, 32] [1, 1] : tensor<2x32xf32> into tensor<8x32xf32>
  %q = tensor.extract_slice %k[1, 0] [1, 32] [1, 1] : tensor<2x32xf32> to tensor<1x32xf32>
  %e3 = tensor.empty() : tensor<1x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %scores = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %upd : tensor<1x32xf32>, tensor<8x32xf32>) outs(%f3 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %scores, %upd : tensor<1x8xf32>, tensor<8x32xf32>
}
