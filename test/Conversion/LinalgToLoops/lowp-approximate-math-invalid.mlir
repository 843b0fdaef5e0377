// RUN: fp-opt %s -lowp-approximate-math=functions=exp,sin -verify-diagnostics -o /dev/null

// A function without a measured approximation is an error naming it.
// expected-error @below {{no measured approximation for 'sin'}}
module {
  func.func @f(%x: f32) -> f32 {
    %0 = math.sin %x : f32
    return %0 : f32
  }
}
