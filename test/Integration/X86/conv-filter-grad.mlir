// NCHW filter gradients (contraction generics over batch and output pixels,
// as fpopt.torch writes a convolution's weight gradient) through
// lowp-pipeline-x86, where the filter-gradient kernel takes them:
//  1. deep: 2 images, C = 64, 3x3, 20 filters (a partial panel), 12x22
//     outputs: blocks of 5 rows and a last block of 2, images accumulated;
//  2. strided_dilated: stride 2 and dilation 2 (col's runs of every other
//     element), 19x19 outputs (overlapping row tails);
//  3. bf16_odd: bf16 buffers (vdpbf16ps where the target has it, widened
//     to f32 otherwise), 7x7 outputs: odd blocks padded with a zero pixel;
//  4. rounded: f32 buffers multiplied in bf16 (truncf in the body): col
//     and g's block rounded as they are copied; inputs not exact in bf16,
//     so a kernel that skipped the rounding would fail the check;
//  5. pointwise: 1x1 over 24 channels, 40 filters;
//  6. a negative control (the reference with its taps transposed must fail).
// Each is compared with a reference generic writing [F][C][KH][KW] (which
// the kernel does not take: left to the loop path), in f32:
// |x - ref| <= 1e-5 |ref| + 1e-4.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// RUN: %if x86-sapphirerapids %{ fp-opt %s -lowp-pipeline-x86=target=sapphirerapids 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
// The kernel takes every filter gradient; the references (and nothing
// else) stay on the loop path:
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-5: generic loop path for 'linalg.generic': no x86 kernel for this convolution
// REMARK-NOT: generic loop path
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>

// Deterministic values (m - 14) / div for m = a hash of the index mod 29:
// div = 16 gives multiples of 1/16 (exact in bf16), 16.3 does not.
func.func @rand4(%seed: i64, %div: f32, %a: i64, %b: i64, %c: i64, %d: i64) -> tensor<?x?x?x?xf32> {
  %ia = arith.index_cast %a : i64 to index
  %ib = arith.index_cast %b : i64 to index
  %ic = arith.index_cast %c : i64 to index
  %id = arith.index_cast %d : i64 to index
  %sd = arith.index_cast %seed : i64 to index
  %e = tensor.empty(%ia, %ib, %ic, %id) : tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %t0 = arith.muli %i0, %c5 : index
    %t1 = arith.muli %i1, %c7 : index
    %t2 = arith.muli %i2, %c11 : index
    %t3 = arith.muli %i3, %c13 : index
    %s1 = arith.addi %t0, %t1 : index
    %s2 = arith.addi %s1, %t2 : index
    %s3 = arith.addi %s2, %t3 : index
    %s4 = arith.addi %s3, %sd : index
    %m = arith.remui %s4, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %div : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// 1 when every |got - ref| <= 1e-5 |ref| + 1e-4.
func.func @close(%got: tensor<?x?x?x?xf32>, %ref: tensor<?x?x?x?xf32>) -> i1 {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %g = tensor.collapse_shape %got [[0, 1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %r = tensor.collapse_shape %ref [[0, 1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #all2],
                           iterator_types = ["reduction", "reduction"]}
      ins(%g, %r : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %rv: f32, %m: f32):
    %d = arith.subf %v, %rv : f32
    %ad = math.absf %d : f32
    %ar = math.absf %rv : f32
    %rel = arith.constant 1.0e-5 : f32
    %abs = arith.constant 1.0e-4 : f32
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

func.func @deep(%x: tensor<2x64x14x24xf32>, %g: tensor<2x20x12x22xf32>) -> tensor<20x64x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x3x3x20xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<64x3x3x20xf32>) -> tensor<64x3x3x20xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(c, i, j, f, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x64x14x24xf32>, tensor<2x20x12x22xf32>) outs(%o : tensor<64x3x3x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x3x3x20xf32>
  %te = tensor.empty() : tensor<20x64x3x3xf32>
  %t = linalg.transpose ins(%w : tensor<64x3x3x20xf32>) outs(%te : tensor<20x64x3x3xf32>) permutation = [3, 0, 1, 2]
  return %t : tensor<20x64x3x3xf32>
}

func.func @ref_deep(%x: tensor<2x64x14x24xf32>, %g: tensor<2x20x12x22xf32>) -> tensor<20x64x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x64x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<20x64x3x3xf32>) -> tensor<20x64x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(f, c, i, j, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x64x14x24xf32>, tensor<2x20x12x22xf32>) outs(%o : tensor<20x64x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<20x64x3x3xf32>
  return %w : tensor<20x64x3x3xf32>
}

func.func @strided_dilated(%x: tensor<1x8x41x41xf32>, %g: tensor<1x12x19x19xf32>) -> tensor<12x8x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x3x3x12xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3x3x12xf32>) -> tensor<8x3x3x12xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(c, i, j, f, n, y, x) -> (n, c, y * 2 + i * 2, x * 2 + j * 2)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<1x8x41x41xf32>, tensor<1x12x19x19xf32>) outs(%o : tensor<8x3x3x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3x3x12xf32>
  %te = tensor.empty() : tensor<12x8x3x3xf32>
  %t = linalg.transpose ins(%w : tensor<8x3x3x12xf32>) outs(%te : tensor<12x8x3x3xf32>) permutation = [3, 0, 1, 2]
  return %t : tensor<12x8x3x3xf32>
}

func.func @ref_strided_dilated(%x: tensor<1x8x41x41xf32>, %g: tensor<1x12x19x19xf32>) -> tensor<12x8x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x8x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<12x8x3x3xf32>) -> tensor<12x8x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(f, c, i, j, n, y, x) -> (n, c, y * 2 + i * 2, x * 2 + j * 2)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<1x8x41x41xf32>, tensor<1x12x19x19xf32>) outs(%o : tensor<12x8x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<12x8x3x3xf32>
  return %w : tensor<12x8x3x3xf32>
}

