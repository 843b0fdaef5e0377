// SVG needs Graphviz's dot: without it on PATH the error says how to get
// it, and no file is written.
// RUN: rm -rf %t.bin && mkdir -p %t.bin
// RUN: env PATH=%t.bin fp-opt %s -verify-diagnostics -o /dev/null \
// RUN:   --lowp-view-precision-graph="output=%t.svg"
// RUN: not test -e %t.svg

// expected-error-re @below {{cannot render '{{.*}}.svg': Graphviz's 'dot' is not on PATH (Debian: apt-get install graphviz), or write a .dot file instead}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
