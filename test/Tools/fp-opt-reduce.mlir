// fp-opt-reduce shrinks an input on which an fp-opt pass fails to what the
// failure needs. The failure here: lowp-select-fp8-formats on a chip
// without FP8 rejects the module's one matrix op; the reducer keeps the
// function with that op and removes the others (the reduction tree removes
// ops whose results nothing needs; what feeds a kept return stays).
// RUN: fp-opt-reduce %s -o %t.reduced.mlir \
// RUN:   -reduction-tree='traversal-mode=0 test=%S/Inputs/fp8-needs-target-with-fp8.sh test-arg=%fpopt_obj_root/bin/fp-opt'
// RUN: FileCheck %s --input-file=%t.reduced.mlir
// The reduced input still fails, with the same error.
// RUN: not fp-opt %t.reduced.mlir --lowp-select-fp8-formats="target=sm_80" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STILL
// An input the script does not find interesting is refused: nothing is
// written.
// RUN: rm -f %t.none.mlir
// RUN: not fp-opt-reduce %s -o %t.none.mlir -reduction-tree='traversal-mode=0 test=/bin/true'
// RUN: not test -e %t.none.mlir
// fp-opt's passes are there for opt-reduction-pass and the reductions.
// RUN: fp-opt-reduce --help | FileCheck %s --check-prefix=HELP

// CHECK-NOT: func.func @bias
// CHECK-LABEL: func.func @layer
// CHECK: linalg.matmul
// CHECK-NOT: func.func

// STILL: error: target 'sm_80' has no FP8 support

// HELP-DAG: --lowp-auto-mixed-precision
// HELP-DAG: --lowp-select-fp8-formats
// HELP-DAG: --opt-reduction-pass
// HELP-DAG: --reduction-tree

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias(%x: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

func.func @layer(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

func.func @softmax(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
