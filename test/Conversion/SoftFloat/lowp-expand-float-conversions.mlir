// RUN: fp-opt %s -lowp-expand-float-conversions -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-expand-float-conversions=target=avx512bf16 -split-input-file \
// RUN:   | FileCheck %s --check-prefix=BF16HW
// RUN: fp-opt %s -lowp-expand-float-conversions=target=sm_90 -split-input-file \
// RUN:   | FileCheck %s --check-prefix=GPU

// f32 -> bf16, nearest-even: u + 0x7fff + lsb, then >> 16; NaN quieted
// (| 0x40) with its payload and sign.
// CHECK-LABEL: func @trunc_bf16
// CHECK-DAG: %[[QUIET:.*]] = arith.constant dense<64> : vector<8xi32>
// CHECK-DAG: %[[INF:.*]] = arith.constant dense<2139095040> : vector<8xi32>
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<32767> : vector<8xi32>
// CHECK-DAG: %[[C16:.*]] = arith.constant dense<16> : vector<8xi32>
// CHECK: %[[U:.*]] = arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK: %[[HI:.*]] = arith.shrui %[[U]], %[[C16]]
// CHECK: %[[LSB:.*]] = arith.andi %[[HI]]
// CHECK: %[[S1:.*]] = arith.addi %[[U]], %[[HALF]]
// CHECK: %[[S2:.*]] = arith.addi %[[S1]], %[[LSB]]
// CHECK: %[[R:.*]] = arith.shrui %[[S2]], %[[C16]]
// CHECK: %[[ISNAN:.*]] = arith.cmpi ugt, %{{.*}}, %[[INF]]
// CHECK: %[[Q:.*]] = arith.ori %{{.*}}, %[[QUIET]]
// CHECK: %[[SEL:.*]] = arith.select %[[ISNAN]], %[[Q]], %[[R]]
// CHECK: %[[T:.*]] = arith.trunci %[[SEL]] : vector<8xi32> to vector<8xi16>
// CHECK: arith.bitcast %[[T]] : vector<8xi16> to vector<8xbf16>
// CHECK-NOT: arith.truncf
// BF16HW-LABEL: func @trunc_bf16
// BF16HW: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
func.func @trunc_bf16(%x: vector<8xf32>) -> vector<8xbf16> {
  %0 = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %0 : vector<8xbf16>
}

// -----

// bf16 -> f32 is a shift.
// CHECK-LABEL: func @ext_bf16
// CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : bf16 to i16
// CHECK: %[[W:.*]] = arith.extui %[[B]] : i16 to i32
// CHECK: %[[S:.*]] = arith.shli %[[W]], %{{.*}} : i32
// CHECK: arith.bitcast %[[S]] : i32 to f32
// CHECK-NOT: arith.extf
func.func @ext_bf16(%x: bf16) -> f32 {
  %0 = arith.extf %x : bf16 to f32
  return %0 : f32
}

// -----

// f32 -> f8E4M3FN: rebias by (127 - 7) << 23 = 0x3c000000, round at bit 20,
// per-lane shift for subnormals, overflow past 0x7e (448) to the NaN 0x7f.
// CHECK-LABEL: func @trunc_e4m3fn
// CHECK-DAG: arith.constant dense<1006632960> : vector<16xi32>
// CHECK-DAG: arith.constant dense<126> : vector<16xi32>
// CHECK-DAG: arith.constant dense<127> : vector<16xi32>
// CHECK: arith.maxui
// CHECK: arith.minui
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: arith.bitcast %{{.*}} : vector<16xi8> to vector<16xf8E4M3FN>
// CHECK-NOT: arith.truncf
// BF16HW-LABEL: func @trunc_e4m3fn
// BF16HW-NOT: arith.truncf
func.func @trunc_e4m3fn(%x: vector<16xf32>) -> vector<16xf8E4M3FN> {
  %0 = arith.truncf %x : vector<16xf32> to vector<16xf8E4M3FN>
  return %0 : vector<16xf8E4M3FN>
}

// -----

