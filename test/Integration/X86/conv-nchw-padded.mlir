// Padded NCHW convolutions through lowp-pipeline-x86, as torch-mlir emits
// them (tensor.pad of the input, then linalg.conv_2d_nchw_fchw), with output
// rows that are not a multiple of the vector lanes (21, 22 and 56 columns:
// the im2col copy's last run overlaps the one before), and the pads written
// by lowp-fold-pad-into-producer (the narrowing cast computing straight into
// the padded buffer's interior, the border filled) or left to
// bufferization (a padded function argument, the first convolution's
// epilogue output: filled, then copied). Each case is compared with a reference that reads the unpadded
// input directly (out-of-range taps are 0: no tensor.pad involved), written
// as a linalg.generic left to the loop path, on bf16-exact inputs:
// |x - ref| <= 1e-5 |ref| + 1e-4.
//  1. f32, pad of an argument, 1x8x21x21 -> 16 channels, 3x3 stride 1.
//  2. bf16, the cast writes the padded interior, 1x8x21x21 -> 32 channels.
//  3. bf16, stride 2, 1x4x43x43 padded to 45x45 -> 22x22, 16 channels.
//  4. A ResNet basic block's two convolutions, bf16, 56x56: cast, pad,
//     conv, ReLU + cast (the first kernel's epilogue), pad, conv. The first
//     convolution's sums are exact (multiples of 1/256 below 2^5), so the
//     rounding of its ReLU to bf16 is the reference's too.
//  5. Negative control: case 2 against a reference padding with 1/2 must
//     fail the check.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>&1 >%t.avx2 | FileCheck %s --allow-empty --check-prefix=REMARK
// RUN: mlir-runner %t.avx2 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=znver4 2>&1 >%t.zen4 | FileCheck %s --allow-empty --check-prefix=REMARK %}
// RUN: %if x86-avx512bf16 %{ mlir-runner %t.zen4 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | FileCheck %s %}
// Every convolution takes the kernel, ReLU + cast run in the first one's
// epilogue, and nothing falls back to scalar loops on strided views:
// REMARK-NOT: generic loop path for 'linalg.conv_2d_nchw_fchw'
// REMARK-NOT: elementwise consumer not fused
// REMARK-NOT: slow path
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>

// Deterministic values in [-0.875, 0.875] (multiples of 1/16: exact in bf16).
func.func @fill(%seed: index, %e: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
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
  %r = call @fill(%seed, %e) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
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


// The reference: out[n, f, y, x] = sum over c, i, j of
// in[n, c, s y + i - 1, s x + j - 1] w[f, c, i, j], taps outside the input
// reading `padv`.
func.func @ref_padded(%in: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %out: tensor<?x?x?x?xf32>, %s: index, %padv: f32) -> tensor<?x?x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %h = tensor.dim %in, %c2 : tensor<?x?x?x?xf32>
  %wd = tensor.dim %in, %c3 : tensor<?x?x?x?xf32>
  %zero = arith.constant 0.0 : f32
  %o = linalg.fill ins(%zero : f32) outs(%out : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, y, x, c, i, j) -> (f, c, i, j)>,
                                        affine_map<(n, f, y, x, c, i, j) -> (n, f, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%w : tensor<?x?x?x?xf32>) outs(%o : tensor<?x?x?x?xf32>) {
  ^bb0(%wv: f32, %acc: f32):
    %n = linalg.index 0 : index
    %y = linalg.index 2 : index
    %x = linalg.index 3 : index
    %c = linalg.index 4 : index
    %i = linalg.index 5 : index
    %j = linalg.index 6 : index
    %sy = arith.muli %y, %s : index
    %sx = arith.muli %x, %s : index
    %iy1 = arith.addi %sy, %i : index
    %ix1 = arith.addi %sx, %j : index
    // Padded coordinates 0 and H + 1 are outside: compare before subtracting.
    %ylo = arith.cmpi uge, %iy1, %c1 : index
    %yhi = arith.cmpi ule, %iy1, %h : index
    %xlo = arith.cmpi uge, %ix1, %c1 : index
    %xhi = arith.cmpi ule, %ix1, %wd : index
    %y2 = arith.andi %ylo, %yhi : i1
    %x2 = arith.andi %xlo, %xhi : i1
    %inside = arith.andi %y2, %x2 : i1
    %v = scf.if %inside -> f32 {
      %iy = arith.subi %iy1, %c1 : index
      %ix = arith.subi %ix1, %c1 : index
      %e = tensor.extract %in[%n, %c, %iy, %ix] : tensor<?x?x?x?xf32>
      scf.yield %e : f32
    } else {
      scf.yield %padv : f32
    }
    %p = arith.mulf %v, %wv : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// Case 1: f32, the pad of an argument.
func.func @pc21_f32(%x: tensor<1x8x21x21xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x21x21xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x21x21xf32> to tensor<1x8x23x23xf32>
  %e = tensor.empty() : tensor<1x16x21x21xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x21x21xf32>) -> tensor<1x16x21x21xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x8x23x23xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x21x21xf32>) -> tensor<1x16x21x21xf32>
  return %y : tensor<1x16x21x21xf32>
}

