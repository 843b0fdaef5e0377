// RUN: fp-opt %s -lowp-pin-matrix-ops="ops=0,2" | FileCheck %s
// RUN: fp-opt %s -lowp-pin-matrix-ops="ops=1 precision=bf16" | FileCheck %s --check-prefix=BF16
// RUN: fp-opt %s -lowp-pin-matrix-ops="list=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: fp-opt %s -lowp-pin-matrix-ops="ops=1" --lowp-auto-mixed-precision="target=sm_90" | FileCheck %s --check-prefix=DECIDED

// Matrix ops are numbered in walk order: the named matmul, the generic
// contraction, the convolution; the elementwise generic is not one.
// CHECK-LABEL: func @numbered
// CHECK: linalg.matmul {lowp.precision = f32}
// CHECK: ^bb0
// CHECK: arith.addf
// CHECK: } -> tensor<4x8xf32>
// CHECK: ^bb0
// CHECK: arith.mulf
// CHECK: } -> tensor<4x8xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {lowp.precision = f32}
// BF16-LABEL: func @numbered
// BF16-NOT: lowp.precision = f32
// BF16: attrs = {lowp.precision = bf16}
// LIST: remark: matrix op #0: linalg.matmul, 96 input elements (32 x f32, 64 x f32)
// LIST: remark: matrix op #1: linalg.generic, 96 input elements (32 x f32, 64 x f32)
// LIST: remark: matrix op #2: linalg.conv_2d_nhwc_hwcf, 144 input elements (72 x f32, 72 x f32)
// A decided module lists the types the decision gave each input (what
// fpopt.tune counts bytes by).
// RUN: fp-opt %s -lowp-pin-matrix-ops="ops=1" --lowp-auto-mixed-precision="target=sm_90" \
// RUN:   | fp-opt -lowp-pin-matrix-ops="list=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPES
// TYPES: remark: matrix op #0: linalg.matmul, 96 input elements (32 x bf16, 64 x bf16)
// TYPES: remark: matrix op #1: linalg.generic, 96 input elements (32 x f32, 64 x f32)
// TYPES: remark: matrix op #2: linalg.conv_2d_nhwc_hwcf, 144 input elements (72 x bf16, 72 x bf16)
// The pinned contraction keeps f32 inputs; the others get bf16.
// DECIDED-LABEL: func @numbered
// DECIDED: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>)
// DECIDED: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32>)
// DECIDED: linalg.conv_2d_nhwc_hwcf ins(%{{.*}}, %{{.*}} : tensor<1x6x6x2xbf16>, tensor<3x3x2x4xbf16>)
func.func @numbered(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>,
                    %img: tensor<1x6x6x2xf32>, %k: tensor<3x3x2x4xf32>, %o: tensor<1x4x4x4xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x4x4x4xf32>) {
  %0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%1, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %3 = linalg.conv_2d_nhwc_hwcf ins(%img, %k : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x4x4x4xf32>
}
