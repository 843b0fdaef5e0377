// lowp-plan-workspace, executed: @nest holds a planned buffer (%t) in its
// workspace across a recursive call of itself (depth 3: four calls at
// once). The outer call holds the module's workspace, so the inner calls
// must find it busy and allocate their own; one that reused it would
// overwrite the outer call's %t. @main runs @nest on 20 inputs and prints
// the results; the planned program must print exactly what the same
// program prints without the pass (same arithmetic, malloc'ed buffers),
// with the module global (default) and with a workspace per call. Control:
// the planned program with the busy test replaced by "free" (every call
// takes the global) prints something else, so the comparison sees a
// clobbered %t.
//
// DEFINE: %{lower} = -convert-scf-to-cf -expand-strided-metadata -finalize-memref-to-llvm -convert-to-llvm -reconcile-unrealized-casts
// DEFINE: %{exec} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils
// RUN: fp-opt %s %{lower} | %{exec} | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.plain
// RUN: fp-opt %s -lowp-plan-workspace -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: fp-opt %t.planned.mlir %{lower} | %{exec} | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.global
// RUN: diff %t.plain %t.global
// RUN: fp-opt %s -lowp-plan-workspace=static-storage=false %{lower} | %{exec} | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.percall
// RUN: diff %t.plain %t.percall
// RUN: sed -e 's/= arith.cmpi eq, .* : i32$/= arith.constant true/' %t.planned.mlir \
// RUN: | fp-opt %{lower} | %{exec} | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.control
// RUN: not diff %t.plain %t.control
// RUN: FileCheck %s < %t.plain

// IR: memref.global "private" @__lowp_workspace_nest : memref<128xi8>
// IR-LABEL: func.func @nest
// IR: memref.view
// IR: call @nest
// CHECK-COUNT-20: rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NOT: data =

// out = (x + 1 ... recursively) - t, with t = 3 x held across the call;
// t and u (alive during the call too) are the 128 bytes of the workspace.
func.func @nest(%x: memref<16xf32>, %out: memref<16xf32>, %depth: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %t = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %x[%i] : memref<16xf32>
    %m = arith.mulf %v, %three : f32
    memref.store %m, %t[%i] : memref<16xf32>
  }
  %deeper = arith.cmpi ugt, %depth, %c0 : index
  scf.if %deeper {
    %u = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i] : memref<16xf32>
      %a = arith.addf %v, %one : f32
      memref.store %a, %u[%i] : memref<16xf32>
    }
    %d = arith.subi %depth, %c1 : index
    func.call @nest(%u, %out, %d) : (memref<16xf32>, memref<16xf32>, index) -> ()
    memref.dealloc %u : memref<16xf32>
  } else {
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i] : memref<16xf32>
      %s = arith.mulf %v, %v : f32
      memref.store %s, %out[%i] : memref<16xf32>
    }
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %r = memref.load %out[%i] : memref<16xf32>
    %v = memref.load %t[%i] : memref<16xf32>
    %s = arith.subf %r, %v : f32
    memref.store %s, %out[%i] : memref<16xf32>
  }
  memref.dealloc %t : memref<16xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %x = memref.alloc() : memref<16xf32>
  %y = memref.alloc() : memref<16xf32>
  scf.for %n = %c0 to %c20 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      %s = arith.addi %i, %n : index
      %si = arith.index_cast %s : index to i32
      %f = arith.sitofp %si : i32 to f32
      %q = arith.constant 0.125 : f32
      %v = arith.mulf %f, %q : f32
      memref.store %v, %x[%i] : memref<16xf32>
    }
    func.call @nest(%x, %y, %c3) : (memref<16xf32>, memref<16xf32>, index) -> ()
    %u = memref.cast %y : memref<16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %y : memref<16xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