func.func @bf16_odd(%x: tensor<2x16x9x9xbf16>, %g: tensor<2x24x7x7xbf16>) -> tensor<24x16x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x3x3x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<16x3x3x24xf32>) -> tensor<16x3x3x24xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(c, i, j, f, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x16x9x9xbf16>, tensor<2x24x7x7xbf16>) outs(%o : tensor<16x3x3x24xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x3x3x24xf32>
  %te = tensor.empty() : tensor<24x16x3x3xf32>
  %t = linalg.transpose ins(%w : tensor<16x3x3x24xf32>) outs(%te : tensor<24x16x3x3xf32>) permutation = [3, 0, 1, 2]
  return %t : tensor<24x16x3x3xf32>
}

func.func @ref_bf16_odd(%x: tensor<2x16x9x9xbf16>, %g: tensor<2x24x7x7xbf16>) -> tensor<24x16x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x16x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<24x16x3x3xf32>) -> tensor<24x16x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(f, c, i, j, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x16x9x9xbf16>, tensor<2x24x7x7xbf16>) outs(%o : tensor<24x16x3x3xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x16x3x3xf32>
  return %w : tensor<24x16x3x3xf32>
}

func.func @rounded(%x: tensor<2x8x12x20xf32>, %g: tensor<2x16x10x18xf32>) -> tensor<16x8x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x3x3x16xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3x3x16xf32>) -> tensor<8x3x3x16xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(c, i, j, f, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x8x12x20xf32>, tensor<2x16x10x18xf32>) outs(%o : tensor<8x3x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %at = arith.truncf %a : f32 to bf16
    %bt = arith.truncf %b : f32 to bf16
    %ae = arith.extf %at : bf16 to f32
    %be = arith.extf %bt : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3x3x16xf32>
  %te = tensor.empty() : tensor<16x8x3x3xf32>
  %t = linalg.transpose ins(%w : tensor<8x3x3x16xf32>) outs(%te : tensor<16x8x3x3xf32>) permutation = [3, 0, 1, 2]
  return %t : tensor<16x8x3x3xf32>
}

