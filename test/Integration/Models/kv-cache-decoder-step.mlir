// A decoder step as LLM compilers export it (seq 1, width 64, a 16-entry
// KV cache): the q/k/v projections in linalg on tensors; the cache a pair of
// memrefs the step updates in place at position %pos (k by
// vector.transfer_write, v by memref.copy into a subview), a step counter
// bumped by an affine loop; attention over the whole cache read back with
// bufferization.to_tensor: scores q.K^T, softmax, P.V. Two steps run (pos 3,
// then 4), and the probabilities, the outputs, both caches and the counter
// are printed: the in-place writes must land where the second step reads
// them.
//
// Bound (Inputs/check_model.py): against the plain loop lowering (lowp-pipeline-reference),
// G = 64 + 64 + 16 + 16 (projection, scores, softmax sum, P.V) in f32;
// bf16 with c = 2 (softmax's gain for these O(1) logits).
//
// RUN: fp-opt %s -convert-lowp-to-linalg -one-shot-bufferize=bufferize-function-boundaries -convert-linalg-to-loops -convert-vector-to-scf -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-vector-to-llvm -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts | %run > %t.ref
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>%t.avx2.diag | %run > %t.x86.f32
// RUN: %check %t.ref %t.x86.f32 --term f32:64,64,16,16 | FileCheck %s
// RUN: FileCheck %s --check-prefix=DIAG --allow-empty < %t.avx2.diag
//
// RUN: fp-opt %s --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=DECIDED < %t.bf16.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=avx2 2>%t.bf16.diag | %run > %t.bf16.avx2
// RUN: FileCheck %s --check-prefix=DIAG --allow-empty < %t.bf16.diag
// RUN: %check %t.ref %t.bf16.avx2 --term bf16:64,64,16,16 --factor 2 --min-rel 1e-4 | FileCheck %s
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.mlir -lowp-pipeline-x86=target=sapphirerapids | %run > %t.bf16.avx512 %}
// RUN: %if x86-avx512bf16 %{ %check %t.ref %t.bf16.avx512 --term bf16:64,64,16,16 --factor 2 --min-rel 1e-4 | FileCheck %s %}

// CHECK-NOT: FAIL
// CHECK: PASS

// DIAG-NOT: error

