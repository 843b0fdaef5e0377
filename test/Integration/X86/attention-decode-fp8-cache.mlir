// Decoding attention whose keys and values are an E4M3 KV cache widened to
// f32 with the new token's key and value selected in at its position (as
// the decisions write an FP8 cache: demote_state="f8E4M3FN"), executed
// through the whole lowp-pipeline-x86: 2 key/value heads with 4 query rows
// each (their scores summed 2 rows at a time on AVX2, 4 on AVX-512), 70
// cached keys (a block of 64 and a rest of 6), the new token at
// position 66, the keys after it masked. The fused kernel computes each
// key and value row from the E4M3 cache as it reads it: no widened copy of
// the cache (the FUSED lines); with fuse-attention=false, the widened
// copies and two GEMMs. Both compared with the same attention in f64 on
// the same values (the cache's E4M3 values widened exactly), which no
// kernel takes: max |out - ref| / max |ref| <= 1e-5.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 fuse-attention=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -mlir-print-ir-after=lowp-x86-lower-contractions \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED

// CHECK-NOT: FAIL
// CHECK: PASS attention_fp8_cache
// CHECK-NOT: FAIL

// FUSED-LABEL: func.func @attention_fp8_cache
// FUSED-NOT:     memref.alloc() {{.*}} : memref<2x70x32xf32>
// FUSED-NOT:     linalg.batch_matmul
// FUSED:         vector.load %{{.*}} : memref<2x70x32xf8E4M3FN>, vector<16xf8E4M3FN>
// FUSED:         } {lowp.parallel}
// FUSED-LABEL: func.func @reference

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>
#hot = affine_map<(g, n, d) -> (0, n, 0)>
#new = affine_map<(g, n, d) -> (g, 0, d)>
#all = affine_map<(b, m, n) -> ()>

