// RUN: fp-opt %s -split-input-file \
// RUN:   -lowp-x86-lower-contractions="target=znver4" \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-x86-lower-contractions="target=znver4 fuse-attention=false" 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=OFF

// Decoding attention, bufferized: 2 key/value heads, each with 2 query rows
// (grouped-query attention), 84 cached keys (a block of 64 and a rest of
// 20), head dimension 32, bf16 queries, keys and values. Scores scaled and
// masked, softmax, the probabilities rounded to bf16 for P V. One kernel
// per head group (parallel over groups), blocks of 64 keys: each key row is
// read once for both query rows (vdpbf16ps on pairs along d), the partial
// sums of 16 keys go through a tree of shuffles into one vector of scores
// per row, the mask and scale apply to those vectors, the block's max and
// sum come from its 4 vectors, exp takes a vector at a time, the values
// are accumulated in f32, and the output is the accumulators over the sum.
// No linalg op is left.

// CHECK-LABEL: func.func @decode_attention
// CHECK-SAME:    %[[Q:.*]]: memref<2x2x32xbf16>, %[[K:.*]]: memref<2x84x32xbf16>, %[[V:.*]]: memref<2x84x32xbf16>, %[[MASK:.*]]: memref<1x1x84xi1>, %[[O:.*]]: memref<2x2x32xf32>
// CHECK-NOT:   linalg.batch_matmul
// CHECK:       scf.for %[[G:.*]] = %c0 to %c2 step %c1 {
// CHECK:         scf.for %[[K0:.*]] = %c0 to %c64 step %c64 {
// CHECK:           memref.prefetch %[[K]]
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>)
// CHECK:             %[[KV:.*]] = vector.load %[[K]][%[[G]], %[[K0]], {{.*}}] : memref<2x84x32xbf16>, vector<32xbf16>
// CHECK:             %[[Q0:.*]] = vector.load %[[Q]][%[[G]], %c0, {{.*}}] : memref<2x2x32xbf16>, vector<32xbf16>
// CHECK:             x86vector.avx512.dot %{{.*}}, %[[Q0]], %[[KV]]
// CHECK:             %[[Q1:.*]] = vector.load %[[Q]][%[[G]], %c1, {{.*}}]
// CHECK:             x86vector.avx512.dot %{{.*}}, %[[Q1]], %[[KV]]
// Keys 0 and 1 of row 0: lanes of partial sums interleaved, then added.
// CHECK:           vector.shuffle %{{.*}}#0, %{{.*}}#0 [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// CHECK:           vector.shuffle %{{.*}}#0, %{{.*}}#0 [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31]
// CHECK:           arith.addf {{.*}} : vector<16xf32>
// The mask of the first 16 keys, read once for both rows.
// CHECK:           memref.load %[[MASK]][%c0, %c0, %[[K0]]]
// CHECK:           vector.insert {{.*}} [0] : i1 into vector<16xi1>
// CHECK-COUNT-15:  memref.load %[[MASK]]
// CHECK-NOT:       memref.load %[[MASK]]
// CHECK:           arith.mulf {{.*}} : vector<16xf32>
// CHECK:           arith.select {{.*}} : vector<16xi1>, vector<16xf32>
// CHECK-NOT:       memref.load %[[MASK]]
// CHECK:           arith.select {{.*}} : vector<16xi1>, vector<16xf32>
// Row 0's max over the block's 4 vectors, then over the lanes.
// CHECK:           arith.maximumf {{.*}} : vector<16xf32>
// CHECK:           arith.maximumf {{.*}} : vector<16xf32>
// CHECK:           arith.maximumf {{.*}} : vector<16xf32>
// CHECK:           arith.maximumf {{.*}} : vector<8xf32>
// CHECK:           math.exp {{.*}} : f32
// CHECK-COUNT-4:   math.exp {{.*}} : vector<16xf32>
// CHECK:           arith.addf {{.*}} : vector<8xf32>
// Both value vectors of a key for both rows: 4 accumulators over 64 keys.
// CHECK:           scf.for {{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:             vector.load %[[V]][%[[G]], {{.*}}] : memref<2x84x32xbf16>, vector<16xbf16>
// CHECK:             vector.load %[[V]][%[[G]], {{.*}}] : memref<2x84x32xbf16>, vector<16xbf16>
// CHECK-COUNT-4:     vector.fma
// The last 20 keys: a vector of 16 and one of 4, whose mask and other
// operands are read for 4 keys, the other scores -inf.
// CHECK:         memref.load %[[MASK]][%c0, %c0, %c64]
// CHECK:         %[[REST:.*]] = vector.create_mask %c4 : vector<16xi1>
// CHECK:         arith.select %[[REST]], {{.*}}, %cst_{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK:         scf.for {{.*}} = %c0 to %c20 step %c1
// CHECK:         arith.divf {{.*}} : vector<16xf32>
// CHECK:         vector.store {{.*}}, %[[O]][%[[G]], %c0, {{.*}}]
// CHECK:       } {lowp.parallel}
// CHECK-NOT:   linalg.
// CHECK:       return

