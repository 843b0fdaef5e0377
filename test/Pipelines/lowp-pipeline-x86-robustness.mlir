// Programs utils/fuzz_passes.py found the x86 pipeline failing on, reduced:
// each now lowers to the LLVM dialect.
// RUN: fp-opt %s -split-input-file -lowp-pipeline-x86=target=avx2 | FileCheck %s

// A convolution with a 1-wide filter: its single-iteration filter loops are
// promoted before affine-super-vectorize, which vectorized one of them and
// wrote a broadcast to memory ('vector.transfer_write' op should not have
// broadcast dimensions). Now the output width is vectorized. (In f64: an
// f32 one is now taken by the NCHW kernel, below.)
// CHECK-LABEL: llvm.func @conv_1wide
//       CHECK:   llvm.fmul %{{.*}}, %{{.*}} : vector<8xf64>
//       CHECK:   llvm.fadd %{{.*}}, %{{.*}} : vector<8xf64>
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<8xf64>, !llvm.ptr
func.func @conv_1wide(%x: tensor<2x1x4x8xf64>, %f: tensor<8x1x1x1xf64>, %y: tensor<2x8x4x8xf64>) -> tensor<2x8x4x8xf64> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %f : tensor<2x1x4x8xf64>, tensor<8x1x1x1xf64>) outs(%y : tensor<2x8x4x8xf64>) -> tensor<2x8x4x8xf64>
  return %0 : tensor<2x8x4x8xf64>
}

// CHECK-LABEL: llvm.func @conv_1wide_f32
//       CHECK:   llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
func.func @conv_1wide_f32(%x: tensor<2x1x4x8xf32>, %f: tensor<8x1x1x1xf32>, %y: tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %f : tensor<2x1x4x8xf32>, tensor<8x1x1x1xf32>) outs(%y : tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
  return %0 : tensor<2x8x4x8xf32>
}

// -----

// A scalar parameter as a dense_resource blob (torch-mlir's FX importer):
// finalize-memref-to-llvm aborted reading it ("ElementsAttr does not
// provide iteration facilities"); lowp-inline-scalar-resources reads it.
//       CHECK: llvm.mlir.global private constant @__constant_xf32(2.000000e+00 : f32)
// CHECK-LABEL: llvm.func @scalar_resource
//       CHECK:   llvm.fmul %{{.*}}, %{{.*}} : vector<8xf32>
func.func @scalar_resource(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = arith.constant dense_resource<scale> : tensor<f32>
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %s : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      scale: "0x0400000000000040"
    }
  }
#-}
// -----

// -----

// An elementwise op on a dynamic tensor carried by scf.for: where, after
// bufferization, its size is memref.dim of a loop-carried buffer, no affine
// symbol ('affine.for' op operand cannot be used as a dimension id), it
// becomes scf loops instead. (Buffer deallocation's canonicalization now
// updates the argument in place, so the size is the argument's and the
// loop is vectorized; exp is lowp-approximate-math's polynomial: fma, no
// libm call.)
// CHECK-LABEL: llvm.func @dynamic_in_loop
//       CHECK:   llvm.cond_br
//       CHECK:   llvm.intr.fma({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
func.func @dynamic_in_loop(%x: tensor<?x8xf32>, %n: index) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x) -> (tensor<?x8xf32>) {
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<?x8xf32>) {
    ^bb0(%a: f32):
      %m = math.exp %a : f32
      linalg.yield %m : f32
    } -> tensor<?x8xf32>
    scf.yield %y : tensor<?x8xf32>
  }
  return %r : tensor<?x8xf32>
}

// -----

// arith and math on whole tensors (as TOSA- and StableHLO-to-linalg leave
// some): not bufferizable ("op was not bufferized", "'arith.select' op only
// i1 condition values are supported"); convert-elementwise-to-linalg makes
// them linalg.generic first, and they are vectorized like any other.
// CHECK-LABEL: llvm.func @tensor_arith
//       CHECK:   llvm.intr.fma({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
//       CHECK:   llvm.fcmp "olt" %{{.*}}, %{{.*}} : vector<8xf32>
//       CHECK:   llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
func.func @tensor_arith(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = math.exp %x : tensor<4x8xf32>
  %c = arith.cmpf olt, %0, %y : tensor<4x8xf32>
  %1 = arith.select %c, %0, %y : tensor<4x8xi1>, tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A branch that carries a tensor: one-shot-bufferize typed the block
// argument and the value its predecessor passes differently ("type mismatch
// for bb argument #0 of successor #1"); lift-cf-to-scf makes it an scf.if
// first (which canonicalizes to a select of the two buffers).
// CHECK-LABEL: llvm.func @branch_carries_tensor
//       CHECK:   llvm.intr.fma({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
//       CHECK:   llvm.select %arg10, %{{.*}}, %{{.*}} : i1, !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
func.func @branch_carries_tensor(%x: tensor<?xf32>, %y: tensor<?xf32>, %c: i1) -> tensor<?xf32> {
  %e = math.exp %x : tensor<?xf32>
  cf.cond_br %c, ^bb1(%e : tensor<?xf32>), ^bb1(%y : tensor<?xf32>)
^bb1(%r: tensor<?xf32>):
  return %r : tensor<?xf32>
}

// -----

// A causal softmax (utils/check_no_error_on_success.py, on the lit corpus):
// the mask's `j <= i` uses the loop's induction variable inside the row
// max, and MLIR 22's affine-super-vectorize crashed on that reduction once
// lowp-promote-reduction-accumulators carried its accumulator. The row
// reductions with a mask stay scalar; the unmasked ones still vectorize.
// CHECK-LABEL: llvm.func @causal_softmax
//       CHECK:   llvm.icmp "sge"
//       CHECK:   llvm.intr.vector.reduce.fadd
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
func.func @causal_softmax(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %masked = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sge, %i, %j : index
    %v = arith.select %keep, %in, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %re = tensor.empty() : tensor<8x1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%re : tensor<8x1xf32>) -> tensor<8x1xf32>
  %m = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%masked : tensor<8x8xf32>) outs(%m0 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<8x1xf32>
  %ex = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%masked, %m : tensor<8x8xf32>, tensor<8x1xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%re : tensor<8x1xf32>) -> tensor<8x1xf32>
  %z = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8x8xf32>) outs(%z0 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<8x1xf32>
  %p = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%ex, %z : tensor<8x8xf32>, tensor<8x1xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %x = arith.divf %in, %sum : f32
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}
