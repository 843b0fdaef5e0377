// lowp-outline-repeated-loops as lowp-pipeline-x86 runs it, executed: @layers
// is three identical Linear + bias + ReLU layers (16 rows, 32 -> 32) over
// different weights. Lowered, the first two layers' kernels are the same
// loops but for their buffers, so they become one function both call (IR;
// the last layer's kernel writes the returned buffer with the bias and ReLU
// fused, so it differs). The result must equal, bit for bit, the same
// program through the reference lowering (plain loops, nothing outlined):
// inputs and weights are small multiples of 1/8, so every product and
// partial sum is exact in f32 whatever the order of the sums. The same on
// two threads (the kernels' parallel loops outlined with their OpenMP
// regions), without the pass (outline-repeated-loops=false), and on
// AVX512_BF16 hosts with the znver4 kernels. The negative control swaps
// two layers' weights and must differ.
//
// RUN: fp-opt %s --lowp-pipeline-reference \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o %t.x86.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.x86.mlir
// RUN: mlir-runner %t.x86.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.x86
// RUN: diff %t.ref %t.x86
// RUN: %if libomp %{ fp-opt %s -lowp-pipeline-x86="target=avx2 threads=2" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%libomp | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.threads %}
// RUN: %if libomp %{ diff %t.ref %t.threads %}
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 outline-repeated-loops=false" -o %t.inline.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=INLINE < %t.inline.mlir
// RUN: mlir-runner %t.inline.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.inline
// RUN: diff %t.ref %t.inline
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.znver4 %}
// RUN: %if x86-avx512bf16 %{ diff %t.ref %t.znver4 %}
// RUN: sed -e 's/@layers(%x, %w0, %b0, %w1,/@layers(%x, %w1, %b0, %w0,/' %s | fp-opt -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.swapped
// RUN: not diff %t.ref %t.swapped > /dev/null
// RUN: FileCheck %s < %t.x86
//
// IR-LABEL: llvm.func @layers
// IR-COUNT-2: llvm.call @layers_loops0(
// IR: llvm.return
// IR: llvm.func internal @layers_loops0(
// INLINE-NOT: _loops
// CHECK: Unranked Memref rank = 2 offset = 0 sizes = [16, 32] strides = [32, 1] data =

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @layers(%x: tensor<16x32xf32>, %w0: tensor<32x32xf32>, %b0: tensor<32xf32>,
                  %w1: tensor<32x32xf32>, %b1: tensor<32xf32>,
                  %w2: tensor<32x32xf32>, %b2: tensor<32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m0 = linalg.matmul ins(%x, %w0 : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%f0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m0, %b0 : tensor<16x32xf32>, tensor<32xf32>) outs(%e0 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %e1 = tensor.empty() : tensor<16x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m1 = linalg.matmul ins(%y0, %w1 : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%f1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<16x32xf32>, tensor<32xf32>) outs(%e1 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m2 = linalg.matmul ins(%y1, %w2 : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%f2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<16x32xf32>, tensor<32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %y2 : tensor<16x32xf32>
}

// v[i][j] = ((a i + b j + c) mod 7 - 3) / 8
func.func @pattern(%a: index, %b: index, %c: index) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %v = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<32x32xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %ai = arith.muli %i, %a : index
    %bj = arith.muli %j, %b : index
    %s0 = arith.addi %ai, %bj : index
    %s1 = arith.addi %s0, %c : index
    %m = arith.remui %s1, %c7 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %three = arith.constant 3.0 : f32
    %eighth = arith.constant 0.125 : f32
    %d = arith.subf %mf, %three : f32
    %r = arith.mulf %d, %eighth : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %v : tensor<32x32xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %xs = call @pattern(%c3, %c1, %c0) : (index, index, index) -> tensor<32x32xf32>
  %x = tensor.extract_slice %xs[0, 0] [16, 32] [1, 1] : tensor<32x32xf32> to tensor<16x32xf32>
  %w0 = call @pattern(%c1, %c2, %c0) : (index, index, index) -> tensor<32x32xf32>
  %w1 = call @pattern(%c2, %c1, %c3) : (index, index, index) -> tensor<32x32xf32>
  %w2 = call @pattern(%c5, %c3, %c1) : (index, index, index) -> tensor<32x32xf32>
  %bs = call @pattern(%c0, %c1, %c2) : (index, index, index) -> tensor<32x32xf32>
  %b0 = tensor.extract_slice %bs[0, 0] [1, 32] [1, 1] : tensor<32x32xf32> to tensor<32xf32>
  %b1 = tensor.extract_slice %bs[1, 0] [1, 32] [1, 1] : tensor<32x32xf32> to tensor<32xf32>
  %b2 = tensor.extract_slice %bs[2, 0] [1, 32] [1, 1] : tensor<32x32xf32> to tensor<32xf32>
  %y = call @layers(%x, %w0, %b0, %w1, %b1, %w2, %b2)
      : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>,
         tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %u = tensor.cast %y : tensor<16x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
