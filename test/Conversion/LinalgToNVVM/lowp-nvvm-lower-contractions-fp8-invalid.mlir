// FP8 operands a chip's tensor cores do not take are a located error
// naming what the chip has, on every NVIDIA row: the FP8 decision was made
// for another chip, and the naive kernel would hide that (16-bit formats
// a chip lacks fall back with a remark instead:
// lowp-nvvm-lower-contractions-older-chips.mlir).
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-nvvm-lower-contractions

// Ampere has no FP8 tensor cores.
module attributes {lowp.target = #lowp.target<"sm_80">} {
  func.func @e4m3_sm80(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{sm_80 has no f8E4M3FN mma.sync: its FP8 is none (no FP8 matrix instructions; decide with policy=bf16 or f16); its mma.sync takes f16, bf16}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

module attributes {lowp.target = #lowp.target<"sm_86">} {
  func.func @e5m2_sm86(%a: memref<64x64xf8E5M2>, %b: memref<64x64xf8E5M2>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{sm_86 has no f8E5M2 mma.sync: its FP8 is none}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E5M2>, memref<64x64xf8E5M2>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

module attributes {lowp.target = #lowp.target<"sm_75">} {
  func.func @e4m3_sm75(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{sm_75 has no f8E4M3FN mma.sync: its FP8 is none (no FP8 matrix instructions; decide with policy=bf16 or f16); its mma.sync takes f16}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

module attributes {lowp.target = #lowp.target<"sm_70">} {
  func.func @e4m3_sm70(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{sm_70 has no f8E4M3FN mma.sync: its FP8 is none (no FP8 matrix instructions; decide with policy=bf16 or f16); its mma.sync takes nothing}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// AMD's FNUZ encodings on Hopper: FP8 decided for another chip.
module attributes {lowp.target = #lowp.target<"sm_90">} {
  func.func @fnuz_sm90(%a: memref<64x64xf8E4M3FNUZ>, %b: memref<64x64xf8E5M2FNUZ>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{sm_90 has no f8E4M3FNUZ mma.sync: its FP8 is FN (f8E4M3FN, f8E5M2; decide the FP8 formats for this chip); its mma.sync takes f16, bf16, f8E4M3FN, f8E5M2}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FNUZ>, memref<64x64xf8E5M2FNUZ>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// An 8-bit format outside the capability table's names (IEEE-style E4M3
// with infinities) on Ada: no tensor core takes it.
module attributes {lowp.target = #lowp.target<"sm_89">} {
  func.func @e4m3_ieee_sm89(%a: memref<64x64xf8E4M3>, %b: memref<64x64xf8E4M3>, %c: memref<64x64xf32>) {
    // expected-error @+1 {{sm_89 has no f8E4M3 mma.sync: its FP8 is FN (f8E4M3FN, f8E5M2; decide the FP8 formats for this chip); its mma.sync takes f16, bf16, f8E4M3FN, f8E5M2}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3>, memref<64x64xf8E4M3>) outs(%c : memref<64x64xf32>)
    return
  }
}
