// A pass that reports an error but does not fail (here MLIR 22's affine
// vectorizer on a strided view, which leaves the loop scalar) makes the
// whole fp-opt run fail: a build script must not take output whose run
// printed "error:". Under -verify-diagnostics the error is expected, and
// the run succeeds.
//
// RUN: not fp-opt %s --affine-super-vectorize=virtual-vector-size=8 -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
// RUN: fp-opt %s --affine-super-vectorize=virtual-vector-size=8 -verify-diagnostics

// CHECK: error: NYI: non-trivial layout map
// CHECK: fp-opt: error: {{[0-9]+}} error(s) reported by passes that did not fail

func.func @strided_copy(%in: memref<16x64xf32, strided<[192, 1]>>, %out: memref<16x64xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 64 {
      // expected-error @below {{NYI: non-trivial layout map}}
      %v = affine.load %in[%i, %j] : memref<16x64xf32, strided<[192, 1]>>
      affine.store %v, %out[%i, %j] : memref<16x64xf32>
    }
  }
  return
}
