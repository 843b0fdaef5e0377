// RUN: fp-opt %s -lowp-x86-lower-contractions="target=sapphirerapids" | FileCheck %s --check-prefix=SPR
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4" | FileCheck %s --check-prefix=ZEN4
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2" | FileCheck %s --check-prefix=AVX2
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=sapphirerapids kc=128" | FileCheck %s --check-prefix=SET

// The k block of each kernel when kc is not set (KernelConfig::kcSteps):
// the f32 FMA kernel takes the target's TargetInfo::f32KBlock (measured per
// chip: 256 on Sapphire Rapids, whose 48 KiB L1 then holds the 32 KiB
// kc x nr slice of packed B; 512 on Zen 4 and the AVX2 baseline), the
// vdpbf16ps kernel 512 pairs (K = 2048: 2 blocks). On Sapphire Rapids
// without AMX, bf16 runs on the f32 FMA kernel (vdpbf16ps is half the FMAs'
// rate there, TargetInfo::bf16DotMacsPerCycle): its operands widened, its
// k block the f32 one (K = 2048: 8 blocks). kc=N sets every kernel's block.

// SPR-LABEL:  func.func @f32
// SPR:          scf.for %{{.*}} = %c0 to %c1024 step %c256 {
// ZEN4-LABEL: func.func @f32
// ZEN4:         scf.for %{{.*}} = %c0 to %c1024 step %c512 {
// AVX2-LABEL: func.func @f32
// AVX2:         scf.for %{{.*}} = %c0 to %c1024 step %c512 {
// SET-LABEL:  func.func @f32
// SET:          scf.for %{{.*}} = %c0 to %c1024 step %c128 {
func.func @f32(%a: memref<64x1024xf32>, %b: memref<1024x256xf32>, %c: memref<64x256xf32>) {
  linalg.matmul ins(%a, %b : memref<64x1024xf32>, memref<1024x256xf32>) outs(%c : memref<64x256xf32>)
  return
}

// SPR-LABEL:  func.func @bf16
// SPR-NOT:      x86vector.avx512.dot
// SPR:          scf.for %{{.*}} = %c0 to %c2048 step %c256 {
// SPR-NOT:      x86vector.avx512.dot
// SPR:          vector.fma
// ZEN4-LABEL: func.func @bf16
// ZEN4:         scf.for %{{.*}} = %c0 to %c1024 step %c512 {
// ZEN4:         x86vector.avx512.dot
// SET-LABEL:  func.func @bf16
// SET:          scf.for %{{.*}} = %c0 to %c2048 step %c128 {
func.func @bf16(%a: memref<64x2048xbf16>, %b: memref<2048x256xbf16>, %c: memref<64x256xf32>) {
  linalg.matmul ins(%a, %b : memref<64x2048xbf16>, memref<2048x256xbf16>) outs(%c : memref<64x256xf32>)
  return
}

// A skinny GEMM (M within one register block) on a B packed ahead
// (prepack: the argument arrives packed) streams each panel whole: one k
// loop over all of K, no k blocks. The same B with M beyond the register
// block keeps the target's k blocks. kc=N still sets the block. Its k
// loop is unrolled by eight, and the eight steps go round eight sets of
// accumulators (independent chains of FMAs: more loads in flight), summed
// after the loop, set by set.
// RUN: fp-opt %s -split-input-file -lowp-x86-lower-contractions="target=znver4 prepack=true" | FileCheck %s --check-prefix=SKINNY
// RUN: fp-opt %s -split-input-file -lowp-x86-lower-contractions="target=znver4 prepack=true kc=128" | FileCheck %s --check-prefix=SKINNY-SET

// SKINNY-LABEL:     func.func @gemv(
// SKINNY-SAME:        memref<8x2048x32xf32>
// SKINNY-NOT:         step %c512
// SKINNY:             scf.for %{{.*}} = %c0 to %c8 step %c1 {
// SKINNY-NEXT:          %{{.*}} = arith.muli
// SKINNY-NEXT:          %[[S:.*]]:16 = scf.for %[[K:.*]] = %c0 to %c2048 step %c8 iter_args(%[[A0:[a-z0-9]+]] = %cst, %[[A1:[a-z0-9]+]] = %cst, %[[B0:[a-z0-9]+]] = %cst, %[[B1:[a-z0-9]+]] = %cst,
// SKINNY-NOT:           memref.prefetch
// SKINNY:               vector.fma %{{.*}}, %{{.*}}, %[[A0]]
// SKINNY:               vector.fma %{{.*}}, %{{.*}}, %[[A1]]
// SKINNY:               vector.fma %{{.*}}, %{{.*}}, %[[B0]]
// SKINNY:               vector.fma %{{.*}}, %{{.*}}, %[[B1]]
// SKINNY-COUNT-12:      vector.fma
// SKINNY-NEXT:          scf.yield
// SKINNY-NEXT:        }
// SKINNY-NEXT:        %[[SUM0:.*]] = arith.addf %[[S]]#0, %[[S]]#2
// SKINNY-NEXT:        %[[SUM1:.*]] = arith.addf %[[S]]#1, %[[S]]#3
// SKINNY-NEXT:        %[[SUM2:.*]] = arith.addf %[[SUM0]], %[[S]]#4
// SKINNY-COUNT-11:    arith.addf
// SKINNY-NEXT:        vector.store
// SKINNY-NOT:         step %c512
// SKINNY:             return
// SKINNY-SET-LABEL: func.func @gemv(
// SKINNY-SET:         scf.for %{{.*}} = %c128 to %c1920 step %c128 {
func.func @gemv(%a: memref<1x2048xf32>, %b: memref<2048x256xf32>) -> memref<1x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x256xf32>)
  linalg.matmul ins(%a, %b : memref<1x2048xf32>, memref<2048x256xf32>) outs(%c : memref<1x256xf32>)
  return %c : memref<1x256xf32>
}

// SKINNY-LABEL: func.func @gemm_rows(
// SKINNY:         scf.for %{{.*}} = %c512 to %c1536 step %c512 {
func.func @gemm_rows(%a: memref<64x2048xf32>, %b: memref<2048x256xf32>) -> memref<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x2048xf32>, memref<2048x256xf32>) outs(%c : memref<64x256xf32>)
  return %c : memref<64x256xf32>
}
