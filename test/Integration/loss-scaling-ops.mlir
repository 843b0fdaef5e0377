// Executes the lowerings of the loss-scaling ops on edge cases whose answer
// follows from the definitions: IEEE finiteness, exact power-of-two scaling,
// and GradScaler's "grow only if the grown scale is finite".
//
// RUN: fp-opt %s -convert-lowp-to-linalg \
// RUN:       -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:       -convert-linalg-to-loops -expand-strided-metadata -lower-affine \
// RUN:       -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm \
// RUN:       -convert-to-llvm -reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN:   | FileCheck %s

func.func @print_flag(%b: i1) {
  %i = arith.extui %b : i1 to i64
  vector.print %i : i64
  return
}

func.func @main() {
  // f16 extremes that are finite: largest, smallest subnormal, -0.
  // CHECK: finite-f16-extremes
  // CHECK-NEXT: 1
  vector.print str "finite-f16-extremes\n"
  %a = arith.constant dense<[[65504.0, -65504.0], [5.9604644775390625e-08, -0.0]]> : tensor<2x2xf16>
  %fa = lowp.all_finite %a : tensor<2x2xf16>
  func.call @print_flag(%fa) : (i1) -> ()

  // One -inf or one NaN anywhere makes the whole set non-finite.
  // CHECK: neg-inf
  // CHECK-NEXT: 0
  // CHECK: nan-in-second-input
  // CHECK-NEXT: 0
  vector.print str "neg-inf\n"
  %b = arith.constant dense<[[1.0, 2.0], [0xFC00, 3.0]]> : tensor<2x2xf16>
  %fb = lowp.all_finite %b : tensor<2x2xf16>
  func.call @print_flag(%fb) : (i1) -> ()
  vector.print str "nan-in-second-input\n"
  %c = arith.constant dense<[1.0, 0x7FC00000, 2.0]> : tensor<3xf32>
  %fc = lowp.all_finite %a, %c : tensor<2x2xf16>, tensor<3xf32>
  func.call @print_flag(%fc) : (i1) -> ()

  // Scaling f16 past 65504 overflows to inf, which all_finite sees.
  // CHECK: scaled-f16-overflow
  // CHECK-NEXT: 0
  vector.print str "scaled-f16-overflow\n"
  %big = arith.constant 65536.0 : f32
  %d = arith.constant dense<[1.0, 0.5]> : tensor<2xf16>
  %ds = lowp.scale %big, %d : f32, tensor<2xf16>
  %fd = lowp.all_finite %ds : tensor<2xf16>
  func.call @print_flag(%fd) : (i1) -> ()

  // scale then unscale by 2^20 returns every f32 bit pattern unchanged.
  // CHECK: pow2-roundtrip-bit-exact
  // CHECK-NEXT: 1
  vector.print str "pow2-roundtrip-bit-exact\n"
  %s20 = arith.constant 1048576.0 : f32
  %x = arith.constant dense<[0.1, -3.3333333, 1.0e-20, 7.0e+15, 0.0]> : tensor<5xf32>
  %xs = lowp.scale %s20, %x : f32, tensor<5xf32>
  %xu = lowp.unscale %s20, %xs : f32, tensor<5xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %true = arith.constant true
  %same = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %true) -> (i1) {
    %p = tensor.extract %x[%i] : tensor<5xf32>
    %q = tensor.extract %xu[%i] : tensor<5xf32>
    %pi = arith.bitcast %p : f32 to i32
    %qi = arith.bitcast %q : f32 to i32
    %eq = arith.cmpi eq, %pi, %qi : i32
    %r = arith.andi %acc, %eq : i1
    scf.yield %r : i1
  }
  func.call @print_flag(%same) : (i1) -> ()

  // At the growth interval, a scale whose growth would overflow f32 stays,
  // and the counter still resets.
  // CHECK: growth-to-inf-refused
  // CHECK-NEXT: 1
  // CHECK-NEXT: 0
  vector.print str "growth-to-inf-refused\n"
  %huge = arith.constant 2.5e+38 : f32
  %n = arith.constant 4 : i64
  %s1, %n1 = lowp.update_scale %huge, %n, %true {growth_interval = 5 : i64} : f32, i64
  %kept = arith.cmpf oeq, %s1, %huge : f32
  func.call @print_flag(%kept) : (i1) -> ()
  vector.print %n1 : i64

  // Backoff below min_scale clamps to it; growth above max_scale clamps.
  // CHECK: clamps
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  vector.print str "clamps\n"
  %false = arith.constant false
  %one = arith.constant 1.0 : f32
  %lo, %nlo = lowp.update_scale %one, %n, %false {min_scale = 1.0 : f64} : f32, i64
  %at_min = arith.cmpf oeq, %lo, %one : f32
  func.call @print_flag(%at_min) : (i1) -> ()
  %m = arith.constant 4096.0 : f32
  %hi, %nhi = lowp.update_scale %m, %n, %true {growth_interval = 5 : i64, max_scale = 4096.0 : f64} : f32, i64
  %at_max = arith.cmpf oeq, %hi, %m : f32
  func.call @print_flag(%at_max) : (i1) -> ()
  return
}
