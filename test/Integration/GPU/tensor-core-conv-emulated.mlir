// Executes the implicit-GEMM convolution kernels of
// lowp-nvvm-lower-contractions (and the MFMA ones of
// lowp-rocdl-lower-contractions: the same tiling layer) on this CPU, with
// `emulate`: the kernel as loops over blocks, threads, warps and lanes, the
// input operand's chunks addressed in the 4-D input as the GPU kernel does
// (NHWC: a run of channels per output pixel and (kh, kw); NCHW: element by
// element), ldmatrix / mma.sync per lane from the PTX ISA's layouts.
//
// The reference is the same convolution on f64 operands (the operands
// widened exactly), which the pass leaves alone (not low precision): it
// runs as upstream's plain linalg loops. The operands are small integers,
// so every product and partial sum is exact in f32 and f64 alike and the
// results, rounded to bf16 where the kernel's epilogue narrows them, must
// agree exactly: the printed largest difference is 0.
//
// The padding is folded into the kernels (they read the unpadded input and
// zero-fill what lies in the border), so the pad's bounds are exercised as
// well. Shapes leave tails in M, N and K (NHWC: M = 3*8*8 = 192, F = 24,
// K = 3*3*16 = 144; NCHW: M = F = 24, N = 7*10 = 70 (not whole chunks), K = 144); strides 2
// with a tensor.pad of 1 as torch-mlir emits it, a dilation of 2, a 1x1
// convolution (a plain GEMM on the input viewed as a matrix) whose output
// starts as torch-mlir's broadcast bias, and fused epilogues (bias per
// filter, ReLU, the narrowing cast).
//
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_80 emulate" \
// RUN: | FileCheck %s --check-prefix=IR
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_80 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// sm_75 (m16n8k8, one synchronous stage; f16 only: the bf16 cases keep the
// naive loops there), sm_90a (wgmma, three swizzled stages) and gfx942
// (MFMA, the second stage through registers) run the same cases.
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_75 emulate" 2>/dev/null \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-nvvm-lower-contractions="target=sm_90a emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -convert-elementwise-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -canonicalize -lowp-rocdl-lower-contractions="target=gfx942 emulate" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// Every low-precision convolution became a kernel (only the f64 references
// are left as linalg convolutions), the epilogues were fused (no f32
// output buffer is allocated) and so was the tensor.pad (no padded copy of
// the input: the kernel reads the input and zero-fills the border).
// IR-LABEL: func.func @conv_nhwc_s2_pad
// IR-NOT: linalg.conv
// IR-NOT: memref<3x17x17x16xbf16>
// IR-NOT: memref<3x8x8x24xf32>
// IR: memref.collapse_shape {{.*}} into memref<144x24xbf16>
// IR: arith.maximumf
// IR: vector.store {{.*}} : memref<192x24xbf16>, vector<2xbf16>
// IR: return
// IR-LABEL: func.func @conv_nchw_s2_pad
// IR-NOT: linalg.conv
// IR-NOT: memref<2x16x15x21xbf16>
// IR: memref.collapse_shape {{.*}} into memref<24x144xbf16>
// IR: vector.from_elements {{.*}} : vector<8xbf16>
// IR: vector.store {{.*}} : memref<2x24x70xbf16>, vector<2xbf16>
// IR: return
// IR-LABEL: func.func @conv_nhwc_fhwc_dilated
// IR-NOT: linalg.conv
// IR: return
// The 1x1's bias initialization is evaluated per accumulator (no linalg
// op is left, C is not read).
// IR-LABEL: func.func @conv_nchw_1x1
// IR-NOT: linalg.
// IR: memref.collapse_shape {{.*}} into memref<2x16x80xf16>
// IR: memref.load %arg2[%{{.*}}] : memref<24xf32>
// IR: return

// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 1

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#last = affine_map<(a, b, c, d) -> (d)>
#second = affine_map<(a, b, c, d) -> (b)>

