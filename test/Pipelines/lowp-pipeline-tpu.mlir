// lowp-pipeline-tpu executed on this CPU: the TPU structure (bf16 MXU
// operands, f32 accumulation, zero padding to the generation's tile, one
// tile per inner matmul) must compute what the decided model means.
//
// The plain loop lowering of test/Integration, and the JIT.
// DEFINE: %{upstream} = -convert-lowp-to-linalg -one-shot-bufferize=bufferize-function-boundaries -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts
// DEFINE: %{run} = mlir-runner -entry-point-result=void -shared-libs=%mlir_runner_utils
//
// 1. The bundled MLP (examples/models/mlp.mlir, inputs and main from
//    Inputs/mlp-main.mlir) decided for tpu-v5e (bf16 matmul operands and
//    hidden activations, f32 accumulators and softmax island), through
//    lowp-pipeline-tpu, against the f32 run of the undecided model.
//    Bound (test/Integration/Models/Inputs/check_model.py): every output
//    within B max|y| of the f32 run, B = sqrt(64 + 128) u(bf16) = 13.9 * 2^-8
//    (the two contractions, K = 64 and 128, with bf16 operands; the
//    elementwise roundings and softmax's gain are absorbed by the
//    random-walk estimate), and further than 2^-14 from it somewhere (bf16
//    really was used).
// RUN: cat %fpopt_src_root/examples/models/mlp.mlir %S/Inputs/mlp-main.mlir > %t.mlp.mlir
// RUN: fp-opt %t.mlp.mlir %{upstream} > %t.f32.ll.mlir
// RUN: %{run} -e main %t.f32.ll.mlir > %t.f32
// RUN: fp-opt %t.mlp.mlir --lowp-auto-mixed-precision="target=tpu-v5e" -o %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-tpu=target=tpu-v5e > %t.tpu.ll.mlir
// RUN: %{run} -e main %t.tpu.ll.mlir > %t.tpu
// RUN: %python %S/../Integration/Models/Inputs/check_model.py %t.f32 %t.tpu --term bf16:64,128 --min-rel 6.1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS
//    The same decided for tpu-v6e (bf16 vector arithmetic: elementwise ops
//    compute in bf16 too), and the undecided f32 model, whose matmul
//    operands lowp-tile-for-mxu itself rounds to bf16 for the MXU.
// RUN: fp-opt %t.mlp.mlir --lowp-auto-mixed-precision="target=tpu-v6e" -o %t.v6e.mlir
// RUN: fp-opt %t.v6e.mlir -lowp-pipeline-tpu | %{run} -e main > %t.v6e
// RUN: %python %S/../Integration/Models/Inputs/check_model.py %t.f32 %t.v6e --term bf16:64,128 --min-rel 6.1e-5 | FileCheck %s
// RUN: fp-opt %t.mlp.mlir -lowp-pipeline-tpu=target=tpu-v5e | %{run} -e main > %t.f32-on-mxu
// RUN: %python %S/../Integration/Models/Inputs/check_model.py %t.f32 %t.f32-on-mxu --term bf16:64,128 --min-rel 6.1e-5 | FileCheck %s
//    What the pipeline is given: bf16 x bf16 -> f32 matmuls, and
//    elementwise ops computing in f32 on tpu-v5e (its vector units have no
//    bf16 arithmetic) but in bf16 on tpu-v6e (the capability table).
// RUN: FileCheck %s --check-prefix=V5E < %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=V6E < %t.v6e.mlir
// V5E-LABEL: func.func @mlp(
// V5E:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xbf16>, tensor<64x128xbf16>) outs(%{{.*}} : tensor<8x128xf32>)
// V5E:         linalg.generic
// V5E:           arith.addf %{{.*}}, %{{.*}} : f32
// V6E-LABEL: func.func @mlp(
// V6E:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xbf16>, tensor<64x128xbf16>) outs(%{{.*}} : tensor<8x128xf32>)
// V6E:         linalg.generic
// V6E:           arith.addf %{{.*}}, %{{.*}} : bf16
//
// 2. Padding and tiling change nothing: zero rows and columns of K add
//    exact zeros and the k tiles accumulate in the loop order of the
//    unpadded matmul, so the padded runs (tpu-v5e: 128, tpu-v6e: 256, and
//    the generation read from the module's lowp.target) equal the plain
//    loop lowering of the same decided model bit for bit. Control: the f32
//    run differs.
// RUN: fp-opt %t.bf16.mlir %{upstream} > %t.plain.ll.mlir
// RUN: %{run} -e main_bits %t.plain.ll.mlir | grep -v base@ > %t.plain.bits
// RUN: %{run} -e main_bits %t.tpu.ll.mlir | grep -v base@ > %t.tpu.bits
// RUN: diff %t.plain.bits %t.tpu.bits
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-tpu=target=tpu-v6e | %{run} -e main_bits | grep -v base@ > %t.v6e.bits
// RUN: diff %t.plain.bits %t.v6e.bits
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-tpu | %{run} -e main_bits | grep -v base@ > %t.attr.bits
// RUN: diff %t.plain.bits %t.attr.bits
// RUN: %{run} -e main_bits %t.f32.ll.mlir | grep -v base@ > %t.f32.bits
// RUN: not diff -q %t.plain.bits %t.f32.bits
//
// 3. The same for this file's 200x300 @ 300x70 bf16 matmul, which the
//    pipeline pads to 256x384 @ 384x128 (tpu-v5e: 2 x 3 tiles) and to
//    256x512 @ 512x256 (tpu-v6e: 2 k tiles): bit for bit the unpadded
//    loop nest.
// RUN: fp-opt %s %{upstream} | %{run} -e main | grep -v base@ > %t.mm.plain
// RUN: fp-opt %s -lowp-pipeline-tpu=target=tpu-v5e | %{run} -e main | grep -v base@ > %t.mm.v5e
// RUN: diff %t.mm.plain %t.mm.v5e
// RUN: fp-opt %s -lowp-pipeline-tpu=target=tpu-v6e | %{run} -e main | grep -v base@ > %t.mm.v6e
// RUN: diff %t.mm.plain %t.mm.v6e
// RUN: FileCheck %s --check-prefix=MM < %t.mm.v5e
// MM: [1{{[0-9]+}},

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefI32(tensor<*xi32>)

