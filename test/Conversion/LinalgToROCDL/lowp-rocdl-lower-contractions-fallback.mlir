// Contractions with 16-bit or FP8 operands the MFMA kernel does not take
// keep their linalg op (the naive mapping computes them) with a remark
// naming the op and the reason; f32 ones get neither kernel nor remark.
// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-rocdl-lower-contractions=target=gfx942 | FileCheck %s

// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
func.func @dynamic(%a: memref<?x64xbf16>, %b: memref<64x64xbf16>, %c: memref<?x64xf32>) {
  // expected-remark @+1 {{no MFMA kernel for 'linalg.matmul' on gfx942: an operand is not a statically shaped, row-major buffer; it runs on the naive kernel}}
  linalg.matmul ins(%a, %b : memref<?x64xbf16>, memref<64x64xbf16>) outs(%c : memref<?x64xf32>)
  return
}

// -----

// An FP8 row is 16 values per 16-byte chunk: N = 24 is not whole chunks.
// CHECK-LABEL: func.func @fp8_odd_n
// CHECK: linalg.matmul
func.func @fp8_odd_n(%a: memref<64x64xf8E4M3FNUZ>, %b: memref<64x24xf8E4M3FNUZ>, %c: memref<64x24xf32>) {
  // expected-remark @+1 {{no MFMA kernel for 'linalg.matmul' on gfx942: N (24) and K (64) must be multiples of 16 (16-byte rows)}}
  linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FNUZ>, memref<64x24xf8E4M3FNUZ>) outs(%c : memref<64x24xf32>)
  return
}

// -----

// An f16 accumulator: the body rounds every product to f16 before the sum.
// CHECK-LABEL: func.func @f16_accumulator
// CHECK: linalg.matmul
func.func @f16_accumulator(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-remark @+1 {{not a multiply-accumulate contraction (acc + extf(a) * extf(b))}}
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// A product rounded before the sum is not what the MFMA computes.
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @rounded_product
// CHECK: linalg.generic
func.func @rounded_product(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{not a multiply-accumulate contraction}}
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

// CHECK-LABEL: func.func @f32_untouched
// CHECK: linalg.matmul
func.func @f32_untouched(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
