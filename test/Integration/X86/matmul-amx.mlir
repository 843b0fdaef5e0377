// The x86 GEMM kernel with amx=true, executed on AMX-BF16 hosts: its full
// 32 x 32 blocks of C run on 2 x 2 tiles (tdpbf16ps), everything around
// them on vdpbf16ps. The shapes leave both: M = 70 (two tile blocks and a
// 6-row rest), N = 80 (two panels of 32 columns, a 16-column rest), K =
// 1088 (a k block of 512 pairs, partial sums stored to C by tiles, then a
// block of 32 pairs that loads them back). Cases:
//  * nn.Linear as torch-mlir writes it: f32 weight rounded to bf16 while
//    each k block of a panel is packed, transposed; zero fill (tilezero);
//    bias + ReLU + the narrowing cast fused (through the tile scratch block);
//  * batch_matmul whose B is shared by the 3 batches (packed once, read by
//    tiles with the panel's row stride), a fill of 0.5 (loaded into tiles),
//    no consumer (tiles stored into C);
//  * K = 88, not whole tiles (a MobileNet's 24 or 144 channels): one k block
//    of two whole tiles and a last one of copies padded with zeros. Its A
//    (70 x 88) ends where its last row does: the copy must not read past.
// Inputs are multiples of 1/8 below 11/8 (exact in bf16), so every product
// and sum is exact in f32 and the results must equal, bit for bit, the
// same contractions on the loop path (a linalg.generic the kernel pass
// leaves alone) on the same rounded inputs. A control compares with a
// reference missing the bias and must print 0.
//
// RUN: fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" -o %t.amx.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.amx.mlir
// RUN: %if x86-amx %{ mlir-runner %t.amx.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils | FileCheck %s %}
// Two OpenMP threads sharing the panels (each configures its own tiles).
// RUN: %if x86-amx %{ fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true threads=2" \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%libomp | FileCheck %s %}
// Without amx=true, the same program on vdpbf16ps (AVX512_BF16 hosts).
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN:   | FileCheck %s %}
//
// The tile permission is asked for once per process, before the tiles.
// IR: llvm.mlir.global private @__lowp_amx_requested(0 : i32)
// IR-LABEL: llvm.func @linear(
// IR: llvm.call @arch_prctl
// IR: llvm.call_intrinsic "llvm.x86.tilezero.internal"
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// IR: llvm.call_intrinsic "llvm.x86.tilestored64.internal"
// The rows and columns the tiles leave: vdpbf16ps.
// IR: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-LABEL: llvm.func @shared_b(
// IR: llvm.call @arch_prctl
// IR: llvm.call_intrinsic "llvm.x86.tileloadd64.internal"
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// IR-LABEL: llvm.func @k_tail(
// IR: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// IR-LABEL: llvm.func @main(
// IR-NOT: arch_prctl
// IR: llvm.return

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#mA = affine_map<(i, j, k) -> (i, k)>
#mBt = affine_map<(i, j, k) -> (j, k)>
#mB = affine_map<(i, j, k) -> (k, j)>
#mC = affine_map<(i, j, k) -> (i, j)>
#bA = affine_map<(b, i, j, k) -> (b, i, k)>
#bShared = affine_map<(b, i, j, k) -> (k, j)>
#bC = affine_map<(b, i, j, k) -> (b, i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>

// (7i + 13j + seed) mod 23 - 11, over 8: exact in bf16.
func.func @input(%seed: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c23 = arith.constant 23 : index
    %c11 = arith.constant 11 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c13 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %m2 = arith.remui %s2, %c23 : index
    %d = arith.subi %m2, %c11 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %eighth = arith.constant 0.125 : f32
    %v = arith.mulf %f, %eighth : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// 1 when x == ref everywhere.
func.func @equal(%x: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %true = arith.constant true
  %ok = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %true) -> (i1) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%a2 = %acc) -> (i1) {
      %v = tensor.extract %x[%i, %j] : tensor<?x?xf32>
      %r = tensor.extract %ref[%i, %j] : tensor<?x?xf32>
      %same = arith.cmpf oeq, %v, %r : f32
      %both = arith.andi %a2, %same : i1
      scf.yield %both : i1
    }
    scf.yield %row : i1
  }
  return %ok : i1
}

