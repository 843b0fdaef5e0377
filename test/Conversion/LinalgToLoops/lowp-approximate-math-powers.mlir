// RUN: fp-opt %s -lowp-approximate-math -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-approximate-math -split-input-file -verify-diagnostics -o /dev/null

// Powers by a constant become multiplies, sqrt or rsqrt (torch-mlir's
// x.pow(2) in a variance or an RMSNorm; LLVM would keep a vector llvm.pow
// one libm call per element).
// CHECK-LABEL: func @constant_powers
// CHECK-NOT: math.powf
// CHECK: %[[SQ:.*]] = arith.mulf %arg0, %arg0 : vector<8xf32>
// CHECK: math.sqrt %{{.*}} : vector<8xf32>
// CHECK: math.rsqrt %{{.*}} : vector<8xf32>
// CHECK-NOT: math.powf
func.func @constant_powers(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %two = arith.constant dense<2.0> : vector<8xf32>
  %half = arith.constant dense<0.5> : vector<8xf32>
  %mhalf = arith.constant dense<-0.5> : vector<8xf32>
  %sq = math.powf %x, %two : vector<8xf32>
  %rt = math.powf %x, %half : vector<8xf32>
  %rs = math.powf %x, %mhalf : vector<8xf32>
  return %sq, %rt, %rs : vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// -----

// What stays a libm call per element on vectors gets a remark (a slow
// path); on scalars, or ops LLVM has vector instructions for, none.
// CHECK-LABEL: func @scalarized
// CHECK: math.powf %arg0, %arg1 : vector<8xf32>
// CHECK: math.sin %arg0 : vector<8xf32>
func.func @scalarized(%x: vector<8xf32>, %y: vector<8xf32>, %s: f32) -> (vector<8xf32>, vector<8xf32>, f32, vector<8xf32>) {
  // expected-remark @below {{slow path: 'math.powf' on a vector is one libm call per element (no measured vector approximation)}}
  %p = math.powf %x, %y : vector<8xf32>
  // expected-remark @below {{slow path: 'math.sin' on a vector is one libm call per element (no measured vector approximation)}}
  %c = math.sin %x : vector<8xf32>
  %t = math.sin %s : f32
  %r = math.sqrt %x : vector<8xf32>
  return %p, %c, %t, %r : vector<8xf32>, vector<8xf32>, f32, vector<8xf32>
}
