// RUN: fp-opt %s -lowp-approximate-math -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-approximate-math=functions=erf -split-input-file | FileCheck %s --check-prefix=ERF

// Vector math on f32 becomes arith + math.fma on the same vector type: no
// math op is left for convert-math-to-libm to scalarize.
// CHECK-LABEL: func @vector_f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK-NOT: math.log
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK-NOT: math.log
// CHECK: return
// Only erf is selected: the others stay.
// ERF-LABEL: func @vector_f32
// ERF: math.exp {{.*}} : vector<8xf32>
// ERF-NOT: math.erf
// ERF: math.tanh {{.*}} : vector<8xf32>
// ERF: math.log {{.*}} : vector<8xf32>
// ERF: math.log1p
// ERF: math.log2
// ERF: math.expm1
func.func @vector_f32(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = math.exp %x : vector<8xf32>
  %1 = math.erf %x : vector<8xf32>
  %2 = math.tanh %x : vector<8xf32>
  %3 = math.log %x : vector<8xf32>
  %4 = math.log1p %x : vector<8xf32>
  %5 = math.log2 %x : vector<8xf32>
  %6 = math.expm1 %x : vector<8xf32>
  return %0, %1, %2, %3, %4, %5, %6 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// -----

// Scalars and n-D vectors too (loops the vectorizer left scalar).
// CHECK-LABEL: func @scalar_and_2d
// CHECK-NOT: math.exp
// CHECK: math.fma {{.*}} : f32
// CHECK: math.fma {{.*}} : vector<2x16xf32>
// CHECK-NOT: math.exp
func.func @scalar_and_2d(%x: f32, %y: vector<2x16xf32>) -> (f32, vector<2x16xf32>) {
  %0 = math.exp %x : f32
  %1 = math.exp %y : vector<2x16xf32>
  return %0, %1 : f32, vector<2x16xf32>
}

// -----

// bf16 and f16 are computed in f32 between an extf and a truncf.
// CHECK-LABEL: func @narrow
// CHECK: arith.extf {{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK-NOT: math.tanh
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK-NOT: math.exp
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @narrow(%x: vector<8xbf16>, %y: f16) -> (vector<8xbf16>, f16) {
  %0 = math.tanh %x : vector<8xbf16>
  %1 = math.exp %y : f16
  return %0, %1 : vector<8xbf16>, f16
}

// -----

// Left alone: f64 (libm keeps its accuracy), functions without a measured
// approximation (sin, atan), and math ops LLVM vectorizes itself (sqrt,
// rsqrt, fma, absf).
// CHECK-LABEL: func @untouched
// CHECK: math.exp {{.*}} : vector<4xf64>
// CHECK: math.sin {{.*}} : vector<8xf32>
// CHECK: math.atan {{.*}} : vector<8xf32>
// CHECK: math.sqrt {{.*}} : vector<8xf32>
// CHECK: math.rsqrt {{.*}} : vector<8xf32>
func.func @untouched(%d: vector<4xf64>, %x: vector<8xf32>) -> (vector<4xf64>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = math.exp %d : vector<4xf64>
  %1 = math.sin %x : vector<8xf32>
  %2 = math.atan %x : vector<8xf32>
  %3 = math.sqrt %x : vector<8xf32>
  %4 = math.rsqrt %x : vector<8xf32>
  return %0, %1, %2, %3, %4 : vector<4xf64>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}
