// Executes the tensor-core kernels of lowp-nvvm-lower-contractions on this
// CPU: with `emulate`, the pass emits the kernel it would launch (same
// tiles, shared-memory stages, per-thread copy assignment, ldmatrix row
// addresses, accumulator coordinates and guards) as loops over blocks,
// threads, warps and lanes, with cp.async, ldmatrix and mma.sync computed
// per lane from the PTX ISA's fragment layouts. Each result is compared
// with an f32 linalg.matmul on the widened operands (which the pass leaves
// alone: f32).
//
// The operands are small integers, so every product and partial sum is
// exact in f32 whatever the summation order: the tolerance is 0 and any
// indexing error (a swapped fragment half, a wrong lane, a missed tail)
// shows as a mismatch.
//
// Shapes leave tails everywhere: M = 200 and N = 136 are not multiples of
// the 128 x 128 block, K = 72 not of the 32-deep slice; a batched matmul
// broadcasts its weights (torch-mlir's form), a generic reads B as [n][k];
// sm_75 runs m16n8k8 with one synchronous stage. Case 5 fuses a bias, an
// in-place ReLU with a causal mask (linalg.index: the kernel's row and
// column) and the cast to bf16 into the kernel's epilogue.
//
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_80 emulate" \
// RUN: | FileCheck %s --check-prefix=IR
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_80 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// sm_90a runs the same cases on the wgmma kernels (two warpgroups per
// block, cp.async into three swizzled stages, operands read through matrix
// descriptors; see WgmmaContractions.cpp): the emulation reads every
// operand element through its descriptor as the PTX ISA decodes it and
// assigns every element of D to the thread and register of the ISA's
// accumulator layout, so a staging layout, descriptor or fragment mapping
// that disagrees with the ISA shows as a mismatch. One slice's wgmma group
// stays in flight while the next is issued (the table's in-flight 1): the
// emulation lands each slice's copies when they are issued and reads a
// slice's operands when its group is retired (one iteration later), so
// refilling a stage a pending group still reads gives a mismatch (copies
// run 2 slices ahead instead of 1: 303, 486, 213 ...). wgmma-stages=2 leaves
// no stage for the pending group: each slice waits for its wgmma (remark),
// with the same results.
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_90a emulate" \
// RUN: | FileCheck %s --check-prefix=WG
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_90a emulate wgmma-stages=2" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_90a emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-nvvm-lower-contractions="target=sm_75 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s --check-prefix=SM75

#id2 = affine_map<(i, j) -> (i, j)>
#bmA = affine_map<(b, m, n, k) -> (b, m, k)>
#bmB = affine_map<(b, m, n, k) -> (k, n)>
#bmC = affine_map<(b, m, n, k) -> (b, m, n)>
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>

