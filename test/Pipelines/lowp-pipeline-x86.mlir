// The x86 pipeline down to machine code: llc with each chip's -mcpu.
//
// Zen 4 (AVX512_BF16): the innermost loop of the bf16 matmul is the
// register-blocked vdpbf16ps kernel (8 x 32 block: 16 accumulators, 2
// loads of VNNI-packed B, 8 broadcast pairs of A per k pair, unrolled 4
// times: 64 vdpbf16ps) with no scalar fallback, and the f32 -> bf16 result
// store uses vcvtneps2bf16.
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 | mlir-translate --mlir-to-llvmir \
// RUN: | llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=DOT
//
// Sapphire Rapids (amx=false), where vdpbf16ps is half the rate of f32 FMAs
// (CPUInfo::bf16DotMacsPerCycle), so the bf16 matmul is the f32 FMA
// kernel on operands widened while packed (8 x 32 block, 8 broadcasts and
// 16 FMAs per k, unrolled 4 times: 64 FMAs); vcvtneps2bf16 still rounds
// the result (SPR-STORE).
// RUN: fp-opt %s -lowp-pipeline-x86=target=sapphirerapids | mlir-translate --mlir-to-llvmir \
// RUN: | llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=SPR
//
// On AVX2 bf16 is storage only. The inner loop is the 6 x 16 f32 FMA kernel
// (12 ymm accumulators, k unrolled 4 times: 48 FMAs) and nothing calls __truncsfbf2: narrowing is the
// integer sequence of lowp-expand-float-conversions.
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | mlir-translate --mlir-to-llvmir \
// RUN: | llc -O3 -mcpu=x86-64-v3 | FileCheck %s --check-prefix=AVX2
//
// Sapphire Rapids with amx=true: AMX-BF16 tiles, 2 x 2 accumulator tiles
// carried across the k loop (4 tdpbf16ps per 32 k), B in VNNI panels.
// RUN: fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" | mlir-translate --mlir-to-llvmir \
// RUN: | llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=AMX
//
// Granite Rapids, a row of its own (AMX-FP16 besides AMX-BF16) whose
// kernels are Sapphire Rapids': the same LLVM dialect with and without amx.
// RUN: fp-opt %s -lowp-pipeline-x86="target=sapphirerapids amx=true" -o %t.spr.amx
// RUN: fp-opt %s -lowp-pipeline-x86="target=graniterapids amx=true" -o %t.gnr.amx
// RUN: diff %t.spr.amx %t.gnr.amx
// RUN: fp-opt %s -lowp-pipeline-x86=target=sapphirerapids -o %t.spr
// RUN: fp-opt %s -lowp-pipeline-x86=target=graniterapids -o %t.gnr
// RUN: diff %t.spr %t.gnr
// RUN: mlir-translate --mlir-to-llvmir %t.spr | llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=SPR-STORE
// RUN: mlir-translate --mlir-to-llvmir %t.gnr.amx | llc -O3 -mcpu=graniterapids | FileCheck %s --check-prefix=AMX
// RUN: mlir-translate --mlir-to-llvmir %t.spr.amx | llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=AMX-STORE
//
// The LLVM dialect itself: no float conversion left for AVX2 to lower.
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 | FileCheck %s --check-prefix=LLVM-AVX2

// DOT-LABEL: matmul_bf16:
// DOT: This Inner Loop Header: Depth=3
// DOT-NOT: {{call|ss[[:space:]]+%xmm|pextr|pinsr}}
// DOT-COUNT-64: vdpbf16ps {{.*}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// DOT-NOT: {{call|ss[[:space:]]+%xmm|pextr|pinsr|vdpbf16ps}}
// DOT: j{{[a-z]+}} .LBB0_
// DOT: vcvtneps2bf16

