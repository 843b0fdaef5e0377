// Executes the MFMA kernels of lowp-rocdl-lower-contractions on this CPU:
// with `emulate`, the pass emits the kernel it would launch (the shared GPU
// tiling: workgroup tiles, LDS stages, per-thread chunk copies, wave tiles,
// guards, fused epilogue) as loops over workgroups, threads, waves and 64
// lanes, each lane's fragments loaded from the staged tiles as on the GPU
// and each MFMA computed from the CDNA operand and accumulator layouts.
//
// First, the workloads of tensor-core-emulated.mlir (bf16 with tails in M,
// N and K, a batched matmul with broadcast weights, an f16 x @ W^T, an f16
// matmul, a fused bias + ReLU + bf16 epilogue) on every AMD chip's
// instruction: 32x32x8 (gfx90a), 32x32x8 f16 and 32x32x4 bf16 (gfx908),
// 16x16x16 (gfx942), 16x16x32 (gfx950). Integer-valued operands make every
// product and sum exact in f32: the tolerance is 0.
// RUN: fp-opt %S/tensor-core-emulated.mlir -lowp-rocdl-lower-contractions="target=gfx908 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %S/tensor-core-emulated.mlir
// RUN: fp-opt %S/tensor-core-emulated.mlir -lowp-rocdl-lower-contractions="target=gfx90a emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %S/tensor-core-emulated.mlir
// RUN: fp-opt %S/tensor-core-emulated.mlir -lowp-rocdl-lower-contractions="target=gfx942 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %S/tensor-core-emulated.mlir
// RUN: fp-opt %S/tensor-core-emulated.mlir -lowp-rocdl-lower-contractions="target=gfx950 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %S/tensor-core-emulated.mlir
//
// Then FP8 (16x16x32, slices 64 deep) with an E4M3 x E5M2 mix and the
// dequantization fused into the epilogue: FNUZ on gfx942, and the same
// program with OCP types on gfx950. lowp-expand-float-conversions turns
// the FP8 conversions (the test's quantization, the emulated MFMA's
// widening) into exact integer code for this CPU.
// RUN: fp-opt %s -lowp-rocdl-lower-contractions="target=gfx942 emulate" \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: sed -e 's/f8E4M3FNUZ/f8E4M3FN/g' -e 's/f8E5M2FNUZ/f8E5M2/g' %s \
// RUN: | fp-opt -lowp-rocdl-lower-contractions="target=gfx950 emulate" \
// RUN:   -convert-linalg-to-loops -lowp-expand-float-conversions -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

#id2 = affine_map<(i, j) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>

// The kernel under test: C = (A * B) / (sa * sb), M = 136 and K = 80 not
// multiples of the 128 x 128 x 64 tile.
func.func @mm_fp8(%a: memref<136x80xf8E4M3FNUZ>, %b: memref<80x48xf8E5M2FNUZ>,
                  %sa: memref<f32>, %sb: memref<f32>, %out: memref<136x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<136x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<136x48xf32>)
  linalg.matmul ins(%a, %b : memref<136x80xf8E4M3FNUZ>, memref<80x48xf8E5M2FNUZ>) outs(%c : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#id2, #scalar, #scalar, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sa, %sb : memref<136x48xf32>, memref<f32>, memref<f32>) outs(%out : memref<136x48xf32>) {
  ^bb0(%x: f32, %p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %x, %s : f32
    linalg.yield %d : f32
  }
  memref.dealloc %c : memref<136x48xf32>
  return
}

