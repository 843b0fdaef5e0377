// The bundled MLP decided by lowp-auto-mixed-precision for an AMD chip and
// lowered by lowp-pipeline-rocdl on the naive mapping (`mfma=false`: the
// precision handling of every kernel, matmuls included; the MFMA kernels
// are lowp-pipeline-rocdl-mfma.test's): every kernel's AMDGCN assembly (one
// gpu.binary each) is checked, and for the FP8 runs assembled again by
// llvm-mc for the chip (Inputs/extract_gpu_asm.py exits non-zero on any
// rejection; the other runs skip it to keep the test fast).
//
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=gfx942 policy=fp8" \
// RUN: | fp-opt -lowp-pipeline-rocdl="target=gfx942 mfma=false" \
// RUN: | %python %S/Inputs/extract_gpu_asm.py --llvm-mc llvm-mc --mcpu gfx942 | FileCheck %s --check-prefix=GFX942-FP8
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=gfx950 policy=fp8" \
// RUN: | fp-opt -lowp-pipeline-rocdl="target=gfx950 mfma=false" \
// RUN: | %python %S/Inputs/extract_gpu_asm.py --llvm-mc llvm-mc --mcpu gfx950 | FileCheck %s --check-prefix=GFX950-FP8
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=gfx942 policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-rocdl="target=gfx942 mfma=false" \
// RUN: | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=GFX942-BF16
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=gfx90a policy=f16" \
// RUN: | fp-opt -lowp-pipeline-rocdl="target=gfx90a mfma=false" \
// RUN: | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=GFX90A-F16
// OCP FP8 (decided for sm_90) on gfx942, whose converts are FNUZ: exact
// integer conversions, no hardware FP8 convert (on the naive mapping; its
// matmuls have no MFMA there, a located error by default).
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90 policy=fp8" \
// RUN: | fp-opt -lowp-pipeline-rocdl="target=gfx942 mfma=false" \
// RUN: | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=OCP-ON-GFX942
// One attention head (Inputs/attention-block.mlir) with E4M3FNUZ matmul
// operands on gfx942: the softmax's exp is v_exp_f32, not a call into a
// ROCm device library.
// RUN: fp-opt %S/Inputs/attention-block.mlir --lowp-auto-mixed-precision="target=gfx942 policy=fp8" \
// RUN: | fp-opt -lowp-pipeline-rocdl="target=gfx942 mfma=false" \
// RUN: | %python %S/Inputs/extract_gpu_asm.py | FileCheck %s --check-prefix=ATTN
// Chips the pipeline does not know:
// RUN: not fp-opt %s -lowp-pipeline-rocdl=target=sm_90 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not fp-opt %s -lowp-pipeline-rocdl 2>&1 | FileCheck %s --check-prefix=NOCHIP

// gfx942 (FNUZ): the saturating quantization clamps to E4M3FNUZ's +-240
// (0x43700000) and packs with v_cvt_pk_fp8_f32; the E4M3FNUZ matmul widens
// each byte with v_cvt_f32_fp8 and accumulates in f32.
// GFX942-FP8: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX942-FP8: v_max_f32_e32 {{v[0-9]+}}, 0xc3700000,
// GFX942-FP8: v_min_f32_e32 {{v[0-9]+}}, 0x43700000,
// GFX942-FP8: v_cvt_pk_fp8_f32 [[Q:v[0-9]+]],
// GFX942-FP8-NEXT: global_store_byte v[{{[0-9]+:[0-9]+}}], [[Q]], off
// GFX942-FP8: v_cvt_f32_fp8_sdwa [[A:v[0-9]+]], {{v[0-9]+}} src0_sel:BYTE_0
// GFX942-FP8: v_cvt_f32_fp8_sdwa [[B:v[0-9]+]], {{v[0-9]+}} src0_sel:BYTE_0
// GFX942-FP8-NEXT: v_mul_f32_e32 [[P:v[0-9]+]], {{v[0-9]+}}, {{v[0-9]+}}
// GFX942-FP8-NEXT: v_add_f32_e32 [[ACC:v[0-9]+]], [[ACC]], [[P]]
// GFX942-FP8-NEXT: global_store_dword v[{{[0-9]+:[0-9]+}}], [[ACC]], off

