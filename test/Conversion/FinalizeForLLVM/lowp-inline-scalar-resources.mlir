// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-inline-scalar-resources | FileCheck %s

// Rank-0 dense_resource initializers become dense ones read from the blob
// (0x40000000 is 2.0 in f32; the blob starts with its 4-byte alignment);
// tensors of higher rank keep their resource.
// CHECK-LABEL: module
// CHECK: memref.global "private" constant @scale : memref<f32> = dense<2.000000e+00>
// CHECK: memref.global "private" constant @vector : memref<2xf32> = dense_resource<vec>
module {
  memref.global "private" constant @scale : memref<f32> = dense_resource<two>
  memref.global "private" constant @vector : memref<2xf32> = dense_resource<vec>
}
{-#
  dialect_resources: {
    builtin: {
      two: "0x0400000000000040",
      vec: "0x040000000000803F0000803F"
    }
  }
#-}

// -----

// A blob of the wrong size is an error on the global, not a crash.
module {
  // expected-error @+1 {{cannot read the initial value of scalar global @short from its resource blob (wrong size)}}
  memref.global "private" constant @short : memref<f32> = dense_resource<half>
}
{-#
  dialect_resources: {
    builtin: {
      half: "0x040000000040"
    }
  }
#-}
