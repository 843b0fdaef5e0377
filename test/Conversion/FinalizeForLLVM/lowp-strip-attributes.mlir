// RUN: fp-opt %s -split-input-file -lowp-strip-attributes | FileCheck %s

// Every lowp.* attribute goes: on the module, on ops, on function arguments
// and results. Other discardable attributes stay.
// CHECK-LABEL: module {
// CHECK:       llvm.func @step(%{{.*}}: f32 {llvm.noundef}) -> (f32 {llvm.noundef})
// CHECK-NOT:   lowp.
// CHECK:       llvm.mlir.constant(1.000000e+00 : f32) {keep = 1 : i64} : f32
// CHECK-NOT:   lowp.
module attributes {lowp.target = #lowp.target<"avx2">} {
  llvm.func @step(%x: f32 {lowp.loss_scale = 65536.0 : f32, llvm.noundef})
      -> (f32 {lowp.loss, llvm.noundef}) attributes {lowp.loss_scaling = "dynamic"} {
    %c = llvm.mlir.constant(1.0 : f32) {lowp.precision = f32, keep = 1} : f32
    %y = llvm.fadd %x, %c {lowp.gradient} : f32
    llvm.return %y : f32
  }
}

// -----

// A module without lowp attributes is left as it is.
// CHECK-LABEL: module attributes {other.flag}
// CHECK:       func.func @plain() attributes {other.attr = 2 : i64}
module attributes {other.flag} {
  func.func @plain() attributes {other.attr = 2} {
    return
  }
}