// NHWC, HWCF filter, pad 1, stride 2, + bias, ReLU, bf16.
func.func @conv_nhwc_s2_pad(%x: tensor<3x15x15x16xbf16>, %w: tensor<3x3x16x24xbf16>,
                            %bias: tensor<24xf32>) -> tensor<3x8x8x24xbf16> {
  %z = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : bf16
  } : tensor<3x15x15x16xbf16> to tensor<3x17x17x16xbf16>
  %e = tensor.empty() : tensor<3x8x8x24xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<3x8x8x24xf32>) -> tensor<3x8x8x24xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<3x17x17x16xbf16>, tensor<3x3x16x24xbf16>)
         outs(%f : tensor<3x8x8x24xf32>) -> tensor<3x8x8x24xf32>
  %o = tensor.empty() : tensor<3x8x8x24xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #last, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<3x8x8x24xf32>, tensor<24xf32>) outs(%o : tensor<3x8x8x24xbf16>) {
  ^bb0(%v: f32, %b: f32, %out: bf16):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x8x8x24xbf16>
  return %r : tensor<3x8x8x24xbf16>
}
func.func @ref_nhwc_s2_pad(%x: tensor<3x15x15x16xf64>, %w: tensor<3x3x16x24xf64>,
                           %bias: tensor<24xf64>) -> tensor<3x8x8x24xbf16> {
  %z = arith.constant 0.0 : f64
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f64
  } : tensor<3x15x15x16xf64> to tensor<3x17x17x16xf64>
  %e = tensor.empty() : tensor<3x8x8x24xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<3x8x8x24xf64>) -> tensor<3x8x8x24xf64>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<3x17x17x16xf64>, tensor<3x3x16x24xf64>)
         outs(%f : tensor<3x8x8x24xf64>) -> tensor<3x8x8x24xf64>
  %o = tensor.empty() : tensor<3x8x8x24xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #last, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<3x8x8x24xf64>, tensor<24xf64>) outs(%o : tensor<3x8x8x24xbf16>) {
  ^bb0(%v: f64, %b: f64, %out: bf16):
    %s = arith.addf %v, %b : f64
    %m = arith.maximumf %s, %z : f64
    %t = arith.truncf %m : f64 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x8x8x24xbf16>
  return %r : tensor<3x8x8x24xbf16>
}

// NCHW, FCHW filter (torch-mlir's layout), pad 1, stride 2, + bias per
// output channel, bf16.
func.func @conv_nchw_s2_pad(%x: tensor<2x16x13x19xbf16>, %w: tensor<24x16x3x3xbf16>,
                            %bias: tensor<24xf32>) -> tensor<2x24x7x10xbf16> {
  %z = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : bf16
  } : tensor<2x16x13x19xbf16> to tensor<2x16x15x21xbf16>
  %e = tensor.empty() : tensor<2x24x7x10xf32>
  %f = linalg.fill ins(%zf : f32) outs(%e : tensor<2x24x7x10xf32>) -> tensor<2x24x7x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x16x15x21xbf16>, tensor<24x16x3x3xbf16>)
         outs(%f : tensor<2x24x7x10xf32>) -> tensor<2x24x7x10xf32>
  %o = tensor.empty() : tensor<2x24x7x10xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #second, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x24x7x10xf32>, tensor<24xf32>) outs(%o : tensor<2x24x7x10xbf16>) {
  ^bb0(%v: f32, %b: f32, %out: bf16):
    %s = arith.addf %v, %b : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x24x7x10xbf16>
  return %r : tensor<2x24x7x10xbf16>
}
func.func @ref_nchw_s2_pad(%x: tensor<2x16x13x19xf64>, %w: tensor<24x16x3x3xf64>,
                           %bias: tensor<24xf64>) -> tensor<2x24x7x10xbf16> {
  %z = arith.constant 0.0 : f64
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f64
  } : tensor<2x16x13x19xf64> to tensor<2x16x15x21xf64>
  %e = tensor.empty() : tensor<2x24x7x10xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<2x24x7x10xf64>) -> tensor<2x24x7x10xf64>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x16x15x21xf64>, tensor<24x16x3x3xf64>)
         outs(%f : tensor<2x24x7x10xf64>) -> tensor<2x24x7x10xf64>
  %o = tensor.empty() : tensor<2x24x7x10xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #second, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x24x7x10xf64>, tensor<24xf64>) outs(%o : tensor<2x24x7x10xbf16>) {
  ^bb0(%v: f64, %b: f64, %out: bf16):
    %s = arith.addf %v, %b : f64
    %t = arith.truncf %s : f64 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x24x7x10xbf16>
  return %r : tensor<2x24x7x10xbf16>
}

