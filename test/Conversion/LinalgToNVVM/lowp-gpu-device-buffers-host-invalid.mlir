// RUN: fp-opt %s -verify-diagnostics -lowp-gpu-device-buffers

// Under the host convention a strided argument cannot be copied whole.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @step(%a: memref<16xf32, strided<[2]>>) kernel {
      gpu.return
    }
  }
  // expected-error @+1 {{argument #0 is not a contiguous row-major buffer: the host calling convention copies it to the device whole}}
  func.func @strided(%x: memref<16xf32, strided<[2]>>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32, strided<[2]>>)
    return
  }
}
