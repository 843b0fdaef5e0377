// RUN: fp-opt %s -split-input-file -lowp-tile-for-mxu -verify-diagnostics
// RUN: not fp-opt %s -split-input-file -lowp-tile-for-mxu=target=tpu-v9 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: unknown target 'tpu-v9'; known targets: {{.*}}tpu-v5e, tpu-v5p, tpu-v6e

// A target without an MXU.
// expected-error @+1 {{lowp-tile-for-mxu: target 'sm_90' is not a TPU (no bf16 MXU)}}
module attributes {lowp.target = #lowp.target<"sm_90">} {
  func.func @gpu(%a: tensor<8x64xbf16>, %b: tensor<64x10xbf16>,
                 %c: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<8x64xbf16>, tensor<64x10xbf16>)
                       outs(%c : tensor<8x10xf32>) -> tensor<8x10xf32>
    return %r : tensor<8x10xf32>
  }
}

// -----

// No generation at all.
// expected-error @+1 {{lowp-tile-for-mxu: no TPU generation (set target= or the module's lowp.target)}}
module {
  func.func @no_target(%a: tensor<8x64xbf16>, %b: tensor<64x10xbf16>,
                       %c: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<8x64xbf16>, tensor<64x10xbf16>)
                       outs(%c : tensor<8x10xf32>) -> tensor<8x10xf32>
    return %r : tensor<8x10xf32>
  }
}

// -----

// Dynamic shapes: the padding amounts would not be known.
module attributes {lowp.target = #lowp.target<"tpu-v5e">} {
  func.func @dynamic(%a: tensor<?x64xbf16>, %b: tensor<64x10xbf16>,
                     %c: tensor<?x10xf32>) -> tensor<?x10xf32> {
    // expected-error @+1 {{'linalg.matmul' op has dynamic shapes: lowp-tile-for-mxu pads and tiles static shapes only}}
    %r = linalg.matmul ins(%a, %b : tensor<?x64xbf16>, tensor<64x10xbf16>)
                       outs(%c : tensor<?x10xf32>) -> tensor<?x10xf32>
    return %r : tensor<?x10xf32>
  }
}

// -----

// f16 operands: rounding them to bf16 would lose 3 bits of precision that
// the decision chose to keep; the MXU has no f16 form.
module attributes {lowp.target = #lowp.target<"tpu-v5e">} {
  func.func @f16(%a: tensor<8x64xf16>, %b: tensor<64x10xf16>,
                 %c: tensor<8x10xf32>) -> tensor<8x10xf32> {
    // expected-error @+1 {{'linalg.matmul' op has 'f16' operands: a TPU MXU takes bf16 (or f32, rounded to bf16) with an f32 accumulator}}
    %r = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x10xf16>)
                       outs(%c : tensor<8x10xf32>) -> tensor<8x10xf32>
    return %r : tensor<8x10xf32>
  }
}