// OFF-LABEL: func.func @decode_attention
// OFF-NOT:     vector.reduction <maximumf>
// OFF:         linalg.generic
// OFF-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// OFF:           arith.maximumf

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>

func.func @decode_attention(%q: memref<2x2x32xbf16>, %k: memref<2x84x32xbf16>,
                            %v: memref<2x84x32xbf16>, %mask: memref<1x1x84xi1>,
                            %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x2x84xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x84xf32>)
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xbf16>, memref<2x84x32xbf16>)
      outs(%s : memref<2x2x84xf32>)
  %x = memref.alloc() : memref<2x2x84xf32>
  linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<2x2x84xf32>, memref<1x1x84xi1>) outs(%x : memref<2x2x84xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  }
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x2x84xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x84xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x2x84xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x84xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x84xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x84xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x84xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x84xbf16>) {
  ^bb0(%a: f32, %t: f32, %out: bf16):
    %y = arith.divf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x84xbf16>, memref<2x84x32xbf16>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// 32 query rows per head group (a prompt): the GEMM kernels take the two
// contractions, softmax stays, silently.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>

// CHECK-LABEL: func.func @many_rows
// CHECK:         math.exp {{.*}} : f32
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           arith.addf
func.func @many_rows(%q: memref<2x32x32xbf16>, %k: memref<2x20x32xbf16>,
                            %v: memref<2x20x32xbf16>, %mask: memref<1x1x20xi1>,
                            %o: memref<2x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x32x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x32x20xf32>)
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x32x32xbf16>, memref<2x20x32xbf16>)
      outs(%s : memref<2x32x20xf32>)
  %x = memref.alloc() : memref<2x32x20xf32>
  linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<2x32x20xf32>, memref<1x1x20xi1>) outs(%x : memref<2x32x20xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  }
  %mx = memref.alloc() : memref<2x32x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x32x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x32x20xf32>) outs(%mx : memref<2x32x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x32x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x32x20xf32>, memref<2x32x1xf32>) outs(%e : memref<2x32x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x32x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x32x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x32x20xf32>) outs(%sum : memref<2x32x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x32x20xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x32x20xf32>, memref<2x32x1xf32>) outs(%p : memref<2x32x20xbf16>) {
  ^bb0(%a: f32, %t: f32, %out: bf16):
    %y = arith.divf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x32x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x32x20xbf16>, memref<2x20x32xbf16>)
      outs(%o : memref<2x32x32xf32>)
  return
}

// -----

// The masked scores are also copied out: not fused, with the reason.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>

