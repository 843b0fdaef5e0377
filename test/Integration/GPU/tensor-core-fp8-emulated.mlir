// Executes the FP8 tensor-core kernels of lowp-nvvm-lower-contractions
// (mma.sync m16n8k32, sm_89) on this CPU: with `emulate`, the pass emits
// the kernel it would launch (128 x 128 blocks, 64-deep slices in two
// padded shared stages, per-thread 16-byte chunk copies, ldmatrix row
// addresses for A and for a B stored [n][k], per-lane column reads of a B
// stored [k][n], accumulator coordinates, guards, the fused dequantization
// and bias) as loops over blocks, threads, warps and lanes, with ldmatrix
// and mma.sync computed per lane from the PTX ISA's m16n8k32 fragment
// layouts. lowp-expand-float-conversions turns the FP8 conversions (the
// test's quantization, the emulated instruction's widening) into exact
// integer code for this CPU.
//
// Shapes leave tails: M = 136 and 72 are not multiples of the 128-row
// block, K = 80 not of the 64-deep slice; the operands mix E4M3 and E5M2.
//
// 1. Exact: operands are integers in [-5, 5] (exact in E4M3 and E5M2),
//    every product and partial sum is exact in f32, the scales are powers
//    of two: the kernel must equal the f32 reference (tolerance 0), so any
//    indexing error (a wrong byte of a fragment register, a wrong lane, a
//    missed tail) shows.
// 2. Rounded: operands are multiples of 1/7 (not representable), quantized
//    as lowp-select-fp8-formats does (round(x * s) in FP8, s = 2 for A in
//    E4M3 and 4 for B in E5M2, all in the normal range) and dequantized by
//    the epilogue (1 / (sa * sb)), against the f32 product of the
//    unquantized operands. Per element |kernel - reference| must stay
//    within (u_a + u_b + u_a * u_b + 4 (K + 2) 2^-24) * (sum_k |a||b| +
//    |bias|), u the unit roundoff of each format (2^-4 for E4M3's 3
//    mantissa bits, 2^-3 for E5M2's 2), the last term f32 accumulation;
//    the error must also be nonzero (the operands really went through FP8).
//
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_89 emulate" | FileCheck %s --check-prefix=IR
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_89 emulate" \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
//
// sm_90a: every case runs on the wgmma kernel (m64n128k32, operands read
// through their descriptors as the PTX ISA decodes them). linear_fp8's B
// is stored [n][k] (K-major, as wgmma reads 8-bit operands); mm_fp8's
// (E4M3 x E5M2) and mm_fp8_e4m3's (E4M3 x E4M3) B is stored [k][n]: wgmma
// has no transpose for 8-bit operands, so the staging gathers each 16-byte
// K-major chunk from a column of B, and the emulated wgmma reads it
// through a K-major descriptor.
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_90a emulate" 2>&1 | FileCheck %s --check-prefix=WG
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_90a emulate" \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// WG-NOT: remark
// WG-LABEL: func.func @mm_fp8
// WG-NOT: linalg.
// WG: memref.alloc() : memref<3x8192xf8E4M3FN>
// WG: memref.alloc() : memref<3x8192xf8E5M2>
// WG: vector.from_elements {{.*}} : vector<16xf8E5M2>
// WG: return
// WG-LABEL: func.func @mm_fp8_e4m3
// WG-NOT: linalg.
// WG: memref.alloc() : memref<3x8192xf8E4M3FN>
// WG: memref.alloc() : memref<3x8192xf8E4M3FN>
// WG: return
// WG-LABEL: func.func @linear_fp8
// WG-NOT: linalg.
// WG: memref.alloc() : memref<3x8192xf8E4M3FN>
// WG: memref.alloc() : memref<3x8192xf8E5M2>
// WG: return

#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#scalar = affine_map<(i, j) -> ()>
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>

