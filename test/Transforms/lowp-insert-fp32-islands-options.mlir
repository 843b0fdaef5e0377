// A format that is not a float type narrower than f32 is an error in the
// pipeline text, which lists the formats.
// RUN: not fp-opt %s -lowp-insert-fp32-islands="low=f32" 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not fp-opt %s -lowp-insert-fp32-islands="low=i8" 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: for the --low option: '{{f32|i8}}' is not one of: auto, f16, bf16, tf32, f8E5M2, f8E4M3, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN

// Other invalid options are reported on the operation the pass runs on.
// RUN: fp-opt %s -verify-diagnostics -lowp-insert-fp32-islands="target=sm_1"
// RUN: fp-opt %s -verify-diagnostics -lowp-insert-fp32-islands="long-reduction-threshold=-5"

// expected-error-re @below {{{{unknown target 'sm_1'; known targets: sm_60|lowp-insert-fp32-islands: invalid option long-reduction-threshold=-5: not -1}}}}
module {
}
