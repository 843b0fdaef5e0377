// FP8 tensor-core kernels (mma.sync m16n8k32, sm_89 and later) on the
// OCP formats lowp-select-fp8-formats chooses for NVIDIA, in any
// E4M3/E5M2 pair: 128 x 128 blocks, slices 64 deep (16-byte chunks of 16
// values; rows padded by 16 bytes), the FP8 dequantization (times
// 1 / (sa * sb)), a bias and the narrowing cast fused into the epilogue.
// PTX and ptxas: test/Pipelines/lowp-pipeline-nvvm-tensor-cores-fp8-ptxas.test;
// executed on the CPU: test/Integration/GPU/tensor-core-fp8-emulated.mlir.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-nvvm-lower-contractions=target=sm_89 -cse | FileCheck %s
// The same kernels on sm_90 (no wgmma yet) and sm_100.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-nvvm-lower-contractions=target=sm_90 -cse | FileCheck %s
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-nvvm-lower-contractions=target=sm_100 -cse | FileCheck %s

// E4M3 x E5M2, B stored [k][n]: A's fragments by ldmatrix (the bytes of
// 16-bit matrices: nvvm.ldmatrix on the row's shared address), B's read by
// columns (ldmatrix cannot transpose bytes): four single-byte loads packed
// into each 32-bit register.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#scalar = affine_map<(i, j) -> ()>
// CHECK-LABEL: func.func @mm_e4m3_e5m2
// CHECK-NOT: linalg.
// CHECK: gpu.launch_func @mm_e4m3_e5m2_mma_sync::@mm_e4m3_e5m2_mma_sync
// CHECK: gpu.func @mm_e4m3_e5m2_mma_sync(%[[A:.*]]: memref<136x80xf8E4M3FN>, %[[B:.*]]: memref<80x48xf8E5M2>, %[[SA:.*]]: memref<f32>, %[[SB:.*]]: memref<f32>, %[[BIAS:.*]]: memref<48xf32>, %[[OUT:.*]]: memref<136x48xbf16>)
// CHECK-SAME: workgroup(%[[AS:.*]] : memref<2x128x80xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<2x64x144xf8E5M2, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK: nvgpu.device_async_copy %[[A]]{{.*}}, %[[AS]]{{.*}}, 16, %{{.*}} {bypassL1}
// CHECK: %{{.*}}:64 = scf.for
// CHECK: nvgpu.device_async_wait
// CHECK: gpu.barrier
// CHECK: memref.extract_aligned_pointer_as_index %[[AS]]
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: memref.load %[[BS]]{{.*}} : memref<2x64x144xf8E5M2, #gpu.address_space<workgroup>>
// CHECK: vector.from_elements {{.*}} : vector<4xf8E5M2>
// CHECK: vector.bitcast %{{.*}} : vector<4xf8E5M2> to vector<1xi32>
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e5m2.f32"(%{{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// The epilogue in registers: the scales, 1 / (sa * sb), the bias, bf16.
// CHECK: scf.if
// CHECK: memref.load %[[SA]][] : memref<f32>
// CHECK: memref.load %[[SB]][] : memref<f32>
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: memref.load %[[BIAS]]
// CHECK: arith.addf
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: vector.store {{.*}}, %[[OUT]]{{.*}} : memref<136x48xbf16>, vector<2xbf16>
func.func @mm_e4m3_e5m2(%a: memref<136x80xf8E4M3FN>, %b: memref<80x48xf8E5M2>,
                        %sa: memref<f32>, %sb: memref<f32>, %bias: memref<48xf32>,
                        %out: memref<136x48xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<136x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<136x48xf32>)
  linalg.matmul ins(%a, %b : memref<136x80xf8E4M3FN>, memref<80x48xf8E5M2>) outs(%c : memref<136x48xf32>)
  linalg.generic {indexing_maps = [#id, #scalar, #scalar, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sa, %sb, %bias : memref<136x48xf32>, memref<f32>, memref<f32>, memref<48xf32>) outs(%out : memref<136x48xbf16>) {
  ^bb0(%x: f32, %p: f32, %q: f32, %bb: f32, %o: bf16):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %x, %s : f32
    %y = arith.addf %d, %bb : f32
    %n = arith.truncf %y : f32 to bf16
    linalg.yield %n : bf16
  }
  memref.dealloc %c : memref<136x48xf32>
  return
}

// -----

