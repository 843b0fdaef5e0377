// bf16 on chips without bf16 tensor cores (sm_75) and anything on sm_70
// (no mma.sync tiling in the table): a remark, the naive kernel. The
// decision picks f16 on both by default; f16 on sm_75 gets the m16n8k8
// kernel.
// RUN: fp-opt %s -lowp-nvvm-lower-contractions=target=sm_75 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: fp-opt %s -lowp-nvvm-lower-contractions=target=sm_70 2>&1 | FileCheck %s --check-prefix=SM70

// SM75: remark: no tensor-core kernel for 'linalg.matmul' on sm_75: sm_75 has no mma.sync for bf16 x bf16 (its mma.sync takes f16); it runs on the naive kernel
// SM75-NOT: remark
// SM75-LABEL: func.func @bf16_and_f16
// SM75: linalg.matmul {{.*}}bf16
// SM75: gpu.launch
// SM75: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>
// SM75-NOT: linalg.matmul

// SM70: remark: no tensor-core kernel for 'linalg.matmul' on sm_70: sm_70 has no mma.sync for bf16 x bf16 (the capability table gives it no mma.sync kernel)
// SM70: remark: no tensor-core kernel for 'linalg.matmul' on sm_70: sm_70 has no mma.sync for f16 x f16 (the capability table gives it no mma.sync kernel)
// SM70-NOT: gpu.launch
func.func @bf16_and_f16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>,
                        %d: memref<64x64xf16>, %e: memref<64x64xf16>) {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%d, %e : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
