// Decoding attention through the whole lowp-pipeline-x86, executed: 2
// key/value heads with 2 query rows each (grouped-query attention), 85
// cached keys (a block of 64 and a rest of 21: a vector of 16 keys and one
// of 5), head dimension 32, the scores scaled and masked (keys 0-65 and
// 81-84 hidden, so the whole first block is masked), softmax, P V. lowp-x86-lower-contractions makes it one kernel per head
// group (AttentionKernel.cpp; the FUSED lines check that it did); with
// fuse-attention=false, two GEMMs and softmax loops.
// Inputs in f32 and in bf16 (bf16 x bf16 products, f32 softmax and
// output), each compared with the same attention in f64 on the same input
// values (the bf16 ones widened), which no kernel takes (generic loops):
// max |out - ref| / max |ref| <= 1e-5 (f32 arithmetic over 85 keys) for
// f32; for bf16 <= 2^-7, and <= 1e-5 where the kernel keeps the
// probabilities in f32 (fused: the KEPT lines) rather than rounding them to bf16 for
// the P V GEMM as the unfused path does (the ROUNDED lines; bf16's 2^-9 unit
// roundoff shows).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefixes=CHECK,KEPT
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 fuse-attention=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefixes=CHECK,ROUNDED
// RUN: %if libomp %{ fp-opt %s -lowp-pipeline-x86="target=avx2 threads=2" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%libomp \
// RUN: | FileCheck %s --check-prefixes=CHECK,KEPT %}
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefixes=CHECK,KEPT %}
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -mlir-print-ir-after=lowp-x86-lower-contractions \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED

// CHECK-NOT: FAIL
// CHECK: PASS attention_f32
// CHECK: PASS attention_bf16
// KEPT-NEXT: probabilities in f32
// ROUNDED-NEXT: probabilities rounded to bf16
// CHECK: PASS attention_rows
// CHECK-NOT: FAIL

// FUSED-LABEL: func.func @attention_f32
// FUSED-NOT:     linalg.batch_matmul
// FUSED:         arith.maximumf {{.*}} : vector<8xf32>
// FUSED:         } {lowp.parallel}
// FUSED-LABEL: func.func @attention_bf16
// FUSED-NOT:     linalg.batch_matmul
// FUSED:         vector.load {{.*}} : memref<2x85x32xbf16>, vector<16xbf16>
// FUSED:         } {lowp.parallel}
// FUSED-LABEL: func.func @reference
// FUSED:         linalg.batch_matmul
// FUSED-LABEL: func.func @rows_f32
// FUSED-NOT:     linalg.batch_matmul
// FUSED:         } {lowp.parallel}
// FUSED-LABEL: func.func @rows_f64
// FUSED:         linalg.batch_matmul

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>
#all = affine_map<(b, m, n) -> ()>
#id4 = affine_map<(a, b, c, n) -> (a, b, c, n)>
#row4 = affine_map<(a, b, c, n) -> (a, b, c, 0)>

