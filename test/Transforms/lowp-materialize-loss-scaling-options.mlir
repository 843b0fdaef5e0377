// RUN: fp-opt %s -lowp-materialize-loss-scaling="mode=sometimes" -verify-diagnostics

// Option values are checked before any function is looked at.
// expected-error @+1 {{lowp-materialize-loss-scaling: mode must be auto, none, static or dynamic, got 'sometimes'}}
module {
}