// Deterministic bf16 values: ((31 i + 17 j + seed) mod 61 - 30) / 30 * scale.
func.func @make(%seed: index, %scale: f32, %rows: index, %cols: index) -> tensor<?x?xbf16> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xbf16>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c31 = arith.constant 31 : index
    %c17 = arith.constant 17 : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %a = arith.muli %i, %c31 : index
    %b = arith.muli %j, %c17 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %seed : index
    %m = arith.remui %s2, %c61 : index
    %d = arith.subi %m, %c30 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %thirty = arith.constant 30.0 : f32
    %u = arith.divf %f, %thirty : f32
    %v = arith.mulf %u, %scale : f32
    %h = arith.truncf %v : f32 to bf16
    linalg.yield %h : bf16
  } -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c70 = arith.constant 70 : index
  %c200 = arith.constant 200 : index
  %c300 = arith.constant 300 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %ad = call @make(%c0, %one, %c200, %c300) : (index, f32, index, index) -> tensor<?x?xbf16>
  %bd = call @make(%c1, %one, %c300, %c70) : (index, f32, index, index) -> tensor<?x?xbf16>
  %a = tensor.cast %ad : tensor<?x?xbf16> to tensor<200x300xbf16>
  %b = tensor.cast %bd : tensor<?x?xbf16> to tensor<300x70xbf16>
  %e = tensor.empty() : tensor<200x70xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<200x70xf32>) -> tensor<200x70xf32>
  %y = linalg.matmul ins(%a, %b : tensor<200x300xbf16>, tensor<300x70xbf16>)
                     outs(%acc : tensor<200x70xf32>) -> tensor<200x70xf32>
  %ei = tensor.empty() : tensor<200x70xi32>
  %bits = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<200x70xf32>) outs(%ei : tensor<200x70xi32>) {
  ^bb0(%v: f32, %o: i32):
    %w = arith.bitcast %v : f32 to i32
    linalg.yield %w : i32
  } -> tensor<200x70xi32>
  %u = tensor.cast %bits : tensor<200x70xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}
