// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-gpu-report-kernels

// Launches counted by the kind of their kernel's module; one inside a loop
// counts once; functions without launches and the kernels themselves get no
// remark.
module attributes {gpu.container_module} {
  gpu.module @f_mma_sync {
    gpu.func @f_mma_sync() kernel { gpu.return }
  }
  gpu.module @f_row_reduction {
    gpu.func @f_row_reduction() kernel { gpu.return }
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel() kernel { gpu.return }
  }
  // expected-remark @+1 {{@f launches 4 kernels: 1 matrix-unit, 1 row-reduction, 2 naive}}
  func.func @f(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_mma_sync::@f_mma_sync blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @f_row_reduction::@f_row_reduction blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    }
    return
  }
  func.func @host_only() {
    return
  }
}
