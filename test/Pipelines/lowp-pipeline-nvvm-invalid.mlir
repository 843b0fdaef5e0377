// Bad chips are reported on the module before anything is lowered; a
// missing chip is an error in the pipeline text.
// RUN: fp-opt %s -verify-diagnostics -lowp-pipeline-nvvm=target=sm_999
// RUN: not fp-opt %s -lowp-pipeline-nvvm 2>&1 | FileCheck %s --check-prefix=NOCHIP
// NOCHIP: lowp-pipeline-nvvm needs target=<sm_XX>

// expected-error-re @+1 {{unknown target 'sm_999'; known targets: sm_60, sm_70, {{.*}}, sm_100, gfx908}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %y = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %y : tensor<4xbf16>
  }
}
