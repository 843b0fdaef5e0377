// RUN: fp-opt %s -split-input-file -lowp-order-constant-globals | FileCheck %s

// Two constants of one type whose names bufferization gave in the "wrong"
// order (@g's first): renamed and placed by first use (@f reads [3, 4]).
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_3xi32 : memref<3xi32>
// CHECK: func.func @f
// CHECK-NEXT: memref.get_global @__constant_2xf32 : memref<2xf32>
// CHECK: func.func @g
// CHECK-NEXT: memref.get_global @__constant_2xf32_0 : memref<2xf32>
module {
  memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.0, 2.0]>
  memref.global "private" constant @__constant_3xi32 : memref<3xi32> = dense<[1, 2, 3]>
  memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.0, 4.0]>
  func.func @f() -> memref<2xf32> {
    %0 = memref.get_global @__constant_2xf32_0 : memref<2xf32>
    return %0 : memref<2xf32>
  }
  func.func @g() -> memref<2xf32> {
    %0 = memref.get_global @__constant_2xf32 : memref<2xf32>
    return %0 : memref<2xf32>
  }
}

// -----

// Globals that are not bufferization's (public, mutable, other names) are
// left where they are, with their names; the user's @__constant_4xf32
// (public) keeps its name and bufferization's constant of that type gets a
// unique one.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" @state : memref<4xf32>
// CHECK-NEXT: memref.global "private" constant @weights : memref<4xf32>
// CHECK: memref.get_global @__constant_4xf32_0
// CHECK: memref.get_global @__constant_4xf32 :
module {
  memref.global @__constant_4xf32 : memref<4xf32> = dense<1.0>
  memref.global "private" @state : memref<4xf32> = dense<0.0>
  memref.global "private" constant @weights : memref<4xf32> = dense<5.0>
  memref.global "private" constant @__constant_4xf32_7 : memref<4xf32> = dense<2.0>
  func.func @f() -> (memref<4xf32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32_7 : memref<4xf32>
    %1 = memref.get_global @__constant_4xf32 : memref<4xf32>
    return %0, %1 : memref<4xf32>, memref<4xf32>
  }
}

// -----

// No constant globals: nothing changes.
// CHECK-LABEL: func.func @no_globals
// CHECK-NEXT: return
func.func @no_globals() {
  return
}
