// FP8 MFMA kernels on each chip's own FP8 flavour, in any E4M3/E5M2 mix:
// 16x16x32 with 8 FP8 values per lane (one 8-byte LDS read), slices 64
// deep (16-byte chunks of 16 values). The dequantization that follows the
// matmul (the product times 1 / (sa * sb), scalars in 0-d buffers) and the
// narrowing cast are computed on the accumulators before the store.
// RUN: fp-opt %s -split-input-file -verify-diagnostics -lowp-rocdl-lower-contractions | FileCheck %s

// CHECK-LABEL: func.func @fnuz_gfx942
// CHECK-NOT: linalg.
// CHECK: gpu.func @fnuz_gfx942_mfma(%{{.*}}: memref<136x80xf8E4M3FNUZ>, %{{.*}}: memref<80x48xf8E5M2FNUZ>, %{{.*}}: memref<f32>, %{{.*}}: memref<f32>, %{{.*}}: memref<136x48xbf16>)
// CHECK-SAME: workgroup(%{{.*}} : memref<2x128x80xf8E4M3FNUZ, 3> {llvm.align = 16 : i64}, %{{.*}} : memref<2x64x144xf8E5M2FNUZ, 3> {llvm.align = 16 : i64})
// CHECK: scf.for
// CHECK: vector.load {{.*}} : memref<136x80xf8E4M3FNUZ>, vector<16xf8E4M3FNUZ>
// CHECK: vector.load {{.*}} : memref<2x128x80xf8E4M3FNUZ, 3>, vector<8xf8E4M3FNUZ>
// CHECK-COUNT-16: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf8E4M3FNUZ>, vector<8xf8E5M2FNUZ>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: memref.load {{.*}} : memref<f32>
// CHECK: memref.load {{.*}} : memref<f32>
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: vector.store {{.*}} : memref<136x48xbf16>, vector<1xbf16>
#id = affine_map<(i, j) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>
module attributes {lowp.target = #lowp.target<"gfx942">} {
  func.func @fnuz_gfx942(%a: memref<136x80xf8E4M3FNUZ>, %b: memref<80x48xf8E5M2FNUZ>,
                         %sa: memref<f32>, %sb: memref<f32>, %out: memref<136x48xbf16>) {
    %zero = arith.constant 0.0 : f32
    %c = memref.alloc() : memref<136x48xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<136x48xf32>)
    linalg.matmul ins(%a, %b : memref<136x80xf8E4M3FNUZ>, memref<80x48xf8E5M2FNUZ>) outs(%c : memref<136x48xf32>)
    linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
        ins(%c, %sa, %sb : memref<136x48xf32>, memref<f32>, memref<f32>) outs(%out : memref<136x48xbf16>) {
    ^bb0(%x: f32, %p: f32, %q: f32, %o: bf16):
      %s = arith.mulf %p, %q : f32
      %d = arith.divf %x, %s : f32
      %n = arith.truncf %d : f32 to bf16
      linalg.yield %n : bf16
    }
    memref.dealloc %c : memref<136x48xf32>
    return
  }
}

// -----

// CHECK-LABEL: func.func @ocp_gfx950
// CHECK: gpu.func @ocp_gfx950_mfma
// CHECK-COUNT-16: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf8E5M2>, vector<8xf8E4M3FN>, vector<4xf32>
module attributes {lowp.target = #lowp.target<"gfx950">} {
  func.func @ocp_gfx950(%a: memref<128x64xf8E5M2>, %b: memref<64x64xf8E4M3FN>, %c: memref<128x64xf32>) {
    linalg.matmul ins(%a, %b : memref<128x64xf8E5M2>, memref<64x64xf8E4M3FN>) outs(%c : memref<128x64xf32>)
    return
  }
}

// -----

// FP8 x 16-bit is no MFMA; it stays on the naive kernel with a remark.
// CHECK-LABEL: func.func @mixed_width
// CHECK: linalg.matmul
module attributes {lowp.target = #lowp.target<"gfx942">} {
  func.func @mixed_width(%a: memref<64x64xf8E4M3FNUZ>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
    // expected-remark @+1 {{no MFMA kernel for 'linalg.matmul' on gfx942: A and B have different element types; it runs on the naive kernel}}
    linalg.matmul ins(%a, %b : memref<64x64xf8E4M3FNUZ>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
    return
  }
}