// The projections take bf16 operands; the cache stays f32 and its writes
// are untouched.
// DECIDED-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x64xbf16>, tensor<64x64xbf16>) outs(%{{.*}} : tensor<1x64xf32>)
// DECIDED: vector.transfer_write %{{.*}}, %arg4[%arg6, %c0] : vector<1x64xf32>, memref<16x64xf32>
// DECIDED: memref.copy %{{.*}}, %{{.*}} : memref<1x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
// DECIDED: affine.store %{{.*}}, %arg7[%{{.*}}] : memref<1xi64>

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @decoder_step(%x: tensor<1x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>,
                          %kcache: memref<16x64xf32>, %vcache: memref<16x64xf32>, %pos: index,
                          %count: memref<1xi64>) -> (tensor<1x16xf32>, tensor<1x64xf32>) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 8.000000e+00 : f32
    %e = tensor.empty() : tensor<1x64xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
    %q = linalg.matmul ins(%x, %wq : tensor<1x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
    %k = linalg.matmul ins(%x, %wk : tensor<1x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
    %v = linalg.matmul ins(%x, %wv : tensor<1x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
    // cache[pos] = k, v, in place.
    %kvec = vector.transfer_read %k[%c0, %c0], %zero {in_bounds = [true, true]} : tensor<1x64xf32>, vector<1x64xf32>
    vector.transfer_write %kvec, %kcache[%pos, %c0] : vector<1x64xf32>, memref<16x64xf32>
    %vbuf = bufferization.to_buffer %v read_only : tensor<1x64xf32> to memref<1x64xf32>
    %vrow = memref.subview %vcache[%pos, 0] [1, 64] [1, 1] : memref<16x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
    memref.copy %vbuf, %vrow : memref<1x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
    affine.for %i = 0 to 1 {
      %n = affine.load %count[%i] : memref<1xi64>
      %one = arith.constant 1 : i64
      %n1 = arith.addi %n, %one : i64
      affine.store %n1, %count[%i] : memref<1xi64>
    }
    // softmax(q K^T / sqrt(64)) V over the whole cache.
    %kt = bufferization.to_tensor %kcache restrict : memref<16x64xf32> to tensor<16x64xf32>
    %vt = bufferization.to_tensor %vcache restrict : memref<16x64xf32> to tensor<16x64xf32>
    %se = tensor.empty() : tensor<1x16xf32>
    %sacc = linalg.fill ins(%zero : f32) outs(%se : tensor<1x16xf32>) -> tensor<1x16xf32>
    %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
           ins(%q, %kt : tensor<1x64xf32>, tensor<16x64xf32>) outs(%sacc : tensor<1x16xf32>) -> tensor<1x16xf32>
    %re = tensor.empty() : tensor<1x1xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%re : tensor<1x1xf32>) -> tensor<1x1xf32>
    %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<1x16xf32>) outs(%m0 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = arith.maximumf %in, %out : f32
      linalg.yield %y : f32
    } -> tensor<1x1xf32>
    %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %m : tensor<1x16xf32>, tensor<1x1xf32>) outs(%se : tensor<1x16xf32>) {
    ^bb0(%in: f32, %mx: f32, %out: f32):
      %d = arith.subf %in, %mx : f32
      %d1 = arith.divf %d, %scale : f32
      %y = math.exp %d1 : f32
      linalg.yield %y : f32
    } -> tensor<1x16xf32>
    %z0 = linalg.fill ins(%zero : f32) outs(%re : tensor<1x1xf32>) -> tensor<1x1xf32>
    %z = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<1x16xf32>) outs(%z0 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = arith.addf %in, %out : f32
      linalg.yield %y : f32
    } -> tensor<1x1xf32>
    %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %z : tensor<1x16xf32>, tensor<1x1xf32>) outs(%se : tensor<1x16xf32>) {
    ^bb0(%in: f32, %sum: f32, %out: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<1x16xf32>
    %o = linalg.matmul ins(%p, %vt : tensor<1x16xf32>, tensor<16x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
    return %p, %o : tensor<1x16xf32>, tensor<1x64xf32>
  }
  // scale * u_i, u_i in [-1, 1] pseudo-random (an integer hash: exact on
  // every path), i = 0 .. n-1.
  func.func @gen(%n: index, %seed: i32, %scale: f32) -> tensor<?xf32> {
    %e = tensor.empty(%n) : tensor<?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %p = arith.constant 7919 : i32
      %q = arith.constant 104729 : i32
      %m = arith.constant 10007 : i32
      %a = arith.muli %ii, %p : i32
      %b = arith.muli %seed, %q : i32
      %c = arith.addi %a, %b : i32
      %h = arith.remui %c, %m : i32
      %hf = arith.uitofp %h : i32 to f32
      %half = arith.constant 5.003000e+03 : f32
      %d = arith.subf %hf, %half : f32
      %s = arith.divf %d, %half : f32
      %v = arith.mulf %s, %scale : f32
      linalg.yield %v : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
  func.func @matrix(%seed: i32, %scale: f32) -> tensor<64x64xf32> {
    %n = arith.constant 4096 : index
    %a = call @gen(%n, %seed, %scale) : (index, i32, f32) -> tensor<?xf32>
    %a1 = tensor.cast %a : tensor<?xf32> to tensor<4096xf32>
    %w = tensor.expand_shape %a1 [[0, 1]] output_shape [64, 64] : tensor<4096xf32> into tensor<64x64xf32>
    return %w : tensor<64x64xf32>
  }
  func.func @row(%seed: i32) -> tensor<1x64xf32> {
    %n = arith.constant 64 : index
    %one = arith.constant 1.0 : f32
    %a = call @gen(%n, %seed, %one) : (index, i32, f32) -> tensor<?xf32>
    %a1 = tensor.cast %a : tensor<?xf32> to tensor<64xf32>
    %x = tensor.expand_shape %a1 [[0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>
    return %x : tensor<1x64xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<?x?xf32>) {
    %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() {
    %ws = arith.constant 0.25 : f32
    %cs = arith.constant 2.0 : f32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %wq = call @matrix(%i1, %ws) : (i32, f32) -> tensor<64x64xf32>
    %wk = call @matrix(%i2, %ws) : (i32, f32) -> tensor<64x64xf32>
    %wv = call @matrix(%i3, %ws) : (i32, f32) -> tensor<64x64xf32>
    // The cache as a previous prefill left it (16 x 64, entries 0..15).
    %n1024 = arith.constant 1024 : index
    %kc0 = call @gen(%n1024, %i4, %cs) : (index, i32, f32) -> tensor<?xf32>
    %vc0 = call @gen(%n1024, %i5, %cs) : (index, i32, f32) -> tensor<?xf32>
    %kc1 = tensor.cast %kc0 : tensor<?xf32> to tensor<1024xf32>
    %vc1 = tensor.cast %vc0 : tensor<?xf32> to tensor<1024xf32>
    %kc2 = tensor.expand_shape %kc1 [[0, 1]] output_shape [16, 64] : tensor<1024xf32> into tensor<16x64xf32>
    %vc2 = tensor.expand_shape %vc1 [[0, 1]] output_shape [16, 64] : tensor<1024xf32> into tensor<16x64xf32>
    %kcache = memref.alloc() : memref<16x64xf32>
    %vcache = memref.alloc() : memref<16x64xf32>
    bufferization.materialize_in_destination %kc2 in writable %kcache : (tensor<16x64xf32>, memref<16x64xf32>) -> ()
    bufferization.materialize_in_destination %vc2 in writable %vcache : (tensor<16x64xf32>, memref<16x64xf32>) -> ()
    %count = memref.alloc() : memref<1xi64>
    %zero = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    memref.store %zero, %count[%c0] : memref<1xi64>
    // Two steps.
    %x3 = call @row(%i6) : (i32) -> tensor<1x64xf32>
    %p3, %o3 = call @decoder_step(%x3, %wq, %wk, %wv, %kcache, %vcache, %c3, %count)
      : (tensor<1x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, memref<16x64xf32>, memref<16x64xf32>, index, memref<1xi64>) -> (tensor<1x16xf32>, tensor<1x64xf32>)
    %x4 = call @row(%i7) : (i32) -> tensor<1x64xf32>
    %p4, %o4 = call @decoder_step(%x4, %wq, %wk, %wv, %kcache, %vcache, %c4, %count)
      : (tensor<1x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, memref<16x64xf32>, memref<16x64xf32>, index, memref<1xi64>) -> (tensor<1x16xf32>, tensor<1x64xf32>)
    %a = tensor.cast %p3 : tensor<1x16xf32> to tensor<?x?xf32>
    %b = tensor.cast %o3 : tensor<1x64xf32> to tensor<?x?xf32>
    %c = tensor.cast %p4 : tensor<1x16xf32> to tensor<?x?xf32>
    %d = tensor.cast %o4 : tensor<1x64xf32> to tensor<?x?xf32>
    call @print(%a) : (tensor<?x?xf32>) -> ()
    call @print(%b) : (tensor<?x?xf32>) -> ()
    call @print(%c) : (tensor<?x?xf32>) -> ()
    call @print(%d) : (tensor<?x?xf32>) -> ()
    %kt = bufferization.to_tensor %kcache restrict : memref<16x64xf32> to tensor<16x64xf32>
    %vt = bufferization.to_tensor %vcache restrict : memref<16x64xf32> to tensor<16x64xf32>
    %ktd = tensor.cast %kt : tensor<16x64xf32> to tensor<?x?xf32>
    %vtd = tensor.cast %vt : tensor<16x64xf32> to tensor<?x?xf32>
    call @print(%ktd) : (tensor<?x?xf32>) -> ()
    call @print(%vtd) : (tensor<?x?xf32>) -> ()
    // The counter, as f32 (printMemrefF32).
    %n = memref.load %count[%c0] : memref<1xi64>
    %nf = arith.sitofp %n : i64 to f32
    %nt = tensor.from_elements %nf : tensor<1x1xf32>
    %ntd = tensor.cast %nt : tensor<1x1xf32> to tensor<?x?xf32>
    call @print(%ntd) : (tensor<?x?xf32>) -> ()
    memref.dealloc %kcache : memref<16x64xf32>
    memref.dealloc %vcache : memref<16x64xf32>
    memref.dealloc %count : memref<1xi64>
    return
  }
}
