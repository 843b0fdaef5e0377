// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-gpu-map-row-reductions="target=sm_90" | FileCheck %s
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-gpu-map-row-reductions="target=gfx942" | FileCheck %s --check-prefix=WAVE64

// A LayerNorm as lowp-fuse-elementwise leaves it, bufferized: two fills,
// the row sum, the centred sum of squares (the centring fused in), the
// normalization. One kernel, a block per row (64 rows), 256 threads over the
// 768 columns (8 warps on sm_90, 4 wavefronts on gfx942); each sum is a
// subgroup reduction, a shared-memory exchange between subgroups and a
// second subgroup reduction. The sums never reach memory: nothing outside
// the kernel reads them.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: linalg.
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME: module(@layer_norm_row_reduction) function(@layer_norm_row_reduction)
// CHECK-SAME: workgroup(%[[SH0:.*]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[SH1:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %[[T]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:   memref.load %{{.*}} : memref<64x768xf32>
// CHECK:   arith.addf
// CHECK: %[[W:.*]] = gpu.subgroup_reduce add %[[SUM]] uniform : (f32) -> f32
// CHECK: scf.if
// CHECK:   memref.store %[[W]], %[[SH0]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SH0]]
// CHECK: %[[ROW:.*]] = gpu.subgroup_reduce add
// CHECK: %[[TOTAL:.*]] = arith.addf %[[ROW]], %{{.*}} : f32
// CHECK: scf.for
// CHECK:   arith.mulf %[[TOTAL]]
// CHECK:   arith.subf
// CHECK: gpu.subgroup_reduce add
// CHECK: memref.store %{{.*}}, %[[SH1]]
// CHECK: gpu.barrier
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.for %{{.*}} = %[[T]]
// CHECK:   math.rsqrt
// CHECK:   memref.store %{{.*}} : memref<64x768xf32>
// CHECK-NOT: memref.store
// CHECK: gpu.terminator

// WAVE64-LABEL: func.func @layer_norm
// WAVE64: gpu.launch
// WAVE64-SAME: workgroup(%{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>)
// WAVE64: arith.remui %{{.*}}, %[[C64:.*]] : index
// WAVE64: gpu.subgroup_reduce add
func.func @layer_norm(%x: memref<64x768xf32>, %g: memref<768xf32>, %b: memref<768xf32>, %y: memref<64x768xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.302083e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %sum = memref.alloc() : memref<64xf32>
  %sq = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.fill ins(%zero : f32) outs(%sq : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x768xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : memref<64x768xf32>, memref<64xf32>) outs(%sq : memref<64xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %mean = arith.mulf %s, %inv : f32
    %c = arith.subf %in, %mean : f32
    %c2 = arith.mulf %c, %c : f32
    %r = arith.addf %c2, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %g, %b : memref<64x768xf32>, memref<64xf32>, memref<64xf32>, memref<768xf32>, memref<768xf32>) outs(%y : memref<64x768xf32>) {
  ^bb0(%in: f32, %s: f32, %v: f32, %gi: f32, %bi: f32, %out: f32):
    %mean = arith.mulf %s, %inv : f32
    %c = arith.subf %in, %mean : f32
    %var = arith.mulf %v, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %n = arith.mulf %c, %rs : f32
    %sc = arith.mulf %n, %gi : f32
    %r = arith.addf %sc, %bi : f32
    linalg.yield %r : f32
  }
  memref.dealloc %sum : memref<64xf32>
  memref.dealloc %sq : memref<64xf32>
  return
}

// -----

// Softmax over the last dimension of a 3-D tensor (batch x heads x keys
// folded as rows 2 x 4): the row max (its fill forwarded as the initial
// value), exp(x - max) written once (it is divided later), the sum of the
// exps read back after a barrier (threads wrote them), the division. The
// row max is returned, so it is stored, by thread 0 only. Rows are the two
// leading dimensions, recovered from the block id.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c8, %{{.*}}, %{{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c128,
// CHECK: %[[H:.*]] = arith.remui %[[BX]], %{{.*}} : index
// CHECK: %[[B:.*]] = arith.divui %[[BX]], %{{.*}} : index
// CHECK: gpu.subgroup_reduce maximumf
// CHECK: %[[M:.*]] = arith.maximumf
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[T]], %{{.*}} : index
// CHECK: scf.if %[[IS0]] {
// CHECK:   memref.store %[[M]], %[[MAX]][%[[B]], %[[H]]] : memref<2x4xf32>
// CHECK: scf.for
// CHECK:   arith.subf %{{.*}}, %[[M]]
// CHECK:   math.exp
// CHECK:   memref.store {{.*}} : memref<2x4x100xf32>
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK:   memref.load {{.*}} : memref<2x4x100xf32>
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.for
// CHECK:   arith.divf
// CHECK: gpu.terminator
// WAVE64-LABEL: func.func @softmax
// WAVE64: threads({{.*}}) in (%{{.*}} = %c128,
func.func @softmax(%x: memref<2x4x100xf32>, %y: memref<2x4x100xf32>) -> memref<2x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<2x4xf32>
  %sum = memref.alloc() : memref<2x4xf32>
  %e = memref.alloc() : memref<2x4x100xf32>
  linalg.fill ins(%ninf : f32) outs(%max : memref<2x4xf32>)
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x4x100xf32>) outs(%max : memref<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : memref<2x4x100xf32>, memref<2x4xf32>) outs(%e : memref<2x4x100xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x4xf32>)
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : memref<2x4x100xf32>) outs(%sum : memref<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : memref<2x4x100xf32>, memref<2x4xf32>) outs(%y : memref<2x4x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %p = arith.divf %in, %s : f32
    linalg.yield %p : f32
  }
  memref.dealloc %sum : memref<2x4xf32>
  memref.dealloc %e : memref<2x4x100xf32>
  return %max : memref<2x4xf32>
}

