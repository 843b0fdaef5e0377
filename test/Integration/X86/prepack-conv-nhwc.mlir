// Convolution filters transposed to NHWC's FHWC (and rounded) once:
// Inputs/prepack-conv-nhwc.mlir (a 3x3 and a 1x1 NCHW convolution, f32
// filter arguments), decided bf16, through lowp-pipeline-x86{prepack=true}:
// lowp-convert-conv-nchw-to-nhwc runs both NHWC, and the prepack split
// gets forward_prepack(w1, w2) -> (w1 transposed to 16x3x3x8 and rounded
// to bf16, w2 rounded), the 1x1 filter's reshape staying in forward. The
// same module without prepack (forward_unpacked: a 3x3 filter argument
// would be transposed per call, so it stays NCHW) is the reference. This
// driver calls forward_prepack once and checks: the prepacked filters equal
// the driver's own transpose and arith.truncf of the weights; on three
// inputs, forward on them matches forward_unpacked on the f32 weights
// within |a - b| <= 1e-4 |b| + 1e-4 (the same bf16 operands, summed in
// another order); and, as a control, forward on one input differs from
// forward_unpacked on another. Each check prints 1.
//
// The module is small (its convolutions do less work per transposed
// element than the default price): the conversion runs first with price 0.
// RUN: fp-opt %S/Inputs/prepack-conv-nhwc.mlir --lowp-auto-mixed-precision="target=sapphirerapids policy=bf16" -o %t.bf16.mlir
// RUN: sed 's/@forward(/@forward_unpacked(/' %t.bf16.mlir > %t.unpacked.mlir
// RUN: fp-opt %t.bf16.mlir -lowp-convert-conv-nchw-to-nhwc="prepacked-filters=true macs-per-transposed-element=0" -o %t.bf16.nhwc.mlir
// RUN: FileCheck %s --check-prefix=NHWC < %t.bf16.nhwc.mlir
// RUN: fp-opt %t.bf16.nhwc.mlir -lowp-pipeline-x86="target=avx2 prepack=true" 2>&1 -o %t.avx2.mlir | FileCheck %s --check-prefix=REMARK
// RUN: fp-opt %t.unpacked.mlir -lowp-pipeline-x86="target=avx2" -o %t.avx2.u.mlir 2>/dev/null
// RUN: mlir-translate --mlir-to-llvmir %t.avx2.mlir | llc -O2 -mcpu=x86-64-v3 -relocation-model=pic -filetype=obj -o %t.avx2.o
// RUN: mlir-translate --mlir-to-llvmir %t.avx2.u.mlir | llc -O2 -mcpu=x86-64-v3 -relocation-model=pic -filetype=obj -o %t.avx2.u.o
// RUN: %clang -shared %t.avx2.o -o %t.avx2.so && %clang -shared %t.avx2.u.o -o %t.avx2.u.so
// RUN: fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%t.avx2.so,%t.avx2.u.so,%mlir_runner_utils | FileCheck %s
// AVX512_BF16 hosts: the vdpbf16ps kernels.
// RUN: %if x86-avx512bf16 %{ fp-opt %t.bf16.nhwc.mlir -lowp-pipeline-x86="target=znver4 prepack=true" 2>/dev/null \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=znver4 -relocation-model=pic -filetype=obj -o %t.spr.o %}
// RUN: %if x86-avx512bf16 %{ fp-opt %t.unpacked.mlir -lowp-pipeline-x86="target=znver4" 2>/dev/null \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=znver4 -relocation-model=pic -filetype=obj -o %t.spr.u.o %}
// RUN: %if x86-avx512bf16 %{ %clang -shared %t.spr.o -o %t.spr.so %}
// RUN: %if x86-avx512bf16 %{ %clang -shared %t.spr.u.o -o %t.spr.u.so %}
// RUN: %if x86-avx512bf16 %{ fp-opt %s -lowp-pipeline-x86=target=avx2 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%t.spr.so,%t.spr.u.so,%mlir_runner_utils | FileCheck %s %}
//
// NHWC-LABEL: func.func @forward(
// NHWC:         linalg.transpose ins(%{{.*}} : tensor<16x8x3x3xbf16>) {{.*}} permutation = [0, 2, 3, 1]
// NHWC:         linalg.conv_2d_nhwc_fhwc
// NHWC:         tensor.expand_shape {{.*}} into tensor<16x1x1x16xbf16>
// NHWC:         linalg.conv_2d_nhwc_fhwc
// NHWC:         linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// NHWC-NOT:     linalg.conv_2d_nchw_fchw
// REMARK:       remark: weights of 'forward' (arguments 1, 2) are packed once, by 'forward_prepack'
// CHECK: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NOT: 0

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#all4 = affine_map<(a, b, c, d) -> ()>

