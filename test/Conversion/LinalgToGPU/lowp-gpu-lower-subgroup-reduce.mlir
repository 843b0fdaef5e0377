// RUN: fp-opt %s -split-input-file -verify-diagnostics -pass-pipeline="builtin.module(gpu.module(lowp-gpu-lower-subgroup-reduce{target=sm_90}))" | FileCheck %s --check-prefix=NV
// RUN: fp-opt %s -split-input-file -verify-diagnostics -pass-pipeline="builtin.module(gpu.module(lowp-gpu-lower-subgroup-reduce{target=gfx942}))" | FileCheck %s --check-prefix=AMD

// The subgroup size is the table's: a warp of 32 lanes is a butterfly of 5
// xor shuffles (offsets 1 .. 16) on NVIDIA; a wavefront of 64 on gfx942 is
// DPP row operations plus a row broadcast and a readlane.

// NV-LABEL: gpu.func @row_sum
// NV-NOT: gpu.subgroup_reduce
// NV: gpu.shuffle xor %{{.*}}, %[[C1:.*]], %[[W:.*]] : f32
// NV: arith.addf
// NV: gpu.shuffle xor
// NV: gpu.shuffle xor
// NV: gpu.shuffle xor
// NV: gpu.shuffle xor %{{.*}}, %{{.*}}, %[[W]] : f32
// NV-NOT: gpu.shuffle
// NV: gpu.return

// AMD-LABEL: gpu.func @row_sum
// AMD-NOT: gpu.subgroup_reduce
// AMD: amdgpu.dpp
// AMD: row_bcast
// AMD: rocdl.readlane
gpu.module @kernels {
  gpu.func @row_sum(%x: f32, %out: memref<1xf32>) kernel {
    %r = gpu.subgroup_reduce add %x uniform : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
