// lowp-rocdl-expand-math's rewrites executed on this CPU against f64 libm:
// every math op lowp-pipeline-rocdl would otherwise send to the ROCm device
// library (ocml), on 4096 points of a range each, f32 result vs the f64
// function rounded to f32. The bound is |approx - ref| <= 4e-6 * max(|ref|,
// 1) (a few ulps where the result is not tiny; absolute near zero crossings);
// floor must be exact. CHECK lines print the worst scaled error per op.
// floor-f64: the same identity on f64 (-ceil(-x)), exactly equal to an
// independent trunc-based floor on 4096 multiples of 1/16 in [-128, 128).
// RUN: fp-opt %s -lowp-rocdl-expand-math -math-expand-ops -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-rocdl-expand-math | FileCheck %s --check-prefix=IR

// The f32 ops are rewritten (no call left for convert-gpu-to-rocdl to
// make), the f64 reference is not.
// IR-LABEL: func.func @approx_sin
// IR-NOT: math.sin
// IR: math.fma
// IR-LABEL: func.func @ref_sin
// IR: math.sin {{.*}} : f64
// IR-LABEL: func.func @approx_log10
// IR: math.log
// IR: arith.mulf
// IR-LABEL: func.func @ref_log10
// IR: math.log10 {{.*}} : f64
// IR-LABEL: func.func @approx_floor
// IR: arith.negf
// IR: math.ceil
// IR: arith.negf
// IR-LABEL: func.func @ref_floor
// IR-NOT: math.floor
// IR: math.trunc {{.*}} : f64
// IR-LABEL: func.func @approx_floor_f64
// IR-NOT: math.floor
// IR: arith.negf {{.*}} : f64
// IR: math.ceil {{.*}} : f64
// IR: arith.negf {{.*}} : f64

// CHECK: sin 1
// CHECK-NEXT: cos 1
// CHECK-NEXT: tan 1
// CHECK-NEXT: atan 1
// CHECK-NEXT: asin 1
// CHECK-NEXT: acos 1
// CHECK-NEXT: cbrt 1
// CHECK-NEXT: erf 1
// CHECK-NEXT: erfc 1
// CHECK-NEXT: log2 1
// CHECK-NEXT: log10 1
// CHECK-NEXT: floor 1
// CHECK-NEXT: floor-f64 1

