// The bundled MLP (examples/models/mlp.mlir) decided by
// lowp-auto-mixed-precision for one NVIDIA chip and policy, lowered by
// lowp-pipeline-nvvm for the same chip; the checks read the PTX of the
// gpu.binary ops (one per kernel) and the host side. ptxas validation of the
// same PTX: lowp-pipeline-nvvm-ptxas.test.
//
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90" \
// RUN: | fp-opt -lowp-pipeline-nvvm=target=sm_90 -o %t.sm_90.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.sm_90.mlir
// RUN: %python %S/Inputs/extract_gpu_asm.py < %t.sm_90.mlir | FileCheck %s --check-prefix=TC90
// The naive mapping of every op (tensor-cores=false; what the tensor-core
// kernel leaves, such as layer 2 here, gets it by default):
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90" \
// RUN: | fp-opt -lowp-pipeline-nvvm="target=sm_90 tensor-cores=false" | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=SM90
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_80 policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-nvvm="target=sm_80 tensor-cores=false" | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=SM80
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_75 policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-nvvm=target=sm_75 | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=SM75
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_70 policy=f16" \
// RUN: | fp-opt -lowp-pipeline-nvvm=target=sm_70 | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=SM70
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_89 policy=fp8" \
// RUN: | fp-opt -lowp-pipeline-nvvm=target=sm_89 | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefixes=FP8,SM89
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90 policy=fp8" \
// RUN: | fp-opt -lowp-pipeline-nvvm=target=sm_90 | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefixes=FP8,SM90FP8
// threads=32: the first kernel (x, 8 x 64, rounded to bf16) runs on 8 x 2
// blocks of 32 threads, consecutive along a row (lowp-gpu-tile-parallel-loops).
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90" \
// RUN: | fp-opt -lowp-pipeline-nvvm="target=sm_90 threads=32" | FileCheck %s --check-prefix=THREADS
// THREADS-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// THREADS-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// THREADS-DAG: %[[EIGHT:.*]] = llvm.mlir.constant(8 : index) : i64
// THREADS-DAG: %[[T:.*]] = llvm.mlir.constant(32 : index) : i64
// THREADS: gpu.launch_func <%{{.*}} : !llvm.ptr> @mlp_kernel::@mlp_kernel blocks in (%[[EIGHT]], %[[TWO]], %[[ONE]]) threads in (%[[T]], %[[ONE]], %[[ONE]])

// Host: LLVM dialect launching the outlined kernels on a stream, one
// gpu.binary each, PTX for sm_90 at the table's PTX ISA 8.0; arguments are
// copied to device buffers, intermediate buffers are device allocations,
// the first layer's matmul (8 x 64 x 128, bf16) is the tensor-core kernel,
// the second's (N = 10) the naive one; the result comes back to the host;
// no lowp attribute left.
// HOST-NOT: lowp.
// HOST: llvm.func @mlp(
// HOST: [[STREAM:%[0-9]+]] = llvm.call @mgpuStreamCreate()
// HOST: [[X:%[0-9]+]] = llvm.call @mgpuMemAlloc({{.*}}, [[STREAM]], {{.*}})
// HOST-NEXT: llvm.call @mgpuMemcpy([[X]], %arg1, {{.*}}, [[STREAM]])
// HOST: gpu.launch_func <[[STREAM]] : !llvm.ptr> @mlp_kernel::@mlp_kernel blocks in
// HOST-SAME: threads in
// HOST: gpu.launch_func <[[STREAM]] : !llvm.ptr> @mlp_mma_sync::@mlp_mma_sync blocks in
// HOST: llvm.call @mgpuStreamSynchronize([[STREAM]])
// HOST: llvm.call @mgpuStreamDestroy([[STREAM]])
// HOST: [[HOSTRESULT:%[0-9]+]] = llvm.call @malloc
// HOST: llvm.call @mgpuMemcpy([[HOSTRESULT]],
// HOST: llvm.call @mgpuMemFree
// HOST: llvm.call @mgpuStreamSynchronize
// HOST: gpu.binary @mlp_kernel [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx84">
// HOST-NOT: lowp.

// sm_90, policy auto (bf16), by default: layer 1's matmul (8 x 64 x 128)
// is the tensor-core kernel (M = 8 is guarded: the block's other rows are
// zero-filled and not stored), with mma.sync in its k loop; layer 2's
// (N = 10, not a multiple of 8) is a naive kernel.
// TC90: .version 8.4
// TC90: .target sm_90
// TC90-NOT: mma.sync.aligned
// TC90-LABEL: .entry mlp_mma_sync(
// TC90: cp.async.cg.shared.global
// TC90: [[LOOP:\$L__BB[0-9_]+]]:
// TC90-NOT: {{^}}$L__BB
// TC90: cp.async.wait_group 1;
// TC90-NOT: {{^}}$L__BB
// TC90: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// TC90-NOT: {{^}}$L__BB
// TC90: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// TC90-NOT: {{^}}$L__BB
// TC90-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// TC90-NOT: {{^}}$L__BB
// TC90: bra{{(.uni)?}} {{.*}}[[LOOP]];