// SPR-LABEL: matmul_bf16:
// SPR-NOT: vdpbf16ps
// SPR: This Inner Loop Header: Depth=3
// SPR-NOT: {{call|pextr|pinsr|vdpbf16ps}}
// SPR-COUNT-64: vfmadd231ps {{.*}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// SPR-NOT: {{call|pextr|pinsr|vdpbf16ps|vfmadd}}
// SPR: j{{[a-z]+}} .LBB0_
// SPR-NOT: vdpbf16ps
// SPR-LABEL: .Lfunc_end0:

// The result's store rounds with vcvtneps2bf16 (where llc places that
// block relative to the kernel's loops varies).
// SPR-STORE-LABEL: matmul_bf16:
// SPR-STORE: vcvtneps2bf16
// SPR-STORE-LABEL: .Lfunc_end0:

// AVX2-NOT: __truncsfbf2
// AVX2-LABEL: matmul_bf16:
// AVX2: This Inner Loop Header: Depth=3
// AVX2-NOT: {{call|ss[[:space:]]+%xmm}}
// AVX2-COUNT-48: vfmadd231ps {{.*}}%ymm{{[0-9]+}}, %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// AVX2-NOT: {{call|vfmadd}}
// AVX2: j{{[a-z]+}} .LBB0_
// AVX2-NOT: __truncsfbf2

// The tile code is a noinline function of its own, called once the
// permission is granted: LLVM loads the tile configuration at the entry of
// the function that has it, which a CPU without AMX does not execute.
// AMX-LABEL: matmul_bf16:
// AMX-NOT: {{ldtilecfg|tdpbf16ps}}
// AMX: arch_prctl
// AMX-NOT: {{ldtilecfg|tdpbf16ps}}
// AMX: __lowp_amx_matmul_bf16
// AMX-LABEL: __lowp_amx_matmul_bf16:
// AMX: ldtilecfg
// AMX: This Loop Header: Depth=2
// AMX-COUNT-4: tileloadd
// AMX: This Inner Loop Header: Depth=3
// AMX-COUNT-4: tileloadd
// AMX-COUNT-4: tdpbf16ps %tmm{{[0-9]}}, %tmm{{[0-9]}}, %tmm{{[0-9]}}
// AMX-NOT: {{call|vdpbf16ps|tilestored}}
// AMX: j{{[a-z]+}} .LBB1_
// The accumulator tiles are stored after the k loop (where llc places that
// block varies).
// AMX-STORE-LABEL: __lowp_amx_matmul_bf16:
// AMX-STORE-COUNT-4: tilestored
// AMX-STORE-LABEL: .Lfunc_end1:

// LLVM-AVX2-LABEL: llvm.func @matmul_bf16
// LLVM-AVX2-NOT: llvm.fptrunc
// LLVM-AVX2-NOT: llvm.fpext
// LLVM-AVX2-COUNT-48: llvm.intr.fmuladd
// LLVM-AVX2-NOT: llvm.fptrunc
// LLVM-AVX2-NOT: llvm.fpext
func.func @matmul_bf16(%a: tensor<96x128xbf16>, %b: tensor<128x64xbf16>,
                       %c: tensor<96x64xf32>) -> tensor<96x64xbf16> {
  %0 = linalg.matmul ins(%a, %b : tensor<96x128xbf16>, tensor<128x64xbf16>)
                     outs(%c : tensor<96x64xf32>) -> tensor<96x64xf32>
  %1 = lowp.cast %0 : tensor<96x64xf32> to tensor<96x64xbf16>
  return %1 : tensor<96x64xbf16>
}

// bf16 arithmetic runs in f32 (arith-emulate-unsupported-floats on AVX2,
// LLVM's promotion with the chip's converts on AVX512_BF16;
// math-extend-to-supported-types for math), vectorized, still without
// __truncsfbf2.
// SPR-LABEL: elementwise_bf16:
// SPR: vcvtneps2bf16
func.func @elementwise_bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %e = tensor.empty() : tensor<64x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%e : tensor<64x64xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %s = arith.addf %x, %y : bf16
    %m = arith.mulf %s, %x : bf16
    %t = math.tanh %m : bf16
    linalg.yield %t : bf16
  } -> tensor<64x64xbf16>
  return %r : tensor<64x64xbf16>
}