func.func @approx_sin(%x: f32) -> f32 {
  %r = math.sin %x : f32
  return %r : f32
}
func.func @ref_sin(%x: f64) -> f64 {
  %r = math.sin %x : f64
  return %r : f64
}
func.func @approx_cos(%x: f32) -> f32 {
  %r = math.cos %x : f32
  return %r : f32
}
func.func @ref_cos(%x: f64) -> f64 {
  %r = math.cos %x : f64
  return %r : f64
}
func.func @approx_tan(%x: f32) -> f32 {
  %r = math.tan %x : f32
  return %r : f32
}
func.func @ref_tan(%x: f64) -> f64 {
  %r = math.tan %x : f64
  return %r : f64
}
func.func @approx_atan(%x: f32) -> f32 {
  %r = math.atan %x : f32
  return %r : f32
}
func.func @ref_atan(%x: f64) -> f64 {
  %r = math.atan %x : f64
  return %r : f64
}
func.func @approx_asin(%x: f32) -> f32 {
  %r = math.asin %x : f32
  return %r : f32
}
func.func @ref_asin(%x: f64) -> f64 {
  %r = math.asin %x : f64
  return %r : f64
}
func.func @approx_acos(%x: f32) -> f32 {
  %r = math.acos %x : f32
  return %r : f32
}
func.func @ref_acos(%x: f64) -> f64 {
  %r = math.acos %x : f64
  return %r : f64
}
func.func @approx_cbrt(%x: f32) -> f32 {
  %r = math.cbrt %x : f32
  return %r : f32
}
func.func @ref_cbrt(%x: f64) -> f64 {
  %r = math.cbrt %x : f64
  return %r : f64
}
func.func @approx_erf(%x: f32) -> f32 {
  %r = math.erf %x : f32
  return %r : f32
}
func.func @ref_erf(%x: f64) -> f64 {
  %r = math.erf %x : f64
  return %r : f64
}
func.func @approx_erfc(%x: f32) -> f32 {
  %r = math.erfc %x : f32
  return %r : f32
}
func.func @ref_erfc(%x: f64) -> f64 {
  %r = math.erfc %x : f64
  return %r : f64
}
func.func @approx_log2(%x: f32) -> f32 {
  %r = math.log2 %x : f32
  return %r : f32
}
func.func @ref_log2(%x: f64) -> f64 {
  %r = math.log2 %x : f64
  return %r : f64
}
func.func @approx_log10(%x: f32) -> f32 {
  %r = math.log10 %x : f32
  return %r : f32
}
func.func @ref_log10(%x: f64) -> f64 {
  %r = math.log10 %x : f64
  return %r : f64
}
func.func @approx_floor(%x: f32) -> f32 {
  %r = math.floor %x : f32
  return %r : f32
}
// floor(x) = trunc(x) - (x < trunc(x)): no math.floor for the pass to
// rewrite, so the reference stays independent of it.
func.func @ref_floor(%x: f64) -> f64 {
  %t = math.trunc %x : f64
  %one = arith.constant 1.0 : f64
  %below = arith.cmpf olt, %x, %t : f64
  %tm1 = arith.subf %t, %one : f64
  %r = arith.select %below, %tm1, %t : f64
  return %r : f64
}
func.func @approx_floor_f64(%x: f64) -> f64 {
  %r = math.floor %x : f64
  return %r : f64
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %bound = arith.constant 4.0e-6 : f64
  // sin on [-10.0, 10.0]
  %lo_sin = arith.constant -10.0 : f64
  %step_sin = arith.constant 0.004884004884004884 : f64
  %err_sin = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_sin : f64
    %x64 = arith.addf %lo_sin, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_sin(%x) : (f32) -> f32
    %r = func.call @ref_sin(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "sin "
  %ok_sin = arith.cmpf ole, %err_sin, %bound : f64
  vector.print %ok_sin : i1
  // cos on [-10.0, 10.0]
  %lo_cos = arith.constant -10.0 : f64
  %step_cos = arith.constant 0.004884004884004884 : f64
  %err_cos = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_cos : f64
    %x64 = arith.addf %lo_cos, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_cos(%x) : (f32) -> f32
    %r = func.call @ref_cos(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "cos "
  %ok_cos = arith.cmpf ole, %err_cos, %bound : f64
  vector.print %ok_cos : i1
  // tan on [-1.5, 1.5]
  %lo_tan = arith.constant -1.5 : f64
  %step_tan = arith.constant 0.0007326007326007326 : f64
  %err_tan = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_tan : f64
    %x64 = arith.addf %lo_tan, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_tan(%x) : (f32) -> f32
    %r = func.call @ref_tan(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "tan "
  %ok_tan = arith.cmpf ole, %err_tan, %bound : f64
  vector.print %ok_tan : i1
  // atan on [-20.0, 20.0]
  %lo_atan = arith.constant -20.0 : f64
  %step_atan = arith.constant 0.009768009768009768 : f64
  %err_atan = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_atan : f64
    %x64 = arith.addf %lo_atan, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_atan(%x) : (f32) -> f32
    %r = func.call @ref_atan(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "atan "
  %ok_atan = arith.cmpf ole, %err_atan, %bound : f64
  vector.print %ok_atan : i1
  // asin on [-1.0, 1.0]
  %lo_asin = arith.constant -1.0 : f64
  %step_asin = arith.constant 0.0004884004884004884 : f64
  %err_asin = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_asin : f64
    %x64 = arith.addf %lo_asin, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_asin(%x) : (f32) -> f32
    %r = func.call @ref_asin(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "asin "
  %ok_asin = arith.cmpf ole, %err_asin, %bound : f64
  vector.print %ok_asin : i1
  // acos on [-1.0, 1.0]
  %lo_acos = arith.constant -1.0 : f64
  %step_acos = arith.constant 0.0004884004884004884 : f64
  %err_acos = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_acos : f64
    %x64 = arith.addf %lo_acos, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_acos(%x) : (f32) -> f32
    %r = func.call @ref_acos(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "acos "
  %ok_acos = arith.cmpf ole, %err_acos, %bound : f64
  vector.print %ok_acos : i1
  // cbrt on [-100.0, 100.0]
  %lo_cbrt = arith.constant -100.0 : f64
  %step_cbrt = arith.constant 0.04884004884004884 : f64
  %err_cbrt = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_cbrt : f64
    %x64 = arith.addf %lo_cbrt, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_cbrt(%x) : (f32) -> f32
    %r = func.call @ref_cbrt(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "cbrt "
  %ok_cbrt = arith.cmpf ole, %err_cbrt, %bound : f64
  vector.print %ok_cbrt : i1
  // erf on [-4.0, 4.0]
  %lo_erf = arith.constant -4.0 : f64
  %step_erf = arith.constant 0.0019536019536019536 : f64
  %err_erf = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_erf : f64
    %x64 = arith.addf %lo_erf, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_erf(%x) : (f32) -> f32
    %r = func.call @ref_erf(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "erf "
  %ok_erf = arith.cmpf ole, %err_erf, %bound : f64
  vector.print %ok_erf : i1
  // erfc on [-4.0, 4.0]
  %lo_erfc = arith.constant -4.0 : f64
  %step_erfc = arith.constant 0.0019536019536019536 : f64
  %err_erfc = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_erfc : f64
    %x64 = arith.addf %lo_erfc, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_erfc(%x) : (f32) -> f32
    %r = func.call @ref_erfc(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "erfc "
  %ok_erfc = arith.cmpf ole, %err_erfc, %bound : f64
  vector.print %ok_erfc : i1
  // log2 on [0.001, 1000.0]
  %lo_log2 = arith.constant 0.001 : f64
  %step_log2 = arith.constant 0.2442 : f64
  %err_log2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_log2 : f64
    %x64 = arith.addf %lo_log2, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_log2(%x) : (f32) -> f32
    %r = func.call @ref_log2(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "log2 "
  %ok_log2 = arith.cmpf ole, %err_log2, %bound : f64
  vector.print %ok_log2 : i1
  // log10 on [0.001, 1000.0]
  %lo_log10 = arith.constant 0.001 : f64
  %step_log10 = arith.constant 0.2442 : f64
  %err_log10 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_log10 : f64
    %x64 = arith.addf %lo_log10, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_log10(%x) : (f32) -> f32
    %r = func.call @ref_log10(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "log10 "
  %ok_log10 = arith.cmpf ole, %err_log10, %bound : f64
  vector.print %ok_log10 : i1
  // floor on [-50.0, 50.0]
  %lo_floor = arith.constant -50.0 : f64
  %step_floor = arith.constant 0.02442002442002442 : f64
  %err_floor = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %step_floor : f64
    %x64 = arith.addf %lo_floor, %t : f64
    %x = arith.truncf %x64 : f64 to f32
    %xe = arith.extf %x : f32 to f64
    %a = func.call @approx_floor(%x) : (f32) -> f32
    %r = func.call @ref_floor(%xe) : (f64) -> f64
    %rr = arith.truncf %r : f64 to f32
    %rre = arith.extf %rr : f32 to f64
    %ae = arith.extf %a : f32 to f64
    %d = arith.subf %ae, %rre : f64
    %ad = math.absf %d : f64
    %ar = math.absf %rre : f64
    %s = arith.maximumf %ar, %one : f64
    %e = arith.divf %ad, %s : f64
    %nm = arith.maximumf %m, %e : f64
    scf.yield %nm : f64
  }
  vector.print str "floor "
  %ok_floor = arith.cmpf ole, %err_floor, %bound : f64
  vector.print %ok_floor : i1
  // floor on f64, (i - 2048) / 16: integers, halves and sixteenths, exact.
  %c2048 = arith.constant 2048 : i64
  %sixteenth = arith.constant 0.0625 : f64
  %mism = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %centered = arith.subi %ii, %c2048 : i64
    %fi = arith.sitofp %centered : i64 to f64
    %x = arith.mulf %fi, %sixteenth : f64
    %a = func.call @approx_floor_f64(%x) : (f64) -> f64
    %r = func.call @ref_floor(%x) : (f64) -> f64
    %d = arith.subf %a, %r : f64
    %ad = math.absf %d : f64
    %nm = arith.maximumf %m, %ad : f64
    scf.yield %nm : f64
  }
  vector.print str "floor-f64 "
  %ok_floor64 = arith.cmpf oeq, %mism, %zero : f64
  vector.print %ok_floor64 : i1
  return
}
