// NCHW convolutions of at most 32 taps per output (a network's stem on its
// 3 colours) through lowp-pipeline-x86:
// the direct kernel (blocks of output channels x vectors of an output row
// in registers across all taps, no im2col), reading padded inputs through
// their pad, its fill and bias + ReLU consumer fused. f32 and bf16
// (widened while loaded), strides 1 and 2, pads 0 to 2, dilation 2, 2x2
// and 5x5 filters, channel counts that leave a smaller last block. Each is
// compared with a reference written as a linalg.generic in f32 over the
// explicitly padded input (the same bf16-exact values), left to the plain
// loop path: |x - ref| <= 1e-5 |ref| + 1e-4. Each case prints 1; the last
// one is a negative control (the reference with the filter's taps
// transposed must fail).
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s %}
//
// The stem takes the direct kernel (no im2col buffer, no padded copy),
// the bf16 stem on AVX-512 too; on AVX2 the bf16 stem takes the im2col
// kernel.
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -mlir-print-ir-after=lowp-x86-lower-contractions \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 -mlir-print-ir-after=lowp-x86-lower-contractions \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZNVER4 %}
// AVX2-LABEL: func.func @stem(
// AVX2-NOT: memref.alloc() {{.*}} : memref<2x3x25x39xf32>
// AVX2-NOT: linalg.conv_2d_nchw_fchw
// AVX2: vector.fma
// AVX2-LABEL: func.func @ref_stem(
// AVX2-LABEL: func.func @stem_bf16(
// AVX2: memref.alloc() {{.*}} : memref<1x3x21x47xbf16>
// ZNVER4-LABEL: func.func @stem_bf16(
// ZNVER4-NOT: memref<1x3x21x47xbf16>
// ZNVER4: vector.fma
// ZNVER4-LABEL: func.func @ref_stem_bf16(
//
// CHECK-COUNT-7: 1
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



// 1. a stem: 3 colours, 16 channels, 3x3 at stride 2, pad 1, a bias + ReLU consumer.
func.func @stem(%in: tensor<2x3x23x37xf32>, %f: tensor<16x3x3x3xf32>, %bias: tensor<16xf32>) -> tensor<2x16x12x19xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x3x23x37xf32> to tensor<2x3x25x39xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x12x19xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x12x19xf32>) -> tensor<2x16x12x19xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<2x3x25x39xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<2x16x12x19xf32>) -> tensor<2x16x12x19xf32>
  %e2 = tensor.empty() : tensor<2x16x12x19xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<2x16x12x19xf32>, tensor<16xf32>) outs(%e2 : tensor<2x16x12x19xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16x12x19xf32>
  return %z : tensor<2x16x12x19xf32>
}

func.func @ref_stem(%in: tensor<2x3x23x37xf32>, %f: tensor<16x3x3x3xf32>, %bias: tensor<16xf32>) -> tensor<2x16x12x19xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x3x23x37xf32> to tensor<2x3x25x39xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x12x19xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x12x19xf32>) -> tensor<2x16x12x19xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>, affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %f : tensor<2x3x25x39xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<2x16x12x19xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x16x12x19xf32>
  %e2 = tensor.empty() : tensor<2x16x12x19xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<2x16x12x19xf32>, tensor<16xf32>) outs(%e2 : tensor<2x16x12x19xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16x12x19xf32>
  return %z : tensor<2x16x12x19xf32>
}

// 2. 32 taps (8 channels x 2 x 2, padded after), 20 output channels (blocks of channels and a remainder), 40 columns.
func.func @k2c8(%in: tensor<2x8x9x40xf32>, %f: tensor<20x8x2x2xf32>, %bias: tensor<20xf32>) -> tensor<2x20x9x40xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x8x9x40xf32> to tensor<2x8x10x41xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x9x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x9x40xf32>) -> tensor<2x20x9x40xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<2x8x10x41xf32>, tensor<20x8x2x2xf32>) outs(%o : tensor<2x20x9x40xf32>) -> tensor<2x20x9x40xf32>
  %e2 = tensor.empty() : tensor<2x20x9x40xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<2x20x9x40xf32>, tensor<20xf32>) outs(%e2 : tensor<2x20x9x40xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x20x9x40xf32>
  return %z : tensor<2x20x9x40xf32>
}

