// RUN: fp-opt %s -split-input-file -lowp-plan-workspace | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-plan-workspace=static-storage=false | FileCheck %s --check-prefix=PERCALL

// Buffers whose lifetimes do not overlap share bytes; a buffer allocated
// in a loop lives as long as the loop (here, with %a: a disjoint range);
// a buffer that is only freed goes away. The workspace is the module's
// global unless another call holds it.
// CHECK-LABEL: memref.global "private" @__lowp_workspace_share : memref<1088xi8> = uninitialized {alignment = 64 : i64}
// CHECK:       memref.global "private" @__lowp_workspace_share_busy : memref<1xi32> = dense<0>
// CHECK-LABEL: func @share
// CHECK:       %[[FLAG:.*]] = memref.get_global @__lowp_workspace_share_busy : memref<1xi32>
// CHECK:       %[[WAS:.*]] = memref.atomic_rmw assign %{{.*}}, %[[FLAG]][%{{.*}}] : (i32, memref<1xi32>) -> i32
// CHECK:       %[[FREE:.*]] = arith.cmpi eq, %[[WAS]], %{{.*}} : i32
// CHECK:       %[[WS:.*]] = scf.if %[[FREE]] -> (memref<1088xi8>) {
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @__lowp_workspace_share : memref<1088xi8>
// CHECK-NEXT:    scf.yield %[[G]]
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %[[OWN:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1088xi8>
// CHECK-NEXT:    scf.yield %[[OWN]]
// CHECK-NEXT:  }
// CHECK:       %[[A:.*]] = memref.view %[[WS]][%c0{{.*}}][] : memref<1088xi8> to memref<256xf32>
// CHECK-NEXT:  linalg.copy ins(%{{.*}}) outs(%[[A]] : memref<256xf32>)
// CHECK:       scf.for
// CHECK-NEXT:    %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[P:.*]] = memref.view %[[WS]][%[[C1024]]][] : memref<1088xi8> to memref<16xf32>
// CHECK-NEXT:    linalg.fill ins(%{{.*}}) outs(%[[P]] : memref<16xf32>)
// CHECK-NEXT:  }
// CHECK:       %[[C:.*]] = memref.view %[[WS]][%c0{{.*}}][] : memref<1088xi8> to memref<256xf32>
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   memref.dealloc %{{.*}} : memref<{{.*}}xf32>
// CHECK:       scf.if %[[FREE]] {
// CHECK-NEXT:    memref.atomic_rmw assign %{{.*}}, %[[FLAG]][%{{.*}}] : (i32, memref<1xi32>) -> i32
// CHECK-NEXT:  } else {
// CHECK-NEXT:    memref.dealloc %[[WS]] : memref<1088xi8>
// CHECK-NEXT:  }
// CHECK-NEXT:  return
// PERCALL-LABEL: func @share
// PERCALL-NOT:   memref.global
// PERCALL:       %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1088xi8>
// PERCALL:       memref.view %[[WS]]
// PERCALL:       memref.view %[[WS]]
// PERCALL:       memref.view %[[WS]]
// PERCALL:       memref.dealloc %[[WS]] : memref<1088xi8>
// PERCALL-NEXT:  return
func.func @share(%x: memref<256xf32>, %y: memref<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  linalg.copy ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %unused = memref.alloc() : memref<100xbf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %p = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%p : memref<16xf32>)
    memref.dealloc %p : memref<16xf32>
  }
  memref.dealloc %unused : memref<100xbf16>
  linalg.copy ins(%a : memref<256xf32>) outs(%y : memref<256xf32>)
  memref.dealloc %a : memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  linalg.copy ins(%x : memref<256xf32>) outs(%c : memref<256xf32>)
  linalg.copy ins(%c : memref<256xf32>) outs(%y : memref<256xf32>)
  memref.dealloc %c : memref<256xf32>
  return
}

// -----

