// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2 amx=true" -verify-diagnostics -o /dev/null

// expected-error @below {{amx requested but 'avx2' has no AMX-BF16}}
module {}
