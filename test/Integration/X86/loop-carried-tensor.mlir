// A tensor freshly computed in each iteration of an scf.for and yielded, as
// front ends carry state through loops: bufferization must let the loop
// yield a new buffer. Squaring x three times gives x^8, exact in f32 for
// these small integers (1, 2, 3 -> 1, 256, 6561).
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-nvvm=target=sm_90 -o /dev/null
// RUN: fp-opt %s -lowp-pipeline-rocdl=target=gfx942 -o /dev/null
// RUN: fp-opt %s -lowp-pipeline-tpu=target=tpu-v5e -o /dev/null

// CHECK: ( 1, 256, 6561, 65536, 390625, 1.67962e+06, 5.7648e+06, 1.67772e+07 )

func.func @power(%x: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

func.func @main() {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %n = arith.constant 3 : index
  %r = call @power(%x, %n) : (tensor<8xf32>, index) -> tensor<8xf32>
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %r[%c0], %p : tensor<8xf32>, vector<8xf32>
  vector.print %v : vector<8xf32>
  return
}
