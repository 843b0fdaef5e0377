// The wgmma kernels' pipeline depth against their stage count: the
// capability table keeps one wgmma group in flight (sm_90a: 3 stages, the
// copies one slice ahead). wgmma-stages overrides the table's count:
//  * 2 stages cannot hold the pending group's slice, the multiplied one and
//    the loaded one: the kernel stays a wgmma kernel but waits for each
//    slice's group (wait_group 0 in the loop), with a remark, rather than
//    refilling a stage a pending wgmma reads;
//  * 4 stages of 16 KB need 64 KB, more than the 48 KB of static shared
//    memory of sm_90a's row: no wgmma kernel (remark), mma.sync takes it;
//  * a count the kernel cannot lay out is an error.
// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-nvvm-lower-contractions="target=sm_90a wgmma-stages=2" \
// RUN: | FileCheck %s --check-prefix=TWO
// RUN: fp-opt %s -split-input-file -lowp-nvvm-lower-contractions="target=sm_90a wgmma-stages=4" 2>&1 \
// RUN: | FileCheck %s --check-prefix=FOUR
// RUN: not fp-opt %s -split-input-file -lowp-nvvm-lower-contractions="target=sm_90a wgmma-stages=5" 2>&1 \
// RUN: | FileCheck %s --check-prefix=FIVE

// TWO-LABEL: gpu.func @gemm_bf16_wgmma
// TWO-SAME: workgroup(%{{.*}} : memref<2x4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<2x4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// TWO: nvgpu.device_async_create_group
// TWO: scf.for
// TWO: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// TWO: nvvm.wgmma.commit.group.sync.aligned
// TWO-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// TWO-NEXT: gpu.barrier
// TWO: scf.yield
// TWO-NEXT: }
// TWO-NOT: nvvm.wgmma.wait.group
// TWO: gpu.return
// FOUR: remark: no wgmma kernel for 'linalg.matmul' on sm_90a: 4 stages of A and B need 65536 bytes of shared memory, more than the 49152 a kernel declares statically on sm_90a; it runs on mma.sync (or the naive kernel where that cannot take it either)
// FOUR: gpu.module @gemm_bf16_mma_sync
// FOUR-NOT: nvvm.wgmma
// FIVE: error: wgmma-stages must be 2, 3 or 4 (0: the capability table's), not 5
func.func @gemm_bf16(%a: memref<256x64xbf16>, %b: memref<64x256xbf16>, %c: memref<256x256xf32>) {
  // expected-remark @below {{wgmma kernel for 'linalg.matmul' on sm_90a with 2 stages keeps no wgmma.mma_async group in flight across slices (that needs 3 stages: the pending group's, the multiplied and the loaded slice's); each slice waits for its instructions}}
  linalg.matmul ins(%a, %b : memref<256x64xbf16>, memref<64x256xbf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// FP8 x @ W^T (E4M3 x E5M2): the same rule for the FP8 tiling.
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>
// TWO-LABEL: gpu.func @linear_fp8_wgmma
// TWO: nvvm.wgmma.mma_async {{.*}} A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// TWO: nvvm.wgmma.wait.group.sync.aligned 0
// FOUR: remark: no wgmma kernel for 'linalg.matmul' on sm_90a: 4 stages of A and B need 65536 bytes
// FOUR: gpu.module @linear_fp8_mma_sync
func.func @linear_fp8(%x: memref<128x64xf8E4M3FN>, %w: memref<96x64xf8E5M2>, %c: memref<128x96xf32>) {
  // expected-remark @below {{with 2 stages keeps no wgmma.mma_async group in flight}}
  linalg.matmul indexing_maps = [#tA, #tB, #tC]
    ins(%x, %w : memref<128x64xf8E4M3FN>, memref<96x64xf8E5M2>) outs(%c : memref<128x96xf32>)
  return
}
