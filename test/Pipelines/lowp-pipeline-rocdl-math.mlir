// Math in AMDGPU kernels without the ROCm device library: every math op the
// fuzzer's programs use (f32; f16 and bf16 go through f32) compiles for
// gfx942 to code that calls nothing (no __ocml_*, no s_swappc), and the
// AMDGCN assembles with llvm-mc: exp/log/sqrt through the backend's own
// v_exp_f32/v_log_f32/v_sqrt_f32, sin, cos, tan, atan, asin, acos, cbrt,
// erf, erfc, log2 as polynomial approximations (lowp-rocdl-expand-math,
// whose accuracy test/Conversion/LinalgToROCDL/lowp-rocdl-expand-math.mlir
// measures), floor and log10 through exact identities. With rocm-path the
// same ops become __ocml_* calls linked from that installation's device
// library (none here: the missing bitcode directory is reported).
// RUN: fp-opt %s -lowp-pipeline-rocdl=target=gfx942 \
// RUN: | %python %S/Inputs/extract_gpu_asm.py --llvm-mc llvm-mc --mcpu gfx942 | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-rocdl=target=gfx942 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOERROR --allow-empty
// RUN: not fp-opt %s -lowp-pipeline-rocdl="target=gfx942 rocm-path=%t.no-rocm" 2>&1 | FileCheck %s --check-prefix=ROCM

// CHECK-NOT: {{__ocml|s_swappc}}
// CHECK: v_exp_f32
// CHECK-NOT: {{__ocml|s_swappc}}
// NOERROR-NOT: error
// ROCM: error: {{.*}}no-rocm/amdgcn/bitcode does not exist

#id = affine_map<(i) -> (i)>
func.func @every_math_op(%x: tensor<256xf32>, %h: tensor<256xf16>) -> (tensor<256xf32>, tensor<256xf16>) {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    %1 = math.exp2 %0 : f32
    %2 = math.expm1 %1 : f32
    %3 = math.log %2 : f32
    %4 = math.log2 %3 : f32
    %5 = math.log10 %4 : f32
    %6 = math.log1p %5 : f32
    %7 = math.sqrt %6 : f32
    %8 = math.rsqrt %7 : f32
    %9 = math.erf %8 : f32
    %10 = math.erfc %9 : f32
    %11 = math.tanh %10 : f32
    %12 = math.sinh %11 : f32
    %13 = math.cosh %12 : f32
    %14 = math.sin %13 : f32
    %15 = math.cos %14 : f32
    %16 = math.tan %15 : f32
    %17 = math.atan %16 : f32
    %18 = math.asin %17 : f32
    %19 = math.acos %18 : f32
    %20 = math.asinh %19 : f32
    %21 = math.acosh %20 : f32
    %22 = math.atanh %21 : f32
    %23 = math.cbrt %22 : f32
    %24 = math.floor %23 : f32
    %25 = math.ceil %24 : f32
    %26 = math.round %25 : f32
    %27 = math.roundeven %26 : f32
    %28 = math.trunc %27 : f32
    %29 = math.absf %28 : f32
    %30 = math.powf %29, %a : f32
    %31 = math.atan2 %30, %a : f32
    linalg.yield %31 : f32
  } -> tensor<256xf32>
  %eh = tensor.empty() : tensor<256xf16>
  %rh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%h : tensor<256xf16>) outs(%eh : tensor<256xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = math.sin %a : f16
    %1 = math.erf %0 : f16
    %2 = math.floor %1 : f16
    linalg.yield %2 : f16
  } -> tensor<256xf16>
  return %r, %rh : tensor<256xf32>, tensor<256xf16>
}
