// RUN: fp-opt %s -split-input-file -lowp-convert-fp8-to-nvvm=target=sm_90 | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-convert-fp8-to-nvvm=target=sm_89 | FileCheck %s

// A plain truncf: the saturating convert (value in the low byte), then
// E4M3FN's overflow result, NaN (0x7f with the sign kept), where |x|
// rounds past 448: above 464 (the tie rounds down to 448, an even
// mantissa).
// CHECK-LABEL: func.func @trunc_e4m3
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[LIM:.*]] = arith.constant 4.640000e+02 : f32
// CHECK-DAG: %[[NLIM:.*]] = arith.constant -4.640000e+02 : f32
// CHECK-DAG: %[[SIGN:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[NAN:.*]] = arith.constant 127 : i8
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %[[X]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>}  : i16(f8E4M3FN)
// CHECK: %[[B:.*]] = arith.trunci %[[P]] : i16 to i8
// CHECK: %[[HI:.*]] = arith.cmpf ogt, %[[X]], %[[LIM]] : f32
// CHECK: %[[LO:.*]] = arith.cmpf olt, %[[X]], %[[NLIM]] : f32
// CHECK: %[[OV:.*]] = arith.ori %[[HI]], %[[LO]] : i1
// CHECK: %[[S:.*]] = arith.andi %[[B]], %[[SIGN]] : i8
// CHECK: %[[SP:.*]] = arith.ori %[[S]], %[[NAN]] : i8
// CHECK: %[[R:.*]] = arith.select %[[OV]], %[[SP]], %[[B]] : i8
// CHECK: %[[Y:.*]] = arith.bitcast %[[R]] : i8 to f8E4M3FN
// CHECK: return %[[Y]]
func.func @trunc_e4m3(%x: f32) -> f8E4M3FN {
  %y = arith.truncf %x : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// -----

// E5M2: overflow gives inf (0x7c, sign kept) from 61440 on: the tie between
// 57344 (odd mantissa) and 65536 rounds up.
// CHECK-LABEL: func.func @trunc_e5m2
// CHECK-DAG: %[[LIM:.*]] = arith.constant 6.144000e+04 : f32
// CHECK-DAG: %[[INF:.*]] = arith.constant 124 : i8
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}}  : i16(f8E5M2)
// CHECK: arith.cmpf oge, %{{.*}}, %[[LIM]] : f32
// CHECK: arith.cmpf ole
// CHECK: arith.ori %{{.*}}, %[[INF]] : i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
func.func @trunc_e5m2(%x: f32) -> f8E5M2 {
  %y = arith.truncf %x : f32 to f8E5M2
  return %y : f8E5M2
}

// -----

// Clamped into [-448, 448] first (lowp.cast ... saturate): the saturating
// convert is the whole conversion, no overflow select.
// CHECK-LABEL: func.func @trunc_saturating
// CHECK: %[[C:.*]] = arith.minimumf
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %{{.*}}, %[[C]] {{.*}}  : i16(f8E4M3FN)
// CHECK-NEXT: %[[B:.*]] = arith.trunci %[[P]] : i16 to i8
// CHECK-NEXT: %[[Y:.*]] = arith.bitcast %[[B]] : i8 to f8E4M3FN
// CHECK-NEXT: return %[[Y]]
func.func @trunc_saturating(%x: f32) -> f8E4M3FN {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %0 = arith.maximumf %x, %lo : f32
  %1 = arith.minimumf %0, %hi : f32
  %y = arith.truncf %1 : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// -----

// A clamp wider than the format does not make the truncf saturating.
// CHECK-LABEL: func.func @trunc_wide_clamp
// CHECK: nvvm.convert.f32x2.to.f8x2
// CHECK: arith.select
func.func @trunc_wide_clamp(%x: f32) -> f8E4M3FN {
  %lo = arith.constant -1000.0 : f32
  %hi = arith.constant 1000.0 : f32
  %0 = arith.maximumf %x, %lo : f32
  %1 = arith.minimumf %0, %hi : f32
  %y = arith.truncf %1 : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// -----

// Widening: the byte into the low half of an f8x2 pair, cvt to f16x2,
// element 0, then f16 -> f32 (exact); to f16 it stops at the element.
// CHECK-LABEL: func.func @ext
// CHECK-SAME: (%[[X:.*]]: f8E4M3FN, %[[Y:.*]]: f8E5M2)
// CHECK-DAG: %[[I:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[B:.*]] = arith.bitcast %[[X]] : f8E4M3FN to i8
// CHECK: %[[W:.*]] = arith.extui %[[B]] : i8 to i16
// CHECK: %[[V:.*]] = llvm.bitcast %[[W]] : i16 to vector<2xi8>
// CHECK: %[[H2:.*]] = nvvm.convert.f8x2.to.f16x2 %[[V]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: %[[H:.*]] = llvm.extractelement %[[H2]][%[[I]] : i32] : vector<2xf16>
// CHECK: %[[F:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK: %[[G:.*]] = llvm.extractelement
// CHECK-NOT: arith.extf
// CHECK: return %[[F]], %[[G]] : f32, f16
func.func @ext(%x: f8E4M3FN, %y: f8E5M2) -> (f32, f16) {
  %a = arith.extf %x : f8E4M3FN to f32
  %b = arith.extf %y : f8E5M2 to f16
  return %a, %b : f32, f16
}

// -----

// Conversions without an FP8 side are left to the NVVM lowering.
// CHECK-LABEL: func.func @not_fp8
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: nvvm.
func.func @not_fp8(%x: f32, %h: f16) -> (bf16, f32) {
  %a = arith.truncf %x : f32 to bf16
  %b = arith.extf %h : f16 to f32
  return %a, %b : bf16, f32
}

// -----

// An f16 source is widened exactly first; its clamp (bounds in f16, the
// constant first) is recognized all the same.
// CHECK-LABEL: func.func @trunc_f16_saturating
// CHECK: %[[C:.*]] = arith.minimumf
// CHECK: %[[W:.*]] = arith.extf %[[C]] : f16 to f32
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %{{.*}}, %[[W]] {{.*}} : i16(f8E5M2)
// CHECK-NEXT: %[[B:.*]] = arith.trunci %[[P]] : i16 to i8
// CHECK-NEXT: %[[Y:.*]] = arith.bitcast %[[B]] : i8 to f8E5M2
// CHECK-NEXT: return %[[Y]]
func.func @trunc_f16_saturating(%x: f16) -> f8E5M2 {
  %lo = arith.constant -57344.0 : f16
  %hi = arith.constant 57344.0 : f16
  %0 = arith.maximumf %lo, %x : f16
  %1 = arith.minimumf %hi, %0 : f16
  %y = arith.truncf %1 : f16 to f8E5M2
  return %y : f8E5M2
}
