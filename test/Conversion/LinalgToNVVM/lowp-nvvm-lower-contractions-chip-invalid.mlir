// A chip the table does not know, or none at all.
// RUN: not fp-opt %s -lowp-nvvm-lower-contractions=chip=sm_99 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: fp-opt %s -verify-diagnostics -lowp-nvvm-lower-contractions

// UNKNOWN: error: unknown target 'sm_99'
// expected-error @+1 {{no NVIDIA chip: set chip=sm_XX or a lowp.target}}
module {
  func.func @none(%x: f32) -> f32 {
    return %x : f32
  }
}