// The kernels under test: the pass rewrites both (no linalg op is left in
// them; the dequantization is computed on the accumulators).
// IR-LABEL: func.func @mm_fp8
// IR-NOT: linalg.
// IR: return
// IR-LABEL: func.func @mm_fp8_e4m3
// IR-NOT: linalg.
// IR: return
// IR-LABEL: func.func @linear_fp8
// IR-NOT: linalg.
// IR: return
// The kernels under test. out = (A x B) / (sa * sb) + bias, B [k][n].
func.func @mm_fp8(%a: memref<136x80xf8E4M3FN>, %b: memref<80x48xf8E5M2>,
                  %sa: memref<f32>, %sb: memref<f32>, %bias: memref<48xf32>,
                  %out: memref<136x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<136x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<136x48xf32>)
  linalg.matmul ins(%a, %b : memref<136x80xf8E4M3FN>, memref<80x48xf8E5M2>) outs(%c : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#id2, #scalar, #scalar, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sa, %sb, %bias : memref<136x48xf32>, memref<f32>, memref<f32>, memref<48xf32>) outs(%out : memref<136x48xf32>) {
  ^bb0(%x: f32, %p: f32, %q: f32, %bb: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %x, %s : f32
    %y = arith.addf %d, %bb : f32
    linalg.yield %y : f32
  }
  memref.dealloc %c : memref<136x48xf32>
  return
}

// The same with both operands E4M3 (B [k][n]).
func.func @mm_fp8_e4m3(%a: memref<136x80xf8E4M3FN>, %b: memref<80x48xf8E4M3FN>,
                  %sa: memref<f32>, %sb: memref<f32>, %bias: memref<48xf32>,
                  %out: memref<136x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<136x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<136x48xf32>)
  linalg.matmul ins(%a, %b : memref<136x80xf8E4M3FN>, memref<80x48xf8E4M3FN>) outs(%c : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#id2, #scalar, #scalar, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sa, %sb, %bias : memref<136x48xf32>, memref<f32>, memref<f32>, memref<48xf32>) outs(%out : memref<136x48xf32>) {
  ^bb0(%x: f32, %p: f32, %q: f32, %bb: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %x, %s : f32
    %y = arith.addf %d, %bb : f32
    linalg.yield %y : f32
  }
  memref.dealloc %c : memref<136x48xf32>
  return
}

// out = (X x W^T) * (1 / (sa * sb)), W stored [n][k] (B's fragments by
// ldmatrix), the dequantization as lowp-select-fp8-formats emits it: a
// scalar multiplier computed outside the kernel.
func.func @linear_fp8(%x: memref<72x80xf8E4M3FN>, %w: memref<32x80xf8E5M2>,
                      %sa: memref<f32>, %sb: memref<f32>, %out: memref<72x32xf32>) {
  %one = arith.constant 1.0 : f32
  %sav = memref.load %sa[] : memref<f32>
  %sbv = memref.load %sb[] : memref<f32>
  %sab = arith.mulf %sav, %sbv : f32
  %inverse = arith.divf %one, %sab : f32
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<72x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<72x32xf32>)
  linalg.generic {indexing_maps = [#tA, #tB, #tC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<72x80xf8E4M3FN>, memref<32x80xf8E5M2>) outs(%c : memref<72x32xf32>) {
  ^bb0(%p: f8E4M3FN, %q: f8E5M2, %acc: f32):
    %pf = arith.extf %p : f8E4M3FN to f32
    %qf = arith.extf %q : f8E5M2 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id2, #scalar, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %inverse : memref<72x32xf32>, f32) outs(%out : memref<72x32xf32>) {
  ^bb0(%v: f32, %i: f32, %o: f32):
    %d = arith.mulf %v, %i : f32
    linalg.yield %d : f32
  }
  memref.dealloc %c : memref<72x32xf32>
  return
}

