// Powers by a constant as front ends write them (torch-mlir's x.pow(2) of
// an RMSNorm, x.pow(0.5), x.pow(-0.5), x.pow(3)) through lowp-pipeline-x86:
// strength-reduced to multiplies, sqrt and rsqrt by lowp-approximate-math
// instead of a libm call per vector element. Per row of a 16x100 input in
// [-1.75, 1.75], each result is compared with the same formula computed in
// f64 with multiplies and sqrt (no powf), to 2e-6 relative; a negative
// control (x^3 against x^2) must fail.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>&1 >%t.mlir | FileCheck %s --allow-empty --check-prefix=REMARK
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// REMARK-NOT: slow path: 'math.powf'
// RUN: FileCheck %s --check-prefix=LLVM < %t.mlir
// LLVM-NOT: llvm.intr.pow
// LLVM: llvm.intr.sqrt
// LLVM-NOT: llvm.intr.pow
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// rms(x) = (mean(x^2))^0.5 per row, x^3 and (|x| + 1)^(-0.5), with powf.
func.func @powers(%x: tensor<16x100xf32>) -> (tensor<16xf32>, tensor<16x100xf32>, tensor<16x100xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x100xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %a: f32):
    %two = arith.constant 2.0 : f32
    %sq = math.powf %v, %two : f32
    %s = arith.addf %a, %sq : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %rms = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.constant 100.0 : f32
    %half = arith.constant 0.5 : f32
    %m = arith.divf %v, %n : f32
    %r = math.powf %m, %half : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x100xf32>
  %cube = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x100xf32>) outs(%e2 : tensor<16x100xf32>) {
  ^bb0(%v: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %c = math.powf %v, %three : f32
    linalg.yield %c : f32
  } -> tensor<16x100xf32>
  %inv = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x100xf32>) outs(%e2 : tensor<16x100xf32>) {
  ^bb0(%v: f32, %o: f32):
    %mhalf = arith.constant -0.5 : f32
    %a = math.absf %v : f32
    %one = arith.constant 1.0 : f32
    %p = arith.addf %a, %one : f32
    %c = math.powf %p, %mhalf : f32
    linalg.yield %c : f32
  } -> tensor<16x100xf32>
  return %rms, %cube, %inv : tensor<16xf32>, tensor<16x100xf32>, tensor<16x100xf32>
}

// The same in f64 with multiplies and sqrt, rounded to f32.
func.func @reference(%x: tensor<16x100xf32>) -> (tensor<16xf32>, tensor<16x100xf32>, tensor<16x100xf32>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<16xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<16xf64>) -> tensor<16xf64>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x100xf32>) outs(%acc : tensor<16xf64>) {
  ^bb0(%v: f32, %a: f64):
    %d = arith.extf %v : f32 to f64
    %sq = arith.mulf %d, %d : f64
    %s = arith.addf %a, %sq : f64
    linalg.yield %s : f64
  } -> tensor<16xf64>
  %e1 = tensor.empty() : tensor<16xf32>
  %rms = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<16xf64>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%v: f64, %o: f32):
    %n = arith.constant 100.0 : f64
    %m = arith.divf %v, %n : f64
    %r = math.sqrt %m : f64
    %t = arith.truncf %r : f64 to f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x100xf32>
  %cube = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x100xf32>) outs(%e2 : tensor<16x100xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.extf %v : f32 to f64
    %s = arith.mulf %d, %d : f64
    %c = arith.mulf %s, %d : f64
    %t = arith.truncf %c : f64 to f32
    linalg.yield %t : f32
  } -> tensor<16x100xf32>
  %inv = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x100xf32>) outs(%e2 : tensor<16x100xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.extf %v : f32 to f64
    %a = math.absf %d : f64
    %one = arith.constant 1.0 : f64
    %p = arith.addf %a, %one : f64
    %r = math.sqrt %p : f64
    %c = arith.divf %one, %r : f64
    %t = arith.truncf %c : f64 to f32
    linalg.yield %t : f32
  } -> tensor<16x100xf32>
  return %rms, %cube, %inv : tensor<16xf32>, tensor<16x100xf32>, tensor<16x100xf32>
}

// 1 when every |got - ref| <= 2e-6 |ref| + 1e-30.
func.func @close(%got: tensor<16x100xf32>, %ref: tensor<16x100xf32>) -> i1 {
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id, #id, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%got, %ref : tensor<16x100xf32>, tensor<16x100xf32>) outs(%init : tensor<f32>) {
  ^bb0(%g: f32, %r: f32, %m: f32):
    %d = arith.subf %g, %r : f32
    %ad = math.absf %d : f32
    %ar = math.absf %r : f32
    %rel = arith.constant 2.0e-6 : f32
    %abs = arith.constant 1.0e-30 : f32
    %t = arith.mulf %ar, %rel : f32
    %tol = arith.addf %t, %abs : f32
    %ex = arith.subf %ad, %tol : f32
    %n = arith.maximumf %m, %ex : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %w = tensor.extract %worst[] : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %ok = arith.cmpf ole, %w, %zero : f32
  return %ok : i1
}

func.func @main() {
  %e = tensor.empty() : tensor<16x100xf32>
  // x[i][j] = ((7 i + 13 j) mod 29 - 14) / 8: in [-1.75, 1.75].
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x100xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c13 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %c14 = arith.constant 14.0 : f32
    %c8 = arith.constant 8.0 : f32
    %d = arith.subf %mf, %c14 : f32
    %v = arith.divf %d, %c8 : f32
    linalg.yield %v : f32
  } -> tensor<16x100xf32>
  %rms, %cube, %inv = call @powers(%x) : (tensor<16x100xf32>) -> (tensor<16xf32>, tensor<16x100xf32>, tensor<16x100xf32>)
  %rrms, %rcube, %rinv = call @reference(%x) : (tensor<16x100xf32>) -> (tensor<16xf32>, tensor<16x100xf32>, tensor<16x100xf32>)
  // rms compared as a 16x100 broadcast of each row's value.
  %b = linalg.broadcast ins(%rms : tensor<16xf32>) outs(%e : tensor<16x100xf32>) dimensions = [1]
  %rb = linalg.broadcast ins(%rrms : tensor<16xf32>) outs(%e : tensor<16x100xf32>) dimensions = [1]
  %ok0 = call @close(%b, %rb) : (tensor<16x100xf32>, tensor<16x100xf32>) -> i1
  vector.print %ok0 : i1
  %ok1 = call @close(%cube, %rcube) : (tensor<16x100xf32>, tensor<16x100xf32>) -> i1
  vector.print %ok1 : i1
  %ok2 = call @close(%inv, %rinv) : (tensor<16x100xf32>, tensor<16x100xf32>) -> i1
  vector.print %ok2 : i1
  // The rms is not trivially 1: at least one row differs from 1 by 1e-3.
  %c0 = arith.constant 0 : index
  %r0 = tensor.extract %rrms[%c0] : tensor<16xf32>
  %one = arith.constant 1.0 : f32
  %dev = arith.subf %r0, %one : f32
  %adev = math.absf %dev : f32
  %thr = arith.constant 1.0e-3 : f32
  %nontrivial = arith.cmpf ogt, %adev, %thr : f32
  vector.print %nontrivial : i1
  // Negative control: x^3 against the reference's x^-1/2 term.
  %bad = call @close(%cube, %rinv) : (tensor<16x100xf32>, tensor<16x100xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