// Largest first, each at the lowest offset free of the buffers living at
// the same time: the f32 buffer at 0; the f16 one at its alignment (128)
// past it, 256; the 3 bytes of i8 in the gap at 192 (the 64-byte minimum).
// The global takes the largest alignment.
// CHECK-LABEL: memref.global "private" @__lowp_workspace_aligned : memref<320xi8> = uninitialized {alignment = 128 : i64}
// CHECK-LABEL: func @aligned
// CHECK-DAG:   memref.view %{{.*}}[%c0{{.*}}][] : memref<320xi8> to memref<48xf32>
// CHECK-DAG:   memref.view %{{.*}}[%c256{{.*}}][] : memref<320xi8> to memref<4xf16>
// CHECK-DAG:   memref.view %{{.*}}[%c192{{.*}}][] : memref<320xi8> to memref<3xi8>
func.func @aligned(%x: f32, %h: f16, %b: i8, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %f = memref.alloc() : memref<48xf32>
  %g = memref.alloc() {alignment = 128 : i64} : memref<4xf16>
  %i = memref.alloc() : memref<3xi8>
  memref.store %x, %f[%c0] : memref<48xf32>
  memref.store %h, %g[%c0] : memref<4xf16>
  memref.store %b, %i[%c0] : memref<3xi8>
  %v = memref.load %f[%c0] : memref<48xf32>
  memref.store %v, %out[] : memref<f32>
  memref.dealloc %f : memref<48xf32>
  memref.dealloc %g : memref<4xf16>
  memref.dealloc %i : memref<3xi8>
  return
}

// -----

