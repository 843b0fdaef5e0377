// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" -canonicalize -split-input-file | FileCheck %s

// Elementwise ops no kernel took as its epilogue, rewritten after the
// kernels: those writing strided views with a contiguous innermost
// dimension (lowp-fold-pad-into-producer: a cast writing the interior of a
// padded buffer, the fills of its border) become loops with the innermost
// dimension a vector of 16 at a time (the affine vectorizer would leave
// them scalar); those on contiguous buffers with rows that are not whole
// vectors are flattened to one dimension.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Rows of 21: vectors at 0 and 5 (a fresh buffer the input is no view of:
// the second rewrites 11 values with the same results).
// CHECK-LABEL: func @cast_into_interior
// CHECK-SAME: (%[[X:.*]]: memref<2x3x21xf32>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<2x5x23xbf16>
// CHECK: %[[V:.*]] = memref.subview %[[A]][0, 1, 1] [2, 3, 21] [1, 1, 1]
// CHECK: scf.for %[[I:.*]] = %c0 to %c2 step %c1
// CHECK: scf.for %[[J:.*]] = %c0 to %c3 step %c1
// CHECK: %[[L0:.*]] = vector.load %[[X]][%[[I]], %[[J]], %c0] : memref<2x3x21xf32>, vector<16xf32>
// CHECK: %[[T0:.*]] = arith.truncf %[[L0]] : vector<16xf32> to vector<16xbf16>
// CHECK: vector.store %[[T0]], %[[V]][%[[I]], %[[J]], %c0]
// CHECK: %[[L1:.*]] = vector.load %[[X]][%[[I]], %[[J]], %c5] : memref<2x3x21xf32>, vector<16xf32>
// CHECK: %[[T1:.*]] = arith.truncf %[[L1]]
// CHECK: vector.store %[[T1]], %[[V]][%[[I]], %[[J]], %c5]
// CHECK-NOT: memref.load
// CHECK-NOT: linalg.generic
func.func @cast_into_interior(%x: memref<2x3x21xf32>) -> memref<2x5x23xbf16> {
  %a = memref.alloc() : memref<2x5x23xbf16>
  %v = memref.subview %a[0, 1, 1] [2, 3, 21] [1, 1, 1] : memref<2x5x23xbf16> to memref<2x3x21xbf16, strided<[115, 23, 1], offset: 24>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x3x21xf32>) outs(%v : memref<2x3x21xbf16, strided<[115, 23, 1], offset: 24>>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  return %a : memref<2x5x23xbf16>
}

// -----