func.func private @forward_prepack(tensor<16x8x3x3xf32>, tensor<16x16x1x1xf32>) -> (tensor<16x3x3x8xbf16>, tensor<16x16x1x1xbf16>)
func.func private @forward(tensor<1x8x12x12xf32>, tensor<16x3x3x8xbf16>, tensor<16x16x1x1xbf16>) -> tensor<1x16x12x12xf32>
func.func private @forward_unpacked(tensor<1x8x12x12xf32>, tensor<16x8x3x3xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32>

// Deterministic values ((7a + 13b + 5c + 3d + seed) mod 29 - 14) / 29 in
// (-0.5, 0.5): not bf16-exact.
func.func @values(%seed: index, %e: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c13 : index
    %c = arith.muli %i2, %c5 : index
    %d = arith.muli %i3, %c3 : index
    %s1 = arith.addi %a, %b : index
    %s2 = arith.addi %s1, %c : index
    %s3 = arith.addi %s2, %d : index
    %s4 = arith.addi %s3, %seed : index
    %m = arith.remui %s4, %c29 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %fourteen = arith.constant 14.0 : f32
    %twentynine = arith.constant 29.0 : f32
    %v0 = arith.subf %mf, %fourteen : f32
    %v = arith.divf %v0, %twentynine : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// 1 when the two tensors hold the same bits everywhere.
func.func @same_bits(%x: tensor<?x?x?x?xf32>, %y: tensor<?x?x?x?xf32>) -> i1 {
  %c0 = arith.constant 0 : i32
  %es = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%c0 : i32) outs(%es : tensor<i32>) -> tensor<i32>
  %n = linalg.generic {indexing_maps = [#id4, #id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %y : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%init : tensor<i32>) {
  ^bb0(%a: f32, %b: f32, %acc: i32):
    %ai = arith.bitcast %a : f32 to i32
    %bi = arith.bitcast %b : f32 to i32
    %ne = arith.cmpi ne, %ai, %bi : i32
    %one = arith.extui %ne : i1 to i32
    %s = arith.addi %acc, %one : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  %count = tensor.extract %n[] : tensor<i32>
  %ok = arith.cmpi eq, %count, %c0 : i32
  return %ok : i1
}

// 1 when |x - y| <= 1e-4 |y| + 1e-4 everywhere.
func.func @close(%x: tensor<?x?x?x?xf32>, %y: tensor<?x?x?x?xf32>) -> i1 {
  %c0 = arith.constant 0 : i32
  %es = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%c0 : i32) outs(%es : tensor<i32>) -> tensor<i32>
  %n = linalg.generic {indexing_maps = [#id4, #id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %y : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%init : tensor<i32>) {
  ^bb0(%a: f32, %b: f32, %acc: i32):
    %tol = arith.constant 1.0e-4 : f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %ab = math.absf %b : f32
    %rel = arith.mulf %ab, %tol : f32
    %bound = arith.addf %rel, %tol : f32
    %bad = arith.cmpf ugt, %ad, %bound : f32
    %one = arith.extui %bad : i1 to i32
    %s = arith.addi %acc, %one : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  %count = tensor.extract %n[] : tensor<i32>
  %ok = arith.cmpi eq, %count, %c0 : i32
  return %ok : i1
}

// The rounded filter, widened back, against the driver's own rounding.
func.func @rounded_as_truncf(%w: tensor<?x?x?x?xf32>, %r: tensor<?x?x?x?xbf16>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %w, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %w, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %w, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %w, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %mine = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.truncf %a : f32 to bf16
    %x = arith.extf %t : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %theirs = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<?x?x?x?xbf16>) outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %x = arith.extf %a : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %ok = func.call @same_bits(%mine, %theirs) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  return %ok : i1
}

func.func @input(%seed: index) -> tensor<1x8x12x12xf32> {
  %e = tensor.empty() : tensor<1x8x12x12xf32>
  %ed = tensor.cast %e : tensor<1x8x12x12xf32> to tensor<?x?x?x?xf32>
  %xd = call @values(%seed, %ed) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<1x8x12x12xf32>
  return %x : tensor<1x8x12x12xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  %c17 = arith.constant 17 : index
  %e1 = tensor.empty() : tensor<16x8x3x3xf32>
  %e1d = tensor.cast %e1 : tensor<16x8x3x3xf32> to tensor<?x?x?x?xf32>
  %w1d = call @values(%c11, %e1d) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %w1 = tensor.cast %w1d : tensor<?x?x?x?xf32> to tensor<16x8x3x3xf32>
  %e2 = tensor.empty() : tensor<16x16x1x1xf32>
  %e2d = tensor.cast %e2 : tensor<16x16x1x1xf32> to tensor<?x?x?x?xf32>
  %w2d = call @values(%c17, %e2d) : (index, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %w2 = tensor.cast %w2d : tensor<?x?x?x?xf32> to tensor<16x16x1x1xf32>
  // Once.
  %r1, %r2 = call @forward_prepack(%w1, %w2) : (tensor<16x8x3x3xf32>, tensor<16x16x1x1xf32>) -> (tensor<16x3x3x8xbf16>, tensor<16x16x1x1xbf16>)
  %r1d = tensor.cast %r1 : tensor<16x3x3x8xbf16> to tensor<?x?x?x?xbf16>
  %r2d = tensor.cast %r2 : tensor<16x16x1x1xbf16> to tensor<?x?x?x?xbf16>
  %et = tensor.empty() : tensor<16x3x3x8xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<16x8x3x3xf32>) outs(%et : tensor<16x3x3x8xf32>) permutation = [0, 2, 3, 1]
  %w1td = tensor.cast %w1t : tensor<16x3x3x8xf32> to tensor<?x?x?x?xf32>
  %ok1 = call @rounded_as_truncf(%w1td, %r1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xbf16>) -> i1
  vector.print %ok1 : i1
  %ok2 = call @rounded_as_truncf(%w2d, %r2d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xbf16>) -> i1
  vector.print %ok2 : i1
  // Many times, the same rounded filters.
  scf.for %i = %c0 to %c3 step %c1 {
    %x = func.call @input(%i) : (index) -> tensor<1x8x12x12xf32>
    %y = func.call @forward(%x, %r1, %r2) : (tensor<1x8x12x12xf32>, tensor<16x3x3x8xbf16>, tensor<16x16x1x1xbf16>) -> tensor<1x16x12x12xf32>
    %u = func.call @forward_unpacked(%x, %w1, %w2) : (tensor<1x8x12x12xf32>, tensor<16x8x3x3xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32>
    %yd = tensor.cast %y : tensor<1x16x12x12xf32> to tensor<?x?x?x?xf32>
    %ud = tensor.cast %u : tensor<1x16x12x12xf32> to tensor<?x?x?x?xf32>
    %ok = func.call @close(%yd, %ud) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
    vector.print %ok : i1
  }
  // Control: forward(x0) against forward_unpacked(x1).
  %x0 = call @input(%c0) : (index) -> tensor<1x8x12x12xf32>
  %x1 = call @input(%c1) : (index) -> tensor<1x8x12x12xf32>
  %y0 = call @forward(%x0, %r1, %r2) : (tensor<1x8x12x12xf32>, tensor<16x3x3x8xbf16>, tensor<16x16x1x1xbf16>) -> tensor<1x16x12x12xf32>
  %u1 = call @forward_unpacked(%x1, %w1, %w2) : (tensor<1x8x12x12xf32>, tensor<16x8x3x3xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32>
  %y0d = tensor.cast %y0 : tensor<1x16x12x12xf32> to tensor<?x?x?x?xf32>
  %u1d = tensor.cast %u1 : tensor<1x16x12x12xf32> to tensor<?x?x?x?xf32>
  %same = call @close(%y0d, %u1d) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i1
  %true = arith.constant true
  %differ = arith.xori %same, %true : i1
  vector.print %differ : i1
  return
}
