// Rule 2a (f32-streams, on by default): an elementwise op that combines a
// matrix op's result with an f32 stream flowing past it (a residual add, a
// value carried across loop iterations) stays f32, and with it the epilogue
// that feeds it; matrix inputs are still rounded once. f32-streams=false is
// the old behaviour: the stream follows the low format.
//
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16" | FileCheck %s
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 f32-streams=false" | FileCheck %s --check-prefix=TRADED
// The report lists each join it keeps, with the option that trades it.
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16 report=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// Idempotence.
// RUN: fp-opt %s -split-input-file --lowp-infer-precision="low=bf16" > %t.once
// RUN: fp-opt %t.once -split-input-file --lowp-infer-precision="low=bf16" | diff %t.once -

// Two residual blocks: x + (x W1 + b1), then r1 + (r1 W2 + b2).
// CHECK-LABEL: func.func @two_blocks(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>
// CHECK:         %[[X16:.*]] = lowp.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK:         %[[M1:.*]] = linalg.matmul ins(%[[X16]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         %[[Y1:.*]] = arith.addf %[[M1]], %{{.*}} : tensor<4x8xf32>
// CHECK:         %[[R1:.*]] = arith.addf %[[X]], %[[Y1]] : tensor<4x8xf32>
// CHECK:         %[[R116:.*]] = lowp.cast %[[R1]] : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK:         %[[M2:.*]] = linalg.matmul ins(%[[R116]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         %[[Y2:.*]] = arith.addf %[[M2]], %{{.*}} : tensor<4x8xf32>
// CHECK:         %[[R2:.*]] = arith.addf %[[R1]], %[[Y2]] : tensor<4x8xf32>
// CHECK:         return %[[R2]] : tensor<4x8xf32>

// TRADED-LABEL: func.func @two_blocks(
// TRADED:         %[[X16:.*]] = lowp.cast %arg0 : tensor<4x8xf32> to tensor<4x8xbf16>
// TRADED:         %[[R1:.*]] = arith.addf %[[X16]], %{{.*}} : tensor<4x8xbf16>
// TRADED:         %[[R2:.*]] = arith.addf %[[R1]], %{{.*}} : tensor<4x8xbf16>
// TRADED:         %[[W:.*]] = lowp.cast %[[R2]] : tensor<4x8xbf16> to tensor<4x8xf32>
// TRADED:         return %[[W]]

// REPORT: kept at original precision:
// REPORT: arith.addf (follow) at {{.*}}: joins a matrix op's result into an f32 stream (residual): kept f32 at no matrix-unit cost (f32-streams=false trades it for 16-bit bytes)
func.func @two_blocks(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>,
                      %b1: tensor<8xf32>, %w2: tensor<8x8xf32>,
                      %b2: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>)
                      outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bb1 = linalg.broadcast ins(%b1 : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %y1 = arith.addf %m1, %bb1 : tensor<4x8xf32>
  %r1 = arith.addf %x, %y1 : tensor<4x8xf32>
  %m2 = linalg.matmul ins(%r1, %w2 : tensor<4x8xf32>, tensor<8x8xf32>)
                      outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bb2 = linalg.broadcast ins(%b2 : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %y2 = arith.addf %m2, %bb2 : tensor<4x8xf32>
  %r2 = arith.addf %r1, %y2 : tensor<4x8xf32>
  return %r2 : tensor<4x8xf32>
}

// -----

// Not a stream: a broadcast bias and a slice of an argument read part of
// the tensor only, so the bias add, the activation and the product with the
// slice follow the matrix op as before and feed the next one in bf16.
// CHECK-LABEL: func.func @no_stream(
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         arith.addf %{{.*}}, %{{.*}} : tensor<4x8xbf16>
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : tensor<4x8xbf16>
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : tensor<4x8xbf16>
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
func.func @no_stream(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>,
                     %b: tensor<8xf32>, %big: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                     outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %y = arith.addf %m, %bb : tensor<4x8xf32>
  %relu = arith.maximumf %y, %y : tensor<4x8xf32>
  %slice = tensor.extract_slice %big[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %gated = arith.mulf %relu, %slice : tensor<4x8xf32>
  %m2 = linalg.matmul ins(%gated, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                      outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m2 : tensor<4x8xf32>
}

// -----

// A value carried across loop iterations is a stream: the update
// h + h W stays f32 in the loop; the matrix input is rounded once.
// CHECK-LABEL: func.func @carried(
// CHECK:         scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}}) -> (tensor<4x8xf32>)
// CHECK:           %[[H16:.*]] = lowp.cast %[[H]] : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK:           %[[M:.*]] = linalg.matmul ins(%[[H16]], %{{.*}} : tensor<4x8xbf16>, tensor<8x8xbf16>)
// CHECK:           %[[N:.*]] = arith.addf %[[H]], %[[M]] : tensor<4x8xf32>
// CHECK:           scf.yield %[[N]] : tensor<4x8xf32>
func.func @carried(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<4x8xf32>) {
    %m = linalg.matmul ins(%h, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                       outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    %n = arith.addf %h, %m : tensor<4x8xf32>
    scf.yield %n : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
