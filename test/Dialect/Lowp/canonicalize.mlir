// RUN: fp-opt %s -canonicalize -split-input-file | FileCheck %s
//
// Constant folds of lowp.cast are bit-exact. Expected bit patterns (printed as
// signed integers through arith.bitcast) were computed independently of the
// code under test, from each format's bit layout with exact rational
// arithmetic: utils/fp_reference.py FORMAT VALUES [--saturate] [--mode ...].

// f32 -> bf16, nearest even: 1.0; 1+2^-8 (tie, to even: down); 1+3*2^-8
// (tie, to even: up); just above a tie; -2.5; 3.4e38 (overflow to inf);
// 3.38e38; NaN; 1e-40 (bf16 subnormal); 2^-134 (below half the smallest
// subnormal: zero).
// CHECK-LABEL: func @bf16_nearest_even
// CHECK: arith.constant dense<[16256, 16256, 16258, 16257, -16352, 32640, 32638, 32704, 1, 0]> : tensor<10xi16>
func.func @bf16_nearest_even() -> tensor<10xi16> {
  %x = arith.constant dense<[1.0, 1.00390625, 1.01171875, 1.0039072036743164, -2.5, 3.4e38, 3.38e38, 0x7FC00000, 1.0e-40, 0x00008000]> : tensor<10xf32>
  %0 = lowp.cast %x : tensor<10xf32> to tensor<10xbf16>
  %1 = arith.bitcast %0 : tensor<10xbf16> to tensor<10xi16>
  return %1 : tensor<10xi16>
}

// -----

// CHECK-LABEL: func @bf16_saturate
// CHECK: arith.constant 32639 : i16
func.func @bf16_saturate() -> i16 {
  %x = arith.constant 3.4e38 : f32
  %0 = lowp.cast %x saturate : f32 to bf16
  %1 = arith.bitcast %0 : bf16 to i16
  return %1 : i16
}

// -----

// Toward zero: 1.0107 -> 1+2^-7, -1.0107 -> -(1+2^-7), 3.4e38 -> bf16 max
// (toward zero never overflows), 1e-41 -> 0.
// CHECK-LABEL: func @bf16_toward_zero
// CHECK: arith.constant dense<[16257, -16511, 32639, 0]> : tensor<4xi16>
func.func @bf16_toward_zero() -> tensor<4xi16> {
  %x = arith.constant dense<[1.0107, -1.0107, 3.4e38, 1.0e-41]> : tensor<4xf32>
  %0 = lowp.cast %x toward_zero : tensor<4xf32> to tensor<4xbf16>
  %1 = arith.bitcast %0 : tensor<4xbf16> to tensor<4xi16>
  return %1 : tensor<4xi16>
}

// -----

// f8E4M3FN (no inf): 448 (max); 464 (tie with the NaN slot: to even, 448);
// 463.9; 500 (overflow: NaN); 2^-9 (smallest subnormal); 2^-10 (tie: 0);
// 1.5*2^-9 (tie: to even, 2*2^-9); -0.0; NaN.
// CHECK-LABEL: func @e4m3fn_nearest_even
// CHECK: arith.constant dense<[126, 126, 126, 127, 1, 0, 2, -128, 127]> : tensor<9xi8>
func.func @e4m3fn_nearest_even() -> tensor<9xi8> {
  %x = arith.constant dense<[448.0, 464.0, 463.9, 500.0, 0.001953125, 0.0009765625, 0.0029296875, -0.0, 0x7FC00000]> : tensor<9xf32>
  %0 = lowp.cast %x : tensor<9xf32> to tensor<9xf8E4M3FN>
  %1 = arith.bitcast %0 : tensor<9xf8E4M3FN> to tensor<9xi8>
  return %1 : tensor<9xi8>
}

// -----

// Saturation clamps finite overflow to +-448; infinity saturates too.
// CHECK-LABEL: func @e4m3fn_saturate
// CHECK: arith.constant dense<[126, -2, 126, 127]> : tensor<4xi8>
func.func @e4m3fn_saturate() -> tensor<4xi8> {
  %x = arith.constant dense<[464.0, -500.0, 0x7F800000, 0x7FC00000]> : tensor<4xf32>
  %0 = lowp.cast %x saturate : tensor<4xf32> to tensor<4xf8E4M3FN>
  %1 = arith.bitcast %0 : tensor<4xf8E4M3FN> to tensor<4xi8>
  return %1 : tensor<4xi8>
}

