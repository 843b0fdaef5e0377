// Every lowp.cast mode, lowered by convert-lowp-to-linalg and then expanded
// for AVX2: no float conversion is left for LLVM (which would call
// __truncsfbf2 or fail on FP8).
// RUN: fp-opt %s -convert-lowp-to-linalg -lowp-expand-float-conversions=target=avx2 \
// RUN:   -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @nearest_bf16
// CHECK-NOT: arith.truncf
// CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi16>
func.func @nearest_bf16(%x: vector<8xf32>) -> vector<8xbf16> {
  %0 = lowp.cast %x : vector<8xf32> to vector<8xbf16>
  return %0 : vector<8xbf16>
}

// -----

// Saturation: the NaN-preserving clamp, then the integer rounding.
// CHECK-LABEL: func @saturate_e4m3
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK-NOT: arith.truncf
// CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
func.func @saturate_e4m3(%x: vector<8xf32>) -> vector<8xf8E4M3FN> {
  %0 = lowp.cast %x saturate : vector<8xf32> to vector<8xf8E4M3FN>
  return %0 : vector<8xf8E4M3FN>
}

// -----

// Toward zero: nearest-even, widened back (both now integer code), then
// the one-unit step.
// CHECK-LABEL: func @toward_zero_e5m2
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: arith.cmpf ogt
// CHECK: arith.subi
// CHECK: return
func.func @toward_zero_e5m2(%x: f32) -> f8E5M2 {
  %0 = lowp.cast %x toward_zero : f32 to f8E5M2
  return %0 : f8E5M2
}

// -----

// Stochastic: random bits added below bf16's last bit, then exact truncation.
// CHECK-LABEL: func @stochastic_bf16
// CHECK-NOT: arith.truncf
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: arith.trunci %{{.*}} : i32 to i16
func.func @stochastic_bf16(%x: tensor<16xf32>, %seed: i32) -> tensor<16xbf16> {
  %0 = lowp.cast %x stochastic seed(%seed : i32) : tensor<16xf32> to tensor<16xbf16>
  return %0 : tensor<16xbf16>
}

// -----

// Widening from every FP8 format: integer code too.
// CHECK-LABEL: func @widen_fp8
// CHECK-NOT: arith.extf
// CHECK: arith.sitofp
// CHECK: return
func.func @widen_fp8(%a: f8E4M3FN, %b: f8E5M2, %c: f8E4M3FNUZ, %d: f8E5M2FNUZ) -> (f32, f32, f32, f32) {
  %0 = lowp.cast %a : f8E4M3FN to f32
  %1 = lowp.cast %b : f8E5M2 to f32
  %2 = lowp.cast %c : f8E4M3FNUZ to f32
  %3 = lowp.cast %d : f8E5M2FNUZ to f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}
