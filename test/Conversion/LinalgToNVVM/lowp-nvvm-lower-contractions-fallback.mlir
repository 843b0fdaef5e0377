// Contractions with 16-bit operands that the tensor-core kernel does
// not take keep their linalg op (the naive mapping computes them) and get a
// remark naming the op and the reason; f32 ones are not this pass's
// business (no remark). Unknown, missing and non-NVIDIA chips are errors.
// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-nvvm-lower-contractions=target=sm_80 | FileCheck %s

// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
func.func @dynamic(%a: memref<?x64xbf16>, %b: memref<64x64xbf16>, %c: memref<?x64xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.matmul' on sm_80: an operand is not a statically shaped, row-major buffer; it runs on the naive kernel}}
  linalg.matmul ins(%a, %b : memref<?x64xbf16>, memref<64x64xbf16>) outs(%c : memref<?x64xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @odd_n
// CHECK: linalg.matmul
func.func @odd_n(%a: memref<64x64xbf16>, %b: memref<64x20xbf16>, %c: memref<64x20xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.matmul' on sm_80: N (20) and K (64) must be multiples of 8 (16-byte rows)}}
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x20xbf16>) outs(%c : memref<64x20xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @strided
// CHECK: linalg.matmul
func.func @strided(%a: memref<64x64xbf16, strided<[128, 1]>>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{an operand is not a statically shaped, row-major buffer}}
  linalg.matmul ins(%a, %b : memref<64x64xbf16, strided<[128, 1]>>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#mAt = affine_map<(m, n, k) -> (k, m)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @transposed_a
// CHECK: linalg.generic
func.func @transposed_a(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{A is not indexed [batch][m][k] (a transposed A is not supported)}}
  linalg.generic {indexing_maps = [#mAt, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
// A product rounded to bf16 before the sum is not what the tensor cores
// compute: not touched.
// CHECK-LABEL: func.func @rounded_product
// CHECK: linalg.generic
func.func @rounded_product(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{not a multiply-accumulate contraction (acc + extf(a) * extf(b))}}
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %p = arith.mulf %x, %y : bf16
    %pf = arith.extf %p : bf16 to f32
    %s = arith.addf %acc, %pf : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// CHECK-LABEL: func.func @mixed
// CHECK: linalg.matmul
func.func @mixed(%a: memref<64x64xf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{A and B have different element types}}
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @f16_accumulator
// CHECK: linalg.matmul
func.func @f16_accumulator(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-remark @+1 {{not a multiply-accumulate contraction}}
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// f32 contractions: left alone, silently.
// CHECK-LABEL: func.func @f32
// CHECK: linalg.matmul
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

