// Idioms of the StableHLO, TOSA and IREE paths to linalg, in one model:
// a fused q/k/v projection (one 32x96 linalg.matmul) split by
// tensor.extract_slice, named elementwise ops (linalg.add, linalg.mul as
// TOSA-to-linalg-named emits them), linalg.broadcast, linalg.map with
// math.tanh, |x|^1.5 by math.powf, tensor.concat; a TOSA convolution
// (linalg.conv_2d_nhwc_fhwc), a depthwise convolution
// (linalg.depthwise_conv_2d_nhwc_hwc, MobileNet) and linalg.matvec. Four
// outputs, each checked on its own.
//
// Inputs from @gen (offset + scale * u_i, u_i = (7919 i + 104729 seed) mod
// 10007 spread over [-1, 1]): activations in
// [-1, 1], weights in [-0.25, 0.25].
//
// Bound (Inputs/check_model.py, which states the model): every element
// within B max|y| of the f32 run of this file without lowp passes (the
// loop path), B = c * sum over formats F of sqrt(sum K) u_F, K the
// lengths of the reductions run with operands in F on the longest path,
// u_F = 2^-p the unit roundoff (bf16 2^-8, f16 2^-11, E4M3 2^-4).
// Here the longest one is the 3x3x8 convolution, K = 72 (the projection
// has 32, the depthwise convolution 9, the matvec 32; under the FP8 policy
// all four take E4M3 operands), c = 1. The f32 model through
// lowp-pipeline-x86 against the loop path: B = (72 + 32) 2^-24, the 32
// for the projection's path through tanh and powf, whose results differ
// by a few ulps between the two lowerings. Every low-precision run must
// also differ from f32 by more than u/64 of its 16-bit format.
//
// RUN: fp-opt %s --lowp-pipeline-reference | %run > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | %run > %t.x86.f32
// RUN: %check %t.ref %t.x86.f32 --term f32:72,32 | FileCheck %s
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.bf16.avx2
// RUN: %check %t.ref %t.bf16.avx2 --term bf16:72 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.bf16.mlir --lowp-pipeline-reference | %run > %t.bf16.generic
// RUN: %check %t.ref %t.bf16.generic --term bf16:72 --min-rel 6.1e-5 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.bf16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.bf16.avx512 --term bf16:72 --min-rel 6.1e-5 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=f16" -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.mlir
// RUN: fp-opt %t.f16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.f16.avx2
// RUN: %check %t.ref %t.f16.avx2 --term f16:72 --min-rel 7.6e-6 | FileCheck %s
// RUN: fp-opt %t.f16.mlir --lowp-pipeline-reference | %run > %t.f16.generic
// RUN: %check %t.ref %t.f16.generic --term f16:72 --min-rel 7.6e-6 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.f16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.f16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.f16.avx512 --term f16:72 --min-rel 7.6e-6 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=fp8" -o %t.fp8.mlir
// RUN: FileCheck %s --check-prefix=FP8 < %t.fp8.mlir
// RUN: fp-opt %t.fp8.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.fp8.avx2
// RUN: %check %t.ref %t.fp8.avx2 --term f8E4M3FN:72 --term bf16:72 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.fp8.mlir --lowp-pipeline-reference | %run > %t.fp8.generic
// RUN: %check %t.ref %t.fp8.generic --term f8E4M3FN:72 --term bf16:72 --min-rel 6.1e-5 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: PASS