// The kernels under test: the pass rewrites every one of them (no linalg
// op is left in these functions).
// IR-LABEL: func.func @mm_bf16
// IR-NOT: linalg.
// IR: memref.alloc() : memref<2x128x40xbf16>
// IR: memref.alloc() : memref<2x32x136xbf16>
// IR: return
// IR-LABEL: func.func @bmm_broadcast_bf16
// IR-NOT: linalg.
// IR: return
// IR-LABEL: func.func @mm_bt_f16
// IR-NOT: linalg.
// IR: memref.alloc() : memref<2x128x40xf16>
// IR: return
// IR-LABEL: func.func @mm_f16
// IR-NOT: linalg.
// IR: return
// The epilogue (bias, in-place masked ReLU, narrowing cast) is computed on the
// accumulators: no linalg op, no f32 temporary, and C starts at zero
// without the fill.
// IR-LABEL: func.func @mm_epilogue
// IR-NOT: linalg.
// IR-NOT: memref.alloc() : memref<72x24xf32>
// IR: arith.maximumf
// IR: arith.truncf {{.*}} : f32 to bf16
// IR: vector.store {{.*}} : memref<72x24xbf16>, vector<2xbf16>
// IR: return
// The wgmma kernels: three stages of 128 x 32 (A) and 32 x 128 (B) as flat
// swizzled tiles, no padding.
// WG-LABEL: func.func @mm_bf16
// WG-NOT: linalg.
// WG: memref.alloc() : memref<3x4096xbf16>
// WG: memref.alloc() : memref<3x4096xbf16>
// WG: return
// WG-LABEL: func.func @mm_bt_f16
// WG-NOT: linalg.
// WG: memref.alloc() : memref<3x4096xf16>
// WG: return
// WG-LABEL: func.func @mm_epilogue
// WG-NOT: linalg.
// WG: arith.maximumf
// WG: return
func.func @mm_bf16(%a: memref<200x72xbf16>, %b: memref<72x136xbf16>, %c: memref<200x136xf32>) {
  linalg.matmul ins(%a, %b : memref<200x72xbf16>, memref<72x136xbf16>)
                outs(%c : memref<200x136xf32>)
  return
}
func.func @bmm_broadcast_bf16(%a: memref<3x40x48xbf16>, %b: memref<48x24xbf16>, %c: memref<3x40x24xf32>) {
  linalg.generic {indexing_maps = [#bmA, #bmB, #bmC],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x40x48xbf16>, memref<48x24xbf16>) outs(%c : memref<3x40x24xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @mm_bt_f16(%a: memref<64x40xf16>, %b: memref<48x40xf16>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [#tA, #tB, #tC],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x40xf16>, memref<48x40xf16>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %yf, %xf : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}
func.func @mm_f16(%a: memref<130x40xf16>, %b: memref<40x16xf16>, %c: memref<130x16xf32>) {
  linalg.matmul ins(%a, %b : memref<130x40xf16>, memref<40x16xf16>)
                outs(%c : memref<130x16xf32>)
  return
}

#row = affine_map<(i, j) -> (j)>
func.func @mm_epilogue(%a: memref<72x40xbf16>, %b: memref<40x24xbf16>, %bias: memref<24xf32>,
                       %out: memref<72x24xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<72x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<72x24xf32>)
  linalg.matmul ins(%a, %b : memref<72x40xbf16>, memref<40x24xbf16>) outs(%c : memref<72x24xf32>)
  %t = memref.alloc() : memref<72x24xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<72x24xf32>, memref<24xf32>) outs(%t : memref<72x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<72x24xf32>) outs(%t : memref<72x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi ule, %j, %i : index
    %m = arith.select %keep, %r, %zero : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<72x24xf32>) outs(%out : memref<72x24xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %n = arith.truncf %x : f32 to bf16
    linalg.yield %n : bf16
  }
  memref.dealloc %c : memref<72x24xf32>
  memref.dealloc %t : memref<72x24xf32>
  return
}

// v[i][j] = ((i * s + j * t + u) mod 11) - 5: integers in [-5, 5].
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

// The largest |x - y| over two equally shaped buffers.
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

func.func @to_bf16(%src: memref<?x?xf32>, %dst: memref<?x?xbf16>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%src : memref<?x?xf32>) outs(%dst : memref<?x?xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}
func.func @to_f16(%src: memref<?x?xf32>, %dst: memref<?x?xf16>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%src : memref<?x?xf32>) outs(%dst : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

func.func @check(%name: index, %c: memref<?x?xf32>, %ref: memref<?x?xf32>) {
  %d = func.call @maxdiff(%c, %ref) : (memref<?x?xf32>, memref<?x?xf32>) -> f32
  vector.print str "case "
  vector.print %name : index
  vector.print str "max |kernel - f32 reference| = "
  vector.print %d : f32
  return
}

// C = init + A * B with A: MxK, B: KxN (or NxK with %bt), in the 16-bit
// type through @to_*; reference in f32 on the same (exact) values.
func.func @run_mm_bf16() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %af = memref.alloc() : memref<200x72xf32>
  %bf = memref.alloc() : memref<72x136xf32>
  %cf = memref.alloc() : memref<200x136xf32>
  %ref = memref.alloc() : memref<200x136xf32>
  %a = memref.alloc() : memref<200x72xbf16>
  %b = memref.alloc() : memref<72x136xbf16>
  %afd = memref.cast %af : memref<200x72xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<72x136xf32> to memref<?x?xf32>
  %cfd = memref.cast %cf : memref<200x136xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<200x136xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c7, %c3, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%bfd, %c2, %c7, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%cfd, %c1, %c2, %c3) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%refd, %c1, %c2, %c3) : (memref<?x?xf32>, index, index, index) -> ()
  %ad = memref.cast %a : memref<200x72xbf16> to memref<?x?xbf16>
  %bd = memref.cast %b : memref<72x136xbf16> to memref<?x?xbf16>
  func.call @to_bf16(%afd, %ad) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  func.call @to_bf16(%bfd, %bd) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  func.call @mm_bf16(%a, %b, %cf) : (memref<200x72xbf16>, memref<72x136xbf16>, memref<200x136xf32>) -> ()
  linalg.matmul ins(%af, %bf : memref<200x72xf32>, memref<72x136xf32>) outs(%ref : memref<200x136xf32>)
  func.call @check(%c1, %cfd, %refd) : (index, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %af : memref<200x72xf32>
  memref.dealloc %bf : memref<72x136xf32>
  memref.dealloc %cf : memref<200x136xf32>
  memref.dealloc %ref : memref<200x136xf32>
  memref.dealloc %a : memref<200x72xbf16>
  memref.dealloc %b : memref<72x136xbf16>
  return
}