func.func @attention_f32(%q: tensor<2x2x32xf32>, %k: tensor<2x85x32xf32>,
    %v: tensor<2x85x32xf32>, %mask: tensor<1x1x85xi1>) -> tensor<2x2x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninfo = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669529663687 : f32
  %se = tensor.empty() : tensor<2x2x85xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x85xf32>) -> tensor<2x2x85xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x2x32xf32>, tensor<2x85x32xf32>)
      outs(%s0 : tensor<2x2x85xf32>) -> tensor<2x2x85xf32>
  %x = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x2x85xf32>, tensor<1x1x85xi1>) outs(%se : tensor<2x2x85xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninfo : f32
    linalg.yield %z : f32
  } -> tensor<2x2x85xf32>
  %re = tensor.empty() : tensor<2x2x1xf32>
  %mx0 = linalg.fill ins(%ninfo : f32) outs(%re : tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x2x85xf32>) outs(%mx0 : tensor<2x2x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x2x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x2x85xf32>, tensor<2x2x1xf32>) outs(%se : tensor<2x2x85xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x85xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%re : tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x85xf32>) outs(%sm0 : tensor<2x2x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x2x1xf32>
  %pe = tensor.empty() : tensor<2x2x85xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x2x85xf32>, tensor<2x2x1xf32>) outs(%pe : tensor<2x2x85xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<2x2x85xf32>
  %oe = tensor.empty() : tensor<2x2x32xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  %res = linalg.batch_matmul ins(%p, %v : tensor<2x2x85xf32>, tensor<2x85x32xf32>)
      outs(%o0 : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  return %res : tensor<2x2x32xf32>
}

func.func @attention_bf16(%q: tensor<2x2x32xbf16>, %k: tensor<2x85x32xbf16>,
    %v: tensor<2x85x32xbf16>, %mask: tensor<1x1x85xi1>) -> tensor<2x2x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninfo = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669529663687 : f32
  %se = tensor.empty() : tensor<2x2x85xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x85xf32>) -> tensor<2x2x85xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x2x32xbf16>, tensor<2x85x32xbf16>)
      outs(%s0 : tensor<2x2x85xf32>) -> tensor<2x2x85xf32>
  %x = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x2x85xf32>, tensor<1x1x85xi1>) outs(%se : tensor<2x2x85xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninfo : f32
    linalg.yield %z : f32
  } -> tensor<2x2x85xf32>
  %re = tensor.empty() : tensor<2x2x1xf32>
  %mx0 = linalg.fill ins(%ninfo : f32) outs(%re : tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x2x85xf32>) outs(%mx0 : tensor<2x2x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x2x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x2x85xf32>, tensor<2x2x1xf32>) outs(%se : tensor<2x2x85xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x85xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%re : tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x85xf32>) outs(%sm0 : tensor<2x2x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x2x1xf32>
  %pe = tensor.empty() : tensor<2x2x85xbf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x2x85xf32>, tensor<2x2x1xf32>) outs(%pe : tensor<2x2x85xbf16>) {
  ^bb0(%a: f32, %t: f32, %o: bf16):
    %y = arith.divf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2x2x85xbf16>
  %oe = tensor.empty() : tensor<2x2x32xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  %res = linalg.batch_matmul ins(%p, %v : tensor<2x2x85xbf16>, tensor<2x85x32xbf16>)
      outs(%o0 : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  return %res : tensor<2x2x32xf32>
}

func.func @reference(%q: tensor<2x2x32xf64>, %k: tensor<2x85x32xf64>,
    %v: tensor<2x85x32xf64>, %mask: tensor<1x1x85xi1>) -> tensor<2x2x32xf64> {
  %zero = arith.constant 0.0 : f64
  %ninfo = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.17677669529663687 : f64
  %se = tensor.empty() : tensor<2x2x85xf64>
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<2x2x85xf64>) -> tensor<2x2x85xf64>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x2x32xf64>, tensor<2x85x32xf64>)
      outs(%s0 : tensor<2x2x85xf64>) -> tensor<2x2x85xf64>
  %x = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x2x85xf64>, tensor<1x1x85xi1>) outs(%se : tensor<2x2x85xf64>) {
  ^bb0(%a: f64, %m: i1, %o: f64):
    %y = arith.mulf %a, %scale : f64
    %z = arith.select %m, %y, %ninfo : f64
    linalg.yield %z : f64
  } -> tensor<2x2x85xf64>
  %re = tensor.empty() : tensor<2x2x1xf64>
  %mx0 = linalg.fill ins(%ninfo : f64) outs(%re : tensor<2x2x1xf64>) -> tensor<2x2x1xf64>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x2x85xf64>) outs(%mx0 : tensor<2x2x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.maximumf %a, %o : f64
    linalg.yield %y : f64
  } -> tensor<2x2x1xf64>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x2x85xf64>, tensor<2x2x1xf64>) outs(%se : tensor<2x2x85xf64>) {
  ^bb0(%a: f64, %m: f64, %o: f64):
    %d = arith.subf %a, %m : f64
    %y = math.exp %d : f64
    linalg.yield %y : f64
  } -> tensor<2x2x85xf64>
  %sm0 = linalg.fill ins(%zero : f64) outs(%re : tensor<2x2x1xf64>) -> tensor<2x2x1xf64>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x85xf64>) outs(%sm0 : tensor<2x2x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.addf %a, %o : f64
    linalg.yield %y : f64
  } -> tensor<2x2x1xf64>
  %pe = tensor.empty() : tensor<2x2x85xf64>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x2x85xf64>, tensor<2x2x1xf64>) outs(%pe : tensor<2x2x85xf64>) {
  ^bb0(%a: f64, %t: f64, %o: f64):
    %y = arith.divf %a, %t : f64
    linalg.yield %y : f64
  } -> tensor<2x2x85xf64>
  %oe = tensor.empty() : tensor<2x2x32xf64>
  %o0 = linalg.fill ins(%zero : f64) outs(%oe : tensor<2x2x32xf64>) -> tensor<2x2x32xf64>
  %res = linalg.batch_matmul ins(%p, %v : tensor<2x2x85xf64>, tensor<2x85x32xf64>)
      outs(%o0 : tensor<2x2x32xf64>) -> tensor<2x2x32xf64>
  return %res : tensor<2x2x32xf64>
}