func.func @linear(%a: tensor<70x1088xf32>, %w: tensor<80x1088xf32>, %bias: tensor<80xf32>) -> tensor<70x80xbf16> {
  %zero = arith.constant 0.0 : f32
  %ab = lowp.cast %a : tensor<70x1088xf32> to tensor<70x1088xbf16>
  %wb = lowp.cast %w : tensor<80x1088xf32> to tensor<80x1088xbf16>
  %et = tensor.empty() : tensor<1088x80xbf16>
  %wt = linalg.transpose ins(%wb : tensor<80x1088xbf16>) outs(%et : tensor<1088x80xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<70x80xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<70x80xf32>) -> tensor<70x80xf32>
  %mm = linalg.matmul ins(%ab, %wt : tensor<70x1088xbf16>, tensor<1088x80xbf16>) outs(%c : tensor<70x80xf32>) -> tensor<70x80xf32>
  %eb = tensor.empty() : tensor<70x80xbf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<70x80xf32>, tensor<80xf32>) outs(%eb : tensor<70x80xbf16>) {
  ^bb0(%x: f32, %b: f32, %o: bf16):
    %y = arith.addf %x, %b : f32
    %p = arith.cmpf ugt, %y, %zero : f32
    %s = arith.select %p, %y, %zero : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<70x80xbf16>
  return %r : tensor<70x80xbf16>
}

