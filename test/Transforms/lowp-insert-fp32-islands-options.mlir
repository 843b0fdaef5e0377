// Invalid options are reported on the operation the pass runs on.
// RUN: fp-opt %s -verify-diagnostics -lowp-insert-fp32-islands="low=f32"
// RUN: fp-opt %s -verify-diagnostics -lowp-insert-fp32-islands="low=i8"
// RUN: fp-opt %s -verify-diagnostics -lowp-insert-fp32-islands="target=sm_1"
// RUN: fp-opt %s -verify-diagnostics -lowp-insert-fp32-islands="long-reduction-threshold=-5"

// expected-error-re @below {{{{lowp-insert-fp32-islands: invalid option (low=f32|low=i8): not a float type narrower than f32|unknown target 'sm_1'; known targets: sm_60|lowp-insert-fp32-islands: invalid option long-reduction-threshold=-5: not -1}}}}
module {
}
