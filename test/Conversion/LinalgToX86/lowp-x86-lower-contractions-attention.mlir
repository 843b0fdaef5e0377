// RUN: fp-opt %s -split-input-file \
// RUN:   -lowp-x86-lower-contractions="target=znver4 fuse-attention=true" \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-x86-lower-contractions=target=znver4 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=OFF

// Decoding attention, bufferized: 2 key/value heads, each with 2 query rows
// (grouped-query attention), 20 cached keys (a block of 16 and a rest of 4),
// head dimension 32, bf16 keys and values. Scores scaled and masked,
// softmax, the probabilities rounded to bf16 for P V. One kernel per head
// group (parallel over groups): each key row is read once for both query
// rows, the block's 16 scores go through exp as one vector, the values are
// accumulated in f32, and the output is the accumulators over the sum. No
// linalg op is left.

// CHECK-LABEL: func.func @decode_attention
// CHECK-SAME:    %[[Q:.*]]: memref<2x2x32xbf16>, %[[K:.*]]: memref<2x20x32xbf16>, %[[V:.*]]: memref<2x20x32xbf16>, %[[MASK:.*]]: memref<1x1x20xi1>, %[[O:.*]]: memref<2x2x32xf32>
// CHECK-NOT:   linalg.batch_matmul
// CHECK:       scf.for %[[G:.*]] = %c0 to %c2 step %c1 {
// CHECK:         scf.for %[[K0:.*]] = %c0 to %c16 step %c16 {
// CHECK:           scf.for %[[J:.*]] = %c0 to %c16 step %c1 {
// CHECK:             %[[KEY:.*]] = arith.addi %[[K0]], %[[J]]
// CHECK:             scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>)
// CHECK:               vector.load %[[K]][%[[G]], %[[KEY]], {{.*}}] : memref<2x20x32xbf16>, vector<16xbf16>
// CHECK:                 vector.load %[[Q]][%[[G]], %c0, {{.*}}]
// CHECK:                 vector.fma
// CHECK:                 vector.load %[[Q]][%[[G]], %c1, {{.*}}]
// CHECK:                 vector.fma
// CHECK:             vector.reduction <add>
// CHECK:             memref.load %[[MASK]][%c0, %c0, %[[KEY]]]
// CHECK:             arith.mulf
// CHECK:             arith.select
// CHECK:           vector.reduction <maximumf>
// CHECK:           math.exp {{.*}} : f32
// CHECK:           math.exp {{.*}} : vector<16xf32>
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>)
// CHECK:             vector.load %[[V]][%[[G]], {{.*}}] : memref<2x20x32xbf16>, vector<16xbf16>
// CHECK-COUNT-2:     vector.fma
// The last 4 keys, the rest of the block's scores -inf.
// CHECK:         vector.store %cst, {{.*}} : memref<2x16xf32>, vector<16xf32>
// CHECK:         scf.for {{.*}} = %c0 to %c4 step %c1
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

func.func @decode_attention(%q: memref<2x2x32xbf16>, %k: memref<2x20x32xbf16>,
                            %v: memref<2x20x32xbf16>, %mask: memref<1x1x20xi1>,
                            %o: memref<2x2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669 : f32
  %s = memref.alloc() : memref<2x2x20xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x2x20xf32>)
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
  linalg.batch_matmul ins(%p, %v : memref<2x2x20xbf16>, memref<2x20x32xbf16>)
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