// Each function gets its own workspace, next to it (a name taken is
// renamed).
// CHECK:       memref.global "private" @__lowp_workspace_second : memref<4xi8>
// CHECK:       memref.global "private" @__lowp_workspace_first : memref<64xi8>
// CHECK:       memref.global "private" @__lowp_workspace_first_busy
// CHECK-LABEL: func @first
// CHECK:       memref.get_global @__lowp_workspace_first : memref<64xi8>
// CHECK:       memref.global "private" @__lowp_workspace_second_0 : memref<128xi8>
// CHECK:       memref.global "private" @__lowp_workspace_second_0_busy
// CHECK-LABEL: func @second
// CHECK:       memref.get_global @__lowp_workspace_second_0 : memref<128xi8>
memref.global "private" @__lowp_workspace_second : memref<4xi8> = uninitialized
func.func @first(%x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
func.func @second(%x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xf32>
  memref.store %x, %a[%c0] : memref<32xf32>
  memref.dealloc %a : memref<32xf32>
  return
}

// -----

// Left alone: a dynamic size, a layout, a memory space, index and vector
// elements, a buffer returned to the caller, one freed in another block, one
// allocated in an op the pass does not know (here: a linalg.generic body),
// and nothing planned means no workspace.
// CHECK-NOT: memref.global
// CHECK-LABEL: func @left_alone
// CHECK-NOT:   memref.view
// CHECK-NOT:   atomic_rmw
// CHECK:       memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:       memref.alloc() : memref<8xf32, strided<[2]>>
// CHECK:       memref.alloc() : memref<8xf32, 1>
// CHECK:       memref.alloc() : memref<8xindex>
// CHECK:       memref.alloc() : memref<8xvector<4xf32>>
// CHECK:       memref.alloc() : memref<8xf32>
// CHECK:       memref.alloc() : memref<16xf32>
// CHECK:       scf.if
// CHECK:         memref.dealloc
// CHECK:       linalg.generic
// CHECK:         memref.alloc() : memref<2xf32>
// CHECK:         memref.dealloc
// CHECK-NOT:   memref.view
// CHECK:       return
func.func @left_alone(%n: index, %x: f32, %cond: i1, %m: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %dyn = memref.alloc(%n) : memref<?xf32>
  memref.store %x, %dyn[%c0] : memref<?xf32>
  memref.dealloc %dyn : memref<?xf32>
  %strided = memref.alloc() : memref<8xf32, strided<[2]>>
  memref.store %x, %strided[%c0] : memref<8xf32, strided<[2]>>
  memref.dealloc %strided : memref<8xf32, strided<[2]>>
  %space = memref.alloc() : memref<8xf32, 1>
  memref.store %x, %space[%c0] : memref<8xf32, 1>
  memref.dealloc %space : memref<8xf32, 1>
  %idx = memref.alloc() : memref<8xindex>
  memref.store %c0, %idx[%c0] : memref<8xindex>
  memref.dealloc %idx : memref<8xindex>
  %vec = memref.alloc() : memref<8xvector<4xf32>>
  %v = vector.broadcast %x : f32 to vector<4xf32>
  memref.store %v, %vec[%c0] : memref<8xvector<4xf32>>
  memref.dealloc %vec : memref<8xvector<4xf32>>
  %returned = memref.alloc() : memref<8xf32>
  memref.store %x, %returned[%c0] : memref<8xf32>
  %elsewhere = memref.alloc() : memref<16xf32>
  memref.store %x, %elsewhere[%c0] : memref<16xf32>
  scf.if %cond {
    memref.dealloc %elsewhere : memref<16xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%m : memref<8xf32>) {
  ^bb0(%o: f32):
    %t = memref.alloc() : memref<2xf32>
    memref.store %o, %t[%c0] : memref<2xf32>
    %r = memref.load %t[%c0] : memref<2xf32>
    memref.dealloc %t : memref<2xf32>
    linalg.yield %r : f32
  }
  return %returned : memref<8xf32>
}

// -----

// A body of several blocks is left alone, and so is a declaration.
// CHECK-NOT: memref.global
// CHECK-LABEL: func @blocks
// CHECK:       memref.alloc() : memref<8xf32>
// CHECK:       memref.dealloc
// CHECK-LABEL: func private @declared
func.func @blocks(%x: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<8xf32>
  memref.store %x, %a[%c0] : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}
func.func private @declared(memref<8xf32>)

// -----

// One iteration of a parallel loop (threads=): its buffers are views of one
// stack arena, a memref.alloca at the start of the body, planned as the
// function's workspace is (%a and %b never live at once: 128 bytes), and
// scoped per iteration by convert-scf-to-openmp. A 512 KiB buffer stays an
// allocation (an arena holds at most 256 KiB), as does one inside a nested
// scf.parallel (its iterations run at once); the function's own buffer
// still goes to the workspace.
// CHECK-LABEL: func @parallel_iteration
// CHECK:         %[[WS:.*]] = scf.if
// CHECK:         memref.view %[[WS]]
// CHECK:         scf.parallel
// CHECK-NEXT:      %[[ARENA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128xi8>
// CHECK:           memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK:           scf.for
// CHECK:             memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<32xf32>
// CHECK:           memref.alloc() : memref<131072xf32>
// CHECK:           memref.dealloc
// CHECK:           scf.parallel
// CHECK:             memref.alloc() : memref<8xf32>
// CHECK:             memref.dealloc
// CHECK:       return
func.func @parallel_iteration(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = memref.alloc() : memref<16xf32>
  memref.store %x, %w[%c0] : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
    memref.store %x, %a[%i] : memref<16xf32>
    memref.dealloc %a : memref<16xf32>
    scf.for %j = %c0 to %n step %c1 {
      %b = memref.alloc() : memref<32xf32>
      memref.store %x, %b[%j] : memref<32xf32>
      memref.dealloc %b : memref<32xf32>
    }
    %big = memref.alloc() : memref<131072xf32>
    memref.store %x, %big[%i] : memref<131072xf32>
    memref.dealloc %big : memref<131072xf32>
    scf.parallel (%k) = (%c0) to (%c4) step (%c1) {
      %inner = memref.alloc() : memref<8xf32>
      memref.store %x, %inner[%k] : memref<8xf32>
      memref.dealloc %inner : memref<8xf32>
      scf.reduce
    }
    scf.reduce
  }
  memref.dealloc %w : memref<16xf32>
  return
}
