// The GPU form of the tensor-core kernel (lowering to PTX and ptxas:
// test/Pipelines/lowp-pipeline-nvvm-tensor-cores-ptxas.test; the same
// kernel executed on the CPU: test/Integration/GPU/tensor-core-emulated.mlir).
// RUN: fp-opt %s -split-input-file -lowp-nvvm-lower-contractions=target=sm_80 -cse | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-nvvm-lower-contractions=target=sm_75 -cse 2>&1 | FileCheck %s --check-prefix=SM75

// bf16 on sm_80: one 128 x 128 block per tile of C (2 x 2 for 200 x 256),
// 256 threads; the launch replaces the matmul.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NOT: linalg.matmul
// CHECK: gpu.launch_func @matmul_bf16_mma_sync::@matmul_bf16_mma_sync blocks in (%[[C2]], %[[C2]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%arg0 : memref<200x64xbf16>, %arg1 : memref<64x256xbf16>, %arg2 : memref<200x256xf32>)
// Two 16-byte aligned stages of A (128 x 32, rows padded to 40) and B
// (32 x 128, rows padded to 136) in shared memory.
// CHECK: gpu.module @matmul_bf16_mma_sync
// CHECK: gpu.func @matmul_bf16_mma_sync(%[[A:.*]]: memref<200x64xbf16>, %[[B:.*]]: memref<64x256xbf16>, %[[C:.*]]: memref<200x256xf32>)
// CHECK-SAME: workgroup(%[[AS:.*]] : memref<2x128x40xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<2x32x136xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// The accumulators start from C (guarded loads), the first slice is in
// flight before the loop (2 chunks of A and 2 of B per thread).
// CHECK: memref.load %[[C]]
// CHECK-COUNT-2: nvgpu.device_async_copy %[[A]]{{.*}}, %[[AS]]{{.*}}, 8, %{{.*}} {bypassL1}
// CHECK-COUNT-2: nvgpu.device_async_copy %[[B]]{{.*}}, %[[BS]]{{.*}}, 8, %{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_create_group
// 64 f32 accumulators per thread live across the k loop.
// CHECK: %[[ACC:.*]]:64 = scf.for
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK: gpu.barrier
// CHECK-COUNT-4: nvgpu.ldmatrix %[[AS]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x128x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-2: nvgpu.ldmatrix %[[BS]]{{.*}} {numTiles = 4 : i32, transpose = true} : memref<2x32x136xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// bf16 pairs go to mma.sync packed in i32.
// CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// The epilogue stores pairs of columns where the row is inside C.
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : memref<200x256xf32>, vector<2xf32>
// CHECK: gpu.return
func.func @matmul_bf16(%a: memref<200x64xbf16>, %b: memref<64x256xbf16>, %c: memref<200x256xf32>) {
  linalg.matmul ins(%a, %b : memref<200x64xbf16>, memref<64x256xbf16>) outs(%c : memref<200x256xf32>)
  return
}

// -----

