// bf16 storage on AVX2 in the two shapes that used to leave `__truncsfbf2`
// calls behind (so the module did not even load without compiler-rt):
// a keep-dim row maximum (a 1x16x1 bf16 buffer written and read along its
// 16 rows: a transfer that is not a minor identity, unrolled lane by lane)
// and 3-wide filter rows rounded to bf16 (8-lane masked stores and loads).
// Executed on AVX2 code and compared exactly with references computed
// without bf16: inputs are multiples of 1/8 (exact in bf16), so the row
// maximum is the exact f32 one; filter values v + 2^-13 with |v| >= 1/8
// round to v (2^-13 is below half a bf16 ulp of v).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | mlir-translate --mlir-to-llvmir \
// RUN: | llc -O3 -mcpu=x86-64-v3 | FileCheck %s --check-prefix=ASM
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
//
// ASM-NOT: __truncsfbf2
// ASM-NOT: __extendbfsf2
// CHECK: rowmax exact: 1
// CHECK: filter exact: 1

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#all3 = affine_map<(d0, d1, d2) -> ()>
#all4 = affine_map<(a, b, c, d) -> ()>

// The row maximum (in f32, exact), stored as bf16 in softmax's keep-dim
// form 1x16x1: the buffer is written and read along its 16 rows.
func.func @rowmax_bf16(%x: tensor<1x16x24xbf16>) -> tensor<1x16x1xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x16x1xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id3, #keep],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x24xbf16>) outs(%f : tensor<1x16x1xf32>) {
  ^bb0(%v: bf16, %acc: f32):
    %w = arith.extf %v : bf16 to f32
    %n = arith.maximumf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<1x16x1xf32>
  %eb = tensor.empty() : tensor<1x16x1xbf16>
  %mb = linalg.generic {indexing_maps = [#id3, #id3],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m : tensor<1x16x1xf32>) outs(%eb : tensor<1x16x1xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x16x1xbf16>
  return %mb : tensor<1x16x1xbf16>
}

// Filter weights rounded to bf16: rows of 3.
func.func @round_filter(%w: tensor<4x4x3x3xf32>) -> tensor<4x4x3x3xbf16> {
  %e = tensor.empty() : tensor<4x4x3x3xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<4x4x3x3xf32>) outs(%e : tensor<4x4x3x3xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x4x3x3xbf16>
  return %r : tensor<4x4x3x3xbf16>
}

func.func @main() {
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c23 = arith.constant 23 : index
  %c11 = arith.constant 11 : index
  %eighth = arith.constant 0.125 : f32
  %tiny = arith.constant 1.220703125e-04 : f32  // 2^-13
  %zero = arith.constant 0.0 : f32
  // x[0][r][c] = ((7 r + 13 c) mod 23 - 11) / 8, in bf16 and in f32.
  %ex = tensor.empty() : tensor<1x16x24xf32>
  %x = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%ex : tensor<1x16x24xf32>) {
  ^bb0(%o: f32):
    %r = linalg.index 1 : index
    %c = linalg.index 2 : index
    %a = arith.muli %r, %c7 : index
    %b = arith.muli %c, %c13 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c23 : index
    %d = arith.subi %m, %c11 : index
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %eighth : f32
    linalg.yield %v : f32
  } -> tensor<1x16x24xf32>
  %exb = tensor.empty() : tensor<1x16x24xbf16>
  %xb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x16x24xf32>) outs(%exb : tensor<1x16x24xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x16x24xbf16>
  %mb = func.call @rowmax_bf16(%xb) : (tensor<1x16x24xbf16>) -> tensor<1x16x1xbf16>
  // Reference: the f32 row maximum.
  %ninf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1x16x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  %ref = linalg.generic {indexing_maps = [#id3, #keep],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x24xf32>) outs(%fm : tensor<1x16x1xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %n = arith.maximumf %v, %acc : f32
    linalg.yield %n : f32
  } -> tensor<1x16x1xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %dm = linalg.generic {indexing_maps = [#id3, #id3, #all3],
                        iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%mb, %ref : tensor<1x16x1xbf16>, tensor<1x16x1xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%v: bf16, %r: f32, %acc: f32):
    %w = arith.extf %v : bf16 to f32
    %d = arith.subf %w, %r : f32
    %a = math.absf %d : f32
    %n = arith.maximumf %a, %acc : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %dmax = tensor.extract %dm[] : tensor<f32>
  %ok1 = arith.cmpf oeq, %dmax, %zero : f32
  vector.print str "rowmax exact: "
  vector.print %ok1 : i1

  // w[a][b][i][j] = v + 2^-13, v = (2 ((a + 3b + 5i + 7j) mod 8) - 7) / 8.
  %ew = tensor.empty() : tensor<4x4x3x3xf32>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %vals = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%ew : tensor<4x4x3x3xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %b3 = arith.muli %b, %c3 : index
    %i5 = arith.muli %i, %c5 : index
    %j7 = arith.muli %j, %c7 : index
    %s1 = arith.addi %a, %b3 : index
    %s2 = arith.addi %s1, %i5 : index
    %s3 = arith.addi %s2, %j7 : index
    %m = arith.remui %s3, %c8 : index
    %m2 = arith.muli %m, %c2 : index
    %d = arith.subi %m2, %c7 : index
    %k = arith.index_cast %d : index to i32
    %f = arith.sitofp %k : i32 to f32
    %v = arith.mulf %f, %eighth : f32
    linalg.yield %v : f32
  } -> tensor<4x4x3x3xf32>
  %ew2 = tensor.empty() : tensor<4x4x3x3xf32>
  %perturbed = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%vals : tensor<4x4x3x3xf32>) outs(%ew2 : tensor<4x4x3x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.addf %v, %tiny : f32
    linalg.yield %p : f32
  } -> tensor<4x4x3x3xf32>
  %wb = func.call @round_filter(%perturbed) : (tensor<4x4x3x3xf32>) -> tensor<4x4x3x3xbf16>
  %z1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %dw = linalg.generic {indexing_maps = [#id4, #id4, #all4],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%wb, %vals : tensor<4x4x3x3xbf16>, tensor<4x4x3x3xf32>) outs(%z1 : tensor<f32>) {
  ^bb0(%v: bf16, %r: f32, %acc: f32):
    %w = arith.extf %v : bf16 to f32
    %d = arith.subf %w, %r : f32
    %a = math.absf %d : f32
    %n = arith.maximumf %a, %acc : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %dwmax = tensor.extract %dw[] : tensor<f32>
  %ok2 = arith.cmpf oeq, %dwmax, %zero : f32
  vector.print str "filter exact: "
  vector.print %ok2 : i1
  return
}