// v[i][j] = ((i * s + j * t + u) mod n) - n / 2, divided by `div`.
func.func @fill(%m: memref<?x?xf32>, %s: index, %t: index, %u: index, %n: index, %div: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %half = arith.divui %n, %c2 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %is = arith.muli %i, %s : index
      %jt = arith.muli %j, %t : index
      %x = arith.addi %is, %jt : index
      %y = arith.addi %x, %u : index
      %r = arith.remui %y, %n : index
      %v = arith.subi %r, %half : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      %q = arith.divf %vf, %div : f32
      memref.store %q, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Quantization as lowp-select-fp8-formats emits it: round(x * s) in FP8.
func.func @quantize_e4m3(%x: memref<?x?xf32>, %s: f32, %q: memref<?x?xf8E4M3FN>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%q : memref<?x?xf8E4M3FN>) {
  ^bb0(%v: f32, %o: f8E4M3FN):
    %m = arith.mulf %v, %s : f32
    %t = arith.truncf %m : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  }
  return
}
func.func @quantize_e5m2(%x: memref<?x?xf32>, %s: f32, %q: memref<?x?xf8E5M2>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%q : memref<?x?xf8E5M2>) {
  ^bb0(%v: f32, %o: f8E5M2):
    %m = arith.mulf %v, %s : f32
    %t = arith.truncf %m : f32 to f8E5M2
    linalg.yield %t : f8E5M2
  }
  return
}

func.func @abs(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = math.absf %v : f32
    linalg.yield %a : f32
  }
  return
}