func.func @run_bmm_broadcast_bf16() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  // The batch is flattened into rows for filling and for the reference:
  // [3][40][48] is [120][48] in memory.
  %af = memref.alloc() : memref<120x48xf32>
  %bf = memref.alloc() : memref<48x24xf32>
  %cf = memref.alloc() : memref<120x24xf32>
  %ref = memref.alloc() : memref<120x24xf32>
  %a = memref.alloc() : memref<120x48xbf16>
  %b = memref.alloc() : memref<48x24xbf16>
  %afd = memref.cast %af : memref<120x48xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<48x24xf32> to memref<?x?xf32>
  %cfd = memref.cast %cf : memref<120x24xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<120x24xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c5, %c3, %c2) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%bfd, %c3, %c7, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%cfd, %c2, %c1, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%refd, %c2, %c1, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  %ad = memref.cast %a : memref<120x48xbf16> to memref<?x?xbf16>
  %bd = memref.cast %b : memref<48x24xbf16> to memref<?x?xbf16>
  func.call @to_bf16(%afd, %ad) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  func.call @to_bf16(%bfd, %bd) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  %a3 = memref.expand_shape %a [[0, 1], [2]] output_shape [3, 40, 48] : memref<120x48xbf16> into memref<3x40x48xbf16>
  %c3d = memref.expand_shape %cf [[0, 1], [2]] output_shape [3, 40, 24] : memref<120x24xf32> into memref<3x40x24xf32>
  func.call @bmm_broadcast_bf16(%a3, %b, %c3d) : (memref<3x40x48xbf16>, memref<48x24xbf16>, memref<3x40x24xf32>) -> ()
  // Every batch multiplies the same B: one 120-row matmul.
  linalg.matmul ins(%af, %bf : memref<120x48xf32>, memref<48x24xf32>) outs(%ref : memref<120x24xf32>)
  func.call @check(%c2, %cfd, %refd) : (index, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %af : memref<120x48xf32>
  memref.dealloc %bf : memref<48x24xf32>
  memref.dealloc %cf : memref<120x24xf32>
  memref.dealloc %ref : memref<120x24xf32>
  memref.dealloc %a : memref<120x48xbf16>
  memref.dealloc %b : memref<48x24xbf16>
  return
}