func.func @ref_rounded(%x: tensor<2x8x12x20xf32>, %g: tensor<2x16x10x18xf32>) -> tensor<16x8x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(f, c, i, j, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x8x12x20xf32>, tensor<2x16x10x18xf32>) outs(%o : tensor<16x8x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %at = arith.truncf %a : f32 to bf16
    %bt = arith.truncf %b : f32 to bf16
    %ae = arith.extf %at : bf16 to f32
    %be = arith.extf %bt : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x8x3x3xf32>
  return %w : tensor<16x8x3x3xf32>
}

func.func @pointwise(%x: tensor<2x24x7x20xf32>, %g: tensor<2x40x7x20xf32>) -> tensor<40x24x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x1x1x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<24x1x1x40xf32>) -> tensor<24x1x1x40xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(c, i, j, f, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x24x7x20xf32>, tensor<2x40x7x20xf32>) outs(%o : tensor<24x1x1x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x1x1x40xf32>
  %te = tensor.empty() : tensor<40x24x1x1xf32>
  %t = linalg.transpose ins(%w : tensor<24x1x1x40xf32>) outs(%te : tensor<40x24x1x1xf32>) permutation = [3, 0, 1, 2]
  return %t : tensor<40x24x1x1xf32>
}

func.func @ref_pointwise(%x: tensor<2x24x7x20xf32>, %g: tensor<2x40x7x20xf32>) -> tensor<40x24x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x24x1x1xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<40x24x1x1xf32>) -> tensor<40x24x1x1xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(f, c, i, j, n, y, x) -> (n, c, y * 1 + i * 1, x * 1 + j * 1)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>,
                                        affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : tensor<2x24x7x20xf32>, tensor<2x40x7x20xf32>) outs(%o : tensor<40x24x1x1xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<40x24x1x1xf32>
  return %w : tensor<40x24x1x1xf32>
}

