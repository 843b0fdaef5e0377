// Depthwise convolutions and pooling windows (NCHW) on padded inputs, as
// front ends write them (tensor.pad, then the window op), through
// lowp-pipeline-x86: the window kernel reads the unpadded source and gives
// its windows' edges the pad value in registers (masked loads' pass-through,
// lane shifts, rows of the pad value); no padded buffer is filled or
// copied. f32 and bf16 (widened while loaded), strides 1 and 2, pads 0 to
// 2 on either side, dilation 2, a nonzero pad value and max pooling with a
// pad of -inf. Each is compared with a reference written as a
// linalg.generic in f32 over the explicitly padded input (the same
// bf16-exact values), left to the plain loop path: |x - ref| <= 1e-5 |ref|
// + 1e-4. Each case prints 1; the last one is a negative control (the
// reference with the pad on the wrong side must fail).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
//
// The kernels read through the pads: no padded buffer is left in the f32
// cases on AVX2 (bf16 keeps its padded buffer there: no masked bf16
// loads), none in the bf16 ones on AVX-512; the references keep theirs.
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -mlir-print-ir-after=lowp-x86-lower-contractions \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 -mlir-print-ir-after=lowp-x86-lower-contractions \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZNVER4 %}
// AVX2-LABEL: func.func @s1_p1(
// AVX2-NOT: memref<2x5x12x25xf32>
// AVX2-LABEL: func.func @ref_s1_p1(
// AVX2: memref.alloc() {{.*}} : memref<2x5x12x25xf32>
// AVX2-LABEL: func.func @padval(
// AVX2-NOT: memref<1x3x12x16xf32>
// AVX2-LABEL: func.func @ref_padval(
// AVX2-LABEL: func.func @bf16(
// AVX2: memref.alloc() {{.*}} : memref<1x6x14x22xbf16>
// AVX2-LABEL: func.func @maxpool(
// AVX2-NOT: memref<2x4x16x17xf32>
// AVX2-LABEL: func.func @ref_maxpool(
// ZNVER4-LABEL: func.func @bf16(
// ZNVER4-NOT: memref<1x6x14x22xbf16>
// ZNVER4-LABEL: func.func @ref_bf16(
// ZNVER4-LABEL: func.func @bf16_s2(
// ZNVER4-NOT: memref<2x3x16x16xbf16>
// ZNVER4-LABEL: func.func @ref_bf16_s2(
//
// CHECK-COUNT-10: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>

// Deterministic multiples of 1/16 in [-0.875, 0.875] (exact in bf16).
func.func @fill4(%seed: index, %e: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
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
    %a = arith.muli %i0, %c5 : index
    %b = arith.muli %i1, %c7 : index
    %c = arith.muli %i2, %c11 : index
    %d = arith.muli %i3, %c13 : index
    %s1 = arith.addi %a, %b : index
    %s2 = arith.addi %s1, %c : index
    %s3 = arith.addi %s2, %d : index
    %s4 = arith.addi %s3, %seed : index
    %m = arith.remui %s4, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %sixteen = arith.constant 16.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %sixteen : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @rand4(%seed: index, %a: index, %b: index, %c: index, %d: index) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%a, %b, %c, %d) : tensor<?x?x?x?xf32>
  %r = call @fill4(%seed, %e) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
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


// 1. 3x3, stride 1, pad 1 (MobileNet's stride-1 blocks): every row and column of the output touches the pad on some side.
func.func @s1_p1(%in: tensor<2x5x10x23xf32>, %f: tensor<5x3x3xf32>) -> tensor<2x5x10x23xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x5x10x23xf32> to tensor<2x5x12x25xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x10x23xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x5x10x23xf32>) -> tensor<2x5x10x23xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<2x5x12x25xf32>, tensor<5x3x3xf32>) outs(%o : tensor<2x5x10x23xf32>) -> tensor<2x5x10x23xf32>
  return %y : tensor<2x5x10x23xf32>
}

func.func @ref_s1_p1(%in: tensor<2x5x10x23xf32>, %f: tensor<5x3x3xf32>) -> tensor<2x5x10x23xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x5x10x23xf32> to tensor<2x5x12x25xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x10x23xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x5x10x23xf32>) -> tensor<2x5x10x23xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 1 * y + 1 * i, 1 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<2x5x12x25xf32>, tensor<5x3x3xf32>) outs(%o : tensor<2x5x10x23xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x5x10x23xf32>
  return %y : tensor<2x5x10x23xf32>
}

