// Targets without subgroups, unknown targets, no target: located errors
// before anything changes.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-gpu-map-row-reductions

// The target comes from the module's lowp.target.
// expected-error @+1 {{lowp-gpu-map-row-reductions needs a GPU of the capability table (target=sm_XX or gfxXXX, or a lowp.target); 'avx2' has no subgroups}}
module attributes {lowp.target = #lowp.target<"avx2">} {
  func.func @cpu(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// expected-error @+1 {{unknown target 'sm_999'}}
module attributes {lowp.target = #lowp.target<"sm_999">} {
  func.func @unknown(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// expected-error @+1 {{lowp-gpu-map-row-reductions needs a GPU of the capability table}}
module {
  func.func @none(%x: f32) -> f32 {
    return %x : f32
  }
}