// max |x - y| and max (|x - y| - factor * magnitude).
func.func @compare(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %mag: memref<?x?xf32>, %factor: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %r:2 = scf.for %i = %c0 to %rows step %c1 iter_args(%m = %zero, %e = %lowest) -> (f32, f32) {
    %r2:2 = scf.for %j = %c0 to %cols step %c1 iter_args(%m2 = %m, %e2 = %e) -> (f32, f32) {
      %a = memref.load %x[%i, %j] : memref<?x?xf32>
      %b = memref.load %y[%i, %j] : memref<?x?xf32>
      %g = memref.load %mag[%i, %j] : memref<?x?xf32>
      %d = arith.subf %a, %b : f32
      %ad = math.absf %d : f32
      %n = arith.maximumf %m2, %ad : f32
      %bound = arith.mulf %g, %factor : f32
      %excess = arith.subf %ad, %bound : f32
      %ne = arith.maximumf %e2, %excess : f32
      scf.yield %n, %ne : f32, f32
    }
    scf.yield %r2#0, %r2#1 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// Runs @mm_fp8 on operands filled with values / `div` (scales sa, sb) and
// prints max |kernel - reference| and whether every element is within the
// bound.
func.func @check_mm(%div: f32, %sav: f32, %sbv: f32, %factor: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c23 = arith.constant 23 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %exact = arith.cmpf oeq, %div, %one : f32
  %n = arith.select %exact, %c11, %c23 : index
  %af = memref.alloc() : memref<136x80xf32>
  %bf = memref.alloc() : memref<80x48xf32>
  %biasm = memref.alloc() : memref<1x48xf32>
  %afd = memref.cast %af : memref<136x80xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<80x48xf32> to memref<?x?xf32>
  %biasd = memref.cast %biasm : memref<1x48xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c7, %c3, %c0, %n, %div) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  func.call @fill(%bfd, %c2, %c7, %c1, %n, %div) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  func.call @fill(%biasd, %c1, %c5, %c2, %c11, %one) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  %a = memref.alloc() : memref<136x80xf8E4M3FN>
  %b = memref.alloc() : memref<80x48xf8E5M2>
  %ad = memref.cast %a : memref<136x80xf8E4M3FN> to memref<?x?xf8E4M3FN>
  %bd = memref.cast %b : memref<80x48xf8E5M2> to memref<?x?xf8E5M2>
  func.call @quantize_e4m3(%afd, %sav, %ad) : (memref<?x?xf32>, f32, memref<?x?xf8E4M3FN>) -> ()
  func.call @quantize_e5m2(%bfd, %sbv, %bd) : (memref<?x?xf32>, f32, memref<?x?xf8E5M2>) -> ()
  %sa = memref.alloc() : memref<f32>
  %sb = memref.alloc() : memref<f32>
  memref.store %sav, %sa[] : memref<f32>
  memref.store %sbv, %sb[] : memref<f32>
  %bias = memref.collapse_shape %biasm [[0, 1]] : memref<1x48xf32> into memref<48xf32>
  %out = memref.alloc() : memref<136x48xf32>
  func.call @mm_fp8(%a, %b, %sa, %sb, %bias, %out)
      : (memref<136x80xf8E4M3FN>, memref<80x48xf8E5M2>, memref<f32>, memref<f32>, memref<48xf32>, memref<136x48xf32>) -> ()
  // The f32 reference on the unquantized operands, and the magnitude
  // sum_k |a||b| + |bias| the bound scales.
  %ref = memref.alloc() : memref<136x48xf32>
  %mag = memref.alloc() : memref<136x48xf32>
  %aa = memref.alloc() : memref<136x80xf32>
  %ba = memref.alloc() : memref<80x48xf32>
  %aad = memref.cast %aa : memref<136x80xf32> to memref<?x?xf32>
  %bad = memref.cast %ba : memref<80x48xf32> to memref<?x?xf32>
  func.call @abs(%afd, %aad) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @abs(%bfd, %bad) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%ref : memref<136x48xf32>)
  linalg.matmul ins(%af, %bf : memref<136x80xf32>, memref<80x48xf32>) outs(%ref : memref<136x48xf32>)
  linalg.fill ins(%zero : f32) outs(%mag : memref<136x48xf32>)
  linalg.matmul ins(%aa, %ba : memref<136x80xf32>, memref<80x48xf32>) outs(%mag : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<48xf32>) outs(%ref, %mag : memref<136x48xf32>, memref<136x48xf32>) {
  ^bb0(%bb: f32, %r: f32, %g: f32):
    %rb = arith.addf %r, %bb : f32
    %abb = math.absf %bb : f32
    %gb = arith.addf %g, %abb : f32
    linalg.yield %rb, %gb : f32, f32
  }
  %outd = memref.cast %out : memref<136x48xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<136x48xf32> to memref<?x?xf32>
  %magd = memref.cast %mag : memref<136x48xf32> to memref<?x?xf32>
  %d:2 = func.call @compare(%outd, %refd, %magd, %factor) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32) -> (f32, f32)
  vector.print str "mm_fp8 max |kernel - f32 reference| = "
  vector.print %d#0 : f32
  %within = arith.cmpf ole, %d#1, %zero : f32
  %wf = arith.uitofp %within : i1 to f32
  vector.print str "mm_fp8 within the bound: "
  vector.print %wf : f32
  memref.dealloc %af : memref<136x80xf32>
  memref.dealloc %bf : memref<80x48xf32>
  memref.dealloc %biasm : memref<1x48xf32>
  memref.dealloc %a : memref<136x80xf8E4M3FN>
  memref.dealloc %b : memref<80x48xf8E5M2>
  memref.dealloc %sa : memref<f32>
  memref.dealloc %sb : memref<f32>
  memref.dealloc %out : memref<136x48xf32>
  memref.dealloc %ref : memref<136x48xf32>
  memref.dealloc %mag : memref<136x48xf32>
  memref.dealloc %aa : memref<136x80xf32>
  memref.dealloc %ba : memref<80x48xf32>
  return
}

