// Accuracy of lowp-approximate-math (the polynomials lowp-pipeline-x86 uses
// for exp, expm1, log, log1p, log2, tanh, erf) against libm in f64, over
// the f32 ranges fp-opt's islands feed them: softmax's exp(x - max) with
// x - max <= 0, GELU's erf(x / sqrt 2) and tanh, log of sums and of
// probabilities (every positive normal), log1p/expm1 of LLaMA-style blocks.
// Each function runs on 2^20 evenly spaced f32 points inside a vectorized
// loop (the approximation on vector<8xf32>, as in a model); the reference
// is the same math op on the point widened to f64, which no pass
// approximates (glibc's exp, log, tanh, erf; exp(x)-1 and log(1+x) in f64
// for expm1/log1p: exact to ~1e-11 relative at these points). Printed per
// range: ( max ulp error, max absolute error, max relative error ), the
// ulp being f32's spacing at the reference (2^-149 below 2^-126, so a
// result that must be 0 has to be exactly 0).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o %t.ll.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll.mlir
// RUN: mlir-runner %t.ll.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.out
// RUN: %python %S/Inputs/check_accuracy.py %t.out \
// RUN:   exp_softmax=1.5:0:0 exp_positive=6:0:0 exp_subnormal=0:1.18e-38:0 \
// RUN:   expm1=3:0:0 log_normals=1:0:0 log_near_1=1:0:0 log1p=3:0:0 \
// RUN:   log2_normals=2:0:0 tanh=5:0:0 erf=5:0:0 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SPECIAL < %t.out
// The same on 16 lanes (AVX-512) where the host has AVX512_BF16:
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.avx512 %}
// RUN: %if x86-avx512bf16 %{ %python %S/Inputs/check_accuracy.py %t.avx512 \
// RUN:   exp_softmax=1.5:0:0 exp_positive=6:0:0 exp_subnormal=0:1.18e-38:0 \
// RUN:   expm1=3:0:0 log_normals=1:0:0 log_near_1=1:0:0 log1p=3:0:0 \
// RUN:   log2_normals=2:0:0 tanh=5:0:0 erf=5:0:0 | FileCheck %s %}
//
// Negative control: the same program through the upstream loop path (libm
// per element) must be within half an ulp of f64 libm for exp (glibc's
// expf is correctly rounded) and be far off for log1p there (MLIR's
// math-to-llvm computes it as log(1 + x) in f32).
// RUN: fp-opt %s -one-shot-bufferize=bufferize-function-boundaries -convert-linalg-to-loops \
// RUN:   -convert-vector-to-scf -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-vector-to-llvm -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.libm
// RUN: %python %S/Inputs/check_accuracy.py %t.libm exp_softmax=0.51:0:0 | FileCheck %s
// RUN: not %python %S/Inputs/check_accuracy.py %t.libm log1p=1000:0:0 | FileCheck %s --check-prefix=FAIL

// No libm call and no LLVM math intrinsic is left for f32 (f64 reference
// ones remain):
// LLVM-NOT: llvm.call @{{(expf|erff|tanhf|logf|log1pf|log2f|expm1f)}}(
// LLVM-NOT: llvm.intr.{{(exp|log|log2)}}({{.*}}) : (vector<8xf32>)
// LLVM-NOT: llvm.intr.{{(exp|log|log2)}}({{.*}}) : (f32)

// CHECK: PASS
// CHECK-NOT: FAIL
// FAIL: FAIL log1p

// IEEE special values of the approximations: exp(-inf) = exp(-FLT_MAX) = 0
// (masked softmax rows), exp(+inf) = inf, log(0) = -inf, log(x < 0) = NaN,
// tanh(+-inf) = erf(+-inf) = +-1, NaN propagates. Inputs: -inf, -FLT_MAX,
// -100, -1, -0, 0, 1e-30, 1, 100, inf, NaN, -1e-30, 0.5, 10, 1e30, FLT_MAX.
// exp flushes results below 2^-126 to 0 (exp(-100) = 3.7e-44 in libm; the
// exp_subnormal range bounds that error by 2^-126), erf(-0) is +0.
// SPECIAL: exp ( 0, 0, 0, 0.367879, 1, 1, 1, 2.71828, inf, inf, nan,
// SPECIAL: log ( {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, -inf, -inf, -69.0776, 0, 4.60517, inf, nan,
// SPECIAL: tanh ( -1, -1, -1, -0.761594, -0, 0, 1e-30, 0.761594, 1, 1, nan, -1e-30, 0.462117, 1, 1, 1 )
// SPECIAL: erf ( -1, -1, -1, -0.842701, 0, 0, 1.12838e-30, 0.842701, 1, 1, nan, -1.12838e-30, 0.5205, 1, 1, 1 )

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>

