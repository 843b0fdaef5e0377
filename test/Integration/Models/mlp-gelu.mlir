// A two-layer MLP as torch-mlir exports nn.Sequential(Linear, GELU,
// Linear, GELU(approximate="tanh"), Linear) in linalg-on-tensors form:
// weights in PyTorch's [out, in] layout, transposed either by a
// linalg.transpose (aten.t) or by a matmul with transposed indexing maps
// (aten.linear as IREE's importer emits it); the bias broadcast into the
// accumulator (aten.addmm) or added by a broadcasting generic; GELU as
// 0.5 x (1 + erf(x / sqrt 2)) and as 0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))).
//
// x: 4x32, layers 32 -> 64 -> 48 -> 16. Inputs are generated in-IR
// (@gen: scale * u_i, u_i = (7919 i + 104729 seed) mod 10007 spread over
// [-1, 1]): x in [-1, 1], weights in
// [-0.25, 0.25], biases in [-0.1, 0.1].
//
// Bound (Inputs/check_model.py, which states the model): every element
// within B max|y| of the f32 run of this file without lowp passes (the
// loop path), B = c * sum over formats F of sqrt(sum K) u_F, K the
// lengths of the reductions run with operands in F on the longest path,
// u_F = 2^-p the unit roundoff (bf16 2^-8, f16 2^-11, E4M3 2^-4).
// Here the three contractions, K = 32, 64, 48 (bf16/f16: B = 12 u; FP8
// policy: E4M3 operands for all three, bf16 elsewhere: B = 12 (2^-4 +
// 2^-8)), c = 1 (GELU's slope is at most 1.13 and is absorbed by the
// random-walk estimate). The f32 model through lowp-pipeline-x86 against
// the loop path: B = (32 + 64 + 48) 2^-24 (gamma_K, two summation orders).
// Every low-precision run must also differ from f32 by more than u/64 of
// its 16-bit format (6.1e-5 bf16 and FP8 policy, 7.6e-6 f16).
//
// RUN: fp-opt %s --lowp-pipeline-reference | %run > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | %run > %t.x86.f32
// RUN: %check %t.ref %t.x86.f32 --term f32:32,64,48 | FileCheck %s
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.bf16.avx2
// RUN: %check %t.ref %t.bf16.avx2 --term bf16:32,64,48 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.bf16.mlir --lowp-pipeline-reference | %run > %t.bf16.generic
// RUN: %check %t.ref %t.bf16.generic --term bf16:32,64,48 --min-rel 6.1e-5 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.bf16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.bf16.avx512 --term bf16:32,64,48 --min-rel 6.1e-5 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=f16" -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.mlir
// RUN: fp-opt %t.f16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.f16.avx2
// RUN: %check %t.ref %t.f16.avx2 --term f16:32,64,48 --min-rel 7.6e-6 | FileCheck %s
// RUN: fp-opt %t.f16.mlir --lowp-pipeline-reference | %run > %t.f16.generic
// RUN: %check %t.ref %t.f16.generic --term f16:32,64,48 --min-rel 7.6e-6 | FileCheck %s
// Negative control: the f16 run is far outside the bound of an f32 run.
// RUN: not %check %t.ref %t.f16.avx2 --term f32:32,64,48 | FileCheck %s --check-prefix=CONTROL
// RUN: %if x86-avx512bf16 %{ fp-opt %t.f16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.f16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.f16.avx512 --term f16:32,64,48 --min-rel 7.6e-6 | FileCheck %s %}
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sm_90 policy=fp8" -o %t.fp8.mlir
// RUN: FileCheck %s --check-prefix=FP8 < %t.fp8.mlir
// RUN: fp-opt %t.fp8.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.fp8.avx2
// RUN: %check %t.ref %t.fp8.avx2 --term f8E4M3FN:32,64,48 --term bf16:32,64,48 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.fp8.mlir --lowp-pipeline-reference | %run > %t.fp8.generic
// RUN: %check %t.ref %t.fp8.generic --term f8E4M3FN:32,64,48 --term bf16:32,64,48 --min-rel 6.1e-5 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: PASS
// CONTROL: FAIL

