// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-outline-repeated-loops=min-ops=4 | FileCheck %s
// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-outline-repeated-loops | FileCheck %s --check-prefix=DEFAULT

// Two nests the same but for the buffers they read and write: one function,
// its arguments in the order of first use, the constant bounds cloned in.

// CHECK-LABEL: func.func @two_copies(
// CHECK-SAME:    %[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[C:.*]]: memref<64xf32>, %[[D:.*]]: memref<64xf32>)
// CHECK:         call @two_copies_loops0(%[[A]], %[[B]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT:    call @two_copies_loops0(%[[C]], %[[D]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @two_copies_loops0(%[[X:.*]]: memref<64xf32>, %[[Y:.*]]: memref<64xf32>)
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C64]] step %[[C1]] {
// CHECK:           memref.load %[[X]][%[[I]]]
// CHECK:           arith.mulf %{{.*}}, %[[TWO]]
// CHECK:           memref.store %{{.*}}, %[[Y]][%[[I]]]
// CHECK:         return
// The nests have 5 ops, fewer than the default 16: left alone.
// DEFAULT-LABEL: func.func @two_copies(
// DEFAULT-COUNT-2: scf.for
// DEFAULT-NOT:   call
// DEFAULT:     // -----
func.func @two_copies(%a: memref<64xf32>, %b: memref<64xf32>,
                      %c: memref<64xf32>, %d: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %c[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %d[%i] : memref<64xf32>
  }
  return
}

// -----

// Nests that differ in a constant, in a type or in an attribute are not the
// same: nothing is outlined.

// CHECK-LABEL: func.func @not_the_same(
// CHECK-NOT:     call
// CHECK-COUNT-4: affine.for
// CHECK-NOT:     _loops
func.func @not_the_same(%a: memref<64xf32>, %b: memref<64xf32>, %h: memref<64xf16>) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %twoh = arith.constant 2.0 : f16
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %three : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %x = affine.load %h[%i] : memref<64xf16>
    %y = arith.mulf %x, %twoh : f16
    affine.store %y, %h[%i] : memref<64xf16>
  }
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two fastmath<fast> : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// A nest that reads and writes one buffer is not a nest that reads one and
// writes another: outside values must correspond one to one. The third
// nest matches the first.

// CHECK-LABEL: func.func @one_to_one(
// CHECK-SAME:    %[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>)
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant
// CHECK-NEXT:    call @one_to_one_loops0(%[[A]]) : (memref<64xf32>) -> ()
// CHECK-NEXT:    affine.for
// CHECK:         call @one_to_one_loops0(%[[B]]) : (memref<64xf32>) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @one_to_one_loops0(%{{.*}}: memref<64xf32>)
func.func @one_to_one(%a: memref<64xf32>, %b: memref<64xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %a[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    %x = affine.load %b[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// Outside values that are not constants (a dynamic size, a scalar
// argument) become arguments; the loops inside a nest go with it and are
// not outlined apart; a nest that returns values, and one inside another
// loop, stay.

// CHECK-LABEL: func.func @arguments_and_nesting(
// CHECK-SAME:    %[[A:.*]]: memref<?x8xf32>, %[[B:.*]]: memref<?x8xf32>, %[[S:.*]]: f32)
// CHECK-DAG:     %[[N:.*]] = memref.dim %[[A]]
// CHECK-DAG:     %[[M:.*]] = memref.dim %[[B]]
// CHECK:         call @arguments_and_nesting_loops0(%[[N]], %[[A]], %[[S]])
// CHECK-NEXT:    call @arguments_and_nesting_loops0(%[[M]], %[[B]], %[[S]])
// CHECK:         scf.for {{.*}} iter_args
// CHECK:         scf.for {{.*}} iter_args
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:         func.func private @arguments_and_nesting_loops0(%{{.*}}: index, %{{.*}}: memref<?x8xf32>, %{{.*}}: f32)
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-NOT:     func.func private
// CHECK:       // -----
func.func @arguments_and_nesting(%a: memref<?x8xf32>, %b: memref<?x8xf32>, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %a, %c0 : memref<?x8xf32>
  %m = memref.dim %b, %c0 : memref<?x8xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<?x8xf32>
      %y = arith.addf %x, %s : f32
      memref.store %y, %a[%i, %j] : memref<?x8xf32>
    }
  }
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %b[%i, %j] : memref<?x8xf32>
      %y = arith.addf %x, %s : f32
      memref.store %y, %b[%i, %j] : memref<?x8xf32>
    }
  }
  %zero = arith.constant 0.0 : f32
  %r0 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%c0, %i] : memref<?x8xf32>
    %y = arith.addf %acc, %x : f32
    %z = arith.addf %y, %s : f32
    scf.yield %z : f32
  }
  %r1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %r0) -> f32 {
    %x = memref.load %a[%c0, %i] : memref<?x8xf32>
    %y = arith.addf %acc, %x : f32
    %z = arith.addf %y, %s : f32
    scf.yield %z : f32
  }
  // Two copies of one inner loop, inside an outer loop that is itself
  // unique.
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<?x8xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %a[%i, %j] : memref<?x8xf32>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %b[%i, %j] : memref<?x8xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %b[%i, %j] : memref<?x8xf32>
    }
  }
  return %r1 : f32
}

// -----

// Copies in two functions share one function, named after the first; a
// symbol that exists already is not reused (the next free number is
// taken); declarations are skipped.

// CHECK-LABEL: func.func @first(
// CHECK:         call @first_loops1(
// CHECK-LABEL: func.func private @first_loops1(
// CHECK-LABEL: func.func @first_loops0(
// CHECK:         call @first_loops1(
func.func private @external(memref<64xf32>)
func.func @first(%a: memref<64xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %a[%i] : memref<64xf32>
  }
  call @external(%a) : (memref<64xf32>) -> ()
  return
}
func.func @first_loops0(%b: memref<64xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %b[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// A function that runs once (lowp.runs_once: F_prepack) keeps no loop nest of
// its own, so that lowp-unoptimized-run-once-wrappers can compile it without
// optimization: its nests are outlined even where unique and small.

// CHECK-LABEL: func.func @pack_prepack(
// CHECK-NOT:     affine.for
// CHECK:         call @pack_prepack_loops0(
// CHECK-NOT:     affine.for
// CHECK:         return
// CHECK:       func.func private @pack_prepack_loops0(
// CHECK:         affine.for
// DEFAULT-LABEL: func.func @pack_prepack(
// DEFAULT-NOT:   affine.for
// DEFAULT:       call @pack_prepack_loops0(
func.func @pack_prepack(%a: memref<64xf32>) attributes {lowp.runs_once} {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %a[%i] : memref<64xf32>
  }
  return
}