// 2. 5x5, stride 2, pad 2: the pad's two rows and columns, every other element shuffled past them.
func.func @s2_p2_5x5(%in: tensor<1x4x15x40xf32>, %f: tensor<4x5x5xf32>) -> tensor<1x4x8x20xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x4x15x40xf32> to tensor<1x4x19x44xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x20xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x4x8x20xf32>) -> tensor<1x4x8x20xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x4x19x44xf32>, tensor<4x5x5xf32>) outs(%o : tensor<1x4x8x20xf32>) -> tensor<1x4x8x20xf32>
  return %y : tensor<1x4x8x20xf32>
}

func.func @ref_s2_p2_5x5(%in: tensor<1x4x15x40xf32>, %f: tensor<4x5x5xf32>) -> tensor<1x4x8x20xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x4x15x40xf32> to tensor<1x4x19x44xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x20xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x4x8x20xf32>) -> tensor<1x4x8x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x4x19x44xf32>, tensor<4x5x5xf32>) outs(%o : tensor<1x4x8x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8x20xf32>
  return %y : tensor<1x4x8x20xf32>
}

// 3. 3x3, stride 2, TF's 'same' padding (none before, one after).
func.func @s2_same(%in: tensor<1x3x12x12xf32>, %f: tensor<3x3x3xf32>) -> tensor<1x3x6x6xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x12x12xf32> to tensor<1x3x13x13xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x3x13x13xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %y : tensor<1x3x6x6xf32>
}

func.func @ref_s2_same(%in: tensor<1x3x12x12xf32>, %f: tensor<3x3x3xf32>) -> tensor<1x3x6x6xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x12x12xf32> to tensor<1x3x13x13xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x3x13x13xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x3x6x6xf32>
  return %y : tensor<1x3x6x6xf32>
}

// 4. 200 columns: blocks at known columns on both sides of the chunk loop.
func.func @wide(%in: tensor<1x2x7x200xf32>, %f: tensor<2x3x3xf32>) -> tensor<1x2x7x200xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x2x7x200xf32> to tensor<1x2x9x202xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x7x200xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x2x7x200xf32>) -> tensor<1x2x7x200xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x2x9x202xf32>, tensor<2x3x3xf32>) outs(%o : tensor<1x2x7x200xf32>) -> tensor<1x2x7x200xf32>
  return %y : tensor<1x2x7x200xf32>
}

func.func @ref_wide(%in: tensor<1x2x7x200xf32>, %f: tensor<2x3x3xf32>) -> tensor<1x2x7x200xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x2x7x200xf32> to tensor<1x2x9x202xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x7x200xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x2x7x200xf32>) -> tensor<1x2x7x200xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 1 * y + 1 * i, 1 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x2x9x202xf32>, tensor<2x3x3xf32>) outs(%o : tensor<1x2x7x200xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x7x200xf32>
  return %y : tensor<1x2x7x200xf32>
}

// 5. dilation 2, pad 2, a fill of 0.5.
func.func @dil2(%in: tensor<1x2x11x30xf32>, %f: tensor<2x3x3xf32>) -> tensor<1x2x11x30xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x2x11x30xf32> to tensor<1x2x15x34xf32>
  %fv = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x2x11x30xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x2x11x30xf32>) -> tensor<1x2x11x30xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[2, 2]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x2x15x34xf32>, tensor<2x3x3xf32>) outs(%o : tensor<1x2x11x30xf32>) -> tensor<1x2x11x30xf32>
  return %y : tensor<1x2x11x30xf32>
}

func.func @ref_dil2(%in: tensor<1x2x11x30xf32>, %f: tensor<2x3x3xf32>) -> tensor<1x2x11x30xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x2x11x30xf32> to tensor<1x2x15x34xf32>
  %fv = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x2x11x30xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x2x11x30xf32>) -> tensor<1x2x11x30xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 1 * y + 2 * i, 1 * x + 2 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x2x15x34xf32>, tensor<2x3x3xf32>) outs(%o : tensor<1x2x11x30xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x11x30xf32>
  return %y : tensor<1x2x11x30xf32>
}