// N points t_k = lo + (hi - lo) k / (N - 1) in f64; x_k = 2^t_k if pow2,
// else t_k; rounded to f32.
func.func @sample(%lo: f64, %hi: f64, %pow2: i1) -> tensor<1048576xf32> {
  %e = tensor.empty() : tensor<1048576xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<1048576xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %last = arith.constant 1048575.0 : f64
    %span = arith.subf %hi, %lo : f64
    %frac = arith.divf %kf, %last : f64
    %off = arith.mulf %span, %frac : f64
    %t = arith.addf %lo, %off : f64
    %p = math.exp2 %t : f64
    %v = arith.select %pow2, %p, %t : f64
    %v32 = arith.truncf %v : f64 to f32
    linalg.yield %v32 : f32
  } -> tensor<1048576xf32>
  return %x : tensor<1048576xf32>
}

// Prints ( max ulp error, max absolute error, max relative error ) of y
// against the f64 reference r. One ulp is the spacing of f32 at |r| rounded
// to f32 (2^-149 below the normal range, so an exact 0 must be exact).
func.func @report(%y: tensor<1048576xf32>, %r: tensor<1048576xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1048576x3xf64>
  %es = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%es : tensor<f64>) -> tensor<f64>
  %ulp = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%y, %r : tensor<1048576xf32>, tensor<1048576xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f32, %b: f64, %acc: f64):
    %a64 = arith.extf %a : f32 to f64
    %diff = arith.subf %a64, %b : f64
    %d = math.absf %diff : f64
    %b32 = arith.truncf %b : f64 to f32
    %mag = math.absf %b32 : f32
    %bits = arith.bitcast %mag : f32 to i32
    %c1 = arith.constant 1 : i32
    %nbits = arith.addi %bits, %c1 : i32
    %next = arith.bitcast %nbits : i32 to f32
    %next64 = arith.extf %next : f32 to f64
    %mag64 = arith.extf %mag : f32 to f64
    %unit = arith.subf %next64, %mag64 : f64
    %u = arith.divf %d, %unit : f64
    %m = arith.maximumf %acc, %u : f64
    linalg.yield %m : f64
  } -> tensor<f64>
  %abs = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%y, %r : tensor<1048576xf32>, tensor<1048576xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f32, %b: f64, %acc: f64):
    %a64 = arith.extf %a : f32 to f64
    %diff = arith.subf %a64, %b : f64
    %d = math.absf %diff : f64
    %m = arith.maximumf %acc, %d : f64
    linalg.yield %m : f64
  } -> tensor<f64>
  %rel = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%y, %r : tensor<1048576xf32>, tensor<1048576xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f32, %b: f64, %acc: f64):
    %a64 = arith.extf %a : f32 to f64
    %diff = arith.subf %a64, %b : f64
    %d = math.absf %diff : f64
    %mag = math.absf %b : f64
    %q = arith.divf %d, %mag : f64
    %isz = arith.cmpf oeq, %b, %zero : f64
    %rel = arith.select %isz, %d, %q : f64
    %m = arith.maximumf %acc, %rel : f64
    linalg.yield %m : f64
  } -> tensor<f64>
  %u = tensor.extract %ulp[] : tensor<f64>
  %a = tensor.extract %abs[] : tensor<f64>
  %l = tensor.extract %rel[] : tensor<f64>
  %v = vector.from_elements %u, %a, %l : vector<3xf64>
  vector.print %v : vector<3xf64>
  return
}

// IEEE special values: the results softmax (-inf, -FLT_MAX after a mask),
// GELU and norms rely on.
func.func @specials() {
  %x = arith.constant dense<[0xFF800000, -3.40282347e+38, -100.0, -1.0, -0.0, 0.0, 1.0e-30, 1.0, 100.0, 0x7F800000, 0x7FC00000, -1.0e-30, 0.5, 10.0, 1.0e+30, 3.40282347e+38]> : tensor<16xf32>
  call @print_all(%x) : (tensor<16xf32>) -> ()
  return
}

