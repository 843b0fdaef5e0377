// RUN: fp-opt %s -lowp-fuse-elementwise=kernel-epilogues=true -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-fuse-elementwise -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=X86 --allow-empty

// kernel-epilogues (lowp-pipeline-x86): a convolution whose result only an
// all-parallel op reads moves down to just before it, past a batch norm's
// per-channel 1/sqrt(var + eps) that torch.export computes in between (with
// a cf.assert in its body); the x86 kernel then takes the batch norm as its
// epilogue (no remark). Without the option the order stays.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#v = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @torch_export_bn
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK:         math.sqrt
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[R]]
// CHECK-NEXT:    %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[C]], %[[E]]
// OFF-LABEL: func.func @torch_export_bn
// OFF:         linalg.conv_2d_nchw_fchw
// OFF:         math.sqrt
// X86-NOT: elementwise consumer not fused
func.func @torch_export_bn(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x1x1xf32>, %var: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%fill : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %ev = tensor.empty() : tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%var : tensor<8xf32>) outs(%ev : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %eps : f32
    %s = math.sqrt %a : f32
    %nz = arith.cmpf one, %s, %zero : f32
    cf.assert %nz, "unimplemented: tensor with zero element"
    %r = arith.divf %one, %s : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %rstd3 = tensor.expand_shape %rstd [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %rstd3 : tensor<1x8x8x8xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    %relu = arith.maximumf %m, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

// -----

// One zero tensor as the init of two convolutions (torch-mlir's form): the
// fill is cloned, with its tensor.empty, for the second; each convolution
// then has a fill of its own (bufferized: no copy of a filled buffer). A
// convolution read by two ops stays where it is. Without the option the
// fill stays shared.
// CHECK-LABEL: func.func @shared_fill
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK-NEXT:    %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK-NEXT:    %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw {{.*}} outs(%[[F1]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw {{.*}} outs(%[[F0]] : tensor<1x8x8x8xf32>)
// OFF-LABEL: func.func @shared_fill
// OFF-COUNT-1: linalg.fill
// OFF-NOT:     linalg.fill
func.func @shared_fill(%x: tensor<1x4x8x8xf32>, %w1: tensor<8x4x1x1xf32>, %w2: tensor<8x8x1x1xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w1 : tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%fill : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%c1, %w2 : tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>) outs(%fill : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %c1, %c2 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}

// -----

// torch-mlir reads a batch-of-1 tensor through (0, d1, d2, d3): with d0
// running over one value that is the identity, written so (the kernels
// follow identity maps); a constant index on a loop of 2 values stays.
// CHECK-LABEL: func.func @unit_batch_map
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]]]
// CHECK-LABEL: func.func @batch_of_two
// CHECK:         linalg.generic {indexing_maps = [#[[Z:map[0-9]*]], #[[I:map[0-9]*]]]
// OFF-LABEL: func.func @unit_batch_map
func.func @unit_batch_map(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}
func.func @batch_of_two(%x: tensor<1x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x4x8x8xf32>
  return %y : tensor<2x4x8x8xf32>
}

// -----

// torch-mlir writes a convolution's bias as its init: a linalg.generic
// copying the bias to every pixel, summed into by the convolution. The
// convolution starts from a zero fill instead and the bias is added after
// it, in the ReLU that follows (one consumer the kernel runs as its
// epilogue): no init as large as the output. Without the option the
// broadcast stays the init.
#bias_c = affine_map<(d0, d1, d2, d3) -> (d1)>
#bias_id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_bias_init
// CHECK-SAME:    %[[B:[a-z0-9]+]]: tensor<8xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8x6x6xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[Z]] : tensor<2x8x6x6xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[B]] : tensor<2x8x6x6xf32>, tensor<8xf32>)
// CHECK:           arith.addf
// CHECK:           arith.cmpf
// CHECK:         return %[[R]]
// OFF-LABEL: func.func @conv_bias_init
// OFF:         %[[I:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// OFF:         linalg.conv_2d_nchw_fchw {{.*}} outs(%[[I]] :
func.func @conv_bias_init(%x: tensor<2x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<2x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x6x6xf32>
  %init = linalg.generic {indexing_maps = [#bias_c, #bias_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<2x8x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<2x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32>
  %e2 = tensor.empty() : tensor<2x8x6x6xf32>
  %r = linalg.generic {indexing_maps = [#bias_id, #bias_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x8x6x6xf32>) outs(%e2 : tensor<2x8x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %p, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x8x6x6xf32>
  return %r : tensor<2x8x6x6xf32>
}

// -----

// A matmul whose init broadcasts a bias along its rows, with nothing after
// it: the add is the matmul's one consumer. The same init read by a max
// pooling (its combiner is max: starting from zero and adding afterwards is
// another result), a broadcast that converts as it copies, a broadcast the
// function also returns, and a bf16 result (rounded before the add and
// again after) stay as they are.
#row = affine_map<(d0, d1) -> (d1)>
#pool_c = affine_map<(d0, d1, d2, d3) -> (d1)>
#pool_id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_bias_init
// CHECK:         %[[Z:.*]] = linalg.fill
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}} outs(%[[Z]] :
// CHECK:         linalg.generic {{.*}} ins(%[[M]], %{{.*}} : tensor<4x16xf32>, tensor<16xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
func.func @matmul_bias_init(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @pooling_init_stays
// CHECK:         %[[I:.*]] = linalg.generic
// CHECK:         linalg.pooling_nchw_max {{.*}} outs(%[[I]] :
// CHECK-NOT:     linalg.fill
func.func @pooling_init_stays(%x: tensor<1x8x8x8xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.generic {indexing_maps = [#pool_c, #pool_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %win : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %p : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @converting_init_stays
// CHECK:         %[[I:.*]] = linalg.generic
// CHECK:           arith.extf
// CHECK:         linalg.matmul {{.*}} outs(%[[I]] :
func.func @converting_init_stays(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xbf16>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xbf16>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %w32 = arith.extf %in : bf16 to f32
    linalg.yield %w32 : f32
  } -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @shared_init_stays
// CHECK:         %[[I:.*]] = linalg.generic
// CHECK:         linalg.matmul {{.*}} outs(%[[I]] :
func.func @shared_init_stays(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m, %init : tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @bf16_init_stays
// CHECK:         %[[I:.*]] = linalg.generic
// CHECK:         linalg.matmul {{.*}} outs(%[[I]] :
func.func @bf16_init_stays(%a: tensor<4x32xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) -> tensor<4x16xbf16> {
  %e = tensor.empty() : tensor<4x16xbf16>
  %init = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xbf16>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<4x16xbf16>
  %m = linalg.matmul ins(%a, %w : tensor<4x32xbf16>, tensor<32x16xbf16>) outs(%init : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  return %m : tensor<4x16xbf16>
}
