// lowp-plan-workspace as lowp-pipeline-x86 runs it, executed: @nest (a
// matmul, whose packing buffer is planned, and elementwise ops) calls
// itself recursively (depth 3: four calls at once, the inner ones finding
// the workspace busy) and @main calls it 50 times on different inputs,
// printing the sum of the results. It must equal, bit for bit, the same
// program through the reference lowering (plain loops, no workspace):
// every product and sum inside @nest is exact in f32 (multiples of 1/4096
// below 2^11), so the kernel's FMAs round nothing, and the sum over calls
// adds in the same order on both paths. The same with one workspace
// allocation per call (static-workspace=false). A buffer held across the
// call is tested at the memref level (../Memory/workspace-recursion.mlir):
// here ownership-based deallocation frees %t after a run-time alias check
// with the call's result, so it stays malloc'ed.
//
// RUN: fp-opt %s --lowp-pipeline-reference \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o %t.x86.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.x86.mlir
// RUN: mlir-runner %t.x86.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.x86
// RUN: diff %t.ref %t.x86
// RUN: fp-opt %s -lowp-pipeline-x86="target=avx2 static-workspace=false" 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.percall
// RUN: diff %t.ref %t.percall
// RUN: FileCheck %s < %t.x86
//
// IR: llvm.mlir.global private @__lowp_workspace_nest()
// IR: llvm.mlir.global private @__lowp_workspace_nest_busy(dense<0> : tensor<1xi32>)
// IR-LABEL: llvm.func @nest
// IR: llvm.atomicrmw xchg
// IR: llvm.call @nest
// IR: llvm.atomicrmw xchg
// CHECK: Unranked Memref rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @nest(%x: tensor<16x16xf32>, %depth: index) -> tensor<16x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // %u goes to the recursive call; %t, a matmul's result, is read after it.
  %e = tensor.empty() : tensor<16x16xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %t = linalg.matmul ins(%x, %x : tensor<16x16xf32>, tensor<16x16xf32>)
      outs(%z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %deeper = arith.cmpi ugt, %depth, %c0 : index
  %r = scf.if %deeper -> (tensor<16x16xf32>) {
    %d = arith.subi %depth, %c1 : index
    %s = func.call @nest(%u, %d) : (tensor<16x16xf32>, index) -> tensor<16x16xf32>
    scf.yield %s : tensor<16x16xf32>
  } else {
    %e2 = tensor.empty() : tensor<16x16xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%u : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<16x16xf32>
    scf.yield %s : tensor<16x16xf32>
  }
  %e3 = tensor.empty() : tensor<16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r, %t : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e3 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %out : tensor<16x16xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c50 = arith.constant 50 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %acc = scf.for %i = %c0 to %c50 step %c1 iter_args(%acc1 = %acc0) -> (tensor<16x16xf32>) {
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %e4 = tensor.empty() : tensor<16x16xf32>
    // x[j][k] = ((7 j + k) mod 11) / 4 - i / 64
    %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%e4 : tensor<16x16xf32>) {
    ^bb0(%o: f32):
      %j = linalg.index 0 : index
      %k = linalg.index 1 : index
      %c7 = arith.constant 7 : index
      %c11 = arith.constant 11 : index
      %j7 = arith.muli %j, %c7 : index
      %jk = arith.addi %j7, %k : index
      %jm = arith.remui %jk, %c11 : index
      %ji = arith.index_cast %jm : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %q = arith.constant 0.25 : f32
      %r64 = arith.constant 0.015625 : f32
      %a = arith.mulf %jf, %q : f32
      %b = arith.mulf %fi, %r64 : f32
      %v = arith.subf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<16x16xf32>
    %y = func.call @nest(%x, %c3) : (tensor<16x16xf32>, index) -> tensor<16x16xf32>
    %e5 = tensor.empty() : tensor<16x16xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc1, %y : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e5 : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<16x16xf32>
    scf.yield %sum : tensor<16x16xf32>
  }
  %u = tensor.cast %acc : tensor<16x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