// exp_softmax: x evenly spaced over [-87.33, 0.0].
func.func @check_exp_softmax() {
  %lo = arith.constant -8.733000e+01 : f64
  %hi = arith.constant 0.000000e+00 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.exp %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.exp %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "exp_softmax "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// exp_positive: x evenly spaced over [0.0, 88.72].
func.func @check_exp_positive() {
  %lo = arith.constant 0.000000e+00 : f64
  %hi = arith.constant 8.872000e+01 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.exp %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.exp %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "exp_positive "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// exp_subnormal: x evenly spaced over [-103.9, -87.34].
func.func @check_exp_subnormal() {
  %lo = arith.constant -1.039000e+02 : f64
  %hi = arith.constant -8.734000e+01 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.exp %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.exp %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "exp_subnormal "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// expm1: x evenly spaced over [-20.0, 20.0].
func.func @check_expm1() {
  %lo = arith.constant -2.000000e+01 : f64
  %hi = arith.constant 2.000000e+01 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.expm1 %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.expm1 %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "expm1 "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// log_normals: x = 2^t, t evenly spaced over [-126.0, 127.99].
func.func @check_log_normals() {
  %lo = arith.constant -1.260000e+02 : f64
  %hi = arith.constant 1.279900e+02 : f64
  %pow2 = arith.constant true
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.log %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "log_normals "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// log_near_1: x evenly spaced over [0.5, 2.0].
func.func @check_log_near_1() {
  %lo = arith.constant 5.000000e-01 : f64
  %hi = arith.constant 2.000000e+00 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.log %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "log_near_1 "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// log1p: x evenly spaced over [-0.99, 10.0].
func.func @check_log1p() {
  %lo = arith.constant -9.900000e-01 : f64
  %hi = arith.constant 1.000000e+01 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log1p %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.log1p %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "log1p "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// log2_normals: x = 2^t, t evenly spaced over [-126.0, 127.99].
func.func @check_log2_normals() {
  %lo = arith.constant -1.260000e+02 : f64
  %hi = arith.constant 1.279900e+02 : f64
  %pow2 = arith.constant true
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log2 %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.log2 %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "log2_normals "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// tanh: x evenly spaced over [-10.0, 10.0].
func.func @check_tanh() {
  %lo = arith.constant -1.000000e+01 : f64
  %hi = arith.constant 1.000000e+01 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.tanh %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.tanh %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "tanh "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

// erf: x evenly spaced over [-6.0, 6.0].
func.func @check_erf() {
  %lo = arith.constant -6.000000e+00 : f64
  %hi = arith.constant 6.000000e+00 : f64
  %pow2 = arith.constant false
  %x = call @sample(%lo, %hi, %pow2) : (f64, f64, i1) -> tensor<1048576xf32>
  %e32 = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e32 : tensor<1048576xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.erf %v : f32
    linalg.yield %f : f32
  } -> tensor<1048576xf32>
  %e64 = tensor.empty() : tensor<1048576xf64>
  %ref = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e64 : tensor<1048576xf64>) {
  ^bb0(%v: f32, %o: f64):
    %v64 = arith.extf %v : f32 to f64
    %f = math.erf %v64 : f64
    linalg.yield %f : f64
  } -> tensor<1048576xf64>
  vector.print str "erf "
  call @report(%y, %ref) : (tensor<1048576xf32>, tensor<1048576xf64>) -> ()
  return
}

func.func @main() {
  call @check_exp_softmax() : () -> ()
  call @check_exp_positive() : () -> ()
  call @check_exp_subnormal() : () -> ()
  call @check_expm1() : () -> ()
  call @check_log_normals() : () -> ()
  call @check_log_near_1() : () -> ()
  call @check_log1p() : () -> ()
  call @check_log2_normals() : () -> ()
  call @check_tanh() : () -> ()
  call @check_erf() : () -> ()
  call @specials() : () -> ()
  return
}

func.func @print_all(%x: tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.exp %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %exp_v = vector.transfer_read %exp[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "exp "
  vector.print %exp_v : vector<16xf32>
  %expm1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.expm1 %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %expm1_v = vector.transfer_read %expm1[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "expm1 "
  vector.print %expm1_v : vector<16xf32>
  %log = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %log_v = vector.transfer_read %log[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "log "
  vector.print %log_v : vector<16xf32>
  %log1p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log1p %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %log1p_v = vector.transfer_read %log1p[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "log1p "
  vector.print %log1p_v : vector<16xf32>
  %log2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.log2 %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %log2_v = vector.transfer_read %log2[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "log2 "
  vector.print %log2_v : vector<16xf32>
  %tanh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.tanh %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %tanh_v = vector.transfer_read %tanh[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "tanh "
  vector.print %tanh_v : vector<16xf32>
  %erf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %f = math.erf %v : f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %erf_v = vector.transfer_read %erf[%c0], %pad : tensor<16xf32>, vector<16xf32>
  vector.print str "erf "
  vector.print %erf_v : vector<16xf32>
  return
}
