// A chip the table does not know, none at all, a non-NVIDIA one.
// RUN: not fp-opt %s -lowp-nvvm-lower-contractions=target=sm_99 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-nvvm-lower-contractions

// UNKNOWN: error: unknown target 'sm_99'
// expected-error @+1 {{no NVIDIA chip: set target=sm_XX or a lowp.target}}
module {
  func.func @none(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// expected-error @+1 {{'gfx942' is not an NVIDIA chip}}
module attributes {lowp.target = #lowp.target<"gfx942">} {
  func.func @amd(%x: f32) -> f32 {
    return %x : f32
  }
}
