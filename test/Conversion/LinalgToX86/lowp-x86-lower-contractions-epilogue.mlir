// RUN: fp-opt %s -lowp-x86-lower-contractions="target=avx2 mr=3 nr=8" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: fp-opt %s -lowp-x86-lower-contractions="target=znver4 mr=2" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=DOT

// The fill of C and its elementwise consumer (bias, activation, residual,
// narrowing cast) run in the kernel: the first k block starts from the fill
// value, the last applies the consumer's payload to the accumulators and
// stores its output. An elementwise consumer that cannot be fused gets a
// remark with the reason.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// bf16 nn.Linear + bias + ReLU, result rounded to bf16: C is never zeroed, never
// read back, not even allocated (K = 16: one k block).
// CHECK-LABEL: func @linear_relu_cast
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.alloc(){{.*}}: memref<6x20xf32>
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: arith.cmpf ugt, {{.*}} : vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: vector.maskedstore %{{.*}} : memref<6x20xbf16>, vector<8xi1>, vector<8xbf16>
// CHECK-NOT: linalg.generic
// DOT-LABEL: func @linear_relu_cast
// DOT-NOT: linalg.generic
// DOT: x86vector.avx512.dot
// DOT: arith.truncf {{.*}} : vector<16xf32> to vector<16xbf16>
func.func @linear_relu_cast(%a: memref<6x16xbf16>, %w: memref<16x20xbf16>, %bias: memref<20xf32>) -> memref<6x20xbf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<6x20xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<6x20xf32>)
  linalg.matmul ins(%a, %w : memref<6x16xbf16>, memref<16x20xbf16>) outs(%c : memref<6x20xf32>)
  %out = memref.alloc() : memref<6x20xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<6x20xf32>, memref<20xf32>) outs(%out : memref<6x20xbf16>) {
  ^bb0(%x: f32, %b: f32, %o: bf16):
    %s = arith.addf %x, %b : f32
    %p = arith.cmpf ugt, %s, %zero : f32
    %r = arith.select %p, %s, %zero : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %c : memref<6x20xf32>
  return %out : memref<6x20xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Several k blocks (kc = 512 < K, 7 rows: more than 2 row blocks of 3):
// C holds the partial sums between them;
// the first block starts from the fill value, the last stores the residual
// add into the output. C stays (it is written by the earlier blocks).
// CHECK-LABEL: func @residual_k_blocks
// CHECK-NOT: linalg.fill
// CHECK: memref.alloc(){{.*}}: memref<7x8xf32>
// CHECK: scf.for
// CHECK-NOT: linalg.generic
// CHECK: vector.store %{{.*}} : memref<7x8xf32>, vector<8xf32>
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}} : memref<7x8xf32>, vector<8xf32>
// CHECK-NOT: linalg.generic
func.func @residual_k_blocks(%a: memref<7x1200xf32>, %w: memref<1200x8xf32>, %res: memref<7x8xf32>, %out: memref<7x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<7x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<7x8xf32>)
  linalg.matmul ins(%a, %w : memref<7x1200xf32>, memref<1200x8xf32>) outs(%c : memref<7x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %res : memref<7x8xf32>, memref<7x8xf32>) outs(%out : memref<7x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<7x8xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// 3 rows, one block of mr = 3 (B packed per panel on the fly): k blocks as
// deep as the slice buffer allows (here all of K), so C is never written:
// the fill and the residual add are the one block's, and C is gone.
// CHECK-LABEL: func @residual_few_rows
// CHECK-NOT: memref.alloc(){{.*}}: memref<3x8xf32>
// CHECK-NOT: linalg.
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %arg3{{.*}} : memref<3x8xf32>, vector<8xf32>
// CHECK-NOT: linalg.
func.func @residual_few_rows(%a: memref<3x1200xf32>, %w: memref<1200x8xf32>, %res: memref<3x8xf32>, %out: memref<3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<3x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<3x8xf32>)
  linalg.matmul ins(%a, %w : memref<3x1200xf32>, memref<1200x8xf32>) outs(%c : memref<3x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %res : memref<3x8xf32>, memref<3x8xf32>) outs(%out : memref<3x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<3x8xf32>
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// batch_matmul (attention scores) scaled by a scalar argument.
// CHECK-LABEL: func @batched_scale
// CHECK-NOT: linalg.generic
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: arith.mulf {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
func.func @batched_scale(%q: memref<2x3x8xf32>, %k: memref<2x8x8xf32>, %s: f32, %out: memref<2x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x3x8xf32>)
  linalg.batch_matmul ins(%q, %k : memref<2x3x8xf32>, memref<2x8x8xf32>) outs(%c : memref<2x3x8xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<2x3x8xf32>) outs(%out : memref<2x3x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  }
  memref.dealloc %c : memref<2x3x8xf32>
  return
}

// -----

#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>

// NHWC convolution (im2col + matmul on the output viewed as a matrix) with
// a per-channel batch norm and ReLU: the consumer reads the output and its
// per-channel operands through the same collapse.
// CHECK-LABEL: func @conv_bn_relu
// CHECK-NOT: linalg.fill
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : memref<1x4x4x8xf32> into memref<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: arith.mulf {{.*}} : vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
func.func @conv_bn_relu(%x: memref<1x6x6x4xf32>, %f: memref<3x3x4x8xf32>, %scale: memref<8xf32>, %shift: memref<8xf32>, %out: memref<1x4x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x4x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x4x8xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : memref<1x6x6x4xf32>, memref<3x3x4x8xf32>) outs(%c : memref<1x4x4x8xf32>)
  linalg.generic {indexing_maps = [#id4, #chan, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %scale, %shift : memref<1x4x4x8xf32>, memref<8xf32>, memref<8xf32>) outs(%out : memref<1x4x4x8xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %t : f32
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<1x4x4x8xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

// Left alone, with the reason: a consumer reading C transposed.
// CHECK-LABEL: func @transposed_consumer
// CHECK: linalg.generic
func.func @transposed_consumer(%a: memref<8x8xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.matmul': it reads the result through a non-identity map}}
  linalg.matmul ins(%a, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  memref.dealloc %c : memref<8x8xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Left alone: the consumer writes into A, which the kernel still reads.
// CHECK-LABEL: func @output_aliases_a
// CHECK: linalg.generic
func.func @output_aliases_a(%a: memref<8x8xf32>, %w: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.matmul': its output aliases an operand of the contraction}}
  linalg.matmul ins(%a, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%a : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %c : memref<8x8xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Left alone: the residual is overwritten between the contraction and the
// consumer, which must see the new value.
// CHECK-LABEL: func @input_written_between
// CHECK: linalg.generic
func.func @input_written_between(%a: memref<8x8xf32>, %w: memref<8x8xf32>, %res: memref<8x8xf32>, %out: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.matmul': 'linalg.fill' in between accesses its operands}}
  linalg.matmul ins(%a, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.fill ins(%one : f32) outs(%res : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %res : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<8x8xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Left alone: C is read by a second op too (it must be stored); the fill is
// still folded into the first k block.
// CHECK-LABEL: func @two_readers
// CHECK-NOT: linalg.fill
// CHECK-COUNT-2: linalg.generic
func.func @two_readers(%a: memref<8x8xf32>, %w: memref<8x8xf32>, %o1: memref<8x8xf32>, %o2: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.matmul': 'linalg.generic' also accesses the result after the contraction}}
  linalg.matmul ins(%a, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%o1 : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%o2 : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.addf %x, %x : f32
    linalg.yield %n : f32
  }
  memref.dealloc %c : memref<8x8xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rowsum = affine_map<(d0, d1) -> (d0)>

// No remark for a reduction consumer (softmax's row max): not elementwise.
// CHECK-LABEL: func @reduction_consumer
// CHECK: linalg.generic
func.func @reduction_consumer(%a: memref<8x8xf32>, %w: memref<8x8xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%a, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #rowsum], iterator_types = ["parallel", "reduction"]}
      ins(%c : memref<8x8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %o : f32
    linalg.yield %m : f32
  }
  memref.dealloc %c : memref<8x8xf32>
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// In place (what bufferization makes of an elementwise op on the result):
// the consumer writes C, which is returned; the epilogue stores its result
// there.
// CHECK-LABEL: func @in_place_returned
// CHECK: %[[C:.*]] = memref.alloc(){{.*}}: memref<2x3x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: arith.mulf {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[C]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[C]]
func.func @in_place_returned(%q: memref<2x3x8xf32>, %k: memref<2x8x8xf32>) -> memref<2x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s = arith.constant 0.125 : f32
  %c = memref.alloc() : memref<2x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x3x8xf32>)
  linalg.batch_matmul ins(%q, %k : memref<2x3x8xf32>, memref<2x8x8xf32>) outs(%c : memref<2x3x8xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<2x3x8xf32>) outs(%c : memref<2x3x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  }
  return %c : memref<2x3x8xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#merge = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Attention's head merge: the result stored through the permutation, one
// contiguous vector per accumulator (the columns stay innermost).
// CHECK-LABEL: func @head_merge
// CHECK-NOT: linalg.generic
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x2x8xf32>, vector<8xf32>
// CHECK-NOT: linalg.generic
func.func @head_merge(%p: memref<2x3x8xf32>, %v: memref<2x8x8xf32>, %out: memref<3x2x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x3x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x3x8xf32>)
  linalg.batch_matmul ins(%p, %v : memref<2x3x8xf32>, memref<2x8x8xf32>) outs(%c : memref<2x3x8xf32>)
  linalg.generic {indexing_maps = [#id3, #merge], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<2x3x8xf32>) outs(%out : memref<3x2x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %c : memref<2x3x8xf32>
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// Left alone: an output written with the columns moved (a strided store).
// CHECK-LABEL: func @columns_moved
// CHECK: linalg.generic
func.func @columns_moved(%p: memref<2x8x8xf32>, %v: memref<2x8x8xf32>, %out: memref<2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x8x8xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.batch_matmul': it writes its output through a map that moves the columns or crosses the collapsed rows}}
  linalg.batch_matmul ins(%p, %v : memref<2x8x8xf32>, memref<2x8x8xf32>) outs(%c : memref<2x8x8xf32>)
  linalg.generic {indexing_maps = [#id3, #swap], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<2x8x8xf32>) outs(%out : memref<2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.dealloc %c : memref<2x8x8xf32>
  return
}

// -----

#id4 = affine_map<(n, c, y, x) -> (n, c, y, x)>
#ch = affine_map<(n, c, y, x) -> (c)>

// NCHW convolution (GEMMs on the output viewed as F x pixels) with batch
// norm, residual and ReLU: per-channel operands are broadcast scalars of
// the kernel's row, the residual is read through the same collapse as C.
// The output is written by the kernel; C is never allocated.
// CHECK-LABEL: func @nchw_conv_bn_res_relu
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.alloc() : memref<1x8x4x4xf32>
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : memref<1x8x4x4xf32> into memref<1x8x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: memref.load %{{.*}} : memref<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
func.func @nchw_conv_bn_res_relu(%x: memref<1x4x6x6xf32>, %f: memref<8x4x3x3xf32>, %scale: memref<8xf32>, %shift: memref<8xf32>, %res: memref<1x8x4x4xf32>, %out: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x8x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : memref<1x4x6x6xf32>, memref<8x4x3x3xf32>) outs(%c : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %scale, %shift, %res : memref<1x8x4x4xf32>, memref<8xf32>, memref<8xf32>, memref<1x8x4x4xf32>) outs(%out : memref<1x8x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %r: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %t : f32
    %b = arith.addf %a, %r : f32
    %z = arith.maximumf %b, %zero : f32
    linalg.yield %z : f32
  }
  memref.dealloc %c : memref<1x8x4x4xf32>
  return
}

// -----

#id4 = affine_map<(n, c, y, x) -> (n, c, y, x)>
#col = affine_map<(n, c, y, x) -> (x)>

// Left alone: an operand indexed by the output column alone (x) cannot
// follow the kernel's columns, which are the pixels (y, x) collapsed.
// CHECK-LABEL: func @nchw_conv_per_column
// CHECK: linalg.generic
func.func @nchw_conv_per_column(%x: memref<1x4x6x6xf32>, %f: memref<8x4x3x3xf32>, %w: memref<4xf32>, %out: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x8x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x4x4xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.conv_2d_nchw_fchw': operand #1 is read along part of the collapsed columns}}
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : memref<1x4x6x6xf32>, memref<8x4x3x3xf32>) outs(%c : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id4, #col, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %w : memref<1x8x4x4xf32>, memref<4xf32>) outs(%out : memref<1x8x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  }
  memref.dealloc %c : memref<1x8x4x4xf32>
  return
}

// -----

#id4 = affine_map<(n, c, y, x) -> (n, c, y, x)>
#ch = affine_map<(n, c, y, x) -> (c)>

// Depthwise NCHW with batch norm and ReLU6: the accumulators start from the
// fill value and are stored through the consumer (the per-channel operands
// read once per channel, before its rows; the output columns a vector at a
// time).
// CHECK-LABEL: func @depthwise_bn_relu6
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[C:.*]] = %c0 to %c8 step %c1 {
// CHECK: memref.load %{{.*}}[%[[C]]] : memref<8xf32>
// CHECK: memref.load %{{.*}}[%[[C]]] : memref<8xf32>
// CHECK: vector.fma
// CHECK-NOT: memref.load %{{.*}} : memref<8xf32>
// CHECK: arith.minimumf {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[OUT:arg5]]
// CHECK-NOT: linalg.generic
func.func @depthwise_bn_relu6(%x: memref<1x8x6x10xf32>, %f: memref<8x3x3xf32>, %scale: memref<8xf32>, %shift: memref<8xf32>, %unused: memref<8xf32>, %out: memref<1x8x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c = memref.alloc() : memref<1x8x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x4x8xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : memref<1x8x6x10xf32>, memref<8x3x3xf32>) outs(%c : memref<1x8x4x8xf32>)
  linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %scale, %shift : memref<1x8x4x8xf32>, memref<8xf32>, memref<8xf32>) outs(%out : memref<1x8x4x8xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %t : f32
    %z = arith.maximumf %a, %zero : f32
    %z6 = arith.minimumf %z, %six : f32
    linalg.yield %z6 : f32
  }
  memref.dealloc %c : memref<1x8x4x8xf32>
  return
}

// -----

#id4 = affine_map<(n, c, y, x) -> (n, c, y, x)>
#swap = affine_map<(n, c, y, x) -> (n, c, x, y)>

// Left alone: a depthwise output read transposed by its consumer.
// CHECK-LABEL: func @depthwise_transposed_consumer
// CHECK: linalg.generic
func.func @depthwise_transposed_consumer(%x: memref<1x8x10x10xf32>, %f: memref<8x3x3xf32>, %out: memref<1x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x8x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x8x8xf32>)
  // expected-remark @below {{elementwise consumer not fused into 'linalg.depthwise_conv_2d_nchw_chw': it reads the result through a non-identity map}}
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : memref<1x8x10x10xf32>, memref<8x3x3xf32>) outs(%c : memref<1x8x8x8xf32>)
  linalg.generic {indexing_maps = [#swap, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<1x8x8x8xf32>) outs(%out : memref<1x8x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.maximumf %v, %zero : f32
    linalg.yield %z : f32
  }
  memref.dealloc %c : memref<1x8x8x8xf32>
  return
}

// -----

// C passed by the caller (a GEMM called as a library routine): the fill
// right before the matmul is the kernel's first k block (the accumulators
// start from zero and all of C is written), no pass of zeros. The
// elementwise consumer is not taken: C must hold the product.
// CHECK-LABEL: func @argument_c_fill
// CHECK-NOT: linalg.fill
// CHECK: arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %arg2
// CHECK: linalg.generic
func.func @argument_c_fill(%a: memref<6x8xf32>, %b: memref<8x8xf32>, %c: memref<6x8xf32>, %out: memref<6x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<6x8xf32>)
  linalg.matmul ins(%a, %b : memref<6x8xf32>, memref<8x8xf32>) outs(%c : memref<6x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<6x8xf32>) outs(%out : memref<6x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Something that writes memory between the fill and the matmul (here into
// A, which might alias C for all the function knows): the fill stays its
// own pass (vector stores over C flattened) and the kernel accumulates onto
// C.
// CHECK-LABEL: func @argument_c_written_between
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg2
// CHECK: vector.store %{{.*}}, %[[FLAT]]
// CHECK: memref.store
// CHECK: vector.load %arg2
// CHECK: vector.fma
func.func @argument_c_written_between(%a: memref<6x8xf32>, %b: memref<8x8xf32>, %c: memref<6x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : index
  linalg.fill ins(%zero : f32) outs(%c : memref<6x8xf32>)
  memref.store %zero, %a[%i0, %i0] : memref<6x8xf32>
  linalg.matmul ins(%a, %b : memref<6x8xf32>, memref<8x8xf32>) outs(%c : memref<6x8xf32>)
  return
}