func.func @run_mm_bt_f16() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %af = memref.alloc() : memref<64x40xf32>
  %btf = memref.alloc() : memref<48x40xf32>
  %cf = memref.alloc() : memref<64x48xf32>
  %ref = memref.alloc() : memref<64x48xf32>
  %a = memref.alloc() : memref<64x40xf16>
  %bt = memref.alloc() : memref<48x40xf16>
  %afd = memref.cast %af : memref<64x40xf32> to memref<?x?xf32>
  %btfd = memref.cast %btf : memref<48x40xf32> to memref<?x?xf32>
  %cfd = memref.cast %cf : memref<64x48xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<64x48xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c9, %c4, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%btfd, %c4, %c3, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%cfd, %c3, %c1, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%refd, %c3, %c1, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  %ad = memref.cast %a : memref<64x40xf16> to memref<?x?xf16>
  %btd = memref.cast %bt : memref<48x40xf16> to memref<?x?xf16>
  func.call @to_f16(%afd, %ad) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  func.call @to_f16(%btfd, %btd) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  func.call @mm_bt_f16(%a, %bt, %cf) : (memref<64x40xf16>, memref<48x40xf16>, memref<64x48xf32>) -> ()
  linalg.matmul indexing_maps = [#tA, #tB, #tC] ins(%af, %btf : memref<64x40xf32>, memref<48x40xf32>) outs(%ref : memref<64x48xf32>)
  func.call @check(%c3, %cfd, %refd) : (index, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %af : memref<64x40xf32>
  memref.dealloc %btf : memref<48x40xf32>
  memref.dealloc %cf : memref<64x48xf32>
  memref.dealloc %ref : memref<64x48xf32>
  memref.dealloc %a : memref<64x40xf16>
  memref.dealloc %bt : memref<48x40xf16>
  return
}

func.func @run_mm_f16() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %af = memref.alloc() : memref<130x40xf32>
  %bf = memref.alloc() : memref<40x16xf32>
  %cf = memref.alloc() : memref<130x16xf32>
  %ref = memref.alloc() : memref<130x16xf32>
  %a = memref.alloc() : memref<130x40xf16>
  %b = memref.alloc() : memref<40x16xf16>
  %afd = memref.cast %af : memref<130x40xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<40x16xf32> to memref<?x?xf32>
  %cfd = memref.cast %cf : memref<130x16xf32> to memref<?x?xf32>
  %refd = memref.cast %ref : memref<130x16xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c6, %c5, %c2) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%bfd, %c5, %c4, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%cfd, %c1, %c1, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%refd, %c1, %c1, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  %ad = memref.cast %a : memref<130x40xf16> to memref<?x?xf16>
  %bd = memref.cast %b : memref<40x16xf16> to memref<?x?xf16>
  func.call @to_f16(%afd, %ad) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  func.call @to_f16(%bfd, %bd) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
  func.call @mm_f16(%a, %b, %cf) : (memref<130x40xf16>, memref<40x16xf16>, memref<130x16xf32>) -> ()
  linalg.matmul ins(%af, %bf : memref<130x40xf32>, memref<40x16xf32>) outs(%ref : memref<130x16xf32>)
  func.call @check(%c4, %cfd, %refd) : (index, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %af : memref<130x40xf32>
  memref.dealloc %bf : memref<40x16xf32>
  memref.dealloc %cf : memref<130x16xf32>
  memref.dealloc %ref : memref<130x16xf32>
  memref.dealloc %a : memref<130x40xf16>
  memref.dealloc %b : memref<40x16xf16>
  return
}

func.func @to_f32(%src: memref<?x?xbf16>, %dst: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%src : memref<?x?xbf16>) outs(%dst : memref<?x?xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %t = arith.extf %x : bf16 to f32
    linalg.yield %t : f32
  }
  return
}