// gfx950 (OCP): the clamp is E4M3FN's +-448 (0x43e00000); bf16 narrows with
// v_cvt_pk_bf16_f32.
// GFX950-FP8: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// GFX950-FP8: v_cvt_pk_bf16_f32
// GFX950-FP8: s_mov_b32 {{s[0-9]+}}, 0x43e00000
// GFX950-FP8-NEXT: v_minimum3_f32
// GFX950-FP8-NEXT: v_cvt_pk_fp8_f32 [[Q:v[0-9]+]],
// GFX950-FP8-NEXT: global_store_byte v[{{[0-9]+:[0-9]+}}], [[Q]], off
// GFX950-FP8: v_cvt_f32_fp8_e32 [[A:v[0-9]+]],
// GFX950-FP8: v_cvt_f32_fp8_e32 [[B:v[0-9]+]],
// GFX950-FP8-NEXT: v_mul_f32_e32 [[P:v[0-9]+]], [[A]], [[B]]
// GFX950-FP8-NEXT: v_add_f32_e32 [[ACC:v[0-9]+]], [[ACC]], [[P]]

// gfx942 has no bf16 convert: lowp-expand-float-conversions' integer
// rounding ((u + 0x7fff + lsb) >> 16, NaN quieted to | 0x40); the widening is
// a 16-bit shift.
// GFX942-BF16: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX942-BF16-NOT: v_cvt{{.*}}bf16
// GFX942-BF16: s_movk_i32 [[HALF:s[0-9]+]], 0x7fff
// GFX942-BF16: v_bfe_u32 {{v[0-9]+}}, {{v[0-9]+}}, 16, 1
// GFX942-BF16: v_lshlrev_b32_e32 [[A:v[0-9]+]], 16,
// GFX942-BF16: v_lshlrev_b32_e32 [[B:v[0-9]+]], 16,
// GFX942-BF16-NEXT: v_mul_f32_e32 [[P:v[0-9]+]], [[A]], [[B]]
// GFX942-BF16-NEXT: v_add_f32_e32 [[ACC:v[0-9]+]], [[ACC]], [[P]]
// GFX942-BF16-NOT: v_cvt{{.*}}bf16

// gfx90a, f16: hardware f16 converts both ways, f32 accumulation.
// GFX90A-F16: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// GFX90A-F16: v_cvt_f16_f32_e32
// GFX90A-F16: v_cvt_f32_f16_e32
// GFX90A-F16: v_cvt_f32_f16_e32
// GFX90A-F16-NEXT: v_mul_f32_e32 [[P:v[0-9]+]], {{v[0-9]+}}, {{v[0-9]+}}
// GFX90A-F16-NEXT: v_add_f32_e32 [[ACC:v[0-9]+]], [[ACC]], [[P]]

// OCP-ON-GFX942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// OCP-ON-GFX942-NOT: fp8

// ATTN-NOT: {{__ocml|s_swappc}}
// ATTN-DAG: v_cvt_pk_fp8_f32
// ATTN-DAG: v_cvt_f32_fp8_sdwa
// ATTN-DAG: v_exp_f32
// ATTN-NOT: {{__ocml|s_swappc}}

// BADCHIP: lowp-pipeline-rocdl needs target=<chip>, one of the capability table's amd chips (gfx908, gfx90a, gfx942, gfx950); got 'sm_90'
// NOCHIP: lowp-pipeline-rocdl needs target=<chip>, one of the capability table's amd chips ({{.*}}); got ''

func.func @empty() {
  return
}
