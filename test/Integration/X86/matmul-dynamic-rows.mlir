// Matmuls with a dynamic M (a torch.export / ONNX dynamic batch flattened
// into a linear layer's rows: tensor<?xK>) through lowp-pipeline-x86: B
// packed once, static blocks of 2 mr rows (2 AMX tile blocks with
// amx=true) read in place from A, then the rest as kernels of 2^j rows.
// M = 1, 5, 13, 37, 70 and 200 cover no block, a few blocks and every bit
// of the rest. Cases: f32 (B row-major), bf16 with the weight transposed
// (nn.Linear's [out][in], read through register transposes); and a
// batch_matmul with a dynamic batch (3 batches). Each is
// compared with the same product as a linalg.generic (the loop path) on the
// same bf16-exact inputs (multiples of 1/16: the sums are exact, so
// |x - ref| <= 1e-5 |ref| + 1e-4 only fails on a wrong result); the last
// check is a negative control (a reference on B shifted by one column).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: %if x86-amx %{ fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// The kernels take every matmul (only the references are loops):
// RUN: fp-opt %s -lowp-pipeline-x86=target=sapphirerapids -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=REMARK
// REMARK-NOT: generic loop path for 'linalg.matmul'
// REMARK-NOT: generic loop path for 'linalg.batch_matmul'

// CHECK-COUNT-13: 1
// CHECK-NEXT: 0

#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>

// ((5 i + 11 j + seed) mod 29 - 14) / 16: exact in bf16.
func.func @rand2(%seed: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i, %c5 : index
    %b = arith.muli %j, %c11 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %m2 = arith.remui %s2, %c29 : index
    %mi = arith.index_cast %m2 : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %sixteen = arith.constant 16.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %sixteen : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// 1 when every |got - ref| <= 1e-5 |ref| + 1e-4.
func.func @close(%got: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i1 {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %rel = arith.constant 1.0e-5 : f32
  %abs = arith.constant 1.0e-4 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #all2], iterator_types = ["reduction", "reduction"]}
      ins(%got, %ref : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %rv: f32, %m: f32):
    %d = arith.subf %v, %rv : f32
    %ad = math.absf %d : f32
    %ar = math.absf %rv : f32
    %t = arith.mulf %ar, %rel : f32
    %tol = arith.addf %t, %abs : f32
    %ex = arith.subf %ad, %tol : f32
    %n = arith.maximumf %m, %ex : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %w = tensor.extract %worst[] : tensor<f32>
  %ok = arith.cmpf ole, %w, %zero : f32
  return %ok : i1
}

func.func @mm_f32(%a: tensor<?x40xf32>, %b: tensor<40x24xf32>) -> tensor<?x24xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x40xf32>
  %e = tensor.empty(%m) : tensor<?x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x24xf32>) -> tensor<?x24xf32>
  %y = linalg.matmul ins(%a, %b : tensor<?x40xf32>, tensor<40x24xf32>) outs(%o : tensor<?x24xf32>) -> tensor<?x24xf32>
  return %y : tensor<?x24xf32>
}

// nn.Linear: y = x W^T, W [out = 40][in = 64].
func.func @linear_bf16(%a: tensor<?x64xbf16>, %w: tensor<40x64xbf16>) -> tensor<?x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xbf16>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<?x64xbf16>, tensor<40x64xbf16>) outs(%o : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %y : tensor<?x40xf32>
}

// The references: C[m][n] = sum_k A[m][k] B(k, n), B read as [k][n] or,
// with %transposed, [n][k].
func.func @ref(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %n: index) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%o : tensor<?x?xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %s = math.fma %x, %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @ref_t(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %n: index) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%o : tensor<?x?xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %s = math.fma %x, %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// batch_matmul with a dynamic batch (ONNX's MatMul on [?, 8, 40]): the
// batches a run-time loop over static 8 x 24 x 40 GEMMs.
func.func @bmm_f32(%a: tensor<?x8x40xf32>, %b: tensor<?x40x24xf32>) -> tensor<?x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x8x40xf32>
  %e = tensor.empty(%n) : tensor<?x8x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x24xf32>) -> tensor<?x8x24xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x8x40xf32>, tensor<?x40x24xf32>) outs(%o : tensor<?x8x24xf32>) -> tensor<?x8x24xf32>
  return %y : tensor<?x8x24xf32>
}

func.func @ref_bmm(%a: tensor<?x8x40xf32>, %b: tensor<?x40x24xf32>) -> tensor<?x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x8x40xf32>
  %e = tensor.empty(%n) : tensor<?x8x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x24xf32>) -> tensor<?x8x24xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x8x40xf32>, tensor<?x40x24xf32>) outs(%o : tensor<?x8x24xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %s = math.fma %x, %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x8x24xf32>
  return %y : tensor<?x8x24xf32>
}

