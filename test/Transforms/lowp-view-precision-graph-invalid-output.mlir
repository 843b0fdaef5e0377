// An output file that cannot be written is an error at the module, and
// nothing is half written.
// RUN: fp-opt %s -verify-diagnostics -o /dev/null \
// RUN:   --lowp-view-precision-graph="output=%t.no-such-dir/graph.dot"
// RUN: not test -e %t.no-such-dir

// expected-error-re @below {{cannot write the precision graph to '{{.*}}.no-such-dir/graph.dot': {{.*}}No such file or directory}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
