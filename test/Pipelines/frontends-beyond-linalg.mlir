// Front-end IR that is not pure linalg, in the shapes LLM and model
// compilers export (torch-mlir, IREE, StableHLO): a decoder step whose KV
// cache is a memref updated in place by vector/memref/affine code next to
// linalg on tensors; a fused QKV projection split by tensor.extract_slice
// and memref.subview (strided views) feeding transposes, reshapes and
// contractions; ml_program globals; cf.assert shape checks; a
// dense_resource weight; dynamic shapes. Every pipeline compiles each
// split, or rejects it with one located error (the TPU pipeline, dynamic matmuls).
// Unregistered ops: frontends-beyond-linalg-invalid.mlir.
//
// The decision pipeline decides the tensor code and leaves the buffer
// code (cache writes, counters, linalg on memrefs) as it is:
// RUN: fp-opt %s -split-input-file -verify-each --lowp-auto-mixed-precision="target=sm_90" | FileCheck %s --check-prefixes=AMP,AMP-BF16
// RUN: fp-opt %s -split-input-file -verify-each --lowp-auto-mixed-precision="target=gfx942 policy=fp8" | FileCheck %s --check-prefixes=AMP,AMP-FP8
// RUN: fp-opt %s -split-input-file -verify-each --lowp-auto-mixed-precision="target=tpu-v5e" | FileCheck %s --check-prefixes=AMP,AMP-BF16
// RUN: fp-opt %s -split-input-file -verify-each --lowp-auto-mixed-precision="target=avx2" 2>/dev/null | FileCheck %s --check-prefixes=AMP,AMP-F32
//
// Every lowering, with no error (x86: remarks name the strided views that
// take scalar loops); decided first, then lowered, too.
// RUN: fp-opt %s -split-input-file -verify-each -lowp-pipeline-x86=target=avx2 -mlir-print-op-on-diagnostic=false 2>%t.x86.diag | FileCheck %s --check-prefixes=LLVM --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=X86-DIAG --implicit-check-not="strided<[96, 16, 1]>>" < %t.x86.diag
// RUN: fp-opt %s -split-input-file --lowp-auto-mixed-precision="target=sapphirerapids" -lowp-pipeline-x86=target=sapphirerapids 2>%t.spr.diag | FileCheck %s --check-prefixes=LLVM --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=NO-ERROR --allow-empty < %t.spr.diag
// RUN: fp-opt %s -split-input-file -verify-each -lowp-pipeline-nvvm=target=sm_90 2>%t.nvvm.diag | FileCheck %s --check-prefixes=LLVM --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=NO-ERROR --allow-empty < %t.nvvm.diag
// RUN: fp-opt %s -split-input-file --lowp-auto-mixed-precision="target=sm_90" -lowp-pipeline-nvvm=target=sm_90 2>%t.nvvm-amp.diag | FileCheck %s --check-prefixes=LLVM --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=NO-ERROR --allow-empty < %t.nvvm-amp.diag
// RUN: fp-opt %s -split-input-file -verify-each -lowp-pipeline-rocdl=target=gfx942 2>%t.rocdl.diag | FileCheck %s --check-prefixes=LLVM --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=NO-ERROR --allow-empty < %t.rocdl.diag
// RUN: fp-opt %s -split-input-file --lowp-auto-mixed-precision="target=gfx942 policy=fp8" -lowp-pipeline-rocdl=target=gfx942 2>%t.rocdl-amp.diag | FileCheck %s --check-prefixes=LLVM --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=NO-ERROR --allow-empty < %t.rocdl-amp.diag
//
// The TPU pipeline pads and tiles static matrix shapes only: it compiles
// every split but the dynamic matmul, which it rejects with one located
// error (and exits non-zero).
// RUN: not fp-opt %s -split-input-file -verify-each -lowp-pipeline-tpu=target=tpu-v5e -mlir-print-op-on-diagnostic=false 2>%t.tpu.diag | FileCheck %s --check-prefixes=TPU --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=TPU-DIAG < %t.tpu.diag
// RUN: not fp-opt %s -split-input-file --lowp-auto-mixed-precision="target=tpu-v5e" -lowp-pipeline-tpu=target=tpu-v5e -mlir-print-op-on-diagnostic=false 2>%t.tpu-amp.diag | FileCheck %s --check-prefixes=TPU --implicit-check-not="{{ (linalg|memref|affine|ml_program|bufferization|scf|vector|tensor|cf)\.}}"
// RUN: FileCheck %s --check-prefix=TPU-DIAG < %t.tpu-amp.diag

