// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-unoptimized-run-once-wrappers | FileCheck %s
// Through lowp-pipeline-x86{prepack}: only the prepack function's wrapper.
// RUN: fp-opt %S/../../Integration/X86/Inputs/prepack-linear.mlir 2>/dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(llvm-request-c-wrappers),lowp-pipeline-x86{target=avx2 prepack=true})" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE

// PIPELINE:     llvm.func @_mlir_ciface_forward(
// PIPELINE-NOT: passthrough
// PIPELINE-SAME: {
// PIPELINE:     llvm.func @forward_prepack(
// PIPELINE-NOT: passthrough
// PIPELINE-SAME: {
// PIPELINE:     llvm.func @_mlir_ciface_forward_prepack(
// PIPELINE-SAME: attributes {llvm.emit_c_interface, passthrough = ["noinline", "optnone"]} {
// PIPELINE-NOT: lowp.runs_once

// The C wrapper of a function marked lowp.runs_once is compiled at -O0; the
// function keeps its optimization; the mark is removed from both.

// CHECK-LABEL: llvm.func @f_prepack(
// CHECK-NOT:     passthrough
// CHECK-NOT:     lowp.runs_once
// CHECK-SAME:    {
// CHECK-LABEL: llvm.func @_mlir_ciface_f_prepack(
// CHECK-SAME:    attributes {passthrough = ["noinline", "optnone"]}
// A wrapper of an unmarked function is left alone.
// CHECK-LABEL: llvm.func @_mlir_ciface_f(
// CHECK-NOT:     passthrough
// CHECK-SAME:    {
llvm.func @f_prepack(%arg0: i64) -> i64 attributes {lowp.runs_once} {
  %0 = llvm.add %arg0, %arg0 : i64
  llvm.return %0 : i64
}
llvm.func @_mlir_ciface_f_prepack(%arg0: !llvm.ptr, %arg1: i64) attributes {lowp.runs_once} {
  %0 = llvm.call @f_prepack(%arg1) : (i64) -> i64
  llvm.store %0, %arg0 : i64, !llvm.ptr
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

// A marked function without a wrapper (no C interface) and a wrapper that
// is only declared: nothing but the mark goes.

// CHECK-LABEL: llvm.func @g_prepack(
// CHECK-NOT:     lowp.runs_once
// CHECK-LABEL: llvm.func @h_prepack(
// CHECK-NOT:     lowp.runs_once
// CHECK:       llvm.func @_mlir_ciface_h_prepack(!llvm.ptr)
// CHECK-NOT:     passthrough
llvm.func @g_prepack() attributes {lowp.runs_once} {
  llvm.return
}
llvm.func @h_prepack() attributes {lowp.runs_once} {
  llvm.return
}
llvm.func @_mlir_ciface_h_prepack(!llvm.ptr)

// -----

// expected-error @+1 {{'lowp.runs_once' must be a unit attribute}}
llvm.func @bad_prepack() attributes {lowp.runs_once = 1 : i64} {
  llvm.return
}
