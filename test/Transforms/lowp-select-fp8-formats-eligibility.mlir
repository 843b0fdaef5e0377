// Which matrix ops the hybrid recipe makes FP8 (Transformer Engine's
// choice): those with a parameter operand (a function argument or a
// constant, seen through casts, reshapes, slices, transposes and
// broadcasts) and the backward pass's GEMMs; a product of two computed
// activations (attention) keeps 16 bits unless fp8-attention.
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="target=sm_90" | FileCheck %s
// The report, for the three functions in one module: matrix FLOPs 4096
// (linear) + 2048 (scores) + 512 (broadcast weight) + 1024 (weight
// gradient), all but the scores FP8: 5632 / 7680.
// RUN: fp-opt %s -lowp-select-fp8-formats="target=sm_90 report=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="target=sm_90 fp8-attention=true" | FileCheck %s --check-prefix=ATTN
// The explicit recipes apply to every matrix op.
// RUN: fp-opt %s -split-input-file -lowp-select-fp8-formats="target=sm_90 recipe=e4m3" | FileCheck %s --check-prefix=ATTN
// RUN: not fp-opt %s -split-input-file -lowp-select-fp8-formats="target=sm_90 fp8-attention=maybe" 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: for the --fp8-attention option: '{{.*}}maybe' is invalid value for boolean argument

// nn.Linear as torch-mlir writes it (weight transposed, then cast to bf16
// by inference): FP8. Attention's scores of two computed activations: bf16.
// CHECK-LABEL: func @linear_then_scores
// CHECK: %[[Q:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x8xbf16>) outs(%{{.*}} : tensor<8x8xf32>)
// ATTN-LABEL: func @linear_then_scores
// ATTN: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>)
// ATTN: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf8E4M3FN>, tensor<16x8xf8E4M3FN>)
// REPORT-DAG: "fp8_attention": false
// REPORT-DAG: "fp8_flop_share": 0.733
// REPORT-DAG: "fp8_matrix_flops": 5632
// REPORT-DAG: "matrix_flops": 7680
// REPORT-DAG: "reason": "product of two computed activations (attention); fp8-attention=true makes it FP8"
func.func @linear_then_scores(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<16x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x16xf32>) outs(%et : tensor<16x16xf32>) permutation = [1, 0]
  %xb = lowp.cast %x : tensor<8x16xf32> to tensor<8x16xbf16>
  %wb = lowp.cast %wt : tensor<16x16xf32> to tensor<16x16xbf16>
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = linalg.matmul ins(%xb, %wb : tensor<8x16xbf16>, tensor<16x16xbf16>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ek = tensor.empty() : tensor<16x8xf32>
  %k = linalg.transpose ins(%q : tensor<8x16xf32>) outs(%ek : tensor<16x8xf32>) permutation = [1, 0]
  %qb = lowp.cast %q : tensor<8x16xf32> to tensor<8x16xbf16>
  %kb = lowp.cast %k : tensor<16x8xf32> to tensor<16x8xbf16>
  %es = tensor.empty() : tensor<8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul ins(%qb, %kb : tensor<8x16xbf16>, tensor<16x8xbf16>) outs(%zs : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

// A weight broadcast over the batch (ONNX/torch-mlir batch_matmul with a 2-d
// weight, the copy written as a generic) is still a parameter: FP8.
// CHECK-LABEL: func @broadcast_weight
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf8E4M3FN>, tensor<2x8x4xf8E4M3FN>)
func.func @broadcast_weight(%x: tensor<2x4x8xbf16>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x4xbf16>
  %eb = tensor.empty() : tensor<2x8x4xbf16>
  %wb = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<8x4xbf16>) outs(%eb : tensor<2x8x4xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x8x4xbf16>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x4x8xbf16>, tensor<2x8x4xbf16>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

// -----

// A weight-gradient GEMM of a training step (activation^T x gradient, both
// computed) is FP8: its gradient operand takes E5M2.
// CHECK-LABEL: func @weight_gradient
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x8xf8E4M3FN>, tensor<8x4xf8E5M2>)
func.func @weight_gradient(%x: tensor<8x16xf32>, %dy: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %ea = tensor.empty() : tensor<8x16xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%ea : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %eg = tensor.empty() : tensor<8x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%dy : tensor<8x4xf32>) outs(%eg : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %et = tensor.empty() : tensor<16x8xf32>
  %at = linalg.transpose ins(%act : tensor<8x16xf32>) outs(%et : tensor<16x8xf32>) permutation = [1, 0]
  %ab = lowp.cast %at : tensor<16x8xf32> to tensor<16x8xbf16>
  %gb = lowp.cast %g {lowp.role = #lowp.role<gradient>} : tensor<8x4xf32> to tensor<8x4xbf16>
  %e = tensor.empty() : tensor<16x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %dw = linalg.matmul ins(%ab, %gb : tensor<16x8xbf16>, tensor<8x4xbf16>) outs(%z : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %dw : tensor<16x4xf32>
}
