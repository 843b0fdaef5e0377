// policy=fp8-weights: the target's 16-bit inference (auto: bf16 on Zen 4),
// then the weights of the bundled MLP as E4M3 arguments with a scale per
// output channel (lowp-fp8-weight-only); the matmuls keep bf16 inputs.
// On AVX2 (no fast 16-bit arithmetic) the arithmetic stays f32 and the
// weights are E4M3 all the same. A second run changes nothing.
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir \
// RUN:   --lowp-auto-mixed-precision="target=znver4 policy=fp8-weights" 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=ZEN4
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir \
// RUN:   --lowp-auto-mixed-precision="target=avx2 policy=fp8-weights" 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=AVX2
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir \
// RUN:   --lowp-auto-mixed-precision="target=znver4 policy=fp8-weights" 2>/dev/null > %t.once
// RUN: fp-opt %t.once --lowp-auto-mixed-precision="target=znver4 policy=fp8-weights" 2>/dev/null > %t.twice
// RUN: diff %t.once %t.twice

// ZEN4-LABEL: func.func @mlp(
// ZEN4-SAME:    tensor<8x64xf32>, %{{.*}}: tensor<64x128xf8E4M3FN> {lowp.fp8_axis = 1 : i64, lowp.fp8_scale = 5 : i64}, %{{.*}}: tensor<128xf32>, %{{.*}}: tensor<128x10xf8E4M3FN> {lowp.fp8_axis = 1 : i64, lowp.fp8_scale = 6 : i64}, %{{.*}}: tensor<10xf32>, %{{.*}}: tensor<128xf32> {lowp.fp8_scale_of = 1 : i64}, %{{.*}}: tensor<10xf32> {lowp.fp8_scale_of = 3 : i64})
// ZEN4:         lowp.cast %{{.*}} : tensor<64x128xf8E4M3FN> to tensor<64x128xbf16>
// ZEN4:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xbf16>, tensor<64x128xbf16>)
// ZEN4:         arith.divf
// ZEN4:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x128xbf16>, tensor<128x10xbf16>)
// AVX2-LABEL: func.func @mlp(
// AVX2-SAME:    tensor<64x128xf8E4M3FN>
// AVX2:         lowp.cast %{{.*}} : tensor<64x128xf8E4M3FN> to tensor<64x128xf32>
// AVX2:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x128xf32>)
