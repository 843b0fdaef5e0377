// low=auto asks the capability table for the target's preferred 16-bit
// format: f16 on Volta/Turing, bf16 on Ampere and later, TPUs and
// AVX512_BF16 CPUs; targets without one (sm_60, avx2) keep f32 with a remark.
// The module's lowp.target (sm_75 here) is used when no option is given; an
// option overrides it and is recorded on the module.
// Where the table says the target has no elementwise arithmetic in that
// format (TPU v2-v5p, AVX512_BF16, CDNA3 for bf16), a low payload keeps its
// low storage but computes in f32 between one extension and one rounding.
// RUN: fp-opt %s --lowp-infer-precision="target=tpu-v4 report=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: note: target 'tpu-v4' has no bf16 elementwise arithmetic; low payloads store bf16 and compute in f32
// RUN: fp-opt %s --lowp-infer-precision | FileCheck %s --check-prefixes=CHECK,SM75,ARITH16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_70" | FileCheck %s --check-prefixes=CHECK,F16,ARITH16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_90" | FileCheck %s --check-prefixes=CHECK,BF16,ARITH16
// RUN: fp-opt %s --lowp-infer-precision="target=sm_80" | FileCheck %s --check-prefixes=CHECK,BF16,ARITH16
// RUN: fp-opt %s --lowp-infer-precision="target=tpu-v4" | FileCheck %s --check-prefixes=CHECK,BF16,STORE16
// RUN: fp-opt %s --lowp-infer-precision="target=avx512bf16" | FileCheck %s --check-prefixes=CHECK,BF16,STORE16
// RUN: fp-opt %s --lowp-infer-precision="target=gfx942" | FileCheck %s --check-prefixes=CHECK,BF16,STORE16
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
// expected-remark @below {{has no fast 16-bit matrix arithmetic; precision inference demotes nothing}}
module attributes {lowp.target = #lowp.target<"sm_75">} {
  func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                       outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }

  // CHECK-LABEL: func.func @between_products(
  // ARITH16:       ^bb0(%[[X:.+]]: [[LOW:b?f16]], %{{.+}}: [[LOW]]):
  // ARITH16-NEXT:    %[[H:.+]] = arith.constant 5.000000e-01 : [[LOW]]
  // ARITH16-NEXT:    %[[S:.+]] = arith.mulf %[[X]], %[[H]] : [[LOW]]
  // ARITH16-NEXT:    %[[Y:.+]] = arith.mulf %[[S]], %[[X]] : [[LOW]]
  // ARITH16-NEXT:    linalg.yield %[[Y]] : [[LOW]]
  // STORE16:       ^bb0(%[[X:.+]]: bf16, %{{.+}}: bf16):
  // STORE16-NEXT:    %[[W:.+]] = arith.extf %[[X]] : bf16 to f32
  // STORE16-NEXT:    %[[H:.+]] = arith.constant 5.000000e-01 : f32
  // STORE16-NEXT:    %[[S:.+]] = arith.mulf %[[W]], %[[H]] : f32
  // STORE16-NEXT:    %[[Y:.+]] = arith.mulf %[[S]], %[[W]] : f32
  // STORE16-NEXT:    %[[R:.+]] = arith.truncf %[[Y]] : f32 to bf16
  // STORE16-NEXT:    linalg.yield %[[R]] : bf16
  // NONE:          ^bb0(%{{.+}}: f32, %{{.+}}: f32):
  func.func @between_products(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>)
                       outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %c = arith.constant 5.000000e-01 : f32
      %h = arith.mulf %x, %c : f32
      %y = arith.mulf %h, %x : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
    %m2 = linalg.matmul ins(%s, %b : tensor<4x8xf32>, tensor<8x8xf32>)
                        outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %m2 : tensor<4x8xf32>
  }
}
