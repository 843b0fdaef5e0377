// RUN: fp-opt %s -split-input-file "-lowp-emulate-narrow-arithmetic=formats=bf16,i8" -verify-diagnostics -o /dev/null
// RUN: not fp-opt %s "-lowp-emulate-narrow-arithmetic=formats=f32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE

// expected-error @below {{formats= takes narrow float types (f16, bf16, f8E4M3FN, ...), got 'i8'}}
module {
  func.func @f(%x: bf16) -> bf16 {
    %a = arith.addf %x, %x : bf16
    return %a : bf16
  }
}
// WIDE: error: lowp-emulate-narrow-arithmetic: formats= takes narrow float types (f16, bf16, f8E4M3FN, ...), got 'f32'
