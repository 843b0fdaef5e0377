// 2-D convolutions with 16-bit or FP8 operands become implicit-GEMM
// tensor-core kernels (the input's chunks addressed in the 4-D input, the
// filter and output viewed as matrices); those the kernel cannot take keep
// their linalg op (the naive mapping computes them) with a remark naming
// the op and the reason. f32 convolutions are not this pass's business.
// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-nvvm-lower-contractions=target=sm_80 | FileCheck %s

// NHWC / HWCF, stride 2: the filter is viewed as [KH*KW*C][F] and the
// output as [N*OH*OW][F]; the input stays 4-D (the kernel computes each
// chunk's pixel). Grid: F / 128 x ceil(2*7*7 / 128) blocks.
// CHECK-LABEL: func.func @nhwc
// CHECK-NOT: linalg.conv
// CHECK: gpu.launch_func @nhwc_mma_sync::@nhwc_mma_sync blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in
// CHECK-SAME: args(%{{.*}} : memref<2x15x15x64xbf16>, %{{.*}} : memref<3x3x64x128xbf16>, %{{.*}} : memref<2x7x7x128xf32>)
// CHECK: gpu.module @nhwc_mma_sync
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<3x3x64x128xbf16> into memref<576x128xbf16>
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<2x7x7x128xf32> into memref<98x128xf32>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}, 8, %{{.*}} {bypassL1} : memref<2x15x15x64xbf16> to memref<2x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.mma.sync
func.func @nhwc(%x: memref<2x15x15x64xbf16>, %w: memref<3x3x64x128xbf16>, %c: memref<2x7x7x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x15x15x64xbf16>, memref<3x3x64x128xbf16>) outs(%c : memref<2x7x7x128xf32>)
  return
}

// -----

// NCHW / FCHW: per image (grid z), the filter [F][C*KH*KW] times the
// input, gathered element by element into the B stage; the output viewed
// as [N][F][OH*OW].
// CHECK-LABEL: func.func @nchw
// CHECK-NOT: linalg.conv
// CHECK: gpu.module @nchw_mma_sync
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : memref<64x32x3x3xbf16> into memref<64x288xbf16>
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<2x64x6x7xf32> into memref<2x64x42xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x32x13x15xbf16>
// CHECK: vector.from_elements {{.*}} : vector<8xbf16>
func.func @nchw(%x: memref<2x32x13x15xbf16>, %w: memref<64x32x3x3xbf16>, %c: memref<2x64x6x7xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x32x13x15xbf16>, memref<64x32x3x3xbf16>) outs(%c : memref<2x64x6x7xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @nchw_odd_pixels
// CHECK: linalg.conv_2d_nchw_fchw
func.func @nchw_odd_pixels(%x: memref<2x32x9x9xbf16>, %w: memref<64x32x3x3xbf16>, %c: memref<2x64x7x7xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.conv_2d_nchw_fchw' on sm_80: C*KH*KW (288) must be a multiple of 8 (16-byte rows of the filter) and OH*OW (49 output pixels) even; it runs on the naive kernel}}
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x32x9x9xbf16>, memref<64x32x3x3xbf16>) outs(%c : memref<2x64x7x7xf32>)
  return
}

// -----