// 6. pad value 0.375, uneven pads: the pad value reaches every edge.
func.func @padval(%in: tensor<1x3x9x13xf32>, %f: tensor<3x3x3xf32>) -> tensor<1x3x10x14xf32> {
  %pv = arith.constant 0.375 : f32
  %p = tensor.pad %in low[0, 0, 1, 2] high[0, 0, 2, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x9x13xf32> to tensor<1x3x12x16xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x10x14xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x3x10x14xf32>) -> tensor<1x3x10x14xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x3x12x16xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x10x14xf32>) -> tensor<1x3x10x14xf32>
  return %y : tensor<1x3x10x14xf32>
}

func.func @ref_padval(%in: tensor<1x3x9x13xf32>, %f: tensor<3x3x3xf32>) -> tensor<1x3x10x14xf32> {
  %pv = arith.constant 0.375 : f32
  %p = tensor.pad %in low[0, 0, 1, 2] high[0, 0, 2, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x9x13xf32> to tensor<1x3x12x16xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x10x14xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x3x10x14xf32>) -> tensor<1x3x10x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 1 * y + 1 * i, 1 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x3x12x16xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x10x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x3x10x14xf32>
  return %y : tensor<1x3x10x14xf32>
}

// 7. bf16 (on AVX2, which cannot mask bf16 loads, the padded buffer stays).
func.func @bf16(%in: tensor<1x6x12x20xbf16>, %f: tensor<6x3x3xbf16>) -> tensor<1x6x12x20xf32> {
  %pv = arith.constant 0.0 : bf16
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : bf16
  } : tensor<1x6x12x20xbf16> to tensor<1x6x14x22xbf16>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x12x20xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x6x12x20xf32>) -> tensor<1x6x12x20xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x6x14x22xbf16>, tensor<6x3x3xbf16>) outs(%o : tensor<1x6x12x20xf32>) -> tensor<1x6x12x20xf32>
  return %y : tensor<1x6x12x20xf32>
}

func.func @ref_bf16(%in: tensor<1x6x12x20xf32>, %f: tensor<6x3x3xf32>) -> tensor<1x6x12x20xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x6x12x20xf32> to tensor<1x6x14x22xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x12x20xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<1x6x12x20xf32>) -> tensor<1x6x12x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 1 * y + 1 * i, 1 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x6x14x22xf32>, tensor<6x3x3xf32>) outs(%o : tensor<1x6x12x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x6x12x20xf32>
  return %y : tensor<1x6x12x20xf32>
}

// 8. bf16, stride 2, pad 1.
func.func @bf16_s2(%in: tensor<2x3x14x14xbf16>, %f: tensor<3x3x3xbf16>) -> tensor<2x3x7x7xf32> {
  %pv = arith.constant 0.0 : bf16
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : bf16
  } : tensor<2x3x14x14xbf16> to tensor<2x3x16x16xbf16>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x7x7xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<2x3x16x16xbf16>, tensor<3x3x3xbf16>) outs(%o : tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  return %y : tensor<2x3x7x7xf32>
}

func.func @ref_bf16_s2(%in: tensor<2x3x14x14xf32>, %f: tensor<3x3x3xf32>) -> tensor<2x3x7x7xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x3x14x14xf32> to tensor<2x3x16x16xf32>
  %fv = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x7x7xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (c, i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<2x3x16x16xf32>, tensor<3x3x3xf32>) outs(%o : tensor<2x3x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x7x7xf32>
  return %y : tensor<2x3x7x7xf32>
}

// 9. max pooling 3x3, stride 2, pad 1 of -inf (ResNet's stem).
func.func @maxpool(%in: tensor<2x4x14x15xf32>, %f: tensor<3x3xf32>) -> tensor<2x4x7x8xf32> {
  %pv = arith.constant 0xFF800000 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x4x14x15xf32> to tensor<2x4x16x17xf32>
  %fv = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x7x8xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x4x7x8xf32>) -> tensor<2x4x7x8xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<2x4x16x17xf32>, tensor<3x3xf32>) outs(%o : tensor<2x4x7x8xf32>) -> tensor<2x4x7x8xf32>
  return %y : tensor<2x4x7x8xf32>
}