// Both cases for M rows; prints 1 for each that matches.
func.func @run(%m: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %a = call @rand2(%m, %m, %c40) : (index, index, index) -> tensor<?x?xf32>
  %b = call @rand2(%c1, %c40, %c24) : (index, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<?x40xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<40x24xf32>
  %y = call @mm_f32(%as, %bs) : (tensor<?x40xf32>, tensor<40x24xf32>) -> tensor<?x24xf32>
  %r = call @ref(%a, %b, %c24) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %yd = tensor.cast %y : tensor<?x24xf32> to tensor<?x?xf32>
  %ok = call @close(%yd, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok : i1

  %x = call @rand2(%c2, %m, %c64) : (index, index, index) -> tensor<?x?xf32>
  %w = call @rand2(%m, %c40, %c64) : (index, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<?x64xf32>
  %ws = tensor.cast %w : tensor<?x?xf32> to tensor<40x64xf32>
  %xb = lowp.cast %xs : tensor<?x64xf32> to tensor<?x64xbf16>
  %wb = lowp.cast %ws : tensor<40x64xf32> to tensor<40x64xbf16>
  %y2 = call @linear_bf16(%xb, %wb) : (tensor<?x64xbf16>, tensor<40x64xbf16>) -> tensor<?x40xf32>
  %r2 = call @ref_t(%x, %w, %c40) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %y2d = tensor.cast %y2 : tensor<?x40xf32> to tensor<?x?xf32>
  %ok2 = call @close(%y2d, %r2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %ok2 : i1
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  %c37 = arith.constant 37 : index
  %c70 = arith.constant 70 : index
  %c200 = arith.constant 200 : index
  call @run(%c1) : (index) -> ()
  call @run(%c5) : (index) -> ()
  call @run(%c13) : (index) -> ()
  call @run(%c37) : (index) -> ()
  call @run(%c70) : (index) -> ()
  call @run(%c200) : (index) -> ()
  // batch_matmul on 3 batches.
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c24b = arith.constant 24 : index
  %c40b = arith.constant 40 : index
  %c24x3 = arith.constant 24 : index
  %c120 = arith.constant 120 : index
  %ba2 = call @rand2(%c5, %c24x3, %c40b) : (index, index, index) -> tensor<?x?xf32>
  %bb2 = call @rand2(%c13, %c120, %c24b) : (index, index, index) -> tensor<?x?xf32>
  %ba2s = tensor.cast %ba2 : tensor<?x?xf32> to tensor<?x40xf32>
  %bb2s = tensor.cast %bb2 : tensor<?x?xf32> to tensor<?x24xf32>
  %ba = tensor.expand_shape %ba2s [[0, 1], [2]] output_shape [%c3, 8, 40] : tensor<?x40xf32> into tensor<?x8x40xf32>
  %bb = tensor.expand_shape %bb2s [[0, 1], [2]] output_shape [%c3, 40, 24] : tensor<?x24xf32> into tensor<?x40x24xf32>
  %by = call @bmm_f32(%ba, %bb) : (tensor<?x8x40xf32>, tensor<?x40x24xf32>) -> tensor<?x8x24xf32>
  %br = call @ref_bmm(%ba, %bb) : (tensor<?x8x40xf32>, tensor<?x40x24xf32>) -> tensor<?x8x24xf32>
  %by2 = tensor.collapse_shape %by [[0, 1], [2]] : tensor<?x8x24xf32> into tensor<?x24xf32>
  %br2 = tensor.collapse_shape %br [[0, 1], [2]] : tensor<?x8x24xf32> into tensor<?x24xf32>
  %byd = tensor.cast %by2 : tensor<?x24xf32> to tensor<?x?xf32>
  %brd = tensor.cast %br2 : tensor<?x24xf32> to tensor<?x?xf32>
  %bok = call @close(%byd, %brd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %bok : i1
  // Negative control: M = 37 against a reference on B's columns shifted
  // by one (another seed).
  %c0 = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  %c40 = arith.constant 40 : index
  %a = call @rand2(%c37, %c37, %c40) : (index, index, index) -> tensor<?x?xf32>
  %b = call @rand2(%c1, %c40, %c24) : (index, index, index) -> tensor<?x?xf32>
  %bad_b = call @rand2(%c0, %c40, %c24) : (index, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<?x40xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<40x24xf32>
  %y = call @mm_f32(%as, %bs) : (tensor<?x40xf32>, tensor<40x24xf32>) -> tensor<?x24xf32>
  %r = call @ref(%a, %bad_b, %c24) : (tensor<?x?xf32>, tensor<?x?xf32>, index) -> tensor<?x?xf32>
  %yd = tensor.cast %y : tensor<?x24xf32> to tensor<?x?xf32>
  %bad = call @close(%yd, %r) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  vector.print %bad : i1
  return
}
