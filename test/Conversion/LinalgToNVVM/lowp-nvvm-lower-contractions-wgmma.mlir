// The warpgroup (wgmma) back end on sm_90a, the chip row whose PTX target
// has wgmma: the kernel's structure (cp.async into three 1024-byte aligned
// swizzled stages, fence.proxy.async before the barrier that publishes a
// slice, wgmma.fence / mma_async / commit / wait around the slice's
// instructions, one slice's group left in flight), and the fallbacks: what wgmma cannot take goes to the
// mma.sync kernel with a remark naming the op and why; what neither takes
// keeps its linalg op with both remarks. sm_90 (portable PTX, no wgmma) and
// wgmma=false keep the mma.sync kernels.
// RUN: fp-opt %s -split-input-file -verify-diagnostics \
// RUN:   -lowp-nvvm-lower-contractions=target=sm_90a | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-nvvm-lower-contractions=target=sm_90 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=SM90
// RUN: fp-opt %s -split-input-file -lowp-nvvm-lower-contractions="target=sm_90a wgmma=false" 2>/dev/null \
// RUN: | FileCheck %s --check-prefix=SM90

// bf16, B row-major ([k][n]: N-major, imm-trans-b = 1, layoutB row).
// CHECK-LABEL: func.func @gemm_bf16
// CHECK-NOT: linalg.matmul
// CHECK: %[[T:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func {{ *}}@gemm_bf16_wgmma::@gemm_bf16_wgmma blocks in ({{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.module @gemm_bf16_wgmma
// CHECK: gpu.func @gemm_bf16_wgmma({{.*}}) workgroup(%[[AS:.*]] : memref<3x4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %[[BS:.*]] : memref<3x4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel
// Three stages, one wgmma group in flight: the copies run one slice ahead
// (one group before the loop, at most one pending after slice k's wait),
// the loop leaves the slice's wgmma group pending (wait_group 1) and the
// accumulators are read after wait_group 0.
// CHECK: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// SM90-LABEL: func.func @gemm_bf16
// SM90: gpu.launch_func {{ *}}@gemm_bf16_mma_sync::@gemm_bf16_mma_sync
// SM90-NOT: wgmma
func.func @gemm_bf16(%a: memref<256x64xbf16>, %b: memref<64x256xbf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xbf16>, memref<64x256xbf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// f16 x @ W^T: B stored [n][k] is K-major (layoutB col, no transpose).
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: gpu.module @linear_f16_wgmma
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @linear_f16(%x: memref<128x64xf16>, %w: memref<96x64xf16>, %c: memref<128x96xf32>) {
  linalg.matmul indexing_maps = [#tA, #tB, #tC]
    ins(%x, %w : memref<128x64xf16>, memref<96x64xf16>) outs(%c : memref<128x96xf32>)
  return
}

// -----

// FP8 with B stored [n][k]: m64n128k32, E4M3 x E5M2.
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: gpu.module @linear_fp8_wgmma
// CHECK: memref<3x8192xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
func.func @linear_fp8(%x: memref<128x128xf8E4M3FN>, %w: memref<128x128xf8E5M2>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#tA, #tB, #tC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x128xf8E4M3FN>, memref<128x128xf8E5M2>) outs(%c : memref<128x128xf32>) {
  ^bb0(%p: f8E4M3FN, %q: f8E5M2, %o: f32):
    %pf = arith.extf %p : f8E4M3FN to f32
    %qf = arith.extf %q : f8E5M2 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// FP8 with B stored [k][n]: wgmma has no transpose for 8-bit operands, so
// B is staged [n][k] (K-major, layoutB col): each 16-byte chunk of the
// staged tile gathers 16 bytes of one column of B (16 loads, the vector
// stored synchronously; A's chunks still go through cp.async).
// CHECK-LABEL: func.func @gemm_fp8_kn
// CHECK: gpu.launch_func {{ *}}@gemm_fp8_kn_wgmma::@gemm_fp8_kn_wgmma
// CHECK-LABEL: gpu.module @gemm_fp8_kn_wgmma
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK-COUNT-16: memref.load %{{.*}} : memref<64x128xf8E4M3FN>
// CHECK: vector.from_elements {{.*}} : vector<16xf8E4M3FN>
// CHECK: vector.store {{.*}} : memref<3x8192xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-NOT: mma.m16n8k32
// SM90-LABEL: func.func @gemm_fp8_kn
// SM90: gpu.launch_func {{ *}}@gemm_fp8_kn_mma_sync::@gemm_fp8_kn_mma_sync
func.func @gemm_fp8_kn(%a: memref<128x64xf8E4M3FN>, %b: memref<64x128xf8E4M3FN>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf8E4M3FN>, memref<64x128xf8E4M3FN>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Neither kernel takes N = 20 (not whole 16-byte rows): both remarks, and
// the naive kernel.
// CHECK-LABEL: func.func @odd_n
// CHECK: linalg.matmul
func.func @odd_n(%a: memref<64x64xbf16>, %b: memref<64x20xbf16>, %c: memref<64x20xf32>) {
  // expected-remark @+2 {{no wgmma kernel for 'linalg.matmul' on sm_90a: N (20) and K (64) must be multiples of 8 (16-byte rows); it runs on mma.sync (or the naive kernel where that cannot take it either)}}
  // expected-remark @+1 {{no tensor-core kernel for 'linalg.matmul' on sm_90a: N (20) and K (64) must be multiples of 8 (16-byte rows); it runs on the naive kernel}}
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x20xbf16>) outs(%c : memref<64x20xf32>)
  return
}