// sm_90, policy auto (bf16), naive mapping: the inputs are rounded with the hardware
// convert, and the matmul reduction runs in f32 in one thread: two bf16
// loads widened by cvt.f32.bf16, an f32 product added to an f32
// accumulator stored as 32 bits.
// SM90: .version 8.4
// SM90: .target sm_90
// SM90: cvt.rn.bf16.f32
// SM90: ld.global.b16 [[A:%rs[0-9]+]]
// SM90-NEXT: ld.global.b16 [[B:%rs[0-9]+]]
// SM90-NEXT: cvt.f32.bf16 [[AF:%r[0-9]+]], [[A]];
// SM90-NEXT: cvt.f32.bf16 [[BF:%r[0-9]+]], [[B]];
// SM90-NEXT: mul.rn.f32 [[P:%r[0-9]+]], [[AF]], [[BF]];
// SM90-NEXT: add.rn.f32 [[ACC:%r[0-9]+]], {{%r[0-9]+}}, [[P]];
// SM90-NEXT: st.global.b32 [{{%rd[0-9]+}}], [[ACC]];

// sm_80, bf16: PTX ISA 7.0; cvt.rn.bf16.f32 narrows, widening is a shift.
// SM80: .version 7.0
// SM80: .target sm_80
// SM80: cvt.rn.bf16.f32
// SM80: ld.global.b16 [[A:%r[0-9]+]]
// SM80-NEXT: shl.b32 [[AF:%r[0-9]+]], [[A]], 16;
// SM80-NEXT: ld.global.b16 [[B:%r[0-9]+]]
// SM80-NEXT: shl.b32 [[BF:%r[0-9]+]], [[B]], 16;
// SM80-NEXT: mul.rn.f32 [[P:%r[0-9]+]], [[AF]], [[BF]];
// SM80-NEXT: add.rn.f32 [[ACC:%r[0-9]+]], {{%r[0-9]+}}, [[P]];
// SM80-NEXT: st.global.b32 [{{%rd[0-9]+}}], [[ACC]];

// sm_75 has no bf16 convert: lowp-expand-float-conversions' integer
// rounding ((u + 0x7fff + lsb) >> 16, NaN quieted) instead of any cvt.
// SM75: .target sm_75
// SM75-NOT: bf16
// SM75: bfe.u32 [[LSB:%r[0-9]+]], [[U:%r[0-9]+]], 16, 1;
// SM75-NEXT: add.s32 [[S:%r[0-9]+]], [[U]], [[LSB]];
// SM75-NEXT: add.s32 [[R:%r[0-9]+]], [[S]], 32767;
// SM75-NEXT: shr.u32 {{%r[0-9]+}}, [[R]], 16;
// SM75-NOT: bf16

// sm_70, f16: PTX ISA 6.0, f16 converts in both directions, f32 sums.
// SM70: .version 6.0
// SM70: .target sm_70
// SM70: cvt.rn.f16.f32
// SM70: cvt.f32.f16 [[AF:%r[0-9]+]]
// SM70-NEXT: cvt.f32.f16 [[BF:%r[0-9]+]]
// SM70-NEXT: mul.rn.f32 [[P:%r[0-9]+]], [[AF]], [[BF]];
// SM70-NEXT: add.rn.f32 [[ACC:%r[0-9]+]], {{%r[0-9]+}}, [[P]];
// SM70-NEXT: st.global.b32 [{{%rd[0-9]+}}], [[ACC]];

// FP8 (sm_89 and sm_90 at PTX ISA 8.4): the scaled, saturating
// quantization clamps and then uses the saturating hardware convert (the
// value in the low byte; 448 = 0x43E00000) with no overflow select; layer
// 1's E4M3 matmul is a tensor-core kernel (mma.sync m16n8k32), layer 2's
// (N = 10: no whole 16-byte rows) a naive one that widens each operand by
// cvt.rn.f16x2.e4m3x2 + cvt.f32.f16 and accumulates in f32.
// SM89: .version 8.4
// SM89: .target sm_89
// SM90FP8: .version 8.4
// SM90FP8: .target sm_90
// FP8: max.NaN.f32 [[LO:%r[0-9]+]], {{%r[0-9]+}}, 0fC3E00000;
// FP8-NEXT: min.NaN.f32 [[C:%r[0-9]+]], [[LO]], 0f43E00000;
// FP8-NEXT: mov.b32 [[ZERO:%r[0-9]+]], 0f00000000;
// FP8-NEXT: cvt.rn.satfinite.e4m3x2.f32 [[Q:%rs[0-9]+]], [[ZERO]], [[C]];
// FP8: st.global.b8 [{{%rd[0-9]+}}], [[Q]];
// FP8: ld.global.b8 [[A:%rs[0-9]+]]
// FP8-NEXT: ld.global.b8 [[B:%rs[0-9]+]]
// FP8-NEXT: cvt.rn.f16x2.e4m3x2 [[AH2:%r[0-9]+]], [[A]];
// FP8-NEXT: mov.b32 {[[AH:%rs[0-9]+]], _}, [[AH2]];
// FP8-NEXT: cvt.f32.f16 [[AF:%r[0-9]+]], [[AH]];
// FP8-NEXT: cvt.rn.f16x2.e4m3x2 [[BH2:%r[0-9]+]], [[B]];
// FP8-NEXT: mov.b32 {[[BH:%rs[0-9]+]], _}, [[BH2]];
// FP8-NEXT: cvt.f32.f16 [[BF:%r[0-9]+]], [[BH]];
// FP8-NEXT: mul.rn.f32 [[P:%r[0-9]+]], [[AF]], [[BF]];
// FP8-NEXT: add.rn.f32 [[ACC:%r[0-9]+]], {{%r[0-9]+}}, [[P]];
// FP8-NEXT: st.global.b32 [{{%rd[0-9]+}}], [[ACC]];
// FP8: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