// An RGB stem: 3 channels per pixel are not a 16-byte run.
// CHECK-LABEL: func.func @nhwc_three_channels
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @nhwc_three_channels(%x: memref<1x18x18x3xbf16>, %w: memref<3x3x3x64xbf16>, %c: memref<1x16x16x64xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.conv_2d_nhwc_hwcf' on sm_80: C (3 channels) must be a multiple of 8 (the implicit GEMM stages 16-byte runs of channels); it runs on the naive kernel}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x18x18x3xbf16>, memref<3x3x3x64xbf16>) outs(%c : memref<1x16x16x64xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @nhwc_odd_filters
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @nhwc_odd_filters(%x: memref<1x10x10x16xbf16>, %w: memref<3x3x16x20xbf16>, %c: memref<1x8x8x20xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.conv_2d_nhwc_hwcf' on sm_80: F (20 filters) and KH*KW*C (144) must be multiples of 8 (16-byte rows of the implicit GEMM); it runs on the naive kernel}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x16xbf16>, memref<3x3x16x20xbf16>) outs(%c : memref<1x8x8x20xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise(%x: memref<1x10x10x32xbf16>, %w: memref<3x3x32xbf16>, %c: memref<1x8x8x32xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.depthwise_conv_2d_nhwc_hwc' on sm_80: the implicit GEMM takes linalg.conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc and conv_2d_nchw_fchw (not depthwise, grouped, quantized, 1-D or 3-D convolutions, nor generic ones); it runs on the naive kernel}}
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x32xbf16>, memref<3x3x32xbf16>) outs(%c : memref<1x8x8x32xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @grouped
// CHECK: linalg.conv_2d_ngchw_fgchw
func.func @grouped(%x: memref<1x2x16x10x10xbf16>, %w: memref<32x2x16x3x3xbf16>, %c: memref<1x2x32x8x8xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.conv_2d_ngchw_fgchw' on sm_80: the implicit GEMM takes linalg.conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc and conv_2d_nchw_fchw}}
  linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x2x16x10x10xbf16>, memref<32x2x16x3x3xbf16>) outs(%c : memref<1x2x32x8x8xf32>)
  return
}

// -----

// torch-mlir's dynamic batch.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK: linalg.conv_2d_nchw_fchw
func.func @dynamic_batch(%x: memref<?x32x10x10xbf16>, %w: memref<64x32x3x3xbf16>, %c: memref<?x64x8x8xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.conv_2d_nchw_fchw' on sm_80: an operand is not a statically shaped, row-major buffer; it runs on the naive kernel}}
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x32x10x10xbf16>, memref<64x32x3x3xbf16>) outs(%c : memref<?x64x8x8xf32>)
  return
}

// -----