// NHWC, FHWC filter ([n][k] B), dilation 2, f16, C += conv (accumulates
// into its initial value).
func.func @conv_nhwc_fhwc_dilated(%x: tensor<2x12x13x8xf16>, %w: tensor<16x3x3x8xf16>,
                                  %acc: tensor<2x8x9x16xf32>) -> tensor<2x8x9x16xf32> {
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x12x13x8xf16>, tensor<16x3x3x8xf16>)
         outs(%acc : tensor<2x8x9x16xf32>) -> tensor<2x8x9x16xf32>
  return %c : tensor<2x8x9x16xf32>
}
func.func @ref_nhwc_fhwc_dilated(%x: tensor<2x12x13x8xf64>, %w: tensor<16x3x3x8xf64>,
                                 %acc: tensor<2x8x9x16xf64>) -> tensor<2x8x9x16xf64> {
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x12x13x8xf64>, tensor<16x3x3x8xf64>)
         outs(%acc : tensor<2x8x9x16xf64>) -> tensor<2x8x9x16xf64>
  return %c : tensor<2x8x9x16xf64>
}

// NCHW 1x1, stride 1: a plain batched GEMM, f16, its output initialized
// with the broadcast bias as torch-mlir does (computed in the kernel's
// registers).
func.func @conv_nchw_1x1(%x: tensor<2x16x8x10xf16>, %w: tensor<24x16x1x1xf16>, %bias: tensor<24xf32>) -> tensor<2x24x8x10xf32> {
  %e = tensor.empty() : tensor<2x24x8x10xf32>
  %f = linalg.generic {indexing_maps = [#second, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<24xf32>) outs(%e : tensor<2x24x8x10xf32>) {
  ^bb0(%b: f32, %out: f32):
    linalg.yield %b : f32
  } -> tensor<2x24x8x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x16x8x10xf16>, tensor<24x16x1x1xf16>)
         outs(%f : tensor<2x24x8x10xf32>) -> tensor<2x24x8x10xf32>
  return %c : tensor<2x24x8x10xf32>
}
func.func @ref_nchw_1x1(%x: tensor<2x16x8x10xf64>, %w: tensor<24x16x1x1xf64>, %bias: tensor<24xf64>) -> tensor<2x24x8x10xf64> {
  %e = tensor.empty() : tensor<2x24x8x10xf64>
  %f = linalg.generic {indexing_maps = [#second, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<24xf64>) outs(%e : tensor<2x24x8x10xf64>) {
  ^bb0(%b: f64, %out: f64):
    linalg.yield %b : f64
  } -> tensor<2x24x8x10xf64>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x16x8x10xf64>, tensor<24x16x1x1xf64>)
         outs(%f : tensor<2x24x8x10xf64>) -> tensor<2x24x8x10xf64>
  return %c : tensor<2x24x8x10xf64>
}

// t[i0][i1][i2][i3] = ((((i0 * 7 + i1) * 5 + i2) * 3 + i3 + seed) mod 11) - 5:
// integers in [-5, 5], exact in every format here.
func.func @pattern(%seed: index, %e: tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%out: f64):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c5 = arith.constant 5 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.addi %a, %i1 : index
    %c = arith.muli %b, %c5 : index
    %d = arith.addi %c, %i2 : index
    %g = arith.muli %d, %c3 : index
    %h = arith.addi %g, %i3 : index
    %k = arith.addi %h, %seed : index
    %m = arith.remui %k, %c11 : index
    %v = arith.subi %m, %c5 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f64
    linalg.yield %vf : f64
  } -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
