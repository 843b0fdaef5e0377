// Front-end IR no lowering can take, each rejected with one located error.
// Ops of unregistered dialects (a partial torch-mlir export, a custom call)
// have no lowering: every lowering pipeline reports the first one with its
// location, once, and a note counts the others (lowp-prepare-lowering-input),
// before any pass trips over them. The decision passes leave them in place
// (robustness.mlir); so does the decision pipeline here, before lowering.
// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -lowp-pipeline-x86=target=avx2
// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -lowp-pipeline-nvvm=target=sm_90
// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -lowp-pipeline-rocdl=target=gfx942
// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -lowp-pipeline-tpu=target=tpu-v5e
// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --lowp-auto-mixed-precision=target=sm_90 -lowp-pipeline-nvvm=target=sm_90
// RUN: fp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -lowp-prepare-lowering-input -lowp-pipeline-x86=target=avx2

// An aten op the exporter did not decompose, between two linalg ops.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @aten_gelu(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-error @below {{'torch.aten.gelu' is not a registered op: the lowering pipelines cannot compile it (lower it to linalg, tensor, arith or math first; the decision passes leave it in place)}}
  %g = "torch.aten.gelu"(%h) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// Several: one error, at the first, and a note for the rest.
func.func @several(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'torch.aten.relu' is not a registered op}}
  // expected-note @below {{2 more unregistered ops in this module}}
  %a = "torch.aten.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "torch.aten.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = "torch.aten.tanh"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// In buffer code, with no tensor in sight (a runtime's barrier).
func.func @buffer_side_effect(%m: memref<16xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %m[%c0] : vector<16xf32>, memref<16xf32>
  // expected-error @below {{'iree_hal.barrier' is not a registered op}}
  "iree_hal.barrier"() : () -> ()
  return
}

// -----

// Inside a linalg payload (a custom scalar op), in a nested region.
#map = affine_map<(d0) -> (d0)>
func.func @in_payload(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error @below {{'custom.fast_gelu' is not a registered op}}
    %y = "custom.fast_gelu"(%in) : (f32) -> f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A runtime that frees a buffer it was handed: the pipelines' deallocation
// owns every free, and says so at the op.
func.func @free_argument(%cache: memref<16x64xf32>) {
  // expected-error @below {{frees a buffer its function did not allocate}}
  memref.dealloc %cache : memref<16x64xf32>
  return
}

// -----

// A nested module (per-module targets, a bundle of exports): no lowering
// looks inside one, and its functions came out unlowered on a run that
// succeeded.
func.func @outer(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = math.exp %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
// expected-error @below {{nested module: the lowering pipelines compile the functions of the top-level module only (these would be left as they are); lower each module on its own}}
module @inner attributes {lowp.target = #lowp.target<"gfx942">} {
  func.func @nested_sqrt(%x: tensor<f32>) -> tensor<f32> {
    %y = math.sqrt %x : tensor<f32>
    return %y : tensor<f32>
  }
}
