// RUN: fp-opt %s -lowp-fold-pad-into-producer -split-input-file | FileCheck %s
// RUN: fp-opt %s -lowp-fold-pad-into-producer="keep-contraction-epilogues=false" -split-input-file | FileCheck %s --check-prefix=NOKEEP

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// The narrowing cast before a convolution (torch-mlir pads every conv
// input): the padded tensor is built before the cast, its border filled
// slab by slab (rows 0 and 22 whole, columns 0 and 22 of rows 1..21), and
// the cast writes its interior.
// CHECK-LABEL: func @cast_then_pad
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x21x21xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK: %[[D0:.*]] = tensor.empty() : tensor<1x8x23x23xbf16>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[D0]][0, 0, 0, 0] [1, 8, 1, 23] [1, 1, 1, 1]
// CHECK: %[[F0:.*]] = linalg.fill ins(%[[ZERO]] : bf16) outs(%[[S0]] : tensor<1x8x1x23xbf16>)
// CHECK: %[[D1:.*]] = tensor.insert_slice %[[F0]] into %[[D0]][0, 0, 0, 0] [1, 8, 1, 23] [1, 1, 1, 1]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[D1]][0, 0, 22, 0] [1, 8, 1, 23] [1, 1, 1, 1]
// CHECK: %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : bf16) outs(%[[S1]] : tensor<1x8x1x23xbf16>)
// CHECK: %[[D2:.*]] = tensor.insert_slice %[[F1]] into %[[D1]][0, 0, 22, 0] [1, 8, 1, 23] [1, 1, 1, 1]
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[D2]][0, 0, 1, 0] [1, 8, 21, 1] [1, 1, 1, 1]
// CHECK: %[[F2:.*]] = linalg.fill ins(%[[ZERO]] : bf16) outs(%[[S2]] : tensor<1x8x21x1xbf16>)
// CHECK: %[[D3:.*]] = tensor.insert_slice %[[F2]] into %[[D2]][0, 0, 1, 0] [1, 8, 21, 1] [1, 1, 1, 1]
// CHECK: %[[S3:.*]] = tensor.extract_slice %[[D3]][0, 0, 1, 22] [1, 8, 21, 1] [1, 1, 1, 1]
// CHECK: %[[F3:.*]] = linalg.fill ins(%[[ZERO]] : bf16) outs(%[[S3]] : tensor<1x8x21x1xbf16>)
// CHECK: %[[D4:.*]] = tensor.insert_slice %[[F3]] into %[[D3]][0, 0, 1, 22] [1, 8, 21, 1] [1, 1, 1, 1]
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[D4]][0, 0, 1, 1] [1, 8, 21, 21] [1, 1, 1, 1]
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x8x21x21xf32>) outs(%[[IN]] : tensor<1x8x21x21xbf16>)
// CHECK: arith.truncf
// CHECK: %[[P:.*]] = tensor.insert_slice %[[C]] into %[[D4]][0, 0, 1, 1] [1, 8, 21, 21] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
// CHECK: return %[[P]]
func.func @cast_then_pad(%x: tensor<1x8x21x21xf32>) -> tensor<1x8x23x23xbf16> {
  %e = tensor.empty() : tensor<1x8x21x21xbf16>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x21x21xf32>) outs(%e : tensor<1x8x21x21xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x8x21x21xbf16>
  %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    %zero = arith.constant 0.0 : bf16
    tensor.yield %zero : bf16
  } : tensor<1x8x21x21xbf16> to tensor<1x8x23x23xbf16>
  return %p : tensor<1x8x23x23xbf16>
}

// -----