// v[i][j] = ((i * s + j * t + u) mod 11) - 5: integers in [-5, 5], exact
// in every FP8 format.
func.func @fill(%m: memref<?x?xf32>, %s: index, %t: index, %u: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %is = arith.muli %i, %s : index
      %jt = arith.muli %j, %t : index
      %x = arith.addi %is, %jt : index
      %y = arith.addi %x, %u : index
      %r = arith.remui %y, %c11 : index
      %v = arith.subi %r, %c5 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @maxdiff(%x: memref<?x?xf32>, %y: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %r = scf.for %i = %c0 to %rows step %c1 iter_args(%m = %zero) -> f32 {
    %r2 = scf.for %j = %c0 to %cols step %c1 iter_args(%m2 = %m) -> f32 {
      %a = memref.load %x[%i, %j] : memref<?x?xf32>
      %b = memref.load %y[%i, %j] : memref<?x?xf32>
      %d = arith.subf %a, %b : f32
      %ad = math.absf %d : f32
      %n = arith.maximumf %m2, %ad : f32
      scf.yield %n : f32
    }
    scf.yield %r2 : f32
  }
  return %r : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %af = memref.alloc() : memref<136x80xf32>
  %bf = memref.alloc() : memref<80x48xf32>
  %ref = memref.alloc() : memref<136x48xf32>
  %out = memref.alloc() : memref<136x48xf32>
  %a = memref.alloc() : memref<136x80xf8E4M3FNUZ>
  %b = memref.alloc() : memref<80x48xf8E5M2FNUZ>
  %sa = memref.alloc() : memref<f32>
  %sb = memref.alloc() : memref<f32>
  memref.store %two, %sa[] : memref<f32>
  memref.store %four, %sb[] : memref<f32>
  %afd = memref.cast %af : memref<136x80xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<80x48xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c7, %c3, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%bfd, %c2, %c7, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%af : memref<136x80xf32>) outs(%a : memref<136x80xf8E4M3FNUZ>) {
  ^bb0(%x: f32, %o: f8E4M3FNUZ):
    %t = arith.truncf %x : f32 to f8E4M3FNUZ
    linalg.yield %t : f8E4M3FNUZ
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bf : memref<80x48xf32>) outs(%b : memref<80x48xf8E5M2FNUZ>) {
  ^bb0(%x: f32, %o: f8E5M2FNUZ):
    %t = arith.truncf %x : f32 to f8E5M2FNUZ
    linalg.yield %t : f8E5M2FNUZ
  }
  func.call @mm_fp8(%a, %b, %sa, %sb, %out)
      : (memref<136x80xf8E4M3FNUZ>, memref<80x48xf8E5M2FNUZ>, memref<f32>, memref<f32>, memref<136x48xf32>) -> ()
  // The f32 reference: the same exact values, the same division by 8.
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant 8.0 : f32
  linalg.fill ins(%zero : f32) outs(%ref : memref<136x48xf32>)
  linalg.matmul ins(%af, %bf : memref<136x80xf32>, memref<80x48xf32>) outs(%ref : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%ref : memref<136x48xf32>) {
  ^bb0(%x: f32):
    %d = arith.divf %x, %eight : f32
    linalg.yield %d : f32
  }
  %outd = memref.cast %out : memref<136x48xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<136x48xf32> to memref<?x?xf32>
  %d = func.call @maxdiff(%outd, %refd) : (memref<?x?xf32>, memref<?x?xf32>) -> f32
  // CHECK: fp8 max |kernel - f32 reference| = 0
  vector.print str "fp8 max |kernel - f32 reference| = "
  vector.print %d : f32
  // A nonzero result: the comparison is not vacuous.
  // CHECK-NEXT: {{^}}1{{$}}
  %c5 = arith.constant 5 : index
  %v = memref.load %out[%c5, %c3] : memref<136x48xf32>
  %av = math.absf %v : f32
  %ok = arith.cmpf ogt, %av, %zero : f32
  %okf = arith.uitofp %ok : i1 to f32
  vector.print %okf : f32
  memref.dealloc %af : memref<136x80xf32>
  memref.dealloc %bf : memref<80x48xf32>
  memref.dealloc %ref : memref<136x48xf32>
  memref.dealloc %out : memref<136x48xf32>
  memref.dealloc %a : memref<136x80xf8E4M3FNUZ>
  memref.dealloc %b : memref<80x48xf8E5M2FNUZ>
  memref.dealloc %sa : memref<f32>
  memref.dealloc %sb : memref<f32>
  return
}
