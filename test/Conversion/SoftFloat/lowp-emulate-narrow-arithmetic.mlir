// RUN: fp-opt %s -split-input-file "-lowp-emulate-narrow-arithmetic=formats=bf16" -canonicalize | FileCheck %s
// RUN: fp-opt %s -split-input-file "-lowp-emulate-narrow-arithmetic=formats=bf16 excess-precision=true" -canonicalize | FileCheck %s --check-prefix=EXCESS

// Every bf16 op is computed in f32 and rounded back: the truncf/extf pair
// between two ops stays (no `contract`), so canonicalization cannot fold it.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: bf16)
// CHECK:      %[[W:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK:      %[[A:.*]] = arith.mulf %[[W]], %[[W]] : f32
// CHECK:      %[[AB:.*]] = arith.truncf %[[A]] : f32 to bf16
// CHECK:      %[[AW:.*]] = arith.extf %[[AB]] : bf16 to f32
// CHECK:      %[[B:.*]] = arith.mulf %[[AW]], %[[W]] : f32
// CHECK:      %[[R:.*]] = arith.truncf %[[B]] : f32 to bf16
// CHECK:      return %[[R]]
// With upstream's flags the chain is rounded once.
// EXCESS-LABEL: func.func @chain
// EXCESS:      arith.extf {{.*}} fastmath<contract> : bf16 to f32
// EXCESS-NEXT: arith.mulf
// EXCESS-NEXT: arith.mulf
// EXCESS-NEXT: arith.truncf {{.*}} fastmath<contract> : f32 to bf16
// EXCESS-NEXT: return
func.func @chain(%x: bf16) -> bf16 {
  %a = arith.mulf %x, %x : bf16
  %b = arith.mulf %a, %x : bf16
  return %b : bf16
}

// -----

// Vectors too; formats not listed (f16 here) are left to LLVM.
// CHECK-LABEL: func.func @vector_and_f16
// CHECK:       arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK:       arith.addf %{{.*}} : vector<8xf32>
// CHECK:       arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK:       arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK:       arith.mulf %{{.*}} : vector<8xf32>
// CHECK:       arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK:       arith.addf %{{.*}} : f16
func.func @vector_and_f16(%x: vector<8xbf16>, %h: f16) -> (vector<8xbf16>, f16) {
  %a = arith.addf %x, %x : vector<8xbf16>
  %b = arith.mulf %a, %x : vector<8xbf16>
  %c = arith.addf %h, %h : f16
  return %b, %c : vector<8xbf16>, f16
}

// -----

// Math functions on narrow floats (any format) run in f32, rounded after.
// CHECK-LABEL: func.func @math
// CHECK:       %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:       %[[T:.*]] = math.tanh %[[W]] : f32
// CHECK:       %[[R:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK:       %[[RW:.*]] = arith.extf %[[R]] : f16 to f32
// CHECK:       math.exp %[[RW]] : f32
func.func @math(%x: f16) -> f16 {
  %t = math.tanh %x : f16
  %e = math.exp %t : f16
  return %e : f16
}

// -----

// Casts that were in the input keep their flags: a front end's `contract`
// on its own pair is its permission to fold, not the pass's.
// CHECK-LABEL: func.func @input_casts
// CHECK-NOT:   arith.truncf
// CHECK:       return %{{.*}} : f32
func.func @input_casts(%x: f32) -> f32 {
  %t = arith.truncf %x fastmath<contract> : f32 to bf16
  %e = arith.extf %t fastmath<contract> : bf16 to f32
  return %e : f32
}

// -----

// f32 code is not touched.
// CHECK-LABEL: func.func @f32_only
// CHECK-NEXT:  arith.addf %{{.*}} : f32
// CHECK-NEXT:  return
func.func @f32_only(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  return %a : f32
}