// NO-ERROR-NOT: error

// X86-DIAG-NOT: error
// The head split's transposes read their strided views: [1, 0, 2]
// contiguously along the innermost loop (vector loops), [1, 2, 0], which
// moves the innermost dimension, as register-blocked transposes (since the
// fifteenth session; scalar loops before): no remark for
// 'memref<8x2x16xf32, strided<[96, 16, 1]>>'. The matmul reading a
// strided view still takes the loop path.
// X86-DIAG-NOT: 'memref<8x2x16xf32, strided<[96, 16, 1], offset: 32>>'
// X86-DIAG-DAG: remark: slow path: scalar loops, operand #0 is a strided view ('memref<8x32xf32, strided<[96, 1], offset: 32>>')
// X86-DIAG-DAG: remark: generic loop path for 'linalg.matmul': operands are not static identity-layout memrefs
// X86-DIAG-NOT: error

// TPU-DIAG-NOT: error
// TPU-DIAG: error: 'linalg.matmul' op has dynamic shapes: lowp-tile-for-mxu pads and tiles static shapes only
// TPU-DIAG-NOT: error


// A decoder step as LLM compilers export it: projections in linalg on
// tensors, the KV cache a memref updated in place (vector writes at the
// step's position, an affine loop for the position counter), attention over
// the cache read back as a tensor.
// AMP-LABEL: func.func @decoder_step
// AMP-BF16-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x64xbf16>, tensor<64x64xbf16>) outs(%{{.*}} : tensor<1x64xf32>)
// AMP-FP8-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x64xf8E4M3FNUZ>, tensor<64x64xf8E4M3FNUZ>) outs(%{{.*}} : tensor<1x64xf32>)
// AMP-F32-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x64xf32>, tensor<64x64xf32>) outs(%{{.*}} : tensor<1x64xf32>)
// AMP: vector.transfer_write %{{.*}}, %arg4[%arg6, %c0] : vector<1x64xf32>, memref<16x64xf32>
// AMP: memref.copy %{{.*}}, %{{.*}} : memref<1x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
// AMP: affine.store %{{.*}}, %arg7[%{{.*}}] : memref<1xi64>
// AMP: bufferization.to_tensor %arg4 restrict : memref<16x64xf32> to tensor<16x64xf32>
// LLVM-LABEL: llvm.func @decoder_step(
// TPU-LABEL: llvm.func @decoder_step(
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @decoder_step(%x: tensor<1x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>, %wq: tensor<64x64xf32>,
                        %kcache: memref<16x64xf32>, %vcache: memref<16x64xf32>, %pos: index, %count: memref<1xi64>) -> tensor<1x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<1x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<1x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<1x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
  // Cache update in place: vector code on memrefs.
  %kvec = vector.transfer_read %k[%c0, %c0], %zero {in_bounds = [true, true]} : tensor<1x64xf32>, vector<1x64xf32>
  vector.transfer_write %kvec, %kcache[%pos, %c0] : vector<1x64xf32>, memref<16x64xf32>
  %vmem = bufferization.to_buffer %v read_only : tensor<1x64xf32> to memref<1x64xf32>
  %vrow = memref.subview %vcache[%pos, 0] [1, 64] [1, 1] : memref<16x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  memref.copy %vmem, %vrow : memref<1x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  affine.for %i = 0 to 1 {
    %n = affine.load %count[%i] : memref<1xi64>
    %one = arith.constant 1 : i64
    %n1 = arith.addi %n, %one : i64
    affine.store %n1, %count[%i] : memref<1xi64>
  }
  // Attention scores over the whole cache.
  %kt = bufferization.to_tensor %kcache restrict : memref<16x64xf32> to tensor<16x64xf32>
  %se = tensor.empty() : tensor<1x16xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%se : tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%q, %kt : tensor<1x64xf32>, tensor<16x64xf32>) outs(%sacc : tensor<1x16xf32>) -> tensor<1x16xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<1x16xf32>) outs(%se : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %p : tensor<1x16xf32>
}

