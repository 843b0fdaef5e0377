// FP8 matrix operands of a flavour the chip's MFMA does not take are located
// errors that name what the chip has (the FP8 decision was made for another
// chip: running its matmuls on the naive kernel would hide that); so are
// chips outside the table's AMD rows.
// RUN: not fp-opt %s -lowp-rocdl-lower-contractions=target=gfx1234 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-rocdl-lower-contractions

// UNKNOWN: error: unknown target 'gfx1234'

// gfx90a has no FP8 at all.
module attributes {lowp.target = #lowp.target<"gfx90a">} {
  func.func @fp8_on_gfx90a(%a: memref<64x64xf8E4M3FNUZ>, %b: memref<64x64xf8E4M3FNUZ>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{gfx90a has no f8E4M3FNUZ MFMA: its FP8 is none (no FP8 matrix instructions; decide with policy=bf16 or f16); its MFMA takes f16, bf16}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FNUZ>, memref<64x64xf8E4M3FNUZ>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// gfx942's FP8 is FNUZ: OCP operands (decided for sm_90 or gfx950) are not.
module attributes {lowp.target = #lowp.target<"gfx942">} {
  func.func @ocp_on_gfx942(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E5M2>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{gfx942 has no f8E4M3FN MFMA: its FP8 is FNUZ (f8E4M3FNUZ, f8E5M2FNUZ; decide the FP8 formats for this chip); its MFMA takes f16, bf16, f8E4M3FNUZ, f8E5M2FNUZ}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E5M2>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// gfx950's FP8 is OCP: FNUZ operands (decided for gfx942) are not, in
// either operand.
module attributes {lowp.target = #lowp.target<"gfx950">} {
  func.func @fnuz_on_gfx950(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E5M2FNUZ>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{gfx950 has no f8E5M2FNUZ MFMA: its FP8 is FN (f8E4M3FN, f8E5M2; decide the FP8 formats for this chip); its MFMA takes f16, bf16, f8E4M3FN, f8E5M2}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E5M2FNUZ>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// expected-error @+1 {{no AMD chip: set target=gfx... or a lowp.target}}
module {
  func.func @none(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// expected-error @+1 {{'sm_90' is not an AMD chip}}
module attributes {lowp.target = #lowp.target<"sm_90">} {
  func.func @nvidia(%x: f32) -> f32 {
    return %x : f32
  }
}
