// RUN: fp-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(lowp-rocdl-lower-asserts))' \
// RUN: | FileCheck %s
// RUN: fp-opt %s -split-input-file -lowp-pipeline-rocdl=target=gfx942 \
// RUN: | FileCheck %s --check-prefix=PIPELINE

// An assert in a loop body (a single-block region) of a kernel: a trap
// under scf.if when the condition is false.
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL: gpu.func @in_loop
// CHECK:         scf.for
// CHECK:           %[[NZ:.*]] = arith.cmpf one
// CHECK:           %[[TRUE:.*]] = arith.constant true
// CHECK:           %[[FAILED:.*]] = arith.xori %[[NZ]], %[[TRUE]] : i1
// CHECK:           scf.if %[[FAILED]] {
// CHECK-NEXT:        llvm.intr.trap
// CHECK-NEXT:      }
// CHECK-NOT:     cf.assert
// Through the pipeline, the kernel compiles and traps (s_trap) on the
// failed check.
// PIPELINE: gpu.binary @kernels {{.*}}s_trap 2
gpu.module @kernels {
  gpu.func @in_loop(%buf: memref<16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %buf[%i] : memref<16xf32>
      %nz = arith.cmpf one, %v, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %v : f32
      memref.store %r, %buf[%i] : memref<16xf32>
    }
    gpu.return
  }
}

// -----

// Host code is not the pass's: its assert stays.
// CHECK-LABEL: func.func @host
// CHECK:         cf.assert %{{.*}}, "checked on the host"
func.func @host(%c: i1) {
  cf.assert %c, "checked on the host"
  return
}

// -----

// The batch-norm form torch-mlir exports (a cf.assert in the generic's
// body) through the whole ROCDL pipeline: it compiles (upstream's assert
// lowering would leave the kernel referencing a message global outside its
// gpu.module, a verifier error) and the kernel traps on the failed check.
// PIPELINE: gpu.binary @inverse_std_kernel {{.*}}s_trap 2
func.func @inverse_std(%var: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%var : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.addf %in, %eps : f32
    %q = math.sqrt %p : f32
    %nz = arith.cmpf one, %q, %zero : f32
    cf.assert %nz, "unimplemented: tensor with zero element"
    %y = arith.divf %one, %q : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