func.func @ref_maxpool(%in: tensor<2x4x14x15xf32>, %f: tensor<3x3xf32>) -> tensor<2x4x7x8xf32> {
  %pv = arith.constant 0xFF800000 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x4x14x15xf32> to tensor<2x4x16x17xf32>
  %fv = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x7x8xf32>
  %o = linalg.fill ins(%fv : f32) outs(%e : tensor<2x4x7x8xf32>) -> tensor<2x4x7x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, y, x, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, c, y, x, i, j) -> (i, j)>, affine_map<(n, c, y, x, i, j) -> (n, c, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<2x4x16x17xf32>, tensor<3x3xf32>) outs(%o : tensor<2x4x7x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x4x7x8xf32>
  return %y : tensor<2x4x7x8xf32>
}

func.func @main() {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %k3 = arith.constant 3 : index
  %k4 = arith.constant 4 : index
  %k5 = arith.constant 5 : index
  %k6 = arith.constant 6 : index
  %k7 = arith.constant 7 : index
  %k8 = arith.constant 8 : index
  %k9 = arith.constant 9 : index
  %k10 = arith.constant 10 : index
  %k11 = arith.constant 11 : index
  %k12 = arith.constant 12 : index
  %k13 = arith.constant 13 : index
  %k14 = arith.constant 14 : index
  %k15 = arith.constant 15 : index
  %k16 = arith.constant 16 : index
  %k17 = arith.constant 17 : index
  %k20 = arith.constant 20 : index
  %k23 = arith.constant 23 : index
  %k30 = arith.constant 30 : index
  %k40 = arith.constant 40 : index
  %k200 = arith.constant 200 : index
  // 1. s1_p1
  %in0d = call @rand4(%k0, %k2, %k5, %k10, %k23) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f0d = call @rand4(%k1, %k1, %k5, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in0 = tensor.cast %in0d : tensor<?x?x?x?xf32> to tensor<2x5x10x23xf32>
  %f04 = tensor.cast %f0d : tensor<?x?x?x?xf32> to tensor<1x5x3x3xf32>
  %f0 = tensor.collapse_shape %f04 [[0, 1], [2], [3]] : tensor<1x5x3x3xf32> into tensor<5x3x3xf32>
  %y0 = call @s1_p1(%in0, %f0) : (tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) -> tensor<2x5x10x23xf32>
  %r0 = call @ref_s1_p1(%in0, %f0) : (tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) -> tensor<2x5x10x23xf32>
  %y0d = tensor.cast %y0 : tensor<2x5x10x23xf32> to tensor<?x?x?x?xf32>
  %r0d = tensor.cast %r0 : tensor<2x5x10x23xf32> to tensor<?x?x?x?xf32>
  %ok0 = call @close(%y0d, %r0d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok0 : i1

  // 2. s2_p2_5x5
  %in1d = call @rand4(%k2, %k1, %k4, %k15, %k40) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1d = call @rand4(%k3, %k1, %k4, %k5, %k5) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<1x4x15x40xf32>
  %f14 = tensor.cast %f1d : tensor<?x?x?x?xf32> to tensor<1x4x5x5xf32>
  %f1 = tensor.collapse_shape %f14 [[0, 1], [2], [3]] : tensor<1x4x5x5xf32> into tensor<4x5x5xf32>
  %y1 = call @s2_p2_5x5(%in1, %f1) : (tensor<1x4x15x40xf32>, tensor<4x5x5xf32>) -> tensor<1x4x8x20xf32>
  %r1 = call @ref_s2_p2_5x5(%in1, %f1) : (tensor<1x4x15x40xf32>, tensor<4x5x5xf32>) -> tensor<1x4x8x20xf32>
  %y1d = tensor.cast %y1 : tensor<1x4x8x20xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<1x4x8x20xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 3. s2_same
  %in2d = call @rand4(%k4, %k1, %k3, %k12, %k12) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2d = call @rand4(%k5, %k1, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<1x3x12x12xf32>
  %f24 = tensor.cast %f2d : tensor<?x?x?x?xf32> to tensor<1x3x3x3xf32>
  %f2 = tensor.collapse_shape %f24 [[0, 1], [2], [3]] : tensor<1x3x3x3xf32> into tensor<3x3x3xf32>
  %y2 = call @s2_same(%in2, %f2) : (tensor<1x3x12x12xf32>, tensor<3x3x3xf32>) -> tensor<1x3x6x6xf32>
  %r2 = call @ref_s2_same(%in2, %f2) : (tensor<1x3x12x12xf32>, tensor<3x3x3xf32>) -> tensor<1x3x6x6xf32>
  %y2d = tensor.cast %y2 : tensor<1x3x6x6xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<1x3x6x6xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 4. wide
  %in3d = call @rand4(%k6, %k1, %k2, %k7, %k200) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f3d = call @rand4(%k7, %k1, %k2, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in3 = tensor.cast %in3d : tensor<?x?x?x?xf32> to tensor<1x2x7x200xf32>
  %f34 = tensor.cast %f3d : tensor<?x?x?x?xf32> to tensor<1x2x3x3xf32>
  %f3 = tensor.collapse_shape %f34 [[0, 1], [2], [3]] : tensor<1x2x3x3xf32> into tensor<2x3x3xf32>
  %y3 = call @wide(%in3, %f3) : (tensor<1x2x7x200xf32>, tensor<2x3x3xf32>) -> tensor<1x2x7x200xf32>
  %r3 = call @ref_wide(%in3, %f3) : (tensor<1x2x7x200xf32>, tensor<2x3x3xf32>) -> tensor<1x2x7x200xf32>
  %y3d = tensor.cast %y3 : tensor<1x2x7x200xf32> to tensor<?x?x?x?xf32>
  %r3d = tensor.cast %r3 : tensor<1x2x7x200xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 5. dil2
  %in4d = call @rand4(%k8, %k1, %k2, %k11, %k30) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f4d = call @rand4(%k9, %k1, %k2, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in4 = tensor.cast %in4d : tensor<?x?x?x?xf32> to tensor<1x2x11x30xf32>
  %f44 = tensor.cast %f4d : tensor<?x?x?x?xf32> to tensor<1x2x3x3xf32>
  %f4 = tensor.collapse_shape %f44 [[0, 1], [2], [3]] : tensor<1x2x3x3xf32> into tensor<2x3x3xf32>
  %y4 = call @dil2(%in4, %f4) : (tensor<1x2x11x30xf32>, tensor<2x3x3xf32>) -> tensor<1x2x11x30xf32>
  %r4 = call @ref_dil2(%in4, %f4) : (tensor<1x2x11x30xf32>, tensor<2x3x3xf32>) -> tensor<1x2x11x30xf32>
  %y4d = tensor.cast %y4 : tensor<1x2x11x30xf32> to tensor<?x?x?x?xf32>
  %r4d = tensor.cast %r4 : tensor<1x2x11x30xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r4d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 6. padval
  %in5d = call @rand4(%k10, %k1, %k3, %k9, %k13) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f5d = call @rand4(%k11, %k1, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in5 = tensor.cast %in5d : tensor<?x?x?x?xf32> to tensor<1x3x9x13xf32>
  %f54 = tensor.cast %f5d : tensor<?x?x?x?xf32> to tensor<1x3x3x3xf32>
  %f5 = tensor.collapse_shape %f54 [[0, 1], [2], [3]] : tensor<1x3x3x3xf32> into tensor<3x3x3xf32>
  %y5 = call @padval(%in5, %f5) : (tensor<1x3x9x13xf32>, tensor<3x3x3xf32>) -> tensor<1x3x10x14xf32>
  %r5 = call @ref_padval(%in5, %f5) : (tensor<1x3x9x13xf32>, tensor<3x3x3xf32>) -> tensor<1x3x10x14xf32>
  %y5d = tensor.cast %y5 : tensor<1x3x10x14xf32> to tensor<?x?x?x?xf32>
  %r5d = tensor.cast %r5 : tensor<1x3x10x14xf32> to tensor<?x?x?x?xf32>
  %ok5 = call @close(%y5d, %r5d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok5 : i1

  // 7. bf16
  %in6d = call @rand4(%k12, %k1, %k6, %k12, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f6d = call @rand4(%k13, %k1, %k6, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in6 = tensor.cast %in6d : tensor<?x?x?x?xf32> to tensor<1x6x12x20xf32>
  %f64 = tensor.cast %f6d : tensor<?x?x?x?xf32> to tensor<1x6x3x3xf32>
  %f6 = tensor.collapse_shape %f64 [[0, 1], [2], [3]] : tensor<1x6x3x3xf32> into tensor<6x3x3xf32>
  %in6b = lowp.cast %in6 : tensor<1x6x12x20xf32> to tensor<1x6x12x20xbf16>
  %f6b = lowp.cast %f6 : tensor<6x3x3xf32> to tensor<6x3x3xbf16>
  %y6 = call @bf16(%in6b, %f6b) : (tensor<1x6x12x20xbf16>, tensor<6x3x3xbf16>) -> tensor<1x6x12x20xf32>
  %r6 = call @ref_bf16(%in6, %f6) : (tensor<1x6x12x20xf32>, tensor<6x3x3xf32>) -> tensor<1x6x12x20xf32>
  %y6d = tensor.cast %y6 : tensor<1x6x12x20xf32> to tensor<?x?x?x?xf32>
  %r6d = tensor.cast %r6 : tensor<1x6x12x20xf32> to tensor<?x?x?x?xf32>
  %ok6 = call @close(%y6d, %r6d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok6 : i1

  // 8. bf16_s2
  %in7d = call @rand4(%k14, %k2, %k3, %k14, %k14) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f7d = call @rand4(%k15, %k1, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in7 = tensor.cast %in7d : tensor<?x?x?x?xf32> to tensor<2x3x14x14xf32>
  %f74 = tensor.cast %f7d : tensor<?x?x?x?xf32> to tensor<1x3x3x3xf32>
  %f7 = tensor.collapse_shape %f74 [[0, 1], [2], [3]] : tensor<1x3x3x3xf32> into tensor<3x3x3xf32>
  %in7b = lowp.cast %in7 : tensor<2x3x14x14xf32> to tensor<2x3x14x14xbf16>
  %f7b = lowp.cast %f7 : tensor<3x3x3xf32> to tensor<3x3x3xbf16>
  %y7 = call @bf16_s2(%in7b, %f7b) : (tensor<2x3x14x14xbf16>, tensor<3x3x3xbf16>) -> tensor<2x3x7x7xf32>
  %r7 = call @ref_bf16_s2(%in7, %f7) : (tensor<2x3x14x14xf32>, tensor<3x3x3xf32>) -> tensor<2x3x7x7xf32>
  %y7d = tensor.cast %y7 : tensor<2x3x7x7xf32> to tensor<?x?x?x?xf32>
  %r7d = tensor.cast %r7 : tensor<2x3x7x7xf32> to tensor<?x?x?x?xf32>
  %ok7 = call @close(%y7d, %r7d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok7 : i1

  // 9. maxpool
  %in8d = call @rand4(%k16, %k2, %k4, %k14, %k15) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f8d = call @rand4(%k17, %k1, %k1, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in8 = tensor.cast %in8d : tensor<?x?x?x?xf32> to tensor<2x4x14x15xf32>
  %f84 = tensor.cast %f8d : tensor<?x?x?x?xf32> to tensor<1x1x3x3xf32>
  %f8 = tensor.collapse_shape %f84 [[0, 1, 2], [3]] : tensor<1x1x3x3xf32> into tensor<3x3xf32>
  %y8 = call @maxpool(%in8, %f8) : (tensor<2x4x14x15xf32>, tensor<3x3xf32>) -> tensor<2x4x7x8xf32>
  %r8 = call @ref_maxpool(%in8, %f8) : (tensor<2x4x14x15xf32>, tensor<3x3xf32>) -> tensor<2x4x7x8xf32>
  %y8d = tensor.cast %y8 : tensor<2x4x7x8xf32> to tensor<?x?x?x?xf32>
  %r8d = tensor.cast %r8 : tensor<2x4x7x8xf32> to tensor<?x?x?x?xf32>
  %ok8 = call @close(%y8d, %r8d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok8 : i1

  // 10. Negative control: case 1 against its reference on the
  // input shifted by one row and column (the pad on the wrong side) must fail.
  %zero = arith.constant 0.0 : f32
  %shifted = tensor.pad %in0 low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x5x10x23xf32> to tensor<2x5x11x24xf32>
  %cut = tensor.extract_slice %shifted[0, 0, 0, 0] [2, 5, 10, 23] [1, 1, 1, 1] : tensor<2x5x11x24xf32> to tensor<2x5x10x23xf32>
  %rbad = call @ref_s1_p1(%cut, %f0) : (tensor<2x5x10x23xf32>, tensor<5x3x3xf32>) -> tensor<2x5x10x23xf32>
  %rbadd = tensor.cast %rbad : tensor<2x5x10x23xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%y0d, %rbadd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
