// f64 in AMDGPU kernels without the ROCm device library: the math the
// backend or math-expand-ops handles exactly passes (floor becomes
// -ceil(-x)); transcendentals, non-constant fpowi and arith.remf (any
// width) are rejected with one located error naming the first op, with a
// note for each further one. Host code (outside gpu.module) is left alone.
// RUN: fp-opt %s -lowp-rocdl-expand-math -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.module @exact
// CHECK: func.func @k
// CHECK-NOT: math.floor
// CHECK: %[[N:.*]] = arith.negf %{{.*}} : f64
// CHECK: %[[C:.*]] = math.ceil %[[N]] : f64
// CHECK: arith.negf %[[C]] : f64
// CHECK: math.ceil
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: math.fma
// CHECK: math.fpowi
// CHECK: math.absf
// CHECK: math.roundeven
// CHECK: math.isnan
gpu.module @exact {
  func.func @k(%x: f64, %v: vector<4xf64>) -> (f64, vector<4xf64>, i1) {
    %c3 = arith.constant 3 : i32
    %0 = math.floor %x : f64
    %1 = math.ceil %0 : f64
    %2 = math.sqrt %1 : f64
    %3 = math.rsqrt %2 : f64
    %4 = math.fma %3, %x, %x : f64
    %5 = math.fpowi %4, %c3 : f64, i32
    %6 = math.absf %v : vector<4xf64>
    %7 = math.roundeven %6 : vector<4xf64>
    %8 = math.isnan %5 : f64
    return %5, %7, %8 : f64, vector<4xf64>, i1
  }
}

// -----

// Host code: not a kernel, left as it is.
// CHECK-LABEL: func.func @host
// CHECK: math.exp %{{.*}} : f64
func.func @host(%x: f64) -> f64 {
  %0 = math.exp %x : f64
  return %0 : f64
}

// -----

gpu.module @transcendental {
  func.func @k(%x: f64) -> f64 {
    // expected-error @+1 {{'math.exp' on 'f64' in an AMDGPU kernel needs the ROCm device library (ocml): AMDGCN has no instruction for it and lowp-rocdl-expand-math no exact expansion; give lowp-pipeline-rocdl rocm-path=<ROCm installation>, or compute it in f32}}
    %0 = math.exp %x : f64
    // expected-note @+1 {{'math.tanh' here needs it as well}}
    %1 = math.tanh %0 : f64
    // f32 next to it is fine (approximated or the backend's own).
    %t = arith.truncf %1 : f64 to f32
    %2 = math.sin %t : f32
    %e = arith.extf %2 : f32 to f64
    // expected-note @+1 {{'math.powf' here needs it as well}}
    %3 = math.powf %e, %x : f64
    return %3 : f64
  }
}

// -----

gpu.module @vector_erf {
  func.func @k(%v: vector<4xf64>) -> vector<4xf64> {
    // expected-error @+1 {{'math.erf' on 'f64' in an AMDGPU kernel needs the ROCm device library}}
    %0 = math.erf %v : vector<4xf64>
    return %0 : vector<4xf64>
  }
}

// -----

gpu.module @fpowi_by_variable {
  func.func @k(%x: f64, %n: i32) -> f64 {
    // expected-error @+1 {{'math.fpowi' on 'f64' in an AMDGPU kernel needs the ROCm device library}}
    %0 = math.fpowi %x, %n : f64, i32
    return %0 : f64
  }
}

// -----

// fmod has no AMDGCN instruction at any width; no "compute it in f32" hint.
gpu.module @remf_f32 {
  func.func @k(%x: f32, %y: f32) -> f32 {
    // expected-error-re @+1 {{'arith.remf' on 'f32' in an AMDGPU kernel needs the ROCm device library (ocml): {{.*}} rocm-path=<ROCm installation>{{$}}}}
    %0 = arith.remf %x, %y : f32
    return %0 : f32
  }
}