func.func @main() {
  %exact = arith.constant 16.0 : f32
  %inexact = arith.constant 16.3 : f32
  %i1 = arith.constant 1 : i64
  %i2 = arith.constant 2 : i64
  %i3 = arith.constant 3 : i64
  %i4 = arith.constant 4 : i64
  %i5 = arith.constant 5 : i64
  %i6 = arith.constant 6 : i64
  %i7 = arith.constant 7 : i64
  %i8 = arith.constant 8 : i64
  %i9 = arith.constant 9 : i64
  %i10 = arith.constant 10 : i64
  %i12 = arith.constant 12 : i64
  %i14 = arith.constant 14 : i64
  %i16 = arith.constant 16 : i64
  %i18 = arith.constant 18 : i64
  %i19 = arith.constant 19 : i64
  %i20 = arith.constant 20 : i64
  %i22 = arith.constant 22 : i64
  %i24 = arith.constant 24 : i64
  %i40 = arith.constant 40 : i64
  %i41 = arith.constant 41 : i64
  %i64 = arith.constant 64 : i64
  // deep
  %x_deep_f = call @rand4(%i1, %exact, %i2, %i64, %i14, %i24) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %x_deep_s = tensor.cast %x_deep_f : tensor<?x?x?x?xf32> to tensor<2x64x14x24xf32>
  %x_deep = tensor.cast %x_deep_s : tensor<2x64x14x24xf32> to tensor<2x64x14x24xf32>
  %g_deep_f = call @rand4(%i2, %exact, %i2, %i20, %i12, %i22) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %g_deep_s = tensor.cast %g_deep_f : tensor<?x?x?x?xf32> to tensor<2x20x12x22xf32>
  %g_deep = tensor.cast %g_deep_s : tensor<2x20x12x22xf32> to tensor<2x20x12x22xf32>
  %y_deep = call @deep(%x_deep, %g_deep) : (tensor<2x64x14x24xf32>, tensor<2x20x12x22xf32>) -> tensor<20x64x3x3xf32>
  %r_deep = call @ref_deep(%x_deep, %g_deep) : (tensor<2x64x14x24xf32>, tensor<2x20x12x22xf32>) -> tensor<20x64x3x3xf32>
  %yd_deep = tensor.cast %y_deep : tensor<20x64x3x3xf32> to tensor<?x?x?x?xf32>
  %rd_deep = tensor.cast %r_deep : tensor<20x64x3x3xf32> to tensor<?x?x?x?xf32>
  %ok_deep = call @close(%yd_deep, %rd_deep) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok_deep : i1
  // strided_dilated
  %x_strided_dilated_f = call @rand4(%i3, %exact, %i1, %i8, %i41, %i41) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %x_strided_dilated_s = tensor.cast %x_strided_dilated_f : tensor<?x?x?x?xf32> to tensor<1x8x41x41xf32>
  %x_strided_dilated = tensor.cast %x_strided_dilated_s : tensor<1x8x41x41xf32> to tensor<1x8x41x41xf32>
  %g_strided_dilated_f = call @rand4(%i4, %exact, %i1, %i12, %i19, %i19) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %g_strided_dilated_s = tensor.cast %g_strided_dilated_f : tensor<?x?x?x?xf32> to tensor<1x12x19x19xf32>
  %g_strided_dilated = tensor.cast %g_strided_dilated_s : tensor<1x12x19x19xf32> to tensor<1x12x19x19xf32>
  %y_strided_dilated = call @strided_dilated(%x_strided_dilated, %g_strided_dilated) : (tensor<1x8x41x41xf32>, tensor<1x12x19x19xf32>) -> tensor<12x8x3x3xf32>
  %r_strided_dilated = call @ref_strided_dilated(%x_strided_dilated, %g_strided_dilated) : (tensor<1x8x41x41xf32>, tensor<1x12x19x19xf32>) -> tensor<12x8x3x3xf32>
  %yd_strided_dilated = tensor.cast %y_strided_dilated : tensor<12x8x3x3xf32> to tensor<?x?x?x?xf32>
  %rd_strided_dilated = tensor.cast %r_strided_dilated : tensor<12x8x3x3xf32> to tensor<?x?x?x?xf32>
  %ok_strided_dilated = call @close(%yd_strided_dilated, %rd_strided_dilated) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok_strided_dilated : i1
  // bf16_odd
  %x_bf16_odd_f = call @rand4(%i5, %exact, %i2, %i16, %i9, %i9) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %x_bf16_odd_s = tensor.cast %x_bf16_odd_f : tensor<?x?x?x?xf32> to tensor<2x16x9x9xf32>
  %x_bf16_odd = lowp.cast %x_bf16_odd_s : tensor<2x16x9x9xf32> to tensor<2x16x9x9xbf16>
  %g_bf16_odd_f = call @rand4(%i6, %exact, %i2, %i24, %i7, %i7) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %g_bf16_odd_s = tensor.cast %g_bf16_odd_f : tensor<?x?x?x?xf32> to tensor<2x24x7x7xf32>
  %g_bf16_odd = lowp.cast %g_bf16_odd_s : tensor<2x24x7x7xf32> to tensor<2x24x7x7xbf16>
  %y_bf16_odd = call @bf16_odd(%x_bf16_odd, %g_bf16_odd) : (tensor<2x16x9x9xbf16>, tensor<2x24x7x7xbf16>) -> tensor<24x16x3x3xf32>
  %r_bf16_odd = call @ref_bf16_odd(%x_bf16_odd, %g_bf16_odd) : (tensor<2x16x9x9xbf16>, tensor<2x24x7x7xbf16>) -> tensor<24x16x3x3xf32>
  %yd_bf16_odd = tensor.cast %y_bf16_odd : tensor<24x16x3x3xf32> to tensor<?x?x?x?xf32>
  %rd_bf16_odd = tensor.cast %r_bf16_odd : tensor<24x16x3x3xf32> to tensor<?x?x?x?xf32>
  %ok_bf16_odd = call @close(%yd_bf16_odd, %rd_bf16_odd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok_bf16_odd : i1
  // rounded
  %x_rounded_f = call @rand4(%i7, %inexact, %i2, %i8, %i12, %i20) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %x_rounded_s = tensor.cast %x_rounded_f : tensor<?x?x?x?xf32> to tensor<2x8x12x20xf32>
  %x_rounded = tensor.cast %x_rounded_s : tensor<2x8x12x20xf32> to tensor<2x8x12x20xf32>
  %g_rounded_f = call @rand4(%i8, %inexact, %i2, %i16, %i10, %i18) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %g_rounded_s = tensor.cast %g_rounded_f : tensor<?x?x?x?xf32> to tensor<2x16x10x18xf32>
  %g_rounded = tensor.cast %g_rounded_s : tensor<2x16x10x18xf32> to tensor<2x16x10x18xf32>
  %y_rounded = call @rounded(%x_rounded, %g_rounded) : (tensor<2x8x12x20xf32>, tensor<2x16x10x18xf32>) -> tensor<16x8x3x3xf32>
  %r_rounded = call @ref_rounded(%x_rounded, %g_rounded) : (tensor<2x8x12x20xf32>, tensor<2x16x10x18xf32>) -> tensor<16x8x3x3xf32>
  %yd_rounded = tensor.cast %y_rounded : tensor<16x8x3x3xf32> to tensor<?x?x?x?xf32>
  %rd_rounded = tensor.cast %r_rounded : tensor<16x8x3x3xf32> to tensor<?x?x?x?xf32>
  %ok_rounded = call @close(%yd_rounded, %rd_rounded) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok_rounded : i1
  // pointwise
  %x_pointwise_f = call @rand4(%i9, %exact, %i2, %i24, %i7, %i20) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %x_pointwise_s = tensor.cast %x_pointwise_f : tensor<?x?x?x?xf32> to tensor<2x24x7x20xf32>
  %x_pointwise = tensor.cast %x_pointwise_s : tensor<2x24x7x20xf32> to tensor<2x24x7x20xf32>
  %g_pointwise_f = call @rand4(%i10, %exact, %i2, %i40, %i7, %i20) : (i64, f32, i64, i64, i64, i64) -> tensor<?x?x?x?xf32>
  %g_pointwise_s = tensor.cast %g_pointwise_f : tensor<?x?x?x?xf32> to tensor<2x40x7x20xf32>
  %g_pointwise = tensor.cast %g_pointwise_s : tensor<2x40x7x20xf32> to tensor<2x40x7x20xf32>
  %y_pointwise = call @pointwise(%x_pointwise, %g_pointwise) : (tensor<2x24x7x20xf32>, tensor<2x40x7x20xf32>) -> tensor<40x24x1x1xf32>
  %r_pointwise = call @ref_pointwise(%x_pointwise, %g_pointwise) : (tensor<2x24x7x20xf32>, tensor<2x40x7x20xf32>) -> tensor<40x24x1x1xf32>
  %yd_pointwise = tensor.cast %y_pointwise : tensor<40x24x1x1xf32> to tensor<?x?x?x?xf32>
  %rd_pointwise = tensor.cast %r_pointwise : tensor<40x24x1x1xf32> to tensor<?x?x?x?xf32>
  %ok_pointwise = call @close(%yd_pointwise, %rd_pointwise) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok_pointwise : i1
  // Negative control: the deep case against its reference with the taps
  // transposed (KH and KW swapped) must fail the check.
  %rt_deep = tensor.empty() : tensor<20x64x3x3xf32>
  %bad_ref = linalg.transpose ins(%r_deep : tensor<20x64x3x3xf32>) outs(%rt_deep : tensor<20x64x3x3xf32>) permutation = [0, 1, 3, 2]
  %bad_refd = tensor.cast %bad_ref : tensor<20x64x3x3xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%yd_deep, %bad_refd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %ok_bad = arith.xori %bad, %true : i1
  vector.print %ok_bad : i1
  return
}
