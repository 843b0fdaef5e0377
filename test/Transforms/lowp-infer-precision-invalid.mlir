// Bad options are reported at the module, which is left as it was.
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=f8"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="target=sm_999"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=bf16 accumulate=f64"
// RUN: fp-opt %s -verify-diagnostics --lowp-infer-precision="low=auto"

// Each RUN line triggers exactly one of these errors.
// expected-error-re @below {{{{(unknown low format 'f8'; expected f16, bf16 or auto|unknown target 'sm_999'; known targets: sm_60, .*|unknown accumulator 'f64'; expected f32 or low|low=auto needs a target: pass target=<chip> or set the module's lowp.target)}}}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
