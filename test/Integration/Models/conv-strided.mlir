// Strided, dilated and padded convolutions and pooling as torch-mlir
// exports Conv2d(stride=2) / MaxPool2d(3, stride=2, padding=1) /
// Conv2d(stride=2, padding=1) / Conv2d(dilation=2) + AvgPool2d(3, stride=1):
// linalg.conv_2d_nchw_fchw with strides 2; tensor.pad with -inf (max
// pooling's padding) + linalg.pooling_nchw_max with strides 2; tensor.pad
// with 0 + linalg.conv_2d_nhwc_hwcf with strides 2 (im2col on x86); a
// dilation-2 linalg.conv_2d_nhwc_hwcf, then linalg.pooling_nhwc_sum and a
// division by 9. Four outputs, each checked on its own. On x86 the
// NCHW ops, the pool and the dilated conv run as scf loops
// (lowp-lower-strided-linalg-to-loops: affine-super-vectorize would read
// their windows as contiguous).
//
// Inputs from @gen (offset + scale * u_i, u_i = (7919 i + 104729 seed) mod
// 10007 spread over [-1, 1]): images in [-1, 1], filters in [-0.25, 0.25].
//
// Bound (Inputs/check_model.py, which states the model): every element
// within B max|y| of the f32 run of this file without lowp passes (the
// loop path), B = c * sum over formats F of sqrt(sum K) u_F, K the
// lengths of the reductions run with operands in F on the longest path,
// u_F = 2^-p the unit roundoff (bf16 2^-8, f16 2^-11, E4M3 2^-4).
// Here a 3x3x4 convolution (K = 36, E4M3 under the FP8 policy) followed
// by at most a 3x3 sum pool (K = 9); max pooling rounds nothing; c = 1.
// The f32 model through lowp-pipeline-x86 against the loop path:
// B = 45 * 2^-24. Every low-precision run must also differ from f32 by
// more than u/64 of its 16-bit format.
//
// RUN: fp-opt %s --lowp-pipeline-reference | %run > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | %run > %t.x86.f32
// RUN: %check %t.ref %t.x86.f32 --term f32:36,9 | FileCheck %s
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.bf16.avx2
// RUN: %check %t.ref %t.bf16.avx2 --term bf16:36,9 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.bf16.mlir --lowp-pipeline-reference | %run > %t.bf16.generic
// RUN: %check %t.ref %t.bf16.generic --term bf16:36,9 --min-rel 6.1e-5 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.bf16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.bf16.avx512 --term bf16:36,9 --min-rel 6.1e-5 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=f16" -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.mlir
// RUN: fp-opt %t.f16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.f16.avx2
// RUN: %check %t.ref %t.f16.avx2 --term f16:36,9 --min-rel 7.6e-6 | FileCheck %s
// RUN: fp-opt %t.f16.mlir --lowp-pipeline-reference | %run > %t.f16.generic
// RUN: %check %t.ref %t.f16.generic --term f16:36,9 --min-rel 7.6e-6 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.f16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.f16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.f16.avx512 --term f16:36,9 --min-rel 7.6e-6 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=fp8" -o %t.fp8.mlir
// RUN: FileCheck %s --check-prefix=FP8 < %t.fp8.mlir
// RUN: fp-opt %t.fp8.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.fp8.avx2
// RUN: %check %t.ref %t.fp8.avx2 --term f8E4M3FN:36 --term bf16:36,9 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.fp8.mlir --lowp-pipeline-reference | %run > %t.fp8.generic
// RUN: %check %t.ref %t.fp8.generic --term f8E4M3FN:36 --term bf16:36,9 --min-rel 6.1e-5 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: PASS

