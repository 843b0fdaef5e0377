// Closed sets of choices are enum options: a wrong one is an error in the
// pipeline text, before anything runs, naming the choices.
// RUN: not fp-opt %s -lowp-materialize-loss-scaling="mode=sometimes" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not fp-opt %s -lowp-materialize-loss-scaling="policy=autocast" 2>&1 | FileCheck %s --check-prefix=POLICY
// MODE: for the --mode option: 'sometimes' is not one of: auto, none, static, dynamic
// POLICY: for the --policy option: 'autocast' is not one of: auto, f16, bf16, fp8

// Numeric option values are checked before any function is looked at.
// RUN: fp-opt %s -lowp-materialize-loss-scaling="growth-factor=0.5" -verify-diagnostics
// expected-error @+1 {{lowp-materialize-loss-scaling: growth-factor must be a finite number > 1}}
module {
}
