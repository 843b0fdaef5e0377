// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-gpu-device-buffers=calling-convention=device
// RUN: not fp-opt %s -lowp-gpu-device-buffers=calling-convention=managed 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: for the --calling-convention option: 'managed' is not one of: host, device

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @step(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  // Under the device convention the host cannot read an argument.
  func.func @reads_argument(%x: memref<16xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>)
    // expected-error @+1 {{'memref.load' on the host reads or writes argument #0, which the device calling convention passes as a device pointer}}
    %v = memref.load %x[%c0] : memref<16xf32>
    return %v : f32
  }
}
