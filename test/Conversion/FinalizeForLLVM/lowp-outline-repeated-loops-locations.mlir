// RUN: fp-opt %s -lowp-outline-repeated-loops=min-ops=4 -verify-diagnostics \
// RUN:   -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s
// Down to LLVM IR with line tables: every call between functions with
// debug info has a line (LLVM's verifier rejects the module otherwise).
// RUN: fp-opt %s --pass-pipeline='builtin.module(lowp-outline-repeated-loops{min-ops=4},convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts,ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly})' -mlir-print-debuginfo \
// RUN: | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// Front ends name ops without a file (`loc("layer1.scale")`): the call
// keeps the nest's name, anchored at its function's file location; a nest
// without any location takes the function's.
// CHECK-LABEL: func.func @named_layers(
// CHECK:         call @named_layers_loops0({{.*}}) loc("layer1.scale"("model.py":3:1))
// CHECK-NEXT:    call @named_layers_loops0({{.*}}) loc("layer2.scale"("model.py":3:1))
// CHECK-NEXT:    call @named_layers_loops0({{.*}}) loc("model.py":3:1)
// A nest with a file location of its own keeps it.
// CHECK-NEXT:    call @named_layers_loops0({{.*}}) loc("model.py":9:5)
// LLVM-LABEL: define void @named_layers(
// LLVM-COUNT-4: call void @named_layers_loops0({{.*}}), !dbg
func.func @named_layers(%a: memref<64xf32>, %b: memref<64xf32>,
                        %c: memref<64xf32>, %d: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<64xf32>
  } loc("layer1.scale")
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %b[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %c[%i] : memref<64xf32>
  } loc("layer2.scale")
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %c[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %d[%i] : memref<64xf32>
  } loc(unknown)
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %d[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%i] : memref<64xf32>
  } loc("model.py":9:5)
  return
} loc("model.py":3:1)
