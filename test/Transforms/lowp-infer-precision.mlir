// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=f16" | FileCheck %s --check-prefixes=CHECK,F16
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16 accumulate=low" | FileCheck %s --check-prefix=LOWACC
// Idempotence: a second run changes nothing.
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16" > %t.once
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16" | fp-opt -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16" > %t.twice
// RUN: diff %t.once %t.twice
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16 demote-signatures=true" | FileCheck %s --check-prefix=SIG
// Per-kind overrides.
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16 keep-f32=linalg.matmul,linalg.batch_matmul" | FileCheck %s --check-prefix=KEEP
// RUN: fp-opt %s -allow-unregistered-dialect -split-input-file --lowp-infer-precision="low=bf16 force-low=linalg.generic" | FileCheck %s --check-prefix=FORCE

// Matrix class: 16-bit inputs, the f32 accumulator (fill included) kept.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// BF16-DAG:      %[[A16:.*]] = lowp.cast %[[A]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16-DAG:      %[[B16:.*]] = lowp.cast %[[B]] : tensor<8x16xf32> to tensor<8x16xbf16>
// BF16:          %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// BF16:          %[[R:.*]] = linalg.matmul ins(%[[A16]], %[[B16]] : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%[[ACC]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// BF16:          return %[[R]] : tensor<4x16xf32>
// F16:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>)
// With accumulate=low the fill (constant rounded) and the result are bf16,
// and one cast returns the result to the f32 signature.
// LOWACC-LABEL: func.func @matmul(
// LOWACC:         %[[Z:.*]] = arith.constant 0.000000e+00 : bf16
// LOWACC:         %[[E:.*]] = tensor.empty() : tensor<4x16xbf16>
// LOWACC:         %[[F:.*]] = linalg.fill ins(%[[Z]] : bf16) outs(%[[E]] : tensor<4x16xbf16>) -> tensor<4x16xbf16>
// LOWACC:         %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%[[F]] : tensor<4x16xbf16>) -> tensor<4x16xbf16>
// LOWACC:         %[[W:.*]] = lowp.cast %[[M]] : tensor<4x16xbf16> to tensor<4x16xf32>
// LOWACC:         return %[[W]]
// demote-signatures: an entry function takes the 16-bit tensors its body
// casts to anyway; the f32 accumulator result stays f32.
// SIG-LABEL: func.func @matmul(
// SIG-SAME:      %{{.*}}: tensor<4x8xbf16>, %{{.*}}: tensor<8x16xbf16>) -> tensor<4x16xf32>
// SIG-NOT:     lowp.cast
// SIG:         return
// A function called in the module (@loop calls itself) keeps its signature.
// SIG-LABEL: func.func @loop(
// SIG-SAME:      %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>, %{{.*}}: index) -> tensor<4x8xf32>
// SIG:         lowp.cast %{{.*}} : tensor<8x8xf32> to tensor<8x8xbf16>
// keep-f32 keeps every matmul wide, so nothing else has a reason to change.
// KEEP-LABEL: func.func @matmul(
// KEEP-NOT:     lowp.cast
// KEEP:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// KEEP-LABEL: func.func @batch_matmul_and_maps(
// KEEP-NOT:     lowp.cast
// KEEP:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
// KEEP-NOT:     lowp.cast
// KEEP:         linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<16x8xf32>)
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul_and_maps(
// BF16:          linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xbf16>, tensor<2x8x16xbf16>) outs(%{{.*}} : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// BF16:          linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<16x8xbf16>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
func.func @batch_matmul_and_maps(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %acc: tensor<2x4x16xf32>,
                                 %c: tensor<4x8xf32>, %d: tensor<16x8xf32>, %acc2: tensor<4x16xf32>) -> (tensor<2x4x16xf32>, tensor<4x16xf32>) {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
                           outs(%acc : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
                     ins(%c, %d : tensor<4x8xf32>, tensor<16x8xf32>)
                     outs(%acc2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r, %s : tensor<2x4x16xf32>, tensor<4x16xf32>
}

// -----

// Convolutions (NHWC, NCHW, depthwise) are matrix ops; %x is cast once for
// its two users.
// CHECK-LABEL: func.func @convs(
// BF16-COUNT-5:  lowp.cast
// BF16-NOT:      lowp.cast
// BF16:          linalg.conv_2d_nhwc_hwcf ins(%{{.*}}, %{{.*}} : tensor<1x8x8x3xbf16>, tensor<3x3x3x4xbf16>) outs(%{{.*}} : tensor<1x6x6x4xf32>)
// BF16:          linalg.conv_2d_nchw_fchw ins(%{{.*}}, %{{.*}} : tensor<1x3x8x8xbf16>, tensor<4x3x3x3xbf16>) outs(%{{.*}} : tensor<1x4x6x6xf32>)
// BF16:          linalg.depthwise_conv_2d_nhwc_hwc ins(%{{.*}}, %{{.*}} : tensor<1x8x8x3xbf16>, tensor<3x3x3xbf16>) outs(%{{.*}} : tensor<1x6x6x3xf32>)
func.func @convs(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>, %acc: tensor<1x6x6x4xf32>,
                 %xc: tensor<1x3x8x8xf32>, %fc: tensor<4x3x3x3xf32>, %accc: tensor<1x4x6x6xf32>,
                 %fd: tensor<3x3x3xf32>, %accd: tensor<1x6x6x3xf32>)
    -> (tensor<1x6x6x4xf32>, tensor<1x4x6x6xf32>, tensor<1x6x6x3xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf ins(%x, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
                                outs(%acc : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = linalg.conv_2d_nchw_fchw ins(%xc, %fc : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
                                outs(%accc : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %fd : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>)
                                         outs(%accd : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  return %0, %1, %2 : tensor<1x6x6x4xf32>, tensor<1x4x6x6xf32>, tensor<1x6x6x3xf32>
}

// -----

// A generic that computes a matmul is a matrix op: 16-bit inputs, the body
// extends them and accumulates in f32 (what linalg.matmul itself builds).
// CHECK-LABEL: func.func @generic_contraction(
// BF16:          linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%{{.*}} : tensor<4x16xf32>)
// BF16-NEXT:     ^bb0(%[[X:.*]]: bf16, %[[Y:.*]]: bf16, %[[O:.*]]: f32):
// BF16-NEXT:       %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// BF16-NEXT:       %[[YW:.*]] = arith.extf %[[Y]] : bf16 to f32
// BF16-NEXT:       %[[P:.*]] = arith.mulf %[[XW]], %[[YW]] : f32
// BF16-NEXT:       %[[S:.*]] = arith.addf %[[O]], %[[P]] : f32
// BF16-NEXT:       linalg.yield %[[S]] : f32
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @generic_contraction(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Follow: elementwise arithmetic between two matrix ops runs low; its body
// computes in the low format and its constant is rounded (0.1 to nearest).
// CHECK-LABEL: func.func @follow_between_matmuls(
// BF16:          %[[M1:.*]] = linalg.matmul {{.*}} -> tensor<4x8xf32>
// BF16-NEXT:     %[[M1L:.*]] = lowp.cast %[[M1]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16-NEXT:     %[[E:.*]] = tensor.empty() : tensor<4x8xbf16>
// BF16-NEXT:     %[[H:.*]] = linalg.generic {{.*}} ins(%[[M1L]] : tensor<4x8xbf16>) outs(%[[E]] : tensor<4x8xbf16>)
// BF16-NEXT:     ^bb0(%[[IN:.*]]: bf16, %{{.*}}: bf16):
// BF16-NEXT:       %[[C:.*]] = arith.constant 1.000980e-01 : bf16
// BF16-NEXT:       %[[S:.*]] = arith.addf %[[IN]], %[[C]] : bf16
// BF16-NEXT:       linalg.yield %[[S]] : bf16
// BF16:          linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>)
// F16:           arith.constant 9.997550e-02 : f16
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @follow_between_matmuls(%a: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m1 = linalg.matmul ins(%a, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.1 : f32
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}

// -----

// Cast-aware reversal: a bias add whose only user is f32 stays f32 (the
// accumulator is already f32; demoting it would add two casts).
// CHECK-LABEL: func.func @follow_into_wide_user(
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[M]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NOT:     lowp.cast
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @follow_into_wide_user(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %h : tensor<4x8xf32>
}

// -----

// Sensitive: exp stays f32 even between matmuls, and so does the follow op
// downstream of it; one cast feeds the second matmul.
// CHECK-LABEL: func.func @sensitive_exp(
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:           math.exp %{{.*}} : f32
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// BF16:          %[[YL:.*]] = lowp.cast %[[Y]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16-NEXT:     linalg.matmul ins(%[[YL]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>)
// force-low=linalg.generic demotes the exp too: the whole chain is bf16.
// FORCE-LABEL: func.func @sensitive_exp(
// FORCE:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// FORCE:           math.exp %{{.*}} : bf16
// FORCE:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// FORCE:           arith.mulf %{{.*}}, %{{.*}} : bf16
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sensitive_exp(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m1 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%y, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}

// -----

// A sum over a reduction dimension: sensitive in f16 (range), follows in
// bf16 (f32's exponent range), together with the reshapes and the broadcast
// after it.
// CHECK-LABEL: func.func @row_sum(
// BF16:          linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4xbf16>)
// BF16:            arith.addf %{{.*}}, %{{.*}} : bf16
// BF16:          tensor.expand_shape {{.*}} : tensor<4xbf16> into tensor<4x1xbf16>
// BF16:          tensor.collapse_shape {{.*}} : tensor<4x1xbf16> into tensor<4xbf16>
// BF16:          linalg.broadcast ins(%{{.*}} : tensor<4xbf16>) outs(%{{.*}} : tensor<4x4xbf16>)
// F16:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>)
// F16:             arith.addf %{{.*}}, %{{.*}} : f32
// F16:           tensor.expand_shape {{.*}} : tensor<4xf32> into tensor<4x1xf32>
// F16:           %[[BC:.*]] = linalg.broadcast ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// F16-NEXT:      %[[BCL:.*]] = lowp.cast %[[BC]] : tensor<4x4xf32> to tensor<4x4xf16>
// F16-NEXT:      linalg.matmul ins(%[[BCL]], %{{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>, %init: tensor<4xf32>, %w2: tensor<4x4xf32>, %acc2: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %b = tensor.expand_shape %s [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %bb = tensor.collapse_shape %b [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  %d = linalg.broadcast ins(%bb : tensor<4xf32>) outs(%acc2 : tensor<4x4xf32>) dimensions = [1]
  %m2 = linalg.matmul ins(%d, %w2 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// -----

// Division by the result of a reduction (softmax's normalisation) is
// sensitive in both formats; the max reduction (exact) is left f32 because
// nothing low reads it.
// CHECK-LABEL: func.func @div_by_reduction(
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:           arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[D:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:           arith.divf %{{.*}}, %{{.*}} : f32
// BF16:          lowp.cast %[[D]] : tensor<4x8xf32> to tensor<4x8xbf16>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @div_by_reduction(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4x8xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %mx : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%d, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}

// -----

// Transparent: the transposes of a weight whose every use is low run low,
// so the weight is cast once, before them (two casts in all: %x and %w).
// CHECK-LABEL: func.func @transparent_and_single_cast(
// BF16-SAME:       %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x4xf32>
// BF16-NEXT:     %[[WL:.*]] = lowp.cast %[[W]] : tensor<8x4xf32> to tensor<8x4xbf16>
// BF16-NEXT:     %[[XL:.*]] = lowp.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16-NOT:      lowp.cast
// BF16:          %[[T:.*]] = linalg.transpose ins(%[[WL]] : tensor<8x4xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// BF16:          %[[TT:.*]] = linalg.transpose ins(%[[T]] : tensor<4x8xbf16>) outs(%{{.*}} : tensor<8x4xbf16>)
// BF16:          linalg.matmul ins(%[[XL]], %[[TT]] : tensor<4x8xbf16>, tensor<8x4xbf16>)
// BF16:          linalg.matmul ins(%[[XL]], %[[WL]] : tensor<4x8xbf16>, tensor<8x4xbf16>)
func.func @transparent_and_single_cast(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %acc: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %wt = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%w : tensor<8x4xf32>) outs(%wt : tensor<4x8xf32>) permutation = [1, 0]
  %te = tensor.empty() : tensor<8x4xf32>
  %tt = linalg.transpose ins(%t : tensor<4x8xf32>) outs(%te : tensor<8x4xf32>) permutation = [1, 0]
  %m1 = linalg.matmul ins(%x, %tt : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m1, %m2 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A pad and a reshape of an exp's result (wide by rule 2) that feed only a
// low op are low too: rounding commutes with moving values, so the exp's
// result is cast once, before them, and the pad moves bf16 elements; its
// pad value is rounded.
// CHECK-LABEL: func.func @moves_of_wide_values(
// BF16:          %[[E:.*]] = linalg.generic
// BF16:            math.exp %{{.*}} : f32
// BF16:          %[[EL:.*]] = lowp.cast %[[E]] : tensor<4x6xf32> to tensor<4x6xbf16>
// BF16-NOT:      lowp.cast
// BF16:          %[[R:.*]] = tensor.expand_shape %[[EL]] {{.*}} : tensor<4x6xbf16> into tensor<1x4x6xbf16>
// BF16:          %[[P:.*]] = tensor.pad %[[R]] low[0, 1, 1] high[0, 1, 1]
// BF16:            tensor.yield %{{.*}} : bf16
// BF16:          } : tensor<1x4x6xbf16> to tensor<1x6x8xbf16>
// BF16:          linalg.batch_matmul ins(%[[P]], %{{.*}} : tensor<1x6x8xbf16>, tensor<1x8x4xbf16>)
func.func @moves_of_wide_values(%x: tensor<4x6xf32>, %w: tensor<1x8x4xf32>, %acc: tensor<1x6x4xf32>) -> tensor<1x6x4xf32> {
  %half = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<4x6xf32>
  %r = tensor.expand_shape %e [[0, 1], [2]] output_shape [1, 4, 6] : tensor<4x6xf32> into tensor<1x4x6xf32>
  %p = tensor.pad %r low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %half : f32
  } : tensor<1x4x6xf32> to tensor<1x6x8xf32>
  %m = linalg.batch_matmul ins(%p, %w : tensor<1x6x8xf32>, tensor<1x8x4xf32>) outs(%acc : tensor<1x6x4xf32>) -> tensor<1x6x4xf32>
  return %m : tensor<1x6x4xf32>
}

// -----

// Not for a slice (casting its source would round more elements than it
// keeps), nor for a pad whose result is also read wide (its result would
// need a second cast): both stay f32, cast after.
// CHECK-LABEL: func.func @moves_that_stay_wide(
// BF16:          %[[E:.*]] = linalg.generic
// BF16:          %[[S:.*]] = tensor.extract_slice %[[E]][0, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
// BF16:          %[[SL:.*]] = lowp.cast %[[S]] : tensor<2x6xf32> to tensor<2x6xbf16>
// BF16:          linalg.matmul ins(%[[SL]], %{{.*}} : tensor<2x6xbf16>, tensor<6x4xbf16>)
// BF16:          %[[P:.*]] = tensor.pad %[[E]] low[0, 1] high[0, 1]
// BF16:          } : tensor<4x6xf32> to tensor<4x8xf32>
// BF16:          %[[PL:.*]] = lowp.cast %[[P]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16:          linalg.matmul ins(%[[PL]], %{{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>)
// BF16:          return %{{.*}}, %{{.*}}, %[[P]] :
func.func @moves_that_stay_wide(%x: tensor<4x6xf32>, %w: tensor<6x4xf32>, %w2: tensor<8x4xf32>, %acc: tensor<2x4xf32>, %acc2: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<4x6xf32>
  %s = tensor.extract_slice %e[0, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
  %m = linalg.matmul ins(%s, %w : tensor<2x6xf32>, tensor<6x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  %p = tensor.pad %e low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x6xf32> to tensor<4x8xf32>
  %m2 = linalg.matmul ins(%p, %w2 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m, %m2, %p : tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x8xf32>
}

// -----

// Overrides: lowp.precision = f32 keeps a matmul wide, lowp.precision = bf16
// demotes an exp (in the f16 run it names another format and stays f32).
// CHECK-LABEL: func.func @overrides(
// CHECK:         linalg.matmul {lowp.precision = f32} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32>)
// BF16:          linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>) attrs = {lowp.precision = bf16}
// BF16:            math.exp %{{.*}} : bf16
// F16:           linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) attrs = {lowp.precision = bf16}
// F16:             math.exp %{{.*}} : f32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @overrides(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m1 = linalg.matmul {lowp.precision = f32} ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], lowp.precision = bf16}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%x2, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m1, %m2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Islands are never demoted, inside or out.
// CHECK-LABEL: func.func @island(
// CHECK-NOT:     lowp.cast
// CHECK:         lowp.island f32 (%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32>)
func.func @island(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = lowp.island f32 (%x, %w, %acc) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %c: tensor<4x8xf32>):
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
    lowp.yield %m : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Dynamic shapes are demoted like static ones; integer, f64, complex and
// unranked values are left untouched.
// CHECK-LABEL: func.func @left_untouched(
// BF16:          linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xi32>, tensor<8x8xi32>) outs(%{{.*}} : tensor<4x8xi32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf64>, tensor<8x8xf64>) outs(%{{.*}} : tensor<4x8xf64>)
// CHECK:         "test.opaque"(%{{.*}}) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
// CHECK:         "test.opaque"(%{{.*}}) : (tensor<*xf32>) -> tensor<*xf32>
func.func @left_untouched(%d: tensor<?x8xf32>, %w: tensor<8x8xf32>, %accd: tensor<?x8xf32>,
                          %i: tensor<4x8xi32>, %wi: tensor<8x8xi32>, %acci: tensor<4x8xi32>,
                          %f: tensor<4x8xf64>, %wf: tensor<8x8xf64>, %accf: tensor<4x8xf64>,
                          %c: tensor<4xcomplex<f32>>, %u: tensor<*xf32>)
    -> (tensor<?x8xf32>, tensor<4x8xi32>, tensor<4x8xf64>, tensor<4xcomplex<f32>>, tensor<*xf32>) {
  %0 = linalg.matmul ins(%d, %w : tensor<?x8xf32>, tensor<8x8xf32>) outs(%accd : tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = linalg.matmul ins(%i, %wi : tensor<4x8xi32>, tensor<8x8xi32>) outs(%acci : tensor<4x8xi32>) -> tensor<4x8xi32>
  %2 = linalg.matmul ins(%f, %wf : tensor<4x8xf64>, tensor<8x8xf64>) outs(%accf : tensor<4x8xf64>) -> tensor<4x8xf64>
  %3 = "test.opaque"(%c) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %4 = "test.opaque"(%u) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4 : tensor<?x8xf32>, tensor<4x8xi32>, tensor<4x8xf64>, tensor<4xcomplex<f32>>, tensor<*xf32>
}

// -----

// An op without a precision class is a boundary: it keeps its f32 types and
// casts appear around it.
// CHECK-LABEL: func.func @unknown_op_boundary(
// BF16:          %[[M:.*]] = linalg.matmul {{.*}} -> tensor<4x8xf32>
// BF16-NEXT:     %[[O:.*]] = "test.opaque"(%[[M]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// BF16-NEXT:     %[[OL:.*]] = lowp.cast %[[O]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16-NEXT:     linalg.matmul ins(%[[OL]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>)
func.func @unknown_op_boundary(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "test.opaque"(%m) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%o, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}

// -----

// Inside control flow: the matmul in the loop body is demoted, the loop's
// carried value and the call keep their f32 types; the weight is cast once,
// outside the loop.
// CHECK-LABEL: func.func @loop(
// BF16:          %[[W:.*]] = lowp.cast %{{.*}} : tensor<8x8xf32> to tensor<8x8xbf16>
// BF16:          scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4x8xf32>)
// BF16-NEXT:       %[[ACCL:.*]] = lowp.cast %[[ACC]] : tensor<4x8xf32> to tensor<4x8xbf16>
// BF16-NEXT:       %[[M:.*]] = linalg.matmul ins(%[[ACCL]], %[[W]] : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// BF16-NEXT:       scf.yield %[[M]] : tensor<4x8xf32>
// BF16:          call @loop(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x8xf32>, index) -> tensor<4x8xf32>
func.func @loop(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4x8xf32> {
    %m = linalg.matmul ins(%acc, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%x : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %m : tensor<4x8xf32>
  }
  %c = func.call @loop(%r, %w, %n) : (tensor<4x8xf32>, tensor<8x8xf32>, index) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// Constants beyond the format's range are not rounded to infinity: -1e9
// fits bf16 but not f16, where the constant stays f32 and its user casts it
// (the mask generic's body, holding 65536.0, keeps computing in f32).
// CHECK-LABEL: func.func @out_of_range_constants(
// BF16:          arith.constant dense<-9.982440e+08> : tensor<4x8xbf16>
// F16:           %[[BIG:.*]] = arith.constant dense<-1.000000e+09> : tensor<4x8xf32>
// F16:           lowp.cast %[[BIG]] : tensor<4x8xf32> to tensor<4x8xf16>
// F16:           linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf16>) outs(%{{.*}} : tensor<4x8xf16>)
// F16-NEXT:      ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// F16-NEXT:        %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// F16-NEXT:        arith.constant 6.553600e+04 : f32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @out_of_range_constants(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %big = arith.constant dense<-1.0e+09> : tensor<4x8xf32>
  %m = linalg.matmul ins(%big, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 65536.0 : f32
    %s = arith.minimumf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%h, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}

// -----

// An island converts at its edges itself: a low value enters it without a
// cast, and a result whose users all want it low leaves it low.
// CHECK-LABEL: func.func @island_edges(
// BF16:          %[[H:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// BF16-NOT:      lowp.cast
// BF16:          %[[I:.*]] = lowp.island f32 (%[[H]]) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
// BF16:            math.exp %{{.*}} : f32
// BF16:          linalg.matmul ins(%[[I]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @island_edges(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m1 = linalg.matmul ins(%h, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %i = lowp.island f32 (%h) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %ee = tensor.empty() : tensor<4x8xf32>
    %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%ee : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.exp %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    lowp.yield %ex : tensor<4x8xf32>
  }
  %m2 = linalg.matmul ins(%i, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%m1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}