func.func @attention_fp8_cache(%q: tensor<2x4x32xf32>, %kc: tensor<2x70x32xf8E4M3FN>,
    %vc: tensor<2x70x32xf8E4M3FN>, %kn: tensor<2x1x32xf32>, %vn: tensor<2x1x32xf32>,
    %hot: tensor<1x70x1xi1>, %mask: tensor<1x1x70xi1>) -> tensor<2x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669529663687 : f32
  %ke = tensor.empty() : tensor<2x70x32xf32>
  %k = linalg.generic {indexing_maps = [#hot, #new, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hot, %kn, %kc : tensor<1x70x1xi1>, tensor<2x1x32xf32>, tensor<2x70x32xf8E4M3FN>) outs(%ke : tensor<2x70x32xf32>) {
  ^bb0(%h: i1, %n: f32, %c: f8E4M3FN, %o: f32):
    %w = arith.extf %c : f8E4M3FN to f32
    %y = arith.select %h, %n, %w : f32
    linalg.yield %y : f32
  } -> tensor<2x70x32xf32>
  %ve = tensor.empty() : tensor<2x70x32xf32>
  %v = linalg.generic {indexing_maps = [#hot, #new, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hot, %vn, %vc : tensor<1x70x1xi1>, tensor<2x1x32xf32>, tensor<2x70x32xf8E4M3FN>) outs(%ve : tensor<2x70x32xf32>) {
  ^bb0(%h: i1, %n: f32, %c: f8E4M3FN, %o: f32):
    %w = arith.extf %c : f8E4M3FN to f32
    %y = arith.select %h, %n, %w : f32
    linalg.yield %y : f32
  } -> tensor<2x70x32xf32>
  %se = tensor.empty() : tensor<2x4x70xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x70xf32>) -> tensor<2x4x70xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x4x32xf32>, tensor<2x70x32xf32>)
      outs(%s0 : tensor<2x4x70xf32>) -> tensor<2x4x70xf32>
  %x = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4x70xf32>, tensor<1x1x70xi1>) outs(%se : tensor<2x4x70xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  } -> tensor<2x4x70xf32>
  %re = tensor.empty() : tensor<2x4x1xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x4x70xf32>) outs(%mx0 : tensor<2x4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x4x70xf32>, tensor<2x4x1xf32>) outs(%se : tensor<2x4x70xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x4x70xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x4x70xf32>) outs(%sm0 : tensor<2x4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1xf32>
  %pe = tensor.empty() : tensor<2x4x70xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x4x70xf32>, tensor<2x4x1xf32>) outs(%pe : tensor<2x4x70xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<2x4x70xf32>
  %oe = tensor.empty() : tensor<2x4x32xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %res = linalg.batch_matmul ins(%p, %v : tensor<2x4x70xf32>, tensor<2x70x32xf32>)
      outs(%o0 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  return %res : tensor<2x4x32xf32>
}

func.func @reference(%q: tensor<2x4x32xf64>, %kc: tensor<2x70x32xf64>,
    %vc: tensor<2x70x32xf64>, %kn: tensor<2x1x32xf64>, %vn: tensor<2x1x32xf64>,
    %hot: tensor<1x70x1xi1>, %mask: tensor<1x1x70xi1>) -> tensor<2x4x32xf64> {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.17677669529663687 : f64
  %ke = tensor.empty() : tensor<2x70x32xf64>
  %k = linalg.generic {indexing_maps = [#hot, #new, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hot, %kn, %kc : tensor<1x70x1xi1>, tensor<2x1x32xf64>, tensor<2x70x32xf64>) outs(%ke : tensor<2x70x32xf64>) {
  ^bb0(%h: i1, %n: f64, %c: f64, %o: f64):
    %zc = arith.constant 0.0 : f64
    %w = arith.addf %c, %zc : f64
    %y = arith.select %h, %n, %w : f64
    linalg.yield %y : f64
  } -> tensor<2x70x32xf64>
  %ve = tensor.empty() : tensor<2x70x32xf64>
  %v = linalg.generic {indexing_maps = [#hot, #new, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hot, %vn, %vc : tensor<1x70x1xi1>, tensor<2x1x32xf64>, tensor<2x70x32xf64>) outs(%ve : tensor<2x70x32xf64>) {
  ^bb0(%h: i1, %n: f64, %c: f64, %o: f64):
    %zc = arith.constant 0.0 : f64
    %w = arith.addf %c, %zc : f64
    %y = arith.select %h, %n, %w : f64
    linalg.yield %y : f64
  } -> tensor<2x70x32xf64>
  %se = tensor.empty() : tensor<2x4x70xf64>
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<2x4x70xf64>) -> tensor<2x4x70xf64>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x4x32xf64>, tensor<2x70x32xf64>)
      outs(%s0 : tensor<2x4x70xf64>) -> tensor<2x4x70xf64>
  %x = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4x70xf64>, tensor<1x1x70xi1>) outs(%se : tensor<2x4x70xf64>) {
  ^bb0(%a: f64, %m: i1, %o: f64):
    %y = arith.mulf %a, %scale : f64
    %z = arith.select %m, %y, %ninf : f64
    linalg.yield %z : f64
  } -> tensor<2x4x70xf64>
  %re = tensor.empty() : tensor<2x4x1xf64>
  %mx0 = linalg.fill ins(%ninf : f64) outs(%re : tensor<2x4x1xf64>) -> tensor<2x4x1xf64>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x4x70xf64>) outs(%mx0 : tensor<2x4x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.maximumf %a, %o : f64
    linalg.yield %y : f64
  } -> tensor<2x4x1xf64>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x4x70xf64>, tensor<2x4x1xf64>) outs(%se : tensor<2x4x70xf64>) {
  ^bb0(%a: f64, %m: f64, %o: f64):
    %d = arith.subf %a, %m : f64
    %y = math.exp %d : f64
    linalg.yield %y : f64
  } -> tensor<2x4x70xf64>
  %sm0 = linalg.fill ins(%zero : f64) outs(%re : tensor<2x4x1xf64>) -> tensor<2x4x1xf64>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x4x70xf64>) outs(%sm0 : tensor<2x4x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.addf %a, %o : f64
    linalg.yield %y : f64
  } -> tensor<2x4x1xf64>
  %pe = tensor.empty() : tensor<2x4x70xf64>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x4x70xf64>, tensor<2x4x1xf64>) outs(%pe : tensor<2x4x70xf64>) {
  ^bb0(%a: f64, %t: f64, %o: f64):
    %y = arith.divf %a, %t : f64
    linalg.yield %y : f64
  } -> tensor<2x4x70xf64>
  %oe = tensor.empty() : tensor<2x4x32xf64>
  %o0 = linalg.fill ins(%zero : f64) outs(%oe : tensor<2x4x32xf64>) -> tensor<2x4x32xf64>
  %res = linalg.batch_matmul ins(%p, %v : tensor<2x4x70xf64>, tensor<2x70x32xf64>)
      outs(%o0 : tensor<2x4x32xf64>) -> tensor<2x4x32xf64>
  return %res : tensor<2x4x32xf64>
}