// A product rounded to bf16 before the sum is not what the tensor cores
// compute.
// CHECK-LABEL: func.func @rounded_product
// CHECK: linalg.generic
#in = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh + kh, ow + kw, c)>
#fil = affine_map<(n, oh, ow, f, kh, kw, c) -> (kh, kw, c, f)>
#out = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh, ow, f)>
func.func @rounded_product(%x: memref<1x10x10x16xbf16>, %w: memref<3x3x16x32xbf16>, %c: memref<1x8x8x32xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.generic' on sm_80: not a multiply-accumulate convolution (acc + extf(a) * extf(b)); it runs on the naive kernel}}
  linalg.generic {indexing_maps = [#in, #fil, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x10x10x16xbf16>, memref<3x3x16x32xbf16>) outs(%c : memref<1x8x8x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %p = arith.mulf %a, %b : bf16
    %pf = arith.extf %p : bf16 to f32
    %s = arith.addf %acc, %pf : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// f32 convolutions are not this pass's business: no remark.
// CHECK-LABEL: func.func @f32
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @f32(%x: memref<1x10x10x16xf32>, %w: memref<3x3x16x32xf32>, %c: memref<1x8x8x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3x16x32xf32>) outs(%c : memref<1x8x8x32xf32>)
  return
}

// -----

// A bufferized tensor.pad (zero fill, copy into the interior) right before
// the convolution is folded into the kernel: it reads %x itself, the
// padded temporary, its fill and copy are gone.
// CHECK-LABEL: func.func @pad_folded
// CHECK-NOT: memref.alloc() : memref<1x18x18x16xbf16>
// CHECK-NOT: memref.copy
// CHECK: gpu.launch_func @pad_folded_mma_sync::@pad_folded_mma_sync
// CHECK-SAME: args(%{{.*}} : memref<1x16x16x16xbf16>, %{{.*}} : memref<3x3x16x32xbf16>
// CHECK: gpu.module @pad_folded_mma_sync
// CHECK: arith.subi %{{.*}}, %c1{{.*}} : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}, 8, %{{.*}} {bypassL1} : memref<1x16x16x16xbf16> to
func.func @pad_folded(%x: memref<1x16x16x16xbf16>, %w: memref<3x3x16x32xbf16>, %c: memref<1x8x8x32xf32>) {
  %z = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x18x18x16xbf16>
  linalg.fill ins(%z : bf16) outs(%p : memref<1x18x18x16xbf16>)
  %in = memref.subview %p[0, 1, 1, 0] [1, 16, 16, 16] [1, 1, 1, 1]
      : memref<1x18x18x16xbf16> to memref<1x16x16x16xbf16, strided<[5184, 288, 16, 1], offset: 304>>
  memref.copy %x, %in : memref<1x16x16x16xbf16> to memref<1x16x16x16xbf16, strided<[5184, 288, 16, 1], offset: 304>>
  linalg.fill ins(%zf : f32) outs(%c : memref<1x8x8x32xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%p, %w : memref<1x18x18x16xbf16>, memref<3x3x16x32xbf16>) outs(%c : memref<1x8x8x32xf32>)
  memref.dealloc %p : memref<1x18x18x16xbf16>
  return
}

// -----

// Not folded (but still a kernel, on the padded copy): something writes the
// copy's source between the copy and the convolution, so the convolution
// must see the values copied before.
// CHECK-LABEL: func.func @pad_source_written
// CHECK: memref.copy
// CHECK: linalg.fill ins(%{{.*}} : bf16) outs(%arg0 : memref<1x16x16x16xbf16>)
// CHECK: gpu.launch_func @pad_source_written_mma_sync::@pad_source_written_mma_sync
// CHECK-SAME: args(%{{.*}} : memref<1x18x18x16xbf16>
func.func @pad_source_written(%x: memref<1x16x16x16xbf16>, %w: memref<3x3x16x32xbf16>, %c: memref<1x8x8x32xf32>) {
  %z = arith.constant 0.0 : bf16
  %one = arith.constant 1.0 : bf16
  %p = memref.alloc() : memref<1x18x18x16xbf16>
  linalg.fill ins(%z : bf16) outs(%p : memref<1x18x18x16xbf16>)
  %in = memref.subview %p[0, 1, 1, 0] [1, 16, 16, 16] [1, 1, 1, 1]
      : memref<1x18x18x16xbf16> to memref<1x16x16x16xbf16, strided<[5184, 288, 16, 1], offset: 304>>
  memref.copy %x, %in : memref<1x16x16x16xbf16> to memref<1x16x16x16xbf16, strided<[5184, 288, 16, 1], offset: 304>>
  linalg.fill ins(%one : bf16) outs(%x : memref<1x16x16x16xbf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%p, %w : memref<1x18x18x16xbf16>, memref<3x3x16x32xbf16>) outs(%c : memref<1x8x8x32xf32>)
  memref.dealloc %p : memref<1x18x18x16xbf16>
  return
}

// -----

// Not folded: a padding of the channels is not a border of pixels.
// CHECK-LABEL: func.func @pad_channels
// CHECK: memref.copy
// CHECK: gpu.launch_func @pad_channels_mma_sync::@pad_channels_mma_sync
// CHECK-SAME: args(%{{.*}} : memref<1x16x16x16xbf16>
func.func @pad_channels(%x: memref<1x16x16x8xbf16>, %w: memref<3x3x16x32xbf16>, %c: memref<1x7x7x32xf32>) {
  %z = arith.constant 0.0 : bf16
  %p = memref.alloc() : memref<1x16x16x16xbf16>
  linalg.fill ins(%z : bf16) outs(%p : memref<1x16x16x16xbf16>)
  %in = memref.subview %p[0, 0, 0, 0] [1, 16, 16, 8] [1, 1, 1, 1]
      : memref<1x16x16x16xbf16> to memref<1x16x16x8xbf16, strided<[4096, 256, 16, 1]>>
  memref.copy %x, %in : memref<1x16x16x8xbf16> to memref<1x16x16x8xbf16, strided<[4096, 256, 16, 1]>>
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%p, %w : memref<1x16x16x16xbf16>, memref<3x3x16x32xbf16>) outs(%c : memref<1x7x7x32xf32>)
  memref.dealloc %p : memref<1x16x16x16xbf16>
  return
}

// -----

// C initialized with a broadcast bias (torch-mlir's aten.linear and
// aten.convolution): the kernel evaluates the initializer per accumulator
// (a load of the bias) instead of reading C; the generic goes.
#bias_row = affine_map<(i, j) -> (j)>
#id2 = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @matmul_bias_init
// CHECK-NOT: linalg.
// CHECK: gpu.launch_func @matmul_bias_init_mma_sync::@matmul_bias_init_mma_sync
// CHECK-SAME: args(%{{.*}} : memref<64x32xbf16>, %{{.*}} : memref<32x48xbf16>, %{{.*}} : memref<48xf32>, %{{.*}} : memref<64x48xf32>)
// CHECK: gpu.module @matmul_bias_init_mma_sync
// CHECK: memref.load %arg2[%{{.*}}] : memref<48xf32>
// CHECK-NOT: memref.load %arg3
func.func @matmul_bias_init(%a: memref<64x32xbf16>, %b: memref<32x48xbf16>, %bias: memref<48xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [#bias_row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x48xbf16>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// An op before the contraction that reads C's old values is not an
// initializer: it stays, and the kernel reads C.
#bias_row = affine_map<(i, j) -> (j)>
#id2 = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @matmul_accumulating_init
// CHECK: linalg.generic
// CHECK: gpu.launch_func @matmul_accumulating_init_mma_sync::@matmul_accumulating_init_mma_sync
// CHECK-SAME: args(%{{.*}} : memref<64x32xbf16>, %{{.*}} : memref<32x48xbf16>, %{{.*}} : memref<64x48xf32>)
func.func @matmul_accumulating_init(%a: memref<64x32xbf16>, %b: memref<32x48xbf16>, %bias: memref<48xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [#bias_row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x48xbf16>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// A bf16 pooling window is a convolution to linalg but no product.
// CHECK-LABEL: func.func @pooling
// CHECK: linalg.pooling_nhwc_sum
func.func @pooling(%x: memref<1x10x10x16xbf16>, %w: memref<3x3xbf16>, %c: memref<1x8x8x16xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.pooling_nhwc_sum' on sm_80: not a multiply-accumulate convolution (acc + extf(a) * extf(b)); it runs on the naive kernel}}
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x16xbf16>, memref<3x3xbf16>) outs(%c : memref<1x8x8x16xf32>)
  return
}

// -----

// A convolution written as a generic (the exact product sum): the implicit
// GEMM reads the named ops' layouts only.
#in = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh + kh, ow + kw, c)>
#fil = affine_map<(n, oh, ow, f, kh, kw, c) -> (kh, kw, c, f)>
#out = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh, ow, f)>
// CHECK-LABEL: func.func @generic_conv
// CHECK: linalg.generic
func.func @generic_conv(%x: memref<1x10x10x16xbf16>, %w: memref<3x3x16x32xbf16>, %c: memref<1x8x8x32xf32>) {
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.generic' on sm_80: the implicit GEMM takes linalg.conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc and conv_2d_nchw_fchw (not depthwise, grouped, quantized, 1-D or 3-D convolutions, nor generic ones); it runs on the naive kernel}}
  linalg.generic {indexing_maps = [#in, #fil, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x10x10x16xbf16>, memref<3x3x16x32xbf16>) outs(%c : memref<1x8x8x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