func.func @scores_read_twice(%q: memref<2x2x32xbf16>, %k: memref<2x20x32xbf16>,
                            %v: memref<2x20x32xbf16>, %mask: memref<1x1x20xi1>,
                            %o: memref<2x2x32xf32>, %keep: memref<2x2x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  // expected-remark @+1 {{attention not fused into one kernel per head group: an intermediate of softmax is also read by 'memref.copy'}}
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xbf16>, memref<2x20x32xbf16>)
      outs(%s : memref<2x2x20xf32>)
  %x = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<2x2x20xf32>, memref<1x1x20xi1>) outs(%x : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  }
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xbf16>) {
  ^bb0(%a: f32, %t: f32, %out: bf16):
    %y = arith.divf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  memref.copy %x, %keep : memref<2x2x20xf32> to memref<2x2x20xf32>
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xbf16>, memref<2x20x32xbf16>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// The keys are overwritten between the two contractions: not fused.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>

func.func @keys_written_between(%q: memref<2x2x32xbf16>, %k: memref<2x20x32xbf16>,
                            %v: memref<2x20x32xbf16>, %mask: memref<1x1x20xi1>,
                            %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  // expected-remark @+1 {{attention not fused into one kernel per head group: 'linalg.fill' between the contractions writes what they read}}
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xbf16>, memref<2x20x32xbf16>)
      outs(%s : memref<2x2x20xf32>)
  %x = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<2x2x20xf32>, memref<1x1x20xi1>) outs(%x : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  }
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %zb = arith.constant 0.0 : bf16
  linalg.fill ins(%zb : bf16) outs(%k : memref<2x20x32xbf16>)
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xbf16>) {
  ^bb0(%a: f32, %t: f32, %out: bf16):
    %y = arith.divf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xbf16>, memref<2x20x32xbf16>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// Normalized by a product, not the sum: not fused.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>

func.func @normalized_by_product(%q: memref<2x2x32xbf16>, %k: memref<2x20x32xbf16>,
                            %v: memref<2x20x32xbf16>, %mask: memref<1x1x20xi1>,
                            %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  // expected-remark @+1 {{attention not fused into one kernel per head group: the exponentials are normalized other than divided by their sum}}
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xbf16>, memref<2x20x32xbf16>)
      outs(%s : memref<2x2x20xf32>)
  %x = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<2x2x20xf32>, memref<1x1x20xi1>) outs(%x : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  }
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xbf16>) {
  ^bb0(%a: f32, %t: f32, %out: bf16):
    %y = arith.mulf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xbf16>, memref<2x20x32xbf16>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// The sum starts from 1: not softmax, not fused.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#key = affine_map<(b, m, n) -> (0, 0, n)>

func.func @sum_from_one(%q: memref<2x2x32xbf16>, %k: memref<2x20x32xbf16>,
                            %v: memref<2x20x32xbf16>, %mask: memref<1x1x20xi1>,
                            %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  // expected-remark @+1 {{attention not fused into one kernel per head group: the exponentials are reduced other than by a sum from zero}}
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xbf16>, memref<2x20x32xbf16>)
      outs(%s : memref<2x2x20xf32>)
  %x = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<2x2x20xf32>, memref<1x1x20xi1>) outs(%x : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.select %m, %y, %ninf : f32
    linalg.yield %z : f32
  }
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xbf16>) {
  ^bb0(%a: f32, %t: f32, %out: bf16):
    %y = arith.divf %a, %t : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xbf16>, memref<2x20x32xbf16>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// As torch-mlir exports a bf16 decoder's attention: the scores rounded to
// bf16 on the groups' 2x2 rows, then an additive f32 bias read along the
// keys on a view that splits the 4 rows as 1x4x1 (the ops need not share
// their loop ranges; test/Integration/X86/attention-decode.mlir executes a
// bias per row on such a view). The bias is read as vectors of the block's
// keys, once for both rows (masked for the last 4), and f32 queries and
// keys take FMAs.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#id4 = affine_map<(a, b, c, n) -> (a, b, c, n)>
#bias = affine_map<(a, b, c, n) -> (0, 0, 0, n)>
#row4 = affine_map<(a, b, c, n) -> (a, b, c, 0)>

// CHECK-LABEL: func.func @row_views
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<1x1x1x20xf32>
// CHECK-NOT:   linalg.batch_matmul
// CHECK:       scf.for %[[G:.*]] = %c0 to %c2 step %c1 {
// CHECK:         vector.fma
// CHECK:         arith.truncf {{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK:         vector.load %[[BIAS]][%c0, %c0, %c0, %c0] : memref<1x1x1x20xf32>, vector<16xf32>
// CHECK-NOT:     vector.load %[[BIAS]]
// CHECK:         %[[REST:.*]] = vector.create_mask %c4 : vector<16xi1>
// CHECK:         vector.maskedload %[[BIAS]][%c0, %c0, %c0, %c16], %[[REST]]
// CHECK:         math.exp {{.*}} : vector<16xf32>
// CHECK:       } {lowp.parallel}
// CHECK-NOT:   linalg.
// CHECK:       return
func.func @row_views(%q: memref<2x2x32xf32>, %k: memref<2x20x32xf32>,
                     %v: memref<2x20x32xf32>, %bias: memref<1x1x1x20xf32>,
                     %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xf32>, memref<2x20x32xf32>)
      outs(%s : memref<2x2x20xf32>)
  %r = memref.alloc() : memref<2x2x20xbf16>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : memref<2x2x20xf32>) outs(%r : memref<2x2x20xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  %rv = memref.expand_shape %r [[0, 1], [2], [3]] output_shape [1, 2, 2, 20]
      : memref<2x2x20xbf16> into memref<1x2x2x20xbf16>
  %rw = memref.collapse_shape %rv [[0], [1, 2], [3]]
      : memref<1x2x2x20xbf16> into memref<1x4x20xbf16>
  %rx = memref.expand_shape %rw [[0], [1, 2], [3]] output_shape [1, 4, 1, 20]
      : memref<1x4x20xbf16> into memref<1x4x1x20xbf16>
  %x = memref.alloc() : memref<1x4x1x20xf32>
  linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rx, %bias : memref<1x4x1x20xbf16>, memref<1x1x1x20xf32>) outs(%x : memref<1x4x1x20xf32>) {
  ^bb0(%a: bf16, %c: f32, %out: f32):
    %w = arith.extf %a : bf16 to f32
    %y = arith.addf %w, %c : f32
    linalg.yield %y : f32
  }
  %mx = memref.alloc() : memref<1x4x1x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<1x4x1x1xf32>)
  linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : memref<1x4x1x20xf32>) outs(%mx : memref<1x4x1x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<1x4x1x20xf32>
  linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<1x4x1x20xf32>, memref<1x4x1x1xf32>) outs(%e : memref<1x4x1x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<1x4x1x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<1x4x1x1xf32>)
  linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : memref<1x4x1x20xf32>) outs(%sum : memref<1x4x1x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<1x4x1x20xf32>
  linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<1x4x1x20xf32>, memref<1x4x1x1xf32>) outs(%p : memref<1x4x1x20xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  }
  %pv = memref.collapse_shape %p [[0, 1, 2], [3]] : memref<1x4x1x20xf32> into memref<4x20xf32>
  %pg = memref.expand_shape %pv [[0, 1], [2]] output_shape [2, 2, 20] : memref<4x20xf32> into memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%pg, %v : memref<2x2x20xf32>, memref<2x20x32xf32>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// A bias read along the keys through its first dimension (a column of a