// The f32 -> bf16 cast the precision decisions put before a convolution.
func.func @to_bf16(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x?x?x?xbf16>
  return %r : tensor<?x?x?x?xbf16>
}

// Case 2: bf16, the cast writes the padded interior.
func.func @pc21_bf16(%x: tensor<1x8x21x21xf32>, %w: tensor<32x8x3x3xbf16>) -> tensor<1x32x21x21xf32> {
  %zero = arith.constant 0.0 : f32
  %zb = arith.constant 0.0 : bf16
  %e0 = tensor.empty() : tensor<1x8x21x21xbf16>
  %xb = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x21x21xf32>) outs(%e0 : tensor<1x8x21x21xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x8x21x21xbf16>
  %p = tensor.pad %xb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zb : bf16
  } : tensor<1x8x21x21xbf16> to tensor<1x8x23x23xbf16>
  %e = tensor.empty() : tensor<1x32x21x21xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x21x21xf32>) -> tensor<1x32x21x21xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x8x23x23xbf16>, tensor<32x8x3x3xbf16>) outs(%o : tensor<1x32x21x21xf32>) -> tensor<1x32x21x21xf32>
  return %y : tensor<1x32x21x21xf32>
}

// Case 3: bf16, stride 2.
func.func @pc22_s2_bf16(%x: tensor<1x4x43x43xf32>, %w: tensor<16x4x3x3xbf16>) -> tensor<1x16x22x22xf32> {
  %zero = arith.constant 0.0 : f32
  %zb = arith.constant 0.0 : bf16
  %e0 = tensor.empty() : tensor<1x4x43x43xbf16>
  %xb = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x43x43xf32>) outs(%e0 : tensor<1x4x43x43xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x4x43x43xbf16>
  %p = tensor.pad %xb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zb : bf16
  } : tensor<1x4x43x43xbf16> to tensor<1x4x45x45xbf16>
  %e = tensor.empty() : tensor<1x16x22x22xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x22x22xf32>) -> tensor<1x16x22x22xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x4x45x45xbf16>, tensor<16x4x3x3xbf16>) outs(%o : tensor<1x16x22x22xf32>) -> tensor<1x16x22x22xf32>
  return %y : tensor<1x16x22x22xf32>
}

// Case 4: cast, pad, conv, ReLU + cast, pad, conv at 56x56.
func.func @block56(%x: tensor<1x4x56x56xf32>, %w1: tensor<16x4x3x3xbf16>, %w2: tensor<16x16x3x3xbf16>) -> tensor<1x16x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %zb = arith.constant 0.0 : bf16
  %e0 = tensor.empty() : tensor<1x4x56x56xbf16>
  %xb = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x56x56xf32>) outs(%e0 : tensor<1x4x56x56xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x4x56x56xbf16>
  %p1 = tensor.pad %xb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zb : bf16
  } : tensor<1x4x56x56xbf16> to tensor<1x4x58x58xbf16>
  %e1 = tensor.empty() : tensor<1x16x56x56xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %y1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x4x58x58xbf16>, tensor<16x4x3x3xbf16>) outs(%o1 : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %e2 = tensor.empty() : tensor<1x16x56x56xbf16>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1 : tensor<1x16x56x56xf32>) outs(%e2 : tensor<1x16x56x56xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %pos = arith.cmpf ugt, %in, %zero : f32
    %relu = arith.select %pos, %in, %zero : f32
    %t = arith.truncf %relu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x16x56x56xbf16>
  %p2 = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zb : bf16
  } : tensor<1x16x56x56xbf16> to tensor<1x16x58x58xbf16>
  %e3 = tensor.empty() : tensor<1x16x56x56xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x16x58x58xbf16>, tensor<16x16x3x3xbf16>) outs(%o2 : tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  return %y2 : tensor<1x16x56x56xf32>
}

