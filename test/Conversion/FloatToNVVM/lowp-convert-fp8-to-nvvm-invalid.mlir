// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-convert-fp8-to-nvvm=target=sm_90

// FNUZ is AMD's encoding; no NVIDIA convert produces it.
func.func @fnuz(%x: f32) -> f8E4M3FNUZ {
  // expected-error @+1 {{converts 'f8E4M3FNUZ', which NVIDIA hardware has no encoding of}}
  %y = arith.truncf %x : f32 to f8E4M3FNUZ
  return %y : f8E4M3FNUZ
}

// -----

func.func @fnuz_ext(%x: f8E5M2FNUZ) -> f32 {
  // expected-error @+1 {{converts 'f8E5M2FNUZ', which NVIDIA hardware has no encoding of}}
  %y = arith.extf %x : f8E5M2FNUZ to f32
  return %y : f32
}

// -----

// The naive GPU mapping leaves scalar conversions only.
func.func @vector(%x: vector<4xf32>) -> vector<4xf8E4M3FN> {
  // expected-error @+1 {{has no NVVM lowering: only scalar f32/f16 <-> 'f8E4M3FN' conversions are supported}}
  %y = arith.truncf %x : vector<4xf32> to vector<4xf8E4M3FN>
  return %y : vector<4xf8E4M3FN>
}

// -----

func.func @rounding(%x: f32) -> f8E4M3FN {
  // expected-error @+1 {{has no NVVM lowering: FP8 conversions round to nearest-even only}}
  %y = arith.truncf %x toward_zero : f32 to f8E4M3FN
  return %y : f8E4M3FN
}