// -----

// Fused QKV split by extract_slice, heads by expand_shape, transposed, a
// batch contraction; and a reshape of a slice.
// AMP-LABEL: func.func @qkv_split
// AMP: tensor.extract_slice
// AMP-BF16: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x8x16xbf16>, tensor<2x16x8xbf16>) outs(%{{.*}} : tensor<2x8x8xf32>)
// AMP-FP8: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x8x16xf8E4M3FNUZ>, tensor<2x16x8xf8E4M3FNUZ>) outs(%{{.*}} : tensor<2x8x8xf32>)
// AMP-F32: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%{{.*}} : tensor<2x8x8xf32>)
// LLVM-LABEL: llvm.func @qkv_split(
// TPU-LABEL: llvm.func @qkv_split(
func.func @qkv_split(%qkv: tensor<8x96xf32>) -> (tensor<2x8x8xf32>, tensor<128xf32>) {
  %q = tensor.extract_slice %qkv[0, 0] [8, 32] [1, 1] : tensor<8x96xf32> to tensor<8x32xf32>
  %k = tensor.extract_slice %qkv[0, 32] [8, 32] [1, 1] : tensor<8x96xf32> to tensor<8x32xf32>
  %qh = tensor.expand_shape %q [[0], [1, 2]] output_shape [8, 2, 16] : tensor<8x32xf32> into tensor<8x2x16xf32>
  %kh = tensor.expand_shape %k [[0], [1, 2]] output_shape [8, 2, 16] : tensor<8x32xf32> into tensor<8x2x16xf32>
  %e = tensor.empty() : tensor<2x8x16xf32>
  %qt = linalg.transpose ins(%qh : tensor<8x2x16xf32>) outs(%e : tensor<2x8x16xf32>) permutation = [1, 0, 2]
  %e2 = tensor.empty() : tensor<2x16x8xf32>
  %kt = linalg.transpose ins(%kh : tensor<8x2x16xf32>) outs(%e2 : tensor<2x16x8xf32>) permutation = [1, 2, 0]
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<2x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%se : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%qt, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%acc : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %v = tensor.extract_slice %qkv[4, 64] [4, 32] [1, 1] : tensor<8x96xf32> to tensor<4x32xf32>
  %flat = tensor.collapse_shape %v [[0, 1]] : tensor<4x32xf32> into tensor<128xf32>
  return %s, %flat : tensor<2x8x8xf32>, tensor<128xf32>
}

// -----

// The same on buffers (a runtime's own kernels next to linalg): subviews,
// strided layouts, feeding a transpose, a matmul and a copy out of a
// collapsed view.
// AMP-LABEL: func.func @subview_ops
// AMP: linalg.transpose ins(%{{.*}} : memref<8x32xf32, strided<[96, 1], offset: 32>>) outs(%arg3 : memref<32x8xf32>)
// AMP: linalg.matmul ins(%{{.*}}, %arg1 : memref<8x32xf32, strided<[96, 1], offset: 32>>, memref<32x16xf32>) outs(%arg2 : memref<8x16xf32>)
// LLVM-LABEL: llvm.func @subview_ops(
// TPU-LABEL: llvm.func @subview_ops(
func.func @subview_ops(%buf: memref<8x96xf32>, %w: memref<32x16xf32>, %out: memref<8x16xf32>,
                       %t: memref<32x8xf32>, %tail: memref<256xf32>) {
  %q = memref.subview %buf[0, 32] [8, 32] [1, 1] : memref<8x96xf32> to memref<8x32xf32, strided<[96, 1], offset: 32>>
  linalg.transpose ins(%q : memref<8x32xf32, strided<[96, 1], offset: 32>>) outs(%t : memref<32x8xf32>) permutation = [1, 0]
  linalg.matmul ins(%q, %w : memref<8x32xf32, strided<[96, 1], offset: 32>>, memref<32x16xf32>) outs(%out : memref<8x16xf32>)
  %flat = memref.collapse_shape %buf [[0, 1]] : memref<8x96xf32> into memref<768xf32>
  %part = memref.subview %flat[32] [256] [1] : memref<768xf32> to memref<256xf32, strided<[1], offset: 32>>
  memref.copy %part, %tail : memref<256xf32, strided<[1], offset: 32>> to memref<256xf32>
  return
}