// -----

// f8E5M2 (has inf): 57344 (max); 61440 (tie: to even, inf); 61439; 2^-17
// (below half the smallest subnormal: 0); inf.
// CHECK-LABEL: func @e5m2
// CHECK: arith.constant dense<[123, 124, 123, 0, 124]> : tensor<5xi8>
// CHECK: arith.constant 123 : i8
func.func @e5m2() -> (tensor<5xi8>, i8) {
  %x = arith.constant dense<[57344.0, 61440.0, 61439.0, 7.62939453125e-06, 0x7F800000]> : tensor<5xf32>
  %0 = lowp.cast %x : tensor<5xf32> to tensor<5xf8E5M2>
  %1 = arith.bitcast %0 : tensor<5xf8E5M2> to tensor<5xi8>
  %y = arith.constant 61440.0 : f32
  %2 = lowp.cast %y saturate : f32 to f8E5M2
  %3 = arith.bitcast %2 : f8E5M2 to i8
  return %1, %3 : tensor<5xi8>, i8
}

// -----

// FNUZ: one NaN (0x80), no negative zero. E4M3FNUZ: 240 (max); -0.0 -> +0;
// NaN; 248 (tie with overflow: to even, up: NaN); 2^-11 (tie: 0).
// E5M2FNUZ: 57344; 1.0; 2^-17 (smallest subnormal).
// CHECK-LABEL: func @fnuz
// CHECK-DAG: arith.constant dense<[127, 0, -128, -128, 0]> : tensor<5xi8>
// CHECK-DAG: arith.constant dense<[127, 64, 1]> : tensor<3xi8>
func.func @fnuz() -> (tensor<5xi8>, tensor<3xi8>) {
  %x = arith.constant dense<[240.0, -0.0, 0x7FC00000, 248.0, 4.8828125e-04]> : tensor<5xf32>
  %0 = lowp.cast %x : tensor<5xf32> to tensor<5xf8E4M3FNUZ>
  %1 = arith.bitcast %0 : tensor<5xf8E4M3FNUZ> to tensor<5xi8>
  %y = arith.constant dense<[57344.0, 1.0, 7.62939453125e-06]> : tensor<3xf32>
  %2 = lowp.cast %y : tensor<3xf32> to tensor<3xf8E5M2FNUZ>
  %3 = arith.bitcast %2 : tensor<3xf8E5M2FNUZ> to tensor<3xi8>
  return %1, %3 : tensor<5xi8>, tensor<3xi8>
}

// -----

// Splat constants fold to splats.
// CHECK-LABEL: func @splat
// CHECK: arith.constant dense<16258> : tensor<2x3xi16>
func.func @splat() -> tensor<2x3xi16> {
  %x = arith.constant dense<1.01171875> : tensor<2x3xf32>
  %0 = lowp.cast %x : tensor<2x3xf32> to tensor<2x3xbf16>
  %1 = arith.bitcast %0 : tensor<2x3xbf16> to tensor<2x3xi16>
  return %1 : tensor<2x3xi16>
}

// -----

