// A vector of i1 written to (or read from) memory as a whole vector is
// bit-packed in LLVM (`store <16 x i1>` writes 2 bytes), while a memref of
// i1 holds one byte per element (its scalar loads and stores address
// element i at byte i). lowp-infer-transfer-in-bounds used to mark the i1
// transfers affine-super-vectorize makes in bounds: they became plain
// vector stores and the scalar loads of the next loop read the packed bits
// and stale bytes. Left masked they are no better once LLVM optimizes
// (-O2 folds the all-true mask of a full vector: a plain store again); so
// i1 transfers become one scalar load or store per lane.
// The case is a KV-cache update of a decode step (torch.where of a one-hot
// position mask, torch-mlir's form): the mask is computed once as
// tensor<16xi1> (vectorized compare), then read one row at a time
// (broadcast over the row) by the selects of the k and the v caches.
// Checked against a plain-loop reference (scf.for, the comparison on
// indices, no i1 buffer), exactly (a select rounds nothing), at positions
// 5, then 0 and 15 (the same workspace reused across calls), on avx2
// (8 lanes) and znver4 (16), JIT-compiled at -O0 and -O3; a negative
// control (the update at 5 against the reference at 6) must fail.
//
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 -o %t.avx2.mlir 2>/dev/null
// RUN: mlir-runner %t.avx2.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-runner %t.avx2.mlir -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -o %t.znver4.mlir 2>/dev/null
// RUN: mlir-runner %t.znver4.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-runner %t.znver4.mlir -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: fp-opt %s -lowp-pipeline-x86="target=znver4 static-workspace=false" 2>/dev/null \
// RUN: | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// The mask is still computed by a vectorized compare (the case under
// test), then stored a lane at a time; no i1 vector reaches memory:
// RUN: fp-opt %s -lowp-pipeline-x86=target=znver4 -mlir-print-ir-after=lowp-infer-transfer-in-bounds -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=VEC
// VEC-LABEL: func.func @update(
// VEC-NOT: vector<16xi1>, memref
// VEC: %[[M:.*]] = arith.cmpi eq, %{{.*}} : vector<16xi64>
// VEC-NOT: vector<16xi1>, memref
// VEC: vector.extract %[[M]][15] : i1 from vector<16xi1>
// VEC-NEXT: memref.store %{{.*}} : memref<16xi1>
// VEC-NOT: vector<16xi1>, memref
// VEC-LABEL: func.func @ref_update(
//
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#m0 = affine_map<(d0) -> (0)>
#id1 = affine_map<(d0) -> (d0)>
#row = affine_map<(b, i, j) -> (i, 0)>
#new = affine_map<(b, i, j) -> (b, 0, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>