// BF16-LABEL: func.func @forward(
// BF16: linalg.conv_2d_nchw_fchw {{.*}}bf16
// BF16: linalg.conv_2d_nhwc_hwcf {{.*}}bf16
// F16-LABEL: func.func @forward(
// F16: linalg.conv_2d_nchw_fchw {{.*}}f16
// FP8-LABEL: func.func @forward(
// FP8: linalg.conv_2d_nchw_fchw {{.*}}f8E4M3FN

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @forward(%x: tensor<1x4x9x9xf32>, %f: tensor<8x4x3x3xf32>, %xh: tensor<1x9x9x4xf32>, %fh: tensor<3x3x4x8xf32>)
      -> (tensor<1x8x4x4xf32>, tensor<1x8x2x2xf32>, tensor<1x5x5x8xf32>, tensor<1x3x3x8xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    // NCHW stride-2 conv, no pad: 9 -> 4.
    %e = tensor.empty() : tensor<1x8x4x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%x, %f : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%z : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    // Max pool 3x3 stride 2 pad 1 with -inf padding (torch max_pool2d): 4 -> 2.
    %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 0, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %ninf : f32
    } : tensor<1x8x4x4xf32> to tensor<1x8x5x5xf32>
    %pe = tensor.empty() : tensor<1x8x2x2xf32>
    %pi = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
    %w = tensor.empty() : tensor<3x3xf32>
    %mp = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%p, %w : tensor<1x8x5x5xf32>, tensor<3x3xf32>) outs(%pi : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
    // NHWC stride-2 conv with pad 1: 9 -> 5 (im2col on x86).
    %ph = tensor.pad %xh low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x9x9x4xf32> to tensor<1x11x11x4xf32>
    %eh = tensor.empty() : tensor<1x5x5x8xf32>
    %zh = linalg.fill ins(%zero : f32) outs(%eh : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
    %ch = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%ph, %fh : tensor<1x11x11x4xf32>, tensor<3x3x4x8xf32>) outs(%zh : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
    // NHWC dilated conv (dilation 2): 9 -> 5, then NHWC avg pool 3x3 stride 1: 5 -> 3.
    %ed = tensor.empty() : tensor<1x5x5x8xf32>
    %zd = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
    %cd = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%xh, %fh : tensor<1x9x9x4xf32>, tensor<3x3x4x8xf32>) outs(%zd : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
    %ae = tensor.empty() : tensor<1x3x3x8xf32>
    %az = linalg.fill ins(%zero : f32) outs(%ae : tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
    %ap = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%cd, %w : tensor<1x5x5x8xf32>, tensor<3x3xf32>) outs(%az : tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
    %av = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%ap : tensor<1x3x3x8xf32>) outs(%ae : tensor<1x3x3x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %nine = arith.constant 9.000000e+00 : f32
      %0 = arith.divf %in, %nine : f32
      linalg.yield %0 : f32
    } -> tensor<1x3x3x8xf32>
    return %c, %mp, %ch, %av : tensor<1x8x4x4xf32>, tensor<1x8x2x2xf32>, tensor<1x5x5x8xf32>, tensor<1x3x3x8xf32>
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
    %n324 = arith.constant 324 : index
    %n288 = arith.constant 288 : index
    %a = call @gen(%n324, %zero, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %a1 = tensor.cast %a : tensor<?xf32> to tensor<324xf32>
    %x = tensor.expand_shape %a1 [[0, 1, 2, 3]] output_shape [1, 4, 9, 9] : tensor<324xf32> into tensor<1x4x9x9xf32>
    %b = call @gen(%n288, %s1, %ws, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %b1 = tensor.cast %b : tensor<?xf32> to tensor<288xf32>
    %f = tensor.expand_shape %b1 [[0, 1, 2, 3]] output_shape [8, 4, 3, 3] : tensor<288xf32> into tensor<8x4x3x3xf32>
    %c = call @gen(%n324, %s2, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %c1 = tensor.cast %c : tensor<?xf32> to tensor<324xf32>
    %xh = tensor.expand_shape %c1 [[0, 1, 2, 3]] output_shape [1, 9, 9, 4] : tensor<324xf32> into tensor<1x9x9x4xf32>
    %d = call @gen(%n288, %s3, %ws, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %d1 = tensor.cast %d : tensor<?xf32> to tensor<288xf32>
    %fh = tensor.expand_shape %d1 [[0, 1, 2, 3]] output_shape [3, 3, 4, 8] : tensor<288xf32> into tensor<3x3x4x8xf32>
    %r:4 = call @forward(%x, %f, %xh, %fh) : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<1x9x9x4xf32>, tensor<3x3x4x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x2x2xf32>, tensor<1x5x5x8xf32>, tensor<1x3x3x8xf32>)
    %u0 = tensor.cast %r#0 : tensor<1x8x4x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
    %u1 = tensor.cast %r#1 : tensor<1x8x2x2xf32> to tensor<*xf32>
    call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
    %u2 = tensor.cast %r#2 : tensor<1x5x5x8xf32> to tensor<*xf32>
    call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
    %u3 = tensor.cast %r#3 : tensor<1x3x3x8xf32> to tensor<*xf32>
    call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
    return
  }
}
