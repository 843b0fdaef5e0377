// RUN: fp-opt %s -lowp-collapse-contiguous-loops -split-input-file | FileCheck %s

// A batch norm's per-channel sum over batch, rows and columns of NCHW: the
// rows and columns (adjacent reductions, contiguous in the input, absent
// from the keep-dim output read at 0) become one loop over the 3136
// elements of a plane; the output is viewed without its unit dimensions.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#keep = affine_map<(n, c, h, w) -> (0, c, 0, 0)>

// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @channel_sum
// CHECK-DAG:   %[[S:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2, 3]] : memref<1x144x1x1xf32> into memref<144xf32>
// CHECK-DAG:   %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<8x144x56x56xf32> into memref<8x144x3136xf32>
// CHECK:       linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK-SAME:    ins(%[[X]] : memref<8x144x3136xf32>) outs(%[[S]] : memref<144xf32>)
// CHECK:         arith.addf
func.func @channel_sum(%x: memref<8x144x56x56xf32>, %s: memref<1x144x1x1xf32>) {
  linalg.generic {indexing_maps = [#x, #keep], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : memref<8x144x56x56xf32>) outs(%s : memref<1x144x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Elementwise with a per-channel operand: the batch and channel loops
// cannot join (the channel operand reads one of them), rows and columns
// do.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>

// CHECK-LABEL: func.func @scale_per_channel
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:    ins(%{{.*}}, %arg1 : memref<2x8x49xf32>, memref<8xf32>) outs(%{{.*}} : memref<2x8x49xf32>)
func.func @scale_per_channel(%x: memref<2x8x7x7xf32>, %k: memref<8xf32>, %y: memref<2x8x7x7xf32>) {
  linalg.generic {indexing_maps = [#x, #ch, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %k : memref<2x8x7x7xf32>, memref<8xf32>) outs(%y : memref<2x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left alone: a window (y + i) is no permutation.
#x = affine_map<(c, y, i) -> (c, y + i)>
#k = affine_map<(c, y, i) -> (i)>
#o = affine_map<(c, y, i) -> (c, y)>

// CHECK-LABEL: func.func @window
// CHECK-NOT:   memref.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel", "reduction"]
func.func @window(%x: memref<4x10xf32>, %k: memref<3xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#x, #k, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %k : memref<4x10xf32>, memref<3xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left alone: a transposing copy (the loops' order differs between the
// maps), a strided view, and a constant index other than 0.
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
#row1 = affine_map<(i, j) -> (1, j)>

// CHECK-LABEL: func.func @transpose
// CHECK-NOT:   memref.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel"]
func.func @transpose(%x: memref<4x8xf32>, %y: memref<8x4xf32>) {
  linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// CHECK-LABEL: func.func @strided_view
// CHECK-NOT:   memref.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel"]
func.func @strided_view(%x: memref<4x8xf32, strided<[16, 1]>>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32, strided<[16, 1]>>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// CHECK-LABEL: func.func @row_one
// CHECK-NOT:   memref.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel"]
func.func @row_one(%x: memref<2x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#row1, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
