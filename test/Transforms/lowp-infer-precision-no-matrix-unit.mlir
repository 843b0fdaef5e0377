// A low format the target has no matrix units for is still honoured, with a
// remark that names the format as MLIR spells it (printed only when the
// remark is emitted).
// RUN: fp-opt %s --lowp-infer-precision="target=sm_70 low=bf16" -verify-diagnostics | FileCheck %s

// expected-remark @below {{target 'sm_70' has no bf16 matrix units; demoting as requested}}
module {
  // CHECK-LABEL: func.func @matmul(
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%{{.*}} : tensor<4x16xf32>)
  func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}
