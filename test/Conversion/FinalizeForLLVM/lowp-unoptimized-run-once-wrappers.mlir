// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-unoptimized-run-once-wrappers | FileCheck %s
// Through lowp-pipeline-x86{prepack}: forward_prepack (its loops outlined by
// lowp-outline-repeated-loops) and its wrapper, not forward's wrapper.
// RUN: fp-opt %S/../../Integration/X86/Inputs/prepack-linear.mlir 2>/dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(llvm-request-c-wrappers),lowp-pipeline-x86{target=avx2 prepack=true})" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE

// PIPELINE:      llvm.func @_mlir_ciface_forward(
// PIPELINE-SAME: attributes {llvm.emit_c_interface} {
// PIPELINE:      llvm.func @forward_prepack(
// PIPELINE-SAME: {llvm.emit_c_interface, passthrough = ["noinline", "optnone"]} {
// PIPELINE:      llvm.func @_mlir_ciface_forward_prepack(
// PIPELINE-SAME: attributes {llvm.emit_c_interface, passthrough = ["noinline", "optnone"]} {
// PIPELINE-NOT:  lowp.runs_once

// The C wrapper of a function marked lowp.runs_once is compiled at -O0, and
// so is the function where it holds no loop; the mark is removed.

// CHECK-LABEL: llvm.func @f_prepack(
// CHECK-SAME:    -> i64 attributes {passthrough = ["noinline", "optnone"]} {
// CHECK-LABEL: llvm.func @_mlir_ciface_f_prepack(
// CHECK-SAME:    %{{.*}}: i64) attributes {passthrough = ["noinline", "optnone"]} {
// A function with a loop keeps its optimization; its wrapper does not.
// CHECK-LABEL: llvm.func @loop_prepack(
// CHECK-SAME:    %{{.*}}: i64) {
// CHECK-LABEL: llvm.func @_mlir_ciface_loop_prepack(
// CHECK-SAME:    %{{.*}}: i64) attributes {passthrough = ["noinline", "optnone"]} {
// A wrapper of an unmarked function is left alone.
// CHECK-LABEL: llvm.func @_mlir_ciface_f(
// CHECK-SAME:    %{{.*}}: i64) -> i64 {
llvm.func @f_prepack(%arg0: i64) -> i64 attributes {lowp.runs_once} {
  %0 = llvm.add %arg0, %arg0 : i64
  llvm.return %0 : i64
}
llvm.func @_mlir_ciface_f_prepack(%arg0: !llvm.ptr, %arg1: i64) attributes {lowp.runs_once} {
  %0 = llvm.call @f_prepack(%arg1) : (i64) -> i64
  llvm.store %0, %arg0 : i64, !llvm.ptr
  llvm.return
}
llvm.func @loop_prepack(%arg0: i64) attributes {lowp.runs_once} {
  %0 = llvm.mlir.constant(0 : i64) : i64
  %1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%0 : i64)
^bb1(%2: i64):
  %3 = llvm.add %2, %1 : i64
  %4 = llvm.icmp "slt" %3, %arg0 : i64
  llvm.cond_br %4, ^bb1(%3 : i64), ^bb2
^bb2:
  llvm.return
}
llvm.func @_mlir_ciface_loop_prepack(%arg0: i64) attributes {lowp.runs_once} {
  llvm.call @loop_prepack(%arg0) : (i64) -> ()
  llvm.return
}
llvm.func @f(%arg0: i64) -> i64 {
  llvm.return %arg0 : i64
}
llvm.func @_mlir_ciface_f(%arg0: i64) -> i64 {
  %0 = llvm.call @f(%arg0) : (i64) -> i64
  llvm.return %0 : i64
}

// -----

// A marked function without a wrapper (no C interface), one whose wrapper
// is only declared, and a marked declaration: declarations have no body to
// compile and are left as they are, but for the mark.

// CHECK-LABEL: llvm.func @g_prepack()
// CHECK-SAME:    attributes {passthrough = ["noinline", "optnone"]} {
// CHECK-LABEL: llvm.func @h_prepack()
// CHECK-SAME:    attributes {passthrough = ["noinline", "optnone"]} {
// CHECK:       llvm.func @_mlir_ciface_h_prepack(!llvm.ptr){{$}}
// CHECK:       llvm.func @declared_prepack(){{$}}
llvm.func @g_prepack() attributes {lowp.runs_once} {
  llvm.return
}
llvm.func @h_prepack() attributes {lowp.runs_once} {
  llvm.return
}
llvm.func @_mlir_ciface_h_prepack(!llvm.ptr)
llvm.func @declared_prepack() attributes {lowp.runs_once}

// -----

// expected-error @+1 {{'lowp.runs_once' must be a unit attribute}}
llvm.func @bad_prepack() attributes {lowp.runs_once = 1 : i64} {
  llvm.return
}
