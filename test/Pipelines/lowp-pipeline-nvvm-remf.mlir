// arith.remf has no PTX instruction: inside a kernel it becomes libdevice's
// __nv_fmodf / __nv_fmod (convert-gpu-to-nvvm), both in kernels the
// pipeline maps from linalg and in a gpu.module the front end wrote. Host
// arith goes to LLVM on its own, so no llvm.frem reaches the kernels
// (where it used to fail with an unlocated "failed to legalize 'llvm.frem'").
//
// RUN: fp-opt %s -lowp-pipeline-nvvm=target=sm_80 | FileCheck %s
// CHECK: gpu.binary @kernels
// CHECK: llvm.func @host
// CHECK: llvm.frem %{{.*}}, %{{.*}} : f32
//
// Where the toolkit exists, libdevice is linked, nothing is left .extern
// and ptxas accepts the kernel (lowp-pipeline-nvvm-remf-ptxas.test).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @remainder(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf64>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<16xf32>
      %y = memref.load %b[%i] : memref<16xf32>
      %r = arith.remf %x, %y : f32
      memref.store %r, %a[%i] : memref<16xf32>
      %w = memref.load %c[%i] : memref<16xf64>
      %r64 = arith.remf %w, %w : f64
      memref.store %r64, %c[%i] : memref<16xf64>
      gpu.return
    }
  }
  // A host function with its own remf: lowered on the host, untouched by
  // the kernel lowering.
  func.func @host(%x: f32, %y: f32) -> f32 {
    %r = arith.remf %x, %y : f32
    return %r : f32
  }
}