// FNUZ: one NaN pattern (0x80), no negative zero.
// CHECK-LABEL: func @trunc_e5m2fnuz
// BF16HW-LABEL: func @trunc_e5m2fnuz
// CHECK-DAG: %[[NAN:.*]] = arith.constant 128 : i32
// CHECK: %[[Z:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: arith.select %[[Z]]
// CHECK: arith.select %{{.*}}, %[[NAN]], %{{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @trunc_e5m2fnuz(%x: f32) -> f8E5M2FNUZ {
  %0 = arith.truncf %x : f32 to f8E5M2FNUZ
  return %0 : f8E5M2FNUZ
}

// -----

// FP8 -> f32: rebias for normals, an exact integer-to-float scaling for
// subnormals, inf/NaN with the payload moved up.
// CHECK-LABEL: func @ext_e5m2
// CHECK-DAG: %[[QUANTUM:.*]] = arith.constant 1.52587891E-5 : f32
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: %[[N:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf %[[N]], %[[QUANTUM]] : f32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK-NOT: arith.extf
func.func @ext_e5m2(%x: f8E5M2) -> f32 {
  %0 = arith.extf %x : f8E5M2 to f32
  return %0 : f32
}

// -----

// Left alone: f16 (F16C converts it), other rounding modes. f64 goes
// through f32 (the f64_to_bf16 case below).
// CHECK-LABEL: func @untouched
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.truncf %{{.*}} toward_zero : f32 to bf16
// CHECK: arith.extf %{{.*}} : bf16 to f64
func.func @untouched(%x: f32, %y: f64, %z: bf16) -> (f16, bf16, bf16, f64) {
  %0 = arith.truncf %x : f32 to f16
  %1 = arith.truncf %y : f64 to bf16
  %2 = arith.truncf %x toward_zero : f32 to bf16
  %3 = arith.extf %z : bf16 to f64
  return %0, %1, %2, %3 : f16, bf16, bf16, f64
}

// -----

// Conversions kept for the hardware drop their (meaningless) fast-math flags.
// BF16HW-LABEL: func @fastmath_dropped
// BF16HW: arith.extf %{{.*}} : bf16 to f32
// BF16HW-NOT: fastmath
func.func @fastmath_dropped(%x: bf16) -> f32 {
  %0 = arith.extf %x fastmath<contract> : bf16 to f32
  return %0 : f32
}

// -----

// The module's lowp.target decides when no option is given.
// CHECK-LABEL: func @from_module_target
// CHECK: arith.truncf %{{.*}} : f32 to bf16
module attributes {lowp.target = #lowp.target<"sapphirerapids">} {
  func.func @from_module_target(%x: f32) -> bf16 {
    %0 = arith.truncf %x : f32 to bf16
    return %0 : bf16
  }
}


// -----

// The body of a named linalg op is implied by its name: its f8 operand
// widening is left for after generalization (or loops); the bodies of
// linalg.generic and linalg.map are expanded like any other code.
// CHECK-LABEL: func @named_op_body_kept
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x4xf8E4M3FN>)
// CHECK: linalg.generic
// CHECK-NOT: arith.truncf
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: linalg.yield
// CHECK: linalg.map
// CHECK-NOT: arith.extf
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: linalg.yield
func.func @named_op_body_kept(%a: tensor<4x8xf8E4M3FN>, %b: tensor<8x4xf8E4M3FN>,
                              %c: tensor<4x4xf32>) -> (tensor<4x4xf8E4M3FN>, tensor<4x8xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf8E4M3FN>, tensor<8x4xf8E4M3FN>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf8E4M3FN>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf8E4M3FN>) {
  ^bb0(%v: f32, %o: f8E4M3FN):
    %n = arith.truncf %v : f32 to f8E4M3FN
    linalg.yield %n : f8E4M3FN
  } -> tensor<4x4xf8E4M3FN>
  %ew = tensor.empty() : tensor<4x8xf32>
  %w = linalg.map ins(%a : tensor<4x8xf8E4M3FN>) outs(%ew : tensor<4x8xf32>)
    (%v: f8E4M3FN, %o: f32) {
      %x = arith.extf %v : f8E4M3FN to f32
      linalg.yield %x : f32
    }
  return %t, %w : tensor<4x4xf8E4M3FN>, tensor<4x8xf32>
}

