// RUN: fp-opt %s -lowp-fuse-elementwise -split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// Bias add (a broadcast of the bias by linalg.broadcast, then linalg.add)
// and erf-GELU after a matmul: one generic reads the matmul result and
// the bias directly; the matmul stays a named op.
// CHECK-LABEL: func @bias_gelu
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.add
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<16x64xf32>, tensor<64xf32>)
// CHECK: arith.addf
// CHECK: math.erf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @bias_gelu(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  %bb = linalg.broadcast ins(%bias : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %sum = linalg.add ins(%mm, %bb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs2 = arith.constant 0.707106769 : f32
    %s = arith.mulf %x, %rs2 : f32
    %er = math.erf %s : f32
    %p = arith.addf %er, %one : f32
    %h = arith.mulf %x, %half : f32
    %y = arith.mulf %h, %p : f32
    linalg.yield %y : f32
  } -> tensor<16x64xf32>
  return %g : tensor<16x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Softmax's exp(x - max) feeds both the sum and the division: it is
// computed once (two uses, not a cast), and the division is not fused
// into it. The max reduction is never fused into its consumer.
// CHECK-LABEL: func @softmax
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] :
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
// CHECK: arith.divf
func.func @softmax(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x32xf32>) outs(%mi : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x32xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<4x32xf32>, tensor<4xf32>) outs(%e2 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x32xf32>) outs(%si : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4x32xf32>, tensor<4xf32>) outs(%e2 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A bf16 rounding (an island boundary's cast) consumed by two generics is
// cheap: it is recomputed in both and its bf16 buffer disappears; the
// rounding itself stays (truncf then extf in each consumer).
// CHECK-LABEL: func @shared_cast
// CHECK-NOT: tensor<8x16xbf16>
// CHECK: linalg.generic
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: linalg.generic
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: arith.extf {{.*}} : bf16 to f32
func.func @shared_cast(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %eb = tensor.empty() : tensor<8x16xbf16>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%eb : tensor<8x16xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x16xbf16>
  %e = tensor.empty() : tensor<8x16xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x16xbf16>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %y = math.tanh %w : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x16xbf16>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %y = math.exp %w : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %u, %v : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A cheap producer that a matmul also reads is stored for it anyway: it is
// not recomputed in its other (generic) consumer, which reads the stored
// values (torch.export's batch norm read by the next convolution and the
// residual add; recomputed, the contraction before it would have two
// readers and no epilogue).
// CHECK-LABEL: func @shared_with_matmul
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} ins(%arg0
// CHECK:           arith.mulf
// CHECK:         linalg.matmul ins(%[[B]]
// CHECK:         linalg.generic {{.*}} ins(%[[B]]
// CHECK-NOT:       arith.mulf
// CHECK:           arith.addf
func.func @shared_with_matmul(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c2 = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %c2 : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%b, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %mm, %r : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Left alone: a transpose feeding a matmul (the kernel's packing may take
// it), the fill that initializes the matmul, and an expensive producer
// (tanh) with two consumers.
// CHECK-LABEL: func @left_alone
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[C:.*]] = linalg.fill
// CHECK: linalg.matmul ins(%{{.*}}, %[[T]] : {{.*}}) outs(%[[C]] :
// CHECK: %[[TH:.*]] = linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic {{.*}} ins(%[[TH]]
// CHECK: linalg.generic {{.*}} ins(%[[TH]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @left_alone(%a: tensor<16x32xf32>, %w: tensor<64x32xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<32x64xf32>
  %t = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%et : tensor<32x64xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%a, %t : tensor<16x32xf32>, tensor<32x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  %th = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<16x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<16x64xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<16x64xf32>
  return %p, %q : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// A reduction that reads each element of its operand several times (a
// filter gradient reads the output gradient once per filter tap) takes in
// no producer but a cast: batch norm's backward (scale, shift) stays its
// own generic, computed once; the rounding cast of the input is fused.
#x = affine_map<(c, i, j, f, n, y, x) -> (n, c, y + i, x + j)>
#g = affine_map<(c, i, j, f, n, y, x) -> (n, f, y, x)>
#o = affine_map<(c, i, j, f, n, y, x) -> (c, i, j, f)>
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#ch = affine_map<(a, b, c, d) -> (b)>

// CHECK-LABEL: func @filter_gradient_reads_again
// CHECK:       %[[G:.*]] = linalg.generic
// CHECK:         arith.subf
// CHECK:         arith.mulf
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %[[G]] : tensor<2x4x6x6xf32>, tensor<2x8x4x4xf32>)
// CHECK:         arith.truncf
// CHECK-NOT:     arith.subf
// CHECK:       return
func.func @filter_gradient_reads_again(%x: tensor<2x4x6x6xf32>, %dy: tensor<2x8x4x4xf32>, %shift: tensor<8xf32>, %scale: tensor<8xf32>) -> tensor<4x3x3x8xf32> {
  %e = tensor.empty() : tensor<2x8x4x4xf32>
  %grad = linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dy, %shift, %scale : tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<2x8x4x4xf32>) {
  ^bb0(%d: f32, %s: f32, %k: f32, %o: f32):
    %a = arith.subf %d, %s : f32
    %m = arith.mulf %a, %k : f32
    linalg.yield %m : f32
  } -> tensor<2x8x4x4xf32>
  %ex = tensor.empty() : tensor<2x4x6x6xbf16>
  %xb = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x6x6xf32>) outs(%ex : tensor<2x4x6x6xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x4x6x6xbf16>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x3x3x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x3x3x8xf32>) -> tensor<4x3x3x8xf32>
  %w = linalg.generic {indexing_maps = [#x, #g, #o],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xb, %grad : tensor<2x4x6x6xbf16>, tensor<2x8x4x4xf32>) outs(%o0 : tensor<4x3x3x8xf32>) {
  ^bb0(%a: bf16, %b: f32, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %p = arith.mulf %ae, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3x8xf32>
  return %w : tensor<4x3x3x8xf32>
}

// -----

// A reduction that reads each element once (a sum of squared differences)
// takes its producer in.
#id2 = affine_map<(a, b) -> (a, b)>
#row = affine_map<(a, b) -> (a)>

// CHECK-LABEL: func @sum_reads_once
// CHECK:       linalg.generic
// CHECK:         arith.subf
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK-NOT:   linalg.generic
func.func @sum_reads_once(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %d = arith.subf %u, %v : f32
    %m = arith.mulf %d, %d : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %r0 = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4x8xf32>) outs(%r0 : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An FP8 rounding (integer code on CPUs without FP8) read through a
// broadcast is not recomputed for every element it is broadcast to: the
// new row of an FP8 KV cache is rounded once, then selected into every
// slot. A bf16 rounding in the same place is fused (one instruction).
// CHECK-LABEL: func.func @fp8_rounding_through_broadcast
// CHECK:         %[[ROW:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x32xf32>) outs(%{{.*}} : tensor<1x32xf8E4M3FN>)
// CHECK:           arith.truncf %{{.*}} : f32 to f8E4M3FN
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[ROW]], %{{.*}} : tensor<8x1xi1>, tensor<1x32xf8E4M3FN>, tensor<8x32xf8E4M3FN>)
// CHECK-NOT:       arith.truncf
// CHECK:           arith.select
// CHECK-LABEL: func.func @bf16_rounding_through_broadcast
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x1xi1>, tensor<1x32xf32>, tensor<8x32xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           arith.select
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
#col = affine_map<(d0, d1) -> (d0, 0)>
func.func @fp8_rounding_through_broadcast(%k: tensor<1x32xf32>, %cache: tensor<8x32xf8E4M3FN>, %slot: tensor<8x1xi1>) -> tensor<8x32xf8E4M3FN> {
  %e = tensor.empty() : tensor<1x32xf8E4M3FN>
  %k8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<1x32xf32>) outs(%e : tensor<1x32xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %t = arith.truncf %in : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<1x32xf8E4M3FN>
  %e2 = tensor.empty() : tensor<8x32xf8E4M3FN>
  %upd = linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%slot, %k8, %cache : tensor<8x1xi1>, tensor<1x32xf8E4M3FN>, tensor<8x32xf8E4M3FN>) outs(%e2 : tensor<8x32xf8E4M3FN>) {
  ^bb0(%m: i1, %n: f8E4M3FN, %o: f8E4M3FN, %out: f8E4M3FN):
    %s = arith.select %m, %n, %o : f8E4M3FN
    linalg.yield %s : f8E4M3FN
  } -> tensor<8x32xf8E4M3FN>
  return %upd : tensor<8x32xf8E4M3FN>
}
func.func @bf16_rounding_through_broadcast(%k: tensor<1x32xf32>, %cache: tensor<8x32xbf16>, %slot: tensor<8x1xi1>) -> tensor<8x32xbf16> {
  %e = tensor.empty() : tensor<1x32xbf16>
  %k16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<1x32xf32>) outs(%e : tensor<1x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  %upd = linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%slot, %k16, %cache : tensor<8x1xi1>, tensor<1x32xbf16>, tensor<8x32xbf16>) outs(%e2 : tensor<8x32xbf16>) {
  ^bb0(%m: i1, %n: bf16, %o: bf16, %out: bf16):
    %s = arith.select %m, %n, %o : bf16
    linalg.yield %s : bf16
  } -> tensor<8x32xbf16>
  return %upd : tensor<8x32xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A residual stream: each add is read by the next add and by a row sum (a
// layer norm's mean). The first add reads only arguments: it is recomputed
// in both of its readers. The second, recomputing the first, is stored, and
// the second row sum and the third add read it: the stream is not
// recomputed from its start in every row sum (quadratic in the number of
// layers).
// CHECK-LABEL: func @residual_stream
// CHECK:         iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK:         %[[R1:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1, %arg2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK:         iterator_types = ["parallel", "reduction"]} ins(%[[R1]] : tensor<8x16xf32>)
// CHECK-COUNT-1:   arith.addf
// CHECK-NOT:       arith.addf
// CHECK:           linalg.yield
// CHECK:         iterator_types = ["parallel", "parallel"]} ins(%[[R1]], %arg3 : tensor<8x16xf32>, tensor<8x16xf32>)
func.func @residual_stream(%x: tensor<8x16xf32>, %y1: tensor<8x16xf32>, %y2: tensor<8x16xf32>, %y3: tensor<8x16xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<8xf32>) -> tensor<8xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %m0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%r0 : tensor<8x16xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r0, %y2 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %m1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%r1 : tensor<8x16xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r1, %y3 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %m0, %m1, %r2 : tensor<8xf32>, tensor<8xf32>, tensor<8x16xf32>
}
