#!/bin/sh
# Interestingness test of fp-opt-reduce.test: exit 1 (interesting) while
# lowp-select-fp8-formats still fails on the input for a chip without FP8.
#   fp8-needs-target-with-fp8.sh FP_OPT INPUT
"$1" "$2" --lowp-select-fp8-formats="target=sm_80" -o /dev/null 2>&1 \
  | grep -q "has no FP8 support" && exit 1
exit 0