func.func @ref_k2c8(%in: tensor<2x8x9x40xf32>, %f: tensor<20x8x2x2xf32>, %bias: tensor<20xf32>) -> tensor<2x20x9x40xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<2x8x9x40xf32> to tensor<2x8x10x41xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x9x40xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x9x40xf32>) -> tensor<2x20x9x40xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 1 * y + 1 * i, 1 * x + 1 * j)>, affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>, affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %f : tensor<2x8x10x41xf32>, tensor<20x8x2x2xf32>) outs(%o : tensor<2x20x9x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x20x9x40xf32>
  %e2 = tensor.empty() : tensor<2x20x9x40xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<2x20x9x40xf32>, tensor<20xf32>) outs(%e2 : tensor<2x20x9x40xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x20x9x40xf32>
  return %z : tensor<2x20x9x40xf32>
}

// 3. dilation 2, pad 2, 70 columns (blocks in a loop between blocks at known columns).
func.func @dil2(%in: tensor<1x2x11x70xf32>, %f: tensor<5x2x3x3xf32>, %bias: tensor<5xf32>) -> tensor<1x5x11x70xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x2x11x70xf32> to tensor<1x2x15x74xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x11x70xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x11x70xf32>) -> tensor<1x5x11x70xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 2]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x2x15x74xf32>, tensor<5x2x3x3xf32>) outs(%o : tensor<1x5x11x70xf32>) -> tensor<1x5x11x70xf32>
  return %y : tensor<1x5x11x70xf32>
}

func.func @ref_dil2(%in: tensor<1x2x11x70xf32>, %f: tensor<5x2x3x3xf32>, %bias: tensor<5xf32>) -> tensor<1x5x11x70xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x2x11x70xf32> to tensor<1x2x15x74xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x11x70xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x11x70xf32>) -> tensor<1x5x11x70xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 1 * y + 2 * i, 1 * x + 2 * j)>, affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>, affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x2x15x74xf32>, tensor<5x2x3x3xf32>) outs(%o : tensor<1x5x11x70xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x5x11x70xf32>
  return %y : tensor<1x5x11x70xf32>
}

// 4. one channel, 5x5 at stride 2, no pad.
func.func @k5s2(%in: tensor<1x1x17x29xf32>, %f: tensor<9x1x5x5xf32>, %bias: tensor<9xf32>) -> tensor<1x9x7x13xf32> {
  %p = tensor.cast %in : tensor<1x1x17x29xf32> to tensor<1x1x17x29xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9x7x13xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x7x13xf32>) -> tensor<1x9x7x13xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x1x17x29xf32>, tensor<9x1x5x5xf32>) outs(%o : tensor<1x9x7x13xf32>) -> tensor<1x9x7x13xf32>
  return %y : tensor<1x9x7x13xf32>
}

func.func @ref_k5s2(%in: tensor<1x1x17x29xf32>, %f: tensor<9x1x5x5xf32>, %bias: tensor<9xf32>) -> tensor<1x9x7x13xf32> {
  %p = tensor.cast %in : tensor<1x1x17x29xf32> to tensor<1x1x17x29xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9x7x13xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x7x13xf32>) -> tensor<1x9x7x13xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>, affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x1x17x29xf32>, tensor<9x1x5x5xf32>) outs(%o : tensor<1x9x7x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x9x7x13xf32>
  return %y : tensor<1x9x7x13xf32>
}

// 5. TF 'same' padding at stride 2 (none before, one after).
func.func @same(%in: tensor<1x3x12x12xf32>, %f: tensor<8x3x3x3xf32>, %bias: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x12x12xf32> to tensor<1x3x13x13xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x3x13x13xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}

