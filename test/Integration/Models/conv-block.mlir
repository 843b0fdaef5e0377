// A conv block as torch-mlir exports Conv2d + BatchNorm2d (eval) + ReLU +
// pooling, in both layouts front ends emit: NHWC (tensor.pad,
// linalg.conv_2d_nhwc_hwcf, ReLU as arith.maximumf, MaxPool2d as
// linalg.pooling_nhwc_max from a -FLT_MAX init) and NCHW (the conv bias
// broadcast into the accumulator, linalg.conv_2d_nchw_fchw, ReLU as
// cmpf ugt + select, AvgPool2d as linalg.pooling_nchw_sum and a division by
// the window size). Batch norm in inference form, one generic:
// (x - mean) / sqrt(var + eps) * gamma + beta.
//
// Inputs from @gen (offset + scale * u_i, u_i = (7919 i + 104729 seed) mod
// 10007 spread over [-1, 1]): images in
// [-1, 1], filters in [-0.25, 0.25], var in [0.5, 1.5].
//
// Bound (Inputs/check_model.py, which states the model): every element
// within B max|y| of the f32 run of this file without lowp passes (the
// loop path), B = c * sum over formats F of sqrt(sum K) u_F, K the
// lengths of the reductions run with operands in F on the longest path,
// u_F = 2^-p the unit roundoff (bf16 2^-8, f16 2^-11, E4M3 2^-4).
// Here the 3x3x4 convolution (K = 36, E4M3 under the FP8 policy) and the
// 2x2 sum pool (K = 4); max pooling rounds nothing. c = 2: batch norm
// scales by gamma / sqrt(var + eps) <= 1.2 / sqrt(0.5) < 2. The f32 model
// through lowp-pipeline-x86 against the loop path: B = 40 * 2^-24. Every
// low-precision run must also differ from f32 by more than u/64 of its
// 16-bit format.
//
// RUN: fp-opt %s --lowp-pipeline-reference | %run > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | %run > %t.x86.f32
// RUN: %check %t.ref %t.x86.f32 --term f32:36,4 | FileCheck %s
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.bf16.avx2
// RUN: %check %t.ref %t.bf16.avx2 --term bf16:36,4 --factor 2 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.bf16.mlir --lowp-pipeline-reference | %run > %t.bf16.generic
// RUN: %check %t.ref %t.bf16.generic --term bf16:36,4 --factor 2 --min-rel 6.1e-5 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.bf16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.bf16.avx512 --term bf16:36,4 --factor 2 --min-rel 6.1e-5 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=f16" -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.mlir
// RUN: fp-opt %t.f16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.f16.avx2
// RUN: %check %t.ref %t.f16.avx2 --term f16:36,4 --factor 2 --min-rel 7.6e-6 | FileCheck %s
// RUN: fp-opt %t.f16.mlir --lowp-pipeline-reference | %run > %t.f16.generic
// RUN: %check %t.ref %t.f16.generic --term f16:36,4 --factor 2 --min-rel 7.6e-6 | FileCheck %s
// Negative control: the f16 run is far outside the bound of an f32 run.
// RUN: not %check %t.ref %t.f16.avx2 --term f32:36,4 | FileCheck %s --check-prefix=CONTROL
// RUN: %if x86-avx512bf16 %{ fp-opt %t.f16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.f16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.f16.avx512 --term f16:36,4 --factor 2 --min-rel 7.6e-6 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=fp8" -o %t.fp8.mlir
// RUN: FileCheck %s --check-prefix=FP8 < %t.fp8.mlir
// RUN: fp-opt %t.fp8.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.fp8.avx2
// RUN: %check %t.ref %t.fp8.avx2 --term f8E4M3FN:36 --term bf16:36,4 --factor 2 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.fp8.mlir --lowp-pipeline-reference | %run > %t.fp8.generic
// RUN: %check %t.ref %t.fp8.generic --term f8E4M3FN:36 --term bf16:36,4 --factor 2 --min-rel 6.1e-5 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: PASS
// CONTROL: FAIL