// Deterministic values in [-scale, scale].
func.func @make_q(%seed: index, %scale: f64) -> tensor<2x2x32xf64> {
  %e = tensor.empty() : tensor<2x2x32xf64>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x2x32xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %l = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %c31 = arith.constant 31 : index
    %c17 = arith.constant 17 : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %a = arith.muli %i, %c131 : index
    %b = arith.muli %j, %c31 : index
    %c = arith.muli %l, %c17 : index
    %s = arith.addi %a, %b : index
    %s1 = arith.addi %s, %c : index
    %s2 = arith.addi %s1, %seed : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i64
    %f = arith.sitofp %di : i64 to f64
    %thirty = arith.constant 30.0 : f64
    %u = arith.divf %f, %thirty : f64
    %v = arith.mulf %u, %scale : f64
    linalg.yield %v : f64
  } -> tensor<2x2x32xf64>
  return %r : tensor<2x2x32xf64>
}

// Deterministic values in [-scale, scale].
func.func @make_kv(%seed: index, %scale: f64) -> tensor<2x85x32xf64> {
  %e = tensor.empty() : tensor<2x85x32xf64>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x85x32xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %l = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %c31 = arith.constant 31 : index
    %c17 = arith.constant 17 : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %a = arith.muli %i, %c131 : index
    %b = arith.muli %j, %c31 : index
    %c = arith.muli %l, %c17 : index
    %s = arith.addi %a, %b : index
    %s1 = arith.addi %s, %c : index
    %s2 = arith.addi %s1, %seed : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i64
    %f = arith.sitofp %di : i64 to f64
    %thirty = arith.constant 30.0 : f64
    %u = arith.divf %f, %thirty : f64
    %v = arith.mulf %u, %scale : f64
    linalg.yield %v : f64
  } -> tensor<2x85x32xf64>
  return %r : tensor<2x85x32xf64>
}

func.func @to_f32_q(%x: tensor<2x2x32xf64>) -> tensor<2x2x32xf32> {
  %e = tensor.empty() : tensor<2x2x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x32xf64>) outs(%e : tensor<2x2x32xf32>) {
  ^bb0(%a: f64, %o: f32):
    %y = arith.truncf %a : f64 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x32xf32>
  return %r : tensor<2x2x32xf32>
}

func.func @to_bf16_q(%x: tensor<2x2x32xf64>) -> tensor<2x2x32xbf16> {
  %e = tensor.empty() : tensor<2x2x32xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x32xf64>) outs(%e : tensor<2x2x32xbf16>) {
  ^bb0(%a: f64, %o: bf16):
    %y = arith.truncf %a : f64 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x2x32xbf16>
  return %r : tensor<2x2x32xbf16>
}

func.func @bf16_to_f64_q(%x: tensor<2x2x32xbf16>) -> tensor<2x2x32xf64> {
  %e = tensor.empty() : tensor<2x2x32xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x32xbf16>) outs(%e : tensor<2x2x32xf64>) {
  ^bb0(%a: bf16, %o: f64):
    %y = arith.extf %a : bf16 to f64
    linalg.yield %y : f64
  } -> tensor<2x2x32xf64>
  return %r : tensor<2x2x32xf64>
}

func.func @f32_to_f64_q(%x: tensor<2x2x32xf32>) -> tensor<2x2x32xf64> {
  %e = tensor.empty() : tensor<2x2x32xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x32xf32>) outs(%e : tensor<2x2x32xf64>) {
  ^bb0(%a: f32, %o: f64):
    %y = arith.extf %a : f32 to f64
    linalg.yield %y : f64
  } -> tensor<2x2x32xf64>
  return %r : tensor<2x2x32xf64>
}