// A function argument has no producer: the pad stays (its copy would
// remain).
// CHECK-LABEL: func @argument_then_pad
// CHECK: tensor.pad
// CHECK-NOT: linalg.fill
func.func @argument_then_pad(%x: tensor<4x10xf32>, %v: f32) -> tensor<4x13xf32> {
  %p = tensor.pad %x low[0, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x10xf32> to tensor<4x13xf32>
  return %p : tensor<4x13xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The producer's result has another use: it keeps its own tensor, the pad
// stays.
// CHECK-LABEL: func @shared_source
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x10xf32>
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4x10xf32>)
// CHECK: tensor.pad %[[N]]
// CHECK-NOT: tensor.insert_slice
func.func @shared_source(%x: tensor<4x10xf32>) -> (tensor<6x12xf32>, tensor<4x10xf32>) {
  %e = tensor.empty() : tensor<4x10xf32>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %p = tensor.pad %n low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<4x10xf32> to tensor<6x12xf32>
  return %p, %n : tensor<6x12xf32>, tensor<4x10xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The producer writes into a tensor it reads (an accumulation), not a
// tensor.empty: it keeps it, the pad stays.
// CHECK-LABEL: func @producer_reads_init
// CHECK-SAME: (%[[X:.*]]: tensor<4x10xf32>, %[[ACC:.*]]: tensor<4x10xf32>)
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%[[ACC]] : tensor<4x10xf32>)
// CHECK: tensor.pad %[[N]]
func.func @producer_reads_init(%x: tensor<4x10xf32>, %acc: tensor<4x10xf32>) -> tensor<6x12xf32> {
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x10xf32>) outs(%acc : tensor<4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %p = tensor.pad %n low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<4x10xf32> to tensor<6x12xf32>
  return %p : tensor<6x12xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// Conv, batch norm + ReLU, pad (the first convolution of a ResNet block):
// the batch norm is the convolution kernel's epilogue candidate, which
// writes a contiguous buffer; it keeps its tensor.empty and the pad stays
// by default (keep-contraction-epilogues); it writes the interior without.
// CHECK-LABEL: func @conv_epilogue_then_pad
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x8x8xf32>
// CHECK: %[[BN:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<1x4x8x8xf32>)
// CHECK: tensor.pad %[[BN]]
// NOKEEP-LABEL: func @conv_epilogue_then_pad
// NOKEEP: %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
// NOKEEP: %[[BN:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<1x4x8x8xf32>)
// NOKEEP: tensor.insert_slice %[[BN]] into %{{.*}}[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
func.func @conv_epilogue_then_pad(%x: tensor<1x4x10x10xf32>, %w: tensor<4x4x3x3xf32>, %s: tensor<4xf32>) -> tensor<1x4x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x4x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%acc : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %bn = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %s : tensor<1x4x8x8xf32>, tensor<4xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.mulf %in, %sc : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %p = tensor.pad %bn low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  return %p : tensor<1x4x10x10xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Left as they are, with a producer that could write the interior: a
// nofold pad, a pad value that depends on the position, dynamic shapes.
// CHECK-LABEL: func @not_rewritten
// CHECK-COUNT-3: tensor.pad
// CHECK-NOT: linalg.fill
// CHECK-NOT: tensor.insert_slice
func.func @not_rewritten(%a: tensor<4x10xf32>, %b: tensor<4x10xf32>, %dyn: tensor<?x10xf32>) -> (tensor<6x12xf32>, tensor<6x12xf32>, tensor<?x12xf32>) {
  %e = tensor.empty() : tensor<4x10xf32>
  %x = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %e1 = tensor.empty() : tensor<4x10xf32>
  %x1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4x10xf32>) outs(%e1 : tensor<4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %dyn, %c0 : tensor<?x10xf32>
  %ed = tensor.empty(%n) : tensor<?x10xf32>
  %d = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%dyn : tensor<?x10xf32>) outs(%ed : tensor<?x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<?x10xf32>
  %p0 = tensor.pad %x nofold low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<4x10xf32> to tensor<6x12xf32>
  %p1 = tensor.pad %x1 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x10xf32> to tensor<6x12xf32>
  %p2 = tensor.pad %d low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<?x10xf32> to tensor<?x12xf32>
  return %p0, %p1, %p2 : tensor<6x12xf32>, tensor<6x12xf32>, tensor<?x12xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A pad value from outside the region (an argument, available before the
// producer), asymmetric padding (no slab where the width is 0).
// CHECK-LABEL: func @argument_value
// CHECK-SAME: (%[[X:.*]]: tensor<4x10xf32>, %[[V:.*]]: f32)
// CHECK: %[[D0:.*]] = tensor.empty() : tensor<4x13xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[D0]][0, 0] [4, 1] [1, 1]
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%[[S0]] : tensor<4x1xf32>)
// CHECK: %[[D1:.*]] = tensor.insert_slice
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[D1]][0, 11] [4, 2] [1, 1]
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%[[S1]] : tensor<4x2xf32>)
// CHECK: %[[D2:.*]] = tensor.insert_slice
// CHECK-NOT: linalg.fill
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[D2]][0, 1] [4, 10] [1, 1]
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<4x10xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %[[N]] into %[[D2]][0, 1] [4, 10] [1, 1]
// CHECK: return %[[P]]
func.func @argument_value(%x: tensor<4x10xf32>, %v: f32) -> tensor<4x13xf32> {
  %e = tensor.empty() : tensor<4x10xf32>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<4x10xf32>
  %p = tensor.pad %n low[0, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x10xf32> to tensor<4x13xf32>
  return %p : tensor<4x13xf32>
}