// -----

// FP8 to a 16-bit format: the exact extension to f32 (expanded), then a
// truncation to bf16 that is exact for every FP8 value (expanded as well
// here: no target, so bf16 has no conversion instruction).
// CHECK-LABEL: func @fp8_to_bf16
// CHECK-NOT:     arith.extf
// CHECK:         arith.extui %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK-NOT:     arith.extf
// CHECK-NOT:     arith.truncf
// CHECK:         arith.trunci %{{.*}} : vector<8xi32> to vector<8xi16>
// CHECK:         return %{{.*}} : vector<8xbf16>
func.func @fp8_to_bf16(%x: vector<8xf8E4M3FN>) -> vector<8xbf16> {
  %y = arith.extf %x : vector<8xf8E4M3FN> to vector<8xbf16>
  return %y : vector<8xbf16>
}

// -----

// A widening between wide formats is not an FP8 or bf16 expansion.
// CHECK-LABEL: func @f16_to_f32_kept
// CHECK:         arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
func.func @f16_to_f32_kept(%x: vector<8xf16>) -> vector<8xf32> {
  %y = arith.extf %x : vector<8xf16> to vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// f64 -> bf16: no CPU instruction (LLVM would call __truncdfbf2). Rounded
// to f32 to odd (the hardware rounding moved one step toward zero where it
// went away from it, the last bit set where inexact), then to nearest-even
// in bf16. A GPU target converts f64 itself.
// CHECK-LABEL: func @f64_to_bf16
// CHECK:         %[[N:.*]] = arith.truncf %[[X:.*]] : vector<8xf64> to vector<8xf32>
// CHECK:         %[[B:.*]] = arith.extf %[[N]] : vector<8xf32> to vector<8xf64>
// CHECK:         %[[INEXACT:.*]] = arith.cmpf one, %[[B]], %[[X]]
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[N]] : vector<8xf32> to vector<8xi32>
// CHECK:         %[[DOWN:.*]] = arith.subi %[[BITS]]
// CHECK:         %[[TZ:.*]] = arith.select %{{.*}}, %[[DOWN]], %[[BITS]]
// CHECK:         %[[ODD:.*]] = arith.ori %[[TZ]]
// CHECK:         arith.select %[[INEXACT]], %[[ODD]], %[[TZ]]
// CHECK-NOT:     arith.truncf
// CHECK:         return
// BF16HW-LABEL: func @f64_to_bf16
// BF16HW:         arith.truncf %{{.*}} : vector<8xf64> to vector<8xf32>
// BF16HW:         arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// GPU-LABEL:    func @f64_to_bf16
// GPU-NOT:        arith.ori
// GPU:            arith.truncf %{{.*}} : vector<8xf64> to vector<8xbf16>
func.func @f64_to_bf16(%x: vector<8xf64>) -> vector<8xbf16> {
  %y = arith.truncf %x : vector<8xf64> to vector<8xbf16>
  return %y : vector<8xbf16>
}

// -----

// A constant is rounded with APFloat: 1 + 2^-8 + 2^-52 is just above a tie
// and rounds up (through f32 to nearest it would land on the tie and round
// to even, down). Tensors are left to the bufferized code.
// CHECK-LABEL: func @f64_constant_to_bf16
// CHECK:         %[[C:.*]] = arith.constant 1.007810e+00 : bf16
// CHECK:         %[[T:.*]] = arith.truncf %{{.*}} : tensor<4xf64> to tensor<4xbf16>
// CHECK:         return %[[C]], %[[T]]
func.func @f64_constant_to_bf16(%t: tensor<4xf64>) -> (bf16, tensor<4xbf16>) {
  %c = arith.constant 1.0039062500000002 : f64
  %b = arith.truncf %c : f64 to bf16
  %u = arith.truncf %t : tensor<4xf64> to tensor<4xbf16>
  return %b, %u : bf16, tensor<4xbf16>
}