// -----

// Step counter and weights as ml_program globals (IREE/StableHLO).
// AMP: ml_program.global private mutable @step(dense<0> : tensor<i64>) : tensor<i64>
// AMP-LABEL: func.func @globals
// AMP: ml_program.global_store @step
// AMP: ml_program.global_load_const @bias : tensor<16xf32>
// The globals become memref globals, then LLVM globals.
// LLVM: llvm.mlir.global private @step(0 : i64)
// LLVM: llvm.mlir.global private constant @bias(dense<5.000000e-01> : tensor<16xf32>)
// LLVM-LABEL: llvm.func @globals(
// TPU: llvm.mlir.global private @step(0 : i64)
// TPU-LABEL: llvm.func @globals(
ml_program.global private mutable @step(dense<0> : tensor<i64>) : tensor<i64>
ml_program.global private @bias(dense<0.5> : tensor<16xf32>) : tensor<16xf32>
func.func @globals(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = ml_program.global_load @step : tensor<i64>
  %one = arith.constant dense<1> : tensor<i64>
  %s1 = arith.addi %s, %one : tensor<i64>
  ml_program.global_store @step = %s1 : tensor<i64>
  %b = ml_program.global_load_const @bias : tensor<16xf32>
  %y = arith.addf %x, %b : tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// torch-mlir's shape checks.
// AMP-LABEL: func.func @asserts
// AMP: cf.assert %{{.*}}, "mismatched size for broadcast"
// LLVM-LABEL: llvm.func @asserts(
// LLVM: llvm.call @abort()
// TPU-LABEL: llvm.func @asserts(
// TPU: llvm.call @abort()
func.func @asserts(%a: tensor<?x16xf32>, %b: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %da = tensor.dim %a, %c0 : tensor<?x16xf32>
  %db = tensor.dim %b, %c0 : tensor<?x16xf32>
  %eq = arith.cmpi eq, %da, %db : index
  cf.assert %eq, "mismatched size for broadcast"
  %e = tensor.empty(%da) : tensor<?x16xf32>
  %r = linalg.add ins(%a, %b : tensor<?x16xf32>, tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// AMP-LABEL: func.func @resource_weight
// AMP-BF16: arith.constant dense_resource<w0_bf16> : tensor<4x2xbf16>
// AMP-F32: arith.constant dense_resource<w0> : tensor<4x2xf32>
// LLVM-LABEL: llvm.func @resource_weight(
// TPU-LABEL: llvm.func @resource_weight(
func.func @resource_weight(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense_resource<w0> : tensor<4x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040000080BF000000C0000040C0000080C0"
    }
  }
#-}

// -----

// AMP-LABEL: func.func @dynamic
// AMP-BF16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%{{.*}} : tensor<?x?xf32>)
// AMP: linalg.softmax
// LLVM-LABEL: llvm.func @dynamic(
// TPU-NOT: llvm.func @dynamic(
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.softmax dimension(1) ins(%y : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// A runtime's scratch buffer, allocated and freed by the front end around
// linalg on buffers (the pipelines' own deallocation takes over the free).
// AMP-LABEL: func.func @scratch
// AMP: memref.dealloc %{{.*}} : memref<8x16xf32>
// LLVM-LABEL: llvm.func @scratch(
// LLVM: llvm.call @{{free|mgpuMemFree}}(
// TPU-LABEL: llvm.func @scratch(
// TPU: llvm.call @free(
func.func @scratch(%a: memref<8x32xf32>, %b: memref<32x16xf32>, %out: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x16xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x16xf32>)
  linalg.matmul ins(%a, %b : memref<8x32xf32>, memref<32x16xf32>) outs(%tmp : memref<8x16xf32>)
  memref.copy %tmp, %out : memref<8x16xf32> to memref<8x16xf32>
  memref.dealloc %tmp : memref<8x16xf32>
  return
}
