// RUN: fp-opt %s -split-input-file -lowp-pipeline-tpu -verify-diagnostics
// RUN: not fp-opt %s -split-input-file -lowp-pipeline-tpu=target=tpu-v9 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: unknown target 'tpu-v9'; known targets:

// A model decided for a GPU is not a TPU model.
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

// Dynamic shapes stop the pipeline at the matrix op, with its location.
module attributes {lowp.target = #lowp.target<"tpu-v5e">} {
  func.func @dynamic(%a: tensor<?x64xbf16>, %b: tensor<64x10xbf16>,
                     %c: tensor<?x10xf32>) -> tensor<?x10xf32> {
    // expected-error @+1 {{'linalg.matmul' op has dynamic shapes}}
    %r = linalg.matmul ins(%a, %b : tensor<?x64xbf16>, tensor<64x10xbf16>)
                       outs(%c : tensor<?x10xf32>) -> tensor<?x10xf32>
    return %r : tensor<?x10xf32>
  }
}