func.func @to_f32_kv(%x: tensor<2x85x32xf64>) -> tensor<2x85x32xf32> {
  %e = tensor.empty() : tensor<2x85x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x85x32xf64>) outs(%e : tensor<2x85x32xf32>) {
  ^bb0(%a: f64, %o: f32):
    %y = arith.truncf %a : f64 to f32
    linalg.yield %y : f32
  } -> tensor<2x85x32xf32>
  return %r : tensor<2x85x32xf32>
}

func.func @to_bf16_kv(%x: tensor<2x85x32xf64>) -> tensor<2x85x32xbf16> {
  %e = tensor.empty() : tensor<2x85x32xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x85x32xf64>) outs(%e : tensor<2x85x32xbf16>) {
  ^bb0(%a: f64, %o: bf16):
    %y = arith.truncf %a : f64 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x85x32xbf16>
  return %r : tensor<2x85x32xbf16>
}

func.func @bf16_to_f64_kv(%x: tensor<2x85x32xbf16>) -> tensor<2x85x32xf64> {
  %e = tensor.empty() : tensor<2x85x32xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x85x32xbf16>) outs(%e : tensor<2x85x32xf64>) {
  ^bb0(%a: bf16, %o: f64):
    %y = arith.extf %a : bf16 to f64
    linalg.yield %y : f64
  } -> tensor<2x85x32xf64>
  return %r : tensor<2x85x32xf64>
}

func.func @f32_to_f64_kv(%x: tensor<2x85x32xf32>) -> tensor<2x85x32xf64> {
  %e = tensor.empty() : tensor<2x85x32xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x85x32xf32>) outs(%e : tensor<2x85x32xf64>) {
  ^bb0(%a: f32, %o: f64):
    %y = arith.extf %a : f32 to f64
    linalg.yield %y : f64
  } -> tensor<2x85x32xf64>
  return %r : tensor<2x85x32xf64>
}

func.func @out_to_f64(%x: tensor<2x2x32xf32>) -> tensor<2x2x32xf64> {
  %e = tensor.empty() : tensor<2x2x32xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x32xf32>) outs(%e : tensor<2x2x32xf64>) {
  ^bb0(%a: f32, %o: f64):
    %y = arith.extf %a : f32 to f64
    linalg.yield %y : f64
  } -> tensor<2x2x32xf64>
  return %r : tensor<2x2x32xf64>
}

func.func @mask() -> tensor<1x1x85xi1> {
  %e = tensor.empty() : tensor<1x1x85xi1>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x85xi1>) {
  ^bb0(%o: i1):
    %n = linalg.index 2 : index
    %c66 = arith.constant 66 : index
    %c81 = arith.constant 81 : index
    %lo = arith.cmpi uge, %n, %c66 : index
    %hi = arith.cmpi ult, %n, %c81 : index
    %v = arith.andi %lo, %hi : i1
    linalg.yield %v : i1
  } -> tensor<1x1x85xi1>
  return %r : tensor<1x1x85xi1>
}

