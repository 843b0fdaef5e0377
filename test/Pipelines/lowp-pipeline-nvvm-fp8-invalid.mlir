// FP8 a chip cannot convert or multiply is an error at the op that asked
// for it, not a translation failure: E4M3FN on sm_80 (no FP8 hardware),
// FNUZ (AMD's encoding) on sm_90; an FP8 matmul is refused by the
// tensor-core lowering before its kernel exists.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-pipeline-nvvm=target=sm_80
// RUN: sed 's/f8E4M3FN>/f8E4M3FNUZ>/g; s/f8E5M2>/f8E5M2FNUZ>/g; s/sm_80 has no FP8 conversion instructions/which NVIDIA hardware has no encoding of/' %s \
// RUN: | fp-opt -split-input-file -verify-diagnostics -lowp-pipeline-nvvm=target=sm_90

func.func @quantize(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  // expected-error-re @+1 {{'arith.truncf' op converts 'f8E4M3FN{{(UZ)?}}', {{.*}}sm_80 has no FP8 conversion instructions}}
  %y = lowp.cast %x saturate : tensor<4xf32> to tensor<4xf8E4M3FN>
  return %y : tensor<4xf8E4M3FN>
}

// -----

func.func @matmul(%a: tensor<4x8xf8E5M2>, %b: tensor<8x4xf8E5M2>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error-re @+1 {{sm_{{(80|90)}} has no f8E5M2{{(FNUZ)?}} mma.sync: its FP8 is {{(none|FN)}} (}}
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf8E5M2>, tensor<8x4xf8E5M2>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