func.func @linear_reference(%a: tensor<70x1088xf32>, %w: tensor<80x1088xf32>, %bias: tensor<80xf32>) -> tensor<70x80xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70x80xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<70x80xf32>) -> tensor<70x80xf32>
  %mm = linalg.generic {indexing_maps = [#mA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<70x1088xf32>, tensor<80x1088xf32>) outs(%c : tensor<70x80xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<70x80xf32>
  %eb = tensor.empty() : tensor<70x80xbf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<70x80xf32>, tensor<80xf32>) outs(%eb : tensor<70x80xbf16>) {
  ^bb0(%x: f32, %b: f32, %o: bf16):
    %y = arith.addf %x, %b : f32
    %p = arith.cmpf ugt, %y, %zero : f32
    %s = arith.select %p, %y, %zero : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<70x80xbf16>
  return %r : tensor<70x80xbf16>
}

func.func @shared_b(%q: tensor<3x70x1088xf32>, %k: tensor<1088x80xf32>) -> tensor<3x70x80xf32> {
  %half = arith.constant 0.5 : f32
  %qb = lowp.cast %q : tensor<3x70x1088xf32> to tensor<3x70x1088xbf16>
  %kb = lowp.cast %k : tensor<1088x80xf32> to tensor<1088x80xbf16>
  %e = tensor.empty() : tensor<3x70x80xf32>
  %c = linalg.fill ins(%half : f32) outs(%e : tensor<3x70x80xf32>) -> tensor<3x70x80xf32>
  %mm = linalg.batch_matmul indexing_maps = [#bA, #bShared, #bC]
      ins(%qb, %kb : tensor<3x70x1088xbf16>, tensor<1088x80xbf16>) outs(%c : tensor<3x70x80xf32>) -> tensor<3x70x80xf32>
  return %mm : tensor<3x70x80xf32>
}

func.func @shared_b_reference(%q: tensor<3x70x1088xf32>, %k: tensor<1088x80xf32>) -> tensor<3x70x80xf32> {
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<3x70x80xf32>
  %c = linalg.fill ins(%half : f32) outs(%e : tensor<3x70x80xf32>) -> tensor<3x70x80xf32>
  %mm = linalg.generic {indexing_maps = [#bA, #bShared, #bC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<3x70x1088xf32>, tensor<1088x80xf32>) outs(%c : tensor<3x70x80xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x70x80xf32>
  return %mm : tensor<3x70x80xf32>
}

func.func @k_tail(%a: tensor<70x88xf32>, %b: tensor<88x32xf32>) -> tensor<70x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ab = lowp.cast %a : tensor<70x88xf32> to tensor<70x88xbf16>
  %bb = lowp.cast %b : tensor<88x32xf32> to tensor<88x32xbf16>
  %e = tensor.empty() : tensor<70x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<70x32xf32>) -> tensor<70x32xf32>
  %mm = linalg.matmul ins(%ab, %bb : tensor<70x88xbf16>, tensor<88x32xbf16>) outs(%c : tensor<70x32xf32>) -> tensor<70x32xf32>
  return %mm : tensor<70x32xf32>
}

func.func @k_tail_reference(%a: tensor<70x88xf32>, %b: tensor<88x32xf32>) -> tensor<70x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<70x32xf32>) -> tensor<70x32xf32>
  %mm = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<70x88xf32>, tensor<88x32xf32>) outs(%c : tensor<70x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<70x32xf32>
  return %mm : tensor<70x32xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c70 = arith.constant 70 : index
  %c80 = arith.constant 80 : index
  %c210 = arith.constant 210 : index
  %c1088 = arith.constant 1088 : index
  %a_d = call @input(%c0, %c70, %c1088) : (index, index, index) -> tensor<?x?xf32>
  %w_d = call @input(%c1, %c80, %c1088) : (index, index, index) -> tensor<?x?xf32>
  %bias_d = call @input(%c2, %c1, %c80) : (index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<70x1088xf32>
  %w = tensor.cast %w_d : tensor<?x?xf32> to tensor<80x1088xf32>
  %bias2 = tensor.cast %bias_d : tensor<?x?xf32> to tensor<1x80xf32>
  %bias = tensor.collapse_shape %bias2 [[0, 1]] : tensor<1x80xf32> into tensor<80xf32>
  %y = call @linear(%a, %w, %bias) : (tensor<70x1088xf32>, tensor<80x1088xf32>, tensor<80xf32>) -> tensor<70x80xbf16>
  %yref = call @linear_reference(%a, %w, %bias) : (tensor<70x1088xf32>, tensor<80x1088xf32>, tensor<80xf32>) -> tensor<70x80xbf16>
  %y32 = lowp.cast %y : tensor<70x80xbf16> to tensor<70x80xf32>
  %yref32 = lowp.cast %yref : tensor<70x80xbf16> to tensor<70x80xf32>
  %y_d = tensor.cast %y32 : tensor<70x80xf32> to tensor<?x?xf32>
  %yref_d = tensor.cast %yref32 : tensor<70x80xf32> to tensor<?x?xf32>
  %ok1 = call @equal(%y_d, %yref_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK: 1
  vector.print %ok1 : i1
  // Control: the reference without the bias differs.
  %zeros = arith.constant dense<0.0> : tensor<80xf32>
  %nob = call @linear_reference(%a, %w, %zeros) : (tensor<70x1088xf32>, tensor<80x1088xf32>, tensor<80xf32>) -> tensor<70x80xbf16>
  %nob32 = lowp.cast %nob : tensor<70x80xbf16> to tensor<70x80xf32>
  %nob_d = tensor.cast %nob32 : tensor<70x80xf32> to tensor<?x?xf32>
  %bad = call @equal(%y_d, %nob_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 0
  vector.print %bad : i1

  %q_d = call @input(%c3, %c210, %c1088) : (index, index, index) -> tensor<?x?xf32>
  %k_d = call @input(%c2, %c1088, %c80) : (index, index, index) -> tensor<?x?xf32>
  %q2 = tensor.cast %q_d : tensor<?x?xf32> to tensor<210x1088xf32>
  %q = tensor.expand_shape %q2 [[0, 1], [2]] output_shape [3, 70, 1088] : tensor<210x1088xf32> into tensor<3x70x1088xf32>
  %k = tensor.cast %k_d : tensor<?x?xf32> to tensor<1088x80xf32>
  %s = call @shared_b(%q, %k) : (tensor<3x70x1088xf32>, tensor<1088x80xf32>) -> tensor<3x70x80xf32>
  %sref = call @shared_b_reference(%q, %k) : (tensor<3x70x1088xf32>, tensor<1088x80xf32>) -> tensor<3x70x80xf32>
  %s2 = tensor.collapse_shape %s [[0, 1], [2]] : tensor<3x70x80xf32> into tensor<210x80xf32>
  %sref2 = tensor.collapse_shape %sref [[0, 1], [2]] : tensor<3x70x80xf32> into tensor<210x80xf32>
  %s_d = tensor.cast %s2 : tensor<210x80xf32> to tensor<?x?xf32>
  %sref_d = tensor.cast %sref2 : tensor<210x80xf32> to tensor<?x?xf32>
  %ok2 = call @equal(%s_d, %sref_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 1
  vector.print %ok2 : i1

  %c32 = arith.constant 32 : index
  %c88 = arith.constant 88 : index
  %ta_d = call @input(%c1, %c70, %c88) : (index, index, index) -> tensor<?x?xf32>
  %tb_d = call @input(%c3, %c88, %c32) : (index, index, index) -> tensor<?x?xf32>
  %ta = tensor.cast %ta_d : tensor<?x?xf32> to tensor<70x88xf32>
  %tb = tensor.cast %tb_d : tensor<?x?xf32> to tensor<88x32xf32>
  %t = call @k_tail(%ta, %tb) : (tensor<70x88xf32>, tensor<88x32xf32>) -> tensor<70x32xf32>
  %tref = call @k_tail_reference(%ta, %tb) : (tensor<70x88xf32>, tensor<88x32xf32>) -> tensor<70x32xf32>
  %t_d = tensor.cast %t : tensor<70x32xf32> to tensor<?x?xf32>
  %tref_d = tensor.cast %tref : tensor<70x32xf32> to tensor<?x?xf32>
  %ok3 = call @equal(%t_d, %tref_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  // CHECK-NEXT: 1
  vector.print %ok3 : i1
  return
}