func.func @rows_f32(%q: tensor<2x2x32xf32>, %k: tensor<2x85x32xf32>,
    %v: tensor<2x85x32xf32>, %bias: tensor<1x4x1x85xf32>) -> tensor<2x2x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669529663687 : f32
  %se = tensor.empty() : tensor<2x2x85xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x85xf32>) -> tensor<2x2x85xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x2x32xf32>, tensor<2x85x32xf32>)
      outs(%s0 : tensor<2x2x85xf32>) -> tensor<2x2x85xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x2x85xf32>) outs(%se : tensor<2x2x85xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x2x85xf32>
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x2x85xf32> into tensor<4x85xf32>
  %x4 = tensor.expand_shape %xc [[0, 1, 2], [3]] output_shape [1, 4, 1, 85] : tensor<4x85xf32> into tensor<1x4x1x85xf32>
  %e4 = tensor.empty() : tensor<1x4x1x85xf32>
  %b = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x4, %bias : tensor<1x4x1x85xf32>, tensor<1x4x1x85xf32>) outs(%e4 : tensor<1x4x1x85xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %y = arith.addf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x85xf32>
  %r4 = tensor.empty() : tensor<1x4x1x1xf32>
  %mx0 = linalg.fill ins(%ninf : f32) outs(%r4 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %mx = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%b : tensor<1x4x1x85xf32>) outs(%mx0 : tensor<1x4x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x1xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b, %mx : tensor<1x4x1x85xf32>, tensor<1x4x1x1xf32>) outs(%e4 : tensor<1x4x1x85xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x85xf32>
  %sm0 = linalg.fill ins(%zero : f32) outs(%r4 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %sm = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x4x1x85xf32>) outs(%sm0 : tensor<1x4x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x1xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<1x4x1x85xf32>, tensor<1x4x1x1xf32>) outs(%e4 : tensor<1x4x1x85xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x85xf32>
  %pc = tensor.collapse_shape %p [[0, 1, 2], [3]] : tensor<1x4x1x85xf32> into tensor<4x85xf32>
  %pg = tensor.expand_shape %pc [[0, 1], [2]] output_shape [2, 2, 85] : tensor<4x85xf32> into tensor<2x2x85xf32>
  %oe = tensor.empty() : tensor<2x2x32xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  %res = linalg.batch_matmul ins(%pg, %v : tensor<2x2x85xf32>, tensor<2x85x32xf32>)
      outs(%o0 : tensor<2x2x32xf32>) -> tensor<2x2x32xf32>
  return %res : tensor<2x2x32xf32>
}

func.func @rows_f64(%q: tensor<2x2x32xf64>, %k: tensor<2x85x32xf64>,
    %v: tensor<2x85x32xf64>, %bias: tensor<1x4x1x85xf64>) -> tensor<2x2x32xf64> {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.17677669529663687 : f64
  %se = tensor.empty() : tensor<2x2x85xf64>
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<2x2x85xf64>) -> tensor<2x2x85xf64>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<2x2x32xf64>, tensor<2x85x32xf64>)
      outs(%s0 : tensor<2x2x85xf64>) -> tensor<2x2x85xf64>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x2x85xf64>) outs(%se : tensor<2x2x85xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.mulf %a, %scale : f64
    linalg.yield %y : f64
  } -> tensor<2x2x85xf64>
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x2x85xf64> into tensor<4x85xf64>
  %x4 = tensor.expand_shape %xc [[0, 1, 2], [3]] output_shape [1, 4, 1, 85] : tensor<4x85xf64> into tensor<1x4x1x85xf64>
  %e4 = tensor.empty() : tensor<1x4x1x85xf64>
  %b = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x4, %bias : tensor<1x4x1x85xf64>, tensor<1x4x1x85xf64>) outs(%e4 : tensor<1x4x1x85xf64>) {
  ^bb0(%a: f64, %c: f64, %o: f64):
    %y = arith.addf %a, %c : f64
    linalg.yield %y : f64
  } -> tensor<1x4x1x85xf64>
  %r4 = tensor.empty() : tensor<1x4x1x1xf64>
  %mx0 = linalg.fill ins(%ninf : f64) outs(%r4 : tensor<1x4x1x1xf64>) -> tensor<1x4x1x1xf64>
  %mx = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%b : tensor<1x4x1x85xf64>) outs(%mx0 : tensor<1x4x1x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.maximumf %a, %o : f64
    linalg.yield %y : f64
  } -> tensor<1x4x1x1xf64>
  %ex = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b, %mx : tensor<1x4x1x85xf64>, tensor<1x4x1x1xf64>) outs(%e4 : tensor<1x4x1x85xf64>) {
  ^bb0(%a: f64, %m: f64, %o: f64):
    %d = arith.subf %a, %m : f64
    %y = math.exp %d : f64
    linalg.yield %y : f64
  } -> tensor<1x4x1x85xf64>
  %sm0 = linalg.fill ins(%zero : f64) outs(%r4 : tensor<1x4x1x1xf64>) -> tensor<1x4x1x1xf64>
  %sm = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x4x1x85xf64>) outs(%sm0 : tensor<1x4x1x1xf64>) {
  ^bb0(%a: f64, %o: f64):
    %y = arith.addf %a, %o : f64
    linalg.yield %y : f64
  } -> tensor<1x4x1x1xf64>
  %p = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<1x4x1x85xf64>, tensor<1x4x1x1xf64>) outs(%e4 : tensor<1x4x1x85xf64>) {
  ^bb0(%a: f64, %t: f64, %o: f64):
    %y = arith.divf %a, %t : f64
    linalg.yield %y : f64
  } -> tensor<1x4x1x85xf64>
  %pc = tensor.collapse_shape %p [[0, 1, 2], [3]] : tensor<1x4x1x85xf64> into tensor<4x85xf64>
  %pg = tensor.expand_shape %pc [[0, 1], [2]] output_shape [2, 2, 85] : tensor<4x85xf64> into tensor<2x2x85xf64>
  %oe = tensor.empty() : tensor<2x2x32xf64>
  %o0 = linalg.fill ins(%zero : f64) outs(%oe : tensor<2x2x32xf64>) -> tensor<2x2x32xf64>
  %res = linalg.batch_matmul ins(%pg, %v : tensor<2x2x85xf64>, tensor<2x85x32xf64>)
      outs(%o0 : tensor<2x2x32xf64>) -> tensor<2x2x32xf64>
  return %res : tensor<2x2x32xf64>
}

