// A report from a newer fp-opt (a later schema version) is refused.
// RUN: echo '{"schema_version": 99}' > %t.new.json
// RUN: fp-opt %s -verify-diagnostics -o /dev/null \
// RUN:   --lowp-view-precision-graph="report=%t.new.json"

// expected-error-re @below {{the report '{{.*}}.new.json' has schema version 99; this fp-opt writes version 2: write it again with this fp-opt}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
