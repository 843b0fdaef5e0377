// lowp-pipeline-reference: plain loops for this CPU whatever the module's
// target (sm_90 has bf16 and FP8 conversion instructions; the reference
// uses none of them): bf16 arithmetic in f32 between exact integer
// conversions (no bf16 add or multiply, no fptrunc/fpext libcalls), FP8 as
// integer code, buffers freed, lowp's attributes gone. The numerics are
// executed in test/Integration/X86/bf16-per-op-rounding.mlir and by every
// test of test/Integration/Models and FP8; bad input in
// lowp-pipeline-reference-invalid.mlir.
//
// RUN: fp-opt %s -lowp-pipeline-reference | FileCheck %s

// CHECK-NOT: lowp.
// CHECK-LABEL: llvm.func @rounded_per_op
// CHECK-NOT: llvm.fptrunc
// CHECK-NOT: llvm.fpext
// CHECK-NOT: llvm.call @__
// CHECK: llvm.fadd %{{.*}} : f32
// CHECK-NOT: llvm.fptrunc
// CHECK: llvm.fmul %{{.*}} : f32
// CHECK-NOT: llvm.fptrunc
// CHECK-NOT: llvm.fpext
// CHECK-NOT: llvm.call @__
// CHECK: llvm.call @free
module attributes {lowp.target = #lowp.target<"sm_90">} {
  func.func @rounded_per_op(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
    %a = lowp.cast %x : tensor<64xf32> to tensor<64xbf16>
    %b = lowp.cast %y : tensor<64xf32> to tensor<64xbf16>
    %s = arith.addf %a, %b : tensor<64xbf16>
    %m = arith.mulf %s, %a : tensor<64xbf16>
    %q = lowp.cast %m {saturate} : tensor<64xbf16> to tensor<64xf8E4M3FN>
    %r = lowp.cast %q : tensor<64xf8E4M3FN> to tensor<64xf32>
    return %r : tensor<64xf32>
  }
}
