// Whole models in the shapes real exporters produce (see the headers of
// Inputs/bert-attention.mlir and Inputs/resnet-block.mlir): every matmul,
// contraction generic and convolution takes 16-bit inputs with an f32
// accumulator; no softmax or normalization step is demoted: no exp,
// rsqrt or division anywhere in a 16-bit format (--implicit-check-not).
// RUN: fp-opt %S/Inputs/bert-attention.mlir --lowp-infer-precision="low=bf16" | FileCheck %s --check-prefix=BERT -DLOW=bf16 --implicit-check-not='{{(math.exp|math.rsqrt|arith.divf) .* : (bf16|f16)$}}'
// RUN: fp-opt %S/Inputs/bert-attention.mlir --lowp-infer-precision="low=f16" | FileCheck %s --check-prefix=BERT -DLOW=f16 --implicit-check-not='{{(math.exp|math.rsqrt|arith.divf) .* : (bf16|f16)$}}'
// RUN: fp-opt %S/Inputs/resnet-block.mlir --lowp-infer-precision="low=bf16" | FileCheck %s --check-prefix=RESNET -DLOW=bf16 --implicit-check-not='{{math.rsqrt .* : (bf16|f16)$}}'
// RUN: fp-opt %S/Inputs/resnet-block.mlir --lowp-infer-precision="low=f16" | FileCheck %s --check-prefix=RESNET -DLOW=f16 --implicit-check-not='{{math.rsqrt .* : (bf16|f16)$}}'

// BERT-LABEL: func.func @bert_attention(
// BERT-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32x[[LOW]]>, tensor<32x32x[[LOW]]>) outs(%{{.*}} : tensor<16x32xf32>)
// BERT:         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x2x8x16x[[LOW]]>, tensor<2x2x16x8x[[LOW]]>) outs(%{{.*}} : tensor<2x2x8x8xf32>)
// BERT:         math.exp %{{.*}} : f32
// BERT:         arith.divf %{{.*}}, %{{.*}} : f32
// BERT:         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x2x8x8x[[LOW]]>, tensor<2x2x8x16x[[LOW]]>) outs(%{{.*}} : tensor<2x2x8x16xf32>)
// The LayerNorm epsilon (1e-12, zero in f16) stays an f32 constant.
// BERT:         arith.constant 9.99999996E-13 : f32
// BERT:         math.rsqrt %{{.*}} : f32
// BERT:         return %{{.*}} : tensor<16x32xf32>

// Batch norm (rsqrt) stays f32 in its own function.
// RESNET-LABEL: func.func @bn_relu(
// RESNET-NOT:     lowp.cast
// RESNET:         math.rsqrt %{{.*}} : f32
// Every convolution is demoted; max pooling (exact) does not force casts.
// RESNET-LABEL: func.func @resnet_block(
// RESNET:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3x18x18x[[LOW]]>, tensor<8x3x3x3x[[LOW]]>) outs(%{{.*}} : tensor<1x8x16x16xf32>)
// RESNET:         linalg.pooling_nchw_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x16x16xf32>, tensor<2x2xf32>)
// RESNET:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// RESNET:           tensor.yield %{{.*}} : [[LOW]]
// RESNET:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x10x10x[[LOW]]>, tensor<8x8x3x3x[[LOW]]>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// RESNET:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x10x10x[[LOW]]>, tensor<8x8x3x3x[[LOW]]>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// RESNET:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x8x[[LOW]]>, tensor<16x8x1x1x[[LOW]]>) outs(%{{.*}} : tensor<1x16x8x8xf32>)
