// The PTX target is fixed when the pipeline is built, so a missing, unknown
// or non-NVIDIA chip is an error in the pipeline text, before anything runs
// (lowp-pipeline-rocdl rejects chips the same way), naming the chips the
// capability table has.
// RUN: not fp-opt %s -lowp-pipeline-nvvm=target=sm_999 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fp-opt %s -lowp-pipeline-nvvm=target=gfx942 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: not fp-opt %s -lowp-pipeline-nvvm 2>&1 | FileCheck %s --check-prefix=NOCHIP
// UNKNOWN: lowp-pipeline-nvvm needs target=<chip>, one of the capability table's nvidia chips (sm_60, sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_120); got 'sm_999'
// AMD: lowp-pipeline-nvvm needs target=<chip>, one of the capability table's nvidia chips ({{.*}}); got 'gfx942'
// NOCHIP: lowp-pipeline-nvvm needs target=<chip>, one of the capability table's nvidia chips ({{.*}}); got ''
// The module is never printed: nothing ran.
// UNKNOWN-NOT: func.func
// AMD-NOT: func.func

module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xbf16> {
    %y = lowp.cast %x : tensor<4xf32> to tensor<4xbf16>
    return %y : tensor<4xbf16>
  }
}

// A cuda-path that is not a directory is an error in the pipeline text too
// (not a dump of the kernel module from gpu-module-to-binary).
// RUN: not fp-opt %s -lowp-pipeline-nvvm="target=sm_80 cuda-path=%t.missing" 2>&1 | FileCheck %s --check-prefix=CUDAPATH
// CUDAPATH: lowp-pipeline-nvvm: cuda-path '{{.*}}.missing' is not a directory (libdevice is linked from <cuda-path>/nvvm/libdevice)
// CUDAPATH-NOT: gpu.module