// [keys x 1] buffer): not a vector of the block's keys, so the GEMMs and
// softmax loops stay, with a remark.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>
#column = affine_map<(b, m, n) -> (n, 0)>

// CHECK-LABEL: func.func @bias_along_rows
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           arith.maximumf
func.func @bias_along_rows(%q: memref<2x2x32xf32>, %k: memref<2x20x32xf32>,
                           %v: memref<2x20x32xf32>, %bias: memref<20x1xf32>,
                           %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  // expected-remark @+2 {{attention not fused into one kernel per head group: an operand of the scores is read along the keys other than through its last, contiguous dimension}}
  // expected-remark @+1 {{elementwise consumer not fused into 'linalg.batch_matmul'}}
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xf32>, memref<2x20x32xf32>)
      outs(%s : memref<2x2x20xf32>)
  %x = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #column, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : memref<2x2x20xf32>, memref<20x1xf32>) outs(%x : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %y = arith.addf %a, %c : f32
    linalg.yield %y : f32
  }
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xf32>, memref<2x20x32xf32>)
      outs(%o : memref<2x2x32xf32>)
  return
}

// -----

// Keys widened from a bf16 cache by an elementwise op: the kernel computes
// them from the cache as it reads them, and the widened buffer is gone
// (@keys_computed). When the cache is written between that op and the
// kernel (@cache_written_after_widening), the kernel reads the widened
// buffer, which stays.