// -----

// A reduction to one value (an FP8 amax): no row dimensions, one block;
// a row of 32 elements takes one warp, so no shared memory on sm_90. An
// integer max over rows of i32 as well.

// CHECK-LABEL: func.func @amax
// CHECK: gpu.launch
// CHECK-NOT: workgroup(
// CHECK: math.absf
// CHECK: gpu.subgroup_reduce maxnumf
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @amax(%x: memref<32xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<32xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = math.absf %in : f32
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// CHECK-LABEL: func.func @int_max
// CHECK: gpu.subgroup_reduce maxsi
func.func @int_max(%x: memref<16x33xi32>, %out: memref<16xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x33xi32>) outs(%out : memref<16xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %m = arith.maxsi %in, %acc : i32
    linalg.yield %m : i32
  }
  return
}

// -----

// What the kernel cannot take stays a linalg op with a remark; contractions
// are not this pass's business (no remark).

// CHECK-LABEL: func.func @fallbacks
// CHECK-NOT: gpu.launch
// CHECK-COUNT-6: linalg.generic
// CHECK: linalg.matmul
// CHECK-NOT: gpu.launch
func.func @fallbacks(%x: memref<?x64xf32>, %s: memref<?xf32>, %a: memref<8x64xf32>, %c: memref<64xf32>,
                     %d: memref<8x64xf64>, %e: memref<8xf64>, %f: memref<8xf32>, %t: memref<8x4x16xf32>,
                     %u: memref<4x8xf32>, %w: memref<64x8xf32>, %mm: memref<8x8xf32>) {
  // expected-remark @below {{no row kernel for 'linalg.generic': dynamic shapes; it runs on the naive mapping (one thread per row)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x64xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  // expected-remark @below {{no row kernel for 'linalg.generic': its reduction loops are not the innermost ones}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<8x64xf32>) outs(%c : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  // expected-remark @below {{no row kernel for 'linalg.generic': its accumulator is wider than 32 bits}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<8x64xf64>) outs(%e : memref<8xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %r = arith.addf %in, %acc : f64
    linalg.yield %r : f64
  }
  // A running decay acc * 0.5 + x is not associative.
  // expected-remark @below {{no row kernel for 'linalg.generic': its body is not an associative combine}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x64xf32>) outs(%f : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %h = arith.constant 0.5 : f32
    %d0 = arith.mulf %acc, %h : f32
    %r = arith.addf %d0, %in : f32
    linalg.yield %r : f32
  }
  // expected-remark @below {{no row kernel for 'linalg.generic': an output is not indexed by the leading parallel loops}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t : memref<8x4x16xf32>) outs(%u : memref<4x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  // An argmax-like pair: the value is selected by a comparison with the
  // accumulator, not combined.
  // expected-remark @below {{no row kernel for 'linalg.generic': its body is not an associative combine}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x64xf32>) outs(%f : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %gt = arith.cmpf ogt, %in, %acc : f32
    %r = arith.select %gt, %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%a, %w : memref<8x64xf32>, memref<64x8xf32>) outs(%mm : memref<8x8xf32>)
  return
}

// -----

// The sum's buffer is read by a copy between the reduction and its
// consumer: the group ends before the copy (which is not a linalg op the
// kernel can take), so the copy sees the stored sum and the consumer runs
// on the naive mapping.

// CHECK-LABEL: func.func @ends_at_copy
// CHECK: gpu.launch
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.if
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: memref.copy
// CHECK: linalg.generic
func.func @ends_at_copy(%x: memref<8x64xf32>, %s: memref<8xf32>, %keep: memref<8xf32>, %y: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x64xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  memref.copy %s, %keep : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x64xf32>, memref<8xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %r = arith.divf %in, %v : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A consumer that reads other rows' statistics (s[j] for row i) cannot
// join: rows are computed by different blocks. The reduction gets its kernel
// alone and stores its sums; the consumer stays on the naive mapping.

// CHECK-LABEL: func.func @reads_other_row
// CHECK: gpu.launch
// CHECK: gpu.subgroup_reduce add
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: linalg.generic
func.func @reads_other_row(%x: memref<8x64xf32>, %s: memref<8xf32>, %z: memref<8x8xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x64xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%z, %s : memref<8x8xf32>, memref<8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %r = arith.divf %in, %v : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A reduction that reads its producer's output transposed reads other rows'
// elements, which other blocks write: no kernel, a remark.

// CHECK-LABEL: func.func @reads_transposed
// CHECK-NOT: gpu.launch
func.func @reads_transposed(%x: memref<64x64xf32>, %s: memref<64xf32>) {
  %p = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%p : memref<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  // expected-remark @below {{no row kernel for 'linalg.generic': the ops around it read or write its rows' buffers outside the row or through another view}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%p : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  memref.dealloc %p : memref<64x64xf32>
  return
}