func.func @ref_same(%in: tensor<1x3x12x12xf32>, %f: tensor<8x3x3x3xf32>, %bias: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x12x12xf32> to tensor<1x3x13x13xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>, affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x3x13x13xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}

// 6. a bf16 stem (on AVX2 the im2col kernel's: no masked bf16 loads).
func.func @stem_bf16(%in: tensor<1x3x19x45xbf16>, %f: tensor<24x3x3x3xbf16>, %bias: tensor<24xf32>) -> tensor<1x24x10x23xf32> {
  %pv = arith.constant 0.0 : bf16
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : bf16
  } : tensor<1x3x19x45xbf16> to tensor<1x3x21x47xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x10x23xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x10x23xf32>) -> tensor<1x24x10x23xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x3x21x47xbf16>, tensor<24x3x3x3xbf16>) outs(%o : tensor<1x24x10x23xf32>) -> tensor<1x24x10x23xf32>
  %e2 = tensor.empty() : tensor<1x24x10x23xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<1x24x10x23xf32>, tensor<24xf32>) outs(%e2 : tensor<1x24x10x23xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x24x10x23xf32>
  return %z : tensor<1x24x10x23xf32>
}

func.func @ref_stem_bf16(%in: tensor<1x3x19x45xf32>, %f: tensor<24x3x3x3xf32>, %bias: tensor<24xf32>) -> tensor<1x24x10x23xf32> {
  %pv = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %pv : f32
  } : tensor<1x3x19x45xf32> to tensor<1x3x21x47xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x10x23xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x10x23xf32>) -> tensor<1x24x10x23xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (n, c, 2 * y + 1 * i, 2 * x + 1 * j)>, affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>, affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %f : tensor<1x3x21x47xf32>, tensor<24x3x3x3xf32>) outs(%o : tensor<1x24x10x23xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x24x10x23xf32>
  %e2 = tensor.empty() : tensor<1x24x10x23xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<1x24x10x23xf32>, tensor<24xf32>) outs(%e2 : tensor<1x24x10x23xf32>) {
  ^bb0(%v: f32, %bv: f32, %out: f32):
    %s = arith.addf %v, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x24x10x23xf32>
  return %z : tensor<1x24x10x23xf32>
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
  %k19 = arith.constant 19 : index
  %k20 = arith.constant 20 : index
  %k23 = arith.constant 23 : index
  %k24 = arith.constant 24 : index
  %k29 = arith.constant 29 : index
  %k37 = arith.constant 37 : index
  %k40 = arith.constant 40 : index
  %k45 = arith.constant 45 : index
  %k70 = arith.constant 70 : index
  // 1. stem
  %in0d = call @rand4(%k0, %k2, %k3, %k23, %k37) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f0d = call @rand4(%k1, %k16, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b0d = call @rand4(%k2, %k1, %k1, %k1, %k16) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in0 = tensor.cast %in0d : tensor<?x?x?x?xf32> to tensor<2x3x23x37xf32>
  %f0 = tensor.cast %f0d : tensor<?x?x?x?xf32> to tensor<16x3x3x3xf32>
  %b04 = tensor.cast %b0d : tensor<?x?x?x?xf32> to tensor<1x1x1x16xf32>
  %b0 = tensor.collapse_shape %b04 [[0, 1, 2, 3]] : tensor<1x1x1x16xf32> into tensor<16xf32>
  %y0 = call @stem(%in0, %f0, %b0) : (tensor<2x3x23x37xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<2x16x12x19xf32>
  %r0 = call @ref_stem(%in0, %f0, %b0) : (tensor<2x3x23x37xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<2x16x12x19xf32>
  %y0d = tensor.cast %y0 : tensor<2x16x12x19xf32> to tensor<?x?x?x?xf32>
  %r0d = tensor.cast %r0 : tensor<2x16x12x19xf32> to tensor<?x?x?x?xf32>
  %ok0 = call @close(%y0d, %r0d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok0 : i1

  // 2. k2c8
  %in1d = call @rand4(%k3, %k2, %k8, %k9, %k40) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f1d = call @rand4(%k4, %k20, %k8, %k2, %k2) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b1d = call @rand4(%k5, %k1, %k1, %k1, %k20) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in1 = tensor.cast %in1d : tensor<?x?x?x?xf32> to tensor<2x8x9x40xf32>
  %f1 = tensor.cast %f1d : tensor<?x?x?x?xf32> to tensor<20x8x2x2xf32>
  %b14 = tensor.cast %b1d : tensor<?x?x?x?xf32> to tensor<1x1x1x20xf32>
  %b1 = tensor.collapse_shape %b14 [[0, 1, 2, 3]] : tensor<1x1x1x20xf32> into tensor<20xf32>
  %y1 = call @k2c8(%in1, %f1, %b1) : (tensor<2x8x9x40xf32>, tensor<20x8x2x2xf32>, tensor<20xf32>) -> tensor<2x20x9x40xf32>
  %r1 = call @ref_k2c8(%in1, %f1, %b1) : (tensor<2x8x9x40xf32>, tensor<20x8x2x2xf32>, tensor<20xf32>) -> tensor<2x20x9x40xf32>
  %y1d = tensor.cast %y1 : tensor<2x20x9x40xf32> to tensor<?x?x?x?xf32>
  %r1d = tensor.cast %r1 : tensor<2x20x9x40xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 3. dil2
  %in2d = call @rand4(%k6, %k1, %k2, %k11, %k70) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f2d = call @rand4(%k7, %k5, %k2, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b2d = call @rand4(%k8, %k1, %k1, %k1, %k5) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in2 = tensor.cast %in2d : tensor<?x?x?x?xf32> to tensor<1x2x11x70xf32>
  %f2 = tensor.cast %f2d : tensor<?x?x?x?xf32> to tensor<5x2x3x3xf32>
  %b24 = tensor.cast %b2d : tensor<?x?x?x?xf32> to tensor<1x1x1x5xf32>
  %b2 = tensor.collapse_shape %b24 [[0, 1, 2, 3]] : tensor<1x1x1x5xf32> into tensor<5xf32>
  %y2 = call @dil2(%in2, %f2, %b2) : (tensor<1x2x11x70xf32>, tensor<5x2x3x3xf32>, tensor<5xf32>) -> tensor<1x5x11x70xf32>
  %r2 = call @ref_dil2(%in2, %f2, %b2) : (tensor<1x2x11x70xf32>, tensor<5x2x3x3xf32>, tensor<5xf32>) -> tensor<1x5x11x70xf32>
  %y2d = tensor.cast %y2 : tensor<1x5x11x70xf32> to tensor<?x?x?x?xf32>
  %r2d = tensor.cast %r2 : tensor<1x5x11x70xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 4. k5s2
  %in3d = call @rand4(%k9, %k1, %k1, %k17, %k29) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f3d = call @rand4(%k10, %k9, %k1, %k5, %k5) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b3d = call @rand4(%k11, %k1, %k1, %k1, %k9) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in3 = tensor.cast %in3d : tensor<?x?x?x?xf32> to tensor<1x1x17x29xf32>
  %f3 = tensor.cast %f3d : tensor<?x?x?x?xf32> to tensor<9x1x5x5xf32>
  %b34 = tensor.cast %b3d : tensor<?x?x?x?xf32> to tensor<1x1x1x9xf32>
  %b3 = tensor.collapse_shape %b34 [[0, 1, 2, 3]] : tensor<1x1x1x9xf32> into tensor<9xf32>
  %y3 = call @k5s2(%in3, %f3, %b3) : (tensor<1x1x17x29xf32>, tensor<9x1x5x5xf32>, tensor<9xf32>) -> tensor<1x9x7x13xf32>
  %r3 = call @ref_k5s2(%in3, %f3, %b3) : (tensor<1x1x17x29xf32>, tensor<9x1x5x5xf32>, tensor<9xf32>) -> tensor<1x9x7x13xf32>
  %y3d = tensor.cast %y3 : tensor<1x9x7x13xf32> to tensor<?x?x?x?xf32>
  %r3d = tensor.cast %r3 : tensor<1x9x7x13xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 5. same
  %in4d = call @rand4(%k12, %k1, %k3, %k12, %k12) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f4d = call @rand4(%k13, %k8, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b4d = call @rand4(%k14, %k1, %k1, %k1, %k8) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in4 = tensor.cast %in4d : tensor<?x?x?x?xf32> to tensor<1x3x12x12xf32>
  %f4 = tensor.cast %f4d : tensor<?x?x?x?xf32> to tensor<8x3x3x3xf32>
  %b44 = tensor.cast %b4d : tensor<?x?x?x?xf32> to tensor<1x1x1x8xf32>
  %b4 = tensor.collapse_shape %b44 [[0, 1, 2, 3]] : tensor<1x1x1x8xf32> into tensor<8xf32>
  %y4 = call @same(%in4, %f4, %b4) : (tensor<1x3x12x12xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %r4 = call @ref_same(%in4, %f4, %b4) : (tensor<1x3x12x12xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %y4d = tensor.cast %y4 : tensor<1x8x6x6xf32> to tensor<?x?x?x?xf32>
  %r4d = tensor.cast %r4 : tensor<1x8x6x6xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r4d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 6. stem_bf16
  %in5d = call @rand4(%k15, %k1, %k3, %k19, %k45) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %f5d = call @rand4(%k16, %k24, %k3, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b5d = call @rand4(%k17, %k1, %k1, %k1, %k24) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %in5 = tensor.cast %in5d : tensor<?x?x?x?xf32> to tensor<1x3x19x45xf32>
  %f5 = tensor.cast %f5d : tensor<?x?x?x?xf32> to tensor<24x3x3x3xf32>
  %b54 = tensor.cast %b5d : tensor<?x?x?x?xf32> to tensor<1x1x1x24xf32>
  %b5 = tensor.collapse_shape %b54 [[0, 1, 2, 3]] : tensor<1x1x1x24xf32> into tensor<24xf32>
  %in5b = lowp.cast %in5 : tensor<1x3x19x45xf32> to tensor<1x3x19x45xbf16>
  %f5b = lowp.cast %f5 : tensor<24x3x3x3xf32> to tensor<24x3x3x3xbf16>
  %y5 = call @stem_bf16(%in5b, %f5b, %b5) : (tensor<1x3x19x45xbf16>, tensor<24x3x3x3xbf16>, tensor<24xf32>) -> tensor<1x24x10x23xf32>
  %r5 = call @ref_stem_bf16(%in5, %f5, %b5) : (tensor<1x3x19x45xf32>, tensor<24x3x3x3xf32>, tensor<24xf32>) -> tensor<1x24x10x23xf32>
  %y5d = tensor.cast %y5 : tensor<1x24x10x23xf32> to tensor<?x?x?x?xf32>
  %r5d = tensor.cast %r5 : tensor<1x24x10x23xf32> to tensor<?x?x?x?xf32>
  %ok5 = call @close(%y5d, %r5d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok5 : i1

  // 7. Negative control: the stem against its reference with the
  // filter's taps transposed must fail.
  %ft = linalg.transpose ins(%f0 : tensor<16x3x3x3xf32>) outs(%f0 : tensor<16x3x3x3xf32>) permutation = [0, 1, 3, 2]
  %rbad = call @ref_stem(%in0, %ft, %b0) : (tensor<2x3x23x37xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<2x16x12x19xf32>
  %rbadd = tensor.cast %rbad : tensor<2x16x12x19xf32> to tensor<?x?x?x?xf32>
  %bad = call @close(%y0d, %rbadd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
