// A chain of bf16 arithmetic (the polynomial part of GELU's tanh form plus a
// division: what lowp-infer-precision leaves in bf16 after a matmul's
// epilogue) must round to bf16 after every op, as the IR states, on every
// x86 target: on AVX2 (no bf16 arithmetic, no conversions: emulated in f32
// by lowp-emulate-narrow-arithmetic) as on AVX512_BF16 (conversions only:
// LLVM promotes each op). Before, AVX2 computed the chain in f32 and rounded
// once at its end, so the same decided module gave different numbers on the
// two chips (about a third of the elements of a GELU chain one bf16 ulp
// apart).
//
// The reference is exact: each op on the printed bf16 operands in rational
// arithmetic, rounded to bf16 by utils/fp_reference.py (no APFloat, no
// numpy). Negative control: with excess-precision=true (upstream's flags) the
// chain is rounded once and the checker must see mismatches.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.avx2
// RUN: %python %S/Inputs/check_per_op_rounding.py %t.avx2 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.znver4 %}
// RUN: %if x86-avx512bf16 %{ %python %S/Inputs/check_per_op_rounding.py %t.znver4 | FileCheck %s %}
// The generic loop path (LLVM promotes each op) agrees:
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize=bufferize-function-boundaries -convert-linalg-to-loops \
// RUN:   -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.loops
// RUN: %python %S/Inputs/check_per_op_rounding.py %t.loops | FileCheck %s
// So does lowp-pipeline-reference (the lowering decisions are checked with):
// RUN: fp-opt %s -lowp-pipeline-reference \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.reference
// RUN: %python %S/Inputs/check_per_op_rounding.py %t.reference | FileCheck %s
// Negative control: one rounding per chain.
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize=bufferize-function-boundaries -convert-linalg-to-loops \
// RUN:   "-lowp-emulate-narrow-arithmetic=formats=bf16 excess-precision=true" -canonicalize \
// RUN:   -lowp-expand-float-conversions=target=avx2 -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.excess
// RUN: %python %S/Inputs/check_per_op_rounding.py %t.excess | FileCheck %s --check-prefix=EXCESS
//
// CHECK: 4096 elements, 0 differ from per-op bf16 rounding
// EXCESS: 4096 elements, {{[1-9][0-9]*}} differ from per-op bf16 rounding

#id = affine_map<(d0) -> (d0)>

// y = (0.797 * (x + 0.0447 * x^3)) / (x + 0.0447 * x^3 + 20) - 0.5 * x,
// every op in bf16.
func.func @chain(%x: tensor<4096xbf16>) -> tensor<4096xbf16> {
  %e = tensor.empty() : tensor<4096xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4096xbf16>) outs(%e : tensor<4096xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %c1 = arith.constant 4.467770e-02 : bf16
    %c2 = arith.constant 7.968750e-01 : bf16
    %c3 = arith.constant 2.000000e+01 : bf16
    %half = arith.constant 5.000000e-01 : bf16
    %a = arith.mulf %v, %v : bf16
    %b = arith.mulf %a, %v : bf16
    %d = arith.mulf %c1, %b : bf16
    %s = arith.addf %v, %d : bf16
    %t = arith.mulf %c2, %s : bf16
    %n = arith.addf %s, %c3 : bf16
    %q = arith.divf %t, %n : bf16
    %h = arith.mulf %half, %v : bf16
    %r = arith.subf %q, %h : bf16
    linalg.yield %r : bf16
  } -> tensor<4096xbf16>
  return %y : tensor<4096xbf16>
}

func.func private @printMemrefI32(tensor<*xi32>)

func.func @print_bf16(%t: tensor<4096xbf16>) {
  %w = arith.extf %t : tensor<4096xbf16> to tensor<4096xf32>
  %b = arith.bitcast %w : tensor<4096xf32> to tensor<4096xi32>
  %c = tensor.cast %b : tensor<4096xi32> to tensor<*xi32>
  call @printMemrefI32(%c) : (tensor<*xi32>) -> ()
  return
}

// x_i = -6 + 12 * i / 4096 + 1e-3 (off the bf16 grid, rounded to it).
func.func @main() {
  %e = tensor.empty() : tensor<4096xbf16>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<4096xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %step = arith.constant 0.0029296875 : f32
    %lo = arith.constant -5.999 : f32
    %s = arith.mulf %f, %step : f32
    %v = arith.addf %s, %lo : f32
    %r = arith.truncf %v : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4096xbf16>
  %y = call @chain(%x) : (tensor<4096xbf16>) -> tensor<4096xbf16>
  call @print_bf16(%x) : (tensor<4096xbf16>) -> ()
  call @print_bf16(%y) : (tensor<4096xbf16>) -> ()
  return
}
