// A report written by an fp-opt with another report schema (here: none,
// as before schema versions) is not overwritten: the error names both
// versions.
// RUN: echo '{"low": "bf16", "decisions": []}' > %t.old.json
// RUN: fp-opt %s -verify-diagnostics -o /dev/null \
// RUN:   --lowp-view-precision-graph="report=%t.old.json"
// RUN: FileCheck %s --input-file=%t.old.json
// CHECK: {"low": "bf16", "decisions": []}

// expected-error-re @below {{the report '{{.*}}.old.json' has no schema version; this fp-opt writes version 2: write it again with this fp-opt}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %0 = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
