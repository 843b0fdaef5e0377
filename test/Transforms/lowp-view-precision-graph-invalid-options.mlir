// The pass needs somewhere to write: an output or a report.
// RUN: fp-opt %s -verify-diagnostics -o /dev/null --lowp-view-precision-graph

// expected-error @below {{lowp-view-precision-graph: give output= (a .dot or .svg file, '-' for stdout) or report=}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