// A per-channel operand (not moving along the innermost loop) is loaded
// once per row and broadcast; the output is an argument (maybe a view of
// the input): the last 5 of 21 element by element.
// CHECK-LABEL: func @scale_rows
// CHECK-SAME: (%[[X:.*]]: memref<3x21xf32>, %[[S:.*]]: memref<3xf32>, %[[O:.*]]: memref<3x21xf32, strided<[23, 1], offset: 24>>)
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1
// CHECK: %[[L:.*]] = vector.load %[[X]][%[[I]], %c0] : memref<3x21xf32>, vector<16xf32>
// CHECK: %[[SC:.*]] = memref.load %[[S]][%[[I]]]
// CHECK: %[[B:.*]] = vector.broadcast %[[SC]] : f32 to vector<16xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[L]], %[[B]] : vector<16xf32>
// CHECK: vector.store %[[M]], %[[O]][%[[I]], %c0]
// CHECK: scf.for %[[K:.*]] = %c16 to %c21 step %c1
// CHECK: memref.load %[[X]][%[[I]], %[[K]]]
// CHECK: memref.store %{{.*}}, %[[O]][%[[I]], %[[K]]]
func.func @scale_rows(%x: memref<3x21xf32>, %s: memref<3xf32>, %o: memref<3x21xf32, strided<[23, 1], offset: 24>>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<3x21xf32>, memref<3xf32>) outs(%o : memref<3x21xf32, strided<[23, 1], offset: 24>>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.mulf %in, %sc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// The border of a padded buffer: a row slab as vector stores of the
// broadcast value, a one-column slab element by element.
// CHECK-LABEL: func @border_fills
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<16xbf16>
// CHECK: %[[ROW:.*]] = memref.subview %{{.*}}[0, 0] [1, 23]
// CHECK: vector.store %[[Z]], %[[ROW]][%c0, %c0]
// CHECK: vector.store %[[Z]], %[[ROW]][%c0, %c7]
// CHECK: %[[COLV:.*]] = memref.subview %{{.*}}[1, 0] [3, 1]
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1
// CHECK: memref.store %{{.*}}, %[[COLV]][%[[I]], %c0]
// CHECK-NOT: linalg.fill
func.func @border_fills() -> memref<5x23xbf16> {
  %zero = arith.constant 0.0 : bf16
  %a = memref.alloc() : memref<5x23xbf16>
  %row = memref.subview %a[0, 0] [1, 23] [1, 1] : memref<5x23xbf16> to memref<1x23xbf16, strided<[23, 1]>>
  linalg.fill ins(%zero : bf16) outs(%row : memref<1x23xbf16, strided<[23, 1]>>)
  %col = memref.subview %a[1, 0] [3, 1] [1, 1] : memref<5x23xbf16> to memref<3x1xbf16, strided<[23, 1], offset: 23>>
  linalg.fill ins(%zero : bf16) outs(%col : memref<3x1xbf16, strided<[23, 1], offset: 23>>)
  return %a : memref<5x23xbf16>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Left to the later steps: identity layouts (the affine vectorizer takes
// them), a view that is not contiguous innermost, a payload that reads its
// position. A copy read through a transpose is a transpose into the view
// (lowp-x86-lower-contractions-permuting-copy): loops here, the blocks of
// 16 x 16 being larger than it.
// CHECK-LABEL: func @not_rewritten
// CHECK-COUNT-2: linalg.generic
// CHECK:         scf.for
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @not_rewritten(%x: memref<4x16xf32>, %y: memref<4x16xf32>, %z: memref<8x32xf32>, %t: memref<16x4xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %every2 = memref.subview %z[0, 0] [4, 16] [1, 2] : memref<8x32xf32> to memref<4x16xf32, strided<[32, 2]>>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x16xf32>) outs(%every2 : memref<4x16xf32, strided<[32, 2]>>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %interior = memref.subview %z[1, 1] [4, 16] [1, 1] : memref<8x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 33>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<16x4xf32>) outs(%interior : memref<4x16xf32, strided<[32, 1], offset: 33>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%interior : memref<4x16xf32, strided<[32, 1], offset: 33>>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  }
  return
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A 3x3 filter's cast on contiguous buffers: rows of 3 would be masked
// vectors of 3; collapsed to one dimension of 1152 for the affine
// vectorizer instead.
// CHECK-LABEL: func @flatten_filter_cast
// CHECK: %[[X:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : memref<16x8x3x3xf32> into memref<1152xf32>
// CHECK: %[[Y:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1, 2, 3]] : memref<16x8x3x3xbf16> into memref<1152xbf16>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[X]] : memref<1152xf32>) outs(%[[Y]] : memref<1152xbf16>)
// CHECK: arith.truncf
func.func @flatten_filter_cast(%x: memref<16x8x3x3xf32>, %y: memref<16x8x3x3xbf16>) {
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<16x8x3x3xf32>) outs(%y : memref<16x8x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Not flattened: rows of whole vectors, a broadcast operand (not an
// identity map), a payload that reads its position.
// CHECK-LABEL: func @not_flattened
// CHECK-NOT: memref.collapse_shape
// CHECK-COUNT-3: linalg.generic
func.func @not_flattened(%a: memref<4x32xf32>, %b: memref<4x32xf32>, %c: memref<4x3xf32>, %d: memref<4xf32>, %e: memref<4x3xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x32xf32>) outs(%b : memref<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %d : memref<4x3xf32>, memref<4xf32>) outs(%e : memref<4x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : memref<4x3xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  }
  return
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A convolution's consumer with rows of 7 (not whole vectors) is still the
// kernel's epilogue: the leftover rewrites run after the kernels.
// CHECK-LABEL: func @epilogue_first
// CHECK-NOT: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]]
// CHECK: x86vector.avx512.dot
// CHECK: arith.maximumf %{{.*}} : vector<16xf32>
// CHECK-NOT: linalg.generic
func.func @epilogue_first(%i: memref<1x8x9x9xbf16>, %f: memref<32x8x3x3xbf16>, %o: memref<1x32x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x32x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x32x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x8x9x9xbf16>, memref<32x8x3x3xbf16>) outs(%c : memref<1x32x7x7xf32>)
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<1x32x7x7xf32>) outs(%o : memref<1x32x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<1x32x7x7xf32>
  return
}

// -----

// Large enough to be worth threads (at least 16384 points, into a fresh
// buffer): the outermost loop that is not a unit dimension is marked for
// lowp-parallelize-loops (threads= of lowp-pipeline-x86; the unit loop
// folds away here). The small ops above are not (no lowp.parallel there).
// CHECK-LABEL: func @large_cast_into_interior
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 {
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c256 step %c16 {
// CHECK: vector.store
// CHECK: } {lowp.parallel}
// CHECK-NEXT: return
func.func @large_cast_into_interior(%x: memref<1x64x256xf32>) -> memref<1x66x258xbf16> {
  %a = memref.alloc() : memref<1x66x258xbf16>
  %v = memref.subview %a[0, 1, 1] [1, 64, 256] [1, 1, 1] : memref<1x66x258xbf16> to memref<1x64x256xbf16, strided<[17028, 258, 1], offset: 259>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x64x256xf32>) outs(%v : memref<1x64x256xbf16, strided<[17028, 258, 1], offset: 259>>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  return %a : memref<1x66x258xbf16>
}

// -----

// Flattened to two dimensions when the dimensions after the outermost
// non-unit one make whole vectors (8 x 48 here): that dimension stays for
// lowp-parallelize-loops to split over threads (it never splits 1-D ops).
// CHECK-LABEL: func @flatten_keeps_channels
// CHECK: memref.collapse_shape %arg0 {{\[\[}}0, 1], [2, 3]] : memref<1x8x4x12xf32> into memref<8x48xf32>
// CHECK: memref.collapse_shape %arg1 {{\[\[}}0, 1], [2, 3]] : memref<1x8x4x12xbf16> into memref<8x48xbf16>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : memref<8x48xf32>) outs(%{{.*}} : memref<8x48xbf16>)
func.func @flatten_keeps_channels(%x: memref<1x8x4x12xf32>, %y: memref<1x8x4x12xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x8x4x12xf32>) outs(%y : memref<1x8x4x12xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// Fills of contiguous buffers (linalg.fill, and tensor.pad's linalg.map with
// no inputs) are vector stores over the buffer flattened to one run: no
// masked stores (rows of 226 would mask every store). 904 elements: 56
// vectors and a last one overlapping (at 888); no threads below 16384.
// CHECK-LABEL: func @fill_rows_not_whole_vectors
// CHECK: %[[F:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<4x226xf32> into memref<904xf32>
// CHECK: scf.for %[[I:.*]] = %c0 to %c896 step %c16 {
// CHECK:   vector.store %{{.*}}, %[[F]][%[[I]]] : memref<904xf32>, vector<16xf32>
// CHECK: }
// CHECK: vector.store %{{.*}}, %[[F]][%c888] : memref<904xf32>, vector<16xf32>
// CHECK-NOT: vector.maskedstore
// CHECK-NOT: lowp.parallel
// CHECK-NOT: linalg.fill
func.func @fill_rows_not_whole_vectors(%a: memref<4x226xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%a : memref<4x226xf32>)
  return
}

// -----

// tensor.pad's fill of a batch's padded buffer (2 x 3 x 226 x 226 =
// 306456 elements): chunks of 4096 are the parallel loop (threads=), then
// the 3352 left over.
// CHECK-LABEL: func @pad_fill_map
// CHECK: %[[F:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : memref<2x3x226x226xbf16> into memref<306456xbf16>
// CHECK: scf.for %[[C:.*]] = %c0 to %c303104 step %c4096 {
// CHECK:   scf.for %[[I:.*]] = %c0 to %c4096 step %c16 {
// CHECK:     vector.store %{{.*}}, %[[F]][%{{.*}}] : memref<306456xbf16>, vector<16xbf16>
// CHECK: } {lowp.parallel}
// CHECK: vector.store %{{.*}}, %[[F]][%c306440] : memref<306456xbf16>, vector<16xbf16>
// CHECK-NOT: linalg.map
func.func @pad_fill_map(%a: memref<2x3x226x226xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.map outs(%a : memref<2x3x226x226xbf16>)
    (%init: bf16) {
      linalg.yield %z : bf16
    }
  return
}

// -----

// Not a constant fill: a map yielding what it computes from its inputs, and
// a fill of a buffer smaller than a vector, stay for the other patterns.
// CHECK-LABEL: func @not_constant_fills
// CHECK-NOT: memref.collapse_shape %arg1
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<3xf32>)
func.func @not_constant_fills(%x: memref<4x226xf32>, %y: memref<4x226xf32>, %s: memref<3xf32>) {
  linalg.map { math.absf } ins(%x : memref<4x226xf32>) outs(%y : memref<4x226xf32>)
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%s : memref<3xf32>)
  return
}
