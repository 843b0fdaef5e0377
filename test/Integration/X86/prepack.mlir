// Weights packed once: Inputs/prepack-linear.mlir (two torch-mlir-style
// nn.Linear layers) through lowp-pipeline-x86{prepack=true} gets
// forward_prepack(w1, w2) -> (packed w1, packed w2), the panels (VNNI pairs
// in bf16 on AVX512_BF16) the kernels read, rounded to bf16 by the
// precision decision's cast where there is one, and forward(x, packed w1,
// b1, packed w2, b2). It is compiled to a shared object; this driver calls
// forward_prepack once, then forward on three different inputs with the
// same packed weights, and compares each result with a reference computed
// here on the original f32 weights (generic contractions, the plain loop
// path): |y - ref| <= 2^-8 (|h| |w2^T|) + 1e-4, the bf16 rounding of the
// hidden activation (inputs and weights are multiples of 1/16, exact in
// bf16) plus summation order; the f32 runs meet it with room. A fourth
// check is a negative control (the result for x0 against the reference of
// x1). Each check prints 1.
//
// The packed types depend on the target (nr = 16 on AVX2, 32 with AVX-512;
// bf16 VNNI pairs for the dot kernel), so the driver's declarations are
// filled in per run.
//
// RUN: fp-opt %S/Inputs/prepack-linear.mlir -lowp-pipeline-x86="target=avx2 prepack=true" 2>&1 >%t.avx2.mlir | FileCheck %s --check-prefix=REMARK
// RUN: mlir-translate --mlir-to-llvmir %t.avx2.mlir | llc -O2 -mcpu=x86-64-v3 -relocation-model=pic -filetype=obj -o %t.avx2.o
// RUN: %clang -shared %t.avx2.o -o %t.avx2.so
// RUN: sed -e 's/PACKED1/3x38x16xf32/g' -e 's/PACKED2/2x40x16xf32/g' %s | fp-opt -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%t.avx2.so,%mlir_runner_utils | FileCheck %s
//
// bf16 on AVX2: the rounding cast runs in forward_prepack; packed in f32.
// RUN: fp-opt %S/Inputs/prepack-linear.mlir --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-x86="target=avx2 prepack=true" 2>/dev/null \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=x86-64-v3 -relocation-model=pic -filetype=obj -o %t.mixed.o
// RUN: %clang -shared %t.mixed.o -o %t.mixed.so
// RUN: sed -e 's/PACKED1/3x38x16xf32/g' -e 's/PACKED2/2x40x16xf32/g' %s | fp-opt -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%t.mixed.so,%mlir_runner_utils | FileCheck %s
//
// bf16 on AVX512_BF16 (Zen 4): VNNI pairs for vdpbf16ps.
// RUN: %if x86-avx512bf16 %{ fp-opt %S/Inputs/prepack-linear.mlir --lowp-auto-mixed-precision="target=znver4 policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-x86="target=znver4 prepack=true" 2>/dev/null \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=znver4 -relocation-model=pic -filetype=obj -o %t.zen4.o %}
// RUN: %if x86-avx512bf16 %{ %clang -shared %t.zen4.o -o %t.zen4.so %}
// RUN: %if x86-avx512bf16 %{ sed -e 's/PACKED1/2x19x64xbf16/g' -e 's/PACKED2/1x20x64xbf16/g' %s | fp-opt -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%t.zen4.so,%mlir_runner_utils | FileCheck %s %}
//
// bf16 on Sapphire Rapids without AMX (vdpbf16ps at half the FMAs' rate):
// rounded once, widened to f32 panels of 32 columns.
// RUN: %if x86-sapphirerapids %{ fp-opt %S/Inputs/prepack-linear.mlir --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" \
// RUN: | fp-opt -lowp-pipeline-x86="target=sapphirerapids prepack=true" 2>/dev/null \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=sapphirerapids -relocation-model=pic -filetype=obj -o %t.spr.o %}
// RUN: %if x86-sapphirerapids %{ %clang -shared %t.spr.o -o %t.spr.so %}
// RUN: %if x86-sapphirerapids %{ sed -e 's/PACKED1/2x38x32xf32/g' -e 's/PACKED2/1x40x32xf32/g' %s | fp-opt -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%t.spr.so,%mlir_runner_utils | FileCheck %s %}

// REMARK: remark: weights of 'forward' (arguments 1, 3) are packed once, by 'forward_prepack'
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id2 = affine_map<(a, b) -> (a, b)>
#all2 = affine_map<(a, b) -> ()>
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#bias = affine_map<(a, b) -> (b)>