// E5M2 x E4M3 with B stored [n][k] (x @ W^T): B's fragments come from
// ldmatrix too (rows of W are columns of B), no byte loads.
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @linear_e5m2_e4m3
// CHECK: gpu.func @linear_e5m2_e4m3_mma_sync
// CHECK-SAME: workgroup(%[[AS:.*]] : memref<2x128x80xf8E5M2, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<2x128x80xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK: scf.for
// CHECK-NOT: memref.load %[[BS]]
// CHECK: memref.extract_aligned_pointer_as_index %[[BS]]
// CHECK: nvvm.ldmatrix
// CHECK-NOT: memref.load %[[BS]]
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e4m3.f32"
// CHECK: scf.yield
func.func @linear_e5m2_e4m3(%x: memref<64x128xf8E5M2>, %w: memref<32x128xf8E4M3FN>, %c: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [#tA, #tB, #tC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x128xf8E5M2>, memref<32x128xf8E4M3FN>) outs(%c : memref<64x32xf32>) {
  ^bb0(%p: f8E5M2, %q: f8E4M3FN, %acc: f32):
    %pf = arith.extf %p : f8E5M2 to f32
    %qf = arith.extf %q : f8E4M3FN to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The dequantization as lowp-select-fp8-formats emits it: the accumulator
// times a scalar 1 / (sa * sb) computed on the host, plus the residual C
// the matmul accumulated into, narrowed to bf16. The scalar is a kernel
// argument.
#id_s = affine_map<(i, j) -> (i, j)>
#scalar_s = affine_map<(i, j) -> ()>
// CHECK-LABEL: func.func @dequant_scalar
// CHECK: %[[INV:.*]] = arith.divf
// CHECK-NOT: linalg.
// CHECK: gpu.launch_func @dequant_scalar_mma_sync::@dequant_scalar_mma_sync {{.*}} args(%{{.*}} : memref<64x64xf8E4M3FN>, %{{.*}} : memref<64x64xf8E4M3FN>, %[[INV]] : f32, %{{.*}} : memref<64x64xf32>, %{{.*}} : memref<64x64xbf16>)
// CHECK: gpu.func @dequant_scalar_mma_sync(%{{.*}}: memref<64x64xf8E4M3FN>, %{{.*}}: memref<64x64xf8E4M3FN>, %[[KINV:.*]]: f32, %[[RES:.*]]: memref<64x64xf32>, %[[OUT:.*]]: memref<64x64xbf16>)
// CHECK: scf.for
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: arith.mulf %{{.*}}, %[[KINV]] : f32
// CHECK: memref.load %[[RES]]
// CHECK: arith.addf
// CHECK: arith.truncf
// CHECK: vector.store {{.*}}, %[[OUT]]
func.func @dequant_scalar(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %sa: f32, %sb: f32,
                          %res: memref<64x64xf32>, %out: memref<64x64xbf16>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %sab = arith.mulf %sa, %sb : f32
  %inv = arith.divf %one, %sab : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id_s, #scalar_s, #id_s, #id_s], iterator_types = ["parallel", "parallel"]}
      ins(%c, %inv, %res : memref<64x64xf32>, f32, memref<64x64xf32>) outs(%out : memref<64x64xbf16>) {
  ^bb0(%x: f32, %i: f32, %r: f32, %o: bf16):
    %d = arith.mulf %x, %i : f32
    %y = arith.addf %d, %r : f32
    %n = arith.truncf %y : f32 to bf16
    linalg.yield %n : bf16
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// FP8 rows are 16 values: N = 40 is no whole number of 16-byte rows.
// CHECK-LABEL: func.func @odd_n
// CHECK: linalg.matmul
func.func @odd_n(%a: memref<64x64xf8E4M3FN>, %b: memref<64x40xf8E4M3FN>, %c: memref<64x40xf32>) {
  // expected-remark-re @+1 {{no tensor-core kernel for 'linalg.matmul' on sm_{{[0-9]+}}: N (40) and K (64) must be multiples of 16 (16-byte rows); it runs on the naive kernel}}
  linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x40xf8E4M3FN>) outs(%c : memref<64x40xf32>)
  return
}

// -----

// FP8 x bf16 is no tensor-core instruction.
// CHECK-LABEL: func.func @fp8_x_bf16
// CHECK: linalg.matmul
func.func @fp8_x_bf16(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{A and B have different element types; it runs on the naive kernel}}
  linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}