// BF16-LABEL: func.func @forward(
// BF16: linalg.matmul {{.*}}bf16
// F16-LABEL: func.func @forward(
// F16: linalg.matmul {{.*}}f16
// FP8-LABEL: func.func @forward(
// FP8: linalg.matmul {{.*}}f8E4M3FN

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
module {
  func.func @forward(%x: tensor<4x32xf32>, %w1: tensor<64x32xf32>, %b1: tensor<64xf32>,
                     %w2: tensor<48x64xf32>, %b2: tensor<48xf32>,
                     %w3: tensor<16x48xf32>, %b3: tensor<16xf32>) -> tensor<4x16xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    // Layer 1 (aten.addmm): bias broadcast into the accumulator, weight
    // transposed by aten.t.
    %e1 = tensor.empty() : tensor<4x64xf32>
    %bb1 = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]}
        ins(%b1 : tensor<64xf32>) outs(%e1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x64xf32>
    %et1 = tensor.empty() : tensor<32x64xf32>
    %w1t = linalg.transpose ins(%w1 : tensor<64x32xf32>) outs(%et1 : tensor<32x64xf32>) permutation = [1, 0]
    %h1 = linalg.matmul ins(%x, %w1t : tensor<4x32xf32>, tensor<32x64xf32>)
                        outs(%bb1 : tensor<4x64xf32>) -> tensor<4x64xf32>
    // GELU (erf form).
    %g1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h1 : tensor<4x64xf32>) outs(%e1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %half = arith.constant 5.000000e-01 : f32
      %one = arith.constant 1.000000e+00 : f32
      %rsqrt2 = arith.constant 0.707106769 : f32
      %0 = arith.mulf %in, %rsqrt2 : f32
      %1 = math.erf %0 : f32
      %2 = arith.addf %1, %one : f32
      %3 = arith.mulf %in, %half : f32
      %4 = arith.mulf %3, %2 : f32
      linalg.yield %4 : f32
    } -> tensor<4x64xf32>
    // Layer 2 (aten.linear): matmul with B read transposed, bias added after.
    %e2 = tensor.empty() : tensor<4x48xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x48xf32>) -> tensor<4x48xf32>
    %h2 = linalg.matmul indexing_maps = [#mA, #mBt, #mC]
        ins(%g1, %w2 : tensor<4x64xf32>, tensor<48x64xf32>)
        outs(%f2 : tensor<4x48xf32>) -> tensor<4x48xf32>
    %z2 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h2, %b2 : tensor<4x48xf32>, tensor<48xf32>) outs(%e2 : tensor<4x48xf32>) {
    ^bb0(%in: f32, %b: f32, %out: f32):
      %0 = arith.addf %in, %b : f32
      linalg.yield %0 : f32
    } -> tensor<4x48xf32>
    // GELU (tanh form).
    %g2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%z2 : tensor<4x48xf32>) outs(%e2 : tensor<4x48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %half = arith.constant 5.000000e-01 : f32
      %one = arith.constant 1.000000e+00 : f32
      %k = arith.constant 0.797884583 : f32
      %c = arith.constant 4.471500e-02 : f32
      %0 = arith.mulf %in, %in : f32
      %1 = arith.mulf %0, %in : f32
      %2 = arith.mulf %1, %c : f32
      %3 = arith.addf %in, %2 : f32
      %4 = arith.mulf %3, %k : f32
      %5 = math.tanh %4 : f32
      %6 = arith.addf %5, %one : f32
      %7 = arith.mulf %in, %half : f32
      %8 = arith.mulf %7, %6 : f32
      linalg.yield %8 : f32
    } -> tensor<4x48xf32>
    // Layer 3 (aten.addmm again).
    %e3 = tensor.empty() : tensor<4x16xf32>
    %bb3 = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]}
        ins(%b3 : tensor<16xf32>) outs(%e3 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x16xf32>
    %et3 = tensor.empty() : tensor<48x16xf32>
    %w3t = linalg.transpose ins(%w3 : tensor<16x48xf32>) outs(%et3 : tensor<48x16xf32>) permutation = [1, 0]
    %y = linalg.matmul ins(%g2, %w3t : tensor<4x48xf32>, tensor<48x16xf32>)
                       outs(%bb3 : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %y : tensor<4x16xf32>
  }

  // scale * u_i, u_i in [-1, 1] pseudo-random, i = 0 .. n-1.
  func.func @gen(%n: index, %seed: f32, %scale: f32) -> tensor<?xf32> {
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
      linalg.yield %v : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @main() {
    %one = arith.constant 1.000000e+00 : f32
    %wscale = arith.constant 2.500000e-01 : f32
    %bscale = arith.constant 1.000000e-01 : f32
    %s0 = arith.constant 0.000000e+00 : f32
    %s1 = arith.constant 1.000000e+00 : f32
    %s2 = arith.constant 2.000000e+00 : f32
    %s3 = arith.constant 3.000000e+00 : f32
    %s4 = arith.constant 4.000000e+00 : f32
    %s5 = arith.constant 5.000000e+00 : f32
    %s6 = arith.constant 6.000000e+00 : f32
    %n128 = arith.constant 128 : index
    %n2048 = arith.constant 2048 : index
    %n64 = arith.constant 64 : index
    %n3072 = arith.constant 3072 : index
    %n48 = arith.constant 48 : index
    %n768 = arith.constant 768 : index
    %n16 = arith.constant 16 : index
    %xd = call @gen(%n128, %s0, %one) : (index, f32, f32) -> tensor<?xf32>
    %xs = tensor.cast %xd : tensor<?xf32> to tensor<128xf32>
    %x = tensor.expand_shape %xs [[0, 1]] output_shape [4, 32] : tensor<128xf32> into tensor<4x32xf32>
    %w1d = call @gen(%n2048, %s1, %wscale) : (index, f32, f32) -> tensor<?xf32>
    %w1s = tensor.cast %w1d : tensor<?xf32> to tensor<2048xf32>
    %w1 = tensor.expand_shape %w1s [[0, 1]] output_shape [64, 32] : tensor<2048xf32> into tensor<64x32xf32>
    %b1d = call @gen(%n64, %s2, %bscale) : (index, f32, f32) -> tensor<?xf32>
    %b1 = tensor.cast %b1d : tensor<?xf32> to tensor<64xf32>
    %w2d = call @gen(%n3072, %s3, %wscale) : (index, f32, f32) -> tensor<?xf32>
    %w2s = tensor.cast %w2d : tensor<?xf32> to tensor<3072xf32>
    %w2 = tensor.expand_shape %w2s [[0, 1]] output_shape [48, 64] : tensor<3072xf32> into tensor<48x64xf32>
    %b2d = call @gen(%n48, %s4, %bscale) : (index, f32, f32) -> tensor<?xf32>
    %b2 = tensor.cast %b2d : tensor<?xf32> to tensor<48xf32>
    %w3d = call @gen(%n768, %s5, %wscale) : (index, f32, f32) -> tensor<?xf32>
    %w3s = tensor.cast %w3d : tensor<?xf32> to tensor<768xf32>
    %w3 = tensor.expand_shape %w3s [[0, 1]] output_shape [16, 48] : tensor<768xf32> into tensor<16x48xf32>
    %b3d = call @gen(%n16, %s6, %bscale) : (index, f32, f32) -> tensor<?xf32>
    %b3 = tensor.cast %b3d : tensor<?xf32> to tensor<16xf32>
    %y = call @forward(%x, %w1, %b1, %w2, %b2, %w3, %b3)
        : (tensor<4x32xf32>, tensor<64x32xf32>, tensor<64xf32>, tensor<48x64xf32>, tensor<48xf32>,
           tensor<16x48xf32>, tensor<16xf32>) -> tensor<4x16xf32>
    %u = tensor.cast %y : tensor<4x16xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
