// Inputs the GPU and TPU pipelines failed on (the front half they share
// with x86, see lowp-pipeline-x86-robustness.mlir, found by
// utils/fuzz_passes.py): each now lowers to LLVM code (host code and a
// kernel binary on GPUs).
// RUN: fp-opt %s -split-input-file -lowp-pipeline-nvvm=target=sm_90 | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: fp-opt %s -split-input-file -lowp-pipeline-rocdl=target=gfx942 | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: fp-opt %s -split-input-file -lowp-pipeline-tpu=target=tpu-v5e | FileCheck %s

// A scalar dense_resource parameter: finalize-memref-to-llvm aborted on it.
//       CHECK: llvm.mlir.global private constant @__constant_xf32(2.000000e+00 : f32)
// CHECK-LABEL: llvm.func @scalar_resource
//        NVVM: gpu.binary @scalar_resource_kernel  [#gpu.object<#nvvm.target<chip = "sm_90"
//       ROCDL: gpu.binary @scalar_resource_kernel  [#gpu.object<#rocdl.target<chip = "gfx942"
func.func @scalar_resource(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = arith.constant dense_resource<scale> : tensor<f32>
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %s : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      scale: "0x0400000000000040"
    }
  }
#-}

// -----

// arith/math on whole tensors: did not bufferize.
// CHECK-LABEL: llvm.func @tensor_arith
//        NVVM: gpu.binary @tensor_arith_kernel  [#gpu.object<#nvvm.target<chip = "sm_90"
//       ROCDL: gpu.binary @tensor_arith_kernel  [#gpu.object<#rocdl.target<chip = "gfx942"
func.func @tensor_arith(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = math.exp %x : tensor<4x8xf32>
  %c = arith.cmpf olt, %0, %y : tensor<4x8xf32>
  %1 = arith.select %c, %0, %y : tensor<4x8xi1>, tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A branch that carries a tensor: did not bufferize.
// CHECK-LABEL: llvm.func @branch_carries_tensor
//       CHECK:   llvm.select %arg10, %{{.*}}, %{{.*}} : i1, !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
//        NVVM: gpu.binary @branch_carries_tensor_kernel  [#gpu.object<#nvvm.target<chip = "sm_90"
//       ROCDL: gpu.binary @branch_carries_tensor_kernel  [#gpu.object<#rocdl.target<chip = "gfx942"
func.func @branch_carries_tensor(%x: tensor<?xf32>, %y: tensor<?xf32>, %c: i1) -> tensor<?xf32> {
  %e = math.exp %x : tensor<?xf32>
  cf.cond_br %c, ^bb1(%e : tensor<?xf32>), ^bb1(%y : tensor<?xf32>)
^bb1(%r: tensor<?xf32>):
  return %r : tensor<?xf32>
}

// -----

// Complex payloads in a kernel: convert-gpu-to-nvvm leaves complex ops to
// the host's gpu-to-llvm, whose conversion left a dead
// unrealized_conversion_cast in the kernel that failed serialization.
// CHECK-LABEL: llvm.func @complex_abs
//        NVVM: gpu.binary @complex_abs_kernel  [#gpu.object<#nvvm.target<chip = "sm_90"
//       ROCDL: gpu.binary @complex_abs_kernel  [#gpu.object<#rocdl.target<chip = "gfx942"
func.func @complex_abs(%x: tensor<16xcomplex<f32>>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xcomplex<f32>>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: complex<f32>, %o: f32):
    %m = complex.abs %a : complex<f32>
    linalg.yield %m : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// GELU's erf in a kernel (utils/check_no_error_on_success.py): the ROCDL
// pipeline called ocml's __ocml_erf_f32 and failed without a ROCm install
// ("amdgcn bitcode path does not exist"); f32 transcendentals are
// polynomials in the kernel now (lowp-approximate-math), on both GPUs.
// CHECK-LABEL: llvm.func @gelu_erf
//        NVVM: gpu.binary @gelu_erf_kernel  [#gpu.object<#nvvm.target<chip = "sm_90"
//       ROCDL: gpu.binary @gelu_erf_kernel  [#gpu.object<#rocdl.target<chip = "gfx942"
#id = affine_map<(d0) -> (d0)>
func.func @gelu_erf(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs2 = arith.constant 0.707106769 : f32
    %s = arith.mulf %in, %rs2 : f32
    %er = math.erf %s : f32
    %p = arith.addf %er, %one : f32
    %h = arith.mulf %in, %half : f32
    %y = arith.mulf %h, %p : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %g : tensor<64xf32>
}

