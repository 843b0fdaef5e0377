// Chips without FP8 conversions, unknown and non-NVIDIA chips, no chip.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-convert-fp8-to-nvvm

// The chip comes from the module's lowp.target.
module attributes {lowp.target = #lowp.target<"sm_80">} {
  func.func @no_fp8(%x: f32) -> f8E4M3FN {
    // expected-error @+1 {{converts 'f8E4M3FN', but sm_80 has no FP8 conversion instructions (FP8 needs sm_89 or later)}}
    %y = arith.truncf %x : f32 to f8E4M3FN
    return %y : f8E4M3FN
  }
}

// -----

// expected-error @+1 {{'gfx942' is not an NVIDIA chip}}
module attributes {lowp.target = #lowp.target<"gfx942">} {
  func.func @amd(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// expected-error @+1 {{no NVIDIA chip: set target=sm_XX or a lowp.target}}
module {
  func.func @none(%x: f32) -> f32 {
    return %x : f32
  }
}
