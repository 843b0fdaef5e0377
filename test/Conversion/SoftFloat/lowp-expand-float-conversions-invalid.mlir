// RUN: fp-opt %s -lowp-expand-float-conversions=target=no-such-chip \
// RUN:   -verify-diagnostics -o /dev/null

// expected-error @below {{unknown target 'no-such-chip'}}
module {
  func.func @f(%x: f32) -> bf16 {
    %0 = arith.truncf %x : f32 to bf16
    return %0 : bf16
  }
}