// The same epilogue on the f32 reference matmul (bias, masked ReLU, rounding to
// bf16: the same roundings of the same exact values).
func.func @run_mm_epilogue() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  %af = memref.alloc() : memref<72x40xf32>
  %bf = memref.alloc() : memref<40x24xf32>
  %biasf = memref.alloc() : memref<1x24xf32>
  %ref = memref.alloc() : memref<72x24xf32>
  %reff = memref.alloc() : memref<72x24xf32>
  %refb = memref.alloc() : memref<72x24xbf16>
  %a = memref.alloc() : memref<72x40xbf16>
  %b = memref.alloc() : memref<40x24xbf16>
  %out = memref.alloc() : memref<72x24xbf16>
  %outf = memref.alloc() : memref<72x24xf32>
  %afd = memref.cast %af : memref<72x40xf32> to memref<?x?xf32>
  %bfd = memref.cast %bf : memref<40x24xf32> to memref<?x?xf32>
  %biasd = memref.cast %biasf : memref<1x24xf32> to memref<?x?xf32>
  func.call @fill(%afd, %c7, %c5, %c1) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%bfd, %c3, %c2, %c0) : (memref<?x?xf32>, index, index, index) -> ()
  func.call @fill(%biasd, %c1, %c3, %c2) : (memref<?x?xf32>, index, index, index) -> ()
  %ad = memref.cast %a : memref<72x40xbf16> to memref<?x?xbf16>
  %bd = memref.cast %b : memref<40x24xbf16> to memref<?x?xbf16>
  func.call @to_bf16(%afd, %ad) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  func.call @to_bf16(%bfd, %bd) : (memref<?x?xf32>, memref<?x?xbf16>) -> ()
  %bias = memref.collapse_shape %biasf [[0, 1]] : memref<1x24xf32> into memref<24xf32>
  func.call @mm_epilogue(%a, %b, %bias, %out) : (memref<72x40xbf16>, memref<40x24xbf16>, memref<24xf32>, memref<72x24xbf16>) -> ()
  linalg.fill ins(%zero : f32) outs(%ref : memref<72x24xf32>)
  linalg.matmul ins(%af, %bf : memref<72x40xf32>, memref<40x24xf32>) outs(%ref : memref<72x24xf32>)
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ref, %bias : memref<72x24xf32>, memref<24xf32>) outs(%refb : memref<72x24xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi ule, %j, %i : index
    %m = arith.select %keep, %r, %zero : f32
    %n = arith.truncf %m : f32 to bf16
    linalg.yield %n : bf16
  }
  %outd = memref.cast %out : memref<72x24xbf16> to memref<?x?xbf16>
  %outfd = memref.cast %outf : memref<72x24xf32> to memref<?x?xf32>
  %refbd = memref.cast %refb : memref<72x24xbf16> to memref<?x?xbf16>
  %reffd = memref.cast %reff : memref<72x24xf32> to memref<?x?xf32>
  func.call @to_f32(%outd, %outfd) : (memref<?x?xbf16>, memref<?x?xf32>) -> ()
  func.call @to_f32(%refbd, %reffd) : (memref<?x?xbf16>, memref<?x?xf32>) -> ()
  func.call @check(%c5, %outfd, %reffd) : (index, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %af : memref<72x40xf32>
  memref.dealloc %bf : memref<40x24xf32>
  memref.dealloc %biasf : memref<1x24xf32>
  memref.dealloc %ref : memref<72x24xf32>
  memref.dealloc %reff : memref<72x24xf32>
  memref.dealloc %refb : memref<72x24xbf16>
  memref.dealloc %a : memref<72x40xbf16>
  memref.dealloc %b : memref<40x24xbf16>
  memref.dealloc %out : memref<72x24xbf16>
  memref.dealloc %outf : memref<72x24xf32>
  return
}

// sm_80 runs all five; on sm_75 the bf16 ones stay linalg (no bf16 tensor
// cores: a remark, and the plain loops compute them), the f16 ones run
// m16n8k8 with one stage.
// CHECK: case 1
// CHECK-NEXT: max |kernel - f32 reference| = 0
// CHECK-NEXT: case 2
// CHECK-NEXT: max |kernel - f32 reference| = 0
// CHECK-NEXT: case 3
// CHECK-NEXT: max |kernel - f32 reference| = 0
// CHECK-NEXT: case 4
// CHECK-NEXT: max |kernel - f32 reference| = 0
// CHECK-NEXT: case 5
// CHECK-NEXT: max |kernel - f32 reference| = 0
// SM75: case 1
// SM75-NEXT: max |kernel - f32 reference| = 0
// SM75-NEXT: case 2
// SM75-NEXT: max |kernel - f32 reference| = 0
// SM75-NEXT: case 3
// SM75-NEXT: max |kernel - f32 reference| = 0
// SM75-NEXT: case 4
// SM75-NEXT: max |kernel - f32 reference| = 0
// SM75-NEXT: case 5
// SM75-NEXT: max |kernel - f32 reference| = 0
func.func @main() {
  func.call @run_mm_bf16() : () -> ()
  func.call @run_bmm_broadcast_bf16() : () -> ()
  func.call @run_mm_bt_f16() : () -> ()
  func.call @run_mm_f16() : () -> ()
  func.call @run_mm_epilogue() : () -> ()
  return
}
