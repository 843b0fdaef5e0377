// The row-reduction kernels of lowp-gpu-map-row-reductions executed on the
// CPU: with `emulate` the pass emits the same kernel (thread count, each
// thread's elements r = t, t + T, ..., identities, the subgroup butterfly
// in the shuffle lowering's order, the exchange of the subgroups' values,
// forwarded per-row values, thread 0's stores) as host loops over rows and
// threads. A LayerNorm and a softmax on 5 rows of 300 (300 is no multiple
// of the 256 threads nor of a subgroup: threads past the row's end keep
// the identity), and a keepdim softmax (statistics indexed (d0, d1, 0) as
// torch-mlir emits them), for a 32-lane subgroup (sm_90: 8 warps) and a
// 64-lane one (gfx942: 4 wavefronts), against the same functions in f64
// (accumulators wider than 32 bits stay loops, with a remark).
//
// Bound (check_model.py): f32 against f64 with G = 2 * 300 (two chained
// reductions of 300: mean then variance, or max then sum) and c = 4 for the
// normalization's 1/sigma (inputs are O(1) sines).
//
// The f64 reference: the same functions with f64 for f32 (suffixed _f64),
// and the drivers (Inputs/row-reductions-driver.mlir) that run both on the
// same sines.
// DEFINE: %{lower} = -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts
// DEFINE: %{run} = mlir-runner -entry-point-result=void -shared-libs=%mlir_runner_utils
// RUN: sed -e 's/f32/f64/g' -e 's/func.func @\([a-z_]*\)/func.func @\1_f64/' -e 's/#\([a-z0-9]*\)/#\1_f64/g' %s > %t.f64.mlir
// RUN: cat %s %t.f64.mlir %S/Inputs/row-reductions-driver.mlir > %t.all.mlir
// RUN: fp-opt %t.all.mlir -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -canonicalize -o %t.buf.mlir
// RUN: fp-opt %t.buf.mlir -lowp-gpu-map-row-reductions="target=sm_90 emulate" 2>%t.sm_90.diag | fp-opt %{lower} | %{run} -e reference > %t.ref
// RUN: fp-opt %t.buf.mlir -lowp-gpu-map-row-reductions="target=sm_90 emulate" 2>/dev/null | fp-opt %{lower} | %{run} -e emulated > %t.sm_90
// RUN: %python %S/../Models/Inputs/check_model.py %t.ref %t.sm_90 --term f32:600 --factor 4 | FileCheck %s
// RUN: fp-opt %t.buf.mlir -lowp-gpu-map-row-reductions="target=gfx942 emulate" 2>/dev/null | fp-opt %{lower} | %{run} -e emulated > %t.gfx942
// RUN: %python %S/../Models/Inputs/check_model.py %t.ref %t.gfx942 --term f32:600 --factor 4 | FileCheck %s
// RUN: FileCheck %s --check-prefix=DIAG < %t.sm_90.diag
//
// The emulated kernel is the kernel: the same IR without `emulate` is a
// gpu.launch per group (64 threads would be wrong for these rows, and a
// kernel that dropped a thread's elements or the identity would fail the
// bound by orders of magnitude).
// RUN: fp-opt %t.buf.mlir -lowp-gpu-map-row-reductions="target=sm_90" 2>/dev/null | FileCheck %s --check-prefix=GPU
//

// Four tensors (LayerNorm, softmax, keepdim softmax, masked softmax), each
// within bound:
// CHECK-NOT: FAIL
// CHECK-COUNT-4: elements: {{.*}}: ok
// CHECK-NOT: FAIL
// CHECK: PASS

// DIAG-COUNT-8: remark: no row kernel for 'linalg.generic': its accumulator is wider than 32 bits

// GPU-COUNT-4: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{[_0-9]*}},

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

func.func @layer_norm(%x: tensor<5x300xf32>, %g: tensor<300xf32>) -> tensor<5x300xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 3.33333333e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x300xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<5x300xf32>, tensor<5xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %mean = arith.mulf %s, %inv : f32
    %c = arith.subf %in, %mean : f32
    %c2 = arith.mulf %c, %c : f32
    %r = arith.addf %c2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %ey = tensor.empty() : tensor<5x300xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %g : tensor<5x300xf32>, tensor<5xf32>, tensor<5xf32>, tensor<300xf32>) outs(%ey : tensor<5x300xf32>) {
  ^bb0(%in: f32, %s: f32, %v: f32, %gi: f32, %out: f32):
    %mean = arith.mulf %s, %inv : f32
    %c = arith.subf %in, %mean : f32
    %var = arith.mulf %v, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %n = arith.mulf %c, %rs : f32
    %r = arith.mulf %n, %gi : f32
    linalg.yield %r : f32
  } -> tensor<5x300xf32>
  return %y : tensor<5x300xf32>
}

func.func @softmax(%x: tensor<5x300xf32>) -> tensor<5x300xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<5xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x300xf32>) outs(%m0 : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  %ee = tensor.empty() : tensor<5x300xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<5x300xf32>, tensor<5xf32>) outs(%ee : tensor<5x300xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<5x300xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<5x300xf32>) outs(%s0 : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %ep = tensor.empty() : tensor<5x300xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<5x300xf32>, tensor<5xf32>) outs(%ep : tensor<5x300xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.divf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<5x300xf32>
  return %p : tensor<5x300xf32>
}

func.func @softmax_keepdim(%x: tensor<1x5x300xf32>) -> tensor<1x5x300xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x5x1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %max = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x5x300xf32>) outs(%m0 : tensor<1x5x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x5x1xf32>
  %ee = tensor.empty() : tensor<1x5x300xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<1x5x300xf32>, tensor<1x5x1xf32>) outs(%ee : tensor<1x5x300xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<1x5x300xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x5x300xf32>) outs(%s0 : tensor<1x5x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x5x1xf32>
  %ep = tensor.empty() : tensor<1x5x300xf32>
  %p = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<1x5x300xf32>, tensor<1x5x1xf32>) outs(%ep : tensor<1x5x300xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.divf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x5x300xf32>
  return %p : tensor<1x5x300xf32>
}

// A causal-style mask written as front ends do (an elementwise op that
// reads its loop indices with linalg.index: keep x[i][j] where j <= 60 i +
// 40, else the lowest f32), then the softmax: the mask runs inside the row
// kernel, its indices the kernel's row and element.
func.func @softmax_masked(%x: tensor<5x300xf32>) -> tensor<5x300xf32> {
  %ninf = arith.constant -3.40282347E+38 : f32
  %c60 = arith.constant 60 : index
  %c40 = arith.constant 40 : index
  %em = tensor.empty() : tensor<5x300xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x300xf32>) outs(%em : tensor<5x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i60 = arith.muli %i, %c60 : index
    %limit = arith.addi %i60, %c40 : index
    %keep = arith.cmpi ule, %j, %limit : index
    %v = arith.select %keep, %in, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<5x300xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<5x300xf32>) outs(%m0 : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  %ee = tensor.empty() : tensor<5x300xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<5x300xf32>, tensor<5xf32>) outs(%ee : tensor<5x300xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<5x300xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<5x300xf32>) outs(%s0 : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %ep = tensor.empty() : tensor<5x300xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<5x300xf32>, tensor<5xf32>) outs(%ep : tensor<5x300xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.divf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<5x300xf32>
  return %p : tensor<5x300xf32>
}