// A bias per query row and key: -inf where (5 n + 3 h) % 11 == 0 (a
// different set of keys hidden in each of the 4 rows), else
// 0.05 ((n + 2 h) % 7) - 0.1.
func.func @bias() -> tensor<1x4x1x85xf64> {
  %e = tensor.empty() : tensor<1x4x1x85xf64>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x4x1x85xf64>) {
  ^bb0(%o: f64):
    %h = linalg.index 1 : index
    %n = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c0 = arith.constant 0 : index
    %n5 = arith.muli %n, %c5 : index
    %h3 = arith.muli %h, %c3 : index
    %hm = arith.addi %n5, %h3 : index
    %hr = arith.remui %hm, %c11 : index
    %hidden = arith.cmpi eq, %hr, %c0 : index
    %h2 = arith.muli %h, %c2 : index
    %w = arith.addi %n, %h2 : index
    %wr = arith.remui %w, %c7 : index
    %wi = arith.index_cast %wr : index to i64
    %wf = arith.sitofp %wi : i64 to f64
    %step = arith.constant 0.05 : f64
    %off = arith.constant -0.1 : f64
    %val = arith.mulf %wf, %step : f64
    %val2 = arith.addf %val, %off : f64
    %ninf = arith.constant 0xFFF0000000000000 : f64
    %y = arith.select %hidden, %ninf, %val2 : f64
    linalg.yield %y : f64
  } -> tensor<1x4x1x85xf64>
  return %r : tensor<1x4x1x85xf64>
}

func.func @bias_to_f32(%x: tensor<1x4x1x85xf64>) -> tensor<1x4x1x85xf32> {
  %e = tensor.empty() : tensor<1x4x1x85xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x1x85xf64>) outs(%e : tensor<1x4x1x85xf32>) {
  ^bb0(%a: f64, %o: f32):
    %y = arith.truncf %a : f64 to f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x85xf32>
  return %r : tensor<1x4x1x85xf32>
}

