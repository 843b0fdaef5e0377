// A MobileNetV2 stem and two inverted residual blocks written the way
// torch-mlir's FX importer (torch.export) emits them: batch norm as a
// per-channel 1/sqrt(var + eps) generic (with its cf.assert) computed after
// the convolution, then sub / mul / mul / add generics on (d1, 0, 0) views
// of expand_shape'd vectors; ReLU6 as cmpf + select against 0-d tensors
// made by truncf generics from f64 constants; the batch norm reading the
// convolution through (0, d1, d2, d3) (torch-mlir's map for a batch of 1);
// one zero fill shared by the convolutions of one shape (the two projections); a 3-colour stem (K = 27,
// odd: the bf16 dot kernel pads it to pairs), a stride-2 depthwise
// convolution (a shuffle of 2 x lanes), a residual add. (Variances enter as
// |var| + 0.5: the harness's inputs lie in [-1, 1].)
//
// Decided for bf16, lowered by lowp-pipeline-x86 (avx2 everywhere,
// sapphirerapids where the host has AVX512_BF16), executed, and compared
// with the f32 run of the undecided model through lowp-pipeline-reference
// (plain loops). Bound (Inputs/check_model.py): the reductions on the
// longest path are the stem (K = 27), the depthwise convolutions (9) and
// the 1x1 convolutions (16, 24, 48); factor 4 for the batch norms'
// scales (|gamma| / sqrt(|var| + 0.5) <= 1.42, three of them in a row
// before a residual). The f32 lowering against the loop path within
// 4 (sum K) 2^-24.
//
// RUN: %python %fpopt_src_root/scripts/x86-harness.py %s > %t.run.mlir
// RUN: fp-opt %t.run.mlir --lowp-pipeline-reference | %run > %t.ref
// RUN: fp-opt %t.run.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.f32
// RUN: %check %t.ref %t.f32 --term f32:27,9,16,24,9,48 | FileCheck %s
// RUN: fp-opt %t.run.mlir --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 | %run > %t.bf16.avx2
// RUN: %check %t.ref %t.bf16.avx2 --term bf16:27,9,16,24,9,48 --factor 4 --min-rel 6.1e-5 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.bf16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.bf16.avx512 --term bf16:27,9,16,24,9,48 --factor 4 --min-rel 6.1e-5 | FileCheck %s %}
// Negative control: the bf16 run is far outside the bound of an f32 run.
// RUN: not %check %t.ref %t.bf16.avx2 --term f32:27,9,16,24,9,48 | FileCheck %s --check-prefix=CONTROL
// Every convolution takes an x86 kernel, and each shared fill is a fill
// of its own (no copy of a filled buffer):
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS --allow-empty
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 --mlir-print-ir-before=lowp-x86-lower-contractions -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILLS
// KERNELS-NOT: generic loop path
// FILLS-NOT: memref.copy {{.*}} : memref<1x24x9x9xf32> to memref<1x24x9x9xf32>
// FILLS: return

// CHECK-NOT: FAIL
// CHECK: PASS
// CONTROL: FAIL

