// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling -verify-diagnostics
// RUN: not fp-opt %s -split-input-file -lowp-materialize-loss-scaling --remarks-filter=lowp-materialize-loss-scaling -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not fp-opt %s -split-input-file -lowp-materialize-loss-scaling --remarks-filter=lowp-select-fp8-formats -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER

// Why a marked step is left as it is: decision remarks of the pass's
// category (the errors are not).
// REMARK: [Analysis] NotApplied | Category:lowp-materialize-loss-scaling | Function=bf16_step | Remark="loss scaling not applied: compute type 'bf16' (from #lowp.policy) has an exponent range at least f32's, so gradients do not underflow"
// REMARK: [Analysis] NotApplied | Category:lowp-materialize-loss-scaling | Function=fp8_step | Remark="loss scaling not applied: 8-bit float compute ('f8E5M2', from the function's float types) is scaled per tensor by lowp-select-fp8-formats, not by a loss scale"
// REMARK: [Analysis] NotApplied | Category:lowp-materialize-loss-scaling | Function=f32_step | Remark="loss scaling not applied: compute type 'f32' (from the function's float types)
// REMARK: [Analysis] NotApplied | Category:lowp-materialize-loss-scaling | Function=policy_none | Remark="loss scaling not applied: mode none (from #lowp.policy)"
// REMARK: [Analysis] AlreadyMaterialized | Category:lowp-materialize-loss-scaling | Function=done | Remark="loss scaling already materialized (dynamic)"
// REMARK: [Analysis] NotATrainingStep | Category:lowp-materialize-loss-scaling | Function=unmarked_f16_step | Remark="loss scaling not applied: no training-step markers (lowp.loss, lowp.loss_seed, lowp.gradient, lowp.updates; docs/training-step.md), so the function is compiled as it is"
// REMARK-NOT: [Analysis]
// OTHER-NOT: [Analysis]

// expected-error @+1 {{has an incomplete training-step marking: it marks a loss result ('lowp.loss'), parameter updates ('lowp.updates') but not a backward seed ('lowp.loss_seed'), gradients ('lowp.gradient')}}
func.func @no_seed(%w: tensor<4xf32>) -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  return %loss, %w : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{marks 2 results as the loss; a training step has one}}
func.func @two_losses(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %loss, %w1 : tensor<f32>, tensor<f32>, tensor<4xf32>
}

// -----

