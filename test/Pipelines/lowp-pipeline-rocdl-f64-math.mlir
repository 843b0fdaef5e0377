// f64 math in lowp-pipeline-rocdl without rocm-path (no ROCm device
// library): floor (as -ceil(-x)), ceil, sqrt, fma and fpowi by a constant
// compile for gfx942 to code that calls nothing and assembles with llvm-mc;
// f64 exp (and any other transcendental) and arith.remf are rejected with
// exactly one located error naming the op (notes for further ops), not a
// legalization failure of an llvm.intr.* op or a missing-bitcode error at
// serialization. With rocm-path, the library is what is asked for.
// RUN: not fp-opt %s -lowp-pipeline-rocdl=target=gfx942 -split-input-file 2>%t.err \
// RUN: | %python %S/Inputs/extract_gpu_asm.py --llvm-mc llvm-mc --mcpu gfx942 \
// RUN: | FileCheck %s --implicit-check-not=__ocml --implicit-check-not=s_swappc
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: not fp-opt %s -lowp-pipeline-rocdl="target=gfx942 rocm-path=%t.no-rocm" -split-input-file \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROCM

// The exact ops: compiled to f64 instructions (ceil through trunc), no call.
// CHECK-DAG: v_trunc_f64
// CHECK-DAG: v_rsq_f64
// CHECK-DAG: v_fma_f64

// One error per rejected split, on the op, nothing else.
// DIAG-NOT: error:
// DIAG: lowp-pipeline-rocdl-f64-math.mlir:[[@LINE+35]]:10: error: 'math.exp' on 'f64' in an AMDGPU kernel needs the ROCm device library (ocml): AMDGCN has no instruction for it and lowp-rocdl-expand-math no exact expansion; give lowp-pipeline-rocdl rocm-path=<ROCm installation>, or compute it in f32
// DIAG-NOT: error:
// DIAG: lowp-pipeline-rocdl-f64-math.mlir:[[@LINE+34]]:10: note: 'math.log' here needs it as well
// DIAG-NOT: error:
// DIAG: lowp-pipeline-rocdl-f64-math.mlir:[[@LINE+46]]:10: error: 'arith.remf' on 'f32' in an AMDGPU kernel needs the ROCm device library (ocml)
// DIAG-NOT: error:

// ROCM: error: {{.*}}no-rocm/amdgcn/bitcode does not exist
// ROCM-NOT: needs the ROCm device library

#id = affine_map<(i) -> (i)>
func.func @exact_f64(%x: tensor<256xf64>) -> tensor<256xf64> {
  %e = tensor.empty() : tensor<256xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<256xf64>) outs(%e : tensor<256xf64>) {
  ^bb0(%a: f64, %o: f64):
    %c3 = arith.constant 3 : i32
    %0 = math.floor %a : f64
    %1 = math.ceil %0 : f64
    %2 = math.sqrt %1 : f64
    %3 = math.fma %2, %a, %a : f64
    %4 = math.fpowi %3, %c3 : f64, i32
    linalg.yield %4 : f64
  } -> tensor<256xf64>
  return %r : tensor<256xf64>
}

// -----

#id = affine_map<(i) -> (i)>
func.func @transcendental_f64(%x: tensor<256xf64>) -> tensor<256xf64> {
  %e = tensor.empty() : tensor<256xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<256xf64>) outs(%e : tensor<256xf64>) {
  ^bb0(%a: f64, %o: f64):
    %0 = math.exp %a : f64
    %1 = math.log %0 : f64
    linalg.yield %1 : f64
  } -> tensor<256xf64>
  return %r : tensor<256xf64>
}

// -----

#id = affine_map<(i) -> (i)>
func.func @fmod_f32(%x: tensor<256xf32>, %y: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.remf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
