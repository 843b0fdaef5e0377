// RUN: fp-opt %s -split-input-file -verify-diagnostics -pass-pipeline="builtin.module(gpu.module(lowp-gpu-lower-subgroup-reduce{target=avx2}))"

// expected-error @+1 {{lowp-gpu-lower-subgroup-reduce needs a GPU of the capability table}}
gpu.module @kernels {
  gpu.func @row_sum(%x: f32, %out: memref<1xf32>) kernel {
    %r = gpu.subgroup_reduce add %x uniform : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// Nothing to lower: no target needed.
gpu.module @nothing {
  gpu.func @copy(%x: f32, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %x, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