func.func @make_q(%seed: index) -> tensor<2x4x32xf64> {
  %e = tensor.empty() : tensor<2x4x32xf64>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x4x32xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %t0 = arith.muli %i0, %c131 : index
    %c31 = arith.constant 31 : index
    %t1 = arith.muli %i1, %c31 : index
    %c17 = arith.constant 17 : index
    %t2 = arith.muli %i2, %c17 : index
    %a1 = arith.addi %t0, %t1 : index
    %a2 = arith.addi %a1, %t2 : index
    %s2 = arith.addi %a2, %seed : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i64
    %f = arith.sitofp %di : i64 to f64
    %thirty = arith.constant 30.0 : f64
    %u = arith.divf %f, %thirty : f64
    linalg.yield %u : f64
  } -> tensor<2x4x32xf64>
  return %r : tensor<2x4x32xf64>
}

func.func @make_kv(%seed: index) -> tensor<2x70x32xf64> {
  %e = tensor.empty() : tensor<2x70x32xf64>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x70x32xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %t0 = arith.muli %i0, %c131 : index
    %c31 = arith.constant 31 : index
    %t1 = arith.muli %i1, %c31 : index
    %c17 = arith.constant 17 : index
    %t2 = arith.muli %i2, %c17 : index
    %a1 = arith.addi %t0, %t1 : index
    %a2 = arith.addi %a1, %t2 : index
    %s2 = arith.addi %a2, %seed : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i64
    %f = arith.sitofp %di : i64 to f64
    %thirty = arith.constant 30.0 : f64
    %u = arith.divf %f, %thirty : f64
    linalg.yield %u : f64
  } -> tensor<2x70x32xf64>
  return %r : tensor<2x70x32xf64>
}

func.func @make_new(%seed: index) -> tensor<2x1x32xf64> {
  %e = tensor.empty() : tensor<2x1x32xf64>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x1x32xf64>) {
  ^bb0(%o: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %t0 = arith.muli %i0, %c131 : index
    %c31 = arith.constant 31 : index
    %t1 = arith.muli %i1, %c31 : index
    %c17 = arith.constant 17 : index
    %t2 = arith.muli %i2, %c17 : index
    %a1 = arith.addi %t0, %t1 : index
    %a2 = arith.addi %a1, %t2 : index
    %s2 = arith.addi %a2, %seed : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i64
    %f = arith.sitofp %di : i64 to f64
    %thirty = arith.constant 30.0 : f64
    %u = arith.divf %f, %thirty : f64
    linalg.yield %u : f64
  } -> tensor<2x1x32xf64>
  return %r : tensor<2x1x32xf64>
}

func.func @one_hot() -> tensor<1x70x1xi1> {
  %e = tensor.empty() : tensor<1x70x1xi1>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x70x1xi1>) {
  ^bb0(%o: i1):
    %n = linalg.index 1 : index
    %c = arith.constant 66 : index
    %v = arith.cmpi eq, %n, %c : index
    linalg.yield %v : i1
  } -> tensor<1x70x1xi1>
  return %r : tensor<1x70x1xi1>
}

