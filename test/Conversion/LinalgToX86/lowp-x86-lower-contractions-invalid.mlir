// RUN: fp-opt %s -lowp-x86-lower-contractions=target=sm_90 -verify-diagnostics -o /dev/null

// expected-error @below {{'sm_90' is not an x86 target}}
module {}