// Widening folds exactly.
// CHECK-LABEL: func @widen_constant
// CHECK: arith.constant dense<[4.480000e+02, 0.001953125]> : tensor<2xf32>
func.func @widen_constant() -> tensor<2xf32> {
  %x = arith.constant dense<[448.0, 0.001953125]> : tensor<2xf8E4M3FN>
  %0 = lowp.cast %x : tensor<2xf8E4M3FN> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @same_type
// CHECK-NEXT: return %arg0
func.func @same_type(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = lowp.cast %x toward_zero : tensor<4xbf16> to tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// narrow -> wide -> same narrow is the identity.
// CHECK-LABEL: func @exact_round_trip
// CHECK-NEXT: return %arg0
func.func @exact_round_trip(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = lowp.cast %x : tensor<4xf8E4M3FN> to tensor<4xf16>
  %1 = lowp.cast %0 saturate : tensor<4xf16> to tensor<4xf8E4M3FN>
  return %1 : tensor<4xf8E4M3FN>
}

// -----

// wide -> narrow -> wide rounds: it must not fold.
// CHECK-LABEL: func @lossy_round_trip
// CHECK: %[[N:.*]] = lowp.cast %arg0 : f32 to bf16
// CHECK: %[[W:.*]] = lowp.cast %[[N]] : bf16 to f32
// CHECK: return %[[W]]
func.func @lossy_round_trip(%x: f32) -> f32 {
  %0 = lowp.cast %x : f32 to bf16
  %1 = lowp.cast %0 : bf16 to f32
  return %1 : f32
}

// -----

// An exact widening feeding a cast is skipped: only the second cast rounds.
// CHECK-LABEL: func @skip_exact_widening
// CHECK: %[[C:.*]] = lowp.cast %arg0 saturate : vector<4xbf16> to vector<4xf8E5M2>
// CHECK-NEXT: return %[[C]]
func.func @skip_exact_widening(%x: vector<4xbf16>) -> vector<4xf8E5M2> {
  %0 = lowp.cast %x : vector<4xbf16> to vector<4xf32>
  %1 = lowp.cast %0 saturate : vector<4xf32> to vector<4xf8E5M2>
  return %1 : vector<4xf8E5M2>
}

// -----

// A narrowing in between is not skipped.
// CHECK-LABEL: func @keep_rounding_chain
// CHECK: lowp.cast %arg0 : f32 to f16
// CHECK: lowp.cast %{{.*}} : f16 to f8E4M3FN
func.func @keep_rounding_chain(%x: f32) -> f8E4M3FN {
  %0 = lowp.cast %x : f32 to f16
  %1 = lowp.cast %0 : f16 to f8E4M3FN
  return %1 : f8E4M3FN
}

// -----

// Stochastic rounding is not evaluated at compile time.
// CHECK-LABEL: func @stochastic_constant
// CHECK: lowp.cast %{{.*}} stochastic seed
func.func @stochastic_constant(%seed: i32) -> bf16 {
  %x = arith.constant 1.00390625 : f32
  %0 = lowp.cast %x stochastic seed(%seed : i32) : f32 to bf16
  return %0 : bf16
}

// -----

// Scaling by a constant 1 changes nothing.
// CHECK-LABEL: func @unit_scale
// CHECK-NOT: lowp.scale
// CHECK-NOT: lowp.unscale
// CHECK: return %arg0, %arg1
func.func @unit_scale(%a: tensor<4xf16>, %b: tensor<2xf32>) -> (tensor<4xf16>, tensor<2xf32>) {
  %one = arith.constant 1.0 : f32
  %0 = lowp.scale %one, %a : f32, tensor<4xf16>
  %1 = lowp.unscale %one, %b : f32, tensor<2xf32>
  return %0, %1 : tensor<4xf16>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @non_unit_scale
// CHECK: lowp.scale
func.func @non_unit_scale(%a: tensor<4xf16>) -> tensor<4xf16> {
  %s = arith.constant 1024.0 : f32
  %0 = lowp.scale %s, %a : f32, tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// all_finite of constants folds; a NaN or inf anywhere makes it false.
// CHECK-LABEL: func @all_finite_constants
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK: return %[[T]], %[[F]], %[[F]]
func.func @all_finite_constants() -> (i1, i1, i1) {
  %a = arith.constant dense<[1.0, 65504.0]> : tensor<2xf16>
  %b = arith.constant 3.0 : f32
  %c = arith.constant dense<[1.0, 0x7C00]> : tensor<2xf16>
  %d = arith.constant dense<0x7FC00000> : tensor<3xf32>
  %0 = lowp.all_finite %a, %b : tensor<2xf16>, f32
  %1 = lowp.all_finite %a, %c : tensor<2xf16>, tensor<2xf16>
  %2 = lowp.all_finite %d : tensor<3xf32>
  return %0, %1, %2 : i1, i1, i1
}

// -----

// A non-constant input keeps the op.
// CHECK-LABEL: func @all_finite_dynamic
// CHECK: lowp.all_finite
func.func @all_finite_dynamic(%x: tensor<4xf32>) -> i1 {
  %a = arith.constant dense<1.0> : tensor<2xf16>
  %0 = lowp.all_finite %a, %x : tensor<2xf16>, tensor<4xf32>
  return %0 : i1
}