func.func @visible() -> tensor<1x1x70xi1> {
  %e = tensor.empty() : tensor<1x1x70xi1>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x70xi1>) {
  ^bb0(%o: i1):
    %n = linalg.index 2 : index
    %c = arith.constant 66 : index
    %v = arith.cmpi ule, %n, %c : index
    linalg.yield %v : i1
  } -> tensor<1x1x70xi1>
  return %r : tensor<1x1x70xi1>
}

func.func @q_to_f32(%x: tensor<2x4x32xf64>) -> tensor<2x4x32xf32> {
  %e = tensor.empty() : tensor<2x4x32xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x32xf64>) outs(%e : tensor<2x4x32xf32>) {
  ^bb0(%a: f64, %o: f32):
    %y = arith.truncf %a : f64 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x32xf32>
  return %r : tensor<2x4x32xf32>
}

func.func @q_to_f64(%x: tensor<2x4x32xf32>) -> tensor<2x4x32xf64> {
  %e = tensor.empty() : tensor<2x4x32xf64>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x32xf32>) outs(%e : tensor<2x4x32xf64>) {
  ^bb0(%a: f32, %o: f64):
    %y = arith.extf %a : f32 to f64
    linalg.yield %y : f64
  } -> tensor<2x4x32xf64>
  return %r : tensor<2x4x32xf64>
}

func.func @new_to_f32(%x: tensor<2x1x32xf64>) -> tensor<2x1x32xf32> {
  %e = tensor.empty() : tensor<2x1x32xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x1x32xf64>) outs(%e : tensor<2x1x32xf32>) {
  ^bb0(%a: f64, %o: f32):
    %y = arith.truncf %a : f64 to f32
    linalg.yield %y : f32
  } -> tensor<2x1x32xf32>
  return %r : tensor<2x1x32xf32>
}

func.func @new_to_f64(%x: tensor<2x1x32xf32>) -> tensor<2x1x32xf64> {
  %e = tensor.empty() : tensor<2x1x32xf64>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x1x32xf32>) outs(%e : tensor<2x1x32xf64>) {
  ^bb0(%a: f32, %o: f64):
    %y = arith.extf %a : f32 to f64
    linalg.yield %y : f64
  } -> tensor<2x1x32xf64>
  return %r : tensor<2x1x32xf64>
}

func.func @to_fp8(%x: tensor<2x70x32xf64>) -> tensor<2x70x32xf8E4M3FN> {
  %e = tensor.empty() : tensor<2x70x32xf8E4M3FN>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x70x32xf64>) outs(%e : tensor<2x70x32xf8E4M3FN>) {
  ^bb0(%a: f64, %o: f8E4M3FN):
    %t = arith.truncf %a : f64 to f32
    %y = arith.truncf %t : f32 to f8E4M3FN
    linalg.yield %y : f8E4M3FN
  } -> tensor<2x70x32xf8E4M3FN>
  return %r : tensor<2x70x32xf8E4M3FN>
}

func.func @fp8_to_f64(%x: tensor<2x70x32xf8E4M3FN>) -> tensor<2x70x32xf64> {
  %e = tensor.empty() : tensor<2x70x32xf64>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x70x32xf8E4M3FN>) outs(%e : tensor<2x70x32xf64>) {
  ^bb0(%a: f8E4M3FN, %o: f64):
    %t = arith.extf %a : f8E4M3FN to f32
    %y = arith.extf %t : f32 to f64
    linalg.yield %y : f64
  } -> tensor<2x70x32xf64>
  return %r : tensor<2x70x32xf64>
}