func.func @check_mm_e4m3(%div: f32, %sav: f32, %sbv: f32, %factor: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c23 = arith.constant 23 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %exact = arith.cmpf oeq, %div, %one : f32
  %n = arith.select %exact, %c11, %c23 : index
  %af = memref.alloc() : memref<136x80xf32>
  %bf = memref.alloc() : memref<80x48xf32>
  %biasm = memref.alloc() : memref<1x48xf32>
  %afd = memref.cast %af : memref<136x80xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<80x48xf32> to memref<?x?xf32>
  %biasd = memref.cast %biasm : memref<1x48xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c7, %c3, %c0, %n, %div) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  func.call @fill(%bfd, %c2, %c7, %c1, %n, %div) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  func.call @fill(%biasd, %c1, %c5, %c2, %c11, %one) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  %a = memref.alloc() : memref<136x80xf8E4M3FN>
  %b = memref.alloc() : memref<80x48xf8E4M3FN>
  %ad = memref.cast %a : memref<136x80xf8E4M3FN> to memref<?x?xf8E4M3FN>
  %bd = memref.cast %b : memref<80x48xf8E4M3FN> to memref<?x?xf8E4M3FN>
  func.call @quantize_e4m3(%afd, %sav, %ad) : (memref<?x?xf32>, f32, memref<?x?xf8E4M3FN>) -> ()
  func.call @quantize_e4m3(%bfd, %sbv, %bd) : (memref<?x?xf32>, f32, memref<?x?xf8E4M3FN>) -> ()
  %sa = memref.alloc() : memref<f32>
  %sb = memref.alloc() : memref<f32>
  memref.store %sav, %sa[] : memref<f32>
  memref.store %sbv, %sb[] : memref<f32>
  %bias = memref.collapse_shape %biasm [[0, 1]] : memref<1x48xf32> into memref<48xf32>
  %out = memref.alloc() : memref<136x48xf32>
  func.call @mm_fp8_e4m3(%a, %b, %sa, %sb, %bias, %out)
      : (memref<136x80xf8E4M3FN>, memref<80x48xf8E4M3FN>, memref<f32>, memref<f32>, memref<48xf32>, memref<136x48xf32>) -> ()
  // The f32 reference on the unquantized operands, and the magnitude
  // sum_k |a||b| + |bias| the bound scales.
  %ref = memref.alloc() : memref<136x48xf32>
  %mag = memref.alloc() : memref<136x48xf32>
  %aa = memref.alloc() : memref<136x80xf32>
  %ba = memref.alloc() : memref<80x48xf32>
  %aad = memref.cast %aa : memref<136x80xf32> to memref<?x?xf32>
  %bad = memref.cast %ba : memref<80x48xf32> to memref<?x?xf32>
  func.call @abs(%afd, %aad) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @abs(%bfd, %bad) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%ref : memref<136x48xf32>)
  linalg.matmul ins(%af, %bf : memref<136x80xf32>, memref<80x48xf32>) outs(%ref : memref<136x48xf32>)
  linalg.fill ins(%zero : f32) outs(%mag : memref<136x48xf32>)
  linalg.matmul ins(%aa, %ba : memref<136x80xf32>, memref<80x48xf32>) outs(%mag : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<48xf32>) outs(%ref, %mag : memref<136x48xf32>, memref<136x48xf32>) {
  ^bb0(%bb: f32, %r: f32, %g: f32):
    %rb = arith.addf %r, %bb : f32
    %abb = math.absf %bb : f32
    %gb = arith.addf %g, %abb : f32
    linalg.yield %rb, %gb : f32, f32
  }
  %outd = memref.cast %out : memref<136x48xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<136x48xf32> to memref<?x?xf32>
  %magd = memref.cast %mag : memref<136x48xf32> to memref<?x?xf32>
  %d:2 = func.call @compare(%outd, %refd, %magd, %factor) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32) -> (f32, f32)
  vector.print str "mm_fp8_e4m3 max |kernel - f32 reference| = "
  vector.print %d#0 : f32
  %within = arith.cmpf ole, %d#1, %zero : f32
  %wf = arith.uitofp %within : i1 to f32
  vector.print str "mm_fp8_e4m3 within the bound: "
  vector.print %wf : f32
  memref.dealloc %af : memref<136x80xf32>
  memref.dealloc %bf : memref<80x48xf32>
  memref.dealloc %biasm : memref<1x48xf32>
  memref.dealloc %a : memref<136x80xf8E4M3FN>
  memref.dealloc %b : memref<80x48xf8E4M3FN>
  memref.dealloc %sa : memref<f32>
  memref.dealloc %sb : memref<f32>
  memref.dealloc %out : memref<136x48xf32>
  memref.dealloc %ref : memref<136x48xf32>
  memref.dealloc %mag : memref<136x48xf32>
  memref.dealloc %aa : memref<136x80xf32>
  memref.dealloc %ba : memref<80x48xf32>
  return
}

