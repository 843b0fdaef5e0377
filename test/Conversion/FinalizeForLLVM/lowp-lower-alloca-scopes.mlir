// RUN: fp-opt %s -split-input-file -lowp-lower-alloca-scopes | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-lower-alloca-scopes -convert-scf-to-cf | FileCheck %s --check-prefix=CF

// A parallel loop iteration's stack arena (lowp-plan-workspace) inside the
// scope convert-scf-to-openmp gives its body: the stack pointer saved
// before the inlined body and restored after it, per iteration; the loop
// inside can then become blocks (scf-to-cf), which an alloca_scope may not
// hold.
// CHECK-LABEL: func @iteration_arena
// CHECK-NOT:     memref.alloca_scope
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT:      %[[A:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64xi8>
// CHECK:           scf.for
// CHECK:           llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT:    }
// CF-LABEL: func @iteration_arena
// CF-NOT:     memref.alloca_scope
// CF:         llvm.intr.stacksave
// CF:         cf.br
// CF:         llvm.intr.stackrestore
func.func @iteration_arena(%n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.alloca_scope {
      %a = memref.alloca() {alignment = 64 : i64} : memref<64xi8>
      %v = memref.view %a[%c0][] : memref<64xi8> to memref<16xf32>
      scf.for %j = %c0 to %n step %c1 {
        memref.store %x, %v[%c0] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// Results become the body's values; nested scopes, innermost first.
// CHECK-LABEL: func @nested
// CHECK-NOT:     memref.alloca_scope
// CHECK:         %[[OUTER:.*]] = llvm.intr.stacksave
// CHECK:         %[[INNER:.*]] = llvm.intr.stacksave
// CHECK:         %[[V:.*]] = memref.load
// CHECK:         llvm.intr.stackrestore %[[INNER]]
// CHECK:         llvm.intr.stackrestore %[[OUTER]]
// CHECK:         return %[[V]] : f32
func.func @nested(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %r = memref.alloca_scope -> (f32) {
    %s = memref.alloca_scope -> (f32) {
      %a = memref.alloca() : memref<4xf32>
      memref.store %x, %a[%c0] : memref<4xf32>
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.alloca_scope.return %v : f32
    }
    memref.alloca_scope.return %s : f32
  }
  return %r : f32
}