// torch.where(one_hot(position)[:, None], new[:, None, :], cache) for the
// k and the v cache, one mask for both.
func.func @update(%pos: tensor<1xi64>, %k: tensor<2x1x16xf32>, %v: tensor<2x1x16xf32>,
                  %kc: tensor<2x16x16xf32>, %vc: tensor<2x16x16xf32>)
    -> (tensor<2x16x16xf32>, tensor<2x16x16xf32>) {
  %iota = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>
  %e = tensor.empty() : tensor<16xi1>
  %hot = linalg.generic {indexing_maps = [#id1, #m0, #id1], iterator_types = ["parallel"]}
      ins(%iota, %pos : tensor<16xi64>, tensor<1xi64>) outs(%e : tensor<16xi1>) {
  ^bb0(%a: i64, %p: i64, %o: i1):
    %c = arith.cmpi eq, %a, %p : i64
    linalg.yield %c : i1
  } -> tensor<16xi1>
  %hot2 = tensor.expand_shape %hot [[0, 1]] output_shape [16, 1] : tensor<16xi1> into tensor<16x1xi1>
  %e3 = tensor.empty() : tensor<2x16x16xf32>
  %nk = linalg.generic {indexing_maps = [#row, #new, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hot2, %k, %kc : tensor<16x1xi1>, tensor<2x1x16xf32>, tensor<2x16x16xf32>) outs(%e3 : tensor<2x16x16xf32>) {
  ^bb0(%h: i1, %n: f32, %c: f32, %o: f32):
    %s = arith.select %h, %n, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x16x16xf32>
  %nv = linalg.generic {indexing_maps = [#row, #new, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hot2, %v, %vc : tensor<16x1xi1>, tensor<2x1x16xf32>, tensor<2x16x16xf32>) outs(%e3 : tensor<2x16x16xf32>) {
  ^bb0(%h: i1, %n: f32, %c: f32, %o: f32):
    %s = arith.select %h, %n, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x16x16xf32>
  return %nk, %nv : tensor<2x16x16xf32>, tensor<2x16x16xf32>
}

// Plain loops: row i of each batch is the new row where i == position.
func.func @ref_update(%pos: index, %new: tensor<2x1x16xf32>, %cache: tensor<2x16x16xf32>)
    -> tensor<2x16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %b = %c0 to %c2 step %c1 iter_args(%t0 = %cache) -> (tensor<2x16x16xf32>) {
    %r1 = scf.for %i = %c0 to %c16 step %c1 iter_args(%t1 = %t0) -> (tensor<2x16x16xf32>) {
      %r2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%t2 = %t1) -> (tensor<2x16x16xf32>) {
        %at = arith.cmpi eq, %i, %pos : index
        %x = scf.if %at -> (f32) {
          %n = tensor.extract %new[%b, %c0, %j] : tensor<2x1x16xf32>
          scf.yield %n : f32
        } else {
          %o = tensor.extract %cache[%b, %i, %j] : tensor<2x16x16xf32>
          scf.yield %o : f32
        }
        %t3 = tensor.insert %x into %t2[%b, %i, %j] : tensor<2x16x16xf32>
        scf.yield %t3 : tensor<2x16x16xf32>
      }
      scf.yield %r2 : tensor<2x16x16xf32>
    }
    scf.yield %r1 : tensor<2x16x16xf32>
  }
  return %r : tensor<2x16x16xf32>
}

// 1 when every element is equal (plain loops).
func.func @same(%a: tensor<2x16x16xf32>, %b: tensor<2x16x16xf32>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %true = arith.constant true
  %r = scf.for %x = %c0 to %c2 step %c1 iter_args(%s0 = %true) -> (i1) {
    %r1 = scf.for %y = %c0 to %c16 step %c1 iter_args(%s1 = %s0) -> (i1) {
      %r2 = scf.for %z = %c0 to %c16 step %c1 iter_args(%s2 = %s1) -> (i1) {
        %u = tensor.extract %a[%x, %y, %z] : tensor<2x16x16xf32>
        %w = tensor.extract %b[%x, %y, %z] : tensor<2x16x16xf32>
        %eq = arith.cmpf oeq, %u, %w : f32
        %s3 = arith.andi %s2, %eq : i1
        scf.yield %s3 : i1
      }
      scf.yield %r2 : i1
    }
    scf.yield %r1 : i1
  }
  return %r : i1
}

// Distinct values: seed + 100 b + 10 i + j / 16 (exact in f32).
func.func @values(%seed: f32, %t: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n0 = tensor.dim %t, %c0 : tensor<?x?x?xf32>
  %n1 = tensor.dim %t, %c1 : tensor<?x?x?xf32>
  %n2 = tensor.dim %t, %c2 : tensor<?x?x?xf32>
  %r = scf.for %b = %c0 to %n0 step %c1 iter_args(%t0 = %t) -> (tensor<?x?x?xf32>) {
    %r1 = scf.for %i = %c0 to %n1 step %c1 iter_args(%t1 = %t0) -> (tensor<?x?x?xf32>) {
      %r2 = scf.for %j = %c0 to %n2 step %c1 iter_args(%t2 = %t1) -> (tensor<?x?x?xf32>) {
        %c100 = arith.constant 100 : index
        %c10 = arith.constant 10 : index
        %hb = arith.muli %b, %c100 : index
        %ti = arith.muli %i, %c10 : index
        %s = arith.addi %hb, %ti : index
        %si = arith.index_cast %s : index to i32
        %sf = arith.sitofp %si : i32 to f32
        %ji = arith.index_cast %j : index to i32
        %jf = arith.sitofp %ji : i32 to f32
        %c16f = arith.constant 16.0 : f32
        %jq = arith.divf %jf, %c16f : f32
        %v0 = arith.addf %sf, %jq : f32
        %v = arith.addf %v0, %seed : f32
        %t3 = tensor.insert %v into %t2[%b, %i, %j] : tensor<?x?x?xf32>
        scf.yield %t3 : tensor<?x?x?xf32>
      }
      scf.yield %r2 : tensor<?x?x?xf32>
    }
    scf.yield %r1 : tensor<?x?x?xf32>
  }
  return %r : tensor<?x?x?xf32>
}

func.func @check(%p: i64, %k: tensor<2x1x16xf32>, %v: tensor<2x1x16xf32>,
                 %kc: tensor<2x16x16xf32>, %vc: tensor<2x16x16xf32>) -> (i1, i1) {
  %pt = tensor.from_elements %p : tensor<1xi64>
  %nk, %nv = call @update(%pt, %k, %v, %kc, %vc)
      : (tensor<1xi64>, tensor<2x1x16xf32>, tensor<2x1x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>)
      -> (tensor<2x16x16xf32>, tensor<2x16x16xf32>)
  %pi = arith.index_cast %p : i64 to index
  %rk = call @ref_update(%pi, %k, %kc) : (index, tensor<2x1x16xf32>, tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %rv = call @ref_update(%pi, %v, %vc) : (index, tensor<2x1x16xf32>, tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %ok = call @same(%nk, %rk) : (tensor<2x16x16xf32>, tensor<2x16x16xf32>) -> i1
  %ov = call @same(%nv, %rv) : (tensor<2x16x16xf32>, tensor<2x16x16xf32>) -> i1
  return %ok, %ov : i1, i1
}

func.func @main() {
  %s1 = arith.constant 1000.0 : f32
  %s2 = arith.constant 2000.0 : f32
  %s3 = arith.constant 3000.0 : f32
  %s4 = arith.constant 4000.0 : f32
  %e1 = tensor.empty() : tensor<2x1x16xf32>
  %e16 = tensor.empty() : tensor<2x16x16xf32>
  %e1d = tensor.cast %e1 : tensor<2x1x16xf32> to tensor<?x?x?xf32>
  %e16d = tensor.cast %e16 : tensor<2x16x16xf32> to tensor<?x?x?xf32>
  %kd = call @values(%s1, %e1d) : (f32, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %vd = call @values(%s2, %e1d) : (f32, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %kcd = call @values(%s3, %e16d) : (f32, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %vcd = call @values(%s4, %e16d) : (f32, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %k = tensor.cast %kd : tensor<?x?x?xf32> to tensor<2x1x16xf32>
  %v = tensor.cast %vd : tensor<?x?x?xf32> to tensor<2x1x16xf32>
  %kc = tensor.cast %kcd : tensor<?x?x?xf32> to tensor<2x16x16xf32>
  %vc = tensor.cast %vcd : tensor<?x?x?xf32> to tensor<2x16x16xf32>

  // Positions 5, 0, 15: the k and the v cache each.
  %p5 = arith.constant 5 : i64
  %p0 = arith.constant 0 : i64
  %p15 = arith.constant 15 : i64
  %a0, %a1 = call @check(%p5, %k, %v, %kc, %vc) : (i64, tensor<2x1x16xf32>, tensor<2x1x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) -> (i1, i1)
  vector.print %a0 : i1
  vector.print %a1 : i1
  %b0, %b1 = call @check(%p0, %k, %v, %kc, %vc) : (i64, tensor<2x1x16xf32>, tensor<2x1x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) -> (i1, i1)
  vector.print %b0 : i1
  vector.print %b1 : i1
  %c0, %c1 = call @check(%p15, %k, %v, %kc, %vc) : (i64, tensor<2x1x16xf32>, tensor<2x1x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) -> (i1, i1)
  vector.print %c0 : i1
  vector.print %c1 : i1

  // Negative control: the update at 5 against the reference at 6 must
  // differ.
  %pt = tensor.from_elements %p5 : tensor<1xi64>
  %nk, %nv = call @update(%pt, %k, %v, %kc, %vc)
      : (tensor<1xi64>, tensor<2x1x16xf32>, tensor<2x1x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>)
      -> (tensor<2x16x16xf32>, tensor<2x16x16xf32>)
  %c6 = arith.constant 6 : index
  %r6 = call @ref_update(%c6, %k, %kc) : (index, tensor<2x1x16xf32>, tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %bad = call @same(%nk, %r6) : (tensor<2x16x16xf32>, tensor<2x16x16xf32>) -> i1
  %true = arith.constant true
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
