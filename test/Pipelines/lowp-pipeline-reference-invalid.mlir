// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -lowp-pipeline-reference -verify-diagnostics -o /dev/null
// RUN: not fp-opt %s -split-input-file -allow-unregistered-dialect -lowp-pipeline-reference=threads=2 2>&1 | FileCheck %s --check-prefix=OPTION

// The reference has no options.
// OPTION: no such option threads

// An op the reference cannot lower stops it, with the op's location.
func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mystery.op' is not a registered op: the lowering pipelines cannot compile it}}
  %y = "mystery.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A dynamic tensor.cast chain that contradicts itself (1 -> ? -> 4) is
// rejected before bufferization would fold it into a memref.cast that does
// not verify.
// expected-note @+1 {{the value is defined here}}
func.func @contradictory(%x: tensor<1xf32>) -> tensor<4xf32> {
  %d = tensor.cast %x : tensor<1xf32> to tensor<?xf32>
  // expected-error @+1 {{dimension 0 is 1, not 4, on every execution}}
  %s = tensor.cast %d : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
