// low=auto asks the capability table for the target's preferred 16-bit
// format: f16 on Volta/Turing, bf16 on Ampere and later, TPUs and
// AVX512_BF16 CPUs; targets without one (sm_60, avx2) keep f32 with a remark.
// The module's lowp.target (sm_75 here) is used when no option is given; an
// option overrides it and is recorded on the module.
// RUN: fp-opt %s --lowp-infer-precision | FileCheck %s --check-prefixes=CHECK,SM75
// RUN: fp-opt %s --lowp-infer-precision="target=sm_70" | FileCheck %s --check-prefixes=CHECK,F16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_90" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_80" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s --lowp-infer-precision="target=tpu-v4" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s --lowp-infer-precision="target=avx512bf16" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s --lowp-infer-precision="target=gfx942" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_60" -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: fp-opt %s --lowp-infer-precision="target=avx2" -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,NONE

// SM75:  module attributes {lowp.target = #lowp.target<"sm_75">}
// F16:   module attributes {lowp.target = #lowp.target<"sm_70">}
// NONE:  module attributes {lowp.target = #lowp.target<"{{sm_60|avx2}}">}
// CHECK-LABEL: func.func @matmul(
// SM75:    linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>)
// F16:     linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>)
// BF16:    linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%{{.*}} : tensor<4x16xf32>)
// NONE-NOT: lowp.cast
// NONE:    linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// expected-remark @below {{has no fast 16-bit matrix arithmetic; precision inference leaves the module unchanged}}
module attributes {lowp.target = #lowp.target<"sm_75">} {
  func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                       outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
}