func.func private @forward_prepack(tensor<40x38xf32>, tensor<20x40xf32>) -> (tensor<PACKED1>, tensor<PACKED2>)
func.func private @forward(tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>

// Deterministic multiples of 1/16 in [-0.875, 0.875] (exact in bf16).
func.func @rand2(%seed: index, %m: index, %n: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c13 : index
    %s1 = arith.addi %a, %b : index
    %s2 = arith.addi %s1, %seed : index
    %md = arith.remui %s2, %c29 : index
    %mi = arith.index_cast %md : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %sixteen = arith.constant 16.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %sixteen : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// y = act(x w^T + b) in f32 (act: ReLU when %relu), and |x| |w|^T.
func.func @ref_linear(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>, %relu: i1) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %w, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %acc = linalg.generic {indexing_maps = [#bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [#mA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) {
  ^bb0(%a: f32, %v: f32, %s: f32):
    %p = arith.mulf %a, %v : f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mag = linalg.generic {indexing_maps = [#mA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) {
  ^bb0(%a: f32, %v: f32, %s: f32):
    %aa = math.absf %a : f32
    %av = math.absf %v : f32
    %p = arith.mulf %aa, %av : f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  %out = scf.if %relu -> tensor<?x?xf32> {
    %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
    ^bb0(%in: f32, %o: f32):
      %mx = arith.maximumf %in, %zero : f32
      linalg.yield %mx : f32
    } -> tensor<?x?xf32>
    scf.yield %r : tensor<?x?xf32>
  } else {
    scf.yield %y : tensor<?x?xf32>
  }
  return %out, %mag : tensor<?x?xf32>, tensor<?x?xf32>
}

// 1 when every |y - ref| <= 2^-8 mag + 1e-4.
func.func @within(%y: tensor<?x?xf32>, %ref: tensor<?x?xf32>, %mag: tensor<?x?xf32>) -> i1 {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %worst = linalg.generic {indexing_maps = [#id2, #id2, #id2, #all2], iterator_types = ["reduction", "reduction"]}
      ins(%y, %ref, %mag : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %r: f32, %g: f32, %w: f32):
    %d = arith.subf %v, %r : f32
    %ad = math.absf %d : f32
    %u = arith.constant 3.90625e-03 : f32
    %abs = arith.constant 1.0e-4 : f32
    %t = arith.mulf %g, %u : f32
    %tol = arith.addf %t, %abs : f32
    %ex = arith.subf %ad, %tol : f32
    %n = arith.maximumf %w, %ex : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %wv = tensor.extract %worst[] : tensor<f32>
  %ok = arith.cmpf ole, %wv, %zero : f32
  return %ok : i1
}

func.func @reference(%xd: tensor<?x?xf32>, %w1d: tensor<?x?xf32>, %b1: tensor<40xf32>, %w2d: tensor<?x?xf32>, %b2: tensor<20xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %b1d = tensor.cast %b1 : tensor<40xf32> to tensor<?xf32>
  %b2d = tensor.cast %b2 : tensor<20xf32> to tensor<?xf32>
  %h, %hmag = func.call @ref_linear(%xd, %w1d, %b1d, %true) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, i1) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  %y, %ymag = func.call @ref_linear(%h, %w2d, %b2d, %false) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, i1) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  return %y, %ymag : tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  %c20 = arith.constant 20 : index
  %c38 = arith.constant 38 : index
  %c40 = arith.constant 40 : index
  %w1d = call @rand2(%c1, %c40, %c38) : (index, index, index) -> tensor<?x?xf32>
  %w2d = call @rand2(%c3, %c20, %c40) : (index, index, index) -> tensor<?x?xf32>
  %bm1 = call @rand2(%c5, %c1, %c40) : (index, index, index) -> tensor<?x?xf32>
  %bm2 = call @rand2(%c0, %c1, %c20) : (index, index, index) -> tensor<?x?xf32>
  %b1s = tensor.cast %bm1 : tensor<?x?xf32> to tensor<1x40xf32>
  %b2s = tensor.cast %bm2 : tensor<?x?xf32> to tensor<1x20xf32>
  %b1 = tensor.collapse_shape %b1s [[0, 1]] : tensor<1x40xf32> into tensor<40xf32>
  %b2 = tensor.collapse_shape %b2s [[0, 1]] : tensor<1x20xf32> into tensor<20xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<40x38xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<20x40xf32>
  // Once.
  %p1, %p2 = call @forward_prepack(%w1, %w2) : (tensor<40x38xf32>, tensor<20x40xf32>) -> (tensor<PACKED1>, tensor<PACKED2>)
  // Many times, the same packed weights.
  %true = arith.constant true
  scf.for %i = %c0 to %c3 step %c1 {
    %seed = arith.addi %i, %c13 : index
    %xd = func.call @rand2(%seed, %c13, %c38) : (index, index, index) -> tensor<?x?xf32>
    %x = tensor.cast %xd : tensor<?x?xf32> to tensor<13x38xf32>
    %y = func.call @forward(%x, %p1, %b1, %p2, %b2) : (tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
    %ref, %mag = func.call @reference(%xd, %w1d, %b1, %w2d, %b2) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<40xf32>, tensor<?x?xf32>, tensor<20xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
    %yd = tensor.cast %y : tensor<13x20xf32> to tensor<?x?xf32>
    %ok = func.call @within(%yd, %ref, %mag) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    vector.print %ok : i1
  }
  // Negative control: forward(x0) against the reference of x1.
  %x0d = call @rand2(%c13, %c13, %c38) : (index, index, index) -> tensor<?x?xf32>
  %x0 = tensor.cast %x0d : tensor<?x?xf32> to tensor<13x38xf32>
  %s1 = arith.addi %c13, %c1 : index
  %x1d = call @rand2(%s1, %c13, %c38) : (index, index, index) -> tensor<?x?xf32>
  %y0 = call @forward(%x0, %p1, %b1, %p2, %b2) : (tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
  %ref1, %mag1 = call @reference(%x1d, %w1d, %b1, %w2d, %b2) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<40xf32>, tensor<?x?xf32>, tensor<20xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  %y0d = tensor.cast %y0 : tensor<13x20xf32> to tensor<?x?xf32>
  %bad = call @within(%y0d, %ref1, %mag1) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> i1
  %okbad = arith.xori %bad, %true : i1
  vector.print %okbad : i1
  return
}
