// A dynamic vector split into a dynamic number of rows of dynamic length
// (tensor.expand_shape with two unknown sizes in one group, as front ends
// emit for a dynamic sequence split into heads): bufferized as is, it
// segfaulted MLIR 22's expand-strided-metadata in every lowering pipeline.
// Each element of the 3x4 view gets its row index added: x[i*4+j] + i,
// checked against values computed by hand from the same formula in f32.
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-nvvm=target=sm_90 -o /dev/null
// RUN: fp-opt %s -lowp-pipeline-rocdl=target=gfx942 -o /dev/null
// RUN: fp-opt %s -lowp-pipeline-tpu=target=tpu-v5e -o /dev/null

// CHECK: ( ( 0, 1, 2, 3 ), ( 5, 6, 7, 8 ), ( 10, 11, 12, 13 ) )

func.func @rows_plus_index(%x: tensor<?xf32>, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %e = tensor.expand_shape %x [[0, 1]] output_shape [%rows, %cols] : tensor<?xf32> into tensor<?x?xf32>
  %init = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %v, %f : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %x = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
  %d = tensor.cast %x : tensor<12xf32> to tensor<?xf32>
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r = call @rows_plus_index(%d, %c3, %c4) : (tensor<?xf32>, index, index) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<3x4xf32>
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %s[%c0, %c0], %p : tensor<3x4xf32>, vector<3x4xf32>
  vector.print %v : vector<3x4xf32>
  return
}