// max |a - b| / max |b|
func.func @relative_error(%a: tensor<2x4x32xf64>, %b: tensor<2x4x32xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #all, #all], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%a, %b : tensor<2x4x32xf64>, tensor<2x4x32xf64>) outs(%init, %init : tensor<f64>, tensor<f64>) {
  ^bb0(%x: f64, %y: f64, %d: f64, %m: f64):
    %diff = arith.subf %x, %y : f64
    %ad = math.absf %diff : f64
    %ay = math.absf %y : f64
    %d2 = arith.maximumf %d, %ad : f64
    %m2 = arith.maximumf %m, %ay : f64
    linalg.yield %d2, %m2 : f64, f64
  } -> (tensor<f64>, tensor<f64>)
  %d = tensor.extract %r#0[] : tensor<f64>
  %m = tensor.extract %r#1[] : tensor<f64>
  %q = arith.divf %d, %m : f64
  return %q : f64
}

func.func @main() {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 7 : index
  %s3 = arith.constant 13 : index
  %s4 = arith.constant 19 : index
  %s5 = arith.constant 23 : index
  %tol = arith.constant 1.0e-5 : f64
  %q = call @make_q(%s1) : (index) -> tensor<2x4x32xf64>
  %k = call @make_kv(%s2) : (index) -> tensor<2x70x32xf64>
  %v = call @make_kv(%s3) : (index) -> tensor<2x70x32xf64>
  %kn = call @make_new(%s4) : (index) -> tensor<2x1x32xf64>
  %vn = call @make_new(%s5) : (index) -> tensor<2x1x32xf64>
  %hot = call @one_hot() : () -> tensor<1x70x1xi1>
  %mask = call @visible() : () -> tensor<1x1x70xi1>
  %q32 = call @q_to_f32(%q) : (tensor<2x4x32xf64>) -> tensor<2x4x32xf32>
  %kn32 = call @new_to_f32(%kn) : (tensor<2x1x32xf64>) -> tensor<2x1x32xf32>
  %vn32 = call @new_to_f32(%vn) : (tensor<2x1x32xf64>) -> tensor<2x1x32xf32>
  %k8 = call @to_fp8(%k) : (tensor<2x70x32xf64>) -> tensor<2x70x32xf8E4M3FN>
  %v8 = call @to_fp8(%v) : (tensor<2x70x32xf64>) -> tensor<2x70x32xf8E4M3FN>
  %o = call @attention_fp8_cache(%q32, %k8, %v8, %kn32, %vn32, %hot, %mask) : (tensor<2x4x32xf32>, tensor<2x70x32xf8E4M3FN>, tensor<2x70x32xf8E4M3FN>, tensor<2x1x32xf32>, tensor<2x1x32xf32>, tensor<1x70x1xi1>, tensor<1x1x70xi1>) -> tensor<2x4x32xf32>
  %qw = call @q_to_f64(%q32) : (tensor<2x4x32xf32>) -> tensor<2x4x32xf64>
  %knw = call @new_to_f64(%kn32) : (tensor<2x1x32xf32>) -> tensor<2x1x32xf64>
  %vnw = call @new_to_f64(%vn32) : (tensor<2x1x32xf32>) -> tensor<2x1x32xf64>
  %kw = call @fp8_to_f64(%k8) : (tensor<2x70x32xf8E4M3FN>) -> tensor<2x70x32xf64>
  %vw = call @fp8_to_f64(%v8) : (tensor<2x70x32xf8E4M3FN>) -> tensor<2x70x32xf64>
  %ref = call @reference(%qw, %kw, %vw, %knw, %vnw, %hot, %mask) : (tensor<2x4x32xf64>, tensor<2x70x32xf64>, tensor<2x70x32xf64>, tensor<2x1x32xf64>, tensor<2x1x32xf64>, tensor<1x70x1xi1>, tensor<1x1x70xi1>) -> tensor<2x4x32xf64>
  %ow = call @q_to_f64(%o) : (tensor<2x4x32xf32>) -> tensor<2x4x32xf64>
  %err = call @relative_error(%ow, %ref) : (tensor<2x4x32xf64>, tensor<2x4x32xf64>) -> f64
  %ok = arith.cmpf ole, %err, %tol : f64
  scf.if %ok {
    vector.print str "PASS attention_fp8_cache "
  } else {
    vector.print str "FAIL attention_fp8_cache "
  }
  vector.print %err : f64
  return
}