// BF16-LABEL: func.func @forward(
// BF16: linalg.conv_2d_nhwc_hwcf {{.*}}bf16
// BF16: linalg.conv_2d_nchw_fchw {{.*}}bf16
// F16-LABEL: func.func @forward(
// F16: linalg.conv_2d_nhwc_hwcf {{.*}}f16
// F16: linalg.conv_2d_nchw_fchw {{.*}}f16
// FP8-LABEL: func.func @forward(
// FP8: linalg.conv_2d_nhwc_hwcf {{.*}}f8E4M3FN
// FP8: linalg.conv_2d_nchw_fchw {{.*}}f8E4M3FN

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan_last = affine_map<(n, h, w, c) -> (c)>
#chan_first = affine_map<(n, c, h, w) -> (c)>
module {
  func.func @forward(%x: tensor<1x8x8x4xf32>, %f: tensor<3x3x4x8xf32>,
                     %mean: tensor<8xf32>, %var: tensor<8xf32>,
                     %gamma: tensor<8xf32>, %beta: tensor<8xf32>,
                     %xc: tensor<1x4x8x8xf32>, %fc: tensor<8x4x3x3xf32>, %bias: tensor<8xf32>)
      -> (tensor<1x4x4x8xf32>, tensor<1x8x4x4xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %lowest = arith.constant -3.40282347E+38 : f32
    // NHWC: pad, conv, batch norm, ReLU, 2x2 max pool.
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
    %e = tensor.empty() : tensor<1x8x8x8xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%p, %f : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>)
        outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %bn = linalg.generic {indexing_maps = [#nhwc, #chan_last, #chan_last, #chan_last, #chan_last, #nhwc],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c, %mean, %var, %gamma, %beta : tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
        outs(%e : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %m: f32, %v: f32, %g: f32, %b: f32, %out: f32):
      %eps = arith.constant 9.99999974E-6 : f32
      %0 = arith.subf %in, %m : f32
      %1 = arith.addf %v, %eps : f32
      %2 = math.sqrt %1 : f32
      %3 = arith.divf %0, %2 : f32
      %4 = arith.mulf %3, %g : f32
      %5 = arith.addf %4, %b : f32
      linalg.yield %5 : f32
    } -> tensor<1x8x8x8xf32>
    %r = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%bn : tensor<1x8x8x8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %zero : f32
      linalg.yield %0 : f32
    } -> tensor<1x8x8x8xf32>
    %pe = tensor.empty() : tensor<1x4x4x8xf32>
    %pinit = linalg.fill ins(%lowest : f32) outs(%pe : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    %win = tensor.empty() : tensor<2x2xf32>
    %mp = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%r, %win : tensor<1x8x8x8xf32>, tensor<2x2xf32>)
        outs(%pinit : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>

    // NCHW: pad, bias broadcast into the accumulator, conv, batch norm,
    // ReLU (cmpf + select), 2x2 average pool.
    %pc = tensor.pad %xc low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
    %ec = tensor.empty() : tensor<1x8x8x8xf32>
    %bb = linalg.generic {indexing_maps = [#chan_first, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%bias : tensor<8xf32>) outs(%ec : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x8x8xf32>
    %cc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%pc, %fc : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>)
        outs(%bb : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %bnc = linalg.generic {indexing_maps = [#nhwc, #chan_first, #chan_first, #chan_first, #chan_first, #nhwc],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%cc, %mean, %var, %gamma, %beta : tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
        outs(%ec : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %m: f32, %v: f32, %g: f32, %b: f32, %out: f32):
      %eps = arith.constant 9.99999974E-6 : f32
      %0 = arith.subf %in, %m : f32
      %1 = arith.addf %v, %eps : f32
      %2 = math.rsqrt %1 : f32
      %3 = arith.mulf %0, %2 : f32
      %4 = arith.mulf %3, %g : f32
      %5 = arith.addf %4, %b : f32
      linalg.yield %5 : f32
    } -> tensor<1x8x8x8xf32>
    %rc = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%bnc : tensor<1x8x8x8xf32>) outs(%ec : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.cmpf ugt, %in, %zero : f32
      %1 = arith.select %0, %in, %zero : f32
      linalg.yield %1 : f32
    } -> tensor<1x8x8x8xf32>
    %se = tensor.empty() : tensor<1x8x4x4xf32>
    %sinit = linalg.fill ins(%zero : f32) outs(%se : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %sp = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%rc, %win : tensor<1x8x8x8xf32>, tensor<2x2xf32>)
        outs(%sinit : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %ap = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%sp : tensor<1x8x4x4xf32>) outs(%se : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %four = arith.constant 4.000000e+00 : f32
      %0 = arith.divf %in, %four : f32
      linalg.yield %0 : f32
    } -> tensor<1x8x4x4xf32>
    return %mp, %ap : tensor<1x4x4x8xf32>, tensor<1x8x4x4xf32>
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
    %half = arith.constant 5.000000e-01 : f32
    %wscale = arith.constant 2.500000e-01 : f32
    %pscale = arith.constant 2.000000e-01 : f32
    %s0 = arith.constant 0.000000e+00 : f32
    %s1 = arith.constant 1.000000e+00 : f32
    %s2 = arith.constant 2.000000e+00 : f32
    %s3 = arith.constant 3.000000e+00 : f32
    %s4 = arith.constant 4.000000e+00 : f32
    %s5 = arith.constant 5.000000e+00 : f32
    %s6 = arith.constant 6.000000e+00 : f32
    %s7 = arith.constant 7.000000e+00 : f32
    %s8 = arith.constant 8.000000e+00 : f32
    %n256 = arith.constant 256 : index
    %n288 = arith.constant 288 : index
    %n8 = arith.constant 8 : index
    %xd = call @gen(%n256, %s0, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %xs = tensor.cast %xd : tensor<?xf32> to tensor<256xf32>
    %x = tensor.expand_shape %xs [[0, 1, 2, 3]] output_shape [1, 8, 8, 4] : tensor<256xf32> into tensor<1x8x8x4xf32>
    %fd = call @gen(%n288, %s1, %wscale, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %fs = tensor.cast %fd : tensor<?xf32> to tensor<288xf32>
    %f = tensor.expand_shape %fs [[0, 1, 2, 3]] output_shape [3, 3, 4, 8] : tensor<288xf32> into tensor<3x3x4x8xf32>
    %md = call @gen(%n8, %s2, %pscale, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %mean = tensor.cast %md : tensor<?xf32> to tensor<8xf32>
    %vd = call @gen(%n8, %s3, %half, %one) : (index, f32, f32, f32) -> tensor<?xf32>
    %var = tensor.cast %vd : tensor<?xf32> to tensor<8xf32>
    %gd = call @gen(%n8, %s4, %pscale, %one) : (index, f32, f32, f32) -> tensor<?xf32>
    %gamma = tensor.cast %gd : tensor<?xf32> to tensor<8xf32>
    %bd = call @gen(%n8, %s5, %pscale, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %beta = tensor.cast %bd : tensor<?xf32> to tensor<8xf32>
    %xcd = call @gen(%n256, %s6, %one, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %xcs = tensor.cast %xcd : tensor<?xf32> to tensor<256xf32>
    %xc = tensor.expand_shape %xcs [[0, 1, 2, 3]] output_shape [1, 4, 8, 8] : tensor<256xf32> into tensor<1x4x8x8xf32>
    %fcd = call @gen(%n288, %s7, %wscale, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %fcs = tensor.cast %fcd : tensor<?xf32> to tensor<288xf32>
    %fc = tensor.expand_shape %fcs [[0, 1, 2, 3]] output_shape [8, 4, 3, 3] : tensor<288xf32> into tensor<8x4x3x3xf32>
    %cbd = call @gen(%n8, %s8, %pscale, %zero) : (index, f32, f32, f32) -> tensor<?xf32>
    %cb = tensor.cast %cbd : tensor<?xf32> to tensor<8xf32>
    %y:2 = call @forward(%x, %f, %mean, %var, %gamma, %beta, %xc, %fc, %cb)
        : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
           tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x8x4x4xf32>)
    %u0 = tensor.cast %y#0 : tensor<1x4x4x8xf32> to tensor<*xf32>
    call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
    %u1 = tensor.cast %y#1 : tensor<1x8x4x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
    return
  }
}