// bf16 -> f32, exact: the reference sees the values the kernels see.
func.func @widen(%x: tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xbf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xbf16>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xbf16>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xbf16>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x?x?xbf16>) outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// ReLU, then rounded to bf16 and back (case 4's reference between the
// convolutions).
func.func @relu_bf16(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%x : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32):
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ugt, %in, %zero : f32
    %relu = arith.select %pos, %in, %zero : f32
    %t = arith.truncf %relu : f32 to bf16
    %w = arith.extf %t : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @zeros(%a: index, %b: index, %c: index, %d: index) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%a, %b, %c, %d) : tensor<?x?x?x?xf32>
  return %e : tensor<?x?x?x?xf32>
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
  %k16 = arith.constant 16 : index
  %k21 = arith.constant 21 : index
  %k22 = arith.constant 22 : index
  %k32 = arith.constant 32 : index
  %k43 = arith.constant 43 : index
  %k56 = arith.constant 56 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32

  // 1.
  %x1d = call @rand4(%k0, %k1, %k8, %k21, %k21) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w1d = call @rand4(%k1, %k16, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %x1 = tensor.cast %x1d : tensor<?x?x?x?xf32> to tensor<1x8x21x21xf32>
  %w1 = tensor.cast %w1d : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %y1 = call @pc21_f32(%x1, %w1) : (tensor<1x8x21x21xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x21x21xf32>
  %o1 = call @zeros(%k1, %k16, %k21, %k21) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %r1 = call @ref_padded(%x1d, %w1d, %o1, %k1, %zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, index, f32) -> tensor<?x?x?x?xf32>
  %y1d = tensor.cast %y1 : tensor<1x16x21x21xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @close(%y1d, %r1) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok1 : i1

  // 2.
  %x2d = call @rand4(%k2, %k1, %k8, %k21, %k21) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w2d = call @rand4(%k3, %k32, %k8, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %x2 = tensor.cast %x2d : tensor<?x?x?x?xf32> to tensor<1x8x21x21xf32>
  %w2bd = call @to_bf16(%w2d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %w2b = tensor.cast %w2bd : tensor<?x?x?x?xbf16> to tensor<32x8x3x3xbf16>
  %y2 = call @pc21_bf16(%x2, %w2b) : (tensor<1x8x21x21xf32>, tensor<32x8x3x3xbf16>) -> tensor<1x32x21x21xf32>
  %o2 = call @zeros(%k1, %k32, %k21, %k21) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %r2 = call @ref_padded(%x2d, %w2d, %o2, %k1, %zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, index, f32) -> tensor<?x?x?x?xf32>
  %y2d = tensor.cast %y2 : tensor<1x32x21x21xf32> to tensor<?x?x?x?xf32>
  %ok2 = call @close(%y2d, %r2) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok2 : i1

  // 3.
  %x3d = call @rand4(%k4, %k1, %k4, %k43, %k43) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w3d = call @rand4(%k5, %k16, %k4, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %x3 = tensor.cast %x3d : tensor<?x?x?x?xf32> to tensor<1x4x43x43xf32>
  %w3bd = call @to_bf16(%w3d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %w3b = tensor.cast %w3bd : tensor<?x?x?x?xbf16> to tensor<16x4x3x3xbf16>
  %y3 = call @pc22_s2_bf16(%x3, %w3b) : (tensor<1x4x43x43xf32>, tensor<16x4x3x3xbf16>) -> tensor<1x16x22x22xf32>
  %o3 = call @zeros(%k1, %k16, %k22, %k22) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %r3 = call @ref_padded(%x3d, %w3d, %o3, %k2, %zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, index, f32) -> tensor<?x?x?x?xf32>
  %y3d = tensor.cast %y3 : tensor<1x16x22x22xf32> to tensor<?x?x?x?xf32>
  %ok3 = call @close(%y3d, %r3) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok3 : i1

  // 4.
  %x4d = call @rand4(%k6, %k1, %k4, %k56, %k56) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w41d = call @rand4(%k7, %k16, %k4, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %w42d = call @rand4(%k8, %k16, %k16, %k3, %k3) : (index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %x4 = tensor.cast %x4d : tensor<?x?x?x?xf32> to tensor<1x4x56x56xf32>
  %w41bd = call @to_bf16(%w41d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %w42bd = call @to_bf16(%w42d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %w41b = tensor.cast %w41bd : tensor<?x?x?x?xbf16> to tensor<16x4x3x3xbf16>
  %w42b = tensor.cast %w42bd : tensor<?x?x?x?xbf16> to tensor<16x16x3x3xbf16>
  %y4 = call @block56(%x4, %w41b, %w42b) : (tensor<1x4x56x56xf32>, tensor<16x4x3x3xbf16>, tensor<16x16x3x3xbf16>) -> tensor<1x16x56x56xf32>
  %o41 = call @zeros(%k1, %k16, %k56, %k56) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %r41 = call @ref_padded(%x4d, %w41d, %o41, %k1, %zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, index, f32) -> tensor<?x?x?x?xf32>
  %h4 = call @relu_bf16(%r41) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %o42 = call @zeros(%k1, %k16, %k56, %k56) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %r42 = call @ref_padded(%h4, %w42d, %o42, %k1, %zero) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, index, f32) -> tensor<?x?x?x?xf32>
  %y4d = tensor.cast %y4 : tensor<1x16x56x56xf32> to tensor<?x?x?x?xf32>
  %ok4 = call @close(%y4d, %r42) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  vector.print %ok4 : i1

  // 5. Negative control: case 2 against a reference padding with 1/2.
  %o5 = call @zeros(%k1, %k32, %k21, %k21) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %r5 = call @ref_padded(%x2d, %w2d, %o5, %k1, %half) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, index, f32) -> tensor<?x?x?x?xf32>
  %bad = call @close(%y2d, %r5) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