func.func @gen(%seed: index, %d0: index, %d1: index, %d2: index, %d3: index) -> tensor<?x?x?x?xf64> {
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf64>
  %r = func.call @pattern(%seed, %e) : (index, tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
// The largest |x - y|.
func.func @maxdiff(%x: tensor<?x?x?x?xf64>, %y: tensor<?x?x?x?xf64>) -> f64 {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.generic {indexing_maps = [#id4, #id4, affine_map<(a, b, c, d) -> ()>],
                       iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %y : tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) outs(%f : tensor<f64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %d = arith.subf %a, %b : f64
    %ad = math.absf %d : f64
    %mx = arith.maximumf %acc, %ad : f64
    linalg.yield %mx : f64
  } -> tensor<f64>
  %v = tensor.extract %r[] : tensor<f64>
  return %v : f64
}
func.func @widen_bf16(%x: tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xbf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xbf16>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xbf16>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xbf16>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf64>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x?x?xbf16>) outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%a: bf16, %o: f64):
    %w = arith.extf %a : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
func.func @widen_f32(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf64>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c19 = arith.constant 19 : index
  %c24 = arith.constant 24 : index
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 4 : index
  %s3 = arith.constant 9 : index

  // Case 1: NHWC, pad 1, stride 2, fused bias + ReLU + bf16.
  %x1d = func.call @gen(%s1, %c3, %c15, %c15, %c16) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %w1d = func.call @gen(%s2, %c3, %c3, %c16, %c24) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %b1d = func.call @gen(%s3, %c1, %c1, %c1, %c24) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %x1 = tensor.cast %x1d : tensor<?x?x?x?xf64> to tensor<3x15x15x16xf64>
  %w1 = tensor.cast %w1d : tensor<?x?x?x?xf64> to tensor<3x3x16x24xf64>
  %b1c = tensor.cast %b1d : tensor<?x?x?x?xf64> to tensor<1x1x1x24xf64>
  %b1 = tensor.collapse_shape %b1c [[0, 1, 2, 3]] : tensor<1x1x1x24xf64> into tensor<24xf64>
  %x1h = arith.truncf %x1 : tensor<3x15x15x16xf64> to tensor<3x15x15x16xbf16>
  %w1h = arith.truncf %w1 : tensor<3x3x16x24xf64> to tensor<3x3x16x24xbf16>
  %b1f = arith.truncf %b1 : tensor<24xf64> to tensor<24xf32>
  %k1 = func.call @conv_nhwc_s2_pad(%x1h, %w1h, %b1f) : (tensor<3x15x15x16xbf16>, tensor<3x3x16x24xbf16>, tensor<24xf32>) -> tensor<3x8x8x24xbf16>
  %r1 = func.call @ref_nhwc_s2_pad(%x1, %w1, %b1) : (tensor<3x15x15x16xf64>, tensor<3x3x16x24xf64>, tensor<24xf64>) -> tensor<3x8x8x24xbf16>
  %k1d = tensor.cast %k1 : tensor<3x8x8x24xbf16> to tensor<?x?x?x?xbf16>
  %r1d = tensor.cast %r1 : tensor<3x8x8x24xbf16> to tensor<?x?x?x?xbf16>
  %k1w = func.call @widen_bf16(%k1d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %r1w = func.call @widen_bf16(%r1d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %e1 = func.call @maxdiff(%k1w, %r1w) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  vector.print %e1 : f64

  // Case 2: NCHW, pad 1, stride 2, fused bias + bf16.
  %x2d = func.call @gen(%s1, %c2, %c16, %c13, %c19) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %w2d = func.call @gen(%s2, %c24, %c16, %c3, %c3) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %x2 = tensor.cast %x2d : tensor<?x?x?x?xf64> to tensor<2x16x13x19xf64>
  %w2 = tensor.cast %w2d : tensor<?x?x?x?xf64> to tensor<24x16x3x3xf64>
  %x2h = arith.truncf %x2 : tensor<2x16x13x19xf64> to tensor<2x16x13x19xbf16>
  %w2h = arith.truncf %w2 : tensor<24x16x3x3xf64> to tensor<24x16x3x3xbf16>
  %k2 = func.call @conv_nchw_s2_pad(%x2h, %w2h, %b1f) : (tensor<2x16x13x19xbf16>, tensor<24x16x3x3xbf16>, tensor<24xf32>) -> tensor<2x24x7x10xbf16>
  %r2 = func.call @ref_nchw_s2_pad(%x2, %w2, %b1) : (tensor<2x16x13x19xf64>, tensor<24x16x3x3xf64>, tensor<24xf64>) -> tensor<2x24x7x10xbf16>
  %k2d = tensor.cast %k2 : tensor<2x24x7x10xbf16> to tensor<?x?x?x?xbf16>
  %r2d = tensor.cast %r2 : tensor<2x24x7x10xbf16> to tensor<?x?x?x?xbf16>
  %k2w = func.call @widen_bf16(%k2d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %r2w = func.call @widen_bf16(%r2d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %e2 = func.call @maxdiff(%k2w, %r2w) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  vector.print %e2 : f64

  // Case 3: NHWC, FHWC filter, dilation 2, f16, C += conv.
  %x3d = func.call @gen(%s1, %c2, %c12, %c13, %c8) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %w3d = func.call @gen(%s2, %c16, %c3, %c3, %c8) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %a3d = func.call @gen(%s3, %c2, %c8, %c9, %c16) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %x3 = tensor.cast %x3d : tensor<?x?x?x?xf64> to tensor<2x12x13x8xf64>
  %w3 = tensor.cast %w3d : tensor<?x?x?x?xf64> to tensor<16x3x3x8xf64>
  %a3 = tensor.cast %a3d : tensor<?x?x?x?xf64> to tensor<2x8x9x16xf64>
  %x3h = arith.truncf %x3 : tensor<2x12x13x8xf64> to tensor<2x12x13x8xf16>
  %w3h = arith.truncf %w3 : tensor<16x3x3x8xf64> to tensor<16x3x3x8xf16>
  %a3f = arith.truncf %a3 : tensor<2x8x9x16xf64> to tensor<2x8x9x16xf32>
  %k3 = func.call @conv_nhwc_fhwc_dilated(%x3h, %w3h, %a3f) : (tensor<2x12x13x8xf16>, tensor<16x3x3x8xf16>, tensor<2x8x9x16xf32>) -> tensor<2x8x9x16xf32>
  %r3 = func.call @ref_nhwc_fhwc_dilated(%x3, %w3, %a3) : (tensor<2x12x13x8xf64>, tensor<16x3x3x8xf64>, tensor<2x8x9x16xf64>) -> tensor<2x8x9x16xf64>
  %k3d = tensor.cast %k3 : tensor<2x8x9x16xf32> to tensor<?x?x?x?xf32>
  %k3w = func.call @widen_f32(%k3d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf64>
  %r3d = tensor.cast %r3 : tensor<2x8x9x16xf64> to tensor<?x?x?x?xf64>
  %e3 = func.call @maxdiff(%k3w, %r3d) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  vector.print %e3 : f64

  // Case 4: NCHW 1x1, output initialized with the broadcast bias.
  %x4d = func.call @gen(%s1, %c2, %c16, %c8, %c10) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %w4d = func.call @gen(%s2, %c24, %c16, %c1, %c1) : (index, index, index, index, index) -> tensor<?x?x?x?xf64>
  %x4 = tensor.cast %x4d : tensor<?x?x?x?xf64> to tensor<2x16x8x10xf64>
  %w4 = tensor.cast %w4d : tensor<?x?x?x?xf64> to tensor<24x16x1x1xf64>
  %x4h = arith.truncf %x4 : tensor<2x16x8x10xf64> to tensor<2x16x8x10xf16>
  %w4h = arith.truncf %w4 : tensor<24x16x1x1xf64> to tensor<24x16x1x1xf16>
  %k4 = func.call @conv_nchw_1x1(%x4h, %w4h, %b1f) : (tensor<2x16x8x10xf16>, tensor<24x16x1x1xf16>, tensor<24xf32>) -> tensor<2x24x8x10xf32>
  %r4 = func.call @ref_nchw_1x1(%x4, %w4, %b1) : (tensor<2x16x8x10xf64>, tensor<24x16x1x1xf64>, tensor<24xf64>) -> tensor<2x24x8x10xf64>
  %k4d = tensor.cast %k4 : tensor<2x24x8x10xf32> to tensor<?x?x?x?xf32>
  %k4w = func.call @widen_f32(%k4d) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf64>
  %r4d = tensor.cast %r4 : tensor<2x24x8x10xf64> to tensor<?x?x?x?xf64>
  %e4 = func.call @maxdiff(%k4w, %r4d) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  vector.print %e4 : f64

  // Negative control: the NCHW kernel against a reference with the
  // filter's kh and kw swapped must differ.
  %w2e = tensor.empty() : tensor<24x16x3x3xf64>
  %w2t = linalg.transpose ins(%w2 : tensor<24x16x3x3xf64>) outs(%w2e : tensor<24x16x3x3xf64>) permutation = [0, 1, 3, 2]
  %r5 = func.call @ref_nchw_s2_pad(%x2, %w2t, %b1) : (tensor<2x16x13x19xf64>, tensor<24x16x3x3xf64>, tensor<24xf64>) -> tensor<2x24x7x10xbf16>
  %r5d = tensor.cast %r5 : tensor<2x24x7x10xbf16> to tensor<?x?x?x?xbf16>
  %r5w = func.call @widen_bf16(%r5d) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf64>
  %e5 = func.call @maxdiff(%k2w, %r5w) : (tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64>) -> f64
  %zero = arith.constant 0.0 : f64
  %differs = arith.cmpf ogt, %e5, %zero : f64
  vector.print %differs : i1
  return
}
