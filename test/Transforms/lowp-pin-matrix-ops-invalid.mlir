// RUN: fp-opt %s -verify-diagnostics -lowp-pin-matrix-ops="ops=0,2"
// RUN: not fp-opt %s -lowp-pin-matrix-ops="ops=0 precision=i32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPE

// An index the module does not have is an error, not silently ignored.
// expected-error @+1 {{lowp-pin-matrix-ops: no matrix op #2 (the module has 1)}}
module {
  func.func @too_few(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// TYPE: error: lowp-pin-matrix-ops: precision 'i32' is not a float type