// C += X W^T in f32 (the reference; f32 contractions are not the pass's).
func.func @matmul_bt(%x: memref<72x80xf32>, %w: memref<32x80xf32>, %c: memref<72x32xf32>) {
  linalg.generic {indexing_maps = [#tA, #tB, #tC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<72x80xf32>, memref<32x80xf32>) outs(%c : memref<72x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// The same for @linear_fp8 (no bias).
func.func @check_linear(%div: f32, %sav: f32, %sbv: f32, %factor: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c11 = arith.constant 11 : index
  %c23 = arith.constant 23 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %exact = arith.cmpf oeq, %div, %one : f32
  %n = arith.select %exact, %c11, %c23 : index
  %xf = memref.alloc() : memref<72x80xf32>
  %wf = memref.alloc() : memref<32x80xf32>
  %xfd = memref.cast %xf : memref<72x80xf32> to memref<?x?xf32>
  %wfd = memref.cast %wf : memref<32x80xf32> to memref<?x?xf32>
  func.call @fill(%xfd, %c5, %c1, %c3, %n, %div) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  func.call @fill(%wfd, %c3, %c5, %c0, %n, %div) : (memref<?x?xf32>, index, index, index, index, f32) -> ()
  %x = memref.alloc() : memref<72x80xf8E4M3FN>
  %w = memref.alloc() : memref<32x80xf8E5M2>
  %xd = memref.cast %x : memref<72x80xf8E4M3FN> to memref<?x?xf8E4M3FN>
  %wd = memref.cast %w : memref<32x80xf8E5M2> to memref<?x?xf8E5M2>
  func.call @quantize_e4m3(%xfd, %sav, %xd) : (memref<?x?xf32>, f32, memref<?x?xf8E4M3FN>) -> ()
  func.call @quantize_e5m2(%wfd, %sbv, %wd) : (memref<?x?xf32>, f32, memref<?x?xf8E5M2>) -> ()
  %sa = memref.alloc() : memref<f32>
  %sb = memref.alloc() : memref<f32>
  memref.store %sav, %sa[] : memref<f32>
  memref.store %sbv, %sb[] : memref<f32>
  %out = memref.alloc() : memref<72x32xf32>
  func.call @linear_fp8(%x, %w, %sa, %sb, %out)
      : (memref<72x80xf8E4M3FN>, memref<32x80xf8E5M2>, memref<f32>, memref<f32>, memref<72x32xf32>) -> ()
  %ref = memref.alloc() : memref<72x32xf32>
  %mag = memref.alloc() : memref<72x32xf32>
  %xa = memref.alloc() : memref<72x80xf32>
  %wa = memref.alloc() : memref<32x80xf32>
  %xad = memref.cast %xa : memref<72x80xf32> to memref<?x?xf32>
  %wad = memref.cast %wa : memref<32x80xf32> to memref<?x?xf32>
  func.call @abs(%xfd, %xad) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @abs(%wfd, %wad) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%ref : memref<72x32xf32>)
  func.call @matmul_bt(%xf, %wf, %ref) : (memref<72x80xf32>, memref<32x80xf32>, memref<72x32xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%mag : memref<72x32xf32>)
  func.call @matmul_bt(%xa, %wa, %mag) : (memref<72x80xf32>, memref<32x80xf32>, memref<72x32xf32>) -> ()
  %outd = memref.cast %out : memref<72x32xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<72x32xf32> to memref<?x?xf32>
  %magd = memref.cast %mag : memref<72x32xf32> to memref<?x?xf32>
  %d:2 = func.call @compare(%outd, %refd, %magd, %factor) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32) -> (f32, f32)
  vector.print str "linear_fp8 max |kernel - f32 reference| = "
  vector.print %d#0 : f32
  %within = arith.cmpf ole, %d#1, %zero : f32
  %wif = arith.uitofp %within : i1 to f32
  vector.print str "linear_fp8 within the bound: "
  vector.print %wif : f32
  memref.dealloc %xf : memref<72x80xf32>
  memref.dealloc %wf : memref<32x80xf32>
  memref.dealloc %x : memref<72x80xf8E4M3FN>
  memref.dealloc %w : memref<32x80xf8E5M2>
  memref.dealloc %sa : memref<f32>
  memref.dealloc %sb : memref<f32>
  memref.dealloc %out : memref<72x32xf32>
  memref.dealloc %ref : memref<72x32xf32>
  memref.dealloc %mag : memref<72x32xf32>
  memref.dealloc %xa : memref<72x80xf32>
  memref.dealloc %wa : memref<32x80xf32>
  return
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %seven = arith.constant 7.0 : f32
  // 1. Integers in [-5, 5], scales 2 and 4 (2a and 4b are exact in E4M3
  //    and E5M2, the dequantization divides by 8): exact, bound 0.
  // CHECK: mm_fp8 max |kernel - f32 reference| = 0
  // CHECK-NEXT: mm_fp8 within the bound: 1
  func.call @check_mm(%one, %two, %four, %zero) : (f32, f32, f32, f32) -> ()
  // CHECK: linear_fp8 max |kernel - f32 reference| = 0
  // CHECK-NEXT: linear_fp8 within the bound: 1
  func.call @check_linear(%one, %two, %four, %zero) : (f32, f32, f32, f32) -> ()
  // CHECK: mm_fp8_e4m3 max |kernel - f32 reference| = 0
  // CHECK-NEXT: mm_fp8_e4m3 within the bound: 1
  func.call @check_mm_e4m3(%one, %two, %four, %zero) : (f32, f32, f32, f32) -> ()
  // 2. Multiples of 1/7 in [-11/7, 11/7]: u_a + u_b + u_a u_b =
  //    2^-4 + 2^-3 + 2^-7 = 0.1953125, plus 4 (80 + 2) 2^-24 = 1.955e-5.
  %factor = arith.constant 0.19533205 : f32
  // CHECK: mm_fp8 max |kernel - f32 reference| = {{[1-9]|0\.[0-9]*[1-9]}}
  // CHECK-NEXT: mm_fp8 within the bound: 1
  func.call @check_mm(%seven, %two, %four, %factor) : (f32, f32, f32, f32) -> ()
  // CHECK: linear_fp8 max |kernel - f32 reference| = {{[1-9]|0\.[0-9]*[1-9]}}
  // CHECK-NEXT: linear_fp8 within the bound: 1
  func.call @check_linear(%seven, %two, %four, %factor) : (f32, f32, f32, f32) -> ()
  // E4M3 x E4M3: 2^-4 + 2^-4 + 2^-8 = 0.12890625, plus 1.955e-5.
  %factor44 = arith.constant 0.1289258 : f32
  // CHECK: mm_fp8_e4m3 max |kernel - f32 reference| = {{[1-9]|0\.[0-9]*[1-9]}}
  // CHECK-NEXT: mm_fp8_e4m3 within the bound: 1
  func.call @check_mm_e4m3(%seven, %two, %four, %factor44) : (f32, f32, f32, f32) -> ()
  return
}