// A gradient has its parameter's shape: one no updated argument has is a
// marking error, not a gradient the unscale could guard.
func.func @gradient_of_no_parameter(%w: tensor<4xf32>, %g16: tensor<3xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  // expected-error @+1 {{marks a gradient of type 'tensor<3xf32>', the shape of no argument the step updates (a gradient has the shape of its parameter); updated: #0 'tensor<4xf32>'}}
  %g = arith.extf %g16 {lowp.gradient} : tensor<3xf16> to tensor<3xf32>
  %w1 = arith.addf %w, %w : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @two_seeds(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  // expected-error @+1 {{is a second backward seed; a training step has one}}
  %seed2 = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f32>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @seed_not_one(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  // expected-error @+1 {{backward seed must be 1.0 (the cotangent of the loss), got dense<2.000000e+00> : tensor<f16>}}
  %seed = arith.constant {lowp.loss_seed} dense<2.0> : tensor<f16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @seed_shape(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  // expected-error @+1 {{backward seed of type 'tensor<2xf16>' does not have the shape of the loss ('tensor<f32>')}}
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<2xf16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @f16_gradient(%w: tensor<4xf32>, %x: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  // An f16 gradient is accepted when only exact widening casts read it;
  // here an f16 op reads it too.
  // expected-error @+1 {{result #0 is marked as a gradient but has type 'tensor<4xf16>'; mark the f32 master gradient (after the cast from the compute type)}}
  %g16 = arith.addf %x, %x {lowp.gradient} : tensor<4xf16>
  %h16 = arith.mulf %g16, %g16 : tensor<4xf16>
  %g = arith.extf %h16 : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{result #1 is marked as the update of argument #5 but the function has 2 arguments}}
func.func @update_out_of_range(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 5 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{result #1 ('tensor<4xf32>') updates argument #1 of a different type ('tensor<4xf16>')}}
func.func @update_type(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 1 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{results #1 and #2 both update argument #0}}
func.func @update_twice(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1, %w1 : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @nested(%w: tensor<4xf32>, %g16: tensor<4xf16>, %c: i1)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %g = scf.if %c -> tensor<4xf32> {
    // expected-error @+1 {{marks part of a training step inside a nested region; markers must be at the top level of the function body}}
    %e = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    %z = arith.constant dense<0.0> : tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  }
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @step(%w: tensor<4xf32>, %g16: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

func.func @caller(%w: tensor<4xf32>, %g16: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{refers to training step @step, whose signature dynamic loss scaling extends with the scaler state (scale, good-step counter); write callers against the materialized step}}
  %l, %w1 = func.call @step(%w, %g16) : (tensor<4xf32>, tensor<4xf16>) -> (tensor<f32>, tensor<4xf32>)
  return %w1 : tensor<4xf32>
}

// -----

// Remarks say why a marked step is left as it is.

module attributes {lowp.policy = #lowp.policy<compute = bf16, accumulate = f32, storage = f32, loss_scale = none>} {
  // expected-remark @+1 {{loss scaling not applied: compute type 'bf16' (from #lowp.policy) has an exponent range at least f32's, so gradients do not underflow}}
  func.func @bf16_step(%w: tensor<4xf32>, %g16: tensor<4xbf16>)
      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
    %loss = arith.constant dense<0.5> : tensor<f32>
    %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<bf16>
    %g = arith.extf %g16 {lowp.gradient} : tensor<4xbf16> to tensor<4xf32>
    %w1 = arith.subf %w, %g : tensor<4xf32>
    return %loss, %w1 : tensor<f32>, tensor<4xf32>
  }
}

// -----

// expected-remark @+1 {{loss scaling not applied: 8-bit float compute ('f8E5M2', from the function's float types) is scaled per tensor by lowp-select-fp8-formats, not by a loss scale}}
func.func @fp8_step(%w: tensor<4xf32>, %g8: tensor<4xf8E5M2>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f32>
  %g8b = arith.negf %g8 : tensor<4xf8E5M2>
  %g = arith.extf %g8b {lowp.gradient} : tensor<4xf8E5M2> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// expected-remark @+1 {{loss scaling not applied: compute type 'f32' (from the function's float types) has an exponent range at least f32's, so gradients do not underflow}}
func.func @f32_step(%w: tensor<4xf32>, %g: tensor<4xf32>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f32>
  %gm = arith.negf %g {lowp.gradient} : tensor<4xf32>
  %w1 = arith.subf %w, %gm : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

module attributes {lowp.policy = #lowp.policy<compute = f16, accumulate = f32, storage = f32, loss_scale = none>} {
  // expected-remark @+1 {{loss scaling not applied: mode none (from #lowp.policy)}}
  func.func @policy_none(%w: tensor<4xf32>, %g16: tensor<4xf16>)
      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
    %loss = arith.constant dense<0.5> : tensor<f32>
    %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
    %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
    %w1 = arith.subf %w, %g : tensor<4xf32>
    return %loss, %w1 : tensor<f32>, tensor<4xf32>
  }
}

// -----

// expected-remark @+1 {{loss scaling already materialized (dynamic)}}
func.func @done(%w: tensor<4xf32>, %g16: tensor<4xf16>, %s: f32 {lowp.loss_scale = 65536.0 : f32}, %n: i64 {lowp.good_steps})
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}, f32 {lowp.loss_scale}, i64 {lowp.good_steps})
    attributes {lowp.loss_scaling = "dynamic"} {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f16>
  %seed = lowp.scale %s, %one {lowp.loss_seed} : f32, tensor<f16>
  %g = arith.extf %g16 : tensor<4xf16> to tensor<4xf32>
  %u = lowp.unscale %s, %g {lowp.gradient} : f32, tensor<4xf32>
  %ok = lowp.all_finite %u : tensor<4xf32>
  %w1 = arith.subf %w, %u : tensor<4xf32>
  %w2 = arith.select %ok, %w1, %w : tensor<4xf32>
  %s1, %n1 = lowp.update_scale %s, %n, %ok : f32, i64
  return %loss, %w2, %s1, %n1 : tensor<f32>, tensor<4xf32>, f32, i64
}

// -----

// The dialect checks each marker where it appears.

func.func @bad_markers(%x: tensor<4xf32>) {
  // expected-error @+1 {{'lowp.loss_seed' is a unit attribute on a single-result op}}
  %a = arith.constant {lowp.loss_seed = 1 : i64} dense<1.0> : tensor<f32>
  return
}

// -----

// expected-error @+1 {{'lowp.loss_scaling' must be "none", "static" or "dynamic"}}
func.func @bad_mode() attributes {lowp.loss_scaling = "sometimes"} {
  return
}

// -----

// expected-error @+1 {{'lowp.updates' must be the index of the argument it updates}}
func.func @bad_updates(%w: tensor<4xf32>) -> (tensor<4xf32> {lowp.updates = "w"}) {
  return %w : tensor<4xf32>
}

// -----

// An f16 step written without the convention is compiled as it is: said in
// the remark stream only (no diagnostic), like every unmarked f16 function.
// An unmarked f32 function and a declaration get no remark.
func.func @unmarked_f16_step(%w: tensor<4xf32>, %x: tensor<4xf16>) -> tensor<4xf32> {
  %g16 = arith.mulf %x, %x : tensor<4xf16>
  %g = arith.extf %g16 : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %w1 : tensor<4xf32>
}
func.func @unmarked_f32(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func private @declared(tensor<4xf16>) -> tensor<4xf16>
