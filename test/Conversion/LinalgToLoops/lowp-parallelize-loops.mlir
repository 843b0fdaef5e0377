// RUN: fp-opt %s -lowp-parallelize-loops=threads=2 -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-parallelize-loops=threads=1 -split-input-file | FileCheck %s --check-prefix=ONE

// A marked loop becomes an scf.parallel with the same bounds; the marked
// loop nested in it stays a sequential scf.for, and no mark is left.
// CHECK-LABEL: func @marked
// CHECK: scf.parallel (%[[JB:.*]]) = (%c0) to (%c4) step (%c1) {
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[JB]], %{{.*}}]
// CHECK: scf.reduce
// CHECK-NOT: lowp.parallel
// One thread: nothing changes.
// ONE-LABEL: func @marked
// ONE-NOT: scf.parallel
// ONE: lowp.parallel
func.func @marked(%m: memref<4x8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %jb = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c8 step %c1 {
      memref.store %v, %m[%jb, %k] : memref<4x8xf32>
    } {lowp.parallel}
  } {lowp.parallel}
  return
}

// -----

// A marked loop of one iteration (a batch of 1) hands the threads to the
// marked loop inside it.
// CHECK-LABEL: func @batch_of_one
// CHECK: scf.for %{{.*}} = %c0 to %c1
// CHECK: scf.parallel
func.func @batch_of_one(%m: memref<1x8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %b = %c0 to %c1 step %c1 {
    scf.for %k = %c0 to %c8 step %c1 {
      memref.store %v, %m[%b, %k] : memref<1x8xf32>
    } {lowp.parallel}
  } {lowp.parallel}
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// A row reduction of 128 x 768 becomes its affine loop nest with the row
// loop an affine.parallel; the reduction loop inside is unchanged (same
// order), an affine.for for the vectorizer.
// CHECK-LABEL: func @row_sum
// CHECK-NOT: linalg.generic
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (128) {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 768 {
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[J]]] : memref<128x768xf32>
// CHECK-NEXT: affine.load %{{.*}}[%[[I]]] : memref<128xf32>
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store %{{.*}}, %{{.*}}[%[[I]]] : memref<128xf32>
// A column sum (its first dimension a reduction) stays sequential.
// CHECK-LABEL: func @column_sum
// CHECK-NOT: parallel
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
func.func @row_sum(%x: memref<128x768xf32>, %y: memref<128xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x768xf32>) outs(%y : memref<128xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
func.func @column_sum(%x: memref<128x768xf32>, %y: memref<768xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<128x768xf32>) outs(%y : memref<768xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#col3 = affine_map<(d0, d1, d2) -> (d0, d2)>

// A batch of 1 first, as front ends export it: the split is the first
// dimension with more than one iteration (the rows), inside the unit loop.
// CHECK-LABEL: func @batch_of_one_rows
// CHECK-NOT: linalg.generic
// CHECK: affine.for %[[B:.*]] = 0 to 1 {
// CHECK-NEXT: affine.parallel (%[[I:.*]]) = (0) to (128) {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 768 {
// CHECK-NEXT: affine.load %{{.*}}[%[[B]], %[[I]], %[[J]]] : memref<1x128x768xf32>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[B]], %[[I]]] : memref<1x128xf32>
// After the unit dimension comes a reduction: left sequential.
// CHECK-LABEL: func @batch_of_one_columns
// CHECK-NOT: parallel
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
func.func @batch_of_one_rows(%x: memref<1x128x768xf32>, %y: memref<1x128xf32>) {
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<1x128x768xf32>) outs(%y : memref<1x128xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
func.func @batch_of_one_columns(%x: memref<1x128x768xf32>, %y: memref<1x768xf32>) {
  linalg.generic {indexing_maps = [#id3, #col3], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<1x128x768xf32>) outs(%y : memref<1x768xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Left sequential: an op smaller than min-iterations, one with dynamic
// sizes, a full reduction (no parallel dimension), a one-dimensional op
// (its only loop is the vectorizer's), an op whose first dimension is
// labelled parallel but does not index its output (iterations would write
// the same elements), and an op already inside a parallel loop.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: affine.parallel
// CHECK-COUNT-5: linalg.generic
// CHECK: scf.parallel
// CHECK-NOT: affine.parallel
// CHECK: linalg.generic
func.func @left_alone(%s: memref<16x16xf32>, %d: memref<?x?xf32>, %x: memref<256x256xf32>, %z: memref<f32>, %p: memref<4x256x256xf32>, %v: memref<65536xf32>, %c: memref<256xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%s : memref<16x16xf32>) {
  ^bb0(%o: f32):
    %y = arith.addf %o, %o : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%d : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %y = arith.addf %o, %o : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<256x256xf32>) outs(%z : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%v : memref<65536xf32>) {
  ^bb0(%o: f32):
    %y = arith.addf %o, %o : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<256x256xf32>) outs(%c : memref<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
    %slice = memref.subview %p[%b, 0, 0] [1, 256, 256] [1, 1, 1] : memref<4x256x256xf32> to memref<256x256xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%slice : memref<256x256xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%o: f32):
      %y = arith.addf %o, %o : f32
      linalg.yield %y : f32
    }
    scf.reduce
  }
  return
}