// A batched matmul with broadcast weights (torch-mlir's x @ W for 3-D x):
// grid z is the batch, B is indexed without it; f16 pairs go to mma.sync
// as vector<2xf16>.
#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bB = affine_map<(b, m, n, k) -> (k, n)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-LABEL: func.func @bmm_broadcast_f16
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: gpu.launch_func @bmm_broadcast_f16_mma_sync::@bmm_broadcast_f16_mma_sync blocks in (%[[C1]], %[[C1]], %[[C3]])
// CHECK: gpu.func @bmm_broadcast_f16_mma_sync(%[[A:.*]]: memref<3x64x32xf16>, %[[B:.*]]: memref<32x64xf16>, %[[C:.*]]: memref<3x64x64xf32>)
// CHECK: %[[Z:.*]] = gpu.block_id  z
// CHECK: memref.load %[[C]][%[[Z]],
// CHECK: nvgpu.device_async_copy %[[A]][%[[Z]],
// CHECK: nvgpu.device_async_copy %[[B]][%{{[^,]*}}, %{{[^,]*}}], %{{.*}} : memref<32x64xf16>
// CHECK-NOT: vector.bitcast
// CHECK: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
func.func @bmm_broadcast_f16(%a: memref<3x64x32xf16>, %b: memref<32x64xf16>, %c: memref<3x64x64xf32>) {
  linalg.generic {indexing_maps = [#bA, #bB, #bC],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x64x32xf16>, memref<32x64xf16>) outs(%c : memref<3x64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.batch_matmul, and B stored [n][k] (x @ W^T): B's stage is
// [n][k] too and its fragments come without .trans.
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @batch_and_transposed
// CHECK: gpu.launch_func @batch_and_transposed_mma_sync::@batch_and_transposed_mma_sync
// CHECK: gpu.launch_func @batch_and_transposed_mma_sync_0::@batch_and_transposed_mma_sync
// CHECK: gpu.func @batch_and_transposed_mma_sync(%{{.*}}: memref<2x64x32xbf16>, %{{.*}}: memref<2x32x64xbf16>, %{{.*}}: memref<2x64x64xf32>)
// CHECK: gpu.func @batch_and_transposed_mma_sync(%{{.*}}: memref<64x32xbf16>, %{{.*}}: memref<64x32xbf16>, %{{.*}}: memref<64x64xf32>)
// CHECK-SAME: workgroup(%{{.*}} : memref<2x128x40xbf16, {{.*}}, %[[BS:.*]] : memref<2x128x40xbf16,
// CHECK: nvgpu.ldmatrix %[[BS]]{{.*}} {numTiles = 4 : i32, transpose = false}
func.func @batch_and_transposed(%a: memref<2x64x32xbf16>, %b: memref<2x32x64xbf16>, %c: memref<2x64x64xf32>,
                                %x: memref<64x32xbf16>, %w: memref<64x32xbf16>, %y: memref<64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x64x32xbf16>, memref<2x32x64xbf16>) outs(%c : memref<2x64x64xf32>)
  linalg.matmul indexing_maps = [#tA, #tB, #tC]
                ins(%x, %w : memref<64x32xbf16>, memref<64x32xbf16>) outs(%y : memref<64x64xf32>)
  return
}

// -----

// sm_75: f16 m16n8k8 fed by ldmatrix x2 from one stage, loaded
// synchronously (no cp.async on Turing).
// SM75-LABEL: func.func @matmul_f16
// SM75: gpu.func @matmul_f16_mma_sync
// SM75-SAME: workgroup(%{{.*}} : memref<1x128x40xf16, {{.*}}, %{{.*}} : memref<1x32x136xf16,
// SM75-NOT: nvgpu.device_async_copy
// SM75: scf.for
// SM75: vector.load %{{.*}} {alignment = 16 : i64} : memref<128x64xf16>, vector<8xf16>
// SM75: vector.store %{{.*}} {alignment = 16 : i64} : memref<1x128x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// SM75: gpu.barrier
// SM75: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = false}
// SM75: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>
func.func @matmul_f16(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Epilogue: the zero fill, the bias add (bias indexed by the column), the
// in-place GELU-like op and the cast to bf16 are computed on the
// accumulators; the f32 temporaries and the fill are gone, the kernel reads
// the bias and stores bf16 pairs; constants of the payload are rebuilt in
// the kernel.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT: linalg.
// CHECK-NOT: memref<64x64xf32>
// CHECK: gpu.launch_func @epilogue_mma_sync::@epilogue_mma_sync {{.*}} args(%arg0 : memref<64x32xbf16>, %arg1 : memref<32x64xbf16>, %arg2 : memref<64xf32>, %arg3 : memref<64x64xbf16>)
// CHECK-NEXT: return
// CHECK: gpu.func @epilogue_mma_sync(%{{.*}}: memref<64x32xbf16>, %{{.*}}: memref<32x64xbf16>, %[[BIAS:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64x64xbf16>)
// CHECK-NOT: memref.load
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.load %[[BIAS]]
// CHECK: arith.addf
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: math.tanh
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: vector.store %{{.*}}, %[[OUT]]{{.*}} : memref<64x64xbf16>, vector<2xbf16>
func.func @epilogue(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %bias: memref<64xf32>,
                    %out: memref<64x64xbf16>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xf32>)
  %t = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x64xf32>, memref<64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = arith.mulf %x, %half : f32
    %th = math.tanh %h : f32
    linalg.yield %th : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%out : memref<64x64xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %n = arith.truncf %x : f32 to bf16
    linalg.yield %n : bf16
  }
  memref.dealloc %c : memref<64x64xf32>
  memref.dealloc %t : memref<64x64xf32>
  return
}

// -----

// Not fused: C is read again after the elementwise op (so it must be
// stored), and a fill with 1.0 is not a zero start (the kernel loads C).
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @c_still_needed
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[C:.*]] : memref<64x64xf32>)
// CHECK: gpu.launch_func {{.*}} args(%arg0 : memref<64x32xbf16>, %arg1 : memref<32x64xbf16>, %[[C]] : memref<64x64xf32>)
// CHECK: linalg.generic
// CHECK: linalg.copy
func.func @c_still_needed(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %out: memref<64x64xbf16>,
                          %keep: memref<64x64xf32>) {
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%one : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %n = arith.truncf %x : f32 to bf16
    linalg.yield %n : bf16
  }
  linalg.copy ins(%c : memref<64x64xf32>) outs(%keep : memref<64x64xf32>)
  return
}

// -----

// Not fused: the payload uses a value from outside that is not a constant,
// and an op writing a function argument's C.
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @outside_value
// CHECK: gpu.launch_func
// CHECK: linalg.generic
func.func @outside_value(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xf32>,
                         %out: memref<64x64xf32>, %s: f32) {
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  }
  return
}
