// Formats and accumulators outside the option's choices are errors in the
// pipeline text, naming the choices.
// RUN: not fp-opt %s --lowp-infer-precision="low=f8" 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not fp-opt %s --lowp-infer-precision="low=bf16 accumulate=f64" 2>&1 | FileCheck %s --check-prefix=ACC
// LOW: for the --low option: 'f8' is not one of: auto, f16, bf16
// ACC: for the --accumulate option: 'f64' is not one of: f32, low

// Other bad options are reported at the module, which is left as it was.
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="target=sm_999"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=auto"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=bf16 demote-state=true state-format=bf16"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=bf16 demote-state=true state-format=f8"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=bf16 state-format=f8E4M3FN"

// Each RUN line triggers exactly one of these errors.
// expected-error-re @below {{{{(unknown target 'sm_999'; known targets: sm_60, .*|low=auto needs a target: pass target=<chip> or set the module's lowp.target|state-format: expected an 8-bit float format \(f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ\), got '(bf16|f8)'|state-format=f8E4M3FN stores demoted state: it needs demote-state)}}}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
