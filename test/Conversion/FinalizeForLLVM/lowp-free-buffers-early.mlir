// RUN: fp-opt %s -split-input-file -lowp-free-buffers-early | FileCheck %s

// Each buffer is freed right after the last op that uses it or a view of
// it (a use in a nested region counts for the op holding the region), so
// the next allocation can reuse its memory.
// CHECK-LABEL: func @chain
// CHECK:      %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<64xf32>)
// CHECK-NEXT: %[[V:.*]] = memref.expand_shape %[[A]]
// CHECK-NEXT: scf.for
// CHECK-NEXT:   memref.load %[[V]]
// CHECK-NEXT:   memref.store
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[A]] : memref<64xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<64xf32>) outs(%[[B]] : memref<64xf32>)
// CHECK-NEXT: linalg.copy ins(%[[B]] : memref<64xf32>) outs(%arg1 : memref<64xf32>)
// CHECK-NEXT: memref.dealloc %[[B]] : memref<64xf32>
// CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: memref.dealloc %[[C]] : memref<64xf32>
// CHECK-NEXT: return
func.func @chain(%x: memref<64xf32>, %y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  %v = memref.expand_shape %a [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %v[%i, %i] : memref<8x8xf32>
    memref.store %e, %y[%i] : memref<64xf32>
  }
  %b = memref.alloc() : memref<64xf32>
  linalg.copy ins(%x : memref<64xf32>) outs(%b : memref<64xf32>)
  linalg.copy ins(%b : memref<64xf32>) outs(%y : memref<64xf32>)
  %c = memref.alloc() : memref<64xf32>
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  memref.dealloc %c : memref<64xf32>
  return
}

// -----

// Left where they are: a buffer passed to a call (the callee may keep it),
// a buffer whose view is yielded out of a loop, and deallocs already right
// after the last use (in a nested block, in the function's block).
// CHECK-LABEL: func @escapes
// CHECK:      %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK:      %[[B:.*]] = memref.alloc() : memref<64xf32>
// CHECK:      scf.for
// CHECK:      scf.if
// CHECK:        memref.dealloc %[[D:.*]] : memref<64xf32>
// CHECK:      %[[E:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: linalg.copy ins(%[[E]] : memref<64xf32>) outs(%arg0 : memref<64xf32>)
// CHECK-NEXT: memref.dealloc %[[E]]
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: memref.dealloc %[[A]] : memref<64xf32>
// CHECK-NEXT: memref.dealloc %[[B]] : memref<64xf32>
// CHECK-NEXT: return
func.func private @keep(memref<64xf32>)
func.func @escapes(%x: memref<64xf32>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<64xf32>
  func.call @keep(%a) : (memref<64xf32>) -> ()
  %b = memref.alloc() : memref<64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %x) -> (memref<64xf32>) {
    %s = memref.subview %b[0] [64] [1] : memref<64xf32> to memref<64xf32, strided<[1]>>
    %cast = memref.cast %s : memref<64xf32, strided<[1]>> to memref<64xf32>
    scf.yield %cast : memref<64xf32>
  }
  scf.if %flag {
    %d = memref.alloc() : memref<64xf32>
    linalg.copy ins(%x : memref<64xf32>) outs(%d : memref<64xf32>)
    memref.dealloc %d : memref<64xf32>
  }
  %e = memref.alloc() : memref<64xf32>
  linalg.copy ins(%e : memref<64xf32>) outs(%x : memref<64xf32>)
  memref.dealloc %e : memref<64xf32>
  linalg.copy ins(%r : memref<64xf32>) outs(%x : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  return
}

// -----

// A buffer whose address is taken as an integer (the pointer may be used
// after the buffer's last memref use) keeps its dealloc where it is.
// CHECK-LABEL: func @address_taken
// CHECK:      %[[P:.*]] = memref.alloc() : memref<64xf32>
// CHECK:      memref.extract_aligned_pointer_as_index %[[P]]
// CHECK:      linalg.copy
// CHECK-NEXT: memref.dealloc %[[P]] : memref<64xf32>
// CHECK-NEXT: return
func.func @address_taken(%x: memref<64xf32>, %out: memref<index>) {
  %p = memref.alloc() : memref<64xf32>
  %addr = memref.extract_aligned_pointer_as_index %p : memref<64xf32> -> index
  memref.store %addr, %out[] : memref<index>
  linalg.copy ins(%x : memref<64xf32>) outs(%x : memref<64xf32>)
  memref.dealloc %p : memref<64xf32>
  return
}