#qmap = affine_map<(b, m, n, d) -> (b, m, d)>
#kmap = affine_map<(b, m, n, d) -> (b, n, d)>
#smap = affine_map<(b, m, n, d) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m, 0)>

// CHECK-LABEL: func.func @keys_computed
// CHECK-SAME:    %[[KC:[^:]*]]: memref<2x20x32xbf16>
// CHECK-NOT:     memref.alloc() : memref<2x20x32xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         vector.load %[[KC]]{{.*}} : memref<2x20x32xbf16>, vector<16xbf16>
// CHECK:         arith.extf {{.*}} : vector<16xbf16> to vector<16xf32>
// CHECK:       } {lowp.parallel}
// CHECK-NOT:     memref.dealloc
// CHECK:       return
func.func @keys_computed(%q: memref<2x2x32xf32>, %kc: memref<2x20x32xbf16>,
                         %v: memref<2x20x32xf32>, %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k = memref.alloc() : memref<2x20x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%kc : memref<2x20x32xbf16>) outs(%k : memref<2x20x32xf32>) {
  ^bb0(%a: bf16, %out: f32):
    %w = arith.extf %a : bf16 to f32
    linalg.yield %w : f32
  }
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xf32>, memref<2x20x32xf32>)
      outs(%s : memref<2x2x20xf32>)
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xf32>, memref<2x20x32xf32>)
      outs(%o : memref<2x2x32xf32>)
  memref.dealloc %k : memref<2x20x32xf32>
  return
}

// CHECK-LABEL: func.func @cache_written_after_widening
// CHECK:         %[[K:.*]] = memref.alloc() : memref<2x20x32xf32>
// CHECK:         linalg.generic
// CHECK:         memref.copy
// CHECK:         vector.load %[[K]]{{.*}} : memref<2x20x32xf32>, vector<16xf32>
// CHECK:       } {lowp.parallel}
func.func @cache_written_after_widening(%q: memref<2x2x32xf32>,
    %kc: memref<2x20x32xbf16>, %v: memref<2x20x32xf32>,
    %o: memref<2x2x32xf32>, %next: memref<2x20x32xbf16>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k = memref.alloc() : memref<2x20x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%kc : memref<2x20x32xbf16>) outs(%k : memref<2x20x32xf32>) {
  ^bb0(%a: bf16, %out: f32):
    %w = arith.extf %a : bf16 to f32
    linalg.yield %w : f32
  }
  memref.copy %next, %kc : memref<2x20x32xbf16> to memref<2x20x32xbf16>
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
  linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : memref<2x2x32xf32>, memref<2x20x32xf32>)
      outs(%s : memref<2x2x20xf32>)
  %mx = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%ninf : f32) outs(%mx : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : memref<2x2x20xf32>) outs(%mx : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.maximumf %a, %out : f32
    linalg.yield %y : f32
  }
  %e = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%e : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x2x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x2x20xf32>) outs(%sum : memref<2x2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.addf %a, %out : f32
    linalg.yield %y : f32
  }
  %p = memref.alloc() : memref<2x2x20xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x2x20xf32>, memref<2x2x1xf32>) outs(%p : memref<2x2x20xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x2x32xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xf32>, memref<2x20x32xf32>)
      outs(%o : memref<2x2x32xf32>)
  memref.dealloc %k : memref<2x20x32xf32>
  return
}