module {
  func.func @forward(%x: tensor<1x3x33x33xf32>, %w_stem: tensor<16x3x3x3xf32>, %bn0_mean: tensor<16xf32>, %bn0_var: tensor<16xf32>, %bn0_g: tensor<16xf32>, %bn0_b: tensor<16xf32>, %w_dw1: tensor<16x1x3x3xf32>, %bn1_mean: tensor<16xf32>, %bn1_var: tensor<16xf32>, %bn1_g: tensor<16xf32>, %bn1_b: tensor<16xf32>, %w_proj1: tensor<24x16x1x1xf32>, %bn2_mean: tensor<24xf32>, %bn2_var: tensor<24xf32>, %bn2_g: tensor<24xf32>, %bn2_b: tensor<24xf32>, %w_exp2: tensor<48x24x1x1xf32>, %bn3_mean: tensor<48xf32>, %bn3_var: tensor<48xf32>, %bn3_g: tensor<48xf32>, %bn3_b: tensor<48xf32>, %w_dw2: tensor<48x1x3x3xf32>, %bn4_mean: tensor<48xf32>, %bn4_var: tensor<48xf32>, %bn4_g: tensor<48xf32>, %bn4_b: tensor<48xf32>, %w_proj2: tensor<24x48x1x1xf32>, %bn5_mean: tensor<24xf32>, %bn5_var: tensor<24xf32>, %bn5_g: tensor<24xf32>, %bn5_b: tensor<24xf32>) -> tensor<1x24x9x9xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %half = arith.constant 5.000000e-01 : f32
    %c6d = arith.constant dense<6.000000e+00> : tensor<f64>
    %c0d = arith.constant dense<0.000000e+00> : tensor<f64>
    %t1 = tensor.empty() : tensor<f32>
    %lo = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%c0d : tensor<f64>) outs(%t1 : tensor<f32>) {
    ^bb0(%in: f64, %out: f32):
      %r = arith.truncf %in : f64 to f32
      linalg.yield %r : f32
    } -> tensor<f32>
    %t2 = tensor.empty() : tensor<f32>
    %hi = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%c6d : tensor<f64>) outs(%t2 : tensor<f32>) {
    ^bb0(%in: f64, %out: f32):
      %r = arith.truncf %in : f64 to f32
      linalg.yield %r : f32
    } -> tensor<f32>
    %t3 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x3x33x33xf32> to tensor<1x3x35x35xf32>
    %t5 = tensor.empty() : tensor<1x16x17x17xf32>
    %t6 = linalg.fill ins(%zero : f32) outs(%t5 : tensor<1x16x17x17xf32>) -> tensor<1x16x17x17xf32>
    %t4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%t3, %w_stem : tensor<1x3x35x35xf32>, tensor<16x3x3x3xf32>) outs(%t6 : tensor<1x16x17x17xf32>) -> tensor<1x16x17x17xf32>
    %t7 = tensor.empty() : tensor<16xf32>
    %t8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bn0_var : tensor<16xf32>) outs(%t7 : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %p = arith.addf %a, %half : f32
      %q = math.sqrt %p : f32
      %nz = arith.cmpf one, %q, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %q : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %t11 = tensor.expand_shape %bn0_mean [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t9 = tensor.empty() : tensor<1x16x17x17xf32>
    %t10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t4, %t11 : tensor<1x16x17x17xf32>, tensor<16x1x1xf32>) outs(%t9 : tensor<1x16x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.subf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x17x17xf32>
    %t14 = tensor.expand_shape %t8 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t12 = tensor.empty() : tensor<1x16x17x17xf32>
    %t13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t10, %t14 : tensor<1x16x17x17xf32>, tensor<16x1x1xf32>) outs(%t12 : tensor<1x16x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x17x17xf32>
    %t17 = tensor.expand_shape %bn0_g [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t15 = tensor.empty() : tensor<1x16x17x17xf32>
    %t16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t13, %t17 : tensor<1x16x17x17xf32>, tensor<16x1x1xf32>) outs(%t15 : tensor<1x16x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x17x17xf32>
    %t20 = tensor.expand_shape %bn0_b [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t18 = tensor.empty() : tensor<1x16x17x17xf32>
    %t19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t16, %t20 : tensor<1x16x17x17xf32>, tensor<16x1x1xf32>) outs(%t18 : tensor<1x16x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.addf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x17x17xf32>
    %t21 = tensor.empty() : tensor<1x16x17x17xf32>
    %t22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t19, %lo : tensor<1x16x17x17xf32>, tensor<f32>) outs(%t21 : tensor<1x16x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf ogt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x16x17x17xf32>
    %t23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi, %t22 : tensor<f32>, tensor<1x16x17x17xf32>) outs(%t21 : tensor<1x16x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf olt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x16x17x17xf32>
    %t24 = tensor.pad %t23 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x16x17x17xf32> to tensor<1x16x19x19xf32>
    %t26 = tensor.empty() : tensor<1x16x9x9xf32>
    %t27 = linalg.fill ins(%zero : f32) outs(%t26 : tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
    %t28 = tensor.collapse_shape %w_dw1 [[0, 1], [2], [3]] : tensor<16x1x3x3xf32> into tensor<16x3x3xf32>
    %t25 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%t24, %t28 : tensor<1x16x19x19xf32>, tensor<16x3x3xf32>) outs(%t27 : tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
    %t29 = tensor.empty() : tensor<16xf32>
    %t30 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bn1_var : tensor<16xf32>) outs(%t29 : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %p = arith.addf %a, %half : f32
      %q = math.sqrt %p : f32
      %nz = arith.cmpf one, %q, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %q : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %t33 = tensor.expand_shape %bn1_mean [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t31 = tensor.empty() : tensor<1x16x9x9xf32>
    %t32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t25, %t33 : tensor<1x16x9x9xf32>, tensor<16x1x1xf32>) outs(%t31 : tensor<1x16x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.subf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x9x9xf32>
    %t36 = tensor.expand_shape %t30 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t34 = tensor.empty() : tensor<1x16x9x9xf32>
    %t35 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t32, %t36 : tensor<1x16x9x9xf32>, tensor<16x1x1xf32>) outs(%t34 : tensor<1x16x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x9x9xf32>
    %t39 = tensor.expand_shape %bn1_g [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t37 = tensor.empty() : tensor<1x16x9x9xf32>
    %t38 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t35, %t39 : tensor<1x16x9x9xf32>, tensor<16x1x1xf32>) outs(%t37 : tensor<1x16x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x9x9xf32>
    %t42 = tensor.expand_shape %bn1_b [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %t40 = tensor.empty() : tensor<1x16x9x9xf32>
    %t41 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t38, %t42 : tensor<1x16x9x9xf32>, tensor<16x1x1xf32>) outs(%t40 : tensor<1x16x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.addf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x16x9x9xf32>
    %t43 = tensor.empty() : tensor<1x16x9x9xf32>
    %t44 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t41, %lo : tensor<1x16x9x9xf32>, tensor<f32>) outs(%t43 : tensor<1x16x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf ogt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x16x9x9xf32>
    %t45 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi, %t44 : tensor<f32>, tensor<1x16x9x9xf32>) outs(%t43 : tensor<1x16x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf olt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x16x9x9xf32>
    %t47 = tensor.empty() : tensor<1x24x9x9xf32>
    %t48 = linalg.fill ins(%zero : f32) outs(%t47 : tensor<1x24x9x9xf32>) -> tensor<1x24x9x9xf32>
    %t46 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t45, %w_proj1 : tensor<1x16x9x9xf32>, tensor<24x16x1x1xf32>) outs(%t48 : tensor<1x24x9x9xf32>) -> tensor<1x24x9x9xf32>
    %t49 = tensor.empty() : tensor<24xf32>
    %t50 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bn2_var : tensor<24xf32>) outs(%t49 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %p = arith.addf %a, %half : f32
      %q = math.sqrt %p : f32
      %nz = arith.cmpf one, %q, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %q : f32
      linalg.yield %r : f32
    } -> tensor<24xf32>
    %t53 = tensor.expand_shape %bn2_mean [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t51 = tensor.empty() : tensor<1x24x9x9xf32>
    %t52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t46, %t53 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t51 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.subf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t56 = tensor.expand_shape %t50 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t54 = tensor.empty() : tensor<1x24x9x9xf32>
    %t55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t52, %t56 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t54 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t59 = tensor.expand_shape %bn2_g [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t57 = tensor.empty() : tensor<1x24x9x9xf32>
    %t58 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t55, %t59 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t57 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t62 = tensor.expand_shape %bn2_b [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t60 = tensor.empty() : tensor<1x24x9x9xf32>
    %t61 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t58, %t62 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t60 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.addf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t64 = tensor.empty() : tensor<1x48x9x9xf32>
    %t65 = linalg.fill ins(%zero : f32) outs(%t64 : tensor<1x48x9x9xf32>) -> tensor<1x48x9x9xf32>
    %t63 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t61, %w_exp2 : tensor<1x24x9x9xf32>, tensor<48x24x1x1xf32>) outs(%t65 : tensor<1x48x9x9xf32>) -> tensor<1x48x9x9xf32>
    %t66 = tensor.empty() : tensor<48xf32>
    %t67 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bn3_var : tensor<48xf32>) outs(%t66 : tensor<48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %p = arith.addf %a, %half : f32
      %q = math.sqrt %p : f32
      %nz = arith.cmpf one, %q, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %q : f32
      linalg.yield %r : f32
    } -> tensor<48xf32>
    %t70 = tensor.expand_shape %bn3_mean [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t68 = tensor.empty() : tensor<1x48x9x9xf32>
    %t69 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t63, %t70 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t68 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.subf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t73 = tensor.expand_shape %t67 [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t71 = tensor.empty() : tensor<1x48x9x9xf32>
    %t72 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t69, %t73 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t71 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t76 = tensor.expand_shape %bn3_g [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t74 = tensor.empty() : tensor<1x48x9x9xf32>
    %t75 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t72, %t76 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t74 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t79 = tensor.expand_shape %bn3_b [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t77 = tensor.empty() : tensor<1x48x9x9xf32>
    %t78 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t75, %t79 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t77 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.addf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t80 = tensor.empty() : tensor<1x48x9x9xf32>
    %t81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t78, %lo : tensor<1x48x9x9xf32>, tensor<f32>) outs(%t80 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf ogt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x48x9x9xf32>
    %t82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi, %t81 : tensor<f32>, tensor<1x48x9x9xf32>) outs(%t80 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf olt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x48x9x9xf32>
    %t83 = tensor.pad %t82 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x48x9x9xf32> to tensor<1x48x11x11xf32>
    %t85 = tensor.collapse_shape %w_dw2 [[0, 1], [2], [3]] : tensor<48x1x3x3xf32> into tensor<48x3x3xf32>
    %t84 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t83, %t85 : tensor<1x48x11x11xf32>, tensor<48x3x3xf32>) outs(%t65 : tensor<1x48x9x9xf32>) -> tensor<1x48x9x9xf32>
    %t86 = tensor.empty() : tensor<48xf32>
    %t87 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bn4_var : tensor<48xf32>) outs(%t86 : tensor<48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %p = arith.addf %a, %half : f32
      %q = math.sqrt %p : f32
      %nz = arith.cmpf one, %q, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %q : f32
      linalg.yield %r : f32
    } -> tensor<48xf32>
    %t90 = tensor.expand_shape %bn4_mean [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t88 = tensor.empty() : tensor<1x48x9x9xf32>
    %t89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t84, %t90 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t88 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.subf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t93 = tensor.expand_shape %t87 [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t91 = tensor.empty() : tensor<1x48x9x9xf32>
    %t92 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t89, %t93 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t91 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t96 = tensor.expand_shape %bn4_g [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t94 = tensor.empty() : tensor<1x48x9x9xf32>
    %t95 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t92, %t96 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t94 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t99 = tensor.expand_shape %bn4_b [[0, 1, 2]] output_shape [48, 1, 1] : tensor<48xf32> into tensor<48x1x1xf32>
    %t97 = tensor.empty() : tensor<1x48x9x9xf32>
    %t98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t95, %t99 : tensor<1x48x9x9xf32>, tensor<48x1x1xf32>) outs(%t97 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.addf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x48x9x9xf32>
    %t100 = tensor.empty() : tensor<1x48x9x9xf32>
    %t101 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t98, %lo : tensor<1x48x9x9xf32>, tensor<f32>) outs(%t100 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf ogt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x48x9x9xf32>
    %t102 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi, %t101 : tensor<f32>, tensor<1x48x9x9xf32>) outs(%t100 : tensor<1x48x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %c = arith.cmpf olt, %in, %in_1 : f32
      %s = arith.select %c, %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x48x9x9xf32>
    %t103 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t102, %w_proj2 : tensor<1x48x9x9xf32>, tensor<24x48x1x1xf32>) outs(%t48 : tensor<1x24x9x9xf32>) -> tensor<1x24x9x9xf32>
    %t104 = tensor.empty() : tensor<24xf32>
    %t105 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bn5_var : tensor<24xf32>) outs(%t104 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %p = arith.addf %a, %half : f32
      %q = math.sqrt %p : f32
      %nz = arith.cmpf one, %q, %zero : f32
      cf.assert %nz, "unimplemented: tensor with zero element"
      %r = arith.divf %one, %q : f32
      linalg.yield %r : f32
    } -> tensor<24xf32>
    %t108 = tensor.expand_shape %bn5_mean [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t106 = tensor.empty() : tensor<1x24x9x9xf32>
    %t107 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t103, %t108 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t106 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.subf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t111 = tensor.expand_shape %t105 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t109 = tensor.empty() : tensor<1x24x9x9xf32>
    %t110 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t107, %t111 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t109 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t114 = tensor.expand_shape %bn5_g [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t112 = tensor.empty() : tensor<1x24x9x9xf32>
    %t113 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t110, %t114 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t112 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.mulf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t117 = tensor.expand_shape %bn5_b [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %t115 = tensor.empty() : tensor<1x24x9x9xf32>
    %t116 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t113, %t117 : tensor<1x24x9x9xf32>, tensor<24x1x1xf32>) outs(%t115 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %o = arith.addf %in, %in_1 : f32
      linalg.yield %o : f32
    } -> tensor<1x24x9x9xf32>
    %t118 = tensor.empty() : tensor<1x24x9x9xf32>
    %t119 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t116, %t61 : tensor<1x24x9x9xf32>, tensor<1x24x9x9xf32>) outs(%t118 : tensor<1x24x9x9xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %s = arith.addf %in, %in_1 : f32
      linalg.yield %s : f32
    } -> tensor<1x24x9x9xf32>
    return %t119 : tensor<1x24x9x9xf32>
  }
}
