// The MFMA kernels of lowp-rocdl-lower-contractions (the GPU GEMM tiling of
// lib/Conversion/LinalgToGPU with the amdgpu.mfma back end), per chip and
// operand format, with the tiling of the capability table: 128 x 128
// workgroup tiles of 2 x 2 waves of 64 lanes (256 threads), LDS stages of
// 32-deep (16-bit) or 64-deep (FP8) slices padded by 16 bytes, the next
// slice loaded into registers before the MFMAs and stored to the other
// stage after them, one barrier per slice.
// RUN: fp-opt %s -split-input-file -lowp-rocdl-lower-contractions=target=gfx90a | FileCheck %s --check-prefix=GFX90A
// RUN: fp-opt %s -split-input-file -lowp-rocdl-lower-contractions=target=gfx908 | FileCheck %s --check-prefix=GFX908
// RUN: fp-opt %s -split-input-file -lowp-rocdl-lower-contractions=target=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: fp-opt %s -split-input-file -lowp-rocdl-lower-contractions=target=gfx950 | FileCheck %s --check-prefix=GFX950

// bf16, C zero-filled, M = 200 and N = 136 with tails: a 2 x 2 grid.
// gfx90a: 32x32x8 bf16_1k (4 bf16 per lane, 16 accumulators per tile): a
// 64 x 64 wave tile is 2 x 2 tiles, 64 accumulators carried by the k loop;
// 4 k steps per 32-deep slice, 4 MFMAs each: 16 per slice.
// GFX90A-LABEL: func.func @mm_bf16
// GFX90A-NOT: linalg.
// GFX90A: gpu.launch_func @mm_bf16_mfma::@mm_bf16_mfma blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
// GFX90A: gpu.module @mm_bf16_mfma
// GFX90A: gpu.func @mm_bf16_mfma(%{{.*}}: memref<200x72xbf16>, %{{.*}}: memref<72x136xbf16>, %{{.*}}: memref<200x136xf32>)
// GFX90A-SAME: workgroup(%[[AS:[a-z0-9]+]] : memref<2x128x40xbf16, 3> {llvm.align = 16 : i64}, %[[BS:[a-z0-9]+]] : memref<2x32x136xbf16, 3> {llvm.align = 16 : i64})
// GFX90A: vector.load {{.*}} : memref<200x72xbf16>, vector<8xbf16>
// GFX90A: gpu.barrier
// GFX90A: scf.for {{.*}} iter_args({{(%[a-z0-9_]+ = %[a-z0-9_]+, ){63}%[a-z0-9_]+ = %[a-z0-9_]+}})
// GFX90A-COUNT-2: vector.load {{.*}} : memref<200x72xbf16>, vector<8xbf16>
// GFX90A-COUNT-2: vector.load {{.*}} : memref<72x136xbf16>, vector<8xbf16>
// GFX90A: vector.load %[[AS]]{{.*}} : memref<2x128x40xbf16, 3>, vector<4xbf16>
// GFX90A-COUNT-16: amdgpu.mfma 32x32x8 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<16xf32>
// GFX90A-COUNT-4: vector.store {{.*}} : memref<2x{{.*}}xbf16, 3>, vector<8xbf16>
// GFX90A-NEXT: gpu.barrier
// GFX90A-NEXT: scf.yield
// GFX90A-COUNT-64: vector.store {{.*}} : memref<200x136xf32>, vector<1xf32>
// GFX908: amdgpu.mfma 32x32x4 {{.*}} : vector<2xbf16>, vector<2xbf16>, vector<16xf32>
// GFX942: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// GFX950: amdgpu.mfma 16x16x32 {{.*}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
func.func @mm_bf16(%a: memref<200x72xbf16>, %b: memref<72x136xbf16>, %c: memref<200x136xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<200x136xf32>)
  linalg.matmul ins(%a, %b : memref<200x72xbf16>, memref<72x136xbf16>)
                outs(%c : memref<200x136xf32>)
  return
}

// -----

// f16 x @ W^T: B staged as [n][k], its fragments one LDS read per lane too.
#tA = affine_map<(m, n, k) -> (m, k)>
#tB = affine_map<(m, n, k) -> (n, k)>
#tC = affine_map<(m, n, k) -> (m, n)>
// GFX942-LABEL: gpu.func @linear_f16_mfma
// GFX942-SAME: memref<2x128x40xf16, 3> {llvm.align = 16 : i64}, %[[BS:[a-z0-9]+]] : memref<2x128x40xf16, 3> {llvm.align = 16 : i64})
// GFX942: scf.for
// GFX942: vector.load %[[BS]]{{.*}} : memref<2x128x40xf16, 3>, vector<4xf16>
// GFX942-COUNT-16: amdgpu.mfma 16x16x16 {{.*}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// GFX90A-LABEL: gpu.func @linear_f16_mfma
// GFX90A: amdgpu.mfma 32x32x8 {{.*}} : vector<4xf16>, vector<4xf16>, vector<16xf32>
func.func @linear_f16(%x: memref<256x512xf16>, %w: memref<1024x512xf16>, %y: memref<256x1024xf32>) {
  linalg.generic {indexing_maps = [#tA, #tB, #tC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<256x512xf16>, memref<1024x512xf16>) outs(%y : memref<256x1024xf32>) {
  ^bb0(%p: f16, %q: f16, %o: f32):
    %pf = arith.extf %p : f16 to f32
    %qf = arith.extf %q : f16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