// max |a - b| / max |b|
func.func @relative_error(%a: tensor<2x2x32xf64>, %b: tensor<2x2x32xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #all, #all], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%a, %b : tensor<2x2x32xf64>, tensor<2x2x32xf64>) outs(%init, %init : tensor<f64>, tensor<f64>) {
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
  %one = arith.constant 1.0 : f64
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 7 : index
  %s3 = arith.constant 13 : index
  %tol = arith.constant 1.0e-5 : f64
  %q = call @make_q(%s1, %one) : (index, f64) -> tensor<2x2x32xf64>
  %k = call @make_kv(%s2, %one) : (index, f64) -> tensor<2x85x32xf64>
  %v = call @make_kv(%s3, %one) : (index, f64) -> tensor<2x85x32xf64>
  %mask = call @mask() : () -> tensor<1x1x85xi1>

  %q32 = call @to_f32_q(%q) : (tensor<2x2x32xf64>) -> tensor<2x2x32xf32>
  %k32 = call @to_f32_kv(%k) : (tensor<2x85x32xf64>) -> tensor<2x85x32xf32>
  %v32 = call @to_f32_kv(%v) : (tensor<2x85x32xf64>) -> tensor<2x85x32xf32>
  %o32 = call @attention_f32(%q32, %k32, %v32, %mask) : (tensor<2x2x32xf32>, tensor<2x85x32xf32>, tensor<2x85x32xf32>, tensor<1x1x85xi1>) -> tensor<2x2x32xf32>
  %q32w = call @f32_to_f64_q(%q32) : (tensor<2x2x32xf32>) -> tensor<2x2x32xf64>
  %k32w = call @f32_to_f64_kv(%k32) : (tensor<2x85x32xf32>) -> tensor<2x85x32xf64>
  %v32w = call @f32_to_f64_kv(%v32) : (tensor<2x85x32xf32>) -> tensor<2x85x32xf64>
  %ref32 = call @reference(%q32w, %k32w, %v32w, %mask) : (tensor<2x2x32xf64>, tensor<2x85x32xf64>, tensor<2x85x32xf64>, tensor<1x1x85xi1>) -> tensor<2x2x32xf64>
  %o32w = call @out_to_f64(%o32) : (tensor<2x2x32xf32>) -> tensor<2x2x32xf64>
  %e32 = call @relative_error(%o32w, %ref32) : (tensor<2x2x32xf64>, tensor<2x2x32xf64>) -> f64
  %ok32 = arith.cmpf ole, %e32, %tol : f64
  scf.if %ok32 {
    vector.print str "PASS attention_f32 "
  } else {
    vector.print str "FAIL attention_f32 "
  }
  vector.print %e32 : f64

  %qb = call @to_bf16_q(%q) : (tensor<2x2x32xf64>) -> tensor<2x2x32xbf16>
  %kb = call @to_bf16_kv(%k) : (tensor<2x85x32xf64>) -> tensor<2x85x32xbf16>
  %vb = call @to_bf16_kv(%v) : (tensor<2x85x32xf64>) -> tensor<2x85x32xbf16>
  %ob = call @attention_bf16(%qb, %kb, %vb, %mask) : (tensor<2x2x32xbf16>, tensor<2x85x32xbf16>, tensor<2x85x32xbf16>, tensor<1x1x85xi1>) -> tensor<2x2x32xf32>
  %qbw = call @bf16_to_f64_q(%qb) : (tensor<2x2x32xbf16>) -> tensor<2x2x32xf64>
  %kbw = call @bf16_to_f64_kv(%kb) : (tensor<2x85x32xbf16>) -> tensor<2x85x32xf64>
  %vbw = call @bf16_to_f64_kv(%vb) : (tensor<2x85x32xbf16>) -> tensor<2x85x32xf64>
  %refb = call @reference(%qbw, %kbw, %vbw, %mask) : (tensor<2x2x32xf64>, tensor<2x85x32xf64>, tensor<2x85x32xf64>, tensor<1x1x85xi1>) -> tensor<2x2x32xf64>
  %obw = call @out_to_f64(%ob) : (tensor<2x2x32xf32>) -> tensor<2x2x32xf64>
  %eb = call @relative_error(%obw, %refb) : (tensor<2x2x32xf64>, tensor<2x2x32xf64>) -> f64
  %tolb = arith.constant 7.8125e-3 : f64
  %okb = arith.cmpf ole, %eb, %tolb : f64
  scf.if %okb {
    vector.print str "PASS attention_bf16 "
  } else {
    vector.print str "FAIL attention_bf16 "
  }
  vector.print %eb : f64
  %exact = arith.cmpf ole, %eb, %tol : f64
  scf.if %exact {
    vector.print str "probabilities in f32"
  } else {
    vector.print str "probabilities rounded to bf16"
  }

  %bias = call @bias() : () -> tensor<1x4x1x85xf64>
  %bias32 = call @bias_to_f32(%bias) : (tensor<1x4x1x85xf64>) -> tensor<1x4x1x85xf32>
  %or = call @rows_f32(%q32, %k32, %v32, %bias32) : (tensor<2x2x32xf32>, tensor<2x85x32xf32>, tensor<2x85x32xf32>, tensor<1x4x1x85xf32>) -> tensor<2x2x32xf32>
  %refr = call @rows_f64(%q32w, %k32w, %v32w, %bias) : (tensor<2x2x32xf64>, tensor<2x85x32xf64>, tensor<2x85x32xf64>, tensor<1x4x1x85xf64>) -> tensor<2x2x32xf64>
  %orw = call @out_to_f64(%or) : (tensor<2x2x32xf32>) -> tensor<2x2x32xf64>
  %er = call @relative_error(%orw, %refr) : (tensor<2x2x32xf64>, tensor<2x2x32xf64>) -> f64
  %okr = arith.cmpf ole, %er, %tol : f64
  scf.if %okr {
    vector.print str "PASS attention_rows "
  } else {
    vector.print str "FAIL attention_rows "
  }
  vector.print %er : f64
  vector.print str "\n"
  return
}
