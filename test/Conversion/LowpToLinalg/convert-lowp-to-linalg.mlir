// RUN: fp-opt %s -convert-lowp-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func @widen_scalar
// CHECK: %[[E:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: lowp.
// CHECK: return %[[E]]
func.func @widen_scalar(%x: bf16) -> f32 {
  %0 = lowp.cast %x : bf16 to f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func @narrow_tensor
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x8xbf16>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%{{.*}} : tensor<4x8xf32>) outs(%[[INIT]] : tensor<4x8xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.yield
func.func @narrow_tensor(%x: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  %0 = lowp.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func @dynamic_shape
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %c0
// CHECK: tensor.empty(%[[D]]) : tensor<?xf16>
func.func @dynamic_shape(%x: tensor<?xf32>) -> tensor<?xf16> {
  %0 = lowp.cast %x : tensor<?xf32> to tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

// Saturation clamps to +-448 (f8E4M3FN's largest finite value) before the
// truncation; maximumf/minimumf keep NaN.
// CHECK-LABEL: func @saturate
// CHECK-DAG: %[[HI:.*]] = arith.constant 4.480000e+02 : f32
// CHECK-DAG: %[[LO:.*]] = arith.constant -4.480000e+02 : f32
// CHECK: %[[A:.*]] = arith.maximumf %{{.*}}, %[[LO]] : f32
// CHECK: %[[B:.*]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK: arith.truncf %[[B]] : f32 to f8E4M3FN
func.func @saturate(%x: f32) -> f8E4M3FN {
  %0 = lowp.cast %x saturate : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

// f16 -> bf16 neither holds the other: widen to f32 first, round once.
// CHECK-LABEL: func @f16_to_bf16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK: arith.truncf %[[W]] : vector<4xf32> to vector<4xbf16>
func.func @f16_to_bf16(%x: vector<4xf16>) -> vector<4xbf16> {
  %0 = lowp.cast %x : vector<4xf16> to vector<4xbf16>
  return %0 : vector<4xbf16>
}

// -----

// Toward zero: nearest-even result stepped back by one unit when it landed
// beyond |x|.
// CHECK-LABEL: func @toward_zero
// CHECK: %[[R:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[BACK:.*]] = arith.extf %[[R]] : f16 to f32
// CHECK: arith.cmpf ogt
// CHECK: arith.bitcast %[[R]] : f16 to i16
// CHECK: arith.subi
// CHECK: arith.select
func.func @toward_zero(%x: f32) -> f16 {
  %0 = lowp.cast %x toward_zero : f32 to f16
  return %0 : f16
}

// -----

// Stochastic rounding draws per-element random bits from the seed and the
// element's linear index.
// CHECK-LABEL: func @stochastic
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: arith.xori
// CHECK: arith.andi %{{.*}}, %{{.*}} : i32
// CHECK: arith.addi
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @stochastic(%x: tensor<16xf32>, %seed: i32) -> tensor<16xbf16> {
  %0 = lowp.cast %x stochastic seed(%seed : i32) : tensor<16xf32> to tensor<16xbf16>
  return %0 : tensor<16xbf16>
}

// -----

// Islands inline with explicit casts on entry and exit.
// CHECK-LABEL: func @island
// CHECK-NOT: lowp.island
// CHECK: %[[IN:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8xbf16>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[EXP:.*]] = math.exp %[[IN]] : tensor<8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[EXP]] : tensor<8xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @island(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = lowp.island f32 (%x) : (tensor<8xbf16>) -> tensor<8xbf16> {
  ^bb0(%a: tensor<8xf32>):
    %e = math.exp %a : tensor<8xf32>
    lowp.yield %e : tensor<8xf32>
  }
  return %0 : tensor<8xbf16>
}

// -----

// Already-f32 operands enter without a cast.
// CHECK-LABEL: func @island_f32_boundary
// CHECK-NOT: linalg.generic
// CHECK: %[[N:.*]] = math.exp %arg0 : tensor<8xf32>
// CHECK: return %[[N]]
func.func @island_f32_boundary(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = lowp.island f32 (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    %e = math.exp %a : tensor<8xf32>
    lowp.yield %e : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// lowp attributes go with the lowp ops, so mlir-runner can read the result.
// CHECK-LABEL: module {
// CHECK: func.func @attributes(%{{.*}}: tensor<4xf32>, %{{.*}}: f32 {other.keep}) -> (tensor<4xf32> {other.keep})
// CHECK-NOT: lowp.
// CHECK: math.exp %{{.*}} {other.keep} : tensor<4xf32>
module attributes {lowp.target = #lowp.target<"sm_90">} {
  func.func @attributes(%x: tensor<4xf32> {lowp.stats = #lowp.stats<amax = 1.0, min = 0.5>},
                        %s: f32 {other.keep})
      -> (tensor<4xf32> {lowp.precision = f32, other.keep}) {
    %0 = math.exp %x {lowp.precision = f32, other.keep} : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// linalg.softmax has no upstream loop lowering: it leaves as the generics it
// stands for (max, exp(x - max), sum, divide), in its own element type -
// here inside an f32 island, whose casts surround them. On buffers it is
// left alone.
// CHECK-LABEL: func @softmax_in_island
// CHECK-NOT: linalg.softmax
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic
// CHECK: math.exp %{{.*}} : f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: func @softmax_on_buffers
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : memref<2x8xf32>)
func.func @softmax_in_island(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %r = lowp.island f32 (%x) : (tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%a: tensor<2x8xf32>):
    %e = tensor.empty() : tensor<2x8xf32>
    %s = linalg.softmax dimension(1) ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    lowp.yield %s : tensor<2x8xf32>
  }
  return %r : tensor<2x8xbf16>
}
func.func @softmax_on_buffers(%x: memref<2x8xf32>, %y: memref<2x8xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  return
}