// BF16-LABEL: func.func @forward(
// BF16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xbf16>, tensor<32x96xbf16>)
// BF16: linalg.conv_2d_nhwc_fhwc {{.*}}bf16
// F16-LABEL: func.func @forward(
// F16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xf16>, tensor<32x96xf16>)
// F16: linalg.conv_2d_nhwc_fhwc {{.*}}f16
// FP8-LABEL: func.func @forward(
// FP8: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xf8E4M3FN>, tensor<32x96xf8E4M3FN>)
// FP8: linalg.conv_2d_nhwc_fhwc {{.*}}f8E4M3FN

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @forward(%x: tensor<8x32xf32>, %wqkv: tensor<32x96xf32>, %img: tensor<1x6x6x8xf32>,
                     %fw: tensor<4x3x3x8xf32>, %dw: tensor<3x3x8xf32>, %v: tensor<32xf32>, %m: tensor<16x32xf32>)
      -> (tensor<8x64xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x8xf32>, tensor<16xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    // Fused q/k/v projection, sliced (nn.MultiheadAttention's in_proj).
    %e = tensor.empty() : tensor<8x96xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x96xf32>) -> tensor<8x96xf32>
    %qkv = linalg.matmul ins(%x, %wqkv : tensor<8x32xf32>, tensor<32x96xf32>) outs(%z : tensor<8x96xf32>) -> tensor<8x96xf32>
    %q = tensor.extract_slice %qkv[0, 0] [8, 32] [1, 1] : tensor<8x96xf32> to tensor<8x32xf32>
    %k = tensor.extract_slice %qkv[0, 32] [8, 32] [1, 1] : tensor<8x96xf32> to tensor<8x32xf32>
    %vv = tensor.extract_slice %qkv[0, 64] [8, 32] [1, 1] : tensor<8x96xf32> to tensor<8x32xf32>
    // Named elementwise ops (TOSA-to-linalg-named style) and linalg.map / linalg.broadcast.
    %e32 = tensor.empty() : tensor<8x32xf32>
    %qk = linalg.add ins(%q, %k : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %vb = linalg.broadcast ins(%v : tensor<32xf32>) outs(%e32 : tensor<8x32xf32>) dimensions = [0]
    %t = linalg.map { math.tanh } ins(%vv : tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>)
    %tv = linalg.mul ins(%t, %vb : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %p = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%qk : tensor<8x32xf32>) outs(%e32 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %two = arith.constant 1.500000e+00 : f32
      %0 = math.powf %a, %two : f32
      linalg.yield %0 : f32
    } -> tensor<8x32xf32>
    %cat = tensor.concat dim(1) %p, %tv : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x64xf32>
    // TOSA conv: NHWC x FHWC, stride 1, no pad.
    %ce = tensor.empty() : tensor<1x4x4x4xf32>
    %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%img, %fw : tensor<1x6x6x8xf32>, tensor<4x3x3x8xf32>) outs(%cz : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    // Depthwise conv (MobileNet).
    %de = tensor.empty() : tensor<1x4x4x8xf32>
    %dz = linalg.fill ins(%zero : f32) outs(%de : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%img, %dw : tensor<1x6x6x8xf32>, tensor<3x3x8xf32>) outs(%dz : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    // matvec.
    %me = tensor.empty() : tensor<16xf32>
    %mz = linalg.fill ins(%zero : f32) outs(%me : tensor<16xf32>) -> tensor<16xf32>
    %mv = linalg.matvec ins(%m, %v : tensor<16x32xf32>, tensor<32xf32>) outs(%mz : tensor<16xf32>) -> tensor<16xf32>
    return %cat, %c, %d, %mv : tensor<8x64xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x8xf32>, tensor<16xf32>
  }
  // offset + scale * u_i, u_i in [-1, 1] pseudo-random, i = 0 .. n-1.
  func.func @gen(%n: index, %seed: f32, %scale: f32, %offset: f32) -> tensor<?xf32> {
    %e = tensor.empty(%n) : tensor<?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        outs(%e : tensor<?xf32>) {
    ^bb0(%o: f32):
      // h = (7919 i + 104729 seed) mod 10007, spread over [-1, 1]: exact
      // integer arithmetic, the same on every path.
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %si = arith.fptosi %seed : f32 to i32
      %p = arith.constant 7919 : i32
      %q = arith.constant 104729 : i32
      %m = arith.constant 10007 : i32
      %a = arith.muli %ii, %p : i32
      %b = arith.muli %si, %q : i32
      %c = arith.addi %a, %b : i32
      %h = arith.remui %c, %m : i32
      %hf = arith.uitofp %h : i32 to f32
      %half = arith.constant 5.003000e+03 : f32
      %d = arith.subf %hf, %half : f32
      %s = arith.divf %d, %half : f32
      %v = arith.mulf %s, %scale : f32
      %w = arith.addf %v, %offset : f32
      linalg.yield %w : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %ws = arith.constant 2.500000e-01 : f32
    %s1 = arith.constant 1.0 : f32
    %s2 = arith.constant 2.0 : f32
    %s3 = arith.constant 3.0 : f32
    %s4 = arith.constant 4.0 : f32
    %s5 = arith.constant 5.0 : f32
    %s6 = arith.constant 6.0 : f32
    %n256 = arith.constant 256 : index
    %n3072 = arith.constant 3072 : index
    %n288 = arith.constant 288 : index
    %n72 = arith.constant 72 : index
    %n32 = arith.constant 32 : index
    %n512 = arith.constant 512 : index
    %a = call @gen(%n256, %zero, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %a1 = tensor.cast %a : tensor<?xf32> to tensor<256xf32>
    %x = tensor.expand_shape %a1 [[0, 1]] output_shape [8, 32] : tensor<256xf32> into tensor<8x32xf32>
    %b = call @gen(%n3072, %s1, %ws, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %b1 = tensor.cast %b : tensor<?xf32> to tensor<3072xf32>
    %w = tensor.expand_shape %b1 [[0, 1]] output_shape [32, 96] : tensor<3072xf32> into tensor<32x96xf32>
    %c = call @gen(%n288, %s2, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %c1 = tensor.cast %c : tensor<?xf32> to tensor<288xf32>
    %img = tensor.expand_shape %c1 [[0, 1, 2, 3]] output_shape [1, 6, 6, 8] : tensor<288xf32> into tensor<1x6x6x8xf32>
    %d = call @gen(%n288, %s3, %ws, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %d1 = tensor.cast %d : tensor<?xf32> to tensor<288xf32>
    %fw = tensor.expand_shape %d1 [[0, 1, 2, 3]] output_shape [4, 3, 3, 8] : tensor<288xf32> into tensor<4x3x3x8xf32>
    %f = call @gen(%n72, %s4, %ws, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %f1 = tensor.cast %f : tensor<?xf32> to tensor<72xf32>
    %dw = tensor.expand_shape %f1 [[0, 1, 2]] output_shape [3, 3, 8] : tensor<72xf32> into tensor<3x3x8xf32>
    %g = call @gen(%n32, %s5, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %v = tensor.cast %g : tensor<?xf32> to tensor<32xf32>
    %h = call @gen(%n512, %s6, %ws, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %h1 = tensor.cast %h : tensor<?xf32> to tensor<512xf32>
    %m = tensor.expand_shape %h1 [[0, 1]] output_shape [16, 32] : tensor<512xf32> into tensor<16x32xf32>
    %r:4 = call @forward(%x, %w, %img, %fw, %dw, %v, %m) : (tensor<8x32xf32>, tensor<32x96xf32>, tensor<1x6x6x8xf32>, tensor<4x3x3x8xf32>, tensor<3x3x8xf32>, tensor<32xf32>, tensor<16x32xf32>) -> (tensor<8x64xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x8xf32>, tensor<16xf32>)
    %u0 = tensor.cast %r#0 : tensor<8x64xf32> to tensor<*xf32>
    call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
    %u1 = tensor.cast %r#1 : tensor<1x4x4x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
    %u2 = tensor.cast %r#2 : tensor<1x4x4x8xf32> to tensor<*xf32>
    call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
    %u3 = tensor.cast %r#3 : tensor<16xf32> to tensor<*xf32>
    call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
    return
  }
}
